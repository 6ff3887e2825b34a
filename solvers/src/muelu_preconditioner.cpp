#include "muelu_preconditioner.hpp"

#include <MueLu_CreateTpetraPreconditioner.hpp>
#include <Teuchos_ParameterList.hpp>

namespace tlfea::detail {

Teuchos::RCP<TpetraOperator> make_muelu_preconditioner(const Teuchos::RCP<TpetraMatrix>& A,
                                                       bool symmetric) {
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
  Teuchos::RCP<TpetraOperator> op = A;
  return MueLu::CreateTpetraPreconditioner(op, params);
}

}  // namespace tlfea::detail
