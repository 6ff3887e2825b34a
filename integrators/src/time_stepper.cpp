// TLFEA: the augmented-Lagrangian TimeStepper (docs/theory.md §6), backward
// Euler or generalized alpha (§6.12): setup, residual, Newton matrix, the
// Newton inner solver, step halving
// (the AdamW inner solver: adamw.cpp; the GMRES rescue of stalled Jacobian
// reuse: stale_krylov.cpp).
#include "tlfea/integrators/time_stepper.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <utility>
#include <vector>

#include "adamw.hpp"
#include "analysis_policies.hpp"
#include "distribution.hpp"
#include "rigid_body_layout.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/host_sync.hpp"
#include "tlfea/core/view_utils.hpp"
#include "tlfea/integrators/contact_component.hpp"

namespace tlfea {
namespace {

using Range = Kokkos::RangePolicy<ExecSpace>;

// The entries of TimeStepper::reads_: CombineResidual's sums, the static
// line search's slope dv . g at the start of the search, and the kept
// factors' rigid-director staleness at the iterate (rigid_reuse.cpp).
constexpr unsigned kResidualSums = 11;
constexpr unsigned kSlopeStart = kResidualSums;
constexpr unsigned kRigidStale = kResidualSums + 1;
constexpr unsigned kReads = kResidualSums + 2;

// out = x + a y (coefficient vectors).
struct Axpy {
  CoefView out, x, y;
  Real a;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    for (int c = 0; c < 3; ++c) out(k, c) = x(k, c) + a * y(k, c);
  }
};

// out *= a
struct Scale {
  CoefView out;
  Real a;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    for (int c = 0; c < 3; ++c) out(k, c) *= a;
  }
};

struct Negate {
  CoefView out, in;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    for (int c = 0; c < 3; ++c) out(k, c) = -in(k, c);
  }
};

// y = a (M (x) I3) x with the scalar mass M stored per block (node level):
// 3x fewer entries than the scalar CRS and no index arithmetic.
struct BlockMassProduct {
  DeviceView<Offset*> row_map;
  DeviceView<Ordinal*> cols;
  DeviceView<Real*> mass;
  CoefView x, y;
  Real a;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal r) const {
    Real s0 = 0.0, s1 = 0.0, s2 = 0.0;
    for (Offset k = row_map(r); k < row_map(r + 1); ++k) {
      const Ordinal c = cols(k);
      const Real m = mass(k);
      s0 += m * x(c, 0);
      s1 += m * x(c, 1);
      s2 += m * x(c, 2);
    }
    y(r, 0) = a * s0;
    y(r, 1) = a * s1;
    y(r, 2) = a * s2;
  }
};

// Elimination of clamped dofs: zero their rows and columns, unit diagonal.
struct ZeroOffsets {
  DeviceView<Real*> values;
  DeviceView<Offset*> offsets;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const { values(offsets(k)) = 0.0; }
};
struct UnitDiagonal {
  DeviceView<Real*> values;
  DeviceView<Offset*> offsets;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const { values(offsets(k)) = 1.0; }
};
struct ZeroDofs {
  CoefView g;
  DeviceView<Ordinal*> dofs;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    g(dofs(k) / 3, dofs(k) % 3) = 0.0;
  }
};

// y = h (lambda + rho c).
struct Multiplier {
  DeviceView<Real*> y, lambda, c;
  Real h, rho;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    y(i) = h * (lambda(i) + rho * c(i));
  }
};
struct UpdateLambda {
  DeviceView<Real*> lambda, c;
  Real rho;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const { lambda(i) += rho * c(i); }
};

// The residual from its terms, at free dofs (0 at clamped and prescribed
// ones):  g = [M (v - v_n) / h] + f_int - f_ext - f_step + f_c,
// with, in the same pass, |g|^2, the squared norms of the five terms (over
// all dofs: at a clamped dof f_int is the reaction, part of the force level),
// dv . g (the directional derivative of the static line search), the
// squared norms of dv, v and q for the update tests and the number of
// non-finite entries of dv (the check of the linear solution that produced
// it): everything the Newton iteration decides on, in one reduction whose
// result stays on the device until residual() reads it (with the static
// line search's initial slope) in one host synchronisation.
struct CombineResidual {
  using value_type = Real[];
  using size_type = Ordinal;
  CoefView g, inertia, fint, fext, fstep, fc, dv, v, q;
  DeviceView<unsigned char*> free;
  bool dynamic, has_step, has_c;
  unsigned value_count = kResidualSums;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k, value_type s) const {
    for (int a = 0; a < 3; ++a) {
      const Real in = dynamic ? inertia(k, a) : 0.0;
      const Real fi = fint(k, a), fe = fext(k, a);
      const Real fs = has_step ? fstep(k, a) : 0.0;
      const Real c = has_c ? fc(k, a) : 0.0;
      const Real gi = free(3 * k + a) ? in + fi - fe - fs + c : 0.0;
      g(k, a) = gi;
      s[0] += gi * gi;
      s[1] += in * in;
      s[2] += fi * fi;
      s[3] += fe * fe;
      s[4] += fs * fs;
      s[5] += c * c;
      s[6] += dv(k, a) * gi;
      s[7] += dv(k, a) * dv(k, a);
      s[8] += v(k, a) * v(k, a);
      s[9] += q(k, a) * q(k, a);
      const Real d = dv(k, a);
      if (!(d - d == 0.0)) s[10] += 1.0;  // NaN or +-inf: d - d is NaN
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type s) const {
    for (unsigned i = 0; i < kResidualSums; ++i) s[i] = 0.0;
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type d, const volatile value_type s) const {
    for (unsigned i = 0; i < kResidualSums; ++i) d[i] += s[i];
  }
  KOKKOS_INLINE_FUNCTION void join(value_type d, const value_type s) const {
    for (unsigned i = 0; i < kResidualSums; ++i) d[i] += s[i];
  }
};

// Generalized alpha (docs/theory.md §6.12), the affine parts of q(v) and a(v)
// for the unknown v = v_{n+1}:
//   qhat = q_n + h (1 - beta / gamma) v_n + h^2 (1/2 - beta / gamma) abar_n,
//   ahat = [alpha_m abar_n - alpha_f a_n
//           - (1 - alpha_m) (v_n + h (1 - gamma) abar_n) / (h gamma)] / (1 - alpha_f).
struct GeneralizedAlphaPredict {
  CoefView qhat, ahat, q, v, a, abar;
  Real h, am, af, gamma, beta;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    for (int c = 0; c < 3; ++c) {
      qhat(k, c) =
          q(k, c) + h * (1.0 - beta / gamma) * v(k, c) + h * h * (0.5 - beta / gamma) * abar(k, c);
      ahat(k, c) = (am * abar(k, c) - af * a(k, c) -
                    (1.0 - am) * (v(k, c) + h * (1.0 - gamma) * abar(k, c)) / (h * gamma)) /
                   (1.0 - af);
    }
  }
};

