// TLFEA: the restart state of a TimeStepper (StepperState; docs/theory.md
// §6.6 and docs/guide/output.md): state() copies it out,
// restore() puts it back and refactors at the saved assembly point.
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {

namespace {
template <class View>
std::vector<Real> to_host_vector(const View& x) {
  auto h = to_host(x);
  return std::vector<Real>(h.data(), h.data() + h.size());
}
template <class View>
void from_host_vector(const std::vector<Real>& src, const View& x, const char* what) {
  if (src.size() != x.size())
    throw_error("TimeStepper::restore: ", what, " has ", src.size(), " values, this model needs ",
                x.size());
  auto h = host_mirror(x);
  for (size_t i = 0; i < src.size(); ++i) h.data()[i] = src[i];
  copy_to_device(x, h);
}
}  // namespace

StepperState TimeStepper::state() const {
  StepperState st;
  st.t = t_;
  st.steps = steps_;
  st.penalty = rho_;
  st.q = to_host_vector(q_);
  st.v = to_host_vector(v_);
  st.dv = to_host_vector(dv_);
  st.lambda = to_host_vector(lambda_);
  for (const Vec3& x : presc_last_)
    for (int a = 0; a < 3; ++a) st.prescribed_last.push_back(x[a]);
  st.reuse_next = reuse_next_;
  st.have_factor = have_factor_;
  st.factor_h = factor_h_;
  st.factor_t = factor_t_;
  if (have_factor_) {
    st.factor_q = to_host_vector(factor_q_);
    st.factor_v = to_host_vector(factor_v_);
    st.factor_lambda = to_host_vector(factor_lambda_);
  }
  st.accel_valid = ga_started_;
  if (ga_started_) {
    st.a = to_host_vector(acc_);
    st.abar = to_host_vector(abar_);
  }
  return st;
}

void TimeStepper::restore(const StepperState& st) {
  if (st.prescribed_last.size() != 3 * presc_last_.size())
    throw_error("TimeStepper::restore: ", st.prescribed_last.size() / 3,
                " prescribed coefficients saved, this model has ", presc_last_.size());
  if (st.penalty != rho_)
    throw_error("TimeStepper::restore: saved penalty ", st.penalty, " differs from this stepper's ",
                rho_, " (different dt or settings)");
  from_host_vector(st.q, q_, "q");
  from_host_vector(st.v, v_, "v");
  from_host_vector(st.dv, dv_, "dv");
  from_host_vector(st.lambda, lambda_, "lambda");
  for (size_t k = 0; k < presc_last_.size(); ++k)
    for (int a = 0; a < 3; ++a) presc_last_[k][a] = st.prescribed_last[3 * k + a];
  presc_next_ = presc_last_;
  t_ = st.t;
  steps_ = st.steps;
  reuse_next_ = st.reuse_next;
  have_factor_ = false;
  factor_h_ = st.factor_h;
  factor_t_ = st.factor_t;
  // Generalized alpha: a_n, abar_n (a state without them, or a
  // backward-Euler one, starts up again with a backward-Euler step).
  const bool ga = s_.integrator == TimeIntegrator::generalized_alpha;
  ga_started_ = ga && st.accel_valid;
  if (ga_started_) {
    from_host_vector(st.a, acc_, "a");
    from_host_vector(st.abar, abar_, "abar");
  }
  // A saved factorization was assembled by a generalized-alpha step exactly
  // when a_n was valid (the start-up step drops its backward-Euler factors).
  ga_step_ = ga_started_;
  if (st.have_factor && s_.inner_solver == InnerSolver::newton) {
    // Reassemble at exactly the saved point and refactor: the factors equal
    // the saved run's (Serial assembly and factorization are deterministic).
    from_host_vector(st.factor_q, qt_, "factor_q");
    from_host_vector(st.factor_v, vt_, "factor_v");
    from_host_vector(st.factor_lambda, lambda_t_, "factor_lambda");
    device_copy(factor_q_, qt_);
    device_copy(factor_v_, vt_);
    if (m_ > 0) device_copy(factor_lambda_, lambda_t_);
    assemble_matrix(factor_h_, factor_t_);
    solver_->set_coefficients(qt_);  // the rigid-body modes' lever arms (muelu)
    solver_->factorize(values_);
    have_factor_ = true;
  }
}

}  // namespace tlfea
