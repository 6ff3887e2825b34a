#!/usr/bin/env bash
# The GPU run, in one script sized for under 6 minutes on one H200. Run in
# the folder benchmarks/gpu/build.sh made (its parts are unpacked here first):
#
#   ./run.sh OUT.json            # writes OUT.json and OUT.txt (the table);
#                                # OUT.d/ keeps each run's record and log
#   GPU_BIN=dir CPU_BIN=dir ./run.sh OUT.json   # other program folders
#
# Steps, each timed, each result one entry of OUT.json's "runs":
#   1. every test suite of the CUDA build;
#   2. every example scene, 100 steps (fewer where the scene has fewer), on
#      the GPU and on the CPU (OpenMP, 2 threads, several scenes at a time
#      beside the GPU runs); per scene a verdict from the two history.csv
#      files: the centres of mass and the energies agree within 1e-9 of
#      their scale (the largest magnitude of the column family over the run);
#   3. B1 res 8, 16 and 32 with cudss and with kk-cg (block-jacobi), res 16 and
#      32 also with kk-cg preconditioners sgs (symmetric Gauss-Seidel) and
#      ilu0 and each with the coarse rigid-body level, res 16 also with
#      kk-cg reading at checks (--cg-budget 0); B2 128 elements; B3 32x32 and 64x64; B4 16^3 and 24^3; the
#      contact drop with 4x4x4 and 8x8x4 cubes; the element kernels, range
#      against team;
#   4. the large models, 5 steps each with cudss and with kk-cg ilu0: B1 res
#      48 (about a million unknowns) and B4 32^3, the drivers reporting the
#      GPU memory in use at its largest (gpu_memory_peak_mib).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-gpu_run.json}
TABLE=${OUT%.json}.txt
STEPS=${TLFEA_GPU_RUN_STEPS:-100}

# 0. Unpack (once): zstd travels with its libraries in zstd/.
ZSTD() { LD_LIBRARY_PATH="$HERE/zstd" "$HERE/zstd/zstd" "$@"; }
if [ ! -d "$HERE/bundle" ] && ls "$HERE"/bundle.tar.zst.part-* >/dev/null 2>&1; then
  cat "$HERE"/bundle.tar.zst.part-* | ZSTD -d --long=30 -q | tar -C "$HERE" -xf - ||
    { echo "run.sh: unpacking the bundle failed" >&2; exit 1; }
fi
if [ ! -d "$HERE/cudss" ] && ls "$HERE"/cudss.tar.zst.part-* >/dev/null 2>&1; then
  cat "$HERE"/cudss.tar.zst.part-* | ZSTD -d --long=30 -q | tar -C "$HERE" -xf - ||
    { echo "run.sh: unpacking cuDSS failed" >&2; exit 1; }
fi
B=$HERE/bundle
GPU_BIN=${GPU_BIN:-$B/gpu}
CPU_BIN=${CPU_BIN:-$B/cpu}
CUDA_LIB=${TLFEA_CUDA_LIB:-/usr/local/cuda-13.0/targets/x86_64-linux/lib}
export LD_LIBRARY_PATH="$B/lib:$HERE/cudss/lib:$CUDA_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_PROC_BIND=false OPENBLAS_NUM_THREADS=1
# The test suites read their data at the source path they were built from.
if [ -f "$B/data_dir.txt" ]; then
  DATA=$(cat "$B/data_dir.txt")
  if [ ! -e "$DATA" ]; then
    mkdir -p "$(dirname "$(dirname "$DATA")")" 2>/dev/null &&
      ln -s "$B/src/tests" "$(dirname "$DATA")" 2>/dev/null &&
      ln -s "$B/src/examples" "$(dirname "$(dirname "$DATA")")/examples" 2>/dev/null ||
      echo "run.sh: cannot link $DATA to the bundle's data; suites reading data will fail" >&2
  fi
fi
# Each run's record and log stay in OUT's folder as they finish, so a run cut
# off by a time limit still leaves what it measured.
TMP=${OUT%.json}.d
rm -rf "$TMP" && mkdir -p "$TMP"
n=0

# record NAME KIND SECONDS RC OUTFILE LOGFILE [VERDICT_JSON]
record() {
  n=$((n + 1))
  python3 - "$@" > "$TMP/run$n.json" <<'PY'
import json, sys
name, kind, secs, rc, body, log = sys.argv[1:7]
entry = {"name": name, "kind": kind, "wall_s": float(secs), "rc": int(rc)}
text = open(body).read() if body and body != "-" else ""
if kind == "driver":
    objs = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try: objs.append(json.loads(line))
            except ValueError: pass
    entry["results"] = objs
if kind == "test":
    tail = [l for l in open(log).read().splitlines() if "PASSED" in l or "FAILED" in l]
    entry["summary"] = tail[-12:]
if len(sys.argv) > 7:
    entry["comparison"] = json.loads(open(sys.argv[7]).read())
try:
    entry["log_tail"] = open(log).read()[-2000:]
except OSError:
    pass
print(json.dumps(entry))
PY
  echo "[gpu-run] $1 ($2): rc $4, $3 s" >&2
}

