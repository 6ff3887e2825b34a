#!/usr/bin/python3
"""B1 peer (docs/theory.md §A.1): the T10 beam with FEniCSx/dolfinx 0.5.x,
compared with TLFEA's tlfea_bench_t10_beam on the same mesh.

A measurement tool, not a CI dependency: it needs Debian's python3-dolfinx
(0.5.x, `apt-get install -y python3-dolfinx`).

    /usr/bin/python3 benchmarks/peers/b1_dolfinx.py --mesh-dir DIR --res 8 \
        --tlfea-bin build/benchmarks/tlfea_bench_t10_beam [--steps 50] [--material svk|mr]

Run it on one core for the B1 comparison (one MPI rank here; TLFEA is run
with OMP_NUM_THREADS=1). It prints one JSON object: both codes' seconds per
step, their ratio (dolfinx / TLFEA), the probe agreement and peak memory.
With --tlfea-json FILE it reads a TLFEA result instead of running the driver;
without either it reports dolfinx alone.

Discretisation (the same as TLFEA's, term by term):
  * Mesh: the vertices of the TetGen 10-node tetrahedra (the first four
    entries of every .ele line); dolfinx builds P2 vector Lagrange on those
    tetrahedra, so its dofs sit at the vertices and edge midpoints. TetGen's
    -o2 midside nodes are edge midpoints (checked below, "midside_offset_max"),
    so the P2 field is the T10 field node for node, whatever the local order.
  * Time: displacement-form backward Euler with the velocity carried as a
    field, q_{n+1} = q_n + h v_{n+1}, i.e. with u the displacement
      R(u) = M ((u - u_n)/h - v_n)/h + f_int(u) - f_ext = 0,
      v_{n+1} = (u - u_n)/h,
    which is TLFEA's velocity-level step g(v) = M (v - v_n)/h + f_int(q_n + h v)
    - f_ext with u = u_n + h v: the same equations, the same residual in the
    same units (N). (Equivalently M (u - 2 u_n + u_{n-1})/h^2 + f_int(u) = f_ext,
    with u_{-1} = u_0 = 0 from rest.) Initial Newton guess u = u_n + h v_n,
    TLFEA's v = v_n.
  * Quadrature: internal force and tangent with the degree-2 (4-point) rule
    TLFEA's T10 uses; consistent mass with a degree-4 rule (exact for P2 x
    P2 on affine tetrahedra, as TLFEA's 14-point rule is).
  * Newton (dolfinx.nls.petsc.NewtonSolver): residual criterion, absolute and
    relative tolerance 1e-4, the Jacobian assembled and LU-factorised by MUMPS
    at every Newton iteration (KSP preonly + PC lu + mumps).
  * Loads: 5000 N in +x split equally over every P2 dof node with x = 3 (the
    same nodes as the T10 mesh's, midside included), added to the assembled
    residual as point loads; the count and the total are checked against
    TLFEA's. Clamp: every dof node with x = 0.
  * Probe: the dof node at (3, 1, 0.5); its x after every step.
Probe agreement: max over steps of |u_T - u_D| / max over steps of |u_D| (u the
probe's x displacement), and the pointwise max relative difference over the
steps where |u_D| exceeds 1% of its peak.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np


def read_tetgen_vertices(base):
    """Vertex coordinates and 4-vertex cells of a TetGen 10-node mesh, plus the
    max distance of a midside node from the midpoint of its element's nearest edge."""

    def lines(path):
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].split()
                if line:
                    yield line

    it = lines(base + ".node")
    n, dim = int(next(it)[0]), 3
    ids = np.empty(n, dtype=np.int64)
    xyz = np.empty((n, dim))
    for i in range(n):
        t = next(it)
        ids[i] = int(t[0])
        xyz[i] = [float(v) for v in t[1:4]]
    it = lines(base + ".ele")
    h = next(it)
    ne, npe = int(h[0]), int(h[1])
    if npe != 10:
        raise SystemExit(f"{base}.ele: expected 10-node tetrahedra, got {npe}")
    ele = np.array([[int(v) for v in next(it)[1:11]] for _ in range(ne)], dtype=np.int64)
    index = {int(k): i for i, k in enumerate(ids)}
    ele = np.vectorize(index.__getitem__)(ele)
    # Midside nodes: each must be the midpoint of one of the six edges.
    v = xyz[ele[:, :4]]  # (ne, 4, 3)
    pairs = [(0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)]
    mids = np.stack([(v[:, a] + v[:, b]) / 2 for a, b in pairs], axis=1)  # (ne, 6, 3)
    m = xyz[ele[:, 4:]]  # (ne, 6, 3)
    d = np.linalg.norm(m[:, :, None, :] - mids[:, None, :, :], axis=3).min(axis=2)
    verts = np.unique(ele[:, :4])
    remap = -np.ones(n, dtype=np.int64)
    remap[verts] = np.arange(len(verts))
    return xyz[verts], remap[ele[:, :4]], float(d.max())


