"""The vector, matrix, quaternion and swizzle ``math/*`` operations. Matrices are column-major (as glTF):
element (row r, column c) of an n×n matrix is ``M[c * n + r]``."""

from __future__ import annotations

import math as m
from typing import Any

import numpy as np

from ..values import Mat, transpose
from .spec import OpSpec, table

NAN = m.nan
_LETTERS = "abcdefghijklmnop"


def sin(x: float) -> float:
    """IEEE sine: NaN for ±inf (``math.sin`` raises ValueError there)."""
    return m.sin(x) if m.isfinite(x) else NAN


def cos(x: float) -> float:
    """IEEE cosine: NaN for ±inf (``math.cos`` raises ValueError there)."""
    return m.cos(x) if m.isfinite(x) else NAN


def _over(v: Any, n: float) -> tuple[float, ...]:
    """``v / n`` element by element with IEEE division: a zero ``n`` (zero or overflowing input vectors) gives
    ±inf or NaN, where Python's float division raises ZeroDivisionError."""
    if n != 0:
        return tuple(x / n for x in v)
    return tuple(NAN if x == 0 or x != x else m.copysign(m.inf, x) * m.copysign(1.0, n) for x in v)


def _len(a: tuple[float, ...]) -> float:
    return m.hypot(*a)


def _normalize(rt: Any, node: Any) -> dict[str, Any]:
    a = rt.get(node, "a")
    n = _len(a)
    if n == 0 or not m.isfinite(n):
        return {"value": (0.0,) * len(a), "isValid": False}
    return {"value": tuple(x / n for x in a), "isValid": True}


def _dot(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def _cross(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _rotate3d(a: tuple[float, ...], r: tuple[float, ...]) -> tuple[float, ...]:
    v = r[:3]
    c1 = _cross(v, a)
    c2 = _cross(v, c1)
    return tuple(a[i] + 2 * (c2[i] + r[3] * c1[i]) for i in range(3))


def _size(a: Mat) -> int:
    return {4: 2, 9: 3, 16: 4}[len(a)]


def _np(a: Mat) -> np.ndarray:
    n = _size(a)
    return np.array(a, dtype=float).reshape(n, n).T  # column-major storage → row-major array


def _mat(x: np.ndarray) -> Mat:
    return Mat(float(v) for v in x.T.reshape(-1))


def _transform(rt: Any, node: Any) -> dict[str, Any]:
    a, b = rt.get(node, "a"), rt.get(node, "b")
    if rt.draft:  # the draft multiplies the row vector: a·B
        b = transpose(b)
    n = len(a)
    return {"value": tuple(sum(b[c * n + r] * a[c] for c in range(n)) for r in range(n))}


def _det(a: Mat) -> float:
    with np.errstate(all="ignore"):
        return float(np.linalg.det(_np(a))) if all(m.isfinite(x) for x in a) else NAN


def _inverse(rt: Any, node: Any) -> dict[str, Any]:
    a = rt.get(node, "a")
    d = _det(a)
    if d == 0 or not m.isfinite(d):
        return {"value": Mat((0.0,) * len(a)), "isValid": False}
    return {"value": _mat(np.linalg.inv(_np(a))), "isValid": True}


def _matmul(rt: Any, node: Any) -> dict[str, Any]:
    with np.errstate(all="ignore"):
        return {"value": _mat(_np(rt.get(node, "a")) @ _np(rt.get(node, "b")))}


def compose(t: tuple[float, ...], r: tuple[float, ...], s: tuple[float, ...]) -> Mat:
    """The 4×4 TRS matrix (column-major) of the specification's ``math/matCompose``."""
    x, y, z, w = r
    rot = ((1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)),
           (2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)),
           (2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)))
    cols = [[rot[row][c] * s[c] for row in range(3)] + [0.0] for c in range(3)]
    return Mat((*cols[0], *cols[1], *cols[2], t[0], t[1], t[2], 1.0))


