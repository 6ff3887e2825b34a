#!/usr/bin/env bash
# Scenes on several MPI ranks against the one-rank run
# (docs/guide/mpi.md): `tlfea run` on 1, 2 and 3 ranks, every run with the
# dist-cg backend, and history.csv compared column by column (every column
# but step_wall_time; the per-body columns too):
#   contact   examples/contact_drop.yaml, the block lowered so that it lands
#             within the run (frictional contact with the ground plane);
#   rigid     examples/rigid_crank_flexible_rod.yaml (two rigid bodies, a
#             driven revolute joint, joints between rigid and flexible
#             bodies) and examples/double_pendulum.yaml (a spherical joint
#             between two flexible links, rows across the element split);
#             examples/rigid_ball_net.yaml (a rigid ball landing in a
#             flexible net: contact between a rigid and a deformable body);
#             rigid_crank_flexible_rod also with the muelu preconditioner,
#             on 1, 2, 3 ranks and against the 1-rank ILU run;
#   static    examples/static_elastica.yaml (load increments, penalty rho
#             from the assembled stiffness);
#   follower  examples/q27_pressure.yaml (a follower pressure) and
#             rigid_crank_flexible_rod.yaml with a torque on the rigid crank
#             (load stiffness terms; dist-gmres);
#   settle    examples/block_on_slope_settled.yaml (time.settle: pseudo-time
#             steps before t = 0 with kinetic damping, then at rest on
#             its frictional contacts);
#   restart   the default scene (contact and a joint) to step 120 on 2 ranks,
#             its checkpoint restarted to step 160 on 2 ranks (bit-identical
#             to the uninterrupted 2-rank run: same partition, Kokkos Serial)
#             and on 1 and 3 ranks (within TOL of it).
# TOL (relative to the largest magnitude over the run of the columns of its
# kind: every body's centre of mass, momentum, angular momentum, or every
# energy column): the runs differ only through their linear solves (the
# block-Jacobi ILU preconditioner and muelu's aggregates change with the
# rank count, so the Krylov iterates differ) and the order of the sums of f_int over ranks (round-off).
# Each CG solve meets the relative residual 1e-10 (solver.linear_tolerance),
# so a Newton correction is off by at most cond(J) * 1e-10 relative, with
# cond(J) <= 1e2 for the mass-dominated J = M/h + h K; Newton removes the
# error of all but its last correction, which is far below its stopping
# test, so each step's state agrees to 1e-8 relative (mpi_beam_test.sh).
# Where the runs stop Newton at different iterates (a Jacobian-reuse or
# stopping decision taken at round-off-different residuals), a step's states
# agree only to the Newton test, |g| <= 1e-8 F (solver.residual_force_tol,
# F the step's force scale: at an impact, the contact impulse), i.e. again
# ~1e-8 of the scale. TOL = 1e-6 leaves a factor 100 for such per-step
# differences to add up over the <= 300 steps run here (the contact laws are
# Lipschitz in the state away from the switching of a contact point, which a
# 1e-8 difference does not cross here). Measured: 1e-15 to 6.6e-9.
# constraint_violation is round-off below the constraint
# tolerance 1e-8 and is compared absolutely against it; iteration counts
# are printed, not compared (a Newton test near its threshold may take one
# more iteration on one rank count).
#   mpi_scenes_test.sh TLFEA SOURCE_DIR
# Exit 77 (skipped) where mpirun cannot start processes.
set -u
tlfea=$1 src=$2
TOL=${TOL:-1e-6}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/mpi_common.sh"  # mpi N CMD..., and the probe
if ! "$tlfea" info | grep -q "HDF5"; then
  echo "note: no TLFEA::io (no history.csv): multi-rank scene checks skipped" >&2
  exit 77
fi
fail=0
. "$(dirname "$0")/mpi_history.sh"  # compare, run, scene

# 1. Contact: the block, lowered to 0.5 mm above the ground and sliding at
# 0.5 m/s, lands after ~10 ms (100 steps) and slides on with friction.
scene contact "$src/examples/contact_drop.yaml" --steps 300 --set output.every=100 \
  --set "bodies.0.mesh.origin=[0,0,0.0005]" --set "bodies.0.velocity=[0.5,0,0]"
# 2. Rigid bodies and joints across bodies.
scene rigid_crank "$src/examples/rigid_crank_flexible_rod.yaml" --steps 40
# The same with muelu (multigrid on the rigid-body modes: ANCF gradients and
# rigid-body directors rotate without translating; on one rank the 84 rows
# go to KLU2 whole, on several the Gauss-Seidel sweep alone preconditions
# them: muelu_preconditioner.cpp), and against the ILU run.
scene rigid_crank_muelu "$src/examples/rigid_crank_flexible_rod.yaml" --steps 40 \
  --set solver.preconditioner=muelu
