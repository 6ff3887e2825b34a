// Amesos2 KLU2 backend on a Tpetra::CrsMatrix: sparse LU with partial
// pivoting (BTF + AMD/COLAMD ordering). symbolicFactorization() once per
// pattern; numericFactorization() re-reads the matrix values each call.
#include <Amesos2.hpp>
#include <exception>

#include "backends.hpp"
#include "tlfea/core/error.hpp"
#include "tpetra_system.hpp"

namespace tlfea::detail {
namespace {

class Klu2Solver final : public LinearSolver {
 public:
  std::string name() const override { return "klu2"; }

  void analyze(const CrsPattern& pattern) override {
    Stopwatch t;
    factorized_ = false;
    solver_ = Teuchos::null;
    system_.analyze("klu2", pattern);  // zero values: KLU's analysis uses the structure only
    try {
      solver_ = Amesos2::create<TpetraMatrix, TpetraVector>("KLU2", system_.matrix(), system_.x(),
                                                            system_.b());
      solver_->symbolicFactorization();
    } catch (const std::exception& e) {
      throw_error("klu2: symbolic factorization failed (", e.what(), ")");
    }
    stats_.analyses++;
    stats_.analyze_seconds += t.seconds();
  }

  void factorize(const DeviceView<Real*>& values) override {
    Stopwatch t;
    factorized_ = false;
    if (solver_.is_null()) throw_error("klu2: factorize() before analyze()");
    system_.set_values("klu2", values, false);
    try {
      solver_->numericFactorization();
    } catch (const std::exception& e) {
      throw_error("klu2: numeric factorization failed, the matrix is singular (", e.what(), ")");
    }
    factorized_ = true;
    stats_.factorizations++;
    stats_.factorize_seconds += t.seconds();
  }

  void solve(const DeviceView<Real*>& b, const DeviceView<Real*>& x) override {
    if (!factorized_) throw_error("klu2: solve() without a successful factorize()");
    Stopwatch t;
    system_.set_rhs("klu2", b);
    try {
      solver_->solve();
    } catch (const std::exception& e) {
      throw_error("klu2: solve failed (", e.what(), ")");
    }
    system_.get_solution("klu2", x);
    stats_.solves++;
    stats_.solve_seconds += t.seconds();
  }

 private:
  TpetraSystem system_;
  Teuchos::RCP<Amesos2::Solver<TpetraMatrix, TpetraVector>> solver_;
  bool factorized_ = false;
};

}  // namespace

std::unique_ptr<LinearSolver> make_klu2(const LinearSolverOptions&) {
  return std::make_unique<Klu2Solver>();
}

}  // namespace tlfea::detail