def run_dolfinx(args):
    from mpi4py import MPI
    from petsc4py import PETSc
    import ufl
    import dolfinx
    from dolfinx import fem, mesh as dmesh
    from dolfinx.fem.petsc import NonlinearProblem
    from dolfinx.nls.petsc import NewtonSolver

    comm = MPI.COMM_WORLD
    base = os.path.join(args.mesh_dir, f"beam_3x2x1_res{args.res}.1")
    x, cells, midside_offset = read_tetgen_vertices(base)
    domain = ufl.Mesh(ufl.VectorElement("Lagrange", ufl.tetrahedron, 1))
    msh = dmesh.create_mesh(comm, cells, x, domain)
    V = fem.VectorFunctionSpace(msh, ("Lagrange", 2))
    bs = V.dofmap.index_map_bs
    X = V.tabulate_dof_coordinates()  # one row per dof node (block)
    n_nodes = V.dofmap.index_map.size_local

    tol = 3e-9
    clamped = np.flatnonzero(np.abs(X[:n_nodes, 0]) < tol).astype(np.int32)
    loaded = np.flatnonzero(np.abs(X[:n_nodes, 0] - 3.0) < tol)
    probe_d = np.linalg.norm(X[:n_nodes] - np.array([3.0, 1.0, 0.5]), axis=1)
    probe = int(np.argmin(probe_d))
    if probe_d[probe] > 1e-6:
        raise SystemExit("no P2 dof node at (3, 1, 0.5)")

    E, nu, rho, total = 7e8, 0.33, 2700.0, 5000.0
    mu, K = E / (2 * (1 + nu)), E / (3 * (1 - 2 * nu))
    lam = E * nu / ((1 + nu) * (1 - 2 * nu))
    h = args.dt

    u, w = fem.Function(V), ufl.TestFunction(V)
    u_n, v_n = fem.Function(V), fem.Function(V)
    d = len(u)
    I = ufl.Identity(d)
    F = ufl.variable(I + ufl.grad(u))
    if args.material == "svk":
        Eg = (F.T * F - I) / 2
        P = F * (lam * ufl.tr(Eg) * I + 2 * mu * Eg)
    else:
        mu10, mu01, kappa = 0.3 * mu, 0.2 * mu, 1.5 * K
        C = F.T * F
        J = ufl.det(F)
        I1 = ufl.tr(C)
        I2 = (I1**2 - ufl.tr(C * C)) / 2
        psi = (mu10 * (J ** (-2.0 / 3.0) * I1 - 3) + mu01 * (J ** (-4.0 / 3.0) * I2 - 3)
               + kappa / 2 * (J - 1) ** 2)
        P = ufl.diff(psi, F)
    dx_k = ufl.dx(metadata={"quadrature_degree": 2})
    dx_m = ufl.dx(metadata={"quadrature_degree": 4})
    R = (rho / h * ufl.inner((u - u_n) / h - v_n, w) * dx_m + ufl.inner(P, ufl.grad(w)) * dx_k)
    Jac = ufl.derivative(R, u, ufl.TrialFunction(V))

    zero = fem.Function(V)
    bc_dofs = fem.locate_dofs_geometrical(V, lambda p: np.abs(p[0]) < tol)  # block indices
    if len(bc_dofs) != len(clamped):
        raise SystemExit("clamped-node count mismatch between dof coordinates and locate_dofs")
    bc = fem.dirichletbc(zero, bc_dofs)
    fn = total / len(loaded)
    load_dofs = (loaded * bs + 0).astype(np.int32)

    class Problem(NonlinearProblem):
        def F(self, xv, b):
            super().F(xv, b)
            with b.localForm() as bl:
                bl.array_w[load_dofs] -= fn

    problem = Problem(R, u, bcs=[bc], J=Jac)
    solver = NewtonSolver(comm, problem)
    solver.convergence_criterion = "residual"
    solver.atol = args.abs_tol
    solver.rtol = args.rel_tol
    solver.max_it = 50
    solver.report = False
    ksp = solver.krylov_solver
    opts = PETSc.Options()
    pre = ksp.getOptionsPrefix() or ""
    opts[f"{pre}ksp_type"] = "preonly"
    opts[f"{pre}pc_type"] = "lu"
    opts[f"{pre}pc_factor_mat_solver_type"] = "mumps"
    ksp.setFromOptions()

    x_hist, step_s, newton = [], [], 0
    t0 = time.perf_counter()
    for _ in range(args.steps):
        ts = time.perf_counter()
        # Initial guess u = u_n + h v_n (TLFEA: v = v_n).
        u.x.array[:] = u_n.x.array + h * v_n.x.array
        its, converged = solver.solve(u)
        if not converged:
            raise SystemExit("dolfinx Newton did not converge")
        u.x.scatter_forward()
        v_n.x.array[:] = (u.x.array - u_n.x.array) / h
        u_n.x.array[:] = u.x.array
        newton += its
        step_s.append(time.perf_counter() - ts)
        x_hist.append(float(X[probe, 0] + u.x.array[probe * bs]))
    wall = time.perf_counter() - t0
    return {
        "code": "dolfinx",
        "dolfinx_version": dolfinx.__version__,
        "mpi_ranks": comm.size,
        "unknowns": n_nodes * bs,
        "elements": int(cells.shape[0]),
        "clamped_nodes": int(len(clamped)),
        "loaded_nodes": int(len(loaded)),
        "load_total_n": fn * len(loaded),
        "midside_offset_max": midside_offset,
        "wall_s": wall,
        "s_per_step": wall / args.steps,
        "s_per_step_median": float(np.median(step_s)),
        "s_first_step": step_s[0],
        "newton_iterations": newton,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
        "probe": [float(c) for c in X[probe]],
        "x_hist": x_hist,
    }


