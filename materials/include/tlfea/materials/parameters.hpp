// TLFEA: host helpers converting engineering constants to the moduli the
// material structs hold. Isotropic linear elasticity (e.g. Bonet & Wood 2008,
// sec. 6.5.1):
//   mu     = E / (2 (1 + nu))                  shear modulus (second Lame constant)
//   lambda = E nu / ((1 + nu) (1 - 2 nu))      first Lame constant
//   K      = E / (3 (1 - 2 nu)) = lambda + 2/3 mu   bulk modulus
#pragma once

#include <tlfea/core/error.hpp>
#include <tlfea/core/types.hpp>

namespace tlfea {

struct LameParameters {
  Real lambda, mu;
};

// Rejects constants for which the formulas above are singular or the
// small-strain elasticity tensor is not positive definite: E > 0, -1 < nu < 1/2.
inline void check_young_poisson(Real E, Real nu) {
  if (!(E > 0.0)) throw_error("material: Young's modulus E = ", E, " must be positive");
  if (!(nu > -1.0 && nu < 0.5))
    throw_error("material: Poisson ratio nu = ", nu, " must lie in (-1, 0.5)");
}

inline Real shear_modulus(Real E, Real nu) {
  check_young_poisson(E, nu);
  return E / (2.0 * (1.0 + nu));
}

inline Real lame_lambda(Real E, Real nu) {
  check_young_poisson(E, nu);
  return E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
}

inline Real bulk_modulus(Real E, Real nu) {
  check_young_poisson(E, nu);
  return E / (3.0 * (1.0 - 2.0 * nu));
}

inline LameParameters lame_from_young_poisson(Real E, Real nu) {
  return LameParameters{lame_lambda(E, nu), shear_modulus(E, nu)};
}

}  // namespace tlfea
