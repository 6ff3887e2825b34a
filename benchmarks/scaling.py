#!/usr/bin/env python3
"""MPI scaling study of B1 (T10 beam) and B4 (Q27 block) with `dist-cg`
(docs/guide/mpi.md#scaling): weak scaling (the mesh grows with the ranks,
elements per rank about constant) and strong scaling (B1 res 32, B4 24^3),
1 to 4 ranks. Writes benchmarks/results/mpi_scaling.json (the table of
docs/benchmarks.md: run benchmarks/make_page.py after it). Python 3
standard library only.

  python3 benchmarks/scaling.py [--studies b1-strong,b4-strong,b1-weak,b4-weak]
                                [--ranks 1,2,3,4] [--steps 3] [--lock FILE]
                                [--bin-dir DIR] [--out FILE] [--timeout S]

Each run is `mpirun -np R DRIVER ... --solver dist-cg --breakdown 0
--steps S` (oversubscription allowed: more ranks than cores), under
`flock FILE` with --lock (one big run at a time on a machine shared with
others). The driver prints one JSON object from rank 0 with every rank's
peak resident memory, steady step time and iteration counts
(bench_stepper.hpp add_mpi_fields). Each row records the memory of the
largest rank and its ratio to the 1-rank run of the same study, the median
steady step (every step after the first; the slowest rank's) and its ratio
to 1 rank, CG iterations per solve, and the probe: its final coordinate and displacement
and, strong scaling, the largest difference of its history from the 1-rank
run relative to the 1-rank run's largest displacement. Timings: `nproc` and
the 1-minute load average before and after each run go with it; a row with
more ranks than cores, or a load above the run's own ranks, times a shared
CPU, not the code. Memory per rank does not depend on the load.

The file is rewritten after every run, so an interrupted study keeps the
rows that ran; the rows of studies not named in --studies are kept.
"""
import argparse
import datetime
import json
import math
import os
import platform
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def b1_k(res):
    """Cells along z of B1's generated mesh at resolution res: the driver's
    generated_k (bench_t10_beam.cpp); checked against the elements the
    driver reports."""
    return max(1, int(math.floor(8.33 * (res / 16.0) ** (2.2 / 3.0) + 0.5)))


def b1_elements(res):
    k = b1_k(res)
    return 6 * (3 * k) * (2 * k) * k  # (3k, 2k, k) cells of 6 tetrahedra


def b1_weak_res(ranks, base_res):
    """The res whose element count is nearest ranks x the base's (of the
    res giving that mesh, the nearest to base_res x ranks^(1/3))."""
    target = ranks * b1_elements(base_res)
    middle = base_res * ranks ** (1.0 / 3.0)
    return min(range(1, 257), key=lambda r: (abs(b1_elements(r) - target), abs(r - middle)))


def b4_weak_divisions(ranks, base):
    target = ranks * base ** 3
    return min(range(1, 129), key=lambda n: (abs(n ** 3 - target), n))


def studies(args):
    """(name, problem, kind, ranks -> (driver args, expected elements))."""
    return {
        "b1-strong": ("B1", "strong", lambda r: (
            ["--res", str(args.b1_strong_res), "--generated"], b1_elements(args.b1_strong_res))),
        "b4-strong": ("B4", "strong", lambda r: (
            ["--divisions", str(args.b4_strong_divisions)], args.b4_strong_divisions ** 3)),
        "b1-weak": ("B1", "weak", lambda r: (
            ["--res", str(b1_weak_res(r, args.b1_weak_base_res)), "--generated"],
            b1_elements(b1_weak_res(r, args.b1_weak_base_res)))),
        "b4-weak": ("B4", "weak", lambda r: (
            ["--divisions", str(b4_weak_divisions(r, args.b4_weak_base_divisions))],
            b4_weak_divisions(r, args.b4_weak_base_divisions) ** 3)),
    }


DRIVERS = {"B1": "tlfea_bench_t10_beam", "B4": "tlfea_bench_q27_block"}


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def machine_text(nproc):
    model = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
            mem = f", {kib / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{nproc} cores ({model}){mem}"


def parse_driver(stdout, what):
    """The one JSON object rank 0 prints (the last line starting with '{')."""
    lines = [l for l in stdout.splitlines() if l.lstrip().startswith("{")]
    if len(lines) != 1:
        raise ValueError(f"{what}: {len(lines)} JSON lines on stdout, expected 1 (rank 0's)")
    obj = json.loads(lines[0])
    for key in ("elements", "unknowns", "peak_rss_mib_per_rank", "peak_rss_mib_max_rank",
                "s_per_step_steady_median_per_rank", "linear_iterations_per_rank",
                "newton_iterations_per_rank", "mpi_ranks", "probe"):
        if key not in obj:
            raise ValueError(f"{what}: field '{key}' missing")
    return obj


