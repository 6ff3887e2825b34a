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
#include <memory>
#include <string>

#include "analysis_policies.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {

namespace detail {

SettleRamp::SettleRamp(const SettleSettings& ss, Real dt) : s_(ss), dt_(dt) {
  // isfinite first: an ordered comparison with NaN raises FE_INVALID.
  if (!std::isfinite(ss.duration) || ss.duration <= 0.0)
    throw_error("settle: duration must be positive and finite, got ", ss.duration);
  if (!std::isfinite(ss.ramp))
    throw_error("settle: ramp must be finite and at most 3/4 of the duration (", ss.duration,
                " s), got ", ss.ramp);
  // The last quarter holds the full load without kinetic damping (at_rest
  // is judged there), so the ramp ends by 3/4 of the duration.
  ramp_ = ss.ramp < 0.0 ? 0.5 * ss.duration : ss.ramp;
  if (ramp_ > 0.75 * ss.duration)
    throw_error("settle: ramp must be finite and at most 3/4 of the duration (", ss.duration,
                " s), got ", ramp_);
  if (!std::isfinite(ss.rest_tolerance) || ss.rest_tolerance < 0.0)
    throw_error("settle: rest_tolerance must be >= 0 and finite, got ", ss.rest_tolerance);
  // The ratio is checked before rounding (lround of a huge ratio is undefined).
  if (ss.duration / dt > 1e9)
    throw_error("settle: duration ", ss.duration, " s is ", ss.duration / dt, " steps of dt = ", dt,
                " s (at most 1e9)");
  n_ = std::max(1L, std::lround(ss.duration / dt));
  damped_ = n_ - std::max(1L, n_ / 4);  // steps with kinetic damping
}

void SettleRamp::begin_step(long k) {
  const Real tau = static_cast<Real>(k + 1) * dt_;
  scale_ = ramp_ > 0.0 && k + 1 < n_ ? std::min<Real>(1.0, tau / ramp_) : 1.0;
}

bool SettleRamp::end_step(long k, long newton, Real T) {
  rep_.newton_iterations += newton;
  ++rep_.steps;
  rep_.kinetic_energy_peak = std::max(rep_.kinetic_energy_peak, T);
  rep_.kinetic_energy_final = T;
  if (s_.kinetic_damping && T < previous_ && k < damped_) {
    ++rep_.velocity_resets;
    previous_ = 0.0;
    return true;
  }
  previous_ = T;
  return false;
}

void SettleRamp::finish() {
  rep_.at_rest = rep_.kinetic_energy_peak <= 0.0 ||
                 rep_.kinetic_energy_final <= s_.rest_tolerance * rep_.kinetic_energy_peak;
}

}  // namespace detail

SettleReport TimeStepper::settle(const SettleSettings& ss) {
  if (is_static())
    throw_error(
        "settle: a static analysis solves for equilibrium itself; settle is for a dynamic "
        "analysis");
  if (settle_) throw_error("settle: this stepper has been settled already (once per stepper)");
  if (steps_ != 0 || t_ != 0.0)
    throw_error("settle: only before the first step (the stepper is at step ", steps_, ", t = ", t_,
                " s)");
  check_step_forces();
  auto settle = std::make_unique<detail::SettleRamp>(ss, s_.dt);
  detail::SettleRamp& ramp = *settle;
  const long n = ramp.steps();
  const StepperState initial = state();  // restored when a settle step fails
  CoefView v_given("tlfea::integrators::settle_v0", v_.extent(0));
  device_copy(v_given, v_);  // the velocities set before the settle, given back at t = 0
  fill(v_, 0.0);
  // The ramp is the load control until the settle ends, however it ends.
  struct LoadGuard {
    const detail::LoadControl*& load;
    const detail::LoadControl* restored;
    ~LoadGuard() { load = restored; }
  } guard{load_, time_loads_.get()};
  load_ = &ramp;
  t_ = -static_cast<Real>(n) * s_.dt;
  try {
    for (long k = 0; k < n; ++k) {
      ramp.begin_step(k);
      const StepReport r = step();
      if (ramp.end_step(k, r.newton_iterations, model_.kinetic_energy(v_))) fill(v_, 0.0);
    }
  } catch (const Error& e) {
    load_ = time_loads_.get();  // restore() refactors with the loads of the run
    restore(initial);
    throw Error(std::string("settle (pseudo-time before t = 0): ") + e.what() +
                "; the stepper is back at its initial state");
  }
  load_ = time_loads_.get();
  ramp.finish();
  settle_ = std::move(settle);  // settled: once per stepper
  t_ = 0.0;                     // the pseudo-times -n dt + k dt carry round-off; t = 0 is exact
  steps_ = 0;
  device_copy(v_, v_given);
  // The factors were assembled with loads held at t = 0 and scaled by the
  // ramp, which a restart's reassembly at factor_t_ (< 0) could not
  // reproduce: the run's first step factors afresh.
  have_factor_ = false;
  reuse_next_ = false;
  return settle_->report();
}

}  // namespace tlfea