def quat_from_matrix(b: list[list[float]]) -> tuple[float, float, float, float]:
    """The unit quaternion (xyzw) of a rotation matrix given as rows."""
    tr = b[0][0] + b[1][1] + b[2][2]
    if tr > 0:
        s = m.sqrt(tr + 1.0) * 2
        q = ((b[2][1] - b[1][2]) / s, (b[0][2] - b[2][0]) / s, (b[1][0] - b[0][1]) / s, 0.25 * s)
    elif b[0][0] > b[1][1] and b[0][0] > b[2][2]:
        s = m.sqrt(1.0 + b[0][0] - b[1][1] - b[2][2]) * 2
        q = (0.25 * s, (b[0][1] + b[1][0]) / s, (b[0][2] + b[2][0]) / s, (b[2][1] - b[1][2]) / s)
    elif b[1][1] > b[2][2]:
        s = m.sqrt(1.0 + b[1][1] - b[0][0] - b[2][2]) * 2
        q = ((b[0][1] + b[1][0]) / s, 0.25 * s, (b[1][2] + b[2][1]) / s, (b[0][2] - b[2][0]) / s)
    else:
        s = m.sqrt(1.0 + b[2][2] - b[0][0] - b[1][1]) * 2
        q = ((b[0][2] + b[2][0]) / s, (b[1][2] + b[2][1]) / s, 0.25 * s, (b[1][0] - b[0][1]) / s)
    n = m.sqrt(sum(v * v for v in q))
    return _over(q, n)


def decompose(a: Mat) -> dict[str, Any]:
    """Translation, rotation and scale of a 4×4 TRS matrix (the specification's ``math/matDecompose``)."""
    t = (a[12], a[13], a[14])
    cols = [a[0:3], a[4:7], a[8:11]]
    s = [m.hypot(*c) for c in cols]
    if any(v == 0 or not m.isfinite(v) for v in s):
        return {"translation": t, "rotation": (0.0, 0.0, 0.0, 1.0), "scale": tuple(s), "isValid": False}
    b = [[cols[c][r] / s[c] for c in range(3)] for r in range(3)]
    if np.linalg.det(np.array(b)) < 0:
        s[0] = -s[0]
        for r in range(3):
            b[r][0] = -b[r][0]
    return {"translation": t, "rotation": quat_from_matrix(b), "scale": tuple(s), "isValid": True}


def _decompose(rt: Any, node: Any) -> dict[str, Any]:
    a = rt.get(node, "a")
    out = decompose(a)
    if rt.draft and not (out["isValid"] and all(m.isfinite(x) for x in a)):
        out["isValid"] = False  # the draft answers an invalid matrix with the identity transform
        out.update(translation=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0, 1.0), scale=(1.0, 1.0, 1.0))
    return out


def _quat_mul(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by + ay * bw + az * bx - ax * bz,
            aw * bz + az * bw + ax * by - ay * bx, aw * bw - ax * bx - ay * by - az * bz)


def _acos(x: float) -> float:
    return m.acos(x) if -1 <= x <= 1 else NAN


def _to_axis_angle(rt: Any, node: Any) -> dict[str, Any]:
    a = rt.get(node, "a")
    if abs(a[3]) > 1 - 1e-12:
        return {"axis": (1.0, 0.0, 0.0), "angle": 0.0}
    k = m.sqrt(1 - a[3] * a[3])
    return {"axis": (a[0] / k, a[1] / k, a[2] / k), "angle": 2 * _acos(a[3])}


def _perpendicular(a: tuple[float, ...]) -> tuple[float, ...]:
    other = (1.0, 0.0, 0.0) if abs(a[0]) < 0.9 else (0.0, 1.0, 0.0)
    c = _cross(a, other)
    n = _len(c)
    return _over(c, n)


