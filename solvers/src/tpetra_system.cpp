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

namespace tlfea::detail {

Teuchos::RCP<const Teuchos::Comm<int>> serial_comm(const char* backend) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    throw_error(backend,
                ": MPI is not initialised (Tpetra needs it); create a tlfea::MpiSession"
                " (tlfea/solvers/mpi_session.hpp) first thing in main, before Kokkos");
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

  auto h_row_map = Kokkos::create_mirror_view_and_copy(HostSpace(), pattern.row_map);
  auto h_entries = Kokkos::create_mirror_view_and_copy(HostSpace(), pattern.entries);
  typename local_graph::row_map_type::non_const_type row_ptr("tlfea::solvers::tpetra::row_ptr",
                                                             n_ + 1);
  typename local_graph::entries_type::non_const_type col_ind("tlfea::solvers::tpetra::col_ind",
                                                             nnz_);
  auto h_row_ptr = Kokkos::create_mirror_view(row_ptr);
  auto h_col_ind = Kokkos::create_mirror_view(col_ind);
  diagonal_.assign(n_, -1);
  for (Ordinal i = 0; i <= n_; ++i) h_row_ptr(i) = static_cast<size_t>(h_row_map(i));
  for (Ordinal i = 0; i < n_; ++i)
    for (Offset k = h_row_map(i); k < h_row_map(i + 1); ++k) {
      h_col_ind(k) = h_entries(k);
      if (h_entries(k) == i) diagonal_[i] = k;
    }
  Kokkos::deep_copy(row_ptr, h_row_ptr);
  Kokkos::deep_copy(col_ind, h_col_ind);

  graph_ = Teuchos::rcp(new TpetraGraph(map_, map_, row_ptr, col_ind));
  graph_->fillComplete(map_, map_);
  matrix_ = Teuchos::rcp(new TpetraMatrix(graph_));  // values zero
  matrix_->fillComplete(map_, map_);
  x_ = Teuchos::rcp(new TpetraVector(map_, 1));
  b_ = Teuchos::rcp(new TpetraVector(map_, 1));
  h_values_ = HostView<Real*>("tlfea::solvers::tpetra::values", nnz_);
  h_x_ = HostView<Real*>("tlfea::solvers::tpetra::x", n_);
}

void TpetraSystem::set_values(const char* backend, const DeviceView<Real*>& values,
                              bool require_diagonal) {
  if (!analyzed()) throw_error(backend, ": factorize() before analyze()");
  check_length(backend, "values", values.extent(0), static_cast<size_t>(nnz_));
  Kokkos::deep_copy(h_values_, values);
  for (Offset k = 0; k < nnz_; ++k)
    if (!std::isfinite(h_values_(k))) throw_error(backend, ": matrix value ", k, " is not finite");
  if (require_diagonal)
    for (Ordinal i = 0; i < n_; ++i)
      if (diagonal_[i] < 0 || h_values_(diagonal_[i]) == 0)
        throw_error(backend, ": diagonal entry of row ", i,
                    " is zero (singular matrix, or one the Jacobi / ILU preconditioner cannot "
                    "handle)");
  matrix_->resumeFill();
  auto local_values = matrix_->getLocalValuesView();
  if (local_values.extent(0) != static_cast<size_t>(nnz_))
    throw_error(backend, ": Tpetra matrix holds ", local_values.extent(0), " values, expected ",
                nnz_);
  Kokkos::deep_copy(local_values, h_values_);
  matrix_->fillComplete(map_, map_);
}

void TpetraSystem::set_rhs(const char* backend, const DeviceView<Real*>& b) {
  check_length(backend, "right-hand side", b.extent(0), static_cast<size_t>(n_));
  auto view = b_->getLocalViewDevice(Tpetra::Access::OverwriteAll);
  Kokkos::deep_copy(Kokkos::subview(view, Kokkos::ALL(), 0), b);
}

void TpetraSystem::get_solution(const char* backend, const DeviceView<Real*>& x) {
  check_length(backend, "solution", x.extent(0), static_cast<size_t>(n_));
  {
    auto view = x_->getLocalViewDevice(Tpetra::Access::ReadOnly);
    Kokkos::deep_copy(h_x_, Kokkos::subview(view, Kokkos::ALL(), 0));
  }
  check_solution(backend, h_x_, n_);
  Kokkos::deep_copy(x, h_x_);
}

Real TpetraSystem::relative_residual() const {
  TpetraVector r(*b_, Teuchos::Copy);
  matrix_->apply(*x_, r, Teuchos::NO_TRANS, -1.0, 1.0);
  std::vector<Real> nr(1), nb(1);
  r.norm2(Teuchos::ArrayView<Real>(nr));
  b_->norm2(Teuchos::ArrayView<Real>(nb));
  return nb[0] > 0 ? nr[0] / nb[0] : nr[0];
}

}  // namespace tlfea::detail
