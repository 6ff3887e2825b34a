// TLFEA: per-element geometry computed once at setup (docs/theory.md §1.3):
//   J0(xi) = N0 ds/dxi,  H(xi) = ds/dxi J0^-1,  dV = w |det J0|,
// so that F = N H equals I in the reference configuration for every element
// type, including curved and rotated references. H is built on the device
// (build_gradients) from the elements' reference coefficients, when the
// block first needs it (ElementBlock::prepare): a whole block that a
// stepper on several MPI ranks replaces by the rank's own never builds it.
#pragma once

#include <string>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/core/tensor.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

template <class E>
struct ElementGeometry {
  using Param = typename E::Param;
  Ordinal num_elements = 0;
  DeviceView<Ordinal * [E::n]> conn;  // global coefficient ids
  DeviceView<Param*> param;           // shape parameters (ANCF sizes and B^-1)
  // (e, q, i, k) = d s_i / d X_k at stiffness point q: E::nq x E::n x 3
  // doubles per element, the bulk of a block's memory; empty until
  // build_gradients (build_geometry without them: ElementBlock::prepare).
  DeviceView<Real* * [E::n][3]> H;
  DeviceView<Real**> dV;  // (e, q) = w_q det J0
  // (e, i, a): the elements' reference coefficients, kept only until H is
  // built from them (E::n x 3 doubles per element, 1 / E::nq of H).
  DeviceView<Real * [E::n][3]> x0;
  bool has_gradients() const { return H.extent(0) == static_cast<size_t>(num_elements); }
};

// J0 = sum_i e0_i (x) ds_i/dxi for an element's reference coefficients.
template <class E>
KOKKOS_INLINE_FUNCTION Mat3 parent_jacobian(const Real x0[E::n][3], const Real ds[E::n][3]) {
  Mat3 J = zero3();
  for (int i = 0; i < E::n; ++i)
    for (int a = 0; a < 3; ++a)
      for (int k = 0; k < 3; ++k) J(a, k) += x0[i][a] * ds[i][k];
  return J;
}

// H(e, q) = ds/dxi J0^-1 from the element's reference coefficients x0(e)
// (J0 = sum_i x0_i (x) ds_i/dxi), one thread per element.
template <class E>
struct GradientFunctor {
  DeviceView<typename E::Param*> param;
  DeviceView<Real * [E::n][3]> x0;
  DeviceView<Real* * [E::n][3]> H;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    Real x[E::n][3];
    for (int i = 0; i < E::n; ++i)
      for (int a = 0; a < 3; ++a) x[i][a] = x0(e, i, a);
    for (int q = 0; q < E::nq; ++q) {
      Real xi[3], w, ds[E::n][3];
      E::quad_point(q, xi, w);
      E::shape_deriv(param(e), xi, ds);
      const Mat3 Ji = inverse(parent_jacobian<E>(x, ds));
      for (int i = 0; i < E::n; ++i)
        for (int k = 0; k < 3; ++k)
          H(e, q, i, k) = ds[i][0] * Ji(0, k) + ds[i][1] * Ji(1, k) + ds[i][2] * Ji(2, k);
    }
  }
};

// g.H built from g.x0 (on the device), which is then freed; nothing when H
// is built already.
template <class E>
void build_gradients(ElementGeometry<E>& g) {
  if (g.has_gradients()) return;
  if (g.x0.extent(0) != static_cast<size_t>(g.num_elements))
    throw_error("element geometry: no reference coefficients to build the gradients from");
  g.H = DeviceView<Real* * [E::n][3]>("tlfea::elements::H", g.num_elements, E::nq);
  Kokkos::parallel_for("tlfea::elements::gradients",
                       Kokkos::RangePolicy<ExecSpace>(0, g.num_elements),
                       GradientFunctor<E>{g.param, g.x0, g.H});
  g.x0 = DeviceView<Real * [E::n][3]>();
}