// Generalized alpha, at commit (v = v_{n+1}, a = a_n, abar = abar_n on entry):
//   abar_{n+1} = (v_{n+1} - v_n - h (1 - gamma) abar_n) / (h gamma),
//   a_{n+1} = ((1 - alpha_m) abar_{n+1} + alpha_m abar_n - alpha_f a_n) / (1 - alpha_f)
// (a_{n+1} = c_a v_{n+1} + ahat, the acceleration in the converged residual).
struct GeneralizedAlphaCommit {
  CoefView a, abar, v, vn;
  Real h, am, af, gamma;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    for (int c = 0; c < 3; ++c) {
      const Real ab = (v(k, c) - vn(k, c) - h * (1.0 - gamma) * abar(k, c)) / (h * gamma);
      a(k, c) = ((1.0 - am) * ab + am * abar(k, c) - af * a(k, c)) / (1.0 - af);
      abar(k, c) = ab;
    }
  }
};

// Start-up (the backward-Euler first step): a_1 = abar_1 = (v_1 - v_0) / h.
struct StartAcceleration {
  CoefView a, abar, v, vn;
  Real h;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    for (int c = 0; c < 3; ++c) a(k, c) = abar(k, c) = (v(k, c) - vn(k, c)) / h;
  }
};

// Generalized alpha at prescribed dofs: v = (x_{n+1} - qhat) / c_q, so that
// q(v) = x_{n+1}; x_{n+1} = q_n + h v_BE with v_BE = (x_{n+1} - x_n) / h as
// set_prescribed_velocities put it.
struct PrescribedGeneralizedAlpha {
  CoefView v, q, qhat;
  DeviceView<Ordinal*> dofs;
  Real h, cq;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    const Ordinal i = dofs(k) / 3, c = dofs(k) % 3;
    v(i, c) = (q(i, c) + h * v(i, c) - qhat(i, c)) / cq;
  }
};

struct SetDofs {
  CoefView x;
  DeviceView<Ordinal*> dofs;
  DeviceView<Real*> vals;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    x(dofs(k) / 3, dofs(k) % 3) = vals(k);
  }
};

double wall() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

namespace {

// The scene/Python names of each mode enum, in one table per enum; the
// first name of a table is also what a value outside it prints as.
template <class E>
struct ModeName {
  E value;
  const char* name;
};
constexpr ModeName<TimeIntegrator> kIntegrators[] = {
    {TimeIntegrator::backward_euler, "backward_euler"},
    {TimeIntegrator::generalized_alpha, "generalized_alpha"}};
constexpr ModeName<Analysis> kAnalyses[] = {{Analysis::dynamic, "dynamic"},
                                            {Analysis::static_equilibrium, "static"}};
constexpr ModeName<InnerSolver> kInnerSolvers[] = {{InnerSolver::newton, "newton"},
                                                   {InnerSolver::adamw, "adamw"}};
constexpr ModeName<PartitionMethod> kPartitions[] = {{PartitionMethod::automatic, "default"},
                                                     {PartitionMethod::metis, "metis"},
                                                     {PartitionMethod::range, "range"}};

template <class E, size_t N>
const char* mode_name(const ModeName<E> (&table)[N], E value) {
  for (const ModeName<E>& m : table)
    if (m.value == value) return m.name;
  return table[0].name;
}

// The value named `name`; Error "unknown <what> 'name' (use a, b or c)".
template <class E, size_t N>
E parse_mode(const ModeName<E> (&table)[N], const std::string& name, const char* what) {
  std::string names;
  for (size_t i = 0; i < N; ++i) {
    if (name == table[i].name) return table[i].value;
    names += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(table[i].name);
  }
  throw_error("unknown ", what, " '", name, "' (use ", names, ")");
}

}  // namespace

const char* time_integrator_name(TimeIntegrator i) { return mode_name(kIntegrators, i); }
TimeIntegrator parse_time_integrator(const std::string& name) {
  return parse_mode(kIntegrators, name, "time integrator");
}
const char* analysis_name(Analysis a) { return mode_name(kAnalyses, a); }
Analysis parse_analysis(const std::string& name) { return parse_mode(kAnalyses, name, "analysis"); }
const char* inner_solver_name(InnerSolver s) { return mode_name(kInnerSolvers, s); }
InnerSolver parse_inner_solver(const std::string& name) {
  return parse_mode(kInnerSolvers, name, "inner solver");
}
const char* partition_method_name(PartitionMethod m) { return mode_name(kPartitions, m); }
PartitionMethod parse_partition_method(const std::string& name) {
  return parse_mode(kPartitions, name, "partition");
}

namespace detail {

void DynamicInertia::describe_failure(std::ostream& os, long step, Real t, Real, int retries,
                                      Real h) const {
  os << "time step " << step << " (t = " << t << " s) did not converge after " << retries
     << " step halvings (last h = " << h << " s";
}

}  // namespace detail

