// TLFEA: the AdamW inner solver of a time step (InnerSolver::adamw,
// docs/theory.md §6.9): first-order iterations on the gradient g of the step
// objective instead of Newton. A strategy with its own state (the Adam
// moments), called by the TimeStepper for each inner solve. Internal to the
// integrators layer.
#pragma once

#include <functional>

#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea::detail {

class AdamW {
 public:
  // Moments for n coefficients; the parameters are the adamw_* fields of
  // `settings`.
  AdamW(Ordinal n, const StepperSettings& settings);
  // Iterates v from its value until |g| converges (converged(|g|, |g_0|)),
  // at most adamw_max_iterations times; residual() evaluates g at v into g
  // and returns |g|. Counts the iterations in rep.newton_iterations and
  // records |g| every adamw_check_every iterations. False when |g| is not
  // finite or the iterations run out unconverged.
  bool solve(const CoefView& v, const CoefView& g, const std::function<Real()>& residual,
             const std::function<bool(Real, Real)>& converged, StepReport& rep);

 private:
  StepperSettings s_;
  CoefView m_, v2_;  // first and second moments
};

}  // namespace tlfea::detail
