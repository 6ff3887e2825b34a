#!/usr/bin/env python3
"""Independent reader of a TLFEA run's output (output.h5 + output.xdmf +
history.csv), used by the io test suite.

  check_output.py DIR EXPECTED.json   values against closed forms
  check_output.py --killed DIR        a killed run: every dataset the XDMF
                                      index names exists with its dimensions,
                                      history.csv has a row per output step
  check_output.py --dataset FILE PATH EXPECTED.json TOL
                                      dataset PATH of the HDF5 file FILE equals
                                      the array in EXPECTED.json to TOL (max abs)
  check_output.py --pieces ONE DIR R TOL
                                      DIR, written by R MPI ranks: every step of
                                      its index a spatial collection of R
                                      pieces, every file it names there, and
                                      the union of the pieces' point and cell
                                      values equal to the one-rank output ONE
                                      (max |diff| <= TOL x the field's largest
                                      magnitude over the run)

Reads the XDMF index with xml.etree, every body grid of the last step with
meshio's XDMF reader (each grid extracted to a one-grid XDMF file, since
meshio reads one grid per file) and the datasets with h5py. Exits 1 on any
mismatch and 2 when python3-h5py / python3-meshio are missing (never skips).
"""
import csv
import re
import json
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

try:
    import h5py
    import meshio
    import numpy as np
except ImportError as e:  # the test must fail, not skip
    print(f"check_output.py: {e} (install python3-h5py python3-meshio python3-numpy)",
          file=sys.stderr)
    sys.exit(2)

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def steps_of(xdmf_path):
    root = ET.parse(xdmf_path).getroot()
    series = root.find("Domain/Grid")
    assert series.get("CollectionType") == "Temporal", "not a temporal collection"
    return [g for g in series.findall("Grid")]


def data_items(step):
    return step.iter("DataItem")


def check_items(directory, steps, h5):
    """Every DataItem of the index names a dataset of output.h5 (h5, open) or
    of its step file steps/NNNNNN.h5, with the stated dimensions."""
    files = {"output.h5": h5}
    try:
        for st in steps:
            for item in data_items(st):
                fname, path = item.text.strip().split(":", 1)
                if fname not in files:
                    if not re.fullmatch(r"(steps/[0-9]{6}|output)(\.r[1-9][0-9]*)?\.h5", fname):
                        fail(f"DataItem points at {fname}")
                        continue
                    full = os.path.join(directory, fname)
                    if not os.path.isfile(full):
                        fail(f"{fname} named by the XDMF is missing")
                        continue
                    files[fname] = h5py.File(full, "r")
                f = files[fname]
                if path not in f:
                    fail(f"{path} named by the XDMF is missing from {fname}")
                    continue
                dims = tuple(int(d) for d in item.get("Dimensions").split())
                shape = f[path].shape
                if shape != dims and not (len(dims) == 2 and dims[1] == 1 and shape == dims[:1]):
                    fail(f"{fname}:{path}: shape {shape}, XDMF says {dims}")
                np.asarray(f[path])  # the data reads
    finally:
        for name, f in files.items():
            if name != "output.h5":
                f.close()


def grid_with_meshio(directory, grid):
    """A single body grid of the index, read by meshio."""
    xml = ('<?xml version="1.0" ?>\n<Xdmf Version="3.0"><Domain>'
           + ET.tostring(grid, encoding="unicode") + "</Domain></Xdmf>\n")
    with tempfile.NamedTemporaryFile("w", suffix=".xdmf", dir=directory, delete=False) as f:
        f.write(xml)
        name = f.name
    try:
        return meshio.read(name, file_format="xdmf")
    finally:
        os.unlink(name)


def close(a, b, tol, what):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        fail(f"{what}: shape {a.shape} vs expected {b.shape}")
        return
    err = np.max(np.abs(a - b)) if a.size else 0.0
    if not err <= tol:
        fail(f"{what}: max error {err:.3e} > {tol:.1e}")


