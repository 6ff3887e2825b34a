// TLFEA: the linear solver of a run on several MPI ranks, over the rows each
// rank holds (the element partition, integrators/src/distribution.hpp).
#pragma once

#include <memory>
#include <vector>

#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/linalg/linear_solver.hpp"

namespace tlfea {

// The scalar rows of the Newton matrix one MPI rank adds values to (touched)
// and those it owns in the distributed matrix (owned: disjoint over the
// ranks, their union all rows, owned a subset of touched), both ascending.
// Empty on one rank: every row, both.
struct RowPartition {
  std::vector<Ordinal> touched, owned;
  // Where the rank's values of the touched rows sit (the whole pattern on
  // one rank).
  RowLayout layout;
  // Set by the element partition (distribution.cpp): both lists may then be
  // empty on a rank that holds no elements.
  bool partitioned = false;
};

// The linear solver over `ranks` MPI ranks for `options`: dist-cg or
// dist-gmres (Belos over MPI_COMM_WORLD on the sum over the ranks of their
// partial values; "default", belos-cg and belos-gmres map to them). Throws
// Error naming the rank count for a backend that cannot run distributed,
// and for a build without the Trilinos solvers.
std::unique_ptr<LinearSolver> make_partitioned_linear_solver(const LinearSolverOptions& options,
                                                             int ranks, const RowPartition& rows);

}  // namespace tlfea
