// Contact split between MPI ranks (docs/guide/mpi.md, "Contact on several
// ranks"), on however many ranks it is started on (mpi_contact_test.sh: 2
// and 3). A T10 bar (1.6 x 0.2 x 0.2 m, 16 x 2 x 2 boxes) pressed into a
// ground plane and a T10 block (2 x 2 x 2 boxes) pressed into the bar's top,
// at prescribed states q = X + u, v: both slide along x, the bar by 0.1 m,
// the block by 0.9 m, across the bar's parts of every rank. The contact of
// a distributed TimeStepper (ContactComponent, split: each rank detects the
// contacts of its own surface vertices against its own and ghost triangles,
// its forces summed over the ranks) is checked against an unsplit
// ContactDetection + ContactForces fed the same states on every rank:
//  1. surface counts: the bar's triangles owned by the ranks sum to its
//     boundary triangle count computed here from the mesh (faces of one
//     element only, 4 flat triangles per T6 face), every rank owns some, and
//     no rank holds all of them (own, of own vertices and ghosts);
//  2. every step the points gathered to rank 0 (the output's: positions,
//     normals, F_n, F_t) equal the unsplit ones bit for bit (each point is
//     computed by one rank from the same data);
//  3. the summed forces equal the unsplit ones to 1e-12 relative to their
//     largest entry (only the order of the sums differs: round-off) and
//     are bit-identical on every rank;
//  4. the ghosts were rebuilt (the bodies moved beyond the margin), with 2.
//     and 3. holding throughout;
//  5. halfway, the friction history gathered to rank 0 equals the unsplit
//     one, bit for bit; restored on every rank from it (as from a
//     checkpoint), the run continues equal.
//   tlfea_test_mpi_contact
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/contact_component.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/linalg/mpi_session.hpp"

namespace {

using namespace tlfea;

// Boundary triangles of a T10 mesh: faces (by their 3 corner nodes) of one
// element only; extract_surface splits each T6 face into 4 flat triangles.
long long boundary_triangles_t10(const Mesh& mesh) {
  // T10 face f is opposite vertex f (core/mesh.hpp).
  const int faces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  std::map<std::array<Ordinal, 3>, int> count;
  const Ordinal n = mesh.coefficients_per_element();
  for (Ordinal e = 0; e < mesh.num_elements(); ++e)
    for (const auto& f : faces) {
      std::array<Ordinal, 3> key{{mesh.connectivity[e * n + f[0]], mesh.connectivity[e * n + f[1]],
                                  mesh.connectivity[e * n + f[2]]}};
      std::sort(key.begin(), key.end());
      ++count[key];
    }
  long long boundary = 0;
  for (const auto& c : count) boundary += c.second == 1 ? 1 : 0;
  return 4 * boundary;
}

struct Contact {
  std::shared_ptr<ContactDetection> det;
  std::shared_ptr<ContactForces> cf;
  std::shared_ptr<ContactComponent> comp;
};

Contact make_contact(const Mesh& bar, const Mesh& block, Ordinal block_offset,
                     const DeviceView<Real*>& mass) {
  Contact c;
  c.det = std::make_shared<ContactDetection>();
  c.det->add_body(0, bar, 0);
  c.det->add_body(1, block, block_offset);
  c.det->add_obstacle(Obstacle::plane({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 1.0}}));
  c.det->setup();
  c.cf = std::make_shared<ContactForces>();
  ContactPairSettings cs;
  cs.mu_s = 0.3;
  cs.mu_k = 0.2;
  c.cf->setup(mass, {ContactMaterial{1e7, 0.3}, ContactMaterial{1e7, 0.3}},
              {ContactMaterial{std::numeric_limits<Real>::infinity(), 0.0}}, cs);
  c.comp = std::make_shared<ContactComponent>(c.det, c.cf);
  return c;
}

bool same_bits(const std::vector<Real>& a, const std::vector<Real>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Real)) == 0);
}