def check_values(directory, expected):
    steps = steps_of(os.path.join(directory, "output.xdmf"))
    times = [float(s.find("Time").get("Value")) for s in steps]
    close(times, expected["times"], 1e-15, "output times")
    with h5py.File(os.path.join(directory, "output.h5"), "r") as h5:
        check_items(directory, steps, h5)
        hist_t = np.asarray(h5["history/time"])
        if len(hist_t) != expected["history_rows"]:
            fail(f"history has {len(hist_t)} rows, expected {expected['history_rows']}")
    with open(os.path.join(directory, "history.csv")) as f:
        rows = list(csv.DictReader(f))
    if len(rows) != expected["history_rows"]:
        fail(f"history.csv has {len(rows)} rows")
    close([float(r["time"]) for r in rows], hist_t, 0.0, "history.csv time vs HDF5")
    # Every history.csv column (the per-body ones too) is /history/<column>.
    with h5py.File(os.path.join(directory, "output.h5"), "r") as h5:
        for name in rows[0].keys() if rows else []:
            if f"history/{name}" not in h5:
                fail(f"history.csv column {name} is not in output.h5 /history")
            elif name != "step_wall_time":
                close([float(r[name]) for r in rows], np.asarray(h5[f"history/{name}"]), 0.0,
                      f"history.csv {name} vs HDF5")
    # Kinetic energy of a prescribed linear stretch is constant after step 0;
    # only check it is finite and non-negative here (its value is the solver's).
    for r in rows:
        if not float(r["kinetic_energy"]) >= 0.0:
            fail("negative kinetic energy in history.csv")

    last = steps[-1]
    grids = {g.get("Name"): g for g in last.findall("Grid")}
    for b, exp in enumerate(expected["bodies"]):
        m = grid_with_meshio(directory, grids[f"body{b}"])
        if len(m.cells) != 1 or m.cells[0].type != exp["cell"]:
            fail(f"body{b}: cell type {[c.type for c in m.cells]}, expected {exp['cell']}")
            continue
        cells = m.cells[0].data
        pts = m.points
        if "positions" in exp:
            if len(cells) != exp["num_cells"]:
                fail(f"body{b}: {len(cells)} cells, expected {exp['num_cells']}")
            close(pts, exp["positions"], 1e-12, f"body{b} positions")
            u = np.asarray(exp["positions"]) - np.asarray(exp["reference"])
            close(m.point_data["displacement"], u, 1e-12, f"body{b} displacement")
            close(m.point_data["velocity"], u * exp["velocity_over_displacement"], 1e-9,
                  f"body{b} velocity")
            # Node order: VTK's (= XDMF's) quadratic cells have the edge
            # midpoints in fixed places; with x affine in X each midside
            # node is the mean of its edge's vertices.
            edges = ([(0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3)] if exp["cell"] == "tetra10"
                     else [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4),
                           (0, 4), (1, 5), (2, 6), (3, 7)])
            first_mid = 4 if exp["cell"] == "tetra10" else 8
            for k, (i, j) in enumerate(edges):
                close(pts[cells[:, first_mid + k]], 0.5 * (pts[cells[:, i]] + pts[cells[:, j]]),
                      1e-12, f"body{b} midside node {first_mid + k}")
            if exp["cell"] == "hexahedron27":
                close(pts[cells[:, 26]], pts[cells[:, :8]].mean(axis=1), 1e-12,
                      f"body{b} centre node")
                faces = [(0, 3, 7, 4), (1, 2, 6, 5), (0, 1, 5, 4), (3, 2, 6, 7), (0, 1, 2, 3),
                         (4, 5, 6, 7)]
                for k, f4 in enumerate(faces):
                    close(pts[cells[:, 20 + k]], pts[cells[:, list(f4)]].mean(axis=1), 1e-12,
                          f"body{b} face node {20 + k}")
            # Stress, XDMF Tensor6 order (xx, xy, xz, yy, yz, zz).
            sig = m.cell_data["stress"][0]
            scale = abs(exp["von_mises"])
            close(sig, np.tile(exp["stress"], (len(cells), 1)), 1e-9 * scale, f"body{b} stress")
            close(m.cell_data["von_mises"][0], np.full(len(cells), exp["von_mises"]),
                  1e-9 * scale, f"body{b} von Mises")
        else:  # an ANCF visualisation mesh: rigid translation
            with h5py.File(os.path.join(directory, "output.h5"), "r") as h5:
                ref = np.asarray(h5[f"mesh/body{b}/reference"])
            lo, hi = ref.min(axis=0), ref.max(axis=0)
            close(np.ravel(np.column_stack([lo, hi])), exp["bounds"], 1e-12,
                  f"body{b} reference bounds")
            close(m.point_data["displacement"], np.tile(exp["translation"], (len(pts), 1)),
                  1e-12, f"body{b} displacement")
            close(pts, ref + np.asarray(exp["translation"]), 1e-12, f"body{b} positions")


