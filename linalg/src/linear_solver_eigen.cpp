// Eigen backends: host reference solvers, built in every configuration.
// SimplicialLDLT (symmetric, indefinite allowed: LDL^T with AMD ordering and
// no pivoting, so it needs nonzero leading pivots) and SparseLU (general).
// analyzePattern once per pattern, factorize per call.
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <vector>

#include "backends.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea::detail {
namespace {

using EigenMatrix = Eigen::SparseMatrix<Real, Eigen::ColMajor, int>;

// The CRS matrix copied into Eigen's column-major storage. The structure is
// built once; csr_to_csc_ maps each CRS value to its slot in the CSC values.
class EigenCopy {
 public:
  void analyze(const char* backend, const CrsPattern& pattern) {
    n_ = pattern.num_rows();
    nnz_ = pattern.nnz();
    auto row_map = to_host(pattern.row_map);
    auto entries = to_host(pattern.entries);
    check_length(backend, "pattern row map", row_map.extent(0), static_cast<size_t>(n_) + 1);
    std::vector<Eigen::Triplet<Real, int>> triplets;
    triplets.reserve(nnz_);
    for (Ordinal i = 0; i < n_; ++i)
      for (Offset k = row_map(i); k < row_map(i + 1); ++k)
        triplets.emplace_back(i, entries(k), 1.0);
    matrix_.resize(n_, n_);
    matrix_.setFromTriplets(triplets.begin(), triplets.end());
    matrix_.makeCompressed();
    if (matrix_.nonZeros() != nnz_)
      throw_error(backend, ": the CRS pattern has repeated column indices");
    // Rows are visited in increasing order, so within column j they arrive in
    // the sorted order of Eigen's inner indices.
    std::vector<int> next(matrix_.outerIndexPtr(), matrix_.outerIndexPtr() + n_);
    csr_to_csc_.resize(nnz_);
    for (Ordinal i = 0; i < n_; ++i)
      for (Offset k = row_map(i); k < row_map(i + 1); ++k) csr_to_csc_[k] = next[entries(k)]++;
    h_values_ = HostView<Real*>("tlfea::linalg::eigen::values", nnz_);
    h_b_ = HostView<Real*>("tlfea::linalg::eigen::b", n_);
    h_x_ = HostView<Real*>("tlfea::linalg::eigen::x", n_);
  }

  void load(const char* backend, const DeviceView<Real*>& values) {
    if (n_ == 0 && nnz_ == 0) throw_error(backend, ": factorize() before analyze()");
    check_length(backend, "values", values.extent(0), static_cast<size_t>(nnz_));
    copy_to_host(h_values_, values);
    Real* v = matrix_.valuePtr();
    for (Offset k = 0; k < nnz_; ++k) v[csr_to_csc_[k]] = h_values_(k);
  }

  template <class Factorization>
  void solve(const char* backend, const Factorization& f, const DeviceView<Real*>& b,
             const DeviceView<Real*>& x) {
    check_length(backend, "right-hand side", b.extent(0), static_cast<size_t>(n_));
    check_length(backend, "solution", x.extent(0), static_cast<size_t>(n_));
    copy_to_host(h_b_, b);
    Eigen::Map<const Eigen::VectorXd> eb(h_b_.data(), n_);
    Eigen::Map<Eigen::VectorXd> ex(h_x_.data(), n_);
    ex = f.solve(eb);
    check_solution(backend, h_x_, n_);
    copy_to_device(x, h_x_);
  }

  const EigenMatrix& matrix() const { return matrix_; }

 private:
  Ordinal n_ = 0;
  Offset nnz_ = 0;
  EigenMatrix matrix_;
  std::vector<int> csr_to_csc_;
  HostView<Real*> h_values_, h_b_, h_x_;
};

class EigenLdlt final : public LinearSolver {
 public:
  std::string name() const override { return "eigen-ldlt"; }
  void analyze(const CrsPattern& pattern) override {
    Stopwatch t;
    copy_.analyze("eigen-ldlt", pattern);
    ldlt_.analyzePattern(copy_.matrix());
    analyzed_ = true;
    factorized_ = false;
    stats_.analyses++;
    stats_.analyze_seconds += t.seconds();
  }
  void factorize(const DeviceView<Real*>& values) override {
    if (!analyzed_) throw_error("eigen-ldlt: factorize() before analyze()");
    Stopwatch t;
    factorized_ = false;
    copy_.load("eigen-ldlt", values);
    ldlt_.factorize(copy_.matrix());
    if (ldlt_.info() != Eigen::Success)
      throw_error(
          "eigen-ldlt: numeric factorization failed (zero pivot: the matrix is singular,"
          " or needs pivoting; try eigen-lu or tacho)");
    factorized_ = true;
    stats_.factorizations++;
    stats_.factorize_seconds += t.seconds();
  }
  void solve(const DeviceView<Real*>& b, const DeviceView<Real*>& x) override {
    if (!factorized_) throw_error("eigen-ldlt: solve() without a successful factorize()");
    Stopwatch t;
    copy_.solve("eigen-ldlt", ldlt_, b, x);
    stats_.solves++;
    stats_.solve_seconds += t.seconds();
  }

 private:
  EigenCopy copy_;
  // Lower triangle used; AMD fill-reducing ordering.
  Eigen::SimplicialLDLT<EigenMatrix, Eigen::Lower> ldlt_;
  bool analyzed_ = false, factorized_ = false;
};

class EigenLu final : public LinearSolver {
 public:
  std::string name() const override { return "eigen-lu"; }
  void analyze(const CrsPattern& pattern) override {
    Stopwatch t;
    copy_.analyze("eigen-lu", pattern);
    lu_.analyzePattern(copy_.matrix());
    analyzed_ = true;
    factorized_ = false;
    stats_.analyses++;
    stats_.analyze_seconds += t.seconds();
  }
  void factorize(const DeviceView<Real*>& values) override {
    if (!analyzed_) throw_error("eigen-lu: factorize() before analyze()");
    Stopwatch t;
    factorized_ = false;
    copy_.load("eigen-lu", values);
    lu_.factorize(copy_.matrix());
    if (lu_.info() != Eigen::Success)
      throw_error("eigen-lu: numeric factorization failed, the matrix is singular (",
                  lu_.lastErrorMessage(), ")");
    factorized_ = true;
    stats_.factorizations++;
    stats_.factorize_seconds += t.seconds();
  }
  void solve(const DeviceView<Real*>& b, const DeviceView<Real*>& x) override {
    if (!factorized_) throw_error("eigen-lu: solve() without a successful factorize()");
    Stopwatch t;
    copy_.solve("eigen-lu", lu_, b, x);
    stats_.solves++;
    stats_.solve_seconds += t.seconds();
  }

 private:
  EigenCopy copy_;
  Eigen::SparseLU<EigenMatrix, Eigen::COLAMDOrdering<int>> lu_;
  bool analyzed_ = false, factorized_ = false;
};

}  // namespace

std::unique_ptr<LinearSolver> make_eigen_ldlt(const LinearSolverOptions& options) {
  if (!options.symmetric)
    throw_error("eigen-ldlt needs a symmetric matrix (options.symmetric = false); use eigen-lu");
  return std::make_unique<EigenLdlt>();
}

std::unique_ptr<LinearSolver> make_eigen_lu(const LinearSolverOptions&) {
  return std::make_unique<EigenLu>();
}

}  // namespace tlfea::detail
