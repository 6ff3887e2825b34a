#!/usr/bin/env python3
"""Compares two history.csv files column by column (the multi-rank tests,
tests/mpi/mpi_scenes_test.sh and mpi_examples_test.sh).

  compare_history.py A B LABEL TOL [exact]

Per column the largest |b - a| over the rows, relative to the column's scale
(below); fails beyond TOL, or with `exact` on any difference. Not compared:
step_wall_time; the iteration counts are printed (largest difference), not
compared (a Newton test near its threshold may take one more iteration on
one rank count); constraint_violation is compared absolutely against 1e-8
(the constraint tolerance: round-off below it). Exit status 1 on a failure
(one line per failing column on stderr), 0 otherwise.

The scale of a column: the largest magnitude over the run and the bodies of
its kind (every com_x, _y, _z; momenta, angular momenta likewise; every
energy column for the energies): a component that stays at round-off (a
planar motion's z, the spin of a slider that its prismatic joint allows only
within the constraint tolerance) is not its own scale.

Angular momenta that stay at round-off altogether: L = sum_ij M_ij q_i x v_j
about the origin (docs/scene.md) is zero for a body moving along a line
through the origin (a ball dropped straight down onto a plane, with its
centre above the origin), and what is computed is then the round-off of that
sum, about eps |c| |p| (c the centre of mass, p the momentum), whose sign and
size change with the order of the sums over ranks: largest |L| 8.1e-16,
1.9e-15 and 4.2e-16 kg m^2/s on 1, 2 and 3 ranks where |c| |p| = 0.0505 m x
0.275 kg m/s = 1.4e-2 (examples/ball_bounce.yaml). Where every angular
momentum of the run is below 1e-10 of the largest |c| |p| of the run's bodies
(the moment of the momentum about the origin, the size L takes when the
motion is not along such a line), that |c| |p| is the kind's scale, so a
difference is measured against the size L would have, not against
round-off. The threshold lies 700 times above the largest ratio |L| / |c| |p|
measured there (1.4e-13) and far below that of a motion with an angular
momentum of its own; a kind above it keeps its own largest magnitude.
"""
import csv
import math
import sys

a_path, b_path, label, tol = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
exact = len(sys.argv) > 5 and sys.argv[5] == "exact"
a = list(csv.reader(open(a_path)))
b = list(csv.reader(open(b_path)))
bad = []
if a[0] != b[0] or len(a) != len(b):
    print(f"FAIL: {label}: {len(a) - 1} vs {len(b) - 1} rows or other columns", file=sys.stderr)
    sys.exit(1)
counts = ("newton_iterations", "outer_iterations", "factorizations", "retries")
energies = ("kinetic_energy", "strain_energy", "gravity_potential", "total_energy")


def group(name):
    kind = name.split(".")[-1]
    if kind in energies:
        return "energy"
    return kind[:-2] if kind[-2:] in ("_x", "_y", "_z") else kind


scale = {}
for j, name in enumerate(a[0]):
    if name in counts or name == "step_wall_time":
        continue
    m = max(abs(float(r[j])) for r in a[1:])
    scale[group(name)] = max(scale.get(group(name), 0.0), m)


# The largest |c| |p| over the bodies (each the largest |c| over the run times
# the largest |p|), from the one-rank run a.
def largest_norm(body, kind):
    cols = [a[0].index(f"{body}.{kind}_{x}") for x in "xyz"]
    return max(math.sqrt(sum(float(r[j]) ** 2 for j in cols)) for r in a[1:])


bodies = [n[: -len(".angular_momentum_x")] for n in a[0] if n.endswith(".angular_momentum_x")]
moment = max((largest_norm(n, "com") * largest_norm(n, "momentum") for n in bodies), default=0.0)
if "angular_momentum" in scale and scale["angular_momentum"] < 1e-10 * moment:
    print(f"{label}: angular momenta at round-off ({scale['angular_momentum']:.1e}), "
          f"measured against |c| |p| = {moment:.2e}")
    scale["angular_momentum"] = moment
worst, iters = [], []
for j, name in enumerate(a[0]):
    if name == "step_wall_time":
        continue
    x = [float(r[j]) for r in a[1:]]
    y = [float(r[j]) for r in b[1:]]
    d = max(abs(p - q) for p, q in zip(x, y))
    if name in counts:
        iters.append(f"{name} {d:g}")
        continue
    if exact:
        if any(p != q for p, q in zip(x, y)) or [r[j] for r in a[1:]] != [r[j] for r in b[1:]]:
            bad.append(f"{name} differs (bit-identical expected): {d:.3e}")
        worst.append((d, name))
        continue
    if name == "constraint_violation":
        if d > 1e-8:
            bad.append(f"{name}: {d:.3e} absolute > 1e-8")
        worst.append((d, name + " (abs)"))
        continue
    m = scale[group(name)]
    r = d / m if m > 0 else d
    if r > tol:
        bad.append(f"{name}: {r:.3e} relative > {tol:g}")
    worst.append((r, name))
worst.sort(reverse=True)
print(f"{label}: largest differences: " + ", ".join(f"{n} {v:.2e}" for v, n in worst[:6]) +
      "; iteration counts (max |diff|): " + ", ".join(iters))
for m in bad:
    print(f"FAIL: {label}: {m}", file=sys.stderr)
sys.exit(1 if bad else 0)