def check_killed(directory):
    steps = steps_of(os.path.join(directory, "output.xdmf"))
    if len(steps) < 1:
        fail("no steps in the index")
    with h5py.File(os.path.join(directory, "output.h5"), "r") as h5:
        check_items(directory, steps, h5)
    # output.h5 gets the histories at the end of a run; a killed run has them
    # in history.csv (a line per completed step, flushed).
    with open(os.path.join(directory, "history.csv")) as f:
        reader = csv.DictReader(f)
        last = reader.fieldnames[-1]  # the last column: a row that has it is whole
        n_hist = sum(1 for r in reader if r.get(last) not in (None, ""))
    if n_hist < len(steps):
        fail(f"{n_hist} history.csv rows for {len(steps)} output steps")
    # The first body grid (on several ranks inside the step's piece0).
    g = next(x for x in steps[-1].iter("Grid") if x.get("GridType") == "Uniform")
    m = grid_with_meshio(directory, g)
    if not np.all(np.isfinite(m.points)):
        fail("non-finite positions in the last step")
    print(f"killed run: {len(steps)} readable output steps, {n_hist} history rows")


def read_item(directory, item, files):
    fname, path = item.text.strip().split(":", 1)
    if fname not in files:
        files[fname] = h5py.File(os.path.join(directory, fname), "r")
    return np.asarray(files[fname][path])


def body_grids(grid):
    """Name -> Uniform grid of a step's (or a piece's) collection."""
    return {g.get("Name"): g for g in grid.findall("Grid") if g.get("GridType") == "Uniform"}


def grid_arrays(directory, grid, files):
    """A body grid's reference points (output*.h5:/mesh/body<b>/reference),
    topology, and fields by name (with their centre)."""
    topo = grid.find("Topology/DataItem")
    ref_item = ET.Element("DataItem")
    ref_item.text = topo.text.strip().replace("/topology", "/reference")
    out = {"topology": read_item(directory, topo, files)}
    if ref_item.text.endswith("/reference") and "/mesh/" in ref_item.text:
        out["reference"] = read_item(directory, ref_item, files)
    else:  # joints, contact: no mesh file
        out["reference"] = None
    out["x"] = read_item(directory, grid.find("Geometry/DataItem"), files)
    out["fields"] = {a.get("Name"): (a.get("Center"), read_item(directory, a.find("DataItem"), files))
                     for a in grid.findall("Attribute")}
    return out


def point_keys(ref):
    return [np.asarray(p, dtype=float).tobytes() for p in ref]