TimeStepper::TimeStepper(Model& model, const StepperSettings& settings)
    : model_(model),
      s_(settings),
      time_loads_(std::make_unique<detail::TimeLoads>()),
      load_(time_loads_.get()) {
  if (!(s_.dt > 0)) throw_error("time step dt must be positive, got ", s_.dt);
  model_.finalize();
  dist_ = detail::Distribution::make(model_, s_.partition);  // nullptr on one rank
  // Every block this stepper evaluates builds its quadrature data now, not
  // in the first step (ElementBlockBase::prepare; on several ranks the
  // rank's own blocks, the whole ones of the split bodies never).
  for (int b = 0; b < model_.num_bodies(); ++b)
    if (const ElementBlockBase* block = elements(b)) block->prepare();
  const Ordinal n = model_.num_coefficients();
  // The pattern's structure (row map, block structure): its scalar column
  // indices are built only for a solver on one rank (analyze, below).
  const CrsPattern& p = model_.block_pattern();
  q_ = CoefView("tlfea::integrators::q", n);
  v_ = CoefView("tlfea::integrators::v", n);
  qt_ = CoefView("tlfea::integrators::q_trial", n);
  vt_ = CoefView("tlfea::integrators::v_trial", n);
  dv_ = CoefView("tlfea::integrators::dv", n);
  g_ = CoefView("tlfea::integrators::g", n);
  gt_ = CoefView("tlfea::integrators::g_trial", n);
  work_ = CoefView("tlfea::integrators::work", n);
  fext_ = CoefView("tlfea::integrators::f_ext", n);
  v_base_ = CoefView("tlfea::integrators::v_base", n);
  inertia_ = CoefView("tlfea::integrators::inertia_force", n);
  fint_ = CoefView("tlfea::integrators::internal_force", n);
  factor_q_ = CoefView("tlfea::integrators::factor_q", n);
  factor_v_ = CoefView("tlfea::integrators::factor_v", n);
  reads_ = DeviceView<Real*>("tlfea::integrators::newton_reads", kReads);
  reads_host_ = host_mirror(reads_);
  device_copy(q_, model_.reference());
  m_ = model_.has_constraints() ? model_.constraints().num_rows() : 0;
  lambda_ = DeviceView<Real*>("tlfea::integrators::lambda", m_);
  lambda_t_ = DeviceView<Real*>("tlfea::integrators::lambda_trial", m_);
  factor_lambda_ = DeviceView<Real*>("tlfea::integrators::factor_lambda", m_);
  c_ = DeviceView<Real*>("tlfea::integrators::c", m_);
  y_ = DeviceView<Real*>("tlfea::integrators::y", m_);
  if (m_ > 0) fc_ = CoefView("tlfea::integrators::constraint_force", n);
  if (s_.analysis == Analysis::static_equilibrium) {
    analysis_ = std::make_unique<detail::StaticEquilibrium>(n, s_, model_);
  } else if (s_.analysis == Analysis::dynamic) {
    analysis_ = std::make_unique<detail::DynamicInertia>();
  } else {
    throw_error("StepperSettings: unknown analysis");
  }
  if (s_.integrator == TimeIntegrator::generalized_alpha) {
    if (!(s_.rho_inf >= 0.0 && s_.rho_inf <= 1.0))
      throw_error("StepperSettings: rho_inf must be in [0, 1], got ", s_.rho_inf);
    // Chung & Hulbert 1993, eq. 25.
    ga_alpha_m_ = (2.0 * s_.rho_inf - 1.0) / (s_.rho_inf + 1.0);
    ga_alpha_f_ = s_.rho_inf / (s_.rho_inf + 1.0);
    ga_gamma_ = 0.5 + ga_alpha_f_ - ga_alpha_m_;
    ga_beta_ = 0.25 * (ga_gamma_ + 0.5) * (ga_gamma_ + 0.5);
    acc_ = CoefView("tlfea::integrators::acceleration", n);
    abar_ = CoefView("tlfea::integrators::pseudo_acceleration", n);
    qhat_ = CoefView("tlfea::integrators::q_predictor", n);
    ahat_ = CoefView("tlfea::integrators::a_predictor", n);
  } else if (s_.integrator != TimeIntegrator::backward_euler) {
    throw_error("StepperSettings: unknown time integrator");
  }
  if (s_.krylov_iterations < 0 || s_.krylov_iterations > kMaxKrylovIterations)
    throw_error("StepperSettings: krylov_iterations must be in [0, ", kMaxKrylovIterations,
                "], got ", s_.krylov_iterations);
  if (s_.krylov_factor_age < 1)
    throw_error("StepperSettings: krylov_factor_age must be >= 1, got ", s_.krylov_factor_age);
  if (analysis_->reuses_factors() && s_.reuse_jacobian && s_.inner_solver == InnerSolver::newton &&
      s_.krylov_iterations > 0) {
    krylov_m_ = s_.krylov_iterations;
    // Several ranks: the basis split by the coefficients each rank owns
    // (stale_krylov.cpp), so that its 2 m + 2 vectors are not replicated.
    Ordinal nk = n;
    if (dist_) {
      const std::vector<Ordinal> owned = dist_->owned_coefficients();
      krylov_owned_ = upload_to_device<Ordinal>("tlfea::integrators::krylov_owned", owned);
      nk = static_cast<Ordinal>(owned.size());
      krylov_in_ = CoefView("tlfea::integrators::krylov_in", n);
      krylov_out_ = CoefView("tlfea::integrators::krylov_out", n);
    } else {
      krylov_g_ = CoefView("tlfea::integrators::krylov_g", n);
    }
    for (int j = 0; j <= s_.krylov_iterations; ++j)
      krylov_v_.push_back(CoefView("tlfea::integrators::krylov_v", nk));
    for (int j = 0; j < s_.krylov_iterations; ++j)
      krylov_z_.push_back(CoefView("tlfea::integrators::krylov_z", nk));
    krylov_w_ = CoefView("tlfea::integrators::krylov_w", nk);
  }
  if (!(s_.residual_force_tol >= 0) || !(s_.residual_rel_tol >= 0) || !(s_.residual_abs_tol >= 0) ||
      !(s_.step_tol >= 0) || !(s_.position_tol >= 0))
    throw_error("StepperSettings: convergence tolerances must be >= 0");

  // Penalty: rho = penalty_scale * max diag(M) / h^3 unless given.
  // Read in place on the CPU backends (no pattern-sized copies at setup);
  // the handles to the pattern's block columns and the mass are local to
  // their blocks, so that releasing them below frees them.
  Real mmax = 0.0;
  {
    auto brm = host_view(model_.block_row_map());
    auto bc = host_view(model_.block_columns());
    auto mv = host_view(model_.block_mass());
    for (Ordinal b = 0; b < p.num_block_rows; ++b)
      for (Offset i = brm(b); i < brm(b + 1); ++i)
        if (bc(i) == b) mmax = std::max(mmax, mv(i));
  }
  rho_ = s_.penalty > 0 ? s_.penalty : s_.penalty_scale * mmax / (s_.dt * s_.dt * s_.dt);
  // Generalized alpha with the automatic penalty: rho m c_a / (h c_q) keeps
  // h c_q rho C^T C at penalty_scale times the inertia c_a M (backward Euler:
  // c_a = 1 / h, c_q = h); c_a h^2 / c_q = (1 - alpha_m) / ((1 - alpha_f) beta).
  if (s_.integrator == TimeIntegrator::generalized_alpha && !(s_.penalty > 0))
    ga_penalty_factor_ = (1.0 - ga_alpha_m_) / ((1.0 - ga_alpha_f_) * ga_beta_);

  // Clamped coefficients: their rows and columns are removed from the system
  // (identity rows, zero residual), so v stays at its prescribed value 0.
  std::vector<char> fixed(p.num_rows(), 0);
  std::vector<Ordinal> dofs;
  std::vector<Ordinal> presc;
  for (const auto& pr : model_.prescribed()) {
    for (int a = 0; a < 3; ++a) presc.push_back(3 * pr.coefficient + a);
    presc_last_.push_back(pr.reference);
  }
  presc_next_ = presc_last_;
  for (Ordinal c : model_.clamped_coefficients())
    for (int a = 0; a < 3; ++a) {
      dofs.push_back(3 * c + a);
      fixed[3 * c + a] = 1;
    }
  // Single fixed components (Model::fix_components): held like clamped dofs
  // (none of a prescribed coefficient; each dof once).
  for (Ordinal d : model_.fixed_components())
    if (!fixed[d]) dofs.push_back(d);
  dofs.insert(dofs.end(), presc.begin(), presc.end());
  for (Ordinal d : dofs) fixed[d] = 1;
  {
    free_ = DeviceView<unsigned char*>("tlfea::integrators::free_dofs", p.num_rows());
    auto h = host_mirror(free_);
    for (Ordinal r = 0; r < p.num_rows(); ++r) h(r) = fixed[r] ? 0 : 1;
    copy_to_device(free_, h);
  }
  // Offsets in the values' layout; several ranks: the rows this rank holds,
  // and the unit diagonal added by the rank owning the row.
  std::vector<Offset> zero, diag;
  {
    const HostBlockPattern hp(p);
    const RowLayout& layout = model_.row_layout();
    auto shift = host_view(layout.shift);
    for (Ordinal r = 0; r < p.num_rows(); ++r) {
      const Offset sh = layout.whole() ? 0 : shift(r);
      if (sh == RowLayout::kAbsent) continue;
      hp.for_each_entry(r, [&](Offset k, Ordinal c) {
        if (!fixed[r] && !fixed[c]) return;
        if (c != r)
          zero.push_back(k + sh);
        else if (!dist_ || dist_->owns_row(r))
          diag.push_back(k + sh);
      });
    }
  }
  fixed_dofs_ = upload_to_device<Ordinal>("tlfea::integrators::fixed_dofs", dofs);
  fixed_zero_ = upload_to_device<Offset>("tlfea::integrators::fixed_zero", zero);
  fixed_diag_ = upload_to_device<Offset>("tlfea::integrators::fixed_diag", diag);
  presc_dofs_ = upload_to_device<Ordinal>("tlfea::integrators::prescribed_dofs", presc);
  presc_vel_ = DeviceView<Real*>("tlfea::integrators::prescribed_velocity", presc.size());
  presc_vel_host_ = host_mirror(presc_vel_);

  if (s_.inner_solver == InnerSolver::adamw) {
    adamw_ = std::make_unique<detail::AdamW>(n, s_);
  } else if (s_.inner_solver != InnerSolver::newton) {
    throw_error("StepperSettings: unknown inner solver");
  }
  LinearSolverOptions lo = s_.linear;
  if (s_.dp1_curvature) lo.positive_definite = false;
  // Follower loads (pressure on the deformed faces, torques on rigid bodies)
  // add a load stiffness without symmetry to the Newton matrix, so every
  // backend is told the matrix is not symmetric whatever the settings say:
  // the default backend is then an LU (klu2, eigen-lu, cuDSS's general
  // type), and one that needs symmetry (tacho, eigen-ldlt, CG) is refused
  // with its message instead of factoring one triangle of the matrix.
  if (model_.has_follower_loads()) lo.symmetric = false;
  solver_ = dist_ ? dist_->make_solver(lo) : make_linear_solver(lo);
  // The residual's reduction counts the non-finite entries of each Newton
  // update (inner_newton), so the backends whose solution stays on the
  // device skip a check (a host synchronisation) of their own.
  solver_->set_solution_check(false);
  // On several ranks the distributed solver cuts its rank's rows from the
  // block structure; a solver on one rank takes the scalar column indices,
  // built now (Model::pattern).
  solver_->analyze(dist_ ? p : model_.pattern());
  // The Newton matrix values, in Model::row_layout (several ranks: only
  // this rank's rows, set by dist_): the solver's own array where it keeps
  // its matrix's values in that layout (dist-cg / dist-gmres on several
  // ranks: assembled in place, held once), else an array of the stepper's
  // that factorize() copies from.
  values_ = solver_->matrix_storage();
  if (values_.extent(0) == 0) {
    values_ = DeviceView<Real*>("tlfea::integrators::newton_values", model_.row_layout().size(p));
  } else if (values_.extent(0) != static_cast<size_t>(model_.row_layout().size(p))) {
    throw_error("TimeStepper: the linear solver ", solver_->name(), " keeps ", values_.extent(0),
                " matrix values, the rank's layout holds ", model_.row_layout().size(p));
  }
  solver_->set_rigid_body_layout(detail::rigid_body_layout(model_, free_));  // for muelu
  // The reference positions first: kk's coarse level forms its aggregates
  // from them here, at the setup (each factorization sets the current ones).
  solver_->set_coefficients(model_.reference());
  if (analysis_->penalty_from_stiffness() && m_ > 0 && !(s_.penalty > 0)) init_static_penalty();
  init_rigid_reuse();
  // Several ranks: the pattern's block columns were needed only for the
  // setup above (the solver keeps its rank's rows), and the block mass is
  // kept only in the rows this rank owns (its products summed over the
  // ranks in residual()); the model restores both when next needed after
  // dist_ ends (Model::restore_when_needed).
  if (dist_) {
    model_.release_pattern_entries();
    const detail::Distribution* d = dist_.get();
    model_.release_mass_rows(dist_->owned_coefficients(),
                             [d](Real* x, int count) { d->sum_scalars(x, count); });
  }
  // Scalar mass per block (M (x) I3: Model::block_mass) and the block
  // columns (Model::block_row_map, block_columns).
  mass_row_map_ = model_.block_row_map();
  mass_cols_ = model_.block_columns();
  mass_block_ = model_.block_mass();
}

