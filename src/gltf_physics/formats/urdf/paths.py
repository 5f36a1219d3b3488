"""Where a URDF's mesh files are, and the rule that keeps them inside the robot's own folders.

- ``package://NAME/rest`` resolves against a folder given with ``package_dirs`` that is named NAME or holds a
  folder NAME (a ROS package path), else against the nearest ancestor folder of the URDF named NAME (how
  packages are laid out on disk), else — PyBullet's convention, which its own data relies on — against the
  URDF's folder with ``NAME/rest`` as a relative path.
- ``file://`` and plain paths resolve against the URDF's folder (an absolute path is taken as it is).
- Every result must lie inside one of the roots (the URDF's folder, the package folder found, the folders
  given), after ``..`` and symbolic links are resolved: otherwise the read stops before any mesh is opened —
  the same rule as for glTF URIs (no path leaves the asset's folder).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from urllib.parse import unquote

from ...gltf.errors import GltfError, clip


class MeshPaths:
    """Resolves a URDF's mesh file names (see the module docstring)."""

    def __init__(self, urdf: Path, package_dirs: Sequence[str | Path] = ()) -> None:
        self.urdf = urdf
        self.base = urdf.resolve().parent
        self.package_dirs = [Path(p).resolve() for p in package_dirs]

    def resolve(self, name: str, pointer: str) -> Path:
        """The file ``name`` (as the URDF writes it) names; :class:`GltfError` when it leaves the roots."""
        if "\0" in name or "\\" in name:
            raise GltfError(f"mesh path {clip(name)!r} holds a NUL or backslash", file=str(self.urdf),
                            pointer=pointer)
        if name.startswith("package://"):
            package, _, rest = name[len("package://"):].partition("/")
            rest = unquote(rest)
            root = self._package_root(package)
            if root is None:  # PyBullet's convention: package://NAME/rest is NAME/rest beside the URDF
                root, rest = self.base, f"{package}/{rest}"
            return self._inside(root, rest, name, pointer)
        if name.startswith("file://"):
            name = unquote(name[len("file://"):])
        elif "://" in name:
            raise GltfError(f"mesh path {clip(name)!r}: only package://, file:// and plain paths are read",
                            file=str(self.urdf), pointer=pointer)
        roots = [self.base, *self.package_dirs]
        candidate = Path(name)
        for root in roots:
            found = self._within(root, candidate if candidate.is_absolute() else root / candidate)
            if found is not None:
                return found
        raise GltfError(f"mesh path {clip(name)!r} leads outside the URDF's folder", file=str(self.urdf),
                        pointer=pointer)

    def _package_root(self, package: str) -> Path | None:
        for folder in self.package_dirs:
            if folder.name == package:
                return folder
            if (folder / package).is_dir():
                return folder / package
        for folder in (self.base, *self.base.parents):
            if folder.name == package:
                return folder
        return None

    def _inside(self, root: Path, rest: str, name: str, pointer: str) -> Path:
        found = self._within(root, root / rest) if not Path(rest).is_absolute() else None
        if found is None:
            raise GltfError(f"mesh path {clip(name)!r} leads outside its package folder {root}",
                            file=str(self.urdf), pointer=pointer)
        return found

    @staticmethod
    def _within(root: Path, path: Path) -> Path | None:
        """``path`` with ``..`` and links resolved, when it stays inside ``root``; else ``None``."""
        resolved = path.resolve()
        return resolved if resolved == root or root in resolved.parents else None
