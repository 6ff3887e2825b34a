// dist-cg / dist-gmres: the Newton matrix summed over the MPI ranks and
// solved by Belos over MPI_COMM_WORLD (docs/guide/mpi.md).
//
// Every rank passes the values of the rows it touches or owns
// (RowPartition::layout, core/crs_pattern.hpp RowLayout) holding only its
// part: its elements' tangents, and the replicated terms in
// the rows it owns (integrators/src/distribution.hpp). analyze() builds, once per
// pattern, a one-to-one matrix on the rows the rank owns and a matrix on its
// shared rows (those its elements touch but another rank owns; none on one
// rank), both graphs cut from the pattern (which every rank holds during the
// setup; on several ranks the model then frees its column indices), and the
// Tpetra::Export from the shared rows to their owners. On several ranks the
// layout is the owned rows, then the shared rows (Distribution), and the
// two matrices keep their values in one array in that layout
// (matrix_storage), which the stepper assembles into: factorize() given it
// reorders each owned row in place from the pattern's order to the owned
// matrix's (OwnFirst), without a second copy of the values. Given any other
// array (one rank; a caller not assembling into matrix_storage), it copies
// the rank's values of its owned rows into the owned matrix and those of
// its shared rows into the shared one (row by row: no nnz-sized offset
// map). Then it sums the shared rows into their owners' (Tpetra::ADD) and
// computes the preconditioner: Ifpack2 RILUK (on several
// ranks ILU(k) of each rank's diagonal block, i.e. block Jacobi / additive
// Schwarz without overlap), Jacobi or MueLu. solve() takes the replicated
// right-hand side, iterates from x = 0 to options.tolerance (relative
// residual of the assembled system) and returns the solution on every rank
// (MPI_Allgatherv of the owned rows).
#include <mpi.h>

#include <Tpetra_Core.hpp>
#include <Tpetra_CrsGraph.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Export.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector.hpp>
#include <Tpetra_Vector.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>

#include "backends.hpp"
#include "belos_common.hpp"
#include "muelu_preconditioner.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/view_utils.hpp"
#include "tpetra_system.hpp"

