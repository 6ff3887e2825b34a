"""ParaView itself opens a TLFEA run written by R MPI ranks as one data set.

  pvbatch tools/paraview_check.py ONE DIR R TOL

ONE is a one-rank run's output folder, DIR the same run on R ranks
(docs/guide/output.md, "Several ranks"). With each of ParaView's two XDMF
readers, "XDMF Reader" (XDMFReader, Xdmf 2) and "XDMF3 Reader S"
(Xdmf3ReaderS), both `output.xdmf` are opened as a user would; at every time
step of the index:
  - DIR's data set has R blocks (one per piece) where the reader keeps the
    spatial collection's structure (XDMFReader), and the time steps are ONE's;
  - merged into one grid (ParaView's Merge Blocks), DIR's cells are ONE's:
    the same count, each cell's centre within TOL x the model's size of one
    of ONE's cell centres (matched one to one), and every cell array equal
    on the matched cells to TOL x its largest magnitude over ONE's run;
    every point of DIR lies within TOL x the model's size of one of ONE's
    points with every point array equal there to TOL x its largest
    magnitude over the run (points on a piece boundary are in both pieces,
    so the point counts differ by them).
Prints one line per reader and exits 1 on any mismatch, 2 when ParaView's
Python modules cannot be loaded. mpi_output_test.sh runs it where pvbatch is
found (CI installs ParaView: TLFEA_PARAVIEW=on tools/setup.sh).
"""
import sys

try:
    import numpy as np
    from paraview import servermanager as sm
    from paraview import simple
    from vtkmodules.util.numpy_support import vtk_to_numpy
except ImportError as e:
    print(f"paraview_check.py: cannot load ParaView's Python modules: {e}", file=sys.stderr)
    sys.exit(2)


def open_reader(kind, path):
    if kind == "XDMFReader":
        return simple.XDMFReader(FileNames=[path])
    return simple.Xdmf3ReaderS(FileName=[path])


def snapshot(reader, t):
    """(top-level blocks, cell centres, {cell array: values}, (points, {point array: values}))."""
    # Fetch updates at the time keeper's time, so the scene is moved to t
    # (as a user stepping through the time steps would).
    simple.GetAnimationScene().AnimationTime = t
    simple.GetTimeKeeper().Time = t
    reader.UpdatePipeline(t)
    top = sm.Fetch(reader)
    blocks = top.GetNumberOfBlocks() if top.IsA("vtkMultiBlockDataSet") else 1
    merged = simple.MergeBlocks(Input=reader)
    merged.UpdatePipeline(t)
    grid = sm.Fetch(merged)
    simple.Delete(merged)
    nc = grid.GetNumberOfCells()
    xyz = vtk_to_numpy(grid.GetPoints().GetData()).astype(float) if nc else np.zeros((0, 3))
    centres = np.zeros((nc, 3))
    for c in range(nc):
        ids = grid.GetCell(c).GetPointIds()
        centres[c] = xyz[[ids.GetId(k) for k in range(ids.GetNumberOfIds())]].mean(axis=0)
    cell = {}
    cd = grid.GetCellData()
    for i in range(cd.GetNumberOfArrays()):
        a = cd.GetArray(i)
        if a is not None and a.GetName():
            cell[a.GetName()] = vtk_to_numpy(a).reshape(nc, -1).astype(float)
    point = {}
    pd = grid.GetPointData()
    for i in range(pd.GetNumberOfArrays()):
        a = pd.GetArray(i)
        if a is not None and a.GetName():
            point[a.GetName()] = vtk_to_numpy(a).reshape(len(xyz), -1).astype(float)
    return blocks, centres, cell, (xyz, point)


def nearest(a, b, tol):
    """For each point of a, the index of a point of b within tol (not one to one:
    a piece boundary's points are in several pieces); None if some has none."""
    idx = np.zeros(len(a), dtype=int)
    for i0 in range(0, len(a), 256):
        d = np.max(np.abs(a[i0:i0 + 256, None, :] - b[None, :, :]), axis=2)
        j = np.argmin(d, axis=1)
        if np.any(d[np.arange(len(j)), j] > tol):
            return None
        idx[i0:i0 + 256] = j
    return idx


