// TLFEA: the velocity-level backward-Euler step with an augmented-Lagrangian
// outer loop (docs/theory.md §6.1-6.3; the loops: §6.5):
//   q(v) = q_n + h v,
//   g(v, lambda) = M (v - v_n)/h + f_int(q(v), v) - f_ext
//                  + h C_q^T (lambda + rho c(q(v), t_{n+1})) = 0,
//   dg/dv = M/h + h K + D + h^2 rho C_q^T C_q [+ h^2 sum_i eta_i grad^2 c_i],
// Newton on the fixed-sparsity matrix for v, then lambda <- lambda + rho c,
// until the weighted constraint violation is below tolerance.
//
// Static analysis (Analysis::static_equilibrium, docs/theory.md §6.10): the same loops
// on g(v, lambda) = f_int(q(v), 0) - f_ext(t_{n+1}, q(v)) + h C_q^T (lambda +
// rho c) with q(v) = q_n + h v, i.e. no inertia and no viscous force; t is a
// pseudo-time that only drives the load functions and prescribed motions, h
// is the load increment, v = (q_{n+1} - q_n) / h the increment's rate (the
// next increment starts from it: a linear predictor), and a failed increment
// is halved (max_retries times).
//
// Generalized-alpha (integrator = generalized_alpha, docs/theory.md §6.12;
// Chung & Hulbert 1993, in the form of Arnold & Bruls 2007): the same loops
// with q(v) = qhat + c_q v and the inertia M (c_a v + ahat), where qhat,
// ahat come from the carried (q_n, v_n, a_n, abar_n), c_q = h beta / gamma,
// c_a = (1 - alpha_m) / ((1 - alpha_f) h gamma); the tangent has c_a M +
// c_q K + D + h c_q rho C_q^T C_q.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "tlfea/integrators/step_force.hpp"
#include "tlfea/linalg/linear_solver.hpp"
#include "tlfea/model/model.hpp"

