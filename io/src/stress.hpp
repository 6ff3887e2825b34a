// TLFEA io (internal): per-element Cauchy stress for the output.
#pragma once

#include "tlfea/elements/element_block.hpp"
#include "tlfea/materials/material_spec.hpp"

namespace tlfea::io {

// (element, 0..5) Cauchy stress sigma = P(F) F^T / J of the elastic part of
// the law (Voigt order xx, yy, zz, yz, xz, xy), the arithmetic mean over the
// element's stiffness quadrature points; (element, 6) the von Mises value of
// that mean. Host copy.
HostView<Real* [7]> element_cauchy_stress(const ElementBlockBase& block, const MaterialSpec& spec,
                                          const CoefView& q);

}  // namespace tlfea::io
