// TLFEA: the closed set of element types. Each is a struct of static,
// device-callable functions (shape, shape_deriv, quadrature rules, faces) and
// a per-element Param (ANCF: L, W, H and B^-1); see t10.hpp for the interface.
#pragma once

#include "tlfea/core/error.hpp"
#include "tlfea/elements/ancf3243.hpp"
#include "tlfea/elements/ancf3443.hpp"
#include "tlfea/elements/q27.hpp"
#include "tlfea/elements/quadrature.hpp"
#include "tlfea/elements/t10.hpp"

namespace tlfea {

// Host: calls f(Element{}) for the element struct of a runtime type, e.g.
//   dispatch_element_type(mesh.type, [&](auto e) { using E = decltype(e); ... });
// Every branch must return the same type.
template <class F>
decltype(auto) dispatch_element_type(ElementType type, F&& f) {
  switch (type) {
    case ElementType::T10:
      return f(T10{});
    case ElementType::Q27:
      return f(Q27{});
    case ElementType::ANCF3243:
      return f(ANCF3243{});
    case ElementType::ANCF3443:
      return f(ANCF3443{});
  }
  throw_error("dispatch_element_type: unknown element type");
}

}  // namespace tlfea
