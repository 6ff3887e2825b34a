// Belos backends on Tpetra: CG (SPD), MINRES (symmetric, SPD
// preconditioner), GMRES (general), created by Belos::SolverFactory and
// preconditioned by Ifpack2 (ILU(k) "RILUK", Jacobi "RELAXATION") or MueLu
// (smoothed-aggregation AMG, its own translation unit). analyze() builds the
// Tpetra graph and the Ifpack2 symbolic phase (initialize); factorize()
// computes the preconditioner for the new values (Ifpack2 compute, MueLu
// setup); solve() iterates from x = 0 to options.tolerance (relative
// residual) and throws if it does not converge within max_iterations.
#include "backends.hpp"
#include "belos_common.hpp"
#include "muelu_preconditioner.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/view_utils.hpp"
#include "tpetra_system.hpp"

namespace tlfea::detail {
namespace {

const char* belos_name(const std::string& kind) {
  return kind == "GMRES" ? "belos-gmres" : kind == "CG" ? "belos-cg" : "belos-minres";
}

class BelosSolver final : public LinearSolver, BelosParts {
 public:
  BelosSolver(const LinearSolverOptions& options, const char* kind)
      : BelosParts(options, kind, belos_name(kind), "belos-gmres") {}

  std::string name() const override { return name_; }

  void analyze(const CrsPattern& pattern) override {
    Stopwatch t;
    factorized_ = false;
    preconditioner_ = Teuchos::null;
    ifpack2_ = Teuchos::null;
    nullspace_ = Teuchos::null;  // set_rigid_body_layout again for the new pattern
    guard("analysis", [&] {
      system_.analyze(name_.c_str(), pattern);
      std::vector<Offset> rows(static_cast<size_t>(system_.num_rows()));
      for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<Offset>(i);
      rows_ = upload_to_device<Offset>("tlfea::linalg::belos::rows", rows);
      ifpack2_ = make_ifpack2(system_.matrix(), options_);  // symbolic phase
      solver_ = make_belos_manager(options_, kind_);
    });
    stats_.analyses++;
    stats_.analyze_seconds += t.seconds();
  }

  void factorize(const DeviceView<Real*>& values) override {
    if (!system_.analyzed()) throw_error(name_, ": factorize() before analyze()");
    Stopwatch t;
    factorized_ = false;
    const auto& p = options_.preconditioner;
    system_.set_values(name_.c_str(), values, p == "ilu" || p == "jacobi");
    guard("preconditioner setup", [&] {
      if (!ifpack2_.is_null()) {
        ifpack2_->compute();  // in place: L and U keep their storage
        preconditioner_ = ifpack2_;
      } else if (p == "muelu") {
        release_preconditioner();  // the old hierarchy freed before the new one is built
        preconditioner_ = make_muelu_preconditioner(system_.matrix(), options_.symmetric,
                                                    near_nullspace(), node_coordinates());
      }
      problem_ =
          make_belos_problem(system_.matrix(), system_.x(), system_.b(), preconditioner_, kind_);
    });
    factorized_ = true;
    stats_.factorizations++;
    stats_.factorize_seconds += t.seconds();
  }

  void set_rigid_body_layout(const RigidBodyLayout& layout) override {
    set_layout(layout, system_.analyzed() ? system_.matrix()->getRowMap() : Teuchos::null, rows_);
  }
  void set_coefficients(const CoefView& q) override { set_q(q); }

  void solve(const DeviceView<Real*>& b, const DeviceView<Real*>& x) override {
    if (!factorized_) throw_error(name_, ": solve() without a successful factorize()");
    Stopwatch t;
    system_.set_rhs(name_.c_str(), b);
    system_.x()->putScalar(0.0);
    Belos::ReturnType result = Belos::Unconverged;
    guard("solve", [&] {
      problem_->setProblem(system_.x(), system_.b());
      solver_->setProblem(problem_);
      result = solver_->solve();
    });
    stats_.solve_seconds += t.seconds();
    record_belos_solve(stats_, name_, options_, *solver_, result, system_.relative_residual());
    system_.get_solution(name_.c_str(), x);
  }

 private:
  TpetraSystem system_;
  DeviceView<Offset*> rows_;  // 0, 1, ..., n - 1: the rows of the near-nullspace
};

}  // namespace

std::unique_ptr<LinearSolver> make_belos(const LinearSolverOptions& options, const char* kind) {
  return std::make_unique<BelosSolver>(options, kind);
}

}  // namespace tlfea::detail