namespace tlfea::detail {
namespace {

using GO = TpetraMap::global_ordinal_type;
// A local matrix's row pointers (its graph's own view).
using RowPtr = TpetraGraph::local_graph_device_type::row_map_type;
using LocalEntries = TpetraGraph::local_graph_device_type::entries_type;
using LocalMap = TpetraMap::local_map_type;
using Range = Kokkos::RangePolicy<ExecSpace>;

struct Gather {
  DeviceView<Real*> out, in;
  DeviceView<Offset*> from;
  KOKKOS_INLINE_FUNCTION void operator()(const Offset k) const { out(k) = in(from(k)); }
};

// Row i of a matrix cut from the pattern, in the order of its columns' local
// ids: out(ptr(i) ..) <- in(rm(rows(i)) ..). With `lcl` empty the local ids
// ascend with the global ones (the shared matrix), so the row is a plain
// copy. Otherwise (the owned matrix) the column map holds the owned rows
// first (local ids < n_first) and the other columns after, so each row
// holds the first group, then the other, each ascending: the pattern row
// (ascending global ids) is the merge of the two groups by global id
// (cols.getGlobalElement of the row's local ids, lcl), which places each of
// its entries without the pattern's column indices.
struct GatherRows {
  DeviceView<Real*> out, in;
  DeviceView<Offset*> rows;
  RowPtr ptr;
  DeviceView<Offset*> rm;
  LocalEntries lcl;  // the owned matrix's local column ids (empty: the shared matrix)
  LocalMap cols;     // its column map
  Ordinal n_first = 0;
  DeviceView<Offset*> shift;  // where `in` holds each row (RowLayout; empty: unshifted)
  KOKKOS_INLINE_FUNCTION void operator()(const Offset i) const {
    const Offset b = rm(rows(i)), e = rm(rows(i) + 1);
    const Offset s = shift.extent(0) == 0 ? 0 : shift(rows(i));
    Offset a = static_cast<Offset>(ptr(i));
    if (lcl.extent(0) == 0) {
      for (Offset k = b; k < e; ++k) out(a++) = in(k + s);
      return;
    }
    const Offset end = static_cast<Offset>(ptr(i + 1));
    Offset m = a;
    while (m < end && lcl(m) < n_first) ++m;
    Offset p1 = a, p2 = m;
    for (Offset k = b; k < e; ++k) {
      const bool first =
          p2 == end || (p1 < m && cols.getGlobalElement(lcl(p1)) < cols.getGlobalElement(lcl(p2)));
      out(first ? p1++ : p2++) = in(k + s);
    }
  }
};

// Owned row i, held in the pattern's order (ascending global columns) at
// v(ptr(i) ..), reordered in place to the owned matrix's order: the columns
// the rank owns first (local ids < n_first), then the others, each group
// ascending (GatherRows's merge of the two groups by global id says which
// group each entry of the pattern's order belongs to). A stable partition by
// rotation: the entries of the first group found so far are at a .. q - 1,
// those of the other at q .. k - 1; an entry of the first group at k moves
// to q and the other group's entries one place on. No moves in a row whose
// columns are all of one group (the rows inside a rank's part); a row with
// r columns of the other group before its own moves at most r values per
// own entry. Gives exactly GatherRows's values, in place.
struct OwnFirst {
  DeviceView<Real*> v;
  RowPtr ptr;
  LocalEntries lcl;  // the owned matrix's local column ids
  LocalMap cols;     // its column map
  Ordinal n_first = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const Offset i) const {
    const Offset a = static_cast<Offset>(ptr(i)), end = static_cast<Offset>(ptr(i + 1));
    Offset m = a;
    while (m < end && lcl(m) < n_first) ++m;
    if (m == a || m == end) return;  // one group: the pattern's order is the matrix's
    Offset p1 = a, p2 = m, q = a;
    for (Offset k = a; k < end; ++k) {
      const bool first =
          p2 == end || (p1 < m && cols.getGlobalElement(lcl(p1)) < cols.getGlobalElement(lcl(p2)));
      if (!first) {
        ++p2;
        continue;
      }
      ++p1;
      const Real x = v(k);
      for (Offset j = k; j > q; --j) v(j) = v(j - 1);
      v(q++) = x;
    }
  }
};

// The number of NaN or +-inf values (v - v is NaN for those).
struct AnyNonFinite {
  DeviceView<Real*> values;
  KOKKOS_INLINE_FUNCTION void operator()(const Offset k, int& bad) const {
    const Real v = values(k);
    if (!(v - v == 0.0)) ++bad;
  }
};

// The pattern's row map read on the host (host_view).
using HostOffsets = decltype(host_view(DeviceView<Offset*>()));

// Rows `rows` of the pattern as a Tpetra graph on `row_map`. Column map:
// with rows_first, the rows' own ids first, in their order, then the other
// columns ascending (the layout Ifpack2's LocalFilter expects of the owned
// matrix: the local diagonal block is its first columns); otherwise all
// columns ascending (the shared matrix: each row's entries in the pattern's
// order). Local indices ascend in each row (the order GatherRows fills).
Teuchos::RCP<TpetraGraph> cut_graph(const Teuchos::RCP<const Teuchos::Comm<int>>& comm,
                                    const std::vector<Ordinal>& rows, const HostBlockPattern& hp,
                                    const Teuchos::RCP<const TpetraMap>& row_map, bool rows_first) {
  using local_graph = TpetraGraph::local_graph_device_type;
  // local_of[c]: column c's local id; -2 while only marked as used (an array
  // over the columns, not a list of the rows' entries: O(n) memory).
  const auto& rm = hp.row_map;
  std::vector<int> local_of(rm.extent(0) - 1, -1);
  for (Ordinal r : rows) hp.for_each_entry(r, [&](Offset, Ordinal c) { local_of[c] = -2; });
  std::vector<GO> cols;
  if (rows_first)
    for (Ordinal r : rows) {
      local_of[r] = static_cast<int>(cols.size());
      cols.push_back(r);
    }
  for (size_t c = 0; c < local_of.size(); ++c)
    if (local_of[c] == -2) {
      local_of[c] = static_cast<int>(cols.size());
      cols.push_back(static_cast<GO>(c));
    }
  const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
  auto col_map = Teuchos::rcp(
      new TpetraMap(invalid, Teuchos::ArrayView<const GO>(cols.data(), cols.size()), 0, comm));
  typename local_graph::row_map_type::non_const_type row_ptr("tlfea::linalg::dist::row_ptr",
                                                             rows.size() + 1);
  size_t entries = 0;
  for (Ordinal r : rows) entries += static_cast<size_t>(rm(r + 1) - rm(r));
  typename local_graph::entries_type::non_const_type col_ind("tlfea::linalg::dist::col_ind",
                                                             entries);
  auto h_ptr = host_mirror(row_ptr);
  auto h_ind = host_mirror(col_ind);
  size_t n = 0;
  h_ptr(0) = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const size_t begin = n;
    hp.for_each_entry(rows[i], [&](Offset, Ordinal c) { h_ind(n++) = local_of[c]; });
    std::sort(h_ind.data() + begin, h_ind.data() + n);
    h_ptr(i + 1) = n;
  }
  copy_to_device(row_ptr, h_ptr);
  copy_to_device(col_ind, h_ind);
  return Teuchos::rcp(new TpetraGraph(row_map, col_map, row_ptr, col_ind));
}