// On several ranks dist_, the first member, is destroyed last, after every
// other member has freed its memory: it leaves the model's whole structure
// to be rebuilt at the model's next use that needs it.
TimeStepper::~TimeStepper() = default;

std::size_t TimeStepper::newton_value_bytes() const {
  // The address ranges of the arrays, each byte counted once.
  std::vector<std::pair<const char*, const char*>> ranges;
  auto add = [&](const DeviceView<Real*>& v) {
    const char* b = reinterpret_cast<const char*>(v.data());
    if (v.extent(0) > 0) ranges.emplace_back(b, b + v.extent(0) * sizeof(Real));
  };
  add(values_);
  if (solver_)
    for (const DeviceView<Real*>& v : solver_->matrix_value_arrays()) add(v);
  std::sort(ranges.begin(), ranges.end());
  std::size_t bytes = 0;
  const char* end = nullptr;
  for (const auto& [b, e] : ranges) {
    const char* from = end && end > b ? end : b;
    if (e > from) bytes += static_cast<std::size_t>(e - from);
    if (!end || e > end) end = e;
  }
  return bytes;
}

const CoefView& TimeStepper::velocities() const { return analysis_->velocity(v_); }
bool TimeStepper::is_static() const { return !analysis_->has_inertia(); }

PartitionInfo TimeStepper::partition_info() const {
  if (dist_) return dist_->info();
  PartitionInfo info;
  long long ne = 0;
  for (int b = 0; b < model_.num_bodies(); ++b)
    if (!model_.is_rigid(b)) ne += model_.block(b).num_elements();
  info.elements_min = info.elements_max = ne;
  info.matrix_values_max = info.matrix_values_total = values_.extent(0);
  return info;
}