def run_tlfea(args):
    if args.tlfea_json:
        with open(args.tlfea_json) as f:
            return json.loads(f.read().strip().splitlines()[-1])
    cmd = [args.tlfea_bin, "--mesh-dir", args.mesh_dir, "--res", str(args.res),
           "--steps", str(args.steps), "--dt", repr(args.dt), "--material", args.material,
           "--solver", args.solver, "--abs-tol", repr(args.abs_tol),
           "--rel-tol", repr(args.rel_tol), "--reuse-jacobian", str(args.reuse_jacobian)]
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def agreement(xt, xd, x0):
    ut, ud = np.asarray(xt) - x0, np.asarray(xd) - x0
    n = min(len(ut), len(ud))
    ut, ud = ut[:n], ud[:n]
    peak = np.abs(ud).max()
    big = np.abs(ud) > 0.01 * peak
    return {
        "probe_rel_diff": float(np.abs(ut - ud).max() / peak),
        "probe_rel_diff_pointwise": float((np.abs(ut - ud)[big] / np.abs(ud[big])).max()),
        "probe_disp_peak_m": float(peak),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mesh-dir", required=True)
    ap.add_argument("--res", type=int, default=0, choices=[0, 2, 4, 8, 16])
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--dt", type=float, default=1e-3)
    ap.add_argument("--material", default="svk", choices=["svk", "mr"])
    ap.add_argument("--abs-tol", type=float, default=1e-4)
    ap.add_argument("--rel-tol", type=float, default=1e-4)
    ap.add_argument("--solver", default="default", help="TLFEA linear-solver backend")
    ap.add_argument("--reuse-jacobian", type=int, default=1, choices=[0, 1],
                    help="TLFEA: keep the factorisation across steps (1) or refactor every "
                         "Newton iteration (0)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--tlfea-bin", help="path to tlfea_bench_t10_beam (run with 1 thread)")
    g.add_argument("--tlfea-json", help="a saved tlfea_bench_t10_beam JSON line")
    args = ap.parse_args()

    # TLFEA first: one code at a time on the core, and before dolfinx grows this process.
    t = run_tlfea(args) if (args.tlfea_bin or args.tlfea_json) else None
    d = run_dolfinx(args)
    out = {"case": "b1_t10_beam", "res": args.res, "material": args.material,
           "steps": args.steps, "dt": args.dt, "dolfinx": d}
    if t is not None:
        out["tlfea"] = {k: t.get(k) for k in (
            "unknowns", "loaded_nodes", "load_total_n", "wall_s", "s_per_step",
            "s_per_step_median", "newton_iterations", "factorizations", "peak_rss_mib",
            "threads", "kokkos_backend", "solver", "reuse_jacobian", "probe", "x_hist")}
        if t.get("loaded_nodes") != d["loaded_nodes"] or t.get("unknowns") != d["unknowns"]:
            out["warning"] = "meshes differ: unknowns or loaded-node counts disagree"
        out["ratio_dolfinx_over_tlfea"] = d["s_per_step"] / t["s_per_step"]
        out["ratio_median"] = d["s_per_step_median"] / t["s_per_step_median"]
        out.update(agreement(t["x_hist"], d["x_hist"], d["probe"][0]))
    print(json.dumps(out))


if __name__ == "__main__":
    sys.exit(main())
