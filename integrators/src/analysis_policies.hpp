// TLFEA: what a TimeStepper's residual, Newton matrix and step take from the
// analysis it runs (docs/theory.md §6.10, §6.11), as two host-side
// strategies the stepper holds and calls (never called inside a kernel):
//
//   InertiaPolicy: whether g has the inertia term M a(v) and dg/dv its
//     c_a M and viscous terms, the velocity at which f_int and the force
//     elements are evaluated, and how the Newton iteration treats its
//     tangent. DynamicInertia (Analysis::dynamic): M and the integrator's
//     velocity; StaticEquilibrium (Analysis::static_equilibrium,
//     static_solution.cpp): no inertia, zero velocity, a fresh tangent at
//     every iteration and the energy line search, the load increments
//     named in messages.
//   LoadControl: the time at which loads, drivers and prescribed motions
//     are evaluated and the factor on f_ext. TimeLoads: t_{n+1}, factor 1
//     (a dynamic step, or a static increment of pseudo-time); SettleRamp
//     (settle.cpp): held at t = 0 and eased in over the settle's ramp, with
//     the settle's own state (kinetic damping, its report).
//
// Internal to the integrators layer.
#pragma once

#include <ostream>
#include <string>

#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea::detail {

class InertiaPolicy {
 public:
  virtual ~InertiaPolicy() = default;
  // g has the inertia term (backward Euler M (v - v_n) / h, generalized
  // alpha M (c_a v + ahat)) and dg/dv its mass and viscous terms.
  virtual bool has_inertia() const = 0;
  // The factor on M in dg/dv for the integrator's c_a (acceleration
  // coefficient), and on the viscous tangent df/dv.
  virtual Real mass_coefficient(Real c_a) const = 0;
  virtual Real viscous_coefficient() const = 0;
  // The velocity at which f_int and the force elements are evaluated for
  // the unknown v (and the velocity reported by TimeStepper::velocities).
  virtual const CoefView& velocity(const CoefView& v) const = 0;
  // Jacobian reuse across iterations and steps (and the GMRES rescue of a
  // stalled reuse); false: a fresh tangent at every Newton iteration.
  virtual bool reuses_factors() const = 0;
  // The line search on the directional derivative dv . g (the potential
  // energy's slope) instead of backtracking on |g|.
  virtual bool energy_line_search() const = 0;
  // The automatic penalty comes from the stiffness at the reference state
  // (TimeStepper::init_static_penalty) instead of the mass.
  virtual bool penalty_from_stiffness() const = 0;
  // Throws Error when this analysis cannot take an explicit per-step force
  // (StepForce) named `name`.
  virtual void check_step_force(const std::string& name) const = 0;
  // The head of the message of a step that failed after `retries` halvings:
  // step number, its interval [t, t_end] and the last step size h.
  virtual void describe_failure(std::ostream& os, long step, Real t, Real t_end, int retries,
                                Real h) const = 0;
};

// Analysis::dynamic.
class DynamicInertia final : public InertiaPolicy {
 public:
  bool has_inertia() const override { return true; }
  Real mass_coefficient(Real c_a) const override { return c_a; }
  Real viscous_coefficient() const override { return 1.0; }
  const CoefView& velocity(const CoefView& v) const override { return v; }
  bool reuses_factors() const override { return true; }
  bool energy_line_search() const override { return false; }
  bool penalty_from_stiffness() const override { return false; }
  void check_step_force(const std::string&) const override {}
  void describe_failure(std::ostream& os, long step, Real t, Real t_end, int retries,
                        Real h) const override;
};

// Analysis::static_equilibrium (static_solution.cpp): g = f_int(q(v), 0) -
// f_ext + f_c, the unknown v the increment's rate (docs/theory.md §6.10).
class StaticEquilibrium final : public InertiaPolicy {
 public:
  // Checks what a static analysis refuses (Error: an inner solver other
  // than Newton, generalized alpha, a step force the model requires,
  // Model::require_step_force); n coefficients.
  StaticEquilibrium(Ordinal n, const StepperSettings& settings, const Model& model);
  bool has_inertia() const override { return false; }
  Real mass_coefficient(Real) const override { return 0.0; }
  Real viscous_coefficient() const override { return 0.0; }
  const CoefView& velocity(const CoefView&) const override { return zero_; }
  // Along a load path the tangent changes with the load (bending stiffens
  // the membrane), and reused factors converge linearly (ratio ~0.2 on the
  // elastica: 12 iterations instead of 4).
  bool reuses_factors() const override { return false; }
  bool energy_line_search() const override { return true; }
  bool penalty_from_stiffness() const override { return true; }
  // Always: contact and other explicit per-step forces are not supported.
  void check_step_force(const std::string& name) const override;
  void describe_failure(std::ostream& os, long step, Real t, Real t_end, int retries,
                        Real h) const override;

 private:
  CoefView zero_;  // zero velocities
};

class LoadControl {
 public:
  virtual ~LoadControl() = default;
  // The time at which loads, drivers, prescribed motions and constraints
  // are evaluated for a step ending at t1.
  virtual Real load_time(Real t1) const = 0;
  // The factor on f_ext (not on the force elements, part of the model like f_int).
  virtual Real load_scale() const = 0;
  // Generalized-alpha steps are allowed (false: backward Euler only).
  virtual bool allows_generalized_alpha() const = 0;
};

// Loads at t_{n+1}, unscaled.
class TimeLoads final : public LoadControl {
 public:
  Real load_time(Real t1) const override { return t1; }
  Real load_scale() const override { return 1.0; }
  bool allows_generalized_alpha() const override { return true; }
};

// Settling before t = 0 (settle.cpp, TimeStepper::settle): every
// time-dependent input held at t = 0, f_ext scaled by the ramp, backward
// Euler; the settle's schedule, kinetic damping and report.
class SettleRamp final : public LoadControl {
 public:
  // Checks `settings` (Error naming the bad field); steps of size dt.
  SettleRamp(const SettleSettings& settings, Real dt);
  Real load_time(Real) const override { return 0.0; }
  Real load_scale() const override { return scale_; }
  bool allows_generalized_alpha() const override { return false; }
  // Settle steps; the pseudo-time starts at -steps() dt.
  long steps() const { return n_; }
  // Before settle step k (0-based): the ramp at the step's end (the
  // implicit step evaluates loads at t_{n+1}).
  void begin_step(long k);
  // After settle step k with `newton` iterations and kinetic energy T:
  // true when kinetic damping zeroes the velocities now.
  bool end_step(long k, long newton, Real T);
  const SettleReport& report() const { return rep_; }
  // Marks the settle complete: the report's at_rest.
  void finish();

 private:
  SettleSettings s_;
  Real ramp_ = 0.0, dt_ = 0.0, scale_ = 0.0;
  long n_ = 0, damped_ = 0;  // steps, of them with kinetic damping
  Real previous_ = 0.0;      // kinetic energy after the last step (0 after a reset)
  SettleReport rep_;
};

}  // namespace tlfea::detail
