#!/usr/bin/env bash
# Output of `tlfea run` on 2 MPI ranks (docs/guide/output.md, "Several
# ranks"): each rank writes its piece (output.h5 / steps/NNNNNN.h5 for rank
# 0, output.r1.h5 / steps/NNNNNN.r1.h5 for rank 1), rank 0 the index
# output.xdmf, every step of which is a spatial collection of the 2 pieces.
# tools/check_output.py --pieces (h5py and the XDMF text, independent of the
# writer) checks that every step names 2 pieces and their own files, that
# every file it names exists with the stated dimensions, and that the union
# of the pieces' points and cells is the one-rank run's mesh (each cell
# once) with the same values to TOL times the field's largest magnitude
# over the run. TOL = 1e-6 as for the histories in mpi_scenes_test.sh (the
# runs differ only through their linear solves and the order of the sums
# over ranks; each step's state agrees to ~1e-8 of its scale, see there).
# Scenes:
#   q27_pressure              one Q27 body split by METIS (stress, von Mises);
#   rigid_crank_flexible_rod  two rigid bodies (piece 0), an ANCF rod split,
#                             joints (piece 0);
#   contact_drop              Q27 and T10 bodies, contact points (piece 0).
# Then: a piece altered by 1e-3 relative must fail the check (the check can
# fail); ParaView's own readers open each 2-rank output as the one-rank run
# (tools/paraview_check.py under pvbatch, where ParaView is installed); a restart on 2 ranks continues the output bit-identically to the
# uninterrupted 2-rank run (every piece's step files and the index); a
# restart of that output on 1 rank keeps history.csv and starts the fields
# anew at the checkpoint's step (another rank count); a run killed with
# SIGKILL leaves readable pieces.
#   mpi_output_test.sh TLFEA SOURCE_DIR
# Exit 77 (skipped) where mpirun cannot start processes.
set -u
tlfea=$1 src=$2
TOL=${TOL:-1e-6}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/mpi_common.sh"  # mpi N CMD..., and the probe
if ! "$tlfea" info | grep -q "HDF5"; then
  echo "note: no TLFEA::io: multi-rank output checks skipped" >&2
  exit 77
fi
py=/usr/bin/python3
[ -x $py ] || py=python3
check="$py $src/tools/check_output.py"
fail=0
# run N LABEL ARGS...: tlfea run on N ranks into $work/LABEL.N
run() {
  local n=$1 label=$2
  shift 2
  mpi "$n" "$tlfea" run "$@" --output "$work/$label.$n" > /dev/null 2> "$work/$label.$n.log" ||
    { echo "FAIL: $label on $n ranks: $(tail -5 "$work/$label.$n.log")" >&2; fail=1; return 1; }
}
# pieces LABEL ARGS...: 1 and 2 ranks, the 2-rank output against the 1-rank one
pieces() {
  local label=$1
  shift
  run 1 "$label" "$@" && run 2 "$label" "$@" || return
  grep -q "^MPI: 2 ranks" "$work/$label.2.log" || { echo "FAIL: $label: no MPI line" >&2; fail=1; }
  for f in output.h5 output.r1.h5 output.xdmf history.csv checkpoint.h5 steps/000000.r1.h5; do
    [ -f "$work/$label.2/$f" ] || { echo "FAIL: $label on 2 ranks: no $f" >&2; fail=1; }
  done
  $check --pieces "$work/$label.1" "$work/$label.2" 2 "$TOL" ||
    { echo "FAIL: $label: the 2 pieces are not the one-rank output" >&2; fail=1; }
}

pieces q27 "$src/examples/q27_pressure.yaml" --steps 20 --set output.every=5 \
  --set solver.linear_solver=dist-gmres
pieces rigid_crank "$src/examples/rigid_crank_flexible_rod.yaml" --steps 40 \
  --set solver.linear_solver=dist-cg
pieces contact "$src/examples/contact_drop.yaml" --steps 150 --set output.every=50 \
  --set "bodies.0.mesh.origin=[0,0,0.0005]" --set "bodies.0.velocity=[0.5,0,0]" \
  --set solver.linear_solver=dist-cg

# The check fails on a piece whose velocities are off by 1e-3 of their
# largest value.
if [ -d "$work/q27.2" ]; then
  cp -r "$work/q27.2" "$work/altered"
  $py - "$work/altered/steps/000002.r1.h5" <<'PY'
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "r+") as f:
    v = f["body0/velocity"]
    a = np.asarray(v)
    a[0, 0] += 1e-3 * np.max(np.abs(a))
    v[...] = a
PY
  if $check --pieces "$work/q27.1" "$work/altered" 2 "$TOL" > /dev/null 2>&1; then
    echo "FAIL: check_output.py --pieces passed an altered piece" >&2
    fail=1
  fi
fi