int TimeStepper::partition_rank() const { return dist_ ? dist_->rank() : 0; }
int TimeStepper::partition_size() const { return dist_ ? dist_->size() : 1; }
std::vector<int> TimeStepper::element_ranks(int b) const {
  return dist_ ? dist_->element_ranks(b) : std::vector<int>();
}

const ElementBlockBase* TimeStepper::elements(int b) const {
  return dist_ ? dist_->block(b) : &model_.block(b);
}

// v at prescribed dofs: (x(t_{n+1}, X) - x_n) / h, x_n the position last imposed.
void TimeStepper::set_prescribed_velocities(Real h, Real t1) {
  const auto& pr = model_.prescribed();
  if (pr.empty()) return;
  for (size_t k = 0; k < pr.size(); ++k) {
    presc_next_[k] = pr[k].position(t1, pr[k].reference);
    for (int a = 0; a < 3; ++a)
      presc_vel_host_(3 * k + a) = (presc_next_[k][a] - presc_last_[k][a]) / h;
  }
  copy_to_device(presc_vel_, presc_vel_host_);
  Kokkos::parallel_for("tlfea::integrators::prescribed_velocity", Range(0, presc_dofs_.extent(0)),
                       SetDofs{vt_, presc_dofs_, presc_vel_});
}

void TimeStepper::set_velocities(const CoefView& v) {
  ga_started_ = false;  // a_n no longer matches v_n: the next step starts up again
  device_copy(v_, v);
  Kokkos::parallel_for("tlfea::integrators::clamp", Range(0, fixed_dofs_.extent(0)),
                       ZeroDofs{v_, fixed_dofs_});
}

void TimeStepper::ga_predict(Real h) {
  Kokkos::parallel_for("tlfea::integrators::generalized_alpha_predict", Range(0, q_.extent(0)),
                       GeneralizedAlphaPredict{qhat_, ahat_, q_, v_, acc_, abar_, h, ga_alpha_m_,
                                               ga_alpha_f_, ga_gamma_, ga_beta_});
}

Real TimeStepper::residual(Real h, Real t1) {
  const double t0 = wall();
  if (ga_step_) {
    // q(v) = qhat + c_q v, inertia M a(v) = M (c_a v + ahat) (§6.12)
    Kokkos::parallel_for("tlfea::integrators::trial_positions", Range(0, q_.extent(0)),
                         Axpy{qt_, qhat_, vt_, position_coefficient(h)});
    Kokkos::parallel_for("tlfea::integrators::acceleration", Range(0, q_.extent(0)),
                         Axpy{work_, ahat_, vt_, acceleration_coefficient(h)});
    Kokkos::parallel_for(
        "tlfea::integrators::inertia", Range(0, q_.extent(0)),
        BlockMassProduct{mass_row_map_, mass_cols_, mass_block_, work_, inertia_, 1.0});
  } else {
    // q(v) = q_n + h v
    Kokkos::parallel_for("tlfea::integrators::trial_positions", Range(0, q_.extent(0)),
                         Axpy{qt_, q_, vt_, h});
  }
  if (analysis_->has_inertia() && !ga_step_) {
    // M (v - v_n) / h
    Kokkos::parallel_for("tlfea::integrators::velocity_change", Range(0, q_.extent(0)),
                         Axpy{work_, vt_, v_, -1.0});
    Kokkos::parallel_for(
        "tlfea::integrators::inertia", Range(0, q_.extent(0)),
        BlockMassProduct{mass_row_map_, mass_cols_, mass_block_, work_, inertia_, 1.0 / h});
  }
  // f_int (static: at zero velocity, no viscous force), f_ext
  fill(fint_, 0.0);
  const CoefView& vel = analysis_->velocity(vt_);
  for (int b = 0; b < model_.num_bodies(); ++b)
    if (const ElementBlockBase* e = elements(b)) e->internal_force(qt_, vel, fint_);
  // Several ranks: the internal force of the rank's elements and the
  // inertia of the rows it owns (the mass rows it holds; 0 elsewhere) summed
  // over the ranks; every other term is computed whole by every rank.
  if (dist_) {
    if (analysis_->has_inertia())
      dist_->sum(fint_, inertia_);
    else
      dist_->sum(fint_);
  }
  // Loads, drivers and prescribed motions at the load control's time (0
  // while settling, with the loads scaled by the settle ramp).
  const Real tl = load_->load_time(t1), load_scale = load_->load_scale();
  model_.external_load(tl, qt_, fext_);
  if (load_scale != 1.0)
    Kokkos::parallel_for("tlfea::integrators::load_scale", Range(0, q_.extent(0)),
                         Scale{fext_, load_scale});
  // Force elements (spring-dampers) at (q(v), v): implicit, not scaled by
  // the settle ramp (they are part of the model, like f_int).
  if (model_.has_force_elements()) model_.force_element_load(qt_, vel, fext_);
  // f_c = h C_q^T (lambda + rho c) (both integrators: lambda keeps its
  // meaning, h C_q^T lambda the constraint force)
  if (m_ > 0) {
    ConstraintSet& cs = model_.constraints();
    cs.evaluate(qt_, tl, c_);
    Kokkos::parallel_for("tlfea::integrators::multiplier", Range(0, m_),
                         Multiplier{y_, lambda_t_, c_, h, step_penalty()});
    fill(fc_, 0.0);
    cs.apply_jacobian_transpose(qt_, tl, y_, fc_);
  }
  const bool dynamic = analysis_->has_inertia();
  reduce_on_device("tlfea::integrators::residual", Range(0, q_.extent(0)),
                   CombineResidual{gt_, inertia_, fint_, fext_, fstep_, fc_, dv_, vt_, qt_, free_,
                                   dynamic, !step_forces_.empty(), m_ > 0},
                   Kokkos::subview(reads_, std::make_pair(0u, kResidualSums)));
  const bool rigid = reduce_rigid_staleness(h, kRigidStale);
  copy_to_host(reads_host_, reads_);  // the one host synchronisation of residual()
  rigid_stale_valid_ = rigid;
  rigid_stale_error_ = rigid ? reads_host_(kRigidStale) : 0.0;
  const auto& sums = reads_host_;
  Real f2 = 0.0;
  for (int i = 1; i <= 5; ++i) f2 = std::max(f2, sums(i));
  force_scale_ = std::sqrt(f2);
  slope_ = sums(6);
  dv_norm_ = std::sqrt(sums(7));
  v_norm_ = std::sqrt(sums(8));
  q_norm_ = std::sqrt(sums(9));
  dv_nonfinite_ = static_cast<long long>(sums(10));
  residual_time_ += wall() - t0;
  return std::sqrt(sums(0));
}

