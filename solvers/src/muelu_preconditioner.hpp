// TLFEA: MueLu smoothed-aggregation AMG as a Tpetra operator (its own
// translation unit: MueLu's headers are the slowest to compile). Internal.
#pragma once

#include "tpetra_system.hpp"

namespace tlfea::detail {

// Sets up a MueLu hierarchy for A (3 unknowns per node: the coefficient
// blocks); symmetric selects smoothed aggregation, otherwise
// Petrov-Galerkin (non-symmetric) aggregation.
Teuchos::RCP<TpetraOperator> make_muelu_preconditioner(const Teuchos::RCP<TpetraMatrix>& A,
                                                       bool symmetric);

}  // namespace tlfea::detail
