#!/usr/bin/env bash
# Command-line tests of tlfea (registered by scene_tests.cmake):
#   cli_test.sh CASE TLFEA SOURCE_DIR WORK_DIR
# bad_exit_status: every bad scene exits 2 with one FILE:LINE:COLUMN: line and
#   leaves the output directory untouched (absent stays absent, an existing one
#   keeps exactly its contents);
# default_scene: `tlfea run --steps 3`, `tlfea check`, `tlfea info`;
# examples: every examples/*.yaml runs 3 steps;
# restart: a run restarted from a checkpoint ends like the uninterrupted one;
# sigint: SIGINT to a running `tlfea run` stops it after the current step
#   (exit 130), with the output and a checkpoint written.
set -u
case_name=$1 tlfea=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
has_io() { "$tlfea" info | grep -q "HDF5"; }

case "$case_name" in
bad_exit_status)
  mkdir -p "$work/existing" && echo keep > "$work/existing/marker"
  for f in "$src"/tests/scene/data/bad_*.yaml; do
    for cmd in check run; do
      out="$work/out_$(basename "$f" .yaml)"
      "$tlfea" $cmd "$f" --output "$out" 2> "$work/err" > /dev/null
      rc=$?
      [ $rc -eq 2 ] || fail "$cmd $f: exit status $rc, expected 2"
      [ "$(wc -l < "$work/err")" -eq 1 ] || fail "$cmd $f: expected one message line, got: $(cat "$work/err")"
      grep -Eq "^$f:[0-9]+:[0-9]+: " "$work/err" || fail "$cmd $f: no FILE:LINE:COLUMN: in: $(cat "$work/err")"
      # Control bytes from the input are escaped (\xHH), none reaches the terminal.
      LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$work/err" && fail "$cmd $f: raw control byte in: $(cat -v "$work/err")"
      [ -e "$out" ] && fail "$cmd $f: created $out"
    done
  done
  # An existing output directory keeps exactly its contents.
  for f in "$src"/tests/scene/data/bad_dt.yaml "$src"/tests/scene/data/bad_joint_point.yaml; do
    "$tlfea" run "$f" --output "$work/existing" 2> /dev/null
    [ $? -eq 2 ] || fail "run $f into an existing directory: exit status not 2"
    [ "$(ls -A "$work/existing")" = "marker" ] || fail "run $f touched $work/existing"
  done
  # A bad override and a bad option are bad input too.
  "$tlfea" run --set time.dt=-1 --output "$work/out_set" 2> /dev/null
  [ $? -eq 2 ] || fail "--set time.dt=-1: exit status not 2"
  [ -e "$work/out_set" ] && fail "--set time.dt=-1 created output"
  "$tlfea" run --stepz 3 2> /dev/null
  [ $? -eq 2 ] || fail "unknown option: exit status not 2"
  ;;
default_scene)
  "$tlfea" info > "$work/info" || fail "tlfea info"
  grep -q "linear solvers:" "$work/info" || fail "info lists no linear solvers"
  grep -q "kk-cg" "$work/info" || fail "info does not list the Kokkos Kernels solvers"
  # BLAS threads: one by default (no oversubscription), the user's count when
  # given, a clear error for a malformed count.
  if grep -q "BLAS: OpenBLAS" "$work/info"; then
    env -u OPENBLAS_NUM_THREADS -u TLFEA_BLAS_THREADS "$tlfea" info | grep -q "BLAS: OpenBLAS, 1 thread (TLFEA default" ||
      fail "BLAS not limited to one thread by default: $(grep BLAS "$work/info")"
    TLFEA_BLAS_THREADS=2 "$tlfea" info | grep -q "BLAS: OpenBLAS, 2 threads (TLFEA_BLAS_THREADS)" ||
      fail "TLFEA_BLAS_THREADS=2 not applied"
  else
    grep -q "BLAS: no threaded BLAS linked" "$work/info" || fail "info has no BLAS line"
  fi
  TLFEA_BLAS_THREADS=two "$tlfea" info > /dev/null 2> "$work/blas_err"
  [ $? -eq 2 ] || fail "TLFEA_BLAS_THREADS=two: exit status not 2"
  grep -q "TLFEA_BLAS_THREADS='two' is not a thread count" "$work/blas_err" || fail "no message for TLFEA_BLAS_THREADS=two"
  # The printed scene is the shipped file byte for byte, also where the
  # OpenMP runtime would warn (OMP_PROC_BIND unset; Kokkos warns on stdout).
  env -u OMP_PROC_BIND "$tlfea" run --print-default > "$work/default.yaml" || fail "--print-default"
  cmp -s "$work/default.yaml" "$src/apps/default_scene.yaml" || fail "--print-default differs from apps/default_scene.yaml"
  "$tlfea" check "$work/default.yaml" > "$work/check" || fail "check of the default scene"
  grep -q "ANCF3243" "$work/check" && grep -q "Q27" "$work/check" || fail "default scene: not two element types"
  grep -Eq "constraints: [1-9]" "$work/check" || fail "default scene: no joint"
  grep -q "surface triangles" "$work/check" || fail "default scene: no contact"
  "$tlfea" run --steps 3 --output "$work/out" 2> "$work/err" || fail "run --steps 3: $(cat "$work/err")"
  grep -q "done: 3 steps" "$work/err" || fail "no summary: $(cat "$work/err")"
  if has_io; then [ -s "$work/out/output.xdmf" ] || fail "no output.xdmf"; fi
  ;;
