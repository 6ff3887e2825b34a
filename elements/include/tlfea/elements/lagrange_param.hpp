// TLFEA: the per-element parameters of the Lagrange solids (T10, Q27): none;
// their shape functions depend on the parent coordinates only (docs/theory.md
// §3.1-3.2), unlike the ANCF elements, whose Param holds B^-1 and the sizes.
#pragma once

#include "tlfea/core/types.hpp"

namespace tlfea {

struct LagrangeElementParam {
  struct Param {
    Real unused;
  };
  static Param make_param(Real /*L*/ = 0, Real /*W*/ = 0, Real /*H*/ = 0) { return Param{0.0}; }
};

}  // namespace tlfea
