// The team-per-element internal-force and tangent loops (team_kernels.hpp,
// docs/theory.md §3.12), forced on the host with
// ElementBlockBase::set_kernel_shapes, against the range loops the host runs
// by default: every element type, every material (SVK, Mooney-Rivlin,
// Neo-Hookean, each also with Kelvin-Voigt), the ANCF Poisson split on (the
// default where supported) and off, random deformed states and velocities,
// every scatter policy the space allows. Same points and laws, only the order
// of the sums differs: agreement to 1e-12 of the largest entry.
#include <algorithm>
#include <array>
#include <string>

#include "kernel_test_utils.hpp"

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

struct Result {
  CoefViewHost f;
  std::vector<Real> K;
};

Result evaluate(System& s, KernelShape shape, const CoefView& q, const CoefView& v, Real aK,
                Real aD) {
  s.block->set_kernel_shapes(KernelShapes::all(shape));
  EXPECT_TRUE(s.block->kernel_shapes() == KernelShapes::all(shape));
  Result r;
  CoefView fd("f", s.ncoef());
  // Start from a non-zero vector and matrix: the loops add into them.
  Kokkos::deep_copy(fd, 1.0);
  s.block->internal_force(q, v, fd);
  r.f = to_host(fd);
  DeviceView<Real*> values("values", s.pattern.nnz());
  Kokkos::deep_copy(values, 1.0);
  s.block->tangent(q, v, aK, aD, values);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  r.K.assign(h.data(), h.data() + h.extent(0));
  return r;
}

// max |team - range| / max |range - 1| for the force and the tangent.
std::array<Real, 2> difference(const Result& range, const Result& team) {
  Real fmax = 0.0, fdiff = 0.0, kmax = 0.0, kdiff = 0.0;
  for (size_t k = 0; k < range.f.extent(0); ++k)
    for (int a = 0; a < 3; ++a) {
      fmax = std::max(fmax, std::fabs(range.f(k, a) - 1.0));
      fdiff = std::max(fdiff, std::fabs(team.f(k, a) - range.f(k, a)));
    }
  for (size_t k = 0; k < range.K.size(); ++k) {
    kmax = std::max(kmax, std::fabs(range.K[k] - 1.0));
    kdiff = std::max(kdiff, std::fabs(team.K[k] - range.K[k]));
  }
  EXPECT_GT(fmax, 0.0);
  EXPECT_GT(kmax, 0.0);
  return {fdiff / fmax, kdiff / kmax};
}

std::vector<MaterialSpec> materials(ElementType t) {
  std::vector<MaterialSpec> m;
  for (const MaterialSpec& s : all_materials()) {
    m.push_back(s);  // ANCF: split on where supported (the default)
    if (t == ElementType::ANCF3243 || t == ElementType::ANCF3443)
      m.push_back(s.with_ancf3243_poisson_split(false).with_ancf3443_poisson_split(false));
  }
  return m;
}

std::vector<ScatterPolicy> policies() {
  std::vector<ScatterPolicy> p{ScatterPolicy::Atomic, ScatterPolicy::Coloured};
  if (ExecSpace().concurrency() == 1) p.push_back(ScatterPolicy::Plain);
  return p;
}

TEST(TeamKernels, MatchRangeLoopsOnRandomStates) {
  Real worst_f = 0.0, worst_k = 0.0;
  int cases = 0, split_cases = 0;
  for (ElementType t : all_element_types()) {
    const Mesh mesh = small_mesh(t);
    for (const MaterialSpec& mat : materials(t)) {
      System s = make_system(mesh, mat);
      // The SVK shells have a lanes force (lane_kernels.hpp).
      const bool lanes =
          t == ElementType::ANCF3443 && mat.model == MaterialModel::StVenantKirchhoff;
      EXPECT_TRUE(s.block->kernel_shapes() == default_kernel_shapes_for<ExecSpace>(lanes));
      if (s.block->poisson_split()) ++split_cases;
      const CoefViewHost q0 = to_host(s.q0);
      const Real size = t == ElementType::ANCF3243 ? 0.5 : 0.4;
      for (unsigned seed = 1; seed <= 2; ++seed) {
        // Large random deformations (10% of the element size on positions
        // and gradients alike) and random velocities.
        const CoefView q = to_device(random_state(q0, 0.1 * size, seed), "q");
        const CoefView v = to_device(random_state(zeros_host(s.ncoef()), 2.0, 100 + seed), "v");
        for (const auto& alpha : {std::array<Real, 2>{1.0, 0.0}, std::array<Real, 2>{0.37, 1.9}}) {
          s.block->set_scatter(default_scatter_policy_for<ExecSpace>());
          const Result range = evaluate(s, KernelShape::Range, q, v, alpha[0], alpha[1]);
          for (ScatterPolicy p : policies()) {
            s.block->set_scatter(p);
            const auto d =
                difference(range, evaluate(s, KernelShape::Team, q, v, alpha[0], alpha[1]));
            const std::string what = std::string(to_string(t)) + " " + mat.name() + " split " +
                                     std::to_string(s.block->poisson_split()) + " " + to_string(p) +
                                     " seed " + std::to_string(seed);
            EXPECT_LE(d[0], kTol) << what;
            EXPECT_LE(d[1], kTol) << what;
            worst_f = std::max(worst_f, d[0]);
            worst_k = std::max(worst_k, d[1]);
            ++cases;
          }
        }
      }
    }
  }
  // The split covers the ANCF 3243 SVK laws and every ANCF 3443 law.
  EXPECT_EQ(split_cases, 2 + 6);
  std::printf(
      "[team kernels] %d cases, %d threads: max relative difference force %.3g, "
      "tangent %.3g\n",
      cases, ExecSpace().concurrency(), worst_f, worst_k);
}