def match(a, b, tol):
    """perm with |a[i] - b[perm[i]]| <= tol for every i, each b used once; None if none."""
    if a.shape != b.shape:
        return None
    perm = np.full(len(a), -1)
    used = np.zeros(len(b), dtype=bool)
    for i in range(len(a)):
        d = np.max(np.abs(b - a[i]), axis=1)
        d[used] = np.inf
        j = int(np.argmin(d))
        if d[j] > tol:
            return None
        perm[i] = j
        used[j] = True
    return perm


def time_steps(reader):
    """The reader's time steps as a list (ParaView gives a float for one, None for none)."""
    t = reader.TimestepValues
    if t is None or (hasattr(t, "__len__") and len(t) == 0):
        return [0.0]
    return [float(v) for v in t] if hasattr(t, "__len__") else [float(t)]


def compare(problems, what, one, many, index, scales, tol):
    """Each array of ONE (one) against DIR's (many) at DIR's entries: many[name][i]
    against one[name][index[i]], to tol x the array's largest magnitude over the run."""
    for name, v1 in one.items():
        if name not in many:
            problems.append(f"{what} {name} missing")
            continue
        scale = max(scales[name], 1e-300)
        diff = float(np.max(np.abs(many[name] - v1[index]))) if len(v1) else 0.0
        if diff > tol * scale:
            problems.append(f"{what} {name} differs by {diff:.3g} "
                            f"(largest magnitude over the run {scale:.3g})")


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    one, many, ranks, tol = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    failures = 0
    for kind in ("XDMFReader", "Xdmf3ReaderS"):
        r1 = open_reader(kind, one + "/output.xdmf")
        rn = open_reader(kind, many + "/output.xdmf")
        t1, tn = time_steps(r1), time_steps(rn)
        problems = []
        if len(t1) != len(tn) or any(abs(a - b) > 1e-12 * max(1.0, abs(a)) for a, b in zip(t1, tn)):
            problems.append(f"time steps {tn} are not the one-rank run's {t1}")
        snaps = [(t, snapshot(r1, t), snapshot(rn, t)) for t in (t1 if not problems else [])]
        # Scales over the whole run (ONE's largest magnitude of each array at
        # any step): early steps of a run at rest hold round-off.
        cell_scale, point_scale = {}, {}
        for _, (_, _, cell1, (_, point1)), _ in snaps:
            for name, v1 in cell1.items():
                m = float(np.max(np.abs(v1))) if v1.size else 0.0
                cell_scale[name] = max(cell_scale.get(name, 0.0), m)
            for name, v1 in point1.items():
                m = float(np.max(np.abs(v1))) if v1.size else 0.0
                point_scale[name] = max(point_scale.get(name, 0.0), m)
        cells = 0
        for t, (b1, c1, cell1, (x1, point1)), (bn, cn, celln, (xn, pointn)) in snaps:
            cells = len(cn)
            if kind == "XDMFReader" and bn != ranks:
                problems.append(f"t={t}: {bn} blocks, expected one per piece ({ranks})")
            size = float(np.max(np.ptp(c1, axis=0))) if len(c1) else 1.0
            perm = match(cn, c1, tol * size)
            if perm is None:
                problems.append(f"t={t}: {len(cn)} cells whose centres are not the one-rank "
                                f"run's {len(c1)} (to {tol} x {size:.3g})")
                continue
            compare(problems, f"t={t}: cell array", cell1, celln, perm, cell_scale, tol)
            near = nearest(xn, x1, tol * size)
            if near is None:
                problems.append(f"t={t}: points that are not the one-rank run's")
                continue
            compare(problems, f"t={t}: point array", point1, pointn, near, point_scale, tol)
        simple.Delete(r1)
        simple.Delete(rn)
        if problems:
            failures += 1
            print(f"paraview_check.py: {kind}: {many} on {ranks} ranks: FAIL")
            for p in problems[:10]:
                print("  " + p)
        else:
            print(f"paraview_check.py: {kind}: {many} on {ranks} ranks opens as the one-rank "
                  f"run: {len(t1)} time steps, {cells} cells")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
