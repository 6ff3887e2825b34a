// MueLu smoothed aggregation (Vanek, Mandel & Brezina 1996; docs/theory.md
// §8.4): 3 rows per aggregation node (the coefficient blocks),
// near-nullspace the rigid-body modes when given (rigid_body_modes.hpp),
// one symmetric Gauss-Seidel sweep as pre- and post-smoother, KLU2 on the
// coarsest level (at most 500 rows).
//
// Several ranks: Amesos2's KLU2 on a coarse matrix whose rows are spread over
// the ranks did not act as the coarse inverse in this Trilinos (13.2): CG
// stalled at a relative residual of 5e-4 on B1 res 4 (2 ranks, 500
// iterations), with or without the rigid-body modes, and converged in 25
// iterations when the coarsest level was relaxed instead. So the coarse
// levels are repartitioned (Zoltan2 on the node coordinates) onto
// ceil(rows / 800) ranks: the coarsest, <= 500 rows, always onto one, where
// KLU2 factors it whole. A matrix of <= 500 rows would be its own coarsest
// level (level 0 is not repartitioned: it stays spread over the ranks;
// rigid_crank_flexible_rod, 84 rows on 2 ranks, stalled at 3e-3); coarsened
// once anyway, B1 res 0 (270 rows, 2 ranks) gave a coarse matrix KLU2 found
// singular (aggregates cut at the rank boundary, fewer rows than the six
// modes), so such a matrix is preconditioned by the Gauss-Seidel sweep alone
// (one level, no coarse solve). On several ranks the
// Gauss-Seidel sweep is Ifpack2's hybrid one (Gauss-Seidel within a rank's
// rows, Jacobi across ranks), which still gives the 1-rank iteration counts
// within a few percent (docs/benchmarks.md).
#include "muelu_preconditioner.hpp"

#include <MueLu_CreateTpetraPreconditioner.hpp>
#include <Teuchos_ParameterList.hpp>

namespace tlfea::detail {

Teuchos::RCP<TpetraOperator> make_muelu_preconditioner(
    const Teuchos::RCP<TpetraMatrix>& A, bool symmetric,
    const Teuchos::RCP<TpetraVector>& nullspace, const Teuchos::RCP<TpetraVector>& coordinates) {
  Teuchos::ParameterList params;
  params.set("verbosity", std::string("none"));
  params.set("number of equations", 3);
  params.set("problem: symmetric", symmetric);
  params.set("multigrid algorithm", std::string(symmetric ? "sa" : "pg"));
  params.set("coarse: type", std::string("KLU2"));
  params.set("coarse: max size", 500);
  params.set("smoother: type", std::string("RELAXATION"));
  Teuchos::ParameterList smoother;
  smoother.set("relaxation: type", std::string("Symmetric Gauss-Seidel"));
  smoother.set("relaxation: sweeps", 1);
  params.set("smoother: params", smoother);
  if (A->getComm()->getSize() > 1) {
    if (coordinates.is_null())
      throw_error("muelu on ", A->getComm()->getSize(),
                  " ranks needs the node coordinates (set_rigid_body_layout and "
                  "set_coefficients: the coarse levels are repartitioned by them)");
    // A matrix already within the coarse size would be its own coarsest
    // level, spread over the ranks: relaxed there instead of factored.
    if (A->getGlobalNumRows() <= 500) {
      params.set("max levels", 1);
      params.set("coarse: type", std::string("RELAXATION"));
      params.set("coarse: params", smoother);
    }
    params.set("repartition: enable", true);
    params.set("repartition: start level", 1);
    params.set("repartition: min rows per proc", 800);  // > coarse: max size
    params.set("repartition: partitioner", std::string("zoltan2"));
  }
  Teuchos::ParameterList& user = params.sublist("user data");
  if (!nullspace.is_null()) user.set("Nullspace", nullspace);
  if (!coordinates.is_null()) user.set("Coordinates", coordinates);
  Teuchos::RCP<TpetraOperator> op = A;
  return MueLu::CreateTpetraPreconditioner(op, params);
}

}  // namespace tlfea::detail
