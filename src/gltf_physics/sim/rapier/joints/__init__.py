"""Model joints on Rapier: the joint driver (``driver.py``) and its parts."""

from .driver import JointDriver, build_joints

__all__ = ["JointDriver", "build_joints"]
