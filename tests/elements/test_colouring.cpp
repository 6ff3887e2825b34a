// Element colouring (ElementColouring, element_block.hpp): validity of the
// colouring of every element type, and equality of the coloured (plain-add,
// one launch per colour) and uncoloured (scatter_add) assembly paths.
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

// Coloured and uncoloured assembly sum the same element contributions in a
// different order: equal to rounding (relative 1e-12 of the largest entry;
// the sums have at most a few dozen terms of one sign pattern each).
TEST(ElementColouring, ColouredAndAtomicAssemblyAgree) {
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
      CoefViewHost f[2];
      std::vector<Real> K[2], M[2];
      for (int mode = 0; mode < 2; ++mode) {
        s.block->set_coloured_assembly(mode == 1);
        ASSERT_EQ(s.block->coloured_assembly(), mode == 1);
        CoefView fd("f", n);
        s.block->internal_force(q, v, fd);
        f[mode] = to_host(fd);
        DeviceView<Real*> kv("K", s.pattern.nnz()), mv("M", s.pattern.nnz());
        s.block->tangent(q, v, 1.0, 0.3, kv);
        s.block->mass(s.q0, 1.0, mv);
        auto kh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kv);
        auto mh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mv);
        K[mode].assign(kh.data(), kh.data() + kh.extent(0));
        M[mode].assign(mh.data(), mh.data() + mh.extent(0));
      }
      const Real fmax = max_abs(f[0]);
      ASSERT_GT(fmax, 0.0);
      for (Ordinal k = 0; k < n; ++k)
        for (int a = 0; a < 3; ++a) EXPECT_NEAR(f[1](k, a), f[0](k, a), 1e-12 * fmax);
      for (const auto* A : {K, M}) {
        Real amax = 0.0;
        for (Real x : A[0]) amax = std::max(amax, std::fabs(x));
        ASSERT_GT(amax, 0.0);
        for (size_t k = 0; k < A[0].size(); ++k) EXPECT_NEAR(A[1][k], A[0][k], 1e-12 * amax);
      }
    }
  }
}

}  // namespace
}  // namespace tlfea::test