examples)
  n=0
  for f in "$src"/examples/*.yaml; do
    name=$(basename "$f" .yaml)
    "$tlfea" run "$f" --steps 3 --output "$work/$name" 2> "$work/$name.err" ||
      fail "example $name: $(tail -5 "$work/$name.err")"
    grep -q "done: 3 steps" "$work/$name.err" || fail "example $name: no summary"
    n=$((n + 1))
  done
  [ $n -ge 8 ] || fail "only $n examples"
  ;;
sigint)
  "$tlfea" run --steps 1000000 --output "$work/out" 2> "$work/err" &
  pid=$!
  # Wait until it is stepping (the summary is printed once the scene is built).
  for i in $(seq 1 300); do
    grep -q "^output:\|^time:" "$work/err" 2> /dev/null && break
    sleep 0.1
  done
  sleep 2
  kill -INT $pid
  wait $pid
  rc=$?
  [ $rc -eq 130 ] || fail "exit status $rc after SIGINT, expected 130: $(tail -3 "$work/err")"
  grep -q "stopped by Ctrl-C" "$work/err" || fail "no stop summary: $(tail -3 "$work/err")"
  if has_io; then
    [ -s "$work/out/output.xdmf" ] || fail "no output.xdmf after SIGINT"
    [ -s "$work/out/checkpoint.h5" ] || fail "no checkpoint after SIGINT"
  fi
  ;;
restart)
  # 20 steps in one run vs 10 + a restart from the checkpoint to 20: the last
  # history line (time, energies, violation, iterations; not the wall time)
  # must be identical to the last digit (Serial: bit-identical restart).
  has_io || { echo "ok: restart (skipped: no TLFEA::io)"; exit 0; }
  "$tlfea" run --steps 20 --output "$work/a" 2> /dev/null || fail "uninterrupted run"
  "$tlfea" run --steps 10 --output "$work/b" 2> /dev/null || fail "first half"
  "$tlfea" run --steps 20 --restart "$work/b/checkpoint.h5" --output "$work/c" 2> "$work/err" ||
    fail "restarted run: $(tail -3 "$work/err")"
  grep -q "done: 10 steps" "$work/err" || fail "restart did not continue at step 10"
  a=$(tail -1 "$work/a/history.csv" | cut -d, -f1-11)
  c=$(tail -1 "$work/c/history.csv" | cut -d, -f1-11)
  if "$tlfea" info | grep -q "Serial backend"; then
    [ "$a" = "$c" ] || fail "restart differs (Serial: must be bit-identical): $a vs $c"
  else
    # Threaded backends: the atomic scatter orders sums differently in the
    # two processes, and Newton's Jacobian-reuse test (a ratio of residuals)
    # can then refactor at a different step, so iteration counts and the
    # constraint violation (round-off at the 1e-8 tolerance) may differ. The
    # state agrees to the Newton tolerance: step and time equal, energies
    # (columns 3-6) within 1e-7 relative.
    awk -F, -v a="$a" -v c="$c" 'BEGIN { split(a, x, ","); split(c, y, ",");
      if (x[1] != y[1] || x[2] != y[2]) exit 1;
      for (i = 3; i <= 6; i++) { d = x[i] - y[i]; if (d < 0) d = -d; m = x[i] < 0 ? -x[i] : x[i];
        if (d > 1e-7 * (m > 1e-30 ? m : 1e-30) && d > 1e-300) exit 1 } }' ||
      fail "restart differs: $a vs $c"
  fi
  ;;
*)
  fail "unknown case $case_name"
  ;;
esac
echo "ok: $case_name"
