"""Bridges to other physics formats (DESIGN §1 ``formats/``): OpenUSD UsdPhysics, MuJoCo MJCF, URDF."""

# Robot descriptions read into the model: suffix → (module under formats/, reader function).
IMPORTERS: dict[str, tuple[str, str]] = {
    ".urdf": ("urdf", "from_urdf"),
    ".xml": ("mjcf.read", "from_mjcf"),
    ".mjcf": ("mjcf.read", "from_mjcf"),
}