def probe_history(obj):
    """(history, axis index, reference coordinate) of the driver's probe."""
    hist = obj.get("x_hist") if "x_hist" in obj else obj.get("z_hist")
    axis = "xyz".index(obj.get("probe_axis", "x" if "x_hist" in obj else "z"))
    return hist, axis, obj["probe"][axis]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--studies", default="b1-strong,b4-strong,b1-weak,b4-weak")
    ap.add_argument("--ranks", default="1,2,3,4")
    ap.add_argument("--steps", type=int, default=3, help="time steps per run (the first is not steady)")
    ap.add_argument("--lock", help="run each mpirun under `flock FILE` (one big run at a time)")
    ap.add_argument("--bin-dir", default=os.path.join(ROOT, "build", "trilinos", "benchmarks"))
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "mpi_scaling.json"))
    ap.add_argument("--timeout", type=float, default=1200, help="seconds per run before it is killed")
    ap.add_argument("--b1-strong-res", type=int, default=32)
    ap.add_argument("--b4-strong-divisions", type=int, default=24)
    ap.add_argument("--b1-weak-base-res", type=int, default=16)
    ap.add_argument("--b4-weak-base-divisions", type=int, default=12)
    ap.add_argument("--machine", help="machine description for the page (default: from /proc)")
    a = ap.parse_args()
    ranks = [int(r) for r in a.ranks.split(",")]
    if ranks[0] != 1:
        sys.exit("scaling.py: --ranks must start with 1 (the ratios are to the 1-rank run)")
    table = studies(a)
    names = a.studies.split(",")
    for n in names:
        if n not in table:
            sys.exit(f"scaling.py: unknown study '{n}' (known: {', '.join(table)})")
    for p in {table[n][0] for n in names}:
        if not os.access(os.path.join(a.bin_dir, DRIVERS[p]), os.X_OK):
            sys.exit(f"scaling.py: no driver {os.path.join(a.bin_dir, DRIVERS[p])} "
                     "(build it in the Trilinos build, or give --bin-dir)")
    nproc = os.cpu_count() or 1
    try:
        nproc = len(os.sched_getaffinity(0))
    except AttributeError:
        pass
    env = dict(os.environ, OMPI_MCA_rmaps_base_oversubscribe="1")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    machine = a.machine or (machine_text(nproc) + "; the 1-minute load average before and after "
                            "each run is in its row")
    study_cmd = "python3 benchmarks/scaling.py " + " ".join(shlex.quote(x) for x in sys.argv[1:])
    doc = {
        "problem": "MPI scaling",
        "title": "B1 and B4 on 1 to 4 MPI ranks: weak and strong scaling, memory per rank (`dist-cg`)",
        "description": (
            "Weak scaling: the mesh grows with the ranks (B1: the generated res whose element "
            "count is nearest R times res 16's; B4: the N^3 nearest R x 12^3), so ideal is "
            "equal memory and time per rank. Strong scaling: B1 res 32 and B4 24^3 on every "
            "rank count, ideal 1/R. Memory: the peak resident set (VmHWM) of the largest rank, "
            "and its ratio to the 1-rank run of the same study; it is exact whatever the load. "
            "Time: the median of the steady steps (all but the first, which sets the "
            "preconditioner up) of the slowest rank, and its ratio to 1 rank. CG it./solve: "
            "the block-Jacobi ILU's iterations grow with the ranks. Probe diff: strong scaling, "
            "the largest difference of the probe's history from the 1-rank run over its largest "
            "displacement. Cores and load: a run with more ranks than cores (`cores`), or with "
            "a 1-minute load average above its own ranks (`load after`; other work on the "
            "machine), times shared cores: its time and time ratio say nothing about the code's "
            "scaling. Rerun with the command below (after building the drivers in "
            "build/trilinos) and regenerate the page."),
        "columns": [["study", "study"], ["problem", "problem"], ["size", "mesh"],
                    ["ranks", "ranks"], ["elements_per_rank", "elements per rank"],
                    ["unknowns", "unknowns"],
                    ["peak_rss_mib_max_rank", "peak RSS MiB per rank (max)"],
                    ["peak_rss_mib_per_rank", "each rank"],
                    ["memory_ratio_to_1_rank", "memory vs 1 rank"],
                    ["median_ms", "median ms/step"], ["time_ratio_to_1_rank", "time vs 1 rank"],
                    ["iterations", "CG it./solve"], ["newton_iterations", "Newton it."],
                    ["probe_displacement", "probe displacement m"], ["probe_rel_diff", "probe diff vs 1 rank"],
                    ["nproc", "cores"], ["load_before", "load before"],
                    ["load_after", "load after"], ["steps", "steps"], ["error", "error"]],
        "records": [],
    }

    def save():
        tmp = a.out + ".tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.replace(tmp, a.out)

    # Rows of the studies not run now stay (a rerun of one study keeps the others).
    key = {n: (table[n][0], table[n][1]) for n in table}
    run_keys = {key[n] for n in names}
    try:
        with open(a.out) as f:
            old = json.load(f).get("records", [])
    except (OSError, ValueError):
        old = []
    doc["records"] = [rec for rec in old if (rec.get("problem"), rec.get("study")) not in run_keys]

    failed = 0
    for name in names:
        problem, kind, size_of = table[name]
        one = None  # the 1-rank record of this study
        for r in ranks:
            size_args, expected_elements = size_of(r)
            cmd = ([a.mpirun, "-np", str(r), os.path.join(a.bin_dir, DRIVERS[problem])] + size_args +
                   ["--steps", str(a.steps), "--solver", "dist-cg", "--breakdown", "0"])
            full = (["flock", a.lock] if a.lock else []) + cmd
            shown = " ".join(["mpirun", "-np", str(r), "build/trilinos/benchmarks/" + DRIVERS[problem]] +
                             cmd[4:])
            print(f"# {name}: {shown}", file=sys.stderr, flush=True)
            rec = {"study": kind, "problem": problem, "ranks": r, "steps": a.steps, "nproc": nproc,
                   "threads": 1, "solver": "dist-cg (ilu)", "machine": machine,
                   "date": datetime.date.today().isoformat(), "command": study_cmd,
                   "driver_command": shown,
                   "source": "benchmarks/scaling.py: one mpirun per row, the driver's JSON (rank 0, "
                             "every rank's values gathered)"}
            if a.lock:
                # Waiting for the lock is not part of the run: take the load after it.
                subprocess.run(["flock", a.lock, "true"], check=False)
            rec["load_before"] = loadavg()
            t0 = time.time()
            try:
                p = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env=env, timeout=a.timeout)
                rc, out, err = p.returncode, p.stdout, p.stderr
            except subprocess.TimeoutExpired:
                rc, out, err = None, "", f"killed after {a.timeout:g} s"
            rec["run_wall_s"] = round(time.time() - t0, 1)
            rec["load_after"] = loadavg()
            try:
                if rc != 0:
                    raise ValueError(f"exit status {rc}: {err.strip()[-500:]}")
                d = parse_driver(out, shown)
                if d["elements"] != expected_elements:
                    raise ValueError(f"{d['elements']} elements, the study expected "
                                     f"{expected_elements} (is scaling.py's b1_k the driver's?)")
                if d["mpi_ranks"] != r:
                    raise ValueError(f"the driver ran on {d['mpi_ranks']} ranks, not {r}")
            except ValueError as e:
                print(f"scaling.py: {shown}: {e}", file=sys.stderr)
                rec["error"] = str(e)[:300]
                failed += 1
                doc["records"].append(rec)
                save()
                continue
            hist, axis, ref = probe_history(d)
            solves = d.get("linear_solves", d.get("linear_stats", {}).get("solves", 0))
            its = d["linear_iterations_max_rank"]
            rec.update({
                "size": d["resolution"] if problem == "B4" else f"generated res {d['res']}",
                "elements": d["elements"],
                "elements_per_rank": round(d["elements"] / r),
                "partition_elements_min": d.get("partition_elements_min"),
                "partition_elements_max": d.get("partition_elements_max"),
                "unknowns": d["unknowns"],
                "nnz": d.get("nnz"),
                "partition": d.get("partition"),
                "peak_rss_mib_max_rank": round(d["peak_rss_mib_max_rank"]),
                "peak_rss_mib_min_rank": round(d["peak_rss_mib_min_rank"]),
                "peak_rss_mib_per_rank": [round(x) for x in d["peak_rss_mib_per_rank"]],
                "median_ms": round(1e3 * d["s_per_step_steady_median_max_rank"]),
                "median_ms_per_rank": [round(1e3 * x) for x in d["s_per_step_steady_median_per_rank"]],
                "first_step_ms": round(1e3 * d["s_first_step"]),
                "iterations": round(its / solves, 1) if solves else None,
                "linear_iterations": its,
                "linear_solves": solves,
                "newton_iterations": d["newton_iterations_max_rank"],
                "iterations_agree_over_ranks": (
                    d["newton_iterations_min_rank"] == d["newton_iterations_max_rank"] and
                    d["linear_iterations_min_rank"] == d["linear_iterations_max_rank"]),
                "probe_axis": "xyz"[axis],
                "probe_reference": ref,
                "probe_final": hist[-1] if hist else None,
                "probe_displacement": float(f"{hist[-1] - ref:.6g}") if hist else None,
                "probe_hist": hist,
                "git_revision": d.get("git_revision"),
            })
            if r == 1:
                one = rec
            if one is not None and one is not rec:
                rec["memory_ratio_to_1_rank"] = round(
                    rec["peak_rss_mib_max_rank"] / one["peak_rss_mib_max_rank"], 2)
                if one["median_ms"]:
                    rec["time_ratio_to_1_rank"] = round(rec["median_ms"] / one["median_ms"], 2)
                if kind == "strong" and hist and one["probe_hist"]:
                    h1 = one["probe_hist"]
                    scale = max(abs(x - ref) for x in h1) or 1.0
                    rec["probe_rel_diff"] = float(
                        f"{max(abs(x - y) for x, y in zip(hist, h1)) / scale:.2g}")
            doc["records"].append(rec)
            save()
            print(f"#   {rec['elements']} elements, peak RSS max rank {rec['peak_rss_mib_max_rank']} "
                  f"MiB, {rec['median_ms']} ms/step, {rec['iterations']} CG it./solve, load "
                  f"{rec['load_before']} -> {rec['load_after']}, {rec['run_wall_s']} s",
                  file=sys.stderr, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
