// TLFEA: settling before t = 0 (TimeStepper::settle, docs/theory.md §6.11).
//
// Dynamic relaxation (Day 1965; Underwood 1983): the static equilibrium of
// the initial configuration under the loads of t = 0 is found by stepping
// the dynamic equations in pseudo-time, here the implicit steps of the run
// itself (with its contacts, joints and supports), while
//   - the external loads grow linearly from 0 to their value at t = 0 over
//     the ramp, so contacts and supports take the load gradually (a body set
//     down touching an obstacle under its full weight would otherwise sink
//     into it like a mass let go on a spring, docs/theory.md §7.6);
//   - kinetic damping (Cundall 1976; Barnes 1988) removes the
//     oscillation: the kinetic energy T = 1/2 v^T M v of a conservative
//     system peaks where the potential energy is least along the path, so
//     whenever T has fallen from one step to the next the velocities are
//     set to zero there and the motion restarts from rest. The last quarter
//     of the settle runs without it, so that a body that still slides or
//     falls gathers kinetic energy there and is reported (not at rest:
//     the final kinetic energy above rest_tolerance times its peak).
// Everything time-dependent (loads, drivers, prescribed motions; contact
// obstacles through the step forces' t < 0) is taken at t = 0. The contact
// history survives, so a body resting on friction starts t = 0 with its
// sticking springs loaded.
#include <algorithm>
#include <cmath>
#include <string>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {

SettleReport TimeStepper::settle(const SettleSettings& ss) {
  if (static_)
    throw_error(
        "settle: a static analysis solves for equilibrium itself; settle is for a dynamic "
        "analysis");
  if (settled_) throw_error("settle: this stepper has been settled already (once per stepper)");
  if (steps_ != 0 || t_ != 0.0)
    throw_error("settle: only before the first step (the stepper is at step ", steps_, ", t = ", t_,
                " s)");
  // isfinite first: an ordered comparison with NaN raises FE_INVALID.
  if (!std::isfinite(ss.duration) || ss.duration <= 0.0)
    throw_error("settle: duration must be positive and finite, got ", ss.duration);
  if (!std::isfinite(ss.ramp))
    throw_error("settle: ramp must be finite and at most 3/4 of the duration (", ss.duration,
                " s), got ", ss.ramp);
  // The last quarter holds the full load without kinetic damping (at_rest
  // is judged there), so the ramp ends by 3/4 of the duration.
  const Real ramp = ss.ramp < 0.0 ? 0.5 * ss.duration : ss.ramp;
  if (ramp > 0.75 * ss.duration)
    throw_error("settle: ramp must be finite and at most 3/4 of the duration (", ss.duration,
                " s), got ", ramp);
  if (!std::isfinite(ss.rest_tolerance) || ss.rest_tolerance < 0.0)
    throw_error("settle: rest_tolerance must be >= 0 and finite, got ", ss.rest_tolerance);
  // The ratio is checked before rounding (lround of a huge ratio is undefined).
  if (ss.duration / s_.dt > 1e9)
    throw_error("settle: duration ", ss.duration, " s is ", ss.duration / s_.dt,
                " steps of dt = ", s_.dt, " s (at most 1e9)");
  const long n = std::max(1L, std::lround(ss.duration / s_.dt));

  SettleReport rep;
  const StepperState initial = state();  // restored when a settle step fails
  CoefView v_given("tlfea::solvers::settle_v0", v_.extent(0));
  device_copy(v_given, v_);  // the velocities set before the settle, given back at t = 0
  fill(v_, 0.0);
  settling_ = true;
  t_ = -static_cast<Real>(n) * s_.dt;
  Real previous = 0.0;
  const long damped = n - std::max(1L, n / 4);  // steps with kinetic damping
  try {
    for (long k = 0; k < n; ++k) {
      // The ramp at the step's end (the implicit step evaluates loads at t_{n+1}).
      const Real tau = static_cast<Real>(k + 1) * s_.dt;
      load_scale_ = ramp > 0.0 && k + 1 < n ? std::min<Real>(1.0, tau / ramp) : 1.0;
      const StepReport r = step();
      rep.newton_iterations += r.newton_iterations;
      ++rep.steps;
      const Real T = model_.kinetic_energy(v_);
      rep.kinetic_energy_peak = std::max(rep.kinetic_energy_peak, T);
      rep.kinetic_energy_final = T;
      if (ss.kinetic_damping && T < previous && k < damped) {
        fill(v_, 0.0);
        ++rep.velocity_resets;
        previous = 0.0;
      } else {
        previous = T;
      }
    }
  } catch (const Error& e) {
    settling_ = false;
    load_scale_ = 1.0;
    restore(initial);
    throw Error(std::string("settle (pseudo-time before t = 0): ") + e.what() +
                "; the stepper is back at its initial state");
  }
  settling_ = false;
  settled_ = true;
  load_scale_ = 1.0;
  t_ = 0.0;  // the pseudo-times -n dt + k dt carry round-off; t = 0 is exact
  steps_ = 0;
  device_copy(v_, v_given);
  // The factors were assembled with loads held at t = 0 and scaled by the
  // ramp, which a restart's reassembly at factor_t_ (< 0) could not
  // reproduce: the run's first step factors afresh.
  have_factor_ = false;
  reuse_next_ = false;
  rep.at_rest = rep.kinetic_energy_peak <= 0.0 ||
                rep.kinetic_energy_final <= ss.rest_tolerance * rep.kinetic_energy_peak;
  return rep;
}

}  // namespace tlfea
