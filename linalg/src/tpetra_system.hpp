// TLFEA: the Newton matrix and one right-hand side / solution as Tpetra
// objects, shared by the KLU2 (Amesos2) and Belos backends. Internal: only
// linalg/src/*.cpp include Trilinos headers.
#pragma once

#include <Teuchos_RCP.hpp>
#include <Tpetra_CrsMatrix_decl.hpp>
#include <Tpetra_MultiVector_decl.hpp>
#include <Tpetra_Operator.hpp>
#include <vector>

#include "tlfea/core/crs_pattern.hpp"

namespace tlfea::detail {

using TpetraMatrix = Tpetra::CrsMatrix<Real>;
using TpetraVector = Tpetra::MultiVector<Real>;
using TpetraOperator = Tpetra::Operator<Real>;
using TpetraRowMatrix = Tpetra::RowMatrix<Real>;
using TpetraMap = Tpetra::Map<>;
using TpetraGraph = Tpetra::CrsGraph<>;

// The whole matrix lives on the calling rank: Tpetra's default communicator
// when it has one rank, MPI_COMM_SELF otherwise (TLFEA's Newton system is not
// distributed). Throws if MPI is not initialised (see mpi_session.hpp).
Teuchos::RCP<const Teuchos::Comm<int>> serial_comm(const char* backend);

class TpetraSystem {
 public:
  // Builds the map, the fill-complete static graph and a matrix on it.
  void analyze(const char* backend, const CrsPattern& pattern);
  // Copies values into the matrix (same storage order as the pattern: the
  // column map is the row map, so local column ids are the pattern's) and
  // completes it. Throws for non-finite values, and, with
  // require_diagonal, for a zero or missing diagonal entry (both checked by
  // device reductions; the values go device to device).
  void set_values(const char* backend, const DeviceView<Real*>& values, bool require_diagonal);
  void set_rhs(const char* backend, const DeviceView<Real*>& b);
  // Copies X out (checked finite) and returns it in x.
  void get_solution(const char* backend, const DeviceView<Real*>& x);
  // ||b - A x|| / ||b|| for the current B, X.
  Real relative_residual() const;

  bool analyzed() const { return !matrix_.is_null(); }
  Ordinal num_rows() const { return n_; }
  const Teuchos::RCP<TpetraMatrix>& matrix() const { return matrix_; }
  const Teuchos::RCP<TpetraVector>& x() const { return x_; }
  const Teuchos::RCP<TpetraVector>& b() const { return b_; }

 private:
  Ordinal n_ = 0;
  Offset nnz_ = 0;
  Teuchos::RCP<const TpetraMap> map_;
  Teuchos::RCP<TpetraGraph> graph_;
  Teuchos::RCP<TpetraMatrix> matrix_;
  Teuchos::RCP<TpetraVector> x_, b_, r_;  // r_: residual work vector
  DeviceView<Offset*> diagonal_;          // CRS position of each row's diagonal, -1 if absent
};

}  // namespace tlfea::detail
