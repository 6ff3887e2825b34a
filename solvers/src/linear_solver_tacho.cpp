// Tacho (ShyLU_NodeTacho) backend: supernodal sparse Cholesky (SPD) or LDL^T
// with Bunch-Kaufman pivoting inside supernodes (symmetric indefinite).
// analyze() orders the graph and builds the supernodes once; factorize()
// refactorises numerically on that structure. Tacho uses dense LAPACK for
// systems under 1024 rows (its small-problem threshold).
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <Tacho_Solver.hpp>
#include <exception>
#include <vector>

#include "backends.hpp"
#include "tlfea/core/error.hpp"

namespace tlfea::detail {
namespace {

class TachoSolver final : public LinearSolver {
 public:
  using solver_type = Tacho::Solver<Real, DeviceType>;
  using tacho_device = typename solver_type::device_type;
  using size_array = Kokkos::View<Tacho::size_type*, tacho_device>;
  using ordinal_array = Kokkos::View<Tacho::ordinal_type*, tacho_device>;
  using value_array = typename solver_type::value_type_array;
  using value_matrix = typename solver_type::value_type_matrix;

  explicit TachoSolver(bool positive_definite) : positive_definite_(positive_definite) {}
  ~TachoSolver() override {
    if (analyzed_) solver_.release();
  }

  std::string name() const override { return "tacho"; }

  void analyze(const CrsPattern& pattern) override {
    Stopwatch t;
    if (analyzed_) solver_.release();
    analyzed_ = factorized_ = false;
    n_ = pattern.num_rows();
    nnz_ = pattern.nnz();
    check_length("tacho", "pattern row map", pattern.row_map.extent(0),
                 static_cast<size_t>(n_) + 1);
    // Tacho's index types (size_t row pointers) differ from the pattern's.
    auto h_row_map = Kokkos::create_mirror_view_and_copy(HostSpace(), pattern.row_map);
    auto h_entries = Kokkos::create_mirror_view_and_copy(HostSpace(), pattern.entries);
    ap_ = size_array("tlfea::solvers::tacho::ap", n_ + 1);
    aj_ = ordinal_array("tlfea::solvers::tacho::aj", nnz_);
    auto h_ap = Kokkos::create_mirror_view(ap_);
    auto h_aj = Kokkos::create_mirror_view(aj_);
    for (Ordinal i = 0; i <= n_; ++i) h_ap(i) = static_cast<Tacho::size_type>(h_row_map(i));
    for (Offset k = 0; k < nnz_; ++k) h_aj(k) = h_entries(k);
    Kokkos::deep_copy(ap_, h_ap);
    Kokkos::deep_copy(aj_, h_aj);
    ax_ = value_array("tlfea::solvers::tacho::ax", nnz_);
    b_ = value_matrix("tlfea::solvers::tacho::b", n_, 1);
    x_ = value_matrix("tlfea::solvers::tacho::x", n_, 1);
    work_ = value_matrix("tlfea::solvers::tacho::work", n_, 1);
    h_x_ = HostView<Real*>("tlfea::solvers::tacho::x_host", n_);

    solver_ = solver_type();
    solver_.setVerbose(0);
    solver_.setMatrixType(2, positive_definite_);  // 2: symmetric
    // Debian's Tacho is built without METIS and Scotch (Tacho_config.h), and
    // then its GraphTools::reorder is the identity: the natural order is
    // factorised, with near-dense fill. Give Tacho an approximate minimum
    // degree order (Amestoy, Davis, Duff 1996; Eigen's AMDOrdering) of the node
    // graph, expanded to the 3 scalar rows of each node. Tacho's convention:
    // perm(old) = new, peri(new) = old.
    const Ordinal nb = n_ / 3;
    std::vector<Eigen::Triplet<double>> node_graph;
    node_graph.reserve(static_cast<size_t>(nnz_ / 9 + 1));
    for (Ordinal r = 0; r < n_; r += 3)
      for (Offset k = h_row_map(r); k < h_row_map(r + 1); ++k)
        if (h_entries(k) % 3 == 0) node_graph.emplace_back(r / 3, h_entries(k) / 3, 1.0);
    Eigen::SparseMatrix<double, Eigen::ColMajor, int> g(nb, nb);
    g.setFromTriplets(node_graph.begin(), node_graph.end());
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> order;
    Eigen::AMDOrdering<int>()(g, order);  // order.indices()(old node) = new node
    ordinal_array perm("tlfea::solvers::tacho::perm", n_), peri("tlfea::solvers::tacho::peri", n_);
    auto h_perm = Kokkos::create_mirror_view(perm);
    auto h_peri = Kokkos::create_mirror_view(peri);
    for (Ordinal b = 0; b < nb; ++b)
      for (int a = 0; a < 3; ++a) {
        h_perm(3 * b + a) = 3 * order.indices()(b) + a;
        h_peri(3 * order.indices()(b) + a) = 3 * b + a;
      }
    Kokkos::deep_copy(perm, h_perm);
    Kokkos::deep_copy(peri, h_peri);
    run("analysis", [&] {
      solver_.analyze(n_, ap_, aj_, perm, peri);
      solver_.initialize();
    });
    analyzed_ = true;
    stats_.analyses++;
    stats_.analyze_seconds += t.seconds();
  }