// Host spaces keep the range loops for both kernels by default; device
// spaces run the force one thread per element and the tangent one team per
// element (scatter_policy.hpp). A block starts with its space's shapes, and
// setting one kernel's shape leaves the other's.
TEST(TeamKernels, DefaultShapesPerExecutionSpaceAndKernel) {
  constexpr KernelShapes device = default_kernel_shapes(true), host = default_kernel_shapes(false);
  EXPECT_EQ(device.of(AssemblyKernel::InternalForce), KernelShape::Range);
  EXPECT_EQ(device.of(AssemblyKernel::Tangent), KernelShape::Team);
  EXPECT_EQ(host.of(AssemblyKernel::InternalForce), KernelShape::Range);
  EXPECT_EQ(host.of(AssemblyKernel::Tangent), KernelShape::Range);
  // A block with a lane loop takes it for the force on host spaces only.
  EXPECT_TRUE(default_kernel_shapes(false, true) ==
              (KernelShapes{KernelShape::Lanes, KernelShape::Range}));
  EXPECT_TRUE(default_kernel_shapes(true, true) == device);
  EXPECT_TRUE(default_kernel_shapes_for<Kokkos::DefaultHostExecutionSpace>() == host);
  System s = make_system(small_mesh(ElementType::T10), all_materials()[0]);
  EXPECT_TRUE(s.block->kernel_shapes() == default_kernel_shapes_for<ExecSpace>());
  s.block->set_kernel_shapes({KernelShape::Team, KernelShape::Range});
  EXPECT_EQ(s.block->kernel_shapes().internal_force, KernelShape::Team);
  EXPECT_EQ(s.block->kernel_shapes().tangent, KernelShape::Range);
}

// Mixed shapes (one kernel Range, the other Team, both ways) give the force
// and tangent of the all-Range loops to the tolerance of the test above: the
// two kernels are independent of each other's shape.
TEST(TeamKernels, MixedShapesMatchRangeLoops) {
  for (ElementType t : all_element_types()) {
    System s = make_system(small_mesh(t), all_materials()[0]);
    const CoefViewHost q0 = to_host(s.q0);
    const CoefView q = to_device(random_state(q0, 0.04, 7), "q");
    const CoefView v = to_device(random_state(zeros_host(s.ncoef()), 2.0, 107), "v");
    const Result range = evaluate(s, KernelShape::Range, q, v, 0.37, 1.9);
    for (const KernelShapes mixed : {KernelShapes{KernelShape::Range, KernelShape::Team},
                                     KernelShapes{KernelShape::Team, KernelShape::Range}}) {
      s.block->set_kernel_shapes(mixed);
      Result r;
      CoefView fd("f", s.ncoef());
      Kokkos::deep_copy(fd, 1.0);
      s.block->internal_force(q, v, fd);
      r.f = to_host(fd);
      DeviceView<Real*> values("values", s.pattern.nnz());
      Kokkos::deep_copy(values, 1.0);
      s.block->tangent(q, v, 0.37, 1.9, values);
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
      r.K.assign(h.data(), h.data() + h.extent(0));
      const auto d = difference(range, r);
      EXPECT_LE(d[0], kTol) << to_string(t);
      EXPECT_LE(d[1], kTol) << to_string(t);
    }
  }
}

}  // namespace
}  // namespace tlfea::test
