// Every loop shape of the library's internal force and tangent (range,
// team and, where a block has it, lanes: scatter_policy.hpp KernelShape;
// range_kernels.hpp, team_kernels.hpp, lane_kernels.hpp around the point laws
// of point_laws.hpp, docs/theory.md §3.11-3.13) against the plain quadrature
// loops of reference_kernels.hpp, which integrate the same forces and
// tangents one point at a time straight from the material laws and the
// Poisson-split laws on a geometry built afresh: random deformed states and
// velocities, every element type and every material (SVK, Mooney-Rivlin,
// Neo-Hookean, each also with Kelvin-Voigt), the ANCF Poisson split on and
// off, references along the axes and rotated (element frame not the
// identity). Agreement to 1e-12 of the largest entry (the loops only order
// the sums differently). The tangents are also checked against finite
// differences of the force by test_kernels.cpp and test_poisson_split.cpp.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernel_test_utils.hpp"
#include "reference_kernels.hpp"
#include "tlfea/elements/lane_force_dispatch.hpp"

namespace tlfea::test {
namespace {

constexpr Real kTol = 1e-12;

CoefViewHost random_state(const CoefViewHost& x, Real scale, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  CoefViewHost h("p", x.extent(0));
  for (size_t k = 0; k < x.extent(0); ++k)
    for (int a = 0; a < 3; ++a) h(k, a) = x(k, a) + scale * u(rng);
  return h;
}

Mesh rotated(const Mesh& mesh) {
  Real R[3][3];
  const Real axis[3] = {0.3, -0.5, 0.8}, c[3] = {0.1, -0.2, 0.3};
  rotation(axis, 0.7, R);
  Mesh m = mesh;
  const auto r = rigid_motion(mesh, R, c);
  for (Ordinal k = 0; k < m.num_coefficients(); ++k)
    for (int a = 0; a < 3; ++a) m.coefficients[k][a] = r(k, a);
  return m;
}

struct Diff {
  Real force = 0.0, tangent = 0.0;  // max |shape - reference| / max |reference|
};

// max |a - b| / max |b| over two equally long arrays.
Real relative_difference(const Real* a, const Real* b, size_t n) {
  Real bmax = 0.0, diff = 0.0;
  for (size_t k = 0; k < n; ++k) {
    bmax = std::max(bmax, std::fabs(b[k]));
    diff = std::max(diff, std::fabs(a[k] - b[k]));
  }
  EXPECT_GT(bmax, 0.0);
  return diff / bmax;
}

std::vector<Real> host_values(const DeviceView<Real*>& values) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  return std::vector<Real>(h.data(), h.data() + h.extent(0));
}

// The block's force and tangent in `shapes` against the reference loops for
// the same mesh and material (the block's own offsets place the reference
// tangent's blocks).
Diff compare(System& s, const MaterialSpec& mat, KernelShapes shapes, const CoefViewHost& qh,
             const CoefViewHost& vh, Real aK, Real aD, DeviceView<Offset***> offsets) {
  const CoefView q = to_device(qh, "q"), v = to_device(vh, "v");
  const KernelShapes shape0 = s.block->kernel_shapes();
  s.block->set_kernel_shapes(shapes);
  EXPECT_TRUE(s.block->kernel_shapes() == shapes);
  CoefView f("f", s.ncoef()), fr("f_reference", s.ncoef());
  s.block->internal_force(q, v, f);
  reference_internal_force(s.mesh, mat, q, v, fr);
  DeviceView<Real*> K("values", s.pattern.nnz()), Kr("values_reference", s.pattern.nnz());
  s.block->tangent(q, v, aK, aD, K);
  reference_tangent(s.mesh, mat, q, v, aK, aD, offsets, s.pattern.block_row_length, Kr);
  s.block->set_kernel_shapes(shape0);
  const CoefViewHost fh = to_host(f), frh = to_host(fr);
  const std::vector<Real> Kh = host_values(K), Krh = host_values(Kr);
  Diff d;
  d.force = relative_difference(fh.data(), frh.data(), 3 * fh.extent(0));
  d.tangent = relative_difference(Kh.data(), Krh.data(), Kh.size());
  return d;
}

// The system of make_system with its element offsets kept for the reference.
System make_system_with_offsets(const Mesh& mesh, const MaterialSpec& mat,
                                DeviceView<Offset***>& offsets) {
  System s;
  s.mesh = mesh;
  s.block = make_element_block(mesh, 0, mat, 1000.0);
  std::vector<CliqueSet> cliques{s.block->cliques()};
  std::vector<DeviceView<Offset***>> off;
  s.pattern = build_crs_pattern(mesh.num_coefficients(), cliques, off);
  s.block->set_matrix_offsets(s.pattern, off[0]);
  offsets = off[0];
  s.q0 = CoefView("q0", mesh.num_coefficients());
  copy_reference_coefficients(mesh, 0, s.q0);
  return s;
}

// The shapes a block runs: range and team for both kernels, and the lanes
// force where the block's default has it.
std::vector<KernelShapes> shapes_of(const ElementBlockBase& block) {
  std::vector<KernelShapes> v{KernelShapes::all(KernelShape::Range),
                              KernelShapes::all(KernelShape::Team)};
  if (block.kernel_shapes().internal_force == KernelShape::Lanes)
    v.push_back({KernelShape::Lanes, KernelShape::Range});
  return v;
}

std::vector<Mesh> meshes() {
  const Mesh beam = generate_beam_ancf3243(1.0, 0.1, 0.08, 3);
  const Mesh plate = generate_plate_ancf3443(1.0, 0.8, 0.05, {2, 3});
  const Mesh tets = small_mesh(ElementType::T10), hexes = small_mesh(ElementType::Q27);
  return {beam, rotated(beam), plate, rotated(plate), rotated(tets), rotated(hexes)};
}

std::vector<MaterialSpec> materials() {
  std::vector<MaterialSpec> m;
  for (const MaterialSpec& s : all_materials()) {
    // Split on by default (beam: SVK, KV SVK; shell: every law), and off.
    m.push_back(s);
    m.push_back(s.with_ancf3243_poisson_split(false).with_ancf3443_poisson_split(false));
  }
  return m;
}

TEST(KernelShapes, EveryShapeMatchesReferenceQuadratureOnRandomStates) {
  Real worst_f = 0.0, worst_k = 0.0;
  int cases = 0, lane_cases = 0;
  for (const Mesh& mesh : meshes()) {
    for (const MaterialSpec& mat : materials()) {
      DeviceView<Offset***> offsets;
      System s = make_system_with_offsets(mesh, mat, offsets);
      const CoefViewHost q0 = to_host(s.q0);
      const Real size = mesh.type == ElementType::ANCF3243 ? 1.0 / 3 : 0.4;
      for (const KernelShapes shapes : shapes_of(*s.block)) {
        for (unsigned seed = 1; seed <= 2; ++seed) {
          // Large random deformations (10% of the element size on positions
          // and gradients alike) and random velocities.
          const CoefViewHost q = random_state(q0, 0.1 * size, seed);
          const CoefViewHost v = random_state(zeros_host(s.ncoef()), 2.0, 100 + seed);
          for (const auto& alpha :
               {std::array<Real, 2>{1.0, 0.0}, std::array<Real, 2>{0.37, 1.9}}) {
            const Diff d = compare(s, mat, shapes, q, v, alpha[0], alpha[1], offsets);
            EXPECT_LE(d.force, kTol) << to_string(mesh.type) << " " << mat.name() << " split "
                                     << s.block->poisson_split() << " force shape "
                                     << to_string(shapes.internal_force) << " seed " << seed;
            EXPECT_LE(d.tangent, kTol) << to_string(mesh.type) << " " << mat.name() << " split "
                                       << s.block->poisson_split() << " tangent shape "
                                       << to_string(shapes.tangent) << " seed " << seed;
            worst_f = std::max(worst_f, d.force);
            worst_k = std::max(worst_k, d.tangent);
            ++cases;
            if (shapes.internal_force == KernelShape::Lanes) ++lane_cases;
          }
        }
      }
    }
  }
  // The host default runs the lanes force on the SVK shells (split on and
  // off, plain and Kelvin-Voigt, axis-aligned and rotated: 8 blocks x 2 seeds
  // x 2 alphas); device spaces have no lanes shape.
  const bool host = default_kernel_shapes_for<ExecSpace>(true).internal_force == KernelShape::Lanes;
  EXPECT_EQ(lane_cases, host ? 32 : 0);
  std::printf("[kernel shapes] %d cases: max relative difference force %.3g, tangent %.3g\n", cases,
              worst_f, worst_k);
}
// Every build of the point-lane force core that this CPU runs
// (lane_force_dispatch.hpp: generic SSE2, AVX2 + FMA, AVX-512; compiled from
// the same source with different flags) against the reference quadrature
// loops (reference_kernels.hpp), on the ANCF 3443 plate with SVK and Kelvin-Voigt
// SVK, split on and off, axis-aligned and rotated: 1e-12 of the largest
// entry, as above. By default the widest one is chosen.
TEST(KernelShapes, EveryCpuKernelBuildMatchesReferenceQuadrature) {
  const std::vector<std::string> isas = available_cpu_kernels();
  ASSERT_FALSE(isas.empty());
  EXPECT_TRUE(isas.front() == "generic" || isas.front() == "native");
  const std::string chosen = cpu_kernels();
  if (std::getenv("TLFEA_CPU_KERNELS") == nullptr) EXPECT_EQ(chosen, isas.back());
  EXPECT_FALSE(select_cpu_kernels("sse9"));
  EXPECT_EQ(cpu_kernels(), chosen);
  const Mesh plate = generate_plate_ancf3443(1.0, 0.8, 0.05, {2, 3});
  const MaterialSpec svk = all_materials()[0];
  ASSERT_EQ(svk.name(), "svk");
  for (const std::string& isa : isas) {
    ASSERT_TRUE(select_cpu_kernels(isa));
    EXPECT_EQ(cpu_kernels(), isa);
    Real worst = 0.0;
    int cases = 0;
    for (const Mesh& mesh : {plate, rotated(plate)})
      for (const MaterialSpec& base : {svk, svk.with_kelvin_voigt(2e4, 1e4)})
        for (bool split : {true, false}) {
          const MaterialSpec mat = base.with_ancf3443_poisson_split(split);
          DeviceView<Offset***> offsets;
          System s = make_system_with_offsets(mesh, mat, offsets);
          ASSERT_EQ(s.block->kernel_shapes().internal_force, KernelShape::Lanes);
          const CoefViewHost q0 = to_host(s.q0);
          const CoefViewHost q = random_state(q0, 0.04, 7);
          const CoefViewHost v = random_state(zeros_host(s.ncoef()), 2.0, 107);
          const Diff d =
              compare(s, mat, {KernelShape::Lanes, KernelShape::Range}, q, v, 1.0, 0.0, offsets);
          EXPECT_LE(d.force, kTol) << isa << " " << base.name() << " split " << split;
          worst = std::max(worst, d.force);
          ++cases;
        }
    std::printf("[lane force, %s] %d cases: max relative difference %.3g\n", isa.c_str(), cases,
                worst);
  }
  ASSERT_TRUE(select_cpu_kernels(chosen));
}

// The lanes shape exists only for the internal force of the blocks that
// have a lane loop; asking for it elsewhere is an error that names the block
// and leaves the shapes as they were.
TEST(KernelShapes, LanesOnlyWhereTheBlockHasThem) {
  const KernelShapes lanes_force{KernelShape::Lanes, KernelShape::Range};
  for (const ElementType t : all_element_types())
    for (const MaterialSpec& mat : all_materials()) {
      System s = make_system(small_mesh(t), mat);
      const KernelShapes shape0 = s.block->kernel_shapes();
      EXPECT_THROW(s.block->set_kernel_shapes({KernelShape::Range, KernelShape::Lanes}), Error);
      EXPECT_TRUE(s.block->kernel_shapes() == shape0);
      const bool has_lanes = shape0.internal_force == KernelShape::Lanes;
      // Host spaces: the SVK and Kelvin-Voigt SVK shells (lane_kernels.hpp).
      const bool expected =
          default_kernel_shapes_for<ExecSpace>(true).internal_force == KernelShape::Lanes &&
          t == ElementType::ANCF3443 && mat.model == MaterialModel::StVenantKirchhoff;
      EXPECT_EQ(has_lanes, expected) << to_string(t) << " " << mat.name();
      if (has_lanes) {
        s.block->set_kernel_shapes(KernelShapes::all(KernelShape::Range));
        s.block->set_kernel_shapes(lanes_force);
        EXPECT_TRUE(s.block->kernel_shapes() == lanes_force);
      } else {
        EXPECT_THROW(s.block->set_kernel_shapes(lanes_force), Error);
        EXPECT_TRUE(s.block->kernel_shapes() == shape0);
      }
    }
}

}  // namespace
}  // namespace tlfea::test
