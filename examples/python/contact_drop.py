# %% [markdown]
# # Bodies dropped on the ground, with contact
#
# `examples/contact_drop.yaml`: a Q27 block, a T10 ball and a tilted T10 box
# dropped onto a rigid ground plane with frictional Hertz-Mindlin contact
# (restitution 0.5). Runs as a script and as a notebook (`contact_drop.ipynb`).
# Environment: `TLFEA_EXAMPLE_STEPS` (default 1500 steps of 0.1 ms) and
# `TLFEA_EXAMPLE_OUT` (default `tlfea_out/contact_drop`).

# %%
import os
import pathlib

import numpy as np

import tlfea

HERE = pathlib.Path(__file__).resolve().parent if "__file__" in globals() else pathlib.Path.cwd()
SCENE = HERE.parent / "contact_drop.yaml"
STEPS = int(os.environ.get("TLFEA_EXAMPLE_STEPS", "1500"))
OUT = pathlib.Path(os.environ.get("TLFEA_EXAMPLE_OUT", "tlfea_out/contact_drop"))

scene = tlfea.load_scene(str(SCENE))
stepper = scene.stepper()
lowest = []  # lowest node height of each body after every step


def record(s, report):
    lowest.append([s.node_positions(b)[:, 2].min() for b in range(len(scene.bodies))])


with tlfea.OutputWriter(stepper, directory=str(OUT), every=100) as out:
    stepper.run(STEPS, output=out, callback=record, progress="contact_drop")
lowest = np.array(lowest)
print(f"t = {stepper.time:.3f} s; lowest node of each body over the run [m]:",
      lowest.min(axis=0).round(5))

# %% [markdown]
# Centre-of-mass heights from the history (columns `<body>.com_z`).

# %%
history = tlfea.read_history(out)
names = [c[:-len(".com_z")] for c in history.keys() if c.endswith(".com_z")]
for n in names:
    z = np.asarray(history[n + ".com_z"])
    print(f"{n:>6}: centre of mass z from {z[0]:.4f} to {z[-1]:.4f} m (lowest {z.min():.4f})")

# %%
try:
    import matplotlib
except ImportError:
    matplotlib = None
    print("matplotlib not installed: no plots")
if matplotlib is not None:
    if "get_ipython" not in globals():  # a script: files only
        matplotlib.use("Agg")
    ax = tlfea.plot_history(history, [n + ".com_z" for n in names])
    ax.set_ylabel("centre of mass z [m]")
    ax.figure.savefig(OUT / "contact_drop.png", dpi=100)
    print("plot:", OUT / "contact_drop.png")