compare "$work/rigid_crank.1" "$work/rigid_crank_muelu.1" "rigid_crank, muelu vs ilu on 1 rank"
scene double_pendulum "$src/examples/double_pendulum.yaml" --steps 40
# The elbow joint's two sides on one rank (distribution.cpp, align_parts):
# on 2 ranks each link's 4 elements split 2 / 2 and the labels of link2's
# halves follow link1's tip, so none of the joint's 128 couplings between
# the links' coefficients (two 8 x 8 coefficient blocks) crosses ranks;
# METIS's own labels left all 128 across (30.4 against 38.2 CG iterations
# per solve over 200 steps).
grep -q "; 0 of 128 joint couplings between bodies across ranks)" "$work/double_pendulum.2.log" ||
  { echo "FAIL: double_pendulum on 2 ranks: the elbow joint crosses ranks: $(grep "^MPI" "$work/double_pendulum.2.log")" >&2; fail=1; }
# A rigid ball landing in a flexible net (contact between a rigid and a
# deformable body, from step ~20); 3 ranks oversubscribe the 2 cores (each
# of its many CG collectives waits for a time slice: the slowest run here).
scene rigid_ball_net "$src/examples/rigid_ball_net.yaml" --steps 60
# 3. Static analysis (all 8 load increments).
scene static "$src/examples/static_elastica.yaml"
# Follower loads, whose load stiffness is a replicated term of the Newton
# matrix written into each rank's rows only (Model::row_layout): a follower
# pressure on a Q27 block's top face whose elements the ranks split, and a
# torque on a rigid body (rank 0's rows); both unsymmetric: dist-gmres.
solver=dist-gmres scene pressure "$src/examples/q27_pressure.yaml" --steps 60
solver=dist-gmres scene rigid_torque "$src/examples/rigid_crank_flexible_rod.yaml" --steps 40 \
  --set "bodies.0.loads=[{type: torque, torque: [0, 0, 0.05]}]"
# Settled before t = 0 (TimeStepper::settle: the resets of the kinetic
# damping are decided from the replicated state alike on every rank). The
# whole 0.3 s settle: the settled block is then stationary (momenta exactly
# 0), where a shorter one leaves a 1e-10 kg m/s oscillation whose relative
# differences between rank counts are the linear solves' noise.
scene settle "$src/examples/block_on_slope_settled.yaml" --steps 100 --set output.every=20
grep -q "^settle: 3000 steps" "$work/settle.2.log" ||
  { echo "FAIL: settle on 2 ranks: no settle report: $(tail -3 "$work/settle.2.log")" >&2; fail=1; }
# 4. Restart: N -> N bit-identical, N -> M within TOL.
# The default scene's block lowered to 0.5 mm: it lands at step ~100, so the
# checkpoint of step 120 holds contact history (sliding, 0.5 m/s).
low="bodies.1.mesh.origin=[0,-0.05,0.0005]"
if run 2 full --steps 160 --set "$low" && run 2 half --steps 120 --set "$low"; then
  cp "$work/half.2/checkpoint.h5" "$work/ck120.h5"
  for n in 1 2 3; do
    # Into a copy of the first half's folder: its history continues there
    # (rows 0-120 kept, 121-160 appended), comparable row by row.
    cp -r "$work/half.2" "$work/restart.$n"
    run "$n" restart --steps 160 --set "$low" --restart "$work/ck120.h5" || continue
    grep -q "done: 40 steps" "$work/restart.$n.log" ||
      { echo "FAIL: restart on $n ranks did not continue at step 120" >&2; fail=1; }
  done
  compare "$work/full.2" "$work/restart.2" "restart 2 -> 2 ranks" exact
  compare "$work/full.2" "$work/restart.1" "restart 2 -> 1 rank"
  compare "$work/full.2" "$work/restart.3" "restart 2 -> 3 ranks"
fi
# A checkpoint that cannot be read stops every rank alike: exit 2, one
# message (from rank 0), nothing written.
mpi 2 "$tlfea" run --restart "$work/no_such.h5" --output "$work/no_ck" > /dev/null 2> "$work/no_ck.log"
[ $? -eq 2 ] || { echo "FAIL: a missing checkpoint on 2 ranks: exit status not 2" >&2; fail=1; }
[ "$(grep -c "^tlfea: --restart: .*no file" "$work/no_ck.log")" -eq 1 ] ||
  { echo "FAIL: a missing checkpoint on 2 ranks: not one message: $(cat "$work/no_ck.log")" >&2; fail=1; }
[ -e "$work/no_ck" ] && { echo "FAIL: a missing checkpoint on 2 ranks wrote output" >&2; fail=1; }
exit $fail
