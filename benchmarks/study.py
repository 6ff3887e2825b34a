#!/usr/bin/env python3
"""Resolution study of one benchmark problem (B2, B3 or B4; docs/theory.md
Appendix A): runs its driver at each size, checks that every run printed one
JSON object, and prints a table of unknowns, seconds per step and the step's
breakdown. Python 3 standard library only.

  python3 benchmarks/study.py b2 [--sizes 4,8,16] [--steps N] [--json FILE]
                              [--bin-dir DIR | --driver PATH] [-- DRIVER ARGS]

Times are per steady step (every step after the first), in milliseconds;
"first" is the first step (the first factorization). assembly = residual
evaluations + tangent assemblies (measured by the stepper); resid / tangent
are its split estimated from one timed tangent assembly after the run ("-"
with --breakdown 0); other = step wall - assembly - factor - solve - contact.
Peer: Project Chrono's seconds per step for the same problem where known
(ChElementBeamANCF_3243 / ChElementShellANCF_3443, backward Euler, SparseLU,
1 thread; the numbers of the benchmark definition), and TLFEA / peer.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = {
    "b2": {"driver": "tlfea_bench_ancf_beam", "option": "--elements",
           "sizes": [4, 8, 16, 32, 64, 128], "label": "elements",
           "peer_s": {16: 0.88e-3, 128: 6.6e-3}},
    "b3": {"driver": "tlfea_bench_ancf_plate", "option": "--divisions",
           "sizes": [2, 4, 8, 16, 32, 64], "label": "NxN",
           "peer_s": {4: 2.2e-3, 8: 12.6e-3, 16: 111e-3, 32: 1.49, 64: 23.0}},
    "b4": {"driver": "tlfea_bench_q27_block", "option": "--divisions",
           "sizes": [2, 4, 8, 16, 32, 64], "label": "N^3", "peer_s": {}},
}
# Exit status of a driver that refused a size (B4 above --max-memory-gb).
REFUSED = 3


def parse_json(stdout, what):
    """The last line of stdout that starts with '{' (Kokkos may print
    warnings to stdout before it), as a JSON object."""
    lines = [l for l in stdout.splitlines() if l.lstrip().startswith("{")]
    if not lines:
        raise ValueError(f"{what}: no JSON object on stdout")
    obj = json.loads(lines[-1])
    if not isinstance(obj, dict):
        raise ValueError(f"{what}: output is not a JSON object")
    for key in ("unknowns", "steps", "s_per_step_steady_mean", "breakdown_per_step", "z_hist"):
        if key not in obj:
            raise ValueError(f"{what}: field '{key}' missing")
    if len(obj["z_hist"]) != obj["steps"]:
        raise ValueError(f"{what}: z_hist has {len(obj['z_hist'])} entries for {obj['steps']} steps")
    return obj


def ms(x):
    return "-" if x is None else f"{1e3 * x:.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", choices=sorted(CASES), help="problem: b2 (ANCF beam), b3 (ANCF plate), b4 (Q27 block)")
    ap.add_argument("--sizes", help="comma-separated sizes (default: the problem's study list)")
    ap.add_argument("--smallest", action="store_true", help="only the smallest size (smoke test)")
    ap.add_argument("--steps", type=int, help="time steps per run (default: the driver's)")
    ap.add_argument("--bin-dir", default=os.path.join(os.path.dirname(HERE), "build", "trilinos", "benchmarks"),
                    help="folder of the drivers (default build/trilinos/benchmarks)")
    ap.add_argument("--driver", help="driver executable (overrides --bin-dir)")
    ap.add_argument("--json", help="append every run's JSON line to this file")
    argv = sys.argv[1:]
    # After "--": arguments for every driver run (e.g. -- --threads 2 --solver kk-cg).
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    a = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    case = CASES[a.case]
    sizes = [int(s) for s in a.sizes.split(",")] if a.sizes else list(case["sizes"])
    if a.smallest:
        sizes = sizes[:1]
    driver = a.driver or os.path.join(a.bin_dir, case["driver"])
    if not os.access(driver, os.X_OK):
        sys.exit(f"study.py: no driver executable '{driver}' (build it, or give --bin-dir / --driver)")

    cols = [case["label"], "unknowns", "steps", "ms/step", "median", "first", "newton/st",
            "fact", "assembly", "resid", "tangent", "factor", "solve", "contact", "other",
            "rss_MiB", "peer_ms", "x_peer", "tip_z"]
    rows, failed, config = [], 0, None
    for n in sizes:
        cmd = [driver, case["option"], str(n)] + (["--steps", str(a.steps)] if a.steps else []) + extra
        what = " ".join(cmd)
        print(f"# {what}", file=sys.stderr, flush=True)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode == REFUSED:
            print(p.stderr.strip(), file=sys.stderr)
            rows.append([str(n), "refused"] + [""] * (len(cols) - 2))
            continue
        if p.returncode != 0:
            print(f"study.py: {what}: exit status {p.returncode}\n{p.stderr.strip()}", file=sys.stderr)
            failed += 1
            continue
        try:
            r = parse_json(p.stdout, what)
        except ValueError as e:
            print(f"study.py: {e}", file=sys.stderr)
            failed += 1
            continue
        if a.json:
            with open(a.json, "a") as f:
                f.write(json.dumps(r) + "\n")
        config = config or (f"# {r['case']}: {r.get('kokkos_backend')} x {r.get('threads')} threads, "
                            f"BLAS {r.get('blas')} x {r.get('blas_threads')}, solver "
                            f"{r.get('solver_backend')}, dt {r.get('dt')}, git {r.get('git_revision')}")
        b = r["breakdown_per_step"]
        peer = case["peer_s"].get(n)
        s = r["s_per_step_steady_mean"]
        rows.append([
            str(n), str(r.get("free_unknowns", r["unknowns"])), str(r["steps"]), ms(s),
            ms(r["s_per_step_steady_median"]), ms(r["s_first_step"]),
            f"{b['newton_iterations']:.2f}", str(r["factorizations"]), ms(b["assembly_s"]),
            ms(b.get("residual_s_est")), ms(b.get("tangent_s_est")), ms(b["factorization_s"]),
            ms(b["solve_s"]), ms(b["contact_s"]), ms(b["other_s"]), f"{r['peak_rss_mib']:.0f}",
            ms(peer), f"{s / peer:.2f}" if peer else "-", f"{r['z_hist'][-1]:.6g}"])
    if config:
        print(config)
    if rows:
        widths = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(cols)]
        print("  ".join(c.rjust(w) for c, w in zip(cols, widths)))
        for row in rows:
            print("  ".join(v.rjust(w) for v, w in zip(row, widths)))
    return 1 if failed or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
