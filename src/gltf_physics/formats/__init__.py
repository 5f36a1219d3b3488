"""Bridges to other physics formats (DESIGN §1 ``formats/``): OpenUSD UsdPhysics, MuJoCo MJCF."""