  void factorize(const DeviceView<Real*>& values) override {
    if (!analyzed_) throw_error("tacho: factorize() before analyze()");
    check_length("tacho", "values", values.extent(0), static_cast<size_t>(nnz_));
    Stopwatch t;
    factorized_ = false;
    Kokkos::deep_copy(ax_, values);
    run("numeric factorization", [&] { solver_.factorize(ax_); });
    factorized_ = true;
    stats_.factorizations++;
    stats_.factorize_seconds += t.seconds();
  }

  void solve(const DeviceView<Real*>& b, const DeviceView<Real*>& x) override {
    if (!factorized_) throw_error("tacho: solve() without a successful factorize()");
    check_length("tacho", "right-hand side", b.extent(0), static_cast<size_t>(n_));
    check_length("tacho", "solution", x.extent(0), static_cast<size_t>(n_));
    Stopwatch t;
    Kokkos::deep_copy(Kokkos::subview(b_, Kokkos::ALL(), 0), b);
    run("solve", [&] { solver_.solve(x_, b_, work_); });
    Kokkos::deep_copy(h_x_, Kokkos::subview(x_, Kokkos::ALL(), 0));
    check_solution("tacho", h_x_, n_);
    Kokkos::deep_copy(x, h_x_);
    stats_.solves++;
    stats_.solve_seconds += t.seconds();
  }

 private:
  // Tacho reports LAPACK failures (potrf / sytrf: zero or, for Cholesky,
  // negative pivot) as std::runtime_error.
  template <class F>
  void run(const char* phase, F&& f) {
    try {
      f();
    } catch (const std::exception& e) {
      throw_error("tacho: ", phase, " failed: ", e.what(),
                  positive_definite_
                      ? " (Cholesky: the matrix is singular or not positive definite)"
                      : " (LDL^T: the matrix is singular)");
    }
  }

  bool positive_definite_;
  bool analyzed_ = false, factorized_ = false;
  Ordinal n_ = 0;
  Offset nnz_ = 0;
  solver_type solver_;
  size_array ap_;
  ordinal_array aj_;
  value_array ax_;
  value_matrix b_, x_, work_;
  HostView<Real*> h_x_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_tacho(const LinearSolverOptions& options) {
  if (!options.symmetric)
    throw_error("tacho needs a symmetric matrix (options.symmetric = false); use klu2 or eigen-lu");
  return std::make_unique<TachoSolver>(options.positive_definite);
}

}  // namespace tlfea::detail