# ParaView itself (pvbatch, both of its XDMF readers) opens each 2-rank
# output as the one-rank run (tools/paraview_check.py: a block per piece,
# the same cells and time steps, values to TOL) and fails on the altered
# piece. Where ParaView's Python is missing this part is skipped with a
# note, unless TLFEA_REQUIRE_PARAVIEW=1 (CI installs ParaView and sets it).
if command -v pvbatch > /dev/null &&
  timeout 120 pvbatch -c "import paraview.simple" > /dev/null 2>&1; then
  pv="timeout 600 pvbatch $src/tools/paraview_check.py"
  for label in q27 rigid_crank contact; do
    [ -d "$work/$label.2" ] || continue
    $pv "$work/$label.1" "$work/$label.2" 2 "$TOL" > "$work/pv_$label.log" 2>&1 ||
      { echo "FAIL: ParaView does not open $label's 2 pieces as the one-rank run:" >&2
        cat "$work/pv_$label.log" >&2; fail=1; }
    cat "$work/pv_$label.log"
  done
  # The altered piece must be found different (exit 1), not fail otherwise
  # (2: no ParaView modules, 124: time limit, a crash).
  if [ -d "$work/altered" ]; then
    $pv "$work/q27.1" "$work/altered" 2 "$TOL" > "$work/pv_altered.log" 2>&1
    rc=$?
    [ $rc = 1 ] && grep -q "differs by" "$work/pv_altered.log" ||
      { echo "FAIL: paraview_check.py on an altered piece: exit $rc, not the difference" >&2
        cat "$work/pv_altered.log" >&2; fail=1; }
  fi
elif [ "${TLFEA_REQUIRE_PARAVIEW:-0}" = 1 ]; then
  echo "FAIL: TLFEA_REQUIRE_PARAVIEW=1 but pvbatch cannot import paraview.simple" >&2
  fail=1
else
  echo "note: no ParaView (pvbatch with paraview.simple): ParaView check skipped" >&2
fi

# Restart 2 -> 2 ranks: the checkpoint of step 10 continued to step 20 in a
# copy of the first half's folder ends with the same files as the
# uninterrupted run (Kokkos Serial, same partition: bit-identical; every
# dataset but the wall-clock column history/step_wall_time).
q=("$src/examples/q27_pressure.yaml" --set output.every=5 --set solver.linear_solver=dist-gmres)
if run 2 half "${q[@]}" --steps 10; then
  cp "$work/half.2/checkpoint.h5" "$work/ck10.h5"
  cp -r "$work/half.2" "$work/restart.2"
  if run 2 restart "${q[@]}" --steps 20 --restart "$work/ck10.h5"; then
    $py - "$work/q27.2" "$work/restart.2" <<'PY' || fail=1
import os
import sys
import h5py
import numpy as np
a, b = sys.argv[1], sys.argv[2]
names = ["output.h5", "output.r1.h5"] + [f"steps/{i:06d}{s}.h5" for i in range(5) for s in ("", ".r1")]
bad = []
for n in names:
    with h5py.File(os.path.join(a, n), "r") as fa, h5py.File(os.path.join(b, n), "r") as fb:
        def visit(name, obj):
            # Wall-clock seconds differ from run to run.
            if isinstance(obj, h5py.Dataset) and name != "history/step_wall_time":
                if name not in fb or not np.array_equal(np.asarray(obj), np.asarray(fb[name])):
                    bad.append(f"{n}:{name}")
        fa.visititems(visit)
extra = sorted(set(os.listdir(os.path.join(b, "steps"))) - set(os.listdir(os.path.join(a, "steps"))))
if extra:
    bad.append(f"extra step files {extra}")
if open(os.path.join(a, "output.xdmf")).read() != open(os.path.join(b, "output.xdmf")).read():
    bad.append("output.xdmf differs")
for m in bad:
    print(f"FAIL: restart 2 -> 2 ranks: {m} differs from the uninterrupted run", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
  fi
  # Restart 2 -> 1 rank: another rank count; history.csv keeps its rows
  # 0-10, the fields start anew with step 10 (no piece files left).
  cp -r "$work/half.2" "$work/restart.1"
  if run 1 restart "${q[@]}" --steps 20 --restart "$work/ck10.h5"; then
    d="$work/restart.1"
    [ -e "$d/output.r1.h5" ] || [ -e "$d/steps/000000.r1.h5" ] &&
      { echo "FAIL: restart 2 -> 1 rank left piece files" >&2; fail=1; }
    [ "$(ls "$d/steps" | tr '\n' ' ')" = "000000.h5 000001.h5 000002.h5 " ] ||
      { echo "FAIL: restart 2 -> 1 rank: steps/ holds $(ls "$d/steps" | tr '\n' ' ')" >&2; fail=1; }
    [ "$(cut -d, -f1 "$d/history.csv" | tr '\n' ' ')" = "step $(seq -s ' ' 0 20) " ] ||
      { echo "FAIL: restart 2 -> 1 rank: history.csv steps $(cut -d, -f1 "$d/history.csv" | tr '\n' ' ')" >&2; fail=1; }
    $py -c "import h5py,sys; f=h5py.File(sys.argv[1]); sys.exit(0 if int(f['step'][()]) == 10 else 1)" \
      "$d/steps/000000.h5" || { echo "FAIL: restart 2 -> 1 rank: step file 0 is not step 10" >&2; fail=1; }
  fi
fi
# SIGKILL of both ranks mid-run: every file the index names exists, with its
# dimensions, and history.csv has a row per indexed step (check_output.py
# --killed): rank 0 indexes a step only once every piece's file is in place.
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  mpirun -np 2 "$tlfea" run "$src/examples/contact_drop.yaml" --steps 2000 --set output.every=5 \
  --set solver.linear_solver=dist-cg --output "$work/killed" > /dev/null 2>&1 &
mp=$!
sleep 6
ranks_pids=$(pgrep -P $mp)
kill -KILL $ranks_pids $mp 2> /dev/null
wait $mp 2> /dev/null
if [ -e "$work/killed/steps/000001.r1.h5" ]; then
  $check --killed "$work/killed" || { echo "FAIL: a killed 2-rank run left unreadable output" >&2; fail=1; }
else
  echo "FAIL: the 2-rank run to be killed wrote no second step in 6 s" >&2
  fail=1
fi
exit $fail