def _from_directions(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    c = _dot(a, b)
    if c > 1 - 1e-12:
        return (0.0, 0.0, 0.0, 1.0)
    if c < -1 + 1e-12:
        return (*_perpendicular(a), 0.0)
    r = _cross(a, b)
    n = _len(r)
    k = m.sqrt(0.5 - 0.5 * c)
    return (*(x * k for x in _over(r, n)), m.sqrt(0.5 + 0.5 * c))


def _from_up_forward(up: tuple[float, ...], fwd: tuple[float, ...]) -> tuple[float, ...]:
    s = _cross(up, fwd)
    n = _len(s)
    s = _perpendicular(fwd) if n < 1e-12 else tuple(x / n for x in s)
    t = _cross(fwd, s)
    return quat_from_matrix([[s[0], t[0], fwd[0]], [s[1], t[1], fwd[1]], [s[2], t[2], fwd[2]]])


def _from_angles(rt: Any, node: Any) -> dict[str, Any]:
    order = node.cfg("order", "yxz")
    order = order if order in ("xyz", "xzy", "yxz", "yzx", "zxy", "zyx") else "yxz"
    q = (0.0, 0.0, 0.0, 1.0)
    for axis in order:  # intrinsic: q = q_first * q_second * q_third
        half = 0.5 * rt.get(node, axis)
        v = [0.0, 0.0, 0.0]
        v["xyz".index(axis)] = sin(half)
        q = _quat_mul(q, (*v, cos(half)))
    return {"value": q}


def _quat_slerp(a: tuple[float, ...], b: tuple[float, ...], c: float) -> tuple[float, ...]:
    d = _dot(a, b)
    if d < 0:
        d, b = -d, tuple(-x for x in b)
    if d > 1 - 1e-9:
        ka, kb = 1 - c, c
    else:
        w = m.acos(min(d, 1.0))
        ka, kb = sin(w * (1 - c)) / sin(w), sin(w * c) / sin(w)
    return tuple(x * ka + y * kb for x, y in zip(a, b, strict=True))


def _vec_slerp(a: tuple[float, ...], b: tuple[float, ...], c: float) -> tuple[float, ...]:
    la, lb = _len(a), _len(b)
    lerp = tuple((1 - c) * x + c * y for x, y in zip(a, b, strict=True))
    if la < 1e-12 or lb < 1e-12:
        return lerp
    ua, ub = _over(a, la), _over(b, lb)
    length = (1 - c) * la + c * lb
    if len(a) == 2:
        theta = _acos(max(-1.0, min(1.0, _dot(ua, ub))))
        if ua[0] * ub[1] - ua[1] * ub[0] < 0:
            theta = -theta
        ct, st = cos(c * theta), sin(c * theta)
        return ((ua[0] * ct - ua[1] * st) * length, (ua[0] * st + ua[1] * ct) * length)
    d = _dot(ua, ub)
    if d > 1 - 1e-9:
        return lerp
    r = _perpendicular(ua) if d < -1 + 1e-9 else _over(_cross(ua, ub), _len(_cross(ua, ub)))
    half = 0.5 * c * m.acos(max(-1.0, min(1.0, d)))
    q = (r[0] * sin(half), r[1] * sin(half), r[2] * sin(half), cos(half))
    return tuple(x * length for x in _rotate3d(ua, q))


def _f(fn: Any, *names: str, out: str = "value") -> Any:
    def compute(rt: Any, node: Any) -> dict[str, Any]:
        return {out: fn(*(rt.get(node, n) for n in names))}
    return compute


def _combine(name: str, count: int, matrix: bool) -> OpSpec:
    names = _LETTERS[:count]

    def compute(rt: Any, node: Any) -> dict[str, Any]:
        values = tuple(rt.get(node, n) for n in names)
        if not matrix:
            return {"value": values}
        return {"value": transpose(Mat(values)) if rt.draft else Mat(values)}  # the draft lists rows first
    out = {4: "float2x2", 9: "float3x3", 16: "float4x4"}[count] if matrix else f"float{count}"
    return OpSpec(name, dict.fromkeys(names, "float"), {"value": out}, compute=compute)


def _extract(name: str, signature: str, count: int) -> OpSpec:
    keys = [str(i) for i in range(count)]

    def compute(rt: Any, node: Any) -> dict[str, Any]:
        return dict(zip(keys, rt.get(node, "a"), strict=True))
    return OpSpec(name, {"a": signature}, dict.fromkeys(keys, "float"), compute=compute)


TABLE = table(
    OpSpec("math/length", {"a": "F"}, {"value": "float"}, compute=_f(_len, "a")),
    OpSpec("math/normalize", {"a": "F"}, {"value": "F", "isValid": "bool"}, compute=_normalize),
    OpSpec("math/dot", {"a": "F", "b": "F"}, {"value": "float"}, compute=_f(_dot, "a", "b")),
    OpSpec("math/cross", {"a": "float3", "b": "float3"}, {"value": "float3"}, compute=_f(_cross, "a", "b")),
    OpSpec("math/rotate2D", {"a": "float2", "angle": "float"}, {"value": "float2"},
           compute=_f(lambda a, t: (a[0] * cos(t) - a[1] * sin(t), a[0] * sin(t) + a[1] * cos(t)),
                      "a", "angle")),
    OpSpec("math/rotate3D", {"a": "float3", "rotation": "float4"}, {"value": "float3"},
           compute=_f(_rotate3d, "a", "rotation")),
    OpSpec("math/transform", {"a": "F", "b": "M"}, {"value": "F"}, compute=_transform),
    OpSpec("math/slerp", {"a": "F", "b": "F", "c": "float"}, {"value": "F"}, compute=_f(_vec_slerp, "a", "b", "c")),
    OpSpec("math/transpose", {"a": "M"}, {"value": "M"}, compute=_f(transpose, "a")),
    OpSpec("math/determinant", {"a": "M"}, {"value": "float"}, compute=_f(_det, "a")),
    OpSpec("math/inverse", {"a": "M"}, {"value": "M", "isValid": "bool"}, compute=_inverse),
    OpSpec("math/matMul", {"a": "M", "b": "M"}, {"value": "M"}, compute=_matmul),
    OpSpec("math/matCompose", {"translation": "float3", "rotation": "float4", "scale": "float3"},
           {"value": "float4x4"}, compute=_f(compose, "translation", "rotation", "scale")),
    OpSpec("math/matDecompose", {"a": "float4x4"}, {"translation": "float3", "rotation": "float4", "scale": "float3",
                                             "isValid": "bool"},
           compute=_decompose),
    OpSpec("math/quatConjugate", {"a": "float4"}, {"value": "float4"},
           compute=_f(lambda a: (-a[0], -a[1], -a[2], a[3]), "a")),
    OpSpec("math/quatMul", {"a": "float4", "b": "float4"}, {"value": "float4"}, compute=_f(_quat_mul, "a", "b")),
    OpSpec("math/quatAngleBetween", {"a": "float4", "b": "float4"}, {"value": "float"},
           compute=_f(lambda a, b: 2 * _acos(_dot(a, b)), "a", "b")),
    OpSpec("math/quatFromAxisAngle", {"axis": "float3", "angle": "float"}, {"value": "float4"},
           compute=_f(lambda v, t: (v[0] * sin(0.5 * t), v[1] * sin(0.5 * t), v[2] * sin(0.5 * t),
                                    cos(0.5 * t)), "axis", "angle")),
    OpSpec("math/quatToAxisAngle", {"a": "float4"}, {"axis": "float3", "angle": "float"}, compute=_to_axis_angle),
    OpSpec("math/quatFromDirections", {"a": "float3", "b": "float3"}, {"value": "float4"},
           compute=_f(_from_directions, "a", "b")),
    OpSpec("math/quatFromUpForward", {"up": "float3", "forward": "float3"}, {"value": "float4"},
           compute=_f(_from_up_forward, "up", "forward")),
    OpSpec("math/quatFromAngles", {"x": "float", "y": "float", "z": "float"}, {"value": "float4"},
           config={"order": "string"}, compute=_from_angles),
    OpSpec("math/quatSlerp", {"a": "float4", "b": "float4", "c": "float"}, {"value": "float4"},
           compute=_f(_quat_slerp, "a", "b", "c")),
    _combine("math/combine2", 2, False), _combine("math/combine3", 3, False), _combine("math/combine4", 4, False),
    _combine("math/combine2x2", 4, True), _combine("math/combine3x3", 9, True),
    _combine("math/combine4x4", 16, True),
    _extract("math/extract2", "float2", 2), _extract("math/extract3", "float3", 3),
    _extract("math/extract4", "float4", 4), _extract("math/extract2x2", "float2x2", 4),
    _extract("math/extract3x3", "float3x3", 9), _extract("math/extract4x4", "float4x4", 16),
)
