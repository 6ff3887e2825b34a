#!/usr/bin/env python3
# %%
"""Parameter sweep: tip deflection of an ANCF 3243 cantilever against Young's
modulus E, from a static analysis in TLFEA, with the Euler-Bernoulli closed
form w = P L^3 / (3 E I) beside it. Stiff beams (small load parameter
k = P L^2 / (E I)) follow it; soft ones bend into the large-deflection
elastica, whose tip deflection is smaller (k = 3: w/L = 0.60325, Bisshopp
and Drucker 1945, against 1 for the linear formula).

    PYTHONPATH=build/trilinos/python python3 examples/python/cantilever_sweep.py \
        [--out sweep.png] [--quick]

Prints one line per E and saves a log-log plot (matplotlib, Agg backend;
skipped with a note when matplotlib is missing). As a notebook
(cantilever_sweep.ipynb, made from this file by tools/py_to_ipynb.py) the last
cell runs the sweep (the quick one when TLFEA_EXAMPLE_QUICK is set; the plot
goes to $TLFEA_EXAMPLE_OUT, default the working directory).
"""
import argparse
import sys

import numpy as np

import tlfea

L, B, P = 2.0, 0.1, 4375.0  # length, square cross-section side [m], tip force [N]
I = B**4 / 12


def tip_deflection(E, elements=16, increments=8):
    """Tip deflection w [m] of the cantilever with Young's modulus E [Pa]."""
    mesh = tlfea.generate_beam_ancf3243(L, B, B, elements)
    model = tlfea.Model()
    beam = model.add_body(mesh, tlfea.MaterialSpec.svk(E, 0.0), 2700.0)
    model.clamp_node_set(beam, "end0")
    tip = int(mesh.node_sets["end1"][0])
    # The force ramps up over pseudo-time [0, 1]: a Python function of t.
    model.add_nodal_force(beam, tip, (0.0, 0.0, P), amplitude=lambda t: t)
    stepper = tlfea.Stepper(model, tlfea.StepperSettings(analysis="static", dt=1.0 / increments))
    stepper.run(increments)
    return stepper.node_positions(beam)[tip][2] - mesh.nodes[tip][2]


# %%
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="cantilever_sweep.png", help="plot file (PNG)")
    ap.add_argument("--quick", action="store_true", help="3 values of E, coarse mesh (tests)")
    args = ap.parse_args(argv)

    k = np.array([0.03, 0.3, 3.0]) if args.quick else np.geomspace(0.01, 5.0, 9)
    E = P * L**2 / (k * I)  # the moduli giving these load parameters
    elements = 8 if args.quick else 16
    w = np.array([tip_deflection(e, elements) for e in E])
    w_eb = P * L**3 / (3 * E * I)
    print(f"{'E [Pa]':>12} {'k':>8} {'w [m]':>12} {'w_EB [m]':>12} {'w/w_EB':>8}")
    for e, kk, a, b in zip(E, k, w, w_eb):
        print(f"{e:12.4e} {kk:8.3f} {a:12.5e} {b:12.5e} {a / b:8.4f}")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no plot", file=sys.stderr)
        return 0
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.loglog(E, w_eb, "k--", label="Euler-Bernoulli $PL^3/3EI$")
    ax.loglog(E, w, "o-", label="TLFEA, ANCF 3243, static")
    ax.set_xlabel("Young's modulus E [Pa]")
    ax.set_ylabel("tip deflection w [m]")
    ax.set_title(f"Cantilever L = {L} m, {B} x {B} m, tip force {P:g} N")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"plot: {args.out}")
    return 0


# %%
if __name__ == "__main__":
    if "get_ipython" in globals():  # a notebook: no command line
        import os
        out = os.path.join(os.environ.get("TLFEA_EXAMPLE_OUT", "."), "cantilever_sweep.png")
        main(["--out", out] + (["--quick"] if os.environ.get("TLFEA_EXAMPLE_QUICK") else []))
    else:
        sys.exit(main())
