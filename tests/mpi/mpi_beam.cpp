// A T10 cantilever under gravity stepped by a TimeStepper on however many
// MPI ranks it is started on (tests/mpi/mpi_beam_test.sh runs it on 1, 2 and
// 3 and compares the histories). Rank 0 writes one line per step, the time
// and the z displacement of a probe node, to the file given; every rank
// checks after each step that it holds the same positions, bit for bit, as
// rank 0 (the replicated state of docs/guide/mpi.md), and with dist-cg that
// it holds its rows' Newton matrix values once (check_value_bytes), and
// that its element blocks' quadrature data cover its own elements only
// (check_gradient_bytes).
//   tlfea_test_mpi_beam CASE SOLVER OUT [PRECONDITIONER [PARTITION]]
//   tlfea_test_mpi_beam --partitions   (the partition methods built, a line each)
// CASE "plain": the cantilever, probe at the free end's centre;
//      "joint": a spherical joint holds the free end's centre to the ground
//               (a propped cantilever), probe at mid-span;
//      "shuffled": the plain cantilever with its elements numbered in a
//               scrambled order (the same physics), where contiguous element
//               ranges scatter every rank's elements over the whole beam.
// PARTITION: StepperSettings::partition (default "default"). Rank 0 prints
// the partition's figures; with "metis" on several ranks it fails when the
// rows shared between ranks exceed what slab cuts across the beam give (see
// check_partition).
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tlfea/constraints/material_point.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/linalg/mpi_session.hpp"

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

// The elements of `mesh` renumbered by a fixed scrambling permutation
// (a multiplicative step coprime to the count).
tlfea::Mesh scrambled(const tlfea::Mesh& mesh) {
  tlfea::Mesh out = mesh;
  const long long ne = mesh.num_elements(), n = mesh.coefficients_per_element();
  long long step = 97;
  while (std::gcd(step, ne) != 1) ++step;
  std::vector<tlfea::Ordinal> to(static_cast<size_t>(ne));  // old element id -> new
  for (long long e = 0; e < ne; ++e) {
    const long long from = (e * step + 11) % ne;
    to[from] = static_cast<tlfea::Ordinal>(e);
    for (long long i = 0; i < n; ++i) out.connectivity[e * n + i] = mesh.connectivity[from * n + i];
  }
  for (auto& [name, faces] : out.face_sets)
    for (tlfea::FaceRef& f : faces) f.element = to[f.element];
  return out;
}

// The rows shared between ranks of a METIS split of the 12 x 2 x 2 beam: the
// best cuts are planes across the beam, through a cross-section of (2 x 2 +
// 1)^2 = 25 nodes (the T10 grid of generate_box has 2 k + 1 nodes along an
// axis of k cells), 75 rows, which the higher-numbered of the two ranks
// touches without owning them (a row belongs to the lowest rank touching
// it). Allowed: 300 rows on any rank, 4 times that (a cut that is not plane,
// a rank with two lower-numbered neighbours). Contiguous ranges of the
// scrambled numbering scatter every rank over all of the beam's 625 nodes
// (measured: printed by the run).
// The same verdict on every rank (PartitionInfo is); rank 0 prints.
int check_partition(const tlfea::PartitionInfo& pi, const std::string& partition, int ranks,
                    int rank) {
  if (rank == 0)
    std::printf(
        "partition %s on %d ranks: %lld-%lld elements per rank, %lld rows shared (most on "
        "one rank %lld)\n",
        pi.method.c_str(), pi.ranks, pi.elements_min, pi.elements_max, pi.shared_rows_total,
        pi.shared_rows_max);
  if (pi.ranks != ranks) return 1;
  if (partition == "metis" && ranks > 1 && pi.shared_rows_max > 300) {
    if (rank == 0)
      std::fprintf(stderr, "metis partition shares %lld rows on one rank, more than 300\n",
                   pi.shared_rows_max);
    return 1;
  }
  return 0;
}