# timed NAME KIND LIMIT CMD...: CMD's stdout to $TMP/NAME.out, both to $TMP/NAME.log
timed() {
  local name=$1 kind=$2 limit=$3; shift 3
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout "$limit" "$@" > "$TMP/$name.out" 2> "$TMP/$name.log"; rc=$?
  t1=$(date +%s.%N)
  cat "$TMP/$name.out" >> "$TMP/$name.log"
  record "$name" "$kind" "$(awk "BEGIN{print $t1 - $t0}")" "$rc" "$TMP/$name.out" "$TMP/$name.log"
}

"$GPU_BIN/tlfea" info > "$TMP/info_gpu.txt" 2>&1
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$TMP/smi.txt" 2>&1

# 2 (CPU side, started first): every scene on the CPU, four at a time with two
# threads each, while the GPU runs the test suites and its own scenes.
SCENES=()
for f in "$B"/src/examples/*.yaml; do SCENES+=("$(basename "$f" .yaml)"); done
run_scene() {  # run_scene BIN SIDE SCENE THREADS
  local bin=$1 side=$2 s=$3 dir=$TMP/scene_$2_$3 t0 t1 rc
  t0=$(date +%s.%N)
  (cd "$B/src/examples" && OMP_NUM_THREADS=$4 timeout 150 "$bin/tlfea" run "$s.yaml" \
     --steps "$STEPS" --output "$dir" --set output.every=100000) \
    > "$TMP/scene_${side}_$s.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  echo "$rc $(awk "BEGIN{print $t1 - $t0}")" > "$TMP/scene_${side}_$s.status"
}
(
  for s in "${SCENES[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge 4 ]; do sleep 0.2; done
    run_scene "$CPU_BIN" cpu "$s" 2 &
  done
  wait
) &
CPU_SCENES=$!

# 1. Test suites on the GPU.
shopt -s nullglob
for t in "$GPU_BIN"/tlfea_test_*; do
  timed "$(basename "$t" | sed 's/^tlfea_//')" test 240 "$t"
done

# 2 (GPU side).
for s in "${SCENES[@]}"; do run_scene "$GPU_BIN" gpu "$s" 1; done
wait "$CPU_SCENES"
for s in "${SCENES[@]}"; do
  python3 - "$TMP/scene_gpu_$s/history.csv" "$TMP/scene_cpu_$s/history.csv" \
    > "$TMP/cmp_$s.json" <<'PY'
# Verdict: every centre-of-mass column (<body>.com_x/_y/_z) and every energy
# column (kinetic, strain, gravity potential, total; per body as well) agrees
# between the GPU and CPU histories within 1e-9 of the scale of its family
# (the largest magnitude of any column of the family at any step of either
# run), at every step both runs reached.
import csv, json, os, sys
gpu, cpu = sys.argv[1:3]
def read(p):
    if not os.path.exists(p): return None
    with open(p) as f: return list(csv.DictReader(f))
a, b = read(gpu), read(cpu)
if a is None or b is None:
    print(json.dumps({"verdict": "missing history", "gpu": a is not None, "cpu": b is not None}))
    sys.exit(0)
steps = min(len(a), len(b))
fam = {"com": [c for c in a[0] if c.endswith((".com_x", ".com_y", ".com_z"))],
       "energy": [c for c in a[0] if c.endswith(("kinetic_energy", "strain_energy",
                                                 "gravity_potential", "total_energy"))]}
out = {"steps_gpu": len(a), "steps_cpu": len(b), "tolerance": 1e-9}
ok = len(a) == len(b) and steps > 0
for name, cols in fam.items():
    scale, worst = 0.0, 0.0
    for r in a[:steps] + b[:steps]:
        for c in cols: scale = max(scale, abs(float(r[c])))
    for i in range(steps):
        for c in cols: worst = max(worst, abs(float(a[i][c]) - float(b[i][c])))
    rel = worst / scale if scale > 0 else worst
    out[name] = {"columns": len(cols), "scale": scale, "max_difference": worst, "relative": rel}
    ok = ok and rel <= 1e-9
out["verdict"] = "agree" if ok else "differ"
print(json.dumps(out))
PY
  read -r rc secs < "$TMP/scene_gpu_$s.status"
  read -r crc csecs < "$TMP/scene_cpu_$s.status"
  printf '{"cpu_rc": %s, "cpu_wall_s": %s}\n' "$crc" "$csecs" > "$TMP/cpu_$s.json"
  python3 -c "import json,sys; a=json.load(open(sys.argv[1])); a.update(json.load(open(sys.argv[2]))); print(json.dumps(a))" \
    "$TMP/cmp_$s.json" "$TMP/cpu_$s.json" > "$TMP/cmpall_$s.json"
  record "scene_$s" scene "$secs" "$rc" - "$TMP/scene_gpu_$s.log" "$TMP/cmpall_$s.json"
done

# 3. Benchmarks on the GPU.
for res in 8 16 32; do
  for solver in cudss kk-cg; do
    timed "b1_res${res}_$solver" driver 90 "$GPU_BIN/tlfea_bench_t10_beam" --res "$res" \
      --generated --steps 20 --solver "$solver"
  done
done
# kk-cg's preconditioners on one device: block-jacobi (the kk-cg runs above)
# against sgs and ilu0, and each with the two-level coarse space, iterations
# per solve and seconds per step.
for res in 16 32; do
  for pc in sgs ilu0; do
    timed "b1_res${res}_kk-cg_$pc" driver 90 "$GPU_BIN/tlfea_bench_t10_beam" --res "$res" \
      --generated --steps 20 --solver kk-cg --preconditioner "$pc"
  done
  for pc in block-jacobi sgs ilu0; do
    timed "b1_res${res}_kk-cg_${pc}_coarse" driver 90 "$GPU_BIN/tlfea_bench_t10_beam" \
      --res "$res" --generated --steps 20 --solver kk-cg --preconditioner "$pc" --coarse rigid-body
  done
done
# kk-cg reading once per solve after a predicted budget (the default, above)
# against reading at checks: the iterations queued past CG's stop against
# the host synchronisations saved.
for pc in block-jacobi sgs; do
  timed "b1_res16_kk-cg_${pc}_checks" driver 90 "$GPU_BIN/tlfea_bench_t10_beam" --res 16 \
    --generated --steps 20 --solver kk-cg --preconditioner "$pc" --cg-budget 0
done
timed b2_128 driver 60 "$GPU_BIN/tlfea_bench_ancf_beam" --elements 128 --steps 20
for d in 32 64; do timed "b3_${d}x$d" driver 90 "$GPU_BIN/tlfea_bench_ancf_plate" --divisions "$d" --steps 10; done
for d in 16 24; do timed "b4_$d" driver 90 "$GPU_BIN/tlfea_bench_q27_block" --divisions "$d" --steps 10; done
timed drop_4x4x4 driver 60 "$GPU_BIN/tlfea_bench_contact_drop" --cubes-per-side 4 --layers 4 --steps 50
timed drop_8x8x4 driver 90 "$GPU_BIN/tlfea_bench_contact_drop" --cubes-per-side 8 --layers 4 --steps 50
# Element force and tangent: one thread per element (range) against one team
# per element (the GPU default, docs/theory.md §3.12), every element type.
timed kernels_team driver 90 "$GPU_BIN/tlfea_bench_kernels" --team 1 --materials svk,nh --repeat 5

# 4. Large models on one GPU: 5 steps (the first factorizes, the rest are the
# steady steps whose median the driver reports).
for solver in cudss kk-cg; do
  timed "b1_res48_$solver" driver 150 "$GPU_BIN/tlfea_bench_t10_beam" --res 48 --generated \
    --steps 5 --solver "$solver" --preconditioner ilu0
  timed "b4_32_$solver" driver 150 "$GPU_BIN/tlfea_bench_q27_block" --divisions 32 --steps 5 \
    --max-memory-gb 100 \
    --solver "$solver" --preconditioner ilu0
done

python3 - "$OUT" "$TABLE" "$TMP" "$n" <<'PY'
import json, sys, os
out, table, tmp, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
runs = [json.load(open(os.path.join(tmp, f"run{i}.json"))) for i in range(1, n + 1)]
def read(name):
    p = os.path.join(tmp, name)
    return open(p).read() if os.path.exists(p) else ""
json.dump({"info_gpu": read("info_gpu.txt"), "gpu": read("smi.txt"), "runs": runs},
          open(out, "w"), indent=1)
lines = [f"{'run':32s} {'kind':7s} {'rc':>4s} {'wall s':>8s}  result"]
for r in runs:
    res = ""
    if r["kind"] == "test":
        res = (r.get("summary") or ["(no summary)"])[-1]
    elif r["kind"] == "scene":
        c = r.get("comparison", {})
        res = c.get("verdict", "?")
        for k in ("com", "energy"):
            if k in c: res += f"  {k} {c[k]['relative']:.1e}"
        res += f"  (cpu rc {c.get('cpu_rc')}, {c.get('cpu_wall_s')} s)"
    elif r["kind"] == "driver" and r.get("results"):
        last = r["results"][-1]
        keys = [k for k in ("s_per_step", "s_per_step_steady_median", "solver",
                            "gpu_memory_peak_mib") if k in last]
        res = ", ".join(f"{k} {last[k]}" for k in keys) or f"{len(r['results'])} JSON objects"
    lines.append(f"{r['name']:32s} {r['kind']:7s} {r['rc']:>4d} {r['wall_s']:8.1f}  {res}")
open(table, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
print(f"[gpu-run] {len(runs)} runs written to {out} and {table}", file=sys.stderr)
PY
