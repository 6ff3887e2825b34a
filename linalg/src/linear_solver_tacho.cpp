// Tacho (ShyLU_NodeTacho) backend: supernodal sparse Cholesky (SPD) or LDL^T
// with Bunch-Kaufman pivoting inside supernodes (symmetric indefinite).
// analyze() orders the graph and builds the supernodes once; factorize()
// refactorises numerically on that structure. Tacho's default switches to
// dense LAPACK below 1024 rows (its small-problem threshold); that is turned
// off: a dense O(n^3) factor of a banded matrix is slower than the sparse
// path on these systems (docs/benchmarks.md, "Tacho on small systems").
//
// Fill-reducing order (LinearSolverOptions::ordering): Debian's Tacho is
// built without METIS and Scotch (Tacho_config.h), and then its
// GraphTools::reorder is the identity: the natural order would be factorised,
// with near-dense fill. So the order is computed here, on the node graph (one
// vertex per coefficient, its 3 scalar rows kept together):
//   "nd"  METIS_NodeND nested dissection (METIS 5.1, Karypis & Kumar 1998),
//         when built with METIS (TLFEA_HAVE_METIS); much less fill than AMD
//         on 3D meshes;
//   "amd" approximate minimum degree (Amestoy, Davis, Duff 1996; Eigen's
//         AMDOrdering).
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <Tacho_Solver.hpp>
#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#ifdef TLFEA_HAVE_METIS
#include <metis.h>
#endif

#include "backends.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea::detail {
namespace {

enum class Ordering { nd, amd };

#ifdef TLFEA_HAVE_METIS
constexpr bool kHaveNd = true;
#else
constexpr bool kHaveNd = false;
#endif

Ordering parse_ordering(const std::string& name) {
  if (name == "default") return kHaveNd ? Ordering::nd : Ordering::amd;
  if (name == "amd") return Ordering::amd;
  if (name == "nd") {
    if (!kHaveNd)
      throw_error(
          "tacho: ordering 'nd' needs METIS, and this build has none (install "
          "libmetis-dev and reconfigure); use ordering 'amd' or 'default'");
    return Ordering::nd;
  }
  throw_error("tacho: unknown ordering '", name, "' (LinearSolverOptions::ordering: ",
              kHaveNd ? "'default', 'nd', 'amd'" : "'default', 'amd'; 'nd' needs METIS", ")");
}

// Node graph of the scalar CRS pattern (block row b = scalar row 3b, block
// column = scalar column / 3), symmetrised, without self loops, as
// compressed adjacency lists (xadj, adjncy).
template <class RowMap, class Entries>
void node_graph(const RowMap& row_map, const Entries& entries, Ordinal n,
                std::vector<Ordinal>& xadj, std::vector<Ordinal>& adjncy) {
  const Ordinal nb = n / 3;
  std::vector<Ordinal> degree(nb + 1, 0);
  for (Ordinal r = 0; r < n; r += 3)
    for (Offset k = row_map(r); k < row_map(r + 1); ++k) {
      const Ordinal c = entries(k);
      if (c % 3 != 0 || c / 3 == r / 3) continue;
      degree[r / 3]++;
      degree[c / 3]++;
    }
  xadj.assign(nb + 1, 0);
  for (Ordinal b = 0; b < nb; ++b) xadj[b + 1] = xadj[b] + degree[b];
  adjncy.resize(xadj[nb]);
  std::vector<Ordinal> fill(xadj.begin(), xadj.end() - 1);
  for (Ordinal r = 0; r < n; r += 3)
    for (Offset k = row_map(r); k < row_map(r + 1); ++k) {
      const Ordinal c = entries(k);
      if (c % 3 != 0 || c / 3 == r / 3) continue;
      adjncy[fill[r / 3]++] = c / 3;
      adjncy[fill[c / 3]++] = r / 3;
    }
  // Each edge of a symmetric pattern is now listed twice: sort, deduplicate.
  Ordinal out = 0;
  for (Ordinal b = 0; b < nb; ++b) {
    const auto first = adjncy.begin() + xadj[b], last = adjncy.begin() + xadj[b + 1];
    std::sort(first, last);
    const auto end = std::unique(first, last);
    const Ordinal start = out;
    for (auto it = first; it != end; ++it) adjncy[out++] = *it;
    xadj[b] = start;
  }
  xadj[nb] = out;
  adjncy.resize(out);
}

// old_of_new[new node] = old node: the order in which the nodes are
// eliminated.
std::vector<Ordinal> node_order(Ordering ordering, const std::vector<Ordinal>& xadj,
                                const std::vector<Ordinal>& adjncy) {
  const Ordinal nb = static_cast<Ordinal>(xadj.size()) - 1;
  std::vector<Ordinal> old_of_new(nb);
  if (nb == 0) return old_of_new;
  if (ordering == Ordering::amd) {
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(adjncy.size() + nb);
    for (Ordinal b = 0; b < nb; ++b) {
      t.emplace_back(b, b, 1.0);
      for (Ordinal k = xadj[b]; k < xadj[b + 1]; ++k) t.emplace_back(b, adjncy[k], 1.0);
    }
    Eigen::SparseMatrix<double, Eigen::ColMajor, int> g(nb, nb);
    g.setFromTriplets(t.begin(), t.end());
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> order;
    // Eigen's orderings return P^-1 (SimplicialCholesky inverts it before
    // twistedBy): order.indices()(new node) = old node.
    Eigen::AMDOrdering<int>()(g, order);
    for (Ordinal b = 0; b < nb; ++b) old_of_new[b] = order.indices()(b);
    return old_of_new;
  }
#ifdef TLFEA_HAVE_METIS
  // METIS's perm(new) = old and iperm(old) = new (its manual, METIS_NodeND).
  std::vector<idx_t> mx(xadj.begin(), xadj.end()), ma(adjncy.begin(), adjncy.end());
  std::vector<idx_t> mperm(nb), miperm(nb);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  options[METIS_OPTION_SEED] = 0;  // fixed: the same order on every run
  idx_t nv = nb;
  // METIS needs a non-null adjacency array even for a graph without edges.
  if (ma.empty()) ma.push_back(0);
  const int rc =
      METIS_NodeND(&nv, mx.data(), ma.data(), nullptr, options, mperm.data(), miperm.data());
  if (rc != METIS_OK)
    throw_error("tacho: METIS_NodeND failed (status ", rc, ") on the node graph of ", nb,
                " nodes and ", adjncy.size() / 2, " edges");
  for (Ordinal b = 0; b < nb; ++b) old_of_new[b] = static_cast<Ordinal>(mperm[b]);
#endif
  return old_of_new;
}

class TachoSolver final : public LinearSolver {
 public:
  using solver_type = Tacho::Solver<Real, DeviceType>;
  using tacho_device = typename solver_type::device_type;
  using size_array = Kokkos::View<Tacho::size_type*, tacho_device>;
  using ordinal_array = Kokkos::View<Tacho::ordinal_type*, tacho_device>;
  using value_array = typename solver_type::value_type_array;
  using value_matrix = typename solver_type::value_type_matrix;