namespace tlfea {

namespace detail {
class Distribution;   // integrators/src/distribution.hpp
class AdamW;          // integrators/src/adamw.hpp
class InertiaPolicy;  // integrators/src/analysis_policies.hpp
class LoadControl;
class TimeLoads;
class SettleRamp;
}  // namespace detail

// The largest StepperSettings::krylov_iterations (the GMRES rescue keeps its
// Hessenberg system in fixed arrays of this size: no allocation in a step).
inline constexpr int kMaxKrylovIterations = 50;

// Time integrator of a dynamic analysis (docs/theory.md §6.12).
enum class TimeIntegrator {
  backward_euler,     // first order, numerically dissipative (the default)
  generalized_alpha,  // second order, dissipation set by rho_inf
};
// "backward_euler" / "generalized_alpha"; parse_time_integrator throws Error
// naming the accepted names for anything else.
const char* time_integrator_name(TimeIntegrator i);
TimeIntegrator parse_time_integrator(const std::string& name);

// The analysis a TimeStepper runs (the scene key `analysis`).
enum class Analysis {
  dynamic,             // time integration with inertia (the default)
  static_equilibrium,  // equilibrium per load increment (see above; no contact)
};
// "dynamic" / "static"; parse_analysis throws Error naming the accepted
// names for anything else.
const char* analysis_name(Analysis a);
Analysis parse_analysis(const std::string& name);

// The inner solver of each augmented-Lagrangian iteration (the scene key
// `solver.inner`).
enum class InnerSolver {
  newton,  // assembled matrix + linear solver (the default)
  // First order on the gradient g of the step objective: Adam moments,
  // decoupled weight decay, learning-rate decay; converged when |g| meets
  // the residual tolerances, recorded every adamw_check_every iterations.
  adamw,
};
// "newton" / "adamw"; parse_inner_solver throws Error naming the accepted
// names for anything else.
const char* inner_solver_name(InnerSolver s);
InnerSolver parse_inner_solver(const std::string& name);

// How each deformable body's elements are split between several MPI ranks
// (integrators/src/distribution.hpp; the scene key `solver.partition`).
enum class PartitionMethod {
  automatic,  // "default": metis in a build with METIS, else range
  metis,      // a k-way partition of the element graph: balanced counts, few rows shared
  range,      // contiguous ranges of the element numbering
};
// "default" / "metis" / "range"; parse_partition_method throws Error naming
// the accepted names for anything else (metis also in a build without
// METIS: a TimeStepper refuses it there, available_partitions() says which
// this build takes).
const char* partition_method_name(PartitionMethod m);
PartitionMethod parse_partition_method(const std::string& name);

struct StepperSettings {
  Real dt = 1e-3;  // time step h [s]
  // Dynamic analysis only (a static analysis and settle() use their own
  // steps; a static analysis refuses generalized_alpha).
  TimeIntegrator integrator = TimeIntegrator::backward_euler;
  // Generalized-alpha: spectral radius of the step's amplification at
  // h omega -> infinity, in [0, 1] (1: no numerical dissipation; 0: the
  // high frequencies annulled in one step). Chung & Hulbert 1993 eq. 25:
  // alpha_m = (2 rho_inf - 1) / (rho_inf + 1), alpha_f = rho_inf / (rho_inf
  // + 1), gamma = 1/2 + alpha_f - alpha_m, beta = (gamma + 1/2)^2 / 4.
  Real rho_inf = 0.8;
  // Augmented-Lagrangian penalty rho; 0 selects rho = penalty_scale * m / h^3
  // with m the largest diagonal mass entry, so h^2 rho C^T C is
  // penalty_scale times the inertia term M / h.
  Real penalty = 0.0;
  Real penalty_scale = 100.0;
  int max_outer = 30;                // augmented-Lagrangian updates per step
  Real constraint_tolerance = 1e-8;  // weighted |c| (max norm) to stop the outer loop
  int max_newton = 30;               // Newton iterations per inner solve
  // Convergence of an inner solve (docs/theory.md §6.6), any one of:
  //   |g| <= residual_force_tol * F, F = max(|M (v - v_n) / h|, |f_int|,
  //          |f_ext|, |f_step|, |h C_q^T (lambda + rho c)|) (2-norms of the
  //          terms g balances, at the same iterate: a dimensionless test, the
  //          same in any consistent units);
  //   |g| <= residual_rel_tol * |g_0|;
  //   |g| <= residual_abs_tol (N; 0: off);
  //   the update is below what the state can resolve: a step that lowered
  //   |g| with |alpha dv| <= step_tol |v|, or any step with
  //   h |dv| <= position_tol |q| (the Newton correction of the positions at
  //   the round-off level of q).
  Real residual_force_tol = 1e-8;
  Real residual_rel_tol = 1e-10;
  Real residual_abs_tol = 0.0;
  Real step_tol = 1e-10;
  Real position_tol = 1e-13;
  Analysis analysis = Analysis::dynamic;
  bool dp1_curvature = false;  // include h^2 sum eta_i grad^2 c_i (indefinite)
  bool line_search = true;     // backtracking on |g|
  bool reuse_jacobian = true;  // keep the factorization while convergence stays fast
  Real reuse_ratio = 0.25;     // refactor when |g_k+1| / |g_k| exceeds this
  // Dynamic steps with Jacobian reuse: when an iteration on the kept factors
  // stalls (|g| not below reuse_ratio of the last), first try GMRES on the
  // current Jacobian (Jacobian-vector products by differences of g) with the
  // kept factors as preconditioner, at most this many iterations, before
  // refactoring (docs/theory.md §6.6). 0: refactor at once. Only for
  // factors assembled fewer than krylov_factor_age steps ago: an older
  // factorization served long and is replaced (a new one will serve long
  // again); a young one went stale fast, and refactoring would not last.
  int krylov_iterations = 10;
  int krylov_factor_age = 10;
  int max_retries = 4;  // step halvings after a failed or NaN step
  // Fence the device before each phase's clock is read, so that
  // StepReport's assembly_s, factorization_s, solve_s and step_force_s
  // time the work itself; off, each fence is a host synchronisation fewer
  // per Newton iteration, and on a GPU the phases then time the launches
  // (docs/guide/gpu.md). The CPU backends run kernels as they are launched,
  // so there the times are the same either way.
  bool timing_fences = false;
  LinearSolverOptions linear;
  // Several MPI ranks: how each deformable body's elements are split between
  // them. Checked, but not used, on one rank.
  PartitionMethod partition = PartitionMethod::automatic;
  InnerSolver inner_solver = InnerSolver::newton;
  Real adamw_learning_rate = 1e-3;  // step in v per iteration [m/s]
  Real adamw_beta1 = 0.9, adamw_beta2 = 0.999, adamw_epsilon = 1e-12;
  Real adamw_weight_decay = 0.0;  // decoupled decay of v (0: unbiased)
  Real adamw_lr_decay = 0.999;    // learning rate multiplied by this each iteration
  int adamw_max_iterations = 20000;
  int adamw_check_every = 10;
};

struct StepReport {
  bool converged = false;
  int newton_iterations = 0;  // summed over outer iterations and substeps
  int outer_iterations = 0;
  int factorizations = 0;
  int krylov_iterations = 0;  // GMRES iterations of stalled reuse (StepperSettings)
  int retries = 0;            // step halvings needed
  // The message of the last linear-solver failure (a Krylov solve short of
  // its tolerance, a singular factorization) that failed a Newton iteration
  // of this step; step() then retried with half the step. Empty: none.
  std::string linear_failure;
  Real constraint_violation = 0.0;
  std::vector<Real> residual_history;  // |g| at every Newton iterate
  // Wall-time breakdown of the step [s] (fenced at each phase boundary when
  // StepperSettings::timing_fences is set).
  Real assembly_s = 0.0;       // residual and Newton-matrix assembly
  Real factorization_s = 0.0;  // numeric factorization / preconditioner setup
  Real solve_s = 0.0;          // linear solves
  Real step_force_s = 0.0;     // explicit per-step forces (contact)
  Real force_scale = 0.0;      // F of the last residual (N; see residual_force_tol)
};

// Everything the stepper carries from one step to the next (host copies),
// for checkpoint / restart: restore(state()) on a stepper of the same model
// continues bit-identically in Serial. The Jacobian-reuse state is the point
// (q, v, lambda, t, h) at which the current factorization was assembled;
// restore() reassembles and refactors there, so the next step reuses the
// same factors as the uninterrupted run.
struct StepperState {
  Real t = 0.0;
  long steps = 0;
  Real penalty = 0.0;                                   // rho (checked on restore)
  std::vector<Real> q, v, dv, lambda;                   // 3 n, 3 n, 3 n (last Newton update), m
  std::vector<Real> prescribed_last;                    // 3 per prescribed coefficient
  bool reuse_next = false;                              // next step starts with the old factors
  bool have_factor = false;                             // a factorization exists
  Real factor_h = 0.0, factor_t = 0.0;                  // its step size and evaluation time
  std::vector<Real> factor_q, factor_v, factor_lambda;  // its assembly point
  // Generalized-alpha: a_n and abar_n are valid (the start-up step was
  // taken), and their values (3 n each; empty when not valid).
  bool accel_valid = false;
  std::vector<Real> a, abar;
};

// Settling before t = 0 (TimeStepper::settle; docs/theory.md §6.11):
// dynamic relaxation of the initial configuration under the loads of t = 0,
// so that a body set down touching an obstacle (zero penetration) or hanging
// under its weight starts the run at rest in equilibrium instead of falling
// into its contacts or supports.
struct SettleSettings {
  Real duration = 0.0;  // pseudo-time before t = 0 [s], in steps of StepperSettings::dt
  Real ramp = -1.0;     // the loads eased in linearly over this time [s], at most 3/4 of the
                        // duration; < 0: duration / 2
  bool kinetic_damping = true;  // zero the velocities at every peak of the kinetic energy
                                // (not in the last quarter of the settle, see settle())
  Real rest_tolerance = 1e-3;   // at rest: final kinetic energy <= this x its largest value
};

struct SettleReport {
  long steps = 0;                   // settle steps taken
  int velocity_resets = 0;          // kinetic-damping resets
  long newton_iterations = 0;       // summed over the steps
  Real kinetic_energy_peak = 0.0;   // largest kinetic energy during the settle [J]
  Real kinetic_energy_final = 0.0;  // at its end, before the velocities are reset [J]
  bool at_rest = false;             // final <= rest_tolerance * peak (or nothing moved)
};

// The element partition of a run on several MPI ranks, the same on every
// rank (TimeStepper::partition_info).
struct PartitionInfo {
  int ranks = 1;
  // "metis" or "range" on several ranks ("metis and range" when some body
  // fell back to ranges: fewer than 2 elements per rank, or METIS left a
  // rank without elements), "none" on one.
  std::string method = "none";
  // Elements of the deformable bodies per rank (rigid bodies, evaluated by
  // rank 0, not counted): the fewest and the most over the ranks.
  long long elements_min = 0, elements_max = 0;
  // Scalar rows of the Newton matrix that a rank adds to but another owns
  // (their values cross to the owner at every assembly): summed over the
  // ranks, and the most on one rank. 0 on one rank.
  long long shared_rows_total = 0, shared_rows_max = 0;
  // Blocks (i, j) of the Newton matrix pattern coupling coefficients of two
  // bodies (the joints between bodies), and those of them whose i and j
  // different ranks own (lost by the block-Jacobi preconditioner; the
  // partition puts a joint's two sides on one rank where the split allows).
  // 0 on one rank.
  long long body_couplings = 0, body_couplings_cut = 0;
  // Newton matrix values a rank stores (the rows it owns or its elements
  // touch; on one rank the whole pattern): the most on one rank, and the sum
  // over the ranks (more than the pattern's count by the shared rows).
  long long matrix_values_max = 0, matrix_values_total = 0;
};

// The StepperSettings::partition names this build takes: "default",
// "metis" (with METIS), "range".
std::vector<std::string> available_partitions();

class TimeStepper {
 public:
  // Collective on MPI_COMM_WORLD when MPI runs with several ranks: every
  // rank then holds the whole model and state and evaluates its share of
  // the elements (docs/guide/mpi.md).
  TimeStepper(Model& model, const StepperSettings& settings);
  ~TimeStepper();
  // Advances by settings.dt (subdividing on failure); throws Error with the
  // step number and reason when the retries are exhausted. The state is then
  // the last converged one, never a half-updated one.
  StepReport step();
  // Settles the model before t = 0 (SettleSettings above): steps pseudo-time
  // t from -duration to 0, from rest, with every time-dependent input
  // (loads, drivers, prescribed motions, contact obstacles) held at its value
  // at t = 0, the external loads scaled by a ramp from 0 to 1 over `ramp`,
  // and (kinetic damping) the velocities zeroed whenever the kinetic energy
  // has passed a peak, except in the last quarter, where a body that still
  // slides or falls gathers kinetic energy. Ends at t = 0, step 0, with the
  // velocities set before the call (zero unless given: set_velocities);
  // positions, multipliers and the contact history (ContactForces: the
  // sticking springs carry the load) keep the settled state. Step forces see
  // the pseudo-time t < 0. Once per stepper, before its first step, in a
  // dynamic analysis; throws Error otherwise or when a settle step does not
  // converge (the stepper is then back at its initial state; a ContactForces
  // keeps the history of the failed settle: rebuild it before running). A
  // body that slides or falls is not at rest (report.at_rest).
  SettleReport settle(const SettleSettings& settings);
  Real time() const { return t_; }
  const CoefView& positions() const { return q_; }
  // Velocities; zero in a static analysis (v_ there is the increment rate).
  const CoefView& velocities() const;
  bool is_static() const;
  void set_velocities(const CoefView& v);
  Real penalty() const { return rho_; }
  const DeviceView<Real*>& multipliers() const { return lambda_; }
  long steps_taken() const { return steps_; }
  // Counts and seconds of the linear solver's analysis, factorizations, solves.
  SolverStats linear_stats() const { return solver_->stats(); }
  // The linear solver backend in use ("klu2", "cudss", ...).
  std::string linear_solver_name() const { return solver_->name(); }
  Model& model() const { return model_; }
  const StepperSettings& settings() const { return s_; }
  // How the elements are split between the MPI ranks (one rank: ranks 1,
  // method "none", every element).
  PartitionInfo partition_info() const;
  // This process's rank and the number of ranks the elements are split
  // between (0 and 1 on one rank).
  int partition_rank() const;
  int partition_size() const;
  // The rank evaluating each element of body b, the same on every rank;
  // empty when one rank holds the whole body (one rank; a rigid body, which
  // rank 0 evaluates).
  std::vector<int> element_ranks(int b) const;
  // Body b's elements this process evaluates (their element block, in the
  // body's order): all on one rank, its share on several (nullptr: none).
  const ElementBlockBase* own_elements(int b) const { return elements(b); }
  // Bytes of the stale-Jacobian Krylov correction's vectors this process
  // holds (krylov_iterations > 0 with Jacobian reuse; else 0): on one rank
  // (2 m + 3) whole vectors, on several 2 m + 2 of the rank's owned
  // coefficients and 2 whole ones (docs/guide/mpi.md, Memory).
  std::size_t krylov_bytes() const;
  // Bytes of the Newton matrix's values this process holds, each array
  // counted once: the stepper's assembled values and the linear solver's
  // matrix values (LinearSolver::matrix_value_arrays; a factorization's own
  // arrays are not counted). dist-cg / dist-gmres on several ranks keep
  // their matrices' values in the array the stepper assembles into: the
  // rank's rows once; on one rank the Tpetra matrix keeps a copy (twice the
  // pattern's values).
  std::size_t newton_value_bytes() const;