// The Newton matrix values the ranks store for the one-body `mesh` (no
// constraints) split into contiguous element ranges, counted here from the
// mesh alone, not by the code under test: rank r of R takes the elements
// [ne r / R, ne (r + 1) / R) (the "range" split of docs/guide/mpi.md; a
// single body has no joint to relabel its parts for), holds the block rows
// of the coefficients its elements touch and of those it owns (each owned
// by the lowest rank touching it), and the block row of coefficient c holds
// 3 x 3 values per coefficient sharing an element with c (c included).
// Returns {the most on one rank, the sum over the ranks}; R = 1 gives the
// whole pattern's count.
std::pair<long long, long long> range_split_values(const tlfea::Mesh& mesh, int ranks) {
  const long long ne = mesh.num_elements(), k = mesh.coefficients_per_element();
  const long long nc = mesh.num_coefficients();
  std::vector<std::set<long long>> coupled(static_cast<size_t>(nc));
  for (long long e = 0; e < ne; ++e)
    for (long long i = 0; i < k; ++i)
      for (long long j = 0; j < k; ++j)
        coupled[mesh.connectivity[e * k + i]].insert(mesh.connectivity[e * k + j]);
  std::vector<int> owner(static_cast<size_t>(nc), ranks);
  std::vector<std::vector<char>> touched(static_cast<size_t>(ranks),
                                         std::vector<char>(static_cast<size_t>(nc), 0));
  for (int r = 0; r < ranks; ++r)
    for (long long e = ne * r / ranks; e < ne * (r + 1) / ranks; ++e)
      for (long long i = 0; i < k; ++i) {
        const long long c = mesh.connectivity[e * k + i];
        touched[r][c] = 1;
        owner[c] = std::min(owner[c], r);
      }
  long long most = 0, total = 0;
  for (int r = 0; r < ranks; ++r) {
    long long held = 0;
    for (long long c = 0; c < nc; ++c)
      if (touched[r][c] || owner[c] == r || (owner[c] == ranks && r == 0))
        held += 9 * static_cast<long long>(coupled[c].size());
    most = std::max(most, held);
    total += held;
  }
  return {most, total};
}

// The values each rank stores (PartitionInfo) against range_split_values:
// on one rank the whole pattern; under the range split of a body without
// constraints, the count per rank, and on several ranks fewer than the whole
// pattern on every rank. The same verdict on every rank; rank 0 prints.
int check_values(const tlfea::PartitionInfo& pi, const tlfea::Mesh& mesh, const std::string& which,
                 const std::string& partition, int ranks, int rank) {
  const auto whole = range_split_values(mesh, 1);
  if (rank == 0)
    std::printf("matrix values: %lld on the most loaded rank, %lld over %d ranks (pattern %lld)\n",
                pi.matrix_values_max, pi.matrix_values_total, ranks, whole.first);
  if (ranks == 1) {
    if (pi.matrix_values_max == whole.first && pi.matrix_values_total == whole.first) return 0;
  } else if (partition != "range" || which == "joint") {
    return 0;  // a split this test cannot recount without the code under test
  } else {
    const auto split = range_split_values(mesh, ranks);
    if (pi.matrix_values_max == split.first && pi.matrix_values_total == split.second &&
        pi.matrix_values_max < whole.first)
      return 0;
    if (rank == 0)
      std::fprintf(stderr, "expected %lld on the most loaded rank, %lld over the ranks\n",
                   split.first, split.second);
  }
  if (rank == 0) std::fprintf(stderr, "matrix values per rank differ from the count of the mesh\n");
  return 1;
}

// The bytes of Newton matrix values this rank holds (TimeStepper::
// newton_value_bytes) against a count made here from the pattern's row
// lengths and the rank's rows, not by the code under test: the rank's rows
// are those of the coefficients its elements touch (its own element
// blocks' cliques) and of those it owns, each owned by the lowest rank
// touching it (rank 0 when none does: docs/guide/mpi.md). dist-cg on
// several ranks keeps its Tpetra matrices' values in the array the stepper
// assembles into, so the rank holds each value of its rows once, 8 bytes;
// on one rank the stepper's array and the Tpetra matrix's copy of it, 16
// bytes per entry of the pattern. A second copy on several ranks doubles
// the count and fails. The same verdict on every rank; rank 0 prints.
int check_value_bytes(const tlfea::TimeStepper& stepper, const tlfea::Model& model, int ranks,
                      int rank) {
  using namespace tlfea;
  const Ordinal nc = model.num_coefficients();
  std::vector<int> owner(static_cast<size_t>(nc), ranks);
  std::vector<char> touched(static_cast<size_t>(nc), 0);
  for (int b = 0; b < model.num_bodies(); ++b)
    if (const ElementBlockBase* e = stepper.own_elements(b))
      for (const Ordinal c : e->cliques().ids)
        if (c >= 0) {
          touched[c] = 1;
          owner[c] = rank;
        }
  MPI_Allreduce(MPI_IN_PLACE, owner.data(), static_cast<int>(nc), MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.pattern().row_map);
  long long entries = 0;
  for (Ordinal c = 0; c < nc; ++c)
    if (touched[c] || owner[c] == rank || (owner[c] == ranks && rank == 0))
      entries += static_cast<long long>(rm(3 * c + 3) - rm(3 * c));
  const long long expected = (ranks == 1 ? 2 : 1) * entries * 8;
  const long long held = static_cast<long long>(stepper.newton_value_bytes());
  int bad = held != expected;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("Newton matrix values on rank 0: %lld bytes (expected %lld, %lld entries)\n", held,
                expected, entries);
  if (bad && rank == 0)
    std::fprintf(stderr, "a rank holds other than its rows' Newton matrix values once\n");
  return bad;
}

