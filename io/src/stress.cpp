#include "stress.hpp"

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/tensor.hpp"
#include "tlfea/materials/materials.hpp"

namespace tlfea::io {
namespace {

// One element per thread: mean of sigma over its quadrature points.
// LayoutRight on every backend, so the host copy is the HostView returned
// (a CUDA space's default layout is LayoutLeft, which does not convert).
using StressView = Kokkos::View<Real* [7], Kokkos::LayoutRight, DeviceType>;

template <class Law>
struct CauchyStress {
  DeviceView<Real** [9]> F;
  StressView out;
  Law law;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    const int nq = static_cast<int>(F.extent(1));
    Real s[6] = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < nq; ++k) {
      Mat3 Fk;
      for (int i = 0; i < 9; ++i) Fk.m[i] = F(e, k, i);
      const Mat3 P = law.first_piola(Fk);
      const Real J = det(Fk);
      Mat3 sig;  // P F^T / J
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          Real a = 0.0;
          for (int m = 0; m < 3; ++m) a += P(i, m) * Fk(j, m);
          sig(i, j) = a / J;
        }
      s[0] += sig(0, 0);
      s[1] += sig(1, 1);
      s[2] += sig(2, 2);
      s[3] += 0.5 * (sig(1, 2) + sig(2, 1));
      s[4] += 0.5 * (sig(0, 2) + sig(2, 0));
      s[5] += 0.5 * (sig(0, 1) + sig(1, 0));
    }
    for (int i = 0; i < 6; ++i) out(e, i) = s[i] / nq;
    const Real d01 = s[0] - s[1], d12 = s[1] - s[2], d20 = s[2] - s[0];
    const Real vm2 =
        0.5 * (d01 * d01 + d12 * d12 + d20 * d20) + 3.0 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]);
    out(e, 6) = kmath::sqrt(vm2) / nq;
  }
};

template <class Law>
void run(const DeviceView<Real** [9]>& F, const StressView& out, const Law& law) {
  Kokkos::parallel_for("tlfea::io::cauchy_stress", Kokkos::RangePolicy<ExecSpace>(0, F.extent(0)),
                       CauchyStress<Law>{F, out, law});
}

}  // namespace

HostView<Real* [7]> element_cauchy_stress(const ElementBlockBase& block, const MaterialSpec& spec,
                                          const CoefView& q) {
  const DeviceView<Real** [9]> F = block.deformation_gradients(q);
  StressView out("tlfea::io::stress", F.extent(0));
  switch (spec.model) {
    case MaterialModel::StVenantKirchhoff:
      run(F, out, StVenantKirchhoff{spec.lambda, spec.mu});
      break;
    case MaterialModel::MooneyRivlin:
      run(F, out, MooneyRivlin{spec.mu10, spec.mu01, spec.kappa});
      break;
    case MaterialModel::NeoHookean:
      run(F, out, NeoHookean{spec.mu10, spec.kappa});
      break;
  }
  return to_host(out);
}

}  // namespace tlfea::io
