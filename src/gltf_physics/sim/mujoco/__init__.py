"""The MuJoCo engine behind ``World(engine="mujoco")`` (needs the ``[mujoco]`` extra)."""
