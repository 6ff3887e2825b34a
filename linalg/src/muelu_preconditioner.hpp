// TLFEA: MueLu smoothed-aggregation AMG as a Tpetra operator (its own
// translation unit: MueLu's headers are the slowest to compile). Internal.
#pragma once

#include "tlfea/core/error.hpp"
#include "tpetra_system.hpp"

namespace tlfea::detail {

// Sets up a MueLu hierarchy for A (3 unknowns per node: the coefficient
// blocks); symmetric selects smoothed aggregation, otherwise
// Petrov-Galerkin (non-symmetric) aggregation. nullspace: the rigid-body
// modes on A's row map (rigid_body_modes.hpp), or null for MueLu's default
// (the 3 translations).
Teuchos::RCP<TpetraOperator> make_muelu_preconditioner(
    const Teuchos::RCP<TpetraMatrix>& A, bool symmetric,
    const Teuchos::RCP<TpetraVector>& nullspace, const Teuchos::RCP<TpetraVector>& coordinates);

}  // namespace tlfea::detail
