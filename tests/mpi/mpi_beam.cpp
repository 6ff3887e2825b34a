// A T10 cantilever under gravity stepped by a TimeStepper on however many
// MPI ranks it is started on (tests/mpi/mpi_beam_test.sh runs it on 1, 2 and
// 3 and compares the histories). Rank 0 writes one line per step, the time
// and the z displacement of a probe node, to the file given; every rank
// checks after each step that it holds the same positions, bit for bit, as
// rank 0 (the replicated state of README "Running on several ranks").
//   tlfea_test_mpi_beam CASE SOLVER OUT [PRECONDITIONER]
// CASE "plain": the cantilever, probe at the free end's centre;
//      "joint": a spherical joint holds the free end's centre to the ground
//               (a propped cantilever), probe at mid-span.
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tlfea/constraints/material_point.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/solvers/mpi_session.hpp"
#include "tlfea/solvers/time_stepper.hpp"

namespace {

// The node of `mesh` nearest X.
tlfea::Ordinal nearest(const tlfea::Mesh& mesh, const tlfea::Vec3& X) {
  tlfea::Ordinal best = 0;
  double d_best = 1e300;
  for (tlfea::Ordinal k = 0; k < mesh.num_nodes(); ++k) {
    const auto& p = mesh.node_position(k);
    const double d = std::hypot(p[0] - X[0], p[1] - X[1], p[2] - X[2]);
    if (d < d_best) {
      d_best = d;
      best = k;
    }
  }
  return best;
}

int run(const std::string& which, const std::string& solver, const std::string& pc,
        const std::string& out, int rank) {
  using namespace tlfea;
  const Real L = 1.0, W = 0.1;
  Model model;
  const Mesh mesh = generate_box(ElementType::T10, {L, W, W}, {12, 2, 2});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.clamp_node_set(body, "xmin");
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  const Vec3 tip{{L, W / 2, W / 2}}, mid{{L / 2, W / 2, W / 2}};
  Vec3 probe = tip;
  if (which == "joint") {
    auto q0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
    const Vec3 axis{{0.0, 1.0, 0.0}};
    model.constraints().add_spherical(body_joint_frame(model.block(body), q0, tip, axis, 0.02),
                                      ground_joint_frame(tip, axis, 0.02));
    probe = mid;
  } else if (which != "plain") {
    throw_error("unknown case '", which, "' (plain or joint)");
  }
  const Ordinal node = nearest(mesh, probe);
  StepperSettings s;
  s.dt = 2e-3;
  s.linear.backend = solver;
  s.linear.preconditioner = pc;
  TimeStepper stepper(model, s);
  std::FILE* f = rank == 0 ? std::fopen(out.c_str(), "w") : nullptr;
  if (rank == 0 && !f) throw_error("cannot write ", out);
  int mismatch = 0;
  const int n = static_cast<int>(3 * model.num_coefficients());
  std::vector<Real> mine(n), root(n);
  for (int step = 1; step <= 8; ++step) {
    const StepReport r = stepper.step();
    auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
    for (int i = 0; i < n; ++i) mine[i] = q.data()[i];
    root = mine;
    MPI_Bcast(root.data(), n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < n; ++i)
      if (mine[i] != root[i]) ++mismatch;
    if (f)
      std::fprintf(f, "%d %.17g %.17g %d %d\n", step, static_cast<double>(stepper.time()),
                   static_cast<double>(q(node, 2) - mesh.node_position(node)[2]),
                   r.newton_iterations, r.outer_iterations);
  }
  if (f) std::fclose(f);
  MPI_Allreduce(MPI_IN_PLACE, &mismatch, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (mismatch > 0) {
    if (rank == 0)
      std::fprintf(stderr, "%d position entries differ from rank 0's (summed over steps, ranks)\n",
                   mismatch);
    return 1;
  }
  if (rank == 0)
    std::printf("%s on %s (preconditioner %s, %d iterations in %d solves): %s\n", which.c_str(),
                stepper.linear_stats().backend.c_str(), pc.c_str(),
                stepper.linear_stats().total_iterations, stepper.linear_stats().solves,
                "every rank holds rank 0's positions after every step");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  tlfea::MpiSession mpi(&argc, &argv);
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: tlfea_test_mpi_beam plain|joint SOLVER OUT [PRECONDITIONER]\n");
    return 2;
  }
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    try {
      status = run(argv[1], argv[2], argc == 5 ? argv[4] : "default", argv[3], mpi.world_rank());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rank %d: %s\n", mpi.world_rank(), e.what());
      mpi.abort(1);
    }
  }
  return status;
}
