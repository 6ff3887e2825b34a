# %% [markdown]
# # A flexible pendulum from a scene file
#
# `examples/ancf_pendulum.yaml`: an ANCF 3243 aluminium beam, 1 m, hinged to
# the ground at one end and released horizontal. Runs as a script
# (`python examples/python/pendulum.py`) and as a notebook
# (`pendulum.ipynb`, made from this file by `tools/py_to_ipynb.py`).
# Environment: `TLFEA_EXAMPLE_STEPS` (default 400 steps of 1 ms) and
# `TLFEA_EXAMPLE_OUT` (output directory, default `tlfea_out/pendulum`).

# %%
import os
import pathlib

import numpy as np

import tlfea

HERE = pathlib.Path(__file__).resolve().parent if "__file__" in globals() else pathlib.Path.cwd()
SCENE = HERE.parent / "ancf_pendulum.yaml"
STEPS = int(os.environ.get("TLFEA_EXAMPLE_STEPS", "400"))
OUT = pathlib.Path(os.environ.get("TLFEA_EXAMPLE_OUT", "tlfea_out/pendulum"))

scene = tlfea.load_scene(str(SCENE))
print(f"{scene.name}: {len(scene.bodies)} body, {len(scene.joints)} joint, {scene.unknowns} unknowns")

# %% [markdown]
# Run with a progress bar (tqdm when installed) and record the free end's
# position after every step through a callback.

# %%
stepper = scene.stepper()
mesh = scene.model.mesh(0)
tip = int(np.argmax(mesh.nodes[:, 0]))  # the node at x = L
tip_path = []
with tlfea.OutputWriter(stepper, directory=str(OUT), every=50) as out:
    stepper.run(STEPS, output=out, progress="pendulum",
                callback=lambda s, r: tip_path.append(s.node_positions(0)[tip]))
tip_path = np.array(tip_path)
length = np.linalg.norm(tip_path, axis=1)  # distance of the tip from the hinge at the origin
print(f"t = {stepper.time:.3f} s: tip at {tip_path[-1].round(4)}, "
      f"distance from the hinge {length.min():.5f} .. {length.max():.5f} m")

# %% [markdown]
# The history (history.csv) as a table: a pandas DataFrame when pandas is
# installed, else a dict of NumPy arrays.

# %%
history = tlfea.read_history(out)
energy = ["kinetic_energy", "strain_energy", "gravity_potential", "total_energy"]
if hasattr(history, "tail"):
    print(history[["time"] + energy].tail())

# %%
try:
    import matplotlib
except ImportError:
    matplotlib = None
    print("matplotlib not installed: no plots")
if matplotlib is not None:
    if "get_ipython" not in globals():  # a script: files only
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    tlfea.plot_history(history, energy, ax=ax1)
    ax1.set_ylabel("energy [J]")
    ax2.plot(tip_path[:, 0], tip_path[:, 2])
    ax2.set_aspect("equal")
    ax2.set_xlabel("x [m]")
    ax2.set_ylabel("z [m]")
    ax2.set_title("path of the free end")
    fig.tight_layout()
    fig.savefig(OUT / "pendulum.png", dpi=100)
    print("plot:", OUT / "pendulum.png")