bool TimeStepper::residual_converged(Real r, Real r0) const {
  return r <= s_.residual_abs_tol || r <= s_.residual_force_tol * force_scale_ ||
         r <= s_.residual_rel_tol * r0;
}

void TimeStepper::assemble_matrix(Real h, Real t1) {
  // dg/dv = M / h + h K + D (dynamic), h K (static: no inertia, no viscosity);
  // generalized alpha: c_a M + c_q K + D, with c_q for h in the load and
  // constraint terms (position_coefficient is h in a backward-Euler step).
  // Several ranks: the replicated terms (mass, load stiffness, constraints),
  // which every rank computes alike, go in first and are then kept only in
  // the rows this rank owns; this rank's element tangents are added after
  // (distribution.hpp). One rank: mass, elements, loads, constraints.
  const Real cq = position_coefficient(h);
  model_.scaled_mass(analysis_->mass_coefficient(acceleration_coefficient(h)), values_);
  const CoefView& vel = analysis_->velocity(vt_);
  const Real alpha_d = analysis_->viscous_coefficient();
  auto add_elements = [&] {
    for (int b = 0; b < model_.num_bodies(); ++b)
      if (const ElementBlockBase* e = elements(b)) e->tangent(qt_, vel, cq, alpha_d, values_);
  };
  if (!dist_) add_elements();
  // g contains -f_ext(q(v)): dg/dv gains -c_q d f_ext / d q.
  const Real tl = load_->load_time(t1);
  if (model_.has_follower_loads())
    model_.external_load_tangent(tl, qt_, -cq * load_->load_scale(), values_);
  // Force elements: -c_q df/dq - df/dv (dq/dv = c_q; static: -h df/dq at rest).
  if (model_.has_force_elements()) model_.force_element_tangent(qt_, vel, cq, alpha_d, values_);
  if (m_ > 0) {
    ConstraintSet& cs = model_.constraints();
    cs.assemble_gauss_newton(qt_, tl, h * cq * step_penalty(), values_);
    if (s_.dp1_curvature) {
      // eta = lambda + rho c = y / h
      cs.evaluate(qt_, tl, c_);
      Kokkos::parallel_for("tlfea::integrators::eta", Range(0, m_),
                           Multiplier{y_, lambda_t_, c_, 1.0, step_penalty()});
      cs.assemble_dp1_hessian(qt_, y_, h * cq, values_);
    }
  }
  if (dist_) {
    dist_->zero_unowned_rows(values_);
    add_elements();
  }
  Kokkos::parallel_for("tlfea::integrators::eliminate", Range(0, fixed_zero_.extent(0)),
                       ZeroOffsets{values_, fixed_zero_});
  Kokkos::parallel_for("tlfea::integrators::eliminate_diagonal", Range(0, fixed_diag_.extent(0)),
                       UnitDiagonal{values_, fixed_diag_});
}

// A linear solution with non-finite entries (counted by the residual's
// reduction after the solve, in place of the backend's own check): the
// step fails as the backend's check would have failed it, with its message.
bool TimeStepper::solution_failure(StepReport& rep) const {
  std::ostringstream os;
  os << solver_->name() << ": " << dv_nonfinite_
     << " solution entries are not finite (singular or badly conditioned matrix)";
  rep.linear_failure = os.str();
  return false;
}