int run(int rank, int ranks) {
  Model model;
  const Mesh bar = generate_box(ElementType::T10, {1.6, 0.2, 0.2}, {16, 2, 2});
  const Mesh block = generate_box(ElementType::T10, {0.2, 0.2, 0.2}, {2, 2, 2}, {0.3, 0.0, 0.2});
  model.add_body(bar, MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.add_body(block, MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.finalize();
  const Ordinal nc = model.num_coefficients(), off = model.coefficient_offset(1);
  DeviceView<Real*> mass("mass", nc);
  Kokkos::deep_copy(mass, 1e-3);

  StepperSettings s;
  s.dt = 1e-3;
  TimeStepper stepper(model, s);
  if (stepper.partition_size() != ranks) {
    std::fprintf(stderr, "the stepper is split between %d ranks, not %d\n",
                 stepper.partition_size(), ranks);
    return 1;
  }
  Contact split = make_contact(bar, block, off, mass);
  Contact whole = make_contact(bar, block, off, mass);
  stepper.add_step_force(split.comp);
  int fail = 0;
  auto check = [&](bool ok, const std::string& what) {
    int bad = ok ? 0 : 1;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad && rank == 0) std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    if (bad) fail = 1;
  };
  check(split.comp->is_split() == (ranks > 1), "split on several ranks only");

  // 1. Surface counts.
  const long long bar_total = boundary_triangles_t10(bar),
                  all_total = bar_total + boundary_triangles_t10(block);
  check(whole.det->surface().num_triangles() == all_total,
        "the unsplit surface has the mesh's boundary triangles");
  long long bar_own = 0, bar_held = 0;
  {
    const SurfaceHost& part = split.det->surface().host();
    for (Ordinal t = 0; t < part.num_triangles(); ++t) bar_held += part.triangle_body[t] == 0;
    const auto counts = split.comp->surface_counts();
    // Own triangles of the bar: those of its elements this rank evaluates.
    const std::vector<int> er = stepper.element_ranks(0);
    const SurfaceHost& h = split.det->host_surface();
    for (Ordinal t = 0; t < h.num_triangles(); ++t)
      if (h.triangle_body[t] == 0 && (er.empty() ? rank == 0 : er[h.triangle_element[t]] == rank))
        ++bar_own;
    long long sums[2] = {counts.own_triangles, bar_own};
    MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    std::vector<long long> held(ranks), own(ranks);
    MPI_Gather(&bar_held, 1, MPI_LONG_LONG, held.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    MPI_Gather(&bar_own, 1, MPI_LONG_LONG, own.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      std::printf("bar: %lld boundary triangles (from the mesh); per rank own / held:", bar_total);
      for (int r = 0; r < ranks; ++r) std::printf(" %lld / %lld", own[r], held[r]);
      std::printf("\n");
    }
    check(sums[0] == all_total, "own triangles sum to the surface's");
    check(sums[1] == bar_total, "the bar's own triangles sum to its boundary triangles");
    if (ranks > 1) {
      check(bar_own > 0, "every rank owns some of the bar's triangles");
      check(bar_held < bar_total, "no rank holds all of the bar's triangles");
      check(counts.held_triangles < all_total, "no rank holds the whole surface");
    }
  }

  // 2.-5. Prescribed states: q = X + u, every node of a body alike.
  const int K = 20;
  const Real h = s.dt, depth = 0.004;
  // 0.1 m and 0.9 m over the K steps: past the ghost margin (2 max_depth =
  // 0.05 m, max_depth half the 0.05 m triangle edges) every few steps; the
  // block crosses the bar from x = 0.3-0.5 to 1.1-1.3 m, over the bar's
  // parts of every rank, far from where the ghosts were first chosen.
  const Real vbar = 0.005 / h, vblock = 0.045 / h;
  CoefView q("q", nc), v("v", nc), fs("f_split", nc), fw("f_whole", nc);
  auto X = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
  auto qh = Kokkos::create_mirror_view(q);
  auto vh = Kokkos::create_mirror_view(v);
  long long points = 0;
  for (int k = 0; k < K; ++k) {
    const Real t = k * h;
    for (Ordinal c = 0; c < nc; ++c) {
      const bool on_block = c >= off;
      const Real vx = on_block ? vblock : vbar;
      qh(c, 0) = X(c, 0) + vx * t;
      qh(c, 1) = X(c, 1);
      qh(c, 2) = X(c, 2) - (on_block ? 2.0 : 1.0) * depth;
      vh(c, 0) = vx;
      vh(c, 1) = 0.0;
      vh(c, 2) = -0.01;
    }
    Kokkos::deep_copy(q, qh);
    Kokkos::deep_copy(v, vh);
    Kokkos::deep_copy(fs, 0.0);
    Kokkos::deep_copy(fw, 0.0);
    split.comp->add(t, q, v, h, fs);
    whole.comp->add(t, q, v, h, fw);
    std::vector<Real> xs, ns, fns, fts, xw, nw, fnw, ftw;
    split.comp->gather_output(xs, ns, fns, fts);
    whole.comp->gather_output(xw, nw, fnw, ftw);
    if (rank == 0) points += static_cast<long long>(fnw.size());
    const bool same = rank != 0 || (same_bits(xs, xw) && same_bits(ns, nw) && same_bits(fns, fnw) &&
                                    same_bits(fts, ftw));
    check(same, "step " + std::to_string(k) + ": gathered points differ from the unsplit ones (" +
                    std::to_string(fns.size()) + " against " + std::to_string(fnw.size()) + ")");
    auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fs);
    auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fw);
    Real scale = 0.0, diff = 0.0;
    for (Ordinal c = 0; c < nc; ++c)
      for (int d = 0; d < 3; ++d) {
        scale = std::max(scale, std::abs(b(c, d)));
        diff = std::max(diff, std::abs(a(c, d) - b(c, d)));
      }
    check(scale > 0.0, "step " + std::to_string(k) + ": no contact force");
    check(diff <= 1e-12 * scale, "step " + std::to_string(k) + ": summed forces differ by " +
                                     std::to_string(diff / scale) + " relative");
    std::vector<Real> mine(a.data(), a.data() + 3 * nc), root(mine);
    MPI_Bcast(root.data(), static_cast<int>(root.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    check(same_bits(mine, root), "step " + std::to_string(k) + ": forces differ between ranks");
    if (k == K / 2) {
      // 5. The history to rank 0, then restored on every rank from it.
      split.comp->gather_history();
      std::vector<unsigned long long> ks, kw;
      std::vector<ContactHistory> hs, hw;
      if (rank == 0) split.comp->save_history(ks, hs);
      whole.comp->save_history(kw, hw);
      bool eq = ks == kw && hs.size() == hw.size();
      for (size_t i = 0; eq && i < hs.size(); ++i) {
        const std::vector<Real> a{hs[i].delta_t[0], hs[i].delta_t[1], hs[i].delta_t[2], hs[i].slip},
            b{hw[i].delta_t[0], hw[i].delta_t[1], hw[i].delta_t[2], hw[i].slip};
        eq = same_bits(a, b) && hs[i].sliding == hw[i].sliding;
      }
      eq = eq || rank != 0;
      check(eq, "gathered history differs from the unsplit one");
      check(!kw.empty(), "no history to gather");
      unsigned long long n = ks.size();
      MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
      ks.resize(n);
      hs.resize(n);
      MPI_Bcast(ks.data(), static_cast<int>(n), MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
      MPI_Bcast(hs.data(), static_cast<int>(n * sizeof(ContactHistory)), MPI_BYTE, 0,
                MPI_COMM_WORLD);
      split.comp->restore_history(ks, hs, t);
      whole.comp->restore_history(ks, hs, t);
    }
  }
  // 4. The ghosts were rebuilt.
  int updates = split.det->ghost_updates();
  MPI_Bcast(&updates, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%lld points over %d steps, %d ghost rebuilds\n", points, K, updates);
  if (ranks > 1) check(updates > 0, "the ghosts were never rebuilt");
  return fail;
}

}  // namespace

int main(int argc, char** argv) {
  tlfea::MpiSession mpi(&argc, &argv);
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    try {
      status = run(mpi.world_rank(), mpi.world_size());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rank %d: %s\n", mpi.world_rank(), e.what());
      mpi.abort(1);
    }
  }
  return status;
}
