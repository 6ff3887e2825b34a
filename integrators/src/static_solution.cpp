// TLFEA: static equilibrium by load increments (solve_static, docs/theory.md
// §6.10): a TimeStepper with analysis = Analysis::static_equilibrium stepping pseudo-time 0 -> 1.
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {

StaticSolution solve_static(Model& model, int increments, StepperSettings settings) {
  if (increments < 1) throw_error("solve_static: increments must be >= 1, got ", increments);
  settings.analysis = Analysis::static_equilibrium;
  settings.dt = 1.0 / increments;
  TimeStepper stepper(model, settings);
  StaticSolution out;
  for (int i = 1; i <= increments; ++i) {
    const StepReport r = stepper.step();
    out.newton_iterations += r.newton_iterations;
    out.factorizations += r.factorizations;
    out.cuts += r.retries;
  }
  out.q = to_host(stepper.positions());
  return out;
}

}  // namespace tlfea