  TachoSolver(bool positive_definite, Ordering ordering)
      : positive_definite_(positive_definite), ordering_(ordering) {}
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
    auto h_row_map = to_host(pattern.row_map);
    auto h_entries = to_host(pattern.entries);
    ap_ = size_array("tlfea::linalg::tacho::ap", n_ + 1);
    aj_ = ordinal_array("tlfea::linalg::tacho::aj", nnz_);
    auto h_ap = host_mirror(ap_);
    auto h_aj = host_mirror(aj_);
    for (Ordinal i = 0; i <= n_; ++i) h_ap(i) = static_cast<Tacho::size_type>(h_row_map(i));
    for (Offset k = 0; k < nnz_; ++k) h_aj(k) = h_entries(k);
    copy_to_device(ap_, h_ap);
    copy_to_device(aj_, h_aj);
    ax_ = value_array("tlfea::linalg::tacho::ax", nnz_);
    b_ = value_matrix("tlfea::linalg::tacho::b", n_, 1);
    x_ = value_matrix("tlfea::linalg::tacho::x", n_, 1);
    work_ = value_matrix("tlfea::linalg::tacho::work", n_, 1);

    solver_ = solver_type();
    solver_.setVerbose(0);
    solver_.setMatrixType(2, positive_definite_);  // 2: symmetric
    solver_.setSmallProblemThresholdsize(0);       // always sparse (top of file)
    // Fill-reducing order of the node graph (see the top of this file),
    // expanded to the 3 scalar rows of each node. Tacho's convention (as
    // METIS's): perm(new) = old, peri(old) = new; its solve gathers
    // t(i) = b(perm(i)) (NumericTools, applyRowPermutationToDenseMatrix).
    const Ordinal nb = n_ / 3;
    std::vector<Ordinal> order;
    {
      std::vector<Ordinal> xadj, adjncy;
      node_graph(h_row_map, h_entries, n_, xadj, adjncy);
      order = node_order(ordering_, xadj, adjncy);
    }
    ordinal_array perm("tlfea::linalg::tacho::perm", n_), peri("tlfea::linalg::tacho::peri", n_);
    auto h_perm = host_mirror(perm);
    auto h_peri = host_mirror(peri);
    for (Ordinal b = 0; b < nb; ++b)
      for (int a = 0; a < 3; ++a) {
        h_perm(3 * b + a) = 3 * order[b] + a;  // b: new node, order[b]: old node
        h_peri(3 * order[b] + a) = 3 * b + a;
      }
    copy_to_device(perm, h_perm);
    copy_to_device(peri, h_peri);
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
    device_copy(ax_, values);
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
    device_copy(Kokkos::subview(b_, Kokkos::ALL(), 0), b);
    run("solve", [&] { solver_.solve(x_, b_, work_); });
    // x stays in the execution space's memory: copied there and checked by a
    // device reduction (unless the caller checks it: set_solution_check).
    device_copy(x, Kokkos::subview(x_, Kokkos::ALL(), 0));
    if (solution_check_) check_solution_device("tacho", x);
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
  Ordering ordering_;
  bool analyzed_ = false, factorized_ = false;
  Ordinal n_ = 0;
  Offset nnz_ = 0;
  solver_type solver_;
  size_array ap_;
  ordinal_array aj_;
  value_array ax_;
  value_matrix b_, x_, work_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_tacho(const LinearSolverOptions& options) {
  if (!options.symmetric)
    throw_error("tacho needs a symmetric matrix (options.symmetric = false); use klu2 or eigen-lu");
  return std::make_unique<TachoSolver>(options.positive_definite, parse_ordering(options.ordering));
}

}  // namespace tlfea::detail
