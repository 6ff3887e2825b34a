#!/usr/bin/env bash
# The GPU run, in one script sized for under 8 minutes
# on one H200. Run from a bundle made by benchmarks/gpu/build.sh:
#
#   ./run.sh OUT.json            # in the bundle folder
#   GPU_BIN=dir CPU_BIN=dir ./run.sh OUT.json   # other program folders
#
# Steps, each timed, each result one JSON object in OUT.json's "runs":
#   1. the test suites that exercise kernels and solvers (materials,
#      elements, constraints, contact, solvers, dynamics) on the GPU build;
#   2. B1 (T10 beam, generated meshes) res 8, 16 and 32 on the GPU with the
#      GPU build's default solver (cudss if bundled, else kk-cg), then res 8
#      and 16 on the CPU build (one thread) for the comparison: seconds per
#      step, breakdown, Newton iterations and the probe history x_hist;
#   3. the contact drop (Q27 cubes on the ground) on both;
#   4. the element force and tangent loops on the GPU, range against team
#      (tlfea_bench_kernels --team 1).
# B3 (ANCF 3443 plate) has no driver yet; it is added here when it has one.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-gpu_run.json}
GPU_BIN=${GPU_BIN:-$HERE/gpu}
CPU_BIN=${CPU_BIN:-$HERE/cpu}
SOLVER=${TLFEA_GPU_SOLVER:-}
export LD_LIBRARY_PATH="$HERE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_PROC_BIND=false OPENBLAS_NUM_THREADS=1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0

# record NAME KIND SECONDS RC FILE: one entry; FILE holds the program's JSON
# (drivers) or is empty (tests: the tail of the log is kept instead).
record() {
  local name=$1 kind=$2 secs=$3 rc=$4 body=$5
  n=$((n + 1))
  python3 - "$name" "$kind" "$secs" "$rc" "$body" "$TMP/log" > "$TMP/run$n.json" <<'PY'
import json, sys
name, kind, secs, rc, body, log = sys.argv[1:]
entry = {"name": name, "kind": kind, "wall_s": float(secs), "rc": int(rc)}
text = open(body).read() if body else ""
if kind == "driver":
    objs = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try: objs.append(json.loads(line))
            except ValueError: pass
    entry["results"] = objs
try:
    entry["log_tail"] = open(log).read()[-2000:]
except OSError:
    pass
print(json.dumps(entry))
PY
  echo "[gpu-run] $name ($kind): rc $rc, ${secs} s" >&2
}

timed() {  # timed NAME KIND LIMIT CMD...: runs CMD, stdout to $TMP/out, log to $TMP/log
  local name=$1 kind=$2 limit=$3; shift 3
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout "$limit" "$@" > "$TMP/out" 2> "$TMP/log"; rc=$?
  t1=$(date +%s.%N)
  cat "$TMP/out" >> "$TMP/log"
  record "$name" "$kind" "$(awk "BEGIN{print $t1 - $t0}")" "$rc" "$([ "$kind" = driver ] && echo "$TMP/out")"
}

if [ -z "$SOLVER" ]; then
  if "$GPU_BIN/tlfea" info 2>/dev/null | grep -q cudss; then SOLVER=cudss; else SOLVER=kk-cg; fi
fi
"$GPU_BIN/tlfea" info > "$TMP/info_gpu.txt" 2>&1
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$TMP/smi.txt" 2>&1

for t in materials elements constraints contact solvers dynamics; do
  timed "test_$t" test 120 "$GPU_BIN/tlfea_test_$t"
done
GPU_RES=${TLFEA_GPU_RUN_RES:-8 16 32}   # a dry run on a CPU: TLFEA_GPU_RUN_RES="0 2"
CPU_RES=${TLFEA_CPU_RUN_RES:-8 16}
for res in $GPU_RES; do
  timed "b1_res${res}_gpu" driver 120 "$GPU_BIN/tlfea_bench_t10_beam" --res "$res" --generated \
    --steps 20 --solver "$SOLVER"
done
for res in $CPU_RES; do
  OMP_NUM_THREADS=1 timed "b1_res${res}_cpu1" driver 150 "$CPU_BIN/tlfea_bench_t10_beam" \
    --res "$res" --generated --steps 20
done
timed contact_drop_gpu driver 60 "$GPU_BIN/tlfea_bench_contact_drop" --steps 50 
OMP_NUM_THREADS=1 timed contact_drop_cpu1 driver 60 "$CPU_BIN/tlfea_bench_contact_drop" --steps 50
# Element force and tangent: one thread per element (range) against one team
# per element (the GPU default, docs/theory.md §3.12), every element type.
timed kernels_team_gpu driver 120 "$GPU_BIN/tlfea_bench_kernels" --team 1 --materials svk,nh \
  --repeat 5

python3 - "$OUT" "$TMP" "$n" <<'PY'
import json, sys, os
out, tmp, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = [json.load(open(os.path.join(tmp, f"run{i}.json"))) for i in range(1, n + 1)]
doc = {"info_gpu": open(os.path.join(tmp, "info_gpu.txt")).read(),
       "gpu": open(os.path.join(tmp, "smi.txt")).read() if os.path.exists(os.path.join(tmp, "smi.txt")) else "",
       "runs": runs}
json.dump(doc, open(out, "w"), indent=1)
print(f"[gpu-run] {len(runs)} runs written to {out}", file=sys.stderr)
PY