bool TimeStepper::inner_newton(Real h, Real t1, StepReport& rep, bool& reuse_ok, bool& last_fast) {
  Real r = residual(h, t1), r0 = r;
  bool converged = std::isfinite(r) && residual_converged(r, r0);
  rep.force_scale = force_scale_;
  int it = 0, stale_retries = 0;
  // stalled: the last iteration on kept factors did not contract by
  // reuse_ratio; the next one then tries krylov_correction once before
  // refactoring (docs/theory.md §6.6).
  bool stalled = false, krylov_failed = false;
  // Inexact Newton (Eisenstat & Walker, SIAM J. Sci. Comput. 17, 1996,
  // choice 2): an iterative linear solve stops at relative residual
  //   eta_k = gamma (|g_k| / |g_{k-1}|)^alpha, gamma = 0.9, alpha = 2,
  // eta_0 = 0.5, kept >= gamma eta_{k-1}^alpha when that exceeds 0.1 (so eta
  // does not drop abruptly), and with Kelley's terminal safeguard
  //   eta_k = min(0.9, max(eta_k, 0.5 tau / |g_k|)),
  // tau the Newton threshold (Kelley, Iterative Methods for Linear and
  // Nonlinear Equations, SIAM 1995, eq. 6.20): no solve is asked for more
  // than the step needs to meet Newton's own test, and the quadratic
  // convergence of Newton is kept near the solution. Direct solvers ignore
  // it; the converged step is the same within the Newton tolerance.
  Real eta = 0.5, r_last_solve = -1.0;
  while (!converged && it < s_.max_newton) {
    // Host synchronisations of one iteration (docs/guide/gpu.md): the read
    // of each trial residual's reduction (with it, the norms, the static
    // line search's slopes and the check of the linear solution), and what
    // the linear solver needs (SyncPhase::factorize, SyncPhase::solve).
    const SyncPhaseScope phase(SyncPhase::newton);
    if (!std::isfinite(r)) return false;
    const bool krylov = stalled && !krylov_failed && krylov_m_ > 0 && have_factor_ &&
                        factor_h_ == h && t1 - factor_t_ < (s_.krylov_factor_age - 0.5) * h;
    // Static: full Newton. Along a load path the tangent changes with the
    // load (bending stiffens the membrane), and reused factors converge
    // linearly (ratio ~0.2 on the elastica: 12 iterations instead of 4).
    // Kept factors also go stale when rigid bodies have turned since their
    // assembly (rigid_reuse.cpp).
    const bool fresh =
        !krylov && (!analysis_->reuses_factors() || !(reuse_ok && have_factor_ && factor_h_ == h) ||
                    rigid_factors_stale(h));
    if (fresh) {
      const double ta = wall();
      assemble_matrix(h, t1);
      if (s_.timing_fences) fence("tlfea::integrators::assembly_timing");
      const double tf = wall();
      rep.assembly_s += tf - ta;
      solver_->set_coefficients(qt_);  // the rigid-body modes' lever arms (muelu)
      try {
        SyncPhaseScope phase(SyncPhase::factorize);
        solver_->factorize(values_);
      } catch (const Error& e) {
        // A failed factorization (singular matrix, preconditioner breakdown)
        // fails the step, which step() retries with half the step.
        rep.linear_failure = e.what();
        return false;
      }
      rep.factorization_s += wall() - tf;
      have_factor_ = true;
      factor_h_ = h;
      factor_t_ = t1;
      device_copy(factor_q_, qt_);  // the assembly point, for restart
      device_copy(factor_v_, vt_);
      if (m_ > 0) device_copy(factor_lambda_, lambda_t_);
      ++rep.factorizations;
    }
    // Solve J dv = -g.
    device_copy(v_base_, vt_);
    Kokkos::parallel_for("tlfea::integrators::rhs", Range(0, g_.extent(0)), Negate{g_, gt_});
    if (krylov) {
      // A tenth of the Newton test's threshold, so that the step converges.
      const Real target = std::max(
          {s_.residual_abs_tol, s_.residual_rel_tol * r0, s_.residual_force_tol * force_scale_});
      if (!krylov_correction(h, t1, 0.1 * target, rep)) {
        krylov_failed = true;  // refactor
        reuse_ok = false;
        r = residual(h, t1);  // g at v_base_ again (overwritten by the products)
        continue;
      }
    } else {
      const Real target = std::max(
          {s_.residual_abs_tol, s_.residual_rel_tol * r0, s_.residual_force_tol * force_scale_});
      if (r_last_solve > 0.0) {
        const Real ratio = r / r_last_solve, previous = 0.9 * eta * eta;
        eta = 0.9 * ratio * ratio;
        if (previous > 0.1) eta = std::max(eta, previous);
      }
      eta = std::min(0.9, std::max(eta, 0.5 * target / r));
      r_last_solve = r;
      solver_->set_forcing_term(eta);
      const double ts = wall();
      try {
        SyncPhaseScope phase(SyncPhase::solve);
        solver_->solve(flat(g_), flat(dv_));
      } catch (const Error& e) {
        // An iterative solve that did not reach its tolerance, or a
        // non-finite solution: the step fails and step() retries it with
        // half the step (smaller h: better conditioned M / h^2 + K).
        rep.linear_failure = e.what();
        return false;
      }
      if (s_.timing_fences) fence("tlfea::integrators::solve_timing");
      rep.solve_s += wall() - ts;
    }
    Real alpha = 1.0, r_new = 0.0;
    bool decreased = false;
    if (analysis_->energy_line_search()) {
      // Static: line search on the directional derivative s(alpha) = dv .
      // g(v + alpha dv) of the potential energy along dv (Crisfield 1991,
      // vol. 1 §9.3; Matthies & Strang 1979): accept alpha once |s(alpha)|
      // <= 0.8 |s(0)|, else regula falsi on the bracket [0, alpha]. Unlike
      // |g|, s is not fooled by the membrane residual of a bending
      // predictor, so slender structures take full Newton steps.
      // s(0) stays on the device until residual() reads it with |g|.
      reduce_on_device("tlfea::integrators::slope", Range(0, dv_.extent(0)), CoefDot{dv_, gt_},
                       Kokkos::subview(reads_, kSlopeStart));
      Kokkos::parallel_for("tlfea::integrators::update", Range(0, g_.extent(0)),
                           Axpy{vt_, v_base_, dv_, alpha});
      r_new = residual(h, t1);
      const Real s0 = reads_host_(kSlopeStart);
      if (!krylov && dv_nonfinite_ > 0) return solution_failure(rep);
      for (int ls = 0; ls < 8 && !std::isfinite(r_new); ++ls) {  // overflow: shorten
        alpha *= 0.5;
        Kokkos::parallel_for("tlfea::integrators::update", Range(0, g_.extent(0)),
                             Axpy{vt_, v_base_, dv_, alpha});
        r_new = residual(h, t1);
      }
      Real s1 = slope_;
      if (s_.line_search && s0 < 0.0 && std::isfinite(r_new) && s1 > 0.8 * std::abs(s0)) {
        Real a_lo = 0.0, s_lo = s0, a_hi = alpha, s_hi = s1;
        for (int ls = 0; ls < 6; ++ls) {
          alpha = a_lo - s_lo * (a_hi - a_lo) / (s_hi - s_lo);
          alpha =
              std::min(std::max(alpha, a_lo + 0.05 * (a_hi - a_lo)), a_hi - 0.05 * (a_hi - a_lo));
          Kokkos::parallel_for("tlfea::integrators::update", Range(0, g_.extent(0)),
                               Axpy{vt_, v_base_, dv_, alpha});
          r_new = residual(h, t1);
          s1 = slope_;
          if (!std::isfinite(r_new) || std::abs(s1) <= 0.8 * std::abs(s0)) break;
          if (s1 > 0.0) {
            a_hi = alpha;
            s_hi = s1;
          } else {
            a_lo = alpha;
            s_lo = s1;
          }
        }
      }
      decreased = std::isfinite(r_new) && (r_new <= r || std::abs(s1) <= 0.8 * std::abs(s0));
    } else {
      // Backtracking line search on |g|.
      for (int ls = 0; ls < 8; ++ls, alpha *= 0.5) {
        Kokkos::parallel_for("tlfea::integrators::update", Range(0, g_.extent(0)),
                             Axpy{vt_, v_base_, dv_, alpha});
        r_new = residual(h, t1);
        if (ls == 0 && !krylov && dv_nonfinite_ > 0) return solution_failure(rep);
        decreased = std::isfinite(r_new) && r_new <= (1.0 - 1e-4 * alpha) * r;
        if (!s_.line_search || decreased) break;
      }
      if (!s_.line_search || decreased) {
        // alpha is the step taken
      } else if (fresh) {
        // No trial lowered |g| with a fresh matrix: |g| is a poor merit
        // function here (thin structures); take the full Newton step.
        alpha = 1.0;
        Kokkos::parallel_for("tlfea::integrators::update", Range(0, g_.extent(0)),
                             Axpy{vt_, v_base_, dv_, alpha});
        r_new = residual(h, t1);
      } else {
        alpha *= 2.0;  // the last trial taken
      }
    }
    if (!decreased && !fresh && stale_retries++ < 2) {
      // A stale factorization gave no descent: undo, refactor, retry.
      device_copy(vt_, v_base_);
      r = residual(h, t1);
      reuse_ok = false;
      if (krylov) krylov_failed = true;
      continue;
    }
    if (!std::isfinite(r_new)) return false;
    ++it;
    ++rep.newton_iterations;
    rep.residual_history.push_back(r_new);
    rep.force_scale = force_scale_;
    // The norms of the last residual evaluation, which was at the iterate
    // taken (every branch above ends with residual() there).
    const Real dvnorm = dv_norm_, vnorm = v_norm_, qnorm = q_norm_;
    // The velocity criterion only counts for a step that reduced |g| (a
    // failed line search takes tiny steps without converging); the position
    // criterion takes the full Newton correction, whatever the line search
    // did: below position_tol |q| nothing more can be resolved.
    converged = residual_converged(r_new, r0) ||
                (decreased && alpha * dvnorm <= s_.step_tol * vnorm) ||
                h * dvnorm <= s_.position_tol * qnorm;
    // The factors stay for the next iteration (and step) while |g| contracts
    // by reuse_ratio, or when they converged the solve within two
    // iterations: a last iterate near the tolerance contracts less, and is
    // no sign that the factors are stale.
    last_fast = r_new < s_.reuse_ratio * r || (converged && it <= 2);
    reuse_ok = s_.reuse_jacobian && last_fast;
    stalled = !fresh && !krylov && !last_fast && !converged;
    r = r_new;
  }
  return converged;
}