// Builds the geometry of all elements of `mesh`, whose coefficients start at
// global id `coef_offset`; with_gradients = false leaves H to
// build_gradients, keeping the elements' reference coefficients for it.
// Throws Error naming the mesh source and element for a zero or negative
// reference volume at any quadrature point.
template <class E>
ElementGeometry<E> build_geometry(const Mesh& mesh, Ordinal coef_offset,
                                  bool with_gradients = true) {
  if (mesh.type != E::type)
    throw_error(mesh.source, ": element type ", to_string(mesh.type), " given to a ",
                to_string(E::type), " block");
  if (mesh.coefficients_per_element() != E::n)
    throw_error(mesh.source, ": ", mesh.coefficients_per_element(),
                " coefficients per element, expected ", E::n);
  const bool ancf = E::coef_per_node > 1;
  const Ordinal ne = mesh.num_elements();
  if (ancf && mesh.element_size.size() != static_cast<size_t>(ne))
    throw_error(mesh.source, ": ANCF mesh needs one (L, W, H) per element, got ",
                mesh.element_size.size(), " for ", ne, " elements");
  ElementGeometry<E> g;
  g.num_elements = ne;
  g.conn = DeviceView<Ordinal * [E::n]>("tlfea::elements::conn", ne);
  g.param = DeviceView<typename E::Param*>("tlfea::elements::param", ne);
  g.dV = DeviceView<Real**>("tlfea::elements::dV", ne, E::nq);
  g.x0 = DeviceView<Real * [E::n][3]>("tlfea::elements::x0", ne);
  auto conn = host_mirror(g.conn);
  auto param = host_mirror(g.param);
  auto dV = host_mirror(g.dV);
  auto X0 = host_mirror(g.x0);
  const Ordinal nc = mesh.num_coefficients();
  for (Ordinal e = 0; e < ne; ++e) {
    Real x0[E::n][3];
    for (int i = 0; i < E::n; ++i) {
      const Ordinal c = mesh.coefficient(e, i);
      if (c < 0 || c >= nc)
        throw_error(mesh.source, ": element ", e, " references coefficient ", c, " (mesh has ", nc,
                    ")");
      conn(e, i) = c + coef_offset;
      for (int a = 0; a < 3; ++a) X0(e, i, a) = x0[i][a] = mesh.coefficients[c][a];
    }
    if (ancf) {
      const auto& sz = mesh.element_size[e];
      if (!(sz[0] > 0 && sz[1] > 0 && sz[2] > 0))
        throw_error(mesh.source, ": element ", e, " has non-positive size (", sz[0], ", ", sz[1],
                    ", ", sz[2], ")");
      param(e) = E::make_param(sz[0], sz[1], sz[2]);
    } else {
      param(e) = E::make_param(0, 0, 0);
    }
    for (int q = 0; q < E::nq; ++q) {
      Real xi[3], w, ds[E::n][3];
      E::quad_point(q, xi, w);
      E::shape_deriv(param(e), xi, ds);
      const Mat3 J0 = parent_jacobian<E>(x0, ds);
      const Real d = det(J0);
      // Scale-aware test: det J0 compared with the product of its column norms.
      Real scale = 1.0;
      for (int k = 0; k < 3; ++k)
        scale *= kmath::sqrt(J0(0, k) * J0(0, k) + J0(1, k) * J0(1, k) + J0(2, k) * J0(2, k));
      if (!(d > 1e-12 * scale))
        throw_error(mesh.source, ": element ", e,
                    " has zero or negative reference volume (det J0 = ", d, " at quadrature point ",
                    q, ")");
      dV(e, q) = w * d;
    }
  }
  copy_to_device(g.conn, conn);
  copy_to_device(g.param, param);
  copy_to_device(g.dV, dV);
  copy_to_device(g.x0, X0);
  if (with_gradients) build_gradients(g);
  return g;
}

}  // namespace tlfea
