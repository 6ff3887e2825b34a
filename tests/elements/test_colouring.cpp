// Element colouring and scatter policies (scatter_policy.hpp): validity of the
// colouring of every element type, the per-space policy choice, and equality
// of the plain, atomic and coloured assembly paths.
#include <algorithm>
#include <map>
#include <set>

#include "kernel_test_utils.hpp"

namespace tlfea::test {
namespace {

// Meshes with interior coefficients shared by up to 8 (hexahedra) or more
// (tetrahedra) elements, so a colouring needs several colours.
std::vector<Mesh> colouring_meshes() {
  return {generate_box(ElementType::T10, {1.0, 0.8, 0.6}, {3, 2, 2}),
          generate_box(ElementType::Q27, {1.0, 0.8, 0.6}, {3, 2, 2}),
          generate_beam_ancf3243(1.0, 0.1, 0.08, 5),
          generate_plate_ancf3443(1.0, 0.8, 0.05, {3, 3})};
}

TEST(ElementColouring, NoTwoElementsOfAColourShareACoefficientAndEachElementIsInOneColour) {
  for (const Mesh& mesh : colouring_meshes()) {
    SCOPED_TRACE(to_string(mesh.type));
    const System s = make_system(mesh, MaterialSpec::svk(2e6, 0.3));
    const Ordinal ne = s.block->num_elements();
    // Element -> coefficient ids from the block's connectivity (host copy,
    // independent of the colouring).
    std::vector<std::vector<Ordinal>> ids(ne);
    std::map<Ordinal, std::vector<Ordinal>> touching;  // coefficient -> elements
    for (Ordinal e = 0; e < ne; ++e) {
      ids[e] = s.block->element_coefficients(e);
      for (Ordinal c : ids[e]) touching[c].push_back(e);
    }
    const auto colours = s.block->element_colours();
    std::vector<int> seen(ne, 0);
    for (const auto& colour : colours) {
      EXPECT_FALSE(colour.empty());
      std::set<Ordinal> used;
      for (Ordinal e : colour) {
        ASSERT_GE(e, 0);
        ASSERT_LT(e, ne);
        ++seen[e];
        for (Ordinal c : ids[e])
          EXPECT_TRUE(used.insert(c).second)
              << "coefficient " << c << " shared inside one colour (element " << e << ")";
      }
    }
    for (Ordinal e = 0; e < ne; ++e) EXPECT_EQ(seen[e], 1) << "element " << e;
    // Bounds that hold for any valid first-fit colouring: all elements at one
    // coefficient need distinct colours (lower bound), and first fit never
    // needs more than (number of neighbouring elements + 1) colours.
    size_t lower = 0, max_neighbours = 0;
    for (const auto& [c, els] : touching) lower = std::max(lower, els.size());
    for (Ordinal e = 0; e < ne; ++e) {
      std::set<Ordinal> nb;
      for (Ordinal c : ids[e])
        for (Ordinal f : touching[c])
          if (f != e) nb.insert(f);
      max_neighbours = std::max(max_neighbours, nb.size());
    }
    EXPECT_GE(colours.size(), lower);
    EXPECT_LE(colours.size(), max_neighbours + 1);
    EXPECT_GT(lower, 1u);  // the meshes do share coefficients
  }
}

// The choice documented in scatter_policy.hpp (docs/guide/gpu.md): one
// thread -> Plain, several host threads -> Atomic, GPU memory -> Atomic.
TEST(ScatterPolicy, DefaultPerExecutionSpace) {
  EXPECT_EQ(default_scatter_policy(false, 1), ScatterPolicy::Plain);
  EXPECT_EQ(default_scatter_policy(false, 2), ScatterPolicy::Atomic);
  EXPECT_EQ(default_scatter_policy(false, 64), ScatterPolicy::Atomic);
  EXPECT_EQ(default_scatter_policy(true, 1), ScatterPolicy::Atomic);
  EXPECT_EQ(default_scatter_policy(true, 1 << 20), ScatterPolicy::Atomic);
#ifdef KOKKOS_ENABLE_SERIAL
  EXPECT_EQ(default_scatter_policy_for<Kokkos::Serial>(), ScatterPolicy::Plain);
#endif
  const int threads = ExecSpace().concurrency();
  const bool device =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, ExecSpace::memory_space>::accessible;
  const ScatterPolicy expected =
      (!device && threads == 1) ? ScatterPolicy::Plain : ScatterPolicy::Atomic;
  EXPECT_EQ(default_scatter_policy_for<ExecSpace>(), expected);

  // A block starts at the default; plain adds are refused with several
  // threads; set_coloured_assembly(false) returns to the default.
  System s = make_system(generate_box(ElementType::T10, {1.0, 0.8, 0.6}, {2, 1, 1}),
                         MaterialSpec::svk(2e6, 0.3));
  EXPECT_EQ(s.block->scatter(), expected);
  s.block->set_coloured_assembly(true);
  EXPECT_EQ(s.block->scatter(), ScatterPolicy::Coloured);
  EXPECT_TRUE(s.block->coloured_assembly());
  s.block->set_coloured_assembly(false);
  EXPECT_EQ(s.block->scatter(), expected);
  if (threads > 1)
    EXPECT_THROW(s.block->set_scatter(ScatterPolicy::Plain), Error);
  else
    EXPECT_NO_THROW(s.block->set_scatter(ScatterPolicy::Plain));
}

// Plain, atomic and coloured assembly sum the same element contributions;
// the coloured launches in a different order, so equal to rounding (relative
// 1e-12 of the largest entry; the sums have at most a few dozen terms each).
// With one thread the plain and atomic launches add in the same element
// order, so they agree bit for bit.
TEST(ElementColouring, PlainAtomicAndColouredAssemblyAgree) {
  const bool one_thread = ExecSpace().concurrency() == 1;
  std::vector<ScatterPolicy> policies = {ScatterPolicy::Atomic, ScatterPolicy::Coloured};
  if (one_thread) policies.push_back(ScatterPolicy::Plain);
  const size_t np = policies.size();
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-0.02, 0.02);
  for (const Mesh& mesh : colouring_meshes()) {
    for (const MaterialSpec& mat :
         {MaterialSpec::svk(2e6, 0.3), MaterialSpec::svk(2e6, 0.3).with_kelvin_voigt(5e3, 2e3)}) {
      SCOPED_TRACE(std::string(to_string(mesh.type)) + " " + mat.name());
      System s = make_system(mesh, mat);
      const Ordinal n = s.ncoef();
      auto qh = to_host(s.q0);
      CoefViewHost vh("v", n);
      for (Ordinal k = 0; k < n; ++k)
        for (int a = 0; a < 3; ++a) {
          qh(k, a) += u(rng);
          vh(k, a) = u(rng);
        }
      const CoefView q = to_device(qh, "q"), v = to_device(vh, "v");
      // Two point loads in every element (loads share coefficients).
      const Ordinal ne = s.block->num_elements();
      std::vector<PointLoad> loads(2 * ne);
      for (Ordinal k = 0; k < 2 * ne; ++k) {
        loads[k].element = k / 2;
        for (int a = 0; a < 3; ++a) {
          loads[k].xi[a] = 0.1 + 0.05 * a;  // inside the T10 and [-1, 1]^3 parents
          loads[k].force[a] = 1.0 + u(rng);
        }
      }
      std::vector<CoefViewHost> f(np), fb(np), fp(np);
      std::vector<std::vector<Real>> K(np), M(np);
      for (size_t m = 0; m < np; ++m) {
        s.block->set_scatter(policies[m]);
        ASSERT_EQ(s.block->scatter(), policies[m]);
        CoefView fd("f", n), fbd("fb", n);
        s.block->internal_force(q, v, fd);
        s.block->body_force(s.q0, {0.0, 0.0, -9.81}, fbd);
        // Point loads go through MaterialPointSet (as in Model), with plain
        // adds for the Plain policy and atomic ones otherwise.
        const CoefView fpd =
            point_load_forces(*s.block, loads, 0.5, n, policies[m] == ScatterPolicy::Plain);
        f[m] = to_host(fd);
        fb[m] = to_host(fbd);
        fp[m] = to_host(fpd);
        DeviceView<Real*> kv("K", s.pattern.nnz()), mv("M", s.pattern.nnz());
        s.block->tangent(q, v, 1.0, 0.3, kv);
        s.block->mass(s.q0, 1.0, mv);
        auto kh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kv);
        auto mh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mv);
        K[m].assign(kh.data(), kh.data() + kh.extent(0));
        M[m].assign(mh.data(), mh.data() + mh.extent(0));
      }
      for (size_t m = 1; m < np; ++m) {
        SCOPED_TRACE(std::string(to_string(policies[m])) + " vs atomic");
        const bool exact = policies[m] == ScatterPolicy::Plain;
        for (const auto* V : {&f, &fb, &fp}) {
          const Real vmax = max_abs((*V)[0]);
          ASSERT_GT(vmax, 0.0);
          for (Ordinal k = 0; k < n; ++k)
            for (int a = 0; a < 3; ++a) {
              if (exact)
                EXPECT_EQ((*V)[m](k, a), (*V)[0](k, a));
              else
                EXPECT_NEAR((*V)[m](k, a), (*V)[0](k, a), 1e-12 * vmax);
            }
        }
        for (const auto* A : {&K, &M}) {
          Real amax = 0.0;
          for (Real x : (*A)[0]) amax = std::max(amax, std::fabs(x));
          ASSERT_GT(amax, 0.0);
          for (size_t k = 0; k < (*A)[0].size(); ++k) {
            if (exact)
              EXPECT_EQ((*A)[m][k], (*A)[0][k]);
            else
              EXPECT_NEAR((*A)[m][k], (*A)[0][k], 1e-12 * amax);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace tlfea::test