// Bytes of the element blocks' shape-function gradients (the label
// build_gradients gives them, elements/geometry.hpp) allocated on this rank,
// counted by a Kokkos Tools callback from before the model is built.
long long gradient_bytes = 0;
Kokkos::Tools::Experimental::EventSet previous_callbacks{};
void on_allocate(const Kokkos::Tools::SpaceHandle space, const char* label, const void* ptr,
                 const uint64_t size) {
  if (std::strcmp(label, "tlfea::elements::H") == 0) gradient_bytes += static_cast<long long>(size);
  if (previous_callbacks.allocate_data) previous_callbacks.allocate_data(space, label, ptr, size);
}

// The gradients allocated on this rank, from the model's construction to
// the end of the run, against a count of the rank's own elements (their
// quadrature points x coefficients x 3 doubles each): on several ranks the
// whole T10 block, which the rank's own block replaces, never builds them,
// and no step allocates them. The same verdict on every rank.
int check_gradient_bytes(const tlfea::TimeStepper& stepper, const tlfea::Model& model, int rank) {
  using namespace tlfea;
  long long expected = 0;
  for (int b = 0; b < model.num_bodies(); ++b)
    if (const ElementBlockBase* e = stepper.own_elements(b))
      expected += static_cast<long long>(e->num_elements()) * e->quadrature_points() *
                  e->coefficients_per_element() * 3 * static_cast<long long>(sizeof(Real));
  int bad = gradient_bytes != expected;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("element gradients on rank 0: %lld bytes (expected %lld)\n", gradient_bytes,
                expected);
  if (bad && rank == 0)
    std::fprintf(stderr, "a rank built element gradients beyond its own elements'\n");
  return bad;
}

int run(const std::string& which, const std::string& solver, const std::string& pc,
        const std::string& partition, const std::string& out, int rank, int ranks) {
  using namespace tlfea;
  previous_callbacks = Kokkos::Tools::Experimental::get_callbacks();
  Kokkos::Tools::Experimental::set_allocate_data_callback(on_allocate);
  const Real L = 1.0, W = 0.1;
  Model model;
  Mesh mesh = generate_box(ElementType::T10, {L, W, W}, {12, 2, 2});
  if (which == "shuffled") mesh = scrambled(mesh);
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
  } else if (which != "plain" && which != "shuffled") {
    throw_error("unknown case '", which, "' (plain, joint or shuffled)");
  }
  const Ordinal node = nearest(mesh, probe);
  StepperSettings s;
  s.dt = 2e-3;
  s.linear.backend = solver;
  s.linear.preconditioner = pc;
  s.partition = tlfea::parse_partition_method(partition);
  TimeStepper stepper(model, s);
  if (check_partition(stepper.partition_info(), partition, ranks, rank) != 0) return 1;
  if (check_values(stepper.partition_info(), mesh, which, partition, ranks, rank) != 0) return 1;
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
  Kokkos::Tools::Experimental::set_allocate_data_callback(previous_callbacks.allocate_data);
  if (check_gradient_bytes(stepper, model, rank) != 0) return 1;
  if (solver == "dist-cg" || solver == "dist-gmres")
    if (check_value_bytes(stepper, model, ranks, rank) != 0) return 1;
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
  // The partition methods of this build (mpi_beam_test.sh: whether METIS is).
  if (argc == 2 && std::string(argv[1]) == "--partitions") {
    for (const std::string& p : tlfea::available_partitions()) std::printf("%s\n", p.c_str());
    return 0;
  }
  tlfea::MpiSession mpi(&argc, &argv);
  if (argc < 4 || argc > 6) {
    std::fprintf(stderr,
                 "usage: tlfea_test_mpi_beam plain|joint|shuffled SOLVER OUT [PRECONDITIONER "
                 "[PARTITION]]\n");
    return 2;
  }
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    try {
      status = run(argv[1], argv[2], argc >= 5 ? argv[4] : "default",
                   argc == 6 ? argv[5] : "default", argv[3], mpi.world_rank(), mpi.world_size());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rank %d: %s\n", mpi.world_rank(), e.what());
      mpi.abort(1);
    }
  }
  return status;
}
