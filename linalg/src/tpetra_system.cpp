#include "tpetra_system.hpp"

#include <mpi.h>

#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Core.hpp>
#include <Tpetra_CrsGraph.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector.hpp>
#include <cmath>

#include "backends.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea::detail {

Teuchos::RCP<const Teuchos::Comm<int>> serial_comm(const char* backend) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    throw_error(backend,
                ": MPI is not initialised (Tpetra needs it); create a tlfea::MpiSession"
                " (tlfea/linalg/mpi_session.hpp) first thing in main, before Kokkos");
  auto comm = Tpetra::getDefaultComm();
  if (comm->getSize() == 1) return comm;
  return Teuchos::rcp(new Teuchos::MpiComm<int>(MPI_COMM_SELF));
}

void TpetraSystem::analyze(const char* backend, const CrsPattern& pattern) {
  using local_graph = TpetraGraph::local_graph_device_type;
  n_ = pattern.num_rows();
  nnz_ = pattern.nnz();
  check_length(backend, "pattern row map", pattern.row_map.extent(0), static_cast<size_t>(n_) + 1);
  auto comm = serial_comm(backend);
  map_ = Teuchos::rcp(new TpetraMap(static_cast<Tpetra::global_size_t>(n_), 0, comm));

  auto h_row_map = to_host(pattern.row_map);
  auto h_entries = to_host(pattern.entries);
  typename local_graph::row_map_type::non_const_type row_ptr("tlfea::linalg::tpetra::row_ptr",
                                                             n_ + 1);
  typename local_graph::entries_type::non_const_type col_ind("tlfea::linalg::tpetra::col_ind",
                                                             nnz_);
  auto h_row_ptr = host_mirror(row_ptr);
  auto h_col_ind = host_mirror(col_ind);
  diagonal_ = DeviceView<Offset*>("tlfea::linalg::tpetra::diagonal", n_);
  auto h_diag = host_mirror(diagonal_);
  for (Ordinal i = 0; i <= n_; ++i) h_row_ptr(i) = static_cast<size_t>(h_row_map(i));
  for (Ordinal i = 0; i < n_; ++i) {
    h_diag(i) = -1;
    for (Offset k = h_row_map(i); k < h_row_map(i + 1); ++k) {
      h_col_ind(k) = h_entries(k);
      if (h_entries(k) == i) h_diag(i) = k;
    }
  }
  copy_to_device(row_ptr, h_row_ptr);
  copy_to_device(col_ind, h_col_ind);
  copy_to_device(diagonal_, h_diag);

  graph_ = Teuchos::rcp(new TpetraGraph(map_, map_, row_ptr, col_ind));
  graph_->fillComplete(map_, map_);
  matrix_ = Teuchos::rcp(new TpetraMatrix(graph_));  // values zero
  matrix_->fillComplete(map_, map_);
  x_ = Teuchos::rcp(new TpetraVector(map_, 1));
  b_ = Teuchos::rcp(new TpetraVector(map_, 1));
  r_ = Teuchos::rcp(new TpetraVector(map_, 1));
}

namespace {

using Range = Kokkos::RangePolicy<ExecSpace>;

// The first non-finite value (nnz if none).
struct FirstNonFinite {
  DeviceView<Real*> values;
  KOKKOS_INLINE_FUNCTION void operator()(const Offset k, Offset& first) const {
    const Real v = values(k);
    if (!(v - v == 0.0) && k < first) first = k;  // NaN or +-inf: v - v is NaN
  }
};

// The first row whose diagonal entry is missing or zero (n if none).
struct FirstZeroDiagonal {
  DeviceView<Real*> values;
  DeviceView<Offset*> diagonal;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Ordinal& first) const {
    const Offset k = diagonal(i);
    if ((k < 0 || values(k) == 0.0) && i < first) first = i;
  }
};

}  // namespace

void TpetraSystem::set_values(const char* backend, const DeviceView<Real*>& values,
                              bool require_diagonal) {
  if (!analyzed()) throw_error(backend, ": factorize() before analyze()");
  check_length(backend, "values", values.extent(0), static_cast<size_t>(nnz_));
  Offset bad_value = nnz_;
  Kokkos::parallel_reduce("tlfea::linalg::tpetra::finite_values", Range(0, nnz_),
                          FirstNonFinite{values}, Kokkos::Min<Offset>(bad_value));
  if (bad_value < nnz_) throw_error(backend, ": matrix value ", bad_value, " is not finite");
  if (require_diagonal) {
    Ordinal bad_row = n_;
    Kokkos::parallel_reduce("tlfea::linalg::tpetra::diagonal_check", Range(0, n_),
                            FirstZeroDiagonal{values, diagonal_}, Kokkos::Min<Ordinal>(bad_row));
    if (bad_row < n_)
      throw_error(backend, ": diagonal entry of row ", bad_row,
                  " is zero (singular matrix, or one the Jacobi / ILU preconditioner cannot "
                  "handle)");
  }
  matrix_->resumeFill();
  auto local_values = matrix_->getLocalValuesView();
  if (local_values.extent(0) != static_cast<size_t>(nnz_))
    throw_error(backend, ": Tpetra matrix holds ", local_values.extent(0), " values, expected ",
                nnz_);
  device_copy(local_values, values);
  matrix_->fillComplete(map_, map_);
}

void TpetraSystem::set_rhs(const char* backend, const DeviceView<Real*>& b) {
  check_length(backend, "right-hand side", b.extent(0), static_cast<size_t>(n_));
  auto view = b_->getLocalViewDevice(Tpetra::Access::OverwriteAll);
  device_copy(Kokkos::subview(view, Kokkos::ALL(), 0), b);
}

void TpetraSystem::get_solution(const char* backend, const DeviceView<Real*>& x) {
  check_length(backend, "solution", x.extent(0), static_cast<size_t>(n_));
  {
    auto view = x_->getLocalViewDevice(Tpetra::Access::ReadOnly);
    device_copy(x, Kokkos::subview(view, Kokkos::ALL(), 0));
  }
  check_solution_device(backend, x);
}

Real TpetraSystem::relative_residual() const {
  TpetraVector& r = *r_;  // allocated once, in analyze
  r.update(1.0, *b_, 0.0);
  matrix_->apply(*x_, r, Teuchos::NO_TRANS, -1.0, 1.0);
  Real nr_s = 0.0, nb_s = 0.0;
  Teuchos::ArrayView<Real> nr(&nr_s, 1), nb(&nb_s, 1);
  r.norm2(nr);
  b_->norm2(nb);
  return nb_s > 0 ? nr_s / nb_s : nr_s;
}

}  // namespace tlfea::detail
