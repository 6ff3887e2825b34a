// The restructured ANCF 3243 / 3443 internal-force and tangent loops
// (elements/fast_kernels.hpp, docs/theory.md §3.11; the ANCF 3443 SVK and
// Kelvin-Voigt SVK force by the point-lane loop, elements/lane_kernels.hpp,
// §3.13) against the general
// quadrature loops they replace (kernels.hpp, poisson_split.hpp), which the
// block keeps as the reference (ElementBlockBase::set_reference_kernels):
// random deformed states and velocities, every material the elements support
// (SVK, Mooney-Rivlin, Neo-Hookean, each also with Kelvin-Voigt), the ANCF
// Poisson split on and off, references along the axes and rotated (element
// frame not the identity). Agreement to 1e-12 of the largest entry. The
// tangent of the fast loops is also checked against finite differences of
// their force by test_kernels.cpp and test_poisson_split.cpp (the blocks'
// default path).
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernel_test_utils.hpp"
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
  Real force = 0.0, tangent = 0.0;  // max |fast - reference| / max |reference|
};

Diff compare(System& s, const CoefViewHost& qh, const CoefViewHost& vh, Real aK, Real aD) {
  const CoefView q = to_device(qh, "q"), v = to_device(vh, "v");
  CoefViewHost f[2];
  std::vector<Real> K[2];
  for (int ref = 0; ref < 2; ++ref) {
    s.block->set_reference_kernels(ref == 1);
    EXPECT_EQ(s.block->reference_kernels(), ref == 1);
    CoefView fd("f", s.ncoef());
    s.block->internal_force(q, v, fd);
    f[ref] = to_host(fd);
    DeviceView<Real*> values("values", s.pattern.nnz());
    s.block->tangent(q, v, aK, aD, values);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
    K[ref].assign(h.data(), h.data() + h.extent(0));
  }
  s.block->set_reference_kernels(false);
  Diff d;
  Real fmax = 0.0, fdiff = 0.0, kmax = 0.0, kdiff = 0.0;
  for (size_t k = 0; k < f[0].extent(0); ++k)
    for (int a = 0; a < 3; ++a) {
      fmax = std::max(fmax, std::fabs(f[1](k, a)));
      fdiff = std::max(fdiff, std::fabs(f[0](k, a) - f[1](k, a)));
    }
  for (size_t k = 0; k < K[0].size(); ++k) {
    kmax = std::max(kmax, std::fabs(K[1][k]));
    kdiff = std::max(kdiff, std::fabs(K[0][k] - K[1][k]));
  }
  EXPECT_GT(fmax, 0.0);
  EXPECT_GT(kmax, 0.0);
  d.force = fdiff / fmax;
  d.tangent = kdiff / kmax;
  return d;
}

std::vector<Mesh> meshes() {
  const Mesh beam = generate_beam_ancf3243(1.0, 0.1, 0.08, 3);
  const Mesh plate = generate_plate_ancf3443(1.0, 0.8, 0.05, {2, 3});
  return {beam, rotated(beam), plate, rotated(plate)};
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

TEST(FastAncfKernels, MatchGeneralQuadratureOnRandomStates) {
  Real worst_f = 0.0, worst_k = 0.0;
  int cases = 0;
  for (const Mesh& mesh : meshes()) {
    for (const MaterialSpec& mat : materials()) {
      System s = make_system(mesh, mat);
      EXPECT_FALSE(s.block->reference_kernels());
      const CoefViewHost q0 = to_host(s.q0);
      const Real size = mesh.type == ElementType::ANCF3243 ? 1.0 / 3 : 0.4;
      for (unsigned seed = 1; seed <= 3; ++seed) {
        // Large random deformations (10% of the element size on positions
        // and gradients alike) and random velocities.
        const CoefViewHost q = random_state(q0, 0.1 * size, seed);
        const CoefViewHost v = random_state(zeros_host(s.ncoef()), 2.0, 100 + seed);
        for (const auto& alpha : {std::array<Real, 2>{1.0, 0.0}, std::array<Real, 2>{0.37, 1.9}}) {
          const Diff d = compare(s, q, v, alpha[0], alpha[1]);
          EXPECT_LE(d.force, kTol) << to_string(mesh.type) << " " << mat.name() << " split "
                                   << s.block->poisson_split() << " seed " << seed;
          EXPECT_LE(d.tangent, kTol) << to_string(mesh.type) << " " << mat.name() << " split "
                                     << s.block->poisson_split() << " seed " << seed;
          worst_f = std::max(worst_f, d.force);
          worst_k = std::max(worst_k, d.tangent);
          ++cases;
        }
      }
    }
  }
  std::printf("[fast ANCF kernels] %d cases: max relative difference force %.3g, tangent %.3g\n",
              cases, worst_f, worst_k);
}

// Every build of the point-lane force core that this CPU runs
// (lane_force_dispatch.hpp: generic SSE2, AVX2 + FMA, AVX-512; compiled from
// the same source with different flags) against the general quadrature loops
// (the reference kernels), on the ANCF 3443 plate with SVK and Kelvin-Voigt
// SVK, split on and off, axis-aligned and rotated: 1e-12 of the largest
// entry, as above. By default the widest one is chosen.
TEST(FastAncfKernels, EveryCpuKernelBuildMatchesGeneralQuadrature) {
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
          System s = make_system(mesh, base.with_ancf3443_poisson_split(split));
          const CoefViewHost q0 = to_host(s.q0);
          const CoefViewHost q = random_state(q0, 0.04, 7);
          const CoefViewHost v = random_state(zeros_host(s.ncoef()), 2.0, 107);
          const Diff d = compare(s, q, v, 1.0, 0.0);
          EXPECT_LE(d.force, kTol) << isa << " " << base.name() << " split " << split;
          worst = std::max(worst, d.force);
          ++cases;
        }
    std::printf("[lane force, %s] %d cases: max relative difference %.3g\n", isa.c_str(), cases,
                worst);
  }
  ASSERT_TRUE(select_cpu_kernels(chosen));
}

// The switch exists on every block; for the other elements there is one path.
TEST(FastAncfKernels, ReferenceSwitchIsHarmlessElsewhere) {
  System s = make_system(small_mesh(ElementType::T10), all_materials()[0]);
  s.block->set_reference_kernels(true);
  EXPECT_FALSE(s.block->reference_kernels());
}

}  // namespace
}  // namespace tlfea::test