bool TimeStepper::advance(Real h, StepReport& rep) {
  const Real t1 = t_ + h;
  // Generalized alpha once a_n is known; its first step (and settle's) is
  // backward Euler (docs/theory.md §6.12).
  const bool ga =
      s_.integrator == TimeIntegrator::generalized_alpha && load_->allows_generalized_alpha();
  ga_step_ = ga && ga_started_;
  if (ga_step_) ga_predict(h);
  device_copy(vt_, v_);  // initial guess: previous velocity
  set_prescribed_velocities(h, load_->load_time(t1));
  if (ga_step_ && presc_dofs_.extent(0) > 0)
    Kokkos::parallel_for(
        "tlfea::integrators::prescribed_generalized_alpha", Range(0, presc_dofs_.extent(0)),
        PrescribedGeneralizedAlpha{vt_, q_, qhat_, presc_dofs_, h, position_coefficient(h)});
  if (!step_forces_.empty()) {
    const double tc = wall();
    fill(fstep_, 0.0);
    for (const auto& f : step_forces_) f->add(t_, q_, v_, h, fstep_);
    if (s_.timing_fences) fence("tlfea::integrators::step_force_timing");
    rep.step_force_s += wall() - tc;
  }
  if (m_ > 0) device_copy(lambda_t_, lambda_);  // warm start
  // Jacobian reuse: the previous factorization serves while Newton contracts
  // by reuse_ratio per iteration, across iterations and steps of equal h.
  bool reuse_ok = s_.reuse_jacobian && reuse_next_ && have_factor_ && factor_h_ == h;
  bool last_fast = false;
  for (int outer = 0; outer < std::max(1, s_.max_outer); ++outer) {
    ++rep.outer_iterations;
    const bool converged =
        s_.inner_solver == InnerSolver::adamw
            ? adamw_->solve(
                  vt_, gt_, [&] { return residual(h, t1); },
                  [&](Real r, Real r0) { return residual_converged(r, r0); }, rep)
            : inner_newton(h, t1, rep, reuse_ok, last_fast);
    if (!converged) return false;
    if (m_ == 0) {
      rep.constraint_violation = 0.0;
      break;
    }
    ConstraintSet& cs = model_.constraints();
    cs.evaluate(qt_, load_->load_time(t1), c_);
    rep.constraint_violation = cs.violation_max(c_);
    Kokkos::parallel_for("tlfea::integrators::update_multipliers", Range(0, m_),
                         UpdateLambda{lambda_t_, c_, step_penalty()});
    if (rep.constraint_violation <= s_.constraint_tolerance) break;
    if (outer + 1 == std::max(1, s_.max_outer)) return false;
  }
  // Commit.
  if (ga_step_) {
    Kokkos::parallel_for(
        "tlfea::integrators::generalized_alpha_commit", Range(0, q_.extent(0)),
        GeneralizedAlphaCommit{acc_, abar_, vt_, v_, h, ga_alpha_m_, ga_alpha_f_, ga_gamma_});
  } else if (ga) {
    Kokkos::parallel_for("tlfea::integrators::generalized_alpha_start", Range(0, q_.extent(0)),
                         StartAcceleration{acc_, abar_, vt_, v_, h});
    ga_started_ = true;
    // The factors are the backward-Euler matrix: the next step assembles its own.
    have_factor_ = false;
    last_fast = false;
  }
  device_copy(q_, qt_);
  device_copy(v_, vt_);
  if (m_ > 0) device_copy(lambda_, lambda_t_);
  presc_last_ = presc_next_;
  reuse_next_ = last_fast || rep.newton_iterations == 0;
  t_ = t1;
  return true;
}

void TimeStepper::add_step_force(std::shared_ptr<StepForce> force) {
  if (!force) throw_error("TimeStepper::add_step_force: no step force (null)");
  analysis_->check_step_force(force->name());
  for (const auto& f : step_forces_)
    if (f == force)
      throw_error("TimeStepper::add_step_force: step force '", force->name(),
                  "' was added to this stepper already");
  // Several ranks: contact split between them (each rank the contacts of
  // its own surface vertices; their forces summed like f_int).
  if (dist_)
    if (auto* c = dynamic_cast<ContactComponent*>(force.get())) {
      std::vector<std::vector<int>> ranks(model_.num_bodies());
      for (int b = 0; b < model_.num_bodies(); ++b) ranks[b] = dist_->element_ranks(b);
      const detail::Distribution* d = dist_.get();
      c->distribute(dist_->rank(), dist_->size(), ranks, model_.num_coefficients(),
                    [d](const CoefView& x) { d->sum(x); });
    }
  // Their sum's vector, made with the first (a run without them holds none).
  if (fstep_.extent(0) == 0)
    fstep_ = CoefView("tlfea::integrators::step_force", model_.num_coefficients());
  step_forces_.push_back(std::move(force));
}

void TimeStepper::check_step_forces() const {
  for (const std::string& name : model_.required_step_forces()) {
    bool found = false;
    for (const auto& f : step_forces_) found = found || f->name() == name;
    if (!found)
      throw_error("TimeStepper: the model needs the step force '", name,
                  "' (a scene with contact requires its contact), which this stepper was not "
                  "given: add it with add_step_force (Scene::attach_contact(stepper)), or run "
                  "the scene through tlfea::Simulation, which does");
  }
}

StepReport TimeStepper::step() {
  check_step_forces();
  StepReport rep;
  residual_time_ = 0.0;
  const Real t_end = t_ + s_.dt;
  Real h = s_.dt;
  int halvings = 0;
  while (t_ < t_end - 1e-12 * s_.dt) {
    h = std::min(h, t_end - t_);
    if (advance(h, rep)) continue;
    have_factor_ = false;
    reuse_next_ = false;
    if (++halvings > s_.max_retries) {
      std::ostringstream os;
      analysis_->describe_failure(os, steps_ + 1, t_, t_end, s_.max_retries, h);
      os << ", last |g| = " << (rep.residual_history.empty() ? 0.0 : rep.residual_history.back())
         << " N, force scale " << rep.force_scale << " N); state kept at the last converged step";
      if (!rep.linear_failure.empty()) os << "; last linear-solver failure: " << rep.linear_failure;
      throw Error(os.str());
    }
    h *= 0.5;
    rep.retries = halvings;
  }
  ++steps_;
  rep.converged = true;
  rep.assembly_s += residual_time_;
  return rep;
}

}  // namespace tlfea
