// Host synchronisations (tlfea/core/host_sync.hpp; docs/guide/gpu.md, "Host
// synchronisations"): the counter itself, and the bound on a Newton
// iteration of the implicit step. The count comes from Kokkos Tools
// callbacks and tlfea::fence, so it is the same in every build and the
// bound holds without a GPU: a reduction into a host value or a copy that
// waits for the device, added anywhere in the step, raises it.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>

#include "tlfea/core/generators.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/host_sync.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/scene/scene.hpp"

namespace tlfea {
namespace {

using Range = Kokkos::RangePolicy<ExecSpace>;

struct SumOf {
  DeviceView<Real*> x;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Real& s) const { s += x(i); }
};

std::string events() {
  std::ostringstream os;
  for (const std::string& e : sync_events()) os << "  " << e << "\n";
  return os.str();
}

// What waits for the device is counted, what is queued behind the kernels
// is not (host_sync.hpp's list).
TEST(HostSync, CountsWhatWaitsForTheDevice) {
  DeviceView<Real*> a("a", 100), b("b", 100), r("r", 1);
  start_sync_counting();
  fill(a, 1.0);
  device_copy(b, a);
  reduce_on_device("tlfea::test::sum_on_device", Range(0, 100), SumOf{b}, Kokkos::subview(r, 0));
  const HostSyncCounts queued = sync_counts_total();
  Real s = 0.0;
  Kokkos::parallel_reduce("tlfea::test::sum_to_host", Range(0, 100), SumOf{b}, s);
  const auto h = to_host(r);
  fence("tlfea::test::fence");
  const HostSyncCounts c = sync_counts_total();
  const SyncPhase phases[] = {SyncPhase::newton, SyncPhase::factorize, SyncPhase::solve};
  long long others = 0;
  for (SyncPhase p : phases) others += sync_counts(p).total();
  stop_sync_counting();
  EXPECT_EQ(queued.total(), 0) << events();
  EXPECT_EQ(c.reductions, 1) << events();
  EXPECT_EQ(c.copies, 1) << events();
  EXPECT_EQ(c.fences, 1) << events();
  EXPECT_EQ(sync_counts(SyncPhase::step).total(), 3);  // no SyncPhaseScope open: step
  EXPECT_EQ(others, 0);
  // 100 ones summed, on the device and on the host alike.
  EXPECT_EQ(s, 100.0);
  EXPECT_EQ(h(0), 100.0);
  // Stopped: nothing more is counted.
  Kokkos::parallel_reduce("tlfea::test::sum_to_host", Range(0, 100), SumOf{b}, s);
  EXPECT_EQ(sync_counts_total().total(), 3);
  EXPECT_FALSE(sync_counting());
}

struct Counted {
  long long iterations = 0, factorizations = 0, solves = 0, krylov_iterations = 0;
  long long checked_solves = 0;  // kk-cg: solves that read more than once
  HostSyncCounts step, newton, factorize, solve;
  std::string backend, events;
};

// One step first (outside the count: it builds what the later ones reuse),
// then `steps` counted ones. krylov_iterations = 0: a stalled iteration on
// kept factors refactors at once instead of first trying the GMRES
// correction (stale_krylov.cpp), whose own iterations each read a residual
// and orthogonalise on the host.
Counted count_steps(Model& model, StepperSettings s, int steps) {
  s.krylov_iterations = 0;
  TimeStepper stepper(model, s);
  stepper.step();
  const SolverStats before = stepper.linear_stats();
  Counted c;
  start_sync_counting();
  for (int i = 0; i < steps; ++i) {
    const StepReport rep = stepper.step();
    c.iterations += rep.newton_iterations;
    c.factorizations += rep.factorizations;
  }
  c.step = sync_counts(SyncPhase::step);
  c.newton = sync_counts(SyncPhase::newton);
  c.factorize = sync_counts(SyncPhase::factorize);
  c.solve = sync_counts(SyncPhase::solve);
  c.events = events();
  stop_sync_counting();
  const SolverStats after = stepper.linear_stats();
  c.solves = after.solves - before.solves;
  c.krylov_iterations = after.total_iterations - before.total_iterations;
  c.checked_solves = after.checked_solves - before.checked_solves;
  c.backend = stepper.linear_solver_name();
  return c;
}

// A cantilever (T10 box clamped at x = 0) sagging under gravity: dynamic
// steps of 1 ms, or static load increments.
Counted count_cantilever(const std::string& backend, Analysis analysis, int steps) {
  Model model;
  const Mesh mesh = generate_box(ElementType::T10, {1.0, 0.2, 0.2}, {4, 1, 1});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.clamp_node_set(body, "xmin");
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  StepperSettings s;
  s.analysis = analysis;
  s.dt = analysis == Analysis::static_equilibrium ? 0.25 : 1e-3;
  s.linear.backend = backend;
  return count_steps(model, s, steps);
}

std::string summary(const Counted& c) {
  std::ostringstream os;
  os << c.backend << ": " << c.iterations << " Newton iterations, " << c.factorizations
     << " factorizations, " << c.solves << " solves (" << c.krylov_iterations
     << " Krylov iterations); host synchronisations: step " << c.step.total() << ", newton "
     << c.newton.total() << ", factorize " << c.factorize.total() << ", solve " << c.solve.total()
     << "\n";
  return os.str();
}
std::string describe(const Counted& c) { return summary(c) + c.events; }

// The stepper's own synchronisations in a Newton iteration: one, the read
// of the trial residual's reduction (|g|, the force level, the update
// norms, the slope of the static line search and the check of the linear
// solution ride along). Here every iteration takes the full Newton step
// (one trial; this sag converges quadratically), so the count is one per
// iteration; a line search that backtracks adds one per further trial.
void expect_one_per_iteration(const Counted& c) {
  ASSERT_GT(c.iterations, 0) << describe(c);
  EXPECT_EQ(c.newton.total(), c.iterations) << describe(c);
}

// A step's own synchronisations outside its iterations: one, the first
// residual's read (each step here converges in one outer iteration).
void expect_one_per_step(const Counted& c, int steps) {
  EXPECT_EQ(c.step.total(), steps) << describe(c);
}

// The linear solver's, per factorization and per solve, as docs/guide/gpu.md
// lists them for each backend:
// - cudss, tacho (their matrix and vectors stay on the device): at most one
//   per factorization (cuDSS reads its pivot report; Tacho clears a
//   workspace with a fencing Kokkos::deep_copy inside its factorization),
//   none per solve (the solution is checked by the stepper's residual
//   reduction);
// - eigen-ldlt, eigen-lu (host solvers): the matrix's copy to the host per
//   factorization, the right-hand side's to the host and the solution's back
//   per solve, all three inherent in factoring on the host, and none
//   besides.
struct SolverBound {
  long long per_factorization, per_solve;
};
SolverBound direct_bound(const std::string& backend) {
  if (backend == "cudss" || backend == "tacho") return {1, 0};
  if (backend == "eigen-ldlt" || backend == "eigen-lu") return {1, 2};
  ADD_FAILURE() << "no documented bound for backend " << backend;
  return {0, 0};
}

TEST(HostSync, NewtonIterationDefaultDirectSolver) {
  for (Analysis a : {Analysis::dynamic, Analysis::static_equilibrium}) {
    const Counted c = count_cantilever("default", a, 4);
    std::cout << summary(c);
    expect_one_per_iteration(c);
    expect_one_per_step(c, 4);
    const SolverBound b = direct_bound(c.backend);
    EXPECT_LE(c.factorize.total(), b.per_factorization * c.factorizations) << describe(c);
    EXPECT_LE(c.solve.total(), b.per_solve * c.solves) << describe(c);
    EXPECT_EQ(c.solves, c.iterations) << describe(c);
    // A device-resident direct solver: at most two per Newton iteration in
    // all (the residual's read, and cuDSS's pivot report or Tacho's
    // workspace clear in an iteration that refactors).
    if (b.per_solve == 0)
      EXPECT_LE(c.newton.total() + c.factorize.total() + c.solve.total(), 2 * c.iterations)
          << describe(c);
  }
}

// Rigid bodies, joints and a driver (examples/rigid_crank_flexible_rod.yaml):
// the kept factors' staleness test of the rigid bodies rides on the
// residual's read too, so the iteration's count stays one. Per step: the
// first residual, the driver's values sent to the device, and the
// constraint violation of each outer iteration.
TEST(HostSync, NewtonIterationRigidBodiesAndJoints) {
  scene::Scene sc = scene::load_scene(std::string(TLFEA_TEST_DATA_DIR) +
                                      "/../../examples/rigid_crank_flexible_rod.yaml");
  const Counted c = count_steps(*sc.model, sc.settings, 4);
  std::cout << summary(c);
  expect_one_per_iteration(c);
  const SolverBound b = direct_bound(c.backend);
  EXPECT_LE(c.factorize.total(), b.per_factorization * c.factorizations) << describe(c);
  EXPECT_LE(c.solve.total(), b.per_solve * c.solves) << describe(c);
  ASSERT_GT(sc.model->constraints().num_rows(), 0);
}

// kk-cg: the Newton iteration's own count as above. Its preconditioner
// setup (factorize) keeps its checks on the device: none there. A solve
// queues a budget of CG iterations predicted from the solver's earlier
// solves and reads CG's state, the true residual's norms and factorize's
// checks in one copy at its end (linear_solver_krylov.cpp, KrylovSolver::cg
// and cg_budget). So a Newton iteration whose budget covered CG's stop
// costs two, the residual's read and the solve's, and the run costs
// exactly two per iteration where every budget did. A solve whose budget
// ran out before the stop (SolverStats::checked_solves) goes on with the
// checks of a CG round (CheckSchedule: at most 1 + 4 + 4 + 1 + N / 16 for
// N iterations) and reads the true residual again, so
//   newton + factorize + solve <= 2 iterations + 11 checked solves
//                                  + krylov_iterations / 16.
// A budget runs out where a step's matrix needs more iterations than the
// earlier steps' did to the same target; the budgets come from all the
// solver's last 16 solves, so at most one solve per step is allowed here
// (measured: 0 of 20 dynamic, 1 of 13 static). The loop that checked in
// every solve (1 + 10 + N / 16 reads, and 2 per factorization) counted 137
// and 133 here for 20 and 13 iterations and fails both bounds.
TEST(HostSync, NewtonIterationKokkosKernelsCG) {
  for (Analysis a : {Analysis::dynamic, Analysis::static_equilibrium}) {
    const Counted c = count_cantilever("kk-cg", a, 4);
    std::cout << summary(c) << "  solves that checked on: " << c.checked_solves << "\n";
    expect_one_per_iteration(c);
    expect_one_per_step(c, 4);
    EXPECT_EQ(c.solves, c.iterations) << describe(c);
    EXPECT_EQ(c.factorize.total(), 0) << describe(c);
    ASSERT_GT(c.krylov_iterations, 0) << describe(c);
    const long long per_iteration = c.newton.total() + c.factorize.total() + c.solve.total();
    EXPECT_LE(c.checked_solves, 4) << describe(c);
    EXPECT_LE(per_iteration, 2 * c.iterations + 11 * c.checked_solves + c.krylov_iterations / 16)
        << describe(c);
    if (c.checked_solves == 0) EXPECT_EQ(per_iteration, 2 * c.iterations) << describe(c);
  }
}

}  // namespace
}  // namespace tlfea
