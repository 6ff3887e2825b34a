// The GMRES correction of a stalled reused Jacobian (StepperSettings::
// krylov_iterations, integrators/src/stale_krylov.cpp) on however many MPI
// ranks it is started on (tests/mpi/mpi_krylov_test.sh runs it on 1, 2 and
// 3 and compares the histories). The model is the B3 plate of
// tests/dynamics/test_stale_krylov.cpp (ANCF 3443, 8 x 8, a/h = 100,
// clamped edge, swinging under gravity), where factors kept from the
// previous step stall Newton once the plate has rotated, so the correction
// runs; the run fails when it never does (a test that cannot pass vacuously).
// Rank 0 writes one line per step to OUT: the step, the time, the z of the
// free corner (1, 1, 0), the GMRES iterations, Newton iterations and
// factorizations of the step. Every rank checks after each step that it
// holds rank 0's positions bit for bit (every rank takes the same Newton and
// GMRES decisions), and that the Krylov vectors are split between the
// ranks, not replicated (check_krylov_bytes), and first that the block
// mass is split by rows (check_mass_split), and that a stepper on several
// ranks never builds the pattern's scalar column indices.
//   tlfea_test_mpi_krylov OUT [STEPS]
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/linalg/mpi_session.hpp"

namespace {

// The bytes of the Krylov correction's vectors summed over the ranks,
// counted from the model's size and the settings alone: with m GMRES
// iterations the correction keeps m + 1 basis vectors v_j, m preconditioned
// vectors z_j and a scratch w, of 3 n doubles each for n coefficients. One
// rank holds them whole plus a copy of g (2 m + 3 vectors). Several ranks
// hold each coefficient of v, z and w on its one owning rank (so 2 m + 2
// vectors over all the ranks, plus the index of the owned coefficients, one
// Ordinal per coefficient over all the ranks) and, on every rank, two whole
// scratch vectors (the right-hand side and solution of a solve). Replicating
// the basis again would make the sum R (2 m + 3) vectors.
long long expected_krylov_bytes(long long n, int m, int ranks) {
  const long long vec = 3 * n * static_cast<long long>(sizeof(tlfea::Real));
  if (ranks == 1) return (2LL * m + 3) * vec;
  return (2LL * m + 2) * vec + 2LL * ranks * vec +
         n * static_cast<long long>(sizeof(tlfea::Ordinal));
}

// The same verdict on every rank; rank 0 prints.
int check_krylov_bytes(const tlfea::TimeStepper& stepper, int m, int ranks, int rank) {
  const long long n = stepper.model().num_coefficients();
  long long mine = static_cast<long long>(stepper.krylov_bytes()), sum = 0, most = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &most, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  const long long expected = expected_krylov_bytes(n, m, ranks);
  const long long whole = expected_krylov_bytes(n, m, 1);
  if (rank == 0)
    std::printf(
        "Krylov vectors: %lld bytes over %d ranks (expected %lld), at most %lld on one rank "
        "(one rank: %lld)\n",
        sum, ranks, expected, most, whole);
  if (sum == expected && (ranks == 1 || most < whole)) return 0;
  if (rank == 0) std::fprintf(stderr, "the Krylov vectors' bytes differ from the expected split\n");
  return 1;
}

// Allocations of the Newton pattern's scalar column indices (the label
// build_entries gives them, core/src/crs_pattern.cpp), counted by a Kokkos
// Tools callback while `counting` is set.
bool counting = false;
int entries_allocated = 0;
Kokkos::Tools::Experimental::EventSet previous_callbacks{};
void on_allocate(const Kokkos::Tools::SpaceHandle space, const char* label, const void* ptr,
                 const uint64_t size) {
  if (counting && std::strcmp(label, "tlfea::core::entries") == 0) ++entries_allocated;
  if (previous_callbacks.allocate_data) previous_callbacks.allocate_data(space, label, ptr, size);
}

// The block mass split by rows (Model::release_mass_rows): while a stepper
// on several ranks lives, each rank holds the block rows it owns, so the
// blocks held sum over the ranks to the pattern's nnz / 9 (each block once)
// and no rank holds all of them; the kinetic energy and body measures of a
// rigid rotation v = omega e_z x x (sums over the ranks' rows) equal the
// whole mass's, taken before the stepper, to 1e-13 (the ranks' parts added
// in another order); the lumped mass is the whole one, bit for bit; and once
// the stepper is gone the model holds the whole mass again, equal to the
// one before (it is assembled again by the same kernels). Same verdict on
// every rank.
int check_mass_split(tlfea::Model& model, const tlfea::StepperSettings& s, int rank, int ranks) {
  using namespace tlfea;
  // The setup (finalize, then a stepper) builds the pattern's scalar column
  // indices only for a solver on one rank: on several ranks the block
  // structure places every value (Model::block_pattern).
  previous_callbacks = Kokkos::Tools::Experimental::get_callbacks();
  Kokkos::Tools::Experimental::set_allocate_data_callback(on_allocate);
  counting = true;
  model.finalize();
  const long long blocks = model.block_pattern().nnz() / 9;
  const Ordinal n = model.num_coefficients();
  auto mass0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.block_mass());
  auto q0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
  CoefView v("v", n);
  auto vh = Kokkos::create_mirror_view(v);
  for (Ordinal k = 0; k < n; ++k) {
    vh(k, 0) = -2.0 * q0(k, 1);
    vh(k, 1) = 2.0 * q0(k, 0);
    vh(k, 2) = 0.0;
  }
  Kokkos::deep_copy(v, vh);
  const Real ke0 = model.kinetic_energy(v);
  const Model::BodyMotion m0 = model.body_motion(0, model.reference(), v);
  auto lumped0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.lumped_mass());
  int bad = 0;
  auto close = [](Real a, Real b) { return std::abs(a - b) <= 1e-13 * std::abs(b); };
  {
    TimeStepper stepper(model, s);
    long long mine = static_cast<long long>(model.block_mass().extent(0)), sum = 0, most = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &most, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
      std::printf("block mass: %lld blocks over %d ranks (pattern: %lld), at most %lld on one\n",
                  sum, ranks, blocks, most);
    if (sum != blocks || (ranks > 1 && most >= blocks)) ++bad;
    counting = false;
    Kokkos::Tools::Experimental::set_allocate_data_callback(previous_callbacks.allocate_data);
    if (rank == 0)
      std::printf("pattern column indices built %d times on rank 0 (expected %d)\n",
                  entries_allocated, ranks == 1 ? 1 : 0);
    if (entries_allocated != (ranks == 1 ? 1 : 0)) ++bad;
    if (!close(model.kinetic_energy(v), ke0)) ++bad;
    const Model::BodyMotion m = model.body_motion(0, model.reference(), v);
    if (!close(m.mass, m0.mass) || !close(m.kinetic_energy, m0.kinetic_energy) ||
        !close(m.angular_momentum[2], m0.angular_momentum[2]))
      ++bad;
    auto lumped = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.lumped_mass());
    for (Ordinal k = 0; k < n; ++k)
      if (lumped(k) != lumped0(k)) ++bad;
    if (ranks > 1) {
      bool threw = false;
      try {
        model.mass_values();
      } catch (const Error&) {
        threw = true;
      }
      if (!threw) ++bad;
    }
  }
  // The stepper's end leaves the whole structure to the first use that
  // needs it (Model::restore_when_needed): block_mass() rebuilds it.
  if (model.restore_pending() != (ranks > 1)) ++bad;
  auto mass1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.block_mass());
  if (model.restore_pending() || model.pattern_entries_released() || model.mass_rows_released())
    ++bad;
  if (mass1.extent(0) != mass0.extent(0)) {
    ++bad;
  } else {
    for (size_t i = 0; i < mass0.extent(0); ++i)
      if (!(std::abs(mass1(i) - mass0(i)) <= 1e-14 * std::abs(mass0(i)))) ++bad;
  }
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (bad > 0 && rank == 0)
    std::fprintf(stderr, "the block mass split by rows failed %d checks\n", bad);
  return bad > 0 ? 1 : 0;
}