class DistributedSolver final : public LinearSolver, BelosParts {
 public:
  DistributedSolver(const LinearSolverOptions& options, const char* kind, RowPartition rows)
      : BelosParts(options, kind, std::string(kind) == "CG" ? "dist-cg" : "dist-gmres",
                   "dist-gmres"),
        rows_(std::move(rows)) {
    // Fault injection for the test of guard_ranks (tests/scene/cli_test.sh):
    // the solve throws on this rank alone.
    if (const char* r = std::getenv("TLFEA_FAULT_SOLVE_RANK")) fault_rank_ = std::atoi(r);
  }

  std::string name() const override { return name_; }

  void analyze(const CrsPattern& pattern) override {
    Stopwatch t;
    factorized_ = false;
    // A misuse every rank meets alike: an ordinary error, before the phase.
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!rows_.partitioned && size > 1)
      throw_error(name_, " on ", size,
                  " ranks needs the element partition of a TimeStepper (each rank's rows)");
    guard_ranks("analysis", [&] { build(pattern); });
    stats_.analyses++;
    stats_.analyze_seconds += t.seconds();
  }

  void factorize(const DeviceView<Real*>& values) override {
    if (owned_.is_null()) throw_error(name_, ": factorize() before analyze()");
    check_length(name_.c_str(), "values", values.extent(0), static_cast<size_t>(nnz_));
    Stopwatch t;
    factorized_ = false;
    // Every rank must reach the same verdict (a throw on one rank alone
    // would leave the others waiting in the next collective).
    int bad = 0;
    Kokkos::parallel_reduce("tlfea::linalg::dist::finite", Range(0, values.extent(0)),
                            AnyNonFinite{values}, bad);  // a sum: the count
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (bad) throw_error(name_, ": a matrix value is not finite (on some rank)");
    guard_ranks("assembly", [&] {
      // This rank's part of its owned rows, then the shared rows' parts of
      // the other ranks added in (Tpetra::ADD). Assembled in place
      // (matrix_storage): the owned rows reordered for Tpetra, the shared
      // rows already in the shared matrix's order.
      const bool in_place = storage_.extent(0) > 0 && values.data() == storage_.data();
      owned_->resumeFill();
      if (in_place)
        Kokkos::parallel_for("tlfea::linalg::dist::own_first", Range(0, owned_rows_.extent(0)),
                             OwnFirst{storage_, owned_ptr_, owned_lcl_, owned_cols_,
                                      static_cast<Ordinal>(rows_.owned.size())});
      else
        gather_rows(*owned_, values, owned_rows_, owned_ptr_, owned_lcl_, owned_cols_,
                    static_cast<Ordinal>(rows_.owned.size()));
      if (!shared_.is_null()) {
        shared_->resumeFill();
        if (!in_place)
          gather_rows(*shared_, values, shared_rows_, shared_ptr_, LocalEntries(), LocalMap(), 0);
        shared_->fillComplete(owned_map_, owned_map_);
        owned_->doExport(*shared_, *export_, Tpetra::ADD);
      }
      owned_->fillComplete(owned_map_, owned_map_);
      check_storage();
    });
    const auto& p = options_.preconditioner;
    if (p == "ilu" || p == "jacobi") {
      Tpetra::Vector<Real> diag(owned_map_);
      owned_->getLocalDiagCopy(diag);
      int zero = 0;
      {
        auto h = diag.getLocalViewHost(Tpetra::Access::ReadOnly);
        for (size_t i = 0; i < h.extent(0); ++i)
          if (h(i, 0) == 0.0) zero = 1;
      }
      MPI_Allreduce(MPI_IN_PLACE, &zero, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      if (zero)
        throw_error(name_,
                    ": a diagonal entry is zero (singular matrix, or one the Jacobi / ILU "
                    "preconditioner cannot handle)");
    }
    guard_ranks("preconditioner setup", [&] {
      if (p == "ilu" || p == "jacobi") {
        // On several ranks RILUK factors a local copy of the rank's diagonal
        // block (Ifpack2 LocalFilter), taken in initialize(): redone for
        // every new matrix, or it would factor the values of the first. A
        // new preconditioner, made after the old one (its L, U and local
        // copy) is freed: initialize() on the old one allocated the new
        // factors beside the old ones, which set the setup's peak.
        if (comm_->getSize() > 1) {
          release_preconditioner();
          ifpack2_ = Teuchos::null;
          ifpack2_ = make_ifpack2(owned_, options_);
        }
        ifpack2_->compute();
        preconditioner_ = ifpack2_;
      } else if (p == "muelu") {
        release_preconditioner();  // the old hierarchy freed before the new one is built
        preconditioner_ = make_muelu_preconditioner(owned_, options_.symmetric, near_nullspace(),
                                                    node_coordinates());
      }
      problem_ = make_belos_problem(owned_, x_, b_, preconditioner_, kind_);
    });
    factorized_ = true;
    stats_.factorizations++;
    stats_.factorize_seconds += t.seconds();
  }

  DeviceView<Real*> matrix_storage() override { return storage_; }

  std::vector<DeviceView<Real*>> matrix_value_arrays() const override {
    std::vector<DeviceView<Real*>> out;
    for (const auto& m : {owned_, shared_})
      if (!m.is_null()) {
        auto lv = m->getLocalValuesView();
        out.emplace_back(const_cast<Real*>(lv.data()), lv.extent(0));
      }
    return out;
  }

  void set_rigid_body_layout(const RigidBodyLayout& layout) override {
    set_layout(layout, owned_map_, owned_rows_);
  }
  void set_coefficients(const CoefView& q) override { set_q(q); }

  void solve(const DeviceView<Real*>& b, const DeviceView<Real*>& x) override {
    if (!factorized_) throw_error(name_, ": solve() without a successful factorize()");
    check_length(name_.c_str(), "right-hand side", b.extent(0), static_cast<size_t>(n_));
    check_length(name_.c_str(), "solution", x.extent(0), static_cast<size_t>(n_));
    Stopwatch t;
    {
      auto view = b_->getLocalViewDevice(Tpetra::Access::OverwriteAll);
      DeviceView<Real*> dst(view.data(), view.extent(0));
      Kokkos::parallel_for("tlfea::linalg::dist::rhs", Range(0, owned_rows_.extent(0)),
                           Gather{dst, b, owned_rows_});
    }
    x_->putScalar(0.0);
    Belos::ReturnType result = Belos::Unconverged;
    guard_ranks("solve", [&] {
      if (fault_rank_ >= 0 && comm_->getRank() == fault_rank_ && comm_->getSize() > 1)
        throw std::runtime_error("fault injected by TLFEA_FAULT_SOLVE_RANK=" +
                                 std::to_string(fault_rank_));
      problem_->setProblem(x_, b_);
      solver_->setProblem(problem_);
      result = solver_->solve();
    });
    record_belos_solve(stats_, name_, options_, *solver_, result, relative_residual());
    // The owned rows of every rank, to every rank.
    {
      fence("tlfea::linalg::distributed::gather");
      auto view = x_->getLocalViewHost(Tpetra::Access::ReadOnly);
      std::vector<Real> mine(view.extent(0));
      for (size_t i = 0; i < mine.size(); ++i) mine[i] = view(i, 0);
      MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, gathered_.data(),
                     counts_.data(), displs_.data(), MPI_DOUBLE, MPI_COMM_WORLD);
    }
    auto h = host_mirror(x);
    for (size_t k = 0; k < gathered_.size(); ++k) h(all_rows_[k]) = gathered_[k];
    copy_to_device(x, h);
    check_solution_device(name_.c_str(), x);  // the same x on every rank: the same verdict
    stats_.solve_seconds += t.seconds();
  }

 private:
  // A Trilinos exception inside a phase may be one rank's alone (seen once:
  // KLU2 failing on a singular MueLu coarse matrix that lived on one rank),
  // and the other ranks would then wait for this one in the phase's next
  // collective for ever. On several ranks any exception inside a phase
  // therefore ends the job: the failing rank prints the phase, its rank and
  // the exception and calls MPI_Abort (the verdicts that every rank reaches
  // alike, a non-finite value or a zero diagonal, are taken outside the
  // phases and stay ordinary errors). On one rank it is the usual
  // tlfea::Error.
  template <class F>
  void guard_ranks(const char* phase, F&& f) {
    try {
      guard(phase, std::forward<F>(f));
    } catch (const Error& e) {
      int size = 1, rank = 0;
      MPI_Comm_size(MPI_COMM_WORLD, &size);
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      if (size == 1) throw;
      std::fprintf(stderr, "%s (MPI rank %d of %d; ending all ranks)\n", e.what(), rank, size);
      std::fflush(stderr);
      std::fflush(stdout);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }

  void build(const CrsPattern& pattern) {
    comm_ = Tpetra::getDefaultComm();
    n_ = pattern.num_rows();
    nnz_ = rows_.layout.size(pattern);  // this rank's values (RowPartition::layout)
    if (!rows_.partitioned) {           // one rank (analyze())
      for (Ordinal r = 0; r < n_; ++r) rows_.owned.push_back(r);
      rows_.touched = rows_.owned;
    }
    // Read in place on the CPU backends: no second copy of the pattern. Its
    // block structure gives each row's columns (the scalar column indices
    // are not built on several ranks).
    const HostBlockPattern hp(pattern);
    const auto& rm = hp.row_map;
    const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
    auto make_map = [&](const std::vector<Ordinal>& rows) {
      std::vector<GO> g(rows.begin(), rows.end());
      return Teuchos::rcp(
          new TpetraMap(invalid, Teuchos::ArrayView<const GO>(g.data(), g.size()), 0, comm_));
    };
    owned_map_ = make_map(rows_.owned);
    // This solver's references to an earlier pattern's matrices go first.
    owned_ = shared_ = Teuchos::null;
    export_ = Teuchos::null;
    storage_ = DeviceView<Real*>();
    auto owned_graph = cut_graph(comm_, rows_.owned, hp, owned_map_, true);
    owned_graph->fillComplete(owned_map_, owned_map_);
    // The rows this rank's elements touch that another rank owns (both lists
    // ascend). On one rank none, and no shared matrix.
    std::vector<Ordinal> shared;
    std::set_difference(rows_.touched.begin(), rows_.touched.end(), rows_.owned.begin(),
                        rows_.owned.end(), std::back_inserter(shared));
    Teuchos::RCP<TpetraGraph> shared_graph;
    Teuchos::RCP<const TpetraMap> shared_map;
    if (comm_->getSize() > 1) {
      shared_map = make_map(shared);
      shared_graph = cut_graph(comm_, shared, hp, shared_map, false);
      shared_graph->fillComplete(owned_map_, owned_map_);
    }
    // One array for both matrices' values where the rank's layout holds the
    // owned rows, then the shared ones, each packed (as Distribution lays
    // them out): the owned matrix's rows at its row pointers, the shared
    // matrix's after them. Otherwise (one rank) each matrix allocates its own.
    const Offset n_owned = static_cast<Offset>(owned_graph->getNodeNumEntries());
    const Offset n_shared =
        shared_graph.is_null() ? 0 : static_cast<Offset>(shared_graph->getNodeNumEntries());
    if (rows_.partitioned && nnz_ == n_owned + n_shared &&
        stacked_layout(rm, rows_.owned, *owned_graph, 0) &&
        (shared_graph.is_null() || stacked_layout(rm, shared, *shared_graph, n_owned))) {
      // Tpetra takes views that share the allocation's ownership (a
      // WrappedDualView refuses an unmanaged one): subviews of one.
      using Values = TpetraMatrix::local_matrix_device_type::values_type;
      Values all("tlfea::linalg::dist::matrix_values", nnz_);
      storage_ = all;
      owned_ = Teuchos::rcp(
          new TpetraMatrix(owned_graph, Kokkos::subview(all, std::make_pair(Offset(0), n_owned))));
      if (!shared_graph.is_null())
        shared_ = Teuchos::rcp(new TpetraMatrix(
            shared_graph, Kokkos::subview(all, std::make_pair(n_owned, n_owned + n_shared))));
    } else {
      owned_ = Teuchos::rcp(new TpetraMatrix(owned_graph));
      if (!shared_graph.is_null()) shared_ = Teuchos::rcp(new TpetraMatrix(shared_graph));
    }
    owned_->fillComplete(owned_map_, owned_map_);
    if (!shared_.is_null()) {
      shared_->fillComplete(owned_map_, owned_map_);
      export_ = Teuchos::rcp(new Tpetra::Export<>(shared_map, owned_map_));
    }
    check_storage();
    // GatherRows's inputs, and a check (once per pattern) that the matrices
    // keep the entry order it fills.
    std::vector<unsigned char> is_mine(static_cast<size_t>(n_), 0);
    for (Ordinal r : rows_.owned) is_mine[r] = 1;
    rm_ = pattern.row_map;
    owned_ptr_ = owned_->getCrsGraph()->getLocalGraphDevice().row_map;
    owned_lcl_ = owned_->getCrsGraph()->getLocalGraphDevice().entries;
    owned_cols_ = owned_->getColMap()->getLocalMap();
    if (!shared_.is_null()) shared_ptr_ = shared_->getCrsGraph()->getLocalGraphDevice().row_map;
    std::vector<Offset> owned_rows(rows_.owned.begin(), rows_.owned.end());
    owned_rows_ = upload_to_device<Offset>("tlfea::linalg::dist::owned_rows", owned_rows);
    shared_rows_ = upload_to_device<Offset>("tlfea::linalg::dist::shared_rows",
                                            std::vector<Offset>(shared.begin(), shared.end()));
    check_order(*owned_, rows_.owned, hp, is_mine);
    if (!shared_.is_null()) check_order(*shared_, shared, hp, {});
    x_ = Teuchos::rcp(new TpetraVector(owned_map_, 1));
    b_ = Teuchos::rcp(new TpetraVector(owned_map_, 1));
    r_ = Teuchos::rcp(new TpetraVector(owned_map_, 1));
    // Who owns which rows, for the gather of the solution.
    const int size = comm_->getSize();
    int mine = static_cast<int>(rows_.owned.size());
    counts_.assign(size, 0);
    MPI_Allgather(&mine, 1, MPI_INT, counts_.data(), 1, MPI_INT, MPI_COMM_WORLD);
    displs_.assign(size, 0);
    for (int r = 1; r < size; ++r) displs_[r] = displs_[r - 1] + counts_[r - 1];
    all_rows_.assign(static_cast<size_t>(displs_[size - 1] + counts_[size - 1]), 0);
    MPI_Allgatherv(rows_.owned.data(), mine, MPI_INT, all_rows_.data(), counts_.data(),
                   displs_.data(), MPI_INT, MPI_COMM_WORLD);
    if (all_rows_.size() != static_cast<size_t>(n_))
      throw_error(name_, ": the ranks own ", all_rows_.size(), " rows, the matrix has ", n_);
    gathered_.assign(all_rows_.size(), 0.0);
    preconditioner_ = Teuchos::null;
    nullspace_ = Teuchos::null;  // set_rigid_body_layout again for the new pattern
    ifpack2_ = Teuchos::null;
    // On several ranks factorize() makes the Ifpack2 preconditioner for each
    // matrix; one made here would only hold a first copy until then.
    if (comm_->getSize() == 1) ifpack2_ = make_ifpack2(owned_, options_);
    solver_ = make_belos_manager(options_, kind_);
  }

  // Whether the rank's layout holds `rows` (graph g's rows) packed from
  // `at` on: row i's values at at + g's row pointer i.
  bool stacked_layout(const HostOffsets& rm, const std::vector<Ordinal>& rows, const TpetraGraph& g,
                      Offset at) const {
    if (rows_.layout.whole()) return false;
    auto shift = host_view(rows_.layout.shift);
    auto ptr = g.getLocalGraphHost().row_map;
    for (size_t i = 0; i < rows.size(); ++i)
      if (shift(rows[i]) == RowLayout::kAbsent ||
          rm(rows[i]) + shift(rows[i]) != at + static_cast<Offset>(ptr(i)))
        return false;
    return true;
  }

  // Throws unless the matrices still keep their values in storage_ (a fill
  // that repacked them would move them; these graphs are packed).
  void check_storage() const {
    if (storage_.extent(0) == 0) return;
    bool ok = owned_->getLocalValuesView().data() == storage_.data();
    if (!shared_.is_null())
      ok = ok && shared_->getLocalValuesView().data() ==
                     storage_.data() + static_cast<Offset>(owned_->getNodeNumEntries());
    if (!ok)
      throw_error(name_,
                  ": the Tpetra matrices no longer keep their values in the assembled array "
                  "(rank ",
                  comm_->getRank(), ")");
  }

  void gather_rows(TpetraMatrix& m, const DeviceView<Real*>& values,
                   const DeviceView<Offset*>& rows, const RowPtr& ptr, const LocalEntries& lcl,
                   const LocalMap& cols, Ordinal n_first) const {
    auto lv = m.getLocalValuesView();
    DeviceView<Real*> dst(const_cast<Real*>(lv.data()), lv.extent(0));
    Kokkos::parallel_for(
        "tlfea::linalg::dist::gather_rows", Range(0, rows.extent(0)),
        GatherRows{dst, values, rows, ptr, rm_, lcl, cols, n_first, rows_.layout.shift});
  }

  // Throws unless the local entries of `m` (rows `rows` of the pattern) hold
  // the pattern's columns in the order GatherRows writes: within each row
  // the columns with mine[c] first (none when `mine` is empty), each group
  // ascending.
  void check_order(const TpetraMatrix& m, const std::vector<Ordinal>& rows,
                   const HostBlockPattern& hp, const std::vector<unsigned char>& mine) const {
    const auto& graph = *m.getCrsGraph();
    const auto& cols = *graph.getColMap();
    auto local = graph.getLocalGraphHost();
    bool ok = local.row_map.extent(0) == rows.size() + 1;
    std::vector<GO> want;
    for (size_t i = 0; ok && i < rows.size(); ++i) {
      want.clear();
      for (int pass = mine.empty() ? 1 : 0; pass < 2; ++pass)
        hp.for_each_entry(rows[i], [&](Offset, Ordinal c) {
          if (mine.empty() || (mine[c] != 0) == (pass == 0)) want.push_back(c);
        });
      const size_t b = local.row_map(i), e = local.row_map(i + 1);
      ok = e - b == want.size();
      for (size_t k = b; ok && k < e; ++k)
        ok = cols.getGlobalElement(local.entries(k)) == want[k - b];
    }
    if (!ok)
      throw_error(name_, ": the Tpetra matrix does not keep the pattern's entry order (rank ",
                  comm_->getRank(), ")");
  }

  Real relative_residual() const {
    r_->update(1.0, *b_, 0.0);
    owned_->apply(*x_, *r_, Teuchos::NO_TRANS, -1.0, 1.0);
    Real nr_s = 0.0, nb_s = 0.0;
    Teuchos::ArrayView<Real> nr(&nr_s, 1), nb(&nb_s, 1);
    r_->norm2(nr);
    b_->norm2(nb);
    return nb_s > 0 ? nr_s / nb_s : nr_s;
  }

  RowPartition rows_;
  int fault_rank_ = -1;  // TLFEA_FAULT_SOLVE_RANK
  Teuchos::RCP<const Teuchos::Comm<int>> comm_;
  Ordinal n_ = 0;
  Offset nnz_ = 0;
  Teuchos::RCP<const TpetraMap> owned_map_;
  Teuchos::RCP<TpetraMatrix> owned_, shared_;  // shared_: null on one rank
  // Several ranks: both matrices' values, the owned rows', then the shared
  // rows' (matrix_storage); empty: each matrix has its own.
  DeviceView<Real*> storage_;
  Teuchos::RCP<Tpetra::Export<>> export_;         // shared rows -> their owners
  DeviceView<Offset*> rm_;                        // the pattern's row map
  LocalEntries owned_lcl_;                        // the owned matrix's local column ids
  LocalMap owned_cols_;                           // and its column map
  DeviceView<Offset*> owned_rows_, shared_rows_;  // local row i <- global row (i)
  RowPtr owned_ptr_, shared_ptr_;                 // the matrices' row pointers
  Teuchos::RCP<TpetraVector> x_, b_, r_;
  std::vector<int> counts_, displs_, all_rows_;  // the owned rows of all ranks, rank order
  std::vector<Real> gathered_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_distributed(const LinearSolverOptions& options, const char* kind,
                                               const RowPartition& rows) {
  return std::make_unique<DistributedSolver>(options, kind, rows);
}

}  // namespace tlfea::detail
