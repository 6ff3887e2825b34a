// TLFEA: static equilibrium by load increments (docs/theory.md §6.10): the
// analysis strategy StaticEquilibrium (analysis_policies.hpp) a TimeStepper
// with analysis = Analysis::static_equilibrium holds, its automatic penalty
// (TimeStepper::init_static_penalty), and solve_static, which steps
// pseudo-time 0 -> 1.
#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis_policies.hpp"
#include "distribution.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {

namespace detail {

StaticEquilibrium::StaticEquilibrium(Ordinal n, const StepperSettings& s, const Model& model) {
  if (s.inner_solver != InnerSolver::newton)
    throw_error("static analysis: inner solver '", inner_solver_name(s.inner_solver),
                "' is not supported (use newton)");
  for (const std::string& name : model.required_step_forces()) check_step_force(name);
  if (s.integrator == TimeIntegrator::generalized_alpha)
    throw_error(
        "static analysis: the generalized-alpha integrator is for a dynamic analysis (a static "
        "analysis has no inertia to integrate); use integrator backward_euler");
  zero_ = CoefView("tlfea::integrators::zero_velocity", n);
}

void StaticEquilibrium::check_step_force(const std::string&) const {
  throw_error(
      "static analysis: contact (and other explicit per-step forces) is not supported; "
      "use a dynamic analysis with damping to settle a model in contact");
}

void StaticEquilibrium::describe_failure(std::ostream& os, long step, Real t, Real t_end,
                                         int retries, Real h) const {
  os << "load increment " << step << " (pseudo-time " << t << " to " << t_end
     << ") did not converge after " << retries << " increment halvings (last increment " << h;
}

}  // namespace detail

// Static analysis: dg/dv = h K + h^2 rho C_q^T C_q, so the automatic rho =
// penalty_scale * K_max / h (K_max the largest diagonal stiffness of a free
// dof at the reference state) makes the constraint term penalty_scale times
// the stiffness term, as rho = penalty_scale * m / h^3 does against M / h in
// a dynamic analysis (docs/theory.md §6.4, §6.10).
void TimeStepper::init_static_penalty() {
  const Real h = s_.dt;
  rho_ = 0.0;
  device_copy(qt_, q_);
  fill(vt_, 0.0);
  if (m_ > 0) fill(lambda_t_, 0.0);
  assemble_matrix(h, t_ + h);
  // The diagonal of each free row; several ranks: each rank's part of the
  // rows it holds, summed over the ranks (the same on every rank).
  const CrsPattern& p = model_.block_pattern();
  const RowLayout& layout = model_.row_layout();
  const HostBlockPattern hp(p);
  auto val = to_host(values_);
  auto fr = to_host(free_);
  auto shift = to_host(layout.shift);
  DeviceView<Real*> diag("tlfea::integrators::static_diagonal", p.num_rows());
  {
    auto hd = host_mirror(diag);
    fill(hd, 0.0);
    for (Ordinal r = 0; r < p.num_rows(); ++r) {
      const Offset sh = layout.whole() ? 0 : shift(r);
      if (sh == RowLayout::kAbsent) continue;
      hp.for_each_entry(r, [&](Offset k, Ordinal c) {
        if (c == r) hd(r) = val(k + sh);
      });
    }
    copy_to_device(diag, hd);
  }
  if (dist_) dist_->sum(diag);
  auto hd = to_host(diag);
  Real kmax = 0.0;
  for (Ordinal r = 0; r < p.num_rows(); ++r)
    if (fr(r)) kmax = std::max(kmax, std::abs(hd(r)) / h);
  if (!(kmax > 0) || !std::isfinite(kmax))
    throw_error(
        "static analysis: the stiffness at the reference state has no positive diagonal "
        "(largest |K_ii| = ",
        kmax, "); give solver.rho explicitly");
  rho_ = s_.penalty_scale * kmax / h;
}

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