def check_pieces(one, directory, ranks, tol):
    """The output of an R-rank run against the one-rank run's (see main)."""
    ref_steps = steps_of(os.path.join(one, "output.xdmf"))
    steps = steps_of(os.path.join(directory, "output.xdmf"))
    if len(steps) != len(ref_steps) or len(steps) == 0:
        fail(f"{len(steps)} output steps on {ranks} ranks, {len(ref_steps)} on one")
        return
    for k in range(ranks):
        name = "output.h5" if k == 0 else f"output.r{k}.h5"
        if not os.path.isfile(os.path.join(directory, name)):
            fail(f"{name} is missing")
    with h5py.File(os.path.join(directory, "output.h5"), "r") as h5:
        check_items(directory, steps, h5)
    files, ref_files = {}, {}
    # (body, field) -> [largest |diff|, largest |value| of the one-rank run]
    worst = {}
    try:
        for i, (st, rst) in enumerate(zip(steps, ref_steps)):
            if st.find("Time").get("Value") != rst.find("Time").get("Value"):
                fail(f"step {i}: time {st.find('Time').get('Value')} against "
                     f"{rst.find('Time').get('Value')}")
            pieces = st.findall("Grid")
            names = [p.get("Name") for p in pieces]
            if names != [f"piece{k}" for k in range(ranks)] or any(
                    p.get("GridType") != "Collection" or p.get("CollectionType") != "Spatial"
                    for p in pieces):
                fail(f"step {i}: not a spatial collection of pieces piece0..piece{ranks - 1}: {names}")
                return
            for k, p in enumerate(pieces):
                sfx = "" if k == 0 else f".r{k}"
                for item in p.iter("DataItem"):
                    fname = item.text.strip().split(":", 1)[0]
                    if fname not in (f"output{sfx}.h5", f"steps/{i:06d}{sfx}.h5"):
                        fail(f"step {i} piece{k} names {fname}")
            for bname, rg in body_grids(rst).items():
                ref = grid_arrays(one, rg, ref_files)
                parts = [(k, body_grids(p)[bname]) for k, p in enumerate(pieces)
                         if bname in body_grids(p)]
                if not parts:
                    fail(f"step {i}: {bname} in no piece")
                    continue
                if ref["reference"] is None:  # joints / contact: piece 0's, whole
                    if [k for k, _ in parts] != [0]:
                        fail(f"step {i}: {bname} not in piece 0 alone")
                        continue
                    got = grid_arrays(directory, parts[0][1], files)
                    pairs = [("x", got["x"], ref["x"])] + [
                        (f, got["fields"][f][1], v) for f, (_, v) in ref["fields"].items()]
                    for f, a, b in pairs:
                        if a.shape != b.shape:
                            fail(f"step {i}: {bname}/{f}: shape {a.shape}, one rank {b.shape}")
                            continue
                        w = worst.setdefault((bname, f), [0.0, 0.0])
                        w[0] = max(w[0], float(np.max(np.abs(a - b), initial=0.0)))
                        w[1] = max(w[1], float(np.max(np.abs(b), initial=0.0)))
                    continue
                # Points matched by their reference position (the same
                # weighted sum of the same coefficients in both runs, so
                # bit-equal), cells by their points.
                rkeys = point_keys(ref["reference"])
                rindex = {}
                for j, key in enumerate(rkeys):
                    rindex.setdefault(key, j)
                rcells = {tuple(sorted(rkeys[v] for v in c)): j
                          for j, c in enumerate(ref["topology"].reshape(len(ref["topology"]), -1))}
                seen_points, seen_cells = set(), []
                for k, g in parts:
                    got = grid_arrays(directory, g, files)
                    keys = point_keys(got["reference"])
                    pmap = [rindex.get(key, -1) for key in keys]
                    if min(pmap, default=0) < 0:
                        fail(f"step {i}: piece{k} {bname}: a point not in the one-rank mesh")
                        continue
                    topo = got["topology"].reshape(len(got["topology"]), -1)
                    cmap = [rcells.get(tuple(sorted(keys[v] for v in c)), -1) for c in topo]
                    if min(cmap, default=0) < 0:
                        fail(f"step {i}: piece{k} {bname}: a cell not in the one-rank mesh")
                        continue
                    seen_points.update(pmap)
                    seen_cells += cmap
                    pairs = [("x", got["x"], ref["x"][pmap])]
                    for f, (centre, v) in ref["fields"].items():
                        if f not in got["fields"]:
                            fail(f"step {i}: piece{k} {bname}: no {f}")
                            continue
                        pairs.append((f, got["fields"][f][1], v[pmap if centre == "Node" else cmap]))
                    for f, a, b in pairs:
                        w = worst.setdefault((bname, f), [0.0, 0.0])
                        w[0] = max(w[0], float(np.max(np.abs(a - b), initial=0.0)))
                        w[1] = max(w[1], float(np.max(np.abs(b), initial=0.0)))
                if len(seen_points) != len(set(rindex.values())):
                    fail(f"step {i}: {bname}: the pieces cover {len(seen_points)} of "
                         f"{len(set(rindex.values()))} points")
                if sorted(seen_cells) != list(range(len(rcells))):
                    fail(f"step {i}: {bname}: the pieces' {len(seen_cells)} cells are not the "
                         f"{len(rcells)} cells of one rank, each once")
    finally:
        for f in list(files.values()) + list(ref_files.values()):
            f.close()
    for (bname, f), (d, m) in sorted(worst.items()):
        r = d / m if m > 0 else d
        if r > tol:
            fail(f"{bname}/{f}: max |diff| {d:.3e} = {r:.3e} x its largest value (> {tol:g})")
    print(f"{ranks} pieces, {len(steps)} steps; largest relative differences: " +
          ", ".join(f"{b}/{f} {d / m if m > 0 else d:.1e}"
                    for (b, f), (d, m) in sorted(worst.items())))


def check_dataset(path, name, expected_json, tol):
    with open(expected_json) as f:
        expected = json.load(f)
    with h5py.File(path, "r") as h5:
        if name not in h5:
            fail(f"{path}: no dataset {name}")
            return
        close(np.asarray(h5[name]), expected, tol, f"{path}:{name}")


def main(argv):
    if len(argv) == 3 and argv[1] == "--killed":
        check_killed(argv[2])
    elif len(argv) == 6 and argv[1] == "--pieces":
        check_pieces(argv[2], argv[3], int(argv[4]), float(argv[5]))
    elif len(argv) == 6 and argv[1] == "--dataset":
        check_dataset(argv[2], argv[3], argv[4], float(argv[5]))
    elif len(argv) == 3:
        with open(argv[2]) as f:
            check_values(argv[1], json.load(f))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if failures:
        print(f"check_output.py: {len(failures)} failure(s)", file=sys.stderr)
        return 1
    print("check_output.py: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
