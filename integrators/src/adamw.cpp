// TLFEA: the AdamW inner solver of a time step (adamw.hpp, docs/theory.md
// §6.9).
#include "adamw.hpp"

#include <algorithm>
#include <cmath>

#include "tlfea/core/host_device.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea::detail {
namespace {

using Range = Kokkos::RangePolicy<ExecSpace>;

// AdamW update (Loshchilov & Hutter 2019) of v with gradient g; clamped dofs
// have g = 0 and keep their value through the zero moments.
struct AdamWUpdate {
  CoefView v, g, m, s;
  Real lr, b1, b2, c1, c2, eps, wd;  // c1 = 1 - b1^k, c2 = 1 - b2^k
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    for (int a = 0; a < 3; ++a) {
      const Real gi = g(k, a);
      if (gi == 0.0 && m(k, a) == 0.0) continue;  // eliminated dof
      m(k, a) = b1 * m(k, a) + (1 - b1) * gi;
      s(k, a) = b2 * s(k, a) + (1 - b2) * gi * gi;
      const Real mh = m(k, a) / c1, sh = s(k, a) / c2;
      v(k, a) -= lr * (mh / (kmath::sqrt(sh) + eps) + wd * v(k, a));
    }
  }
};

}  // namespace

AdamW::AdamW(Ordinal n, const StepperSettings& settings)
    : s_(settings),
      m_(CoefView("tlfea::integrators::adam_m", n)),
      v2_(CoefView("tlfea::integrators::adam_s", n)) {}

bool AdamW::solve(const CoefView& v, const CoefView& g, const std::function<Real()>& residual,
                  const std::function<bool(Real, Real)>& converged, StepReport& rep) {
  fill(m_, 0.0);
  fill(v2_, 0.0);
  Real r = residual();
  const Real r0 = r;
  Real lr = s_.adamw_learning_rate, p1 = 1.0, p2 = 1.0;
  for (int k = 1; k <= s_.adamw_max_iterations; ++k) {
    if (!std::isfinite(r)) return false;
    if (converged(r, r0)) break;
    p1 *= s_.adamw_beta1;
    p2 *= s_.adamw_beta2;
    Kokkos::parallel_for("tlfea::integrators::adamw", Range(0, v.extent(0)),
                         AdamWUpdate{v, g, m_, v2_, lr, s_.adamw_beta1, s_.adamw_beta2, 1 - p1,
                                     1 - p2, s_.adamw_epsilon, s_.adamw_weight_decay});
    lr *= s_.adamw_lr_decay;
    ++rep.newton_iterations;
    const bool check = k % std::max(1, s_.adamw_check_every) == 0;
    r = residual();  // g is needed every iteration; |g| is recorded when checked
    if (check) rep.residual_history.push_back(r);
    if (k == s_.adamw_max_iterations) return converged(r, r0);
  }
  return true;
}

}  // namespace tlfea::detail