int run(const std::string& out, int steps, int rank, int ranks) {
  using namespace tlfea;
  const Mesh mesh = generate_plate_ancf3443(1.0, 1.0, 0.01, {8, 8});
  Model model;
  const int body = model.add_body(mesh, MaterialSpec::svk(7e8, 0.33), 2700.0);
  model.clamp_node_set(body, "xmin");
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  Ordinal corner = -1;
  for (Ordinal k = 0; k < mesh.num_coefficients(); ++k) {
    const auto& x = mesh.coefficients[k];
    if (std::abs(x[0] - 1.0) < 1e-12 && std::abs(x[1] - 1.0) < 1e-12 && x[2] == 0.0) corner = k;
  }
  if (corner < 0) throw_error("no coefficient at the corner (1, 1, 0)");
  StepperSettings s;
  s.dt = 1e-3;
  s.reuse_jacobian = true;
  s.krylov_iterations = 10;
  s.linear.backend = "dist-cg";
  if (check_mass_split(model, s, rank, ranks) != 0) return 1;
  TimeStepper stepper(model, s);
  if (stepper.partition_size() != ranks) {
    if (rank == 0) std::fprintf(stderr, "the stepper runs on %d ranks\n", stepper.partition_size());
    return 1;
  }
  if (check_krylov_bytes(stepper, s.krylov_iterations, ranks, rank) != 0) return 1;
  std::FILE* f = rank == 0 ? std::fopen(out.c_str(), "w") : nullptr;
  if (rank == 0 && !f) throw_error("cannot write ", out);
  int mismatch = 0;
  long long gmres = 0;
  const int n = static_cast<int>(3 * model.num_coefficients());
  std::vector<Real> mine(n), root(n);
  for (int step = 1; step <= steps; ++step) {
    const StepReport r = stepper.step();
    if (!r.converged) throw_error("step ", step, " did not converge");
    gmres += r.krylov_iterations;
    auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
    for (int i = 0; i < n; ++i) mine[i] = q.data()[i];
    root = mine;
    MPI_Bcast(root.data(), n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < n; ++i)
      if (mine[i] != root[i]) ++mismatch;
    if (f)
      std::fprintf(f, "%d %.17g %.17g %d %d %d\n", step, static_cast<double>(stepper.time()),
                   static_cast<double>(q(corner, 2)), r.krylov_iterations, r.newton_iterations,
                   r.factorizations);
  }
  if (f) std::fclose(f);
  MPI_Allreduce(MPI_IN_PLACE, &mismatch, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (mismatch > 0) {
    if (rank == 0)
      std::fprintf(stderr, "%d position entries differ from rank 0's (summed over steps, ranks)\n",
                   mismatch);
    return 1;
  }
  if (gmres == 0) {
    if (rank == 0) std::fprintf(stderr, "the GMRES correction never ran in %d steps\n", steps);
    return 1;
  }
  if (rank == 0)
    std::printf(
        "%d ranks: %lld GMRES iterations in %d steps; every rank holds rank 0's positions\n", ranks,
        gmres, steps);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  tlfea::MpiSession mpi(&argc, &argv);
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: tlfea_test_mpi_krylov OUT [STEPS]\n");
    return 2;
  }
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    try {
      status =
          run(argv[1], argc == 3 ? std::stoi(argv[2]) : 150, mpi.world_rank(), mpi.world_size());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rank %d: %s\n", mpi.world_rank(), e.what());
      mpi.abort(1);
    }
  }
  return status;
}