  // Explicit per-step forces (step_force.hpp; contact: ContactComponent),
  // called in the order added at the start of every step. Throws Error for
  // a null one, one added already, or any in a static analysis. A model
  // that requires a step force (Model::require_step_force: a scene with
  // contact) is stepped or settled only once one of that name was added:
  // step() and settle() throw Error naming it otherwise.
  void add_step_force(std::shared_ptr<StepForce> force);
  const std::vector<std::shared_ptr<StepForce>>& step_forces() const { return step_forces_; }

  // Restart: the carried state, and its restoration (throws Error when the
  // sizes do not match this stepper's model). restore() refactors at the
  // recorded assembly point when the saved stepper held a factorization.
  StepperState state() const;
  void restore(const StepperState& state);

 private:
  void check_step_forces() const;         // every step force the model requires is here
  bool advance(Real h, StepReport& rep);  // one step of size h from (q_, v_, lambda_)
  bool inner_newton(Real h, Real t1, StepReport& rep, bool& reuse_ok, bool& last_fast);
  bool residual_converged(Real r, Real r0) const;
  bool solution_failure(StepReport& rep) const;
  // GMRES correction of a stalled reuse iteration (stale_krylov.cpp): dv_
  // with |J dv + g| <= tol, J dv by differences of g at v_base_ (= vt_), the
  // kept factors as right preconditioner; false when not reached.
  bool krylov_correction(Real h, Real t1, Real tol, StepReport& rep);
  // Its GMRES iteration on a basis stored whole (one rank) or split by
  // owned coefficients (several ranks): Basis in stale_krylov.cpp.
  template <class Basis>
  bool krylov_gmres(Basis& basis, Real h, Real t1, Real tol, StepReport& rep);
  // Rigid bodies: whether the kept factors' rigidity penalty has turned
  // too far with the bodies since their assembly (rigid_reuse.cpp).
  void init_rigid_reuse();
  bool rigid_factors_stale(Real h) const;
  bool reduce_rigid_staleness(Real h, unsigned slot);  // into reads_(slot), for residual()
  Real residual(Real h, Real t1);  // g into gt_ at vt_, returns |g|; sets force_scale_, slope_
  void init_static_penalty();
  void assemble_matrix(Real h, Real t1);
  void set_prescribed_velocities(Real h, Real t1);
  // Generalized alpha (docs/theory.md §6.12): c_q and c_a of a step of size
  // h (h and 1 / h in a backward-Euler step), and qhat_, ahat_ for the step
  // from the committed state.
  Real position_coefficient(Real h) const { return ga_step_ ? h * ga_beta_ / ga_gamma_ : h; }
  Real acceleration_coefficient(Real h) const {
    return ga_step_ ? (1.0 - ga_alpha_m_) / ((1.0 - ga_alpha_f_) * h * ga_gamma_) : 1.0 / h;
  }
  // The penalty of this step: rho_, or in a generalized-alpha step with the
  // automatic penalty rho_ ga_penalty_factor_, so that the Gauss-Newton term
  // h c_q rho C^T C is penalty_scale times the inertia term c_a M as in a
  // backward-Euler step (docs/theory.md §6.12).
  Real step_penalty() const { return ga_step_ ? rho_ * ga_penalty_factor_ : rho_; }
  void ga_predict(Real h);
  // Body b's elements this process evaluates: all of them on one rank, its
  // share on several (nullptr: none).
  const ElementBlockBase* elements(int b) const;
  Model& model_;
  StepperSettings s_;
  // The element partition (several MPI ranks only). Declared before every
  // view, so destroyed after them all, with the model's structure left to
  // be rebuilt when next needed (Model::restore_when_needed).
  std::unique_ptr<detail::Distribution> dist_;
  std::unique_ptr<LinearSolver> solver_;
  Real rho_ = 0.0, t_ = 0.0;
  Real ga_penalty_factor_ = 1.0;
  long steps_ = 0;
  Ordinal m_ = 0;
  CoefView q_, v_, qt_, vt_, dv_, g_, gt_, work_, fext_;
  CoefView v_base_;  // line-search base point (work_ is residual() scratch)
  // The terms of g kept apart for the force scale F (residual_force_tol).
  CoefView inertia_, fint_, fc_;
  DeviceView<unsigned char*> free_;  // 1 for a free scalar dof, 0 clamped/prescribed
  // The analysis strategies (analysis_policies.hpp): analysis_, inertia and velocity
  // of the residual and tangent (dynamic or static), and the load control
  // (load_: time_loads_, or the settle's ramp while settle() runs; settle_
  // keeps the settle that has run, once per stepper).
  std::unique_ptr<detail::InertiaPolicy> analysis_;
  std::unique_ptr<detail::TimeLoads> time_loads_;
  const detail::LoadControl* load_ = nullptr;
  std::unique_ptr<detail::SettleRamp> settle_;
  Real force_scale_ = 0.0;                            // F at the last residual() call
  Real slope_ = 0.0;                                  // dv . g at the last residual() call
  Real dv_norm_ = 0.0, v_norm_ = 0.0, q_norm_ = 0.0;  // |dv|, |v|, |q| there
  long long dv_nonfinite_ = 0;                        // non-finite entries of dv there
  // The rigid directors' staleness there (rigid_factors_stale), and whether
  // it was reduced there.
  Real rigid_stale_error_ = 0.0;
  bool rigid_stale_valid_ = false;
  // What the Newton iteration reads from the device, reduced there and read
  // in one copy per residual() (its sums, the static line search's initial
  // slope, the rigid directors' staleness), and its host copy.
  DeviceView<Real*> reads_;
  typename DeviceView<Real*>::HostMirror reads_host_;
  DeviceView<Offset*> mass_row_map_;  // node-level scalar mass, for M (v - v_n)
  DeviceView<Ordinal*> mass_cols_;
  DeviceView<Real*> mass_block_;
  // Explicit per-step forces (contact), evaluated at step start; made by
  // the first add_step_force.
  CoefView fstep_;
  std::vector<std::shared_ptr<StepForce>> step_forces_;
  std::unique_ptr<detail::AdamW> adamw_;  // the AdamW inner solver (InnerSolver::adamw only)
  DeviceView<Real*> values_, lambda_, lambda_t_, c_, y_;
  DeviceView<Ordinal*> fixed_dofs_;  // scalar dofs of clamped coefficients
  DeviceView<Offset*> fixed_zero_;   // CRS offsets zeroed for elimination
  DeviceView<Offset*> fixed_diag_;   // their diagonal offsets (set to 1)
  // Prescribed coefficients: scalar dofs, their velocities for the current
  // step, and the positions last imposed (host).
  DeviceView<Ordinal*> presc_dofs_;
  DeviceView<Real*> presc_vel_;
  typename DeviceView<Real*>::HostMirror presc_vel_host_;
  std::vector<Vec3> presc_last_, presc_next_;
  bool have_factor_ = false;
  Real factor_h_ = 0.0;              // step size the factorization was built for
  Real factor_t_ = 0.0;              // evaluation time t_{n+1} of that assembly
  CoefView factor_q_, factor_v_;     // q, v at which it was assembled
  DeviceView<Real*> factor_lambda_;  // lambda (trial) at that assembly
  bool reuse_next_ = false;          // previous step converged fast: start it with the old factor
  // Director coefficients of the rigid bodies and 1 / M_kk of each
  // (rigid_factors_stale; empty without rigid bodies).
  DeviceView<Ordinal*> rigid_dirs_;
  DeviceView<Real*> rigid_dir_inv_mass_;
  // krylov_correction's Krylov basis V, preconditioned vectors Z = P V, the
  // residual at the base point and a scratch vector (empty when off). On
  // several ranks V, Z and the scratch hold only the coefficients this rank
  // owns (krylov_owned_, in coefficient order; their dot products summed
  // over the ranks), krylov_in_ / krylov_out_ the whole right-hand side and
  // solution of a solve with P, and krylov_g_ is not kept (stale_krylov.cpp).
  std::vector<CoefView> krylov_v_, krylov_z_;
  CoefView krylov_g_, krylov_w_;
  DeviceView<Ordinal*> krylov_owned_;
  CoefView krylov_in_, krylov_out_;
  int krylov_m_ = 0;  // StepperSettings::krylov_iterations when the correction is on, else 0
  Real residual_time_ = 0.0;  // accumulated assembly time of residual() calls
  // Generalized alpha: its parameters, whether a_n, abar_n are valid (false
  // until the backward-Euler start-up step, docs/theory.md §6.12), whether
  // the step under way is a generalized-alpha one, and the state vectors.
  Real ga_alpha_m_ = 0.0, ga_alpha_f_ = 0.0, ga_gamma_ = 0.5, ga_beta_ = 0.25;
  bool ga_started_ = false, ga_step_ = false;
  CoefView acc_, abar_, qhat_, ahat_;  // a_n, abar_n, and the affine parts of q(v), a(v)
};

// Static equilibrium (docs/theory.md §6.10) of `model` under its loads at
// pseudo-time t = 1, reached in `increments` equal increments of pseudo-time
// (load functions and prescribed motions are evaluated at t = i /
// increments): a TimeStepper with Analysis::static_equilibrium and dt = 1 /
// increments (the other fields of `settings` are used as given), so a
// failed increment is halved up to settings.max_retries times. Throws Error
// naming the increment when one still fails.
struct StaticSolution {
  CoefViewHost q;             // final positions
  int newton_iterations = 0;  // summed over the increments
  int factorizations = 0;
  int cuts = 0;  // increment halvings
};
StaticSolution solve_static(Model& model, int increments,
                            StepperSettings settings = StepperSettings());

}  // namespace tlfea
