"""MuJoCo contact parameters of the geoms → glTF friction, and the rest as losses (see :mod:`.read`).

glTF's physics material holds one sliding friction (static = dynamic here) combined by maximum, as MuJoCo
combines a contact's friction. What it cannot hold is listed once per distinct value with ``MJCF-IN-10``
(the pointer names the first geom that has it, the message how many do):

- ``condim 1`` (frictionless): MuJoCo takes the larger ``condim`` of two geoms and then the larger friction
  of both, so such a geom has its friction against a floor of ``condim`` 3 (the usual pairing, kept as is)
  and none against another ``condim``-1 geom, where glTF's maximum gives it;
- ``condim`` 4 and 6: torsional (``friction[1]``) and rolling (``friction[2]``) friction, no counterpart;
- ``solref``/``solimp`` other than MuJoCo's defaults: the contact's stiffness and damping per unit of
  effective mass, k = 1/(d²·τ²·ζ²) and b = 2/(d·τ) (τ, ζ = ``solref``; d = ``solimp[1]``), no counterpart
  (glTF contacts are rigid; MuJoCo's default softness is ``MJCF-IN-9``'s);
- ``margin`` > 0 (less ``gap``): contacts that act before the geoms touch, no counterpart;
- ``priority`` differing between geoms: the higher one's friction wins in MuJoCo, the larger one in glTF.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SOLREF = (0.02, 1.0)  # MuJoCo's defaults
SOLIMP = (0.9, 0.95, 0.001, 0.5, 2.0)
FRICTIONLESS, TORSIONAL, ROLLING = 1, 4, 6  # condim values


def sliding_friction(model: Any, g: int) -> float:
    """The friction written for geom ``g``: MuJoCo's sliding friction (static and dynamic alike)."""
    return float(model.geom_friction[g][0])


def contact_notes(model: Any, colliding: list[int], note: Callable[[str, str, str], None]) -> None:
    """One ``MJCF-IN-10`` note per distinct contact setting of the ``colliding`` geoms that glTF cannot hold."""
    seen: dict[str, list[int]] = {}
    for g in colliding:
        for text in _losses(model, g):
            seen.setdefault(text, []).append(g)
    if len({int(model.geom_priority[g]) for g in colliding}) > 1:
        seen["geom priorities differ: MuJoCo takes the friction of the higher priority, glTF the larger "
             "friction"] = [max(colliding, key=lambda g: int(model.geom_priority[g]))]
    for text, geoms in seen.items():
        count = f" ({len(geoms)} geoms)" if len(geoms) > 1 else ""
        note("MJCF-IN-10", _pointer(model, geoms[0]), text + count)


def _losses(model: Any, g: int) -> list[str]:
    m = model
    out = []
    condim = int(m.geom_condim[g])
    mu = [float(v) for v in m.geom_friction[g]]
    if condim == FRICTIONLESS:
        out.append(f"condim 1: friction {mu[0]:g} kept for contacts with geoms of higher condim; MuJoCo's "
                   "contacts between two condim-1 geoms are frictionless")
    if condim >= TORSIONAL:
        out.append(f"torsional friction {mu[1]:g} (condim {condim}): glTF friction is sliding only")
    if condim >= ROLLING:
        out.append(f"rolling friction {mu[2]:g} (condim {condim}): glTF friction is sliding only")
    solref = tuple(float(v) for v in m.geom_solref[g])
    solimp = tuple(float(v) for v in m.geom_solimp[g])
    if solref != SOLREF or solimp != SOLIMP:
        out.append(f"contact softness solref {_fmt(solref)} solimp {_fmt(solimp)}{_stiffness(solref, solimp)}: "
                   "glTF contacts are rigid")
    margin, gap = float(m.geom_margin[g]), float(m.geom_gap[g])
    if margin - gap > 0:
        out.append(f"margin {margin:g} (gap {gap:g}): contacts from {margin - gap:g} m apart; glTF has no contact "
                   "distance")
    return out


def _stiffness(solref: tuple[float, ...], solimp: tuple[float, ...]) -> str:
    """MuJoCo's contact stiffness and damping per unit effective mass, for the standard (positive) solref."""
    tau, zeta = solref
    d = solimp[1]
    if tau <= 0 or zeta <= 0 or d <= 0:
        return ""  # the direct form (−stiffness, −damping) is its own statement
    return f" (stiffness {1 / (d * d * tau * tau * zeta * zeta):.6g}, damping {2 / (d * tau):.6g} per kg)"


def _fmt(values: tuple[float, ...]) -> str:
    return "(" + " ".join(f"{v:g}" for v in values) + ")"


def _pointer(model: Any, g: int) -> str:
    name = model.geom(g).name
    return f"//geom[@name='{name}']" if name else f"/mujoco/geom[{g}]"
