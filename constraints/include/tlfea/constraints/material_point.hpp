// TLFEA: material points and the frames joints are defined by.
//
// A material point X = (element, xi) has r_X = sum_i s_i(xi) e_i
// (docs/theory.md §1.3, r = N s, and §1.6). Because xi is fixed, X is a fixed
// linear combination of coefficients, so it is stored as (coefficient id,
// weight s_i(xi)) pairs, any number of them; a ground point has no
// coefficients and a fixed position `offset`. In general
// r_X = offset + sum_i weight_i q(id_i), and dr_X/de_i = weight_i I_3 (the
// single chain rule of every primitive). A ConstraintSet keeps its points in
// one MaterialPointSet (core/material_point_set.hpp).
#pragma once

#include <vector>

#include "tlfea/core/tensor.hpp"
#include "tlfea/core/types.hpp"
#include "tlfea/elements/element_block.hpp"

namespace tlfea {

struct MaterialPoint {
  int num = 0;               // coefficients in the combination (id.size()); 0 for a ground point
  std::vector<Ordinal> id;   // global coefficient ids
  std::vector<Real> weight;  // s_i(xi)
  Vec3 offset{{0.0, 0.0, 0.0}};  // ground position (0 for body points)
  bool is_ground() const { return num == 0; }
};

// Point (element, xi) of a block: weights s_i(xi), ids the element's global
// coefficient ids. Throws Error if the element is out of range.
MaterialPoint make_material_point(const ElementBlockBase& block, Ordinal element, const Real xi[3]);
// A fixed point in space.
MaterialPoint ground_point(const Vec3& position);
// The point offset + sum_i weights_i q(ids_i), any number of coefficients
// (e.g. a point of a rigid body, or a mean of points of several elements).
// Throws Error for lengths that differ or a negative id.
MaterialPoint combination_point(std::vector<Ordinal> ids, std::vector<Real> weights,
                                const Vec3& offset = Vec3{{0.0, 0.0, 0.0}});

// Position of a point in the configuration q (host copy of the coefficients).
Vec3 point_position(const MaterialPoint& p, const CoefViewHost& q);

// The element and parent coordinates of reference position X in `block`
// (Newton on r(xi) = X element by element, as find_material_point); false
// when no element contains X within `tol`.
bool locate_material_point(const ElementBlockBase& block, const CoefViewHost& q0, const Vec3& X,
                           Ordinal& element, Real xi[3], Real tol = 1e-9);
// The material point of `block` at reference position X (q0: host copy of the
// reference coefficients), found by Newton on r(xi) = X element by element.
// Accepts xi within `tol` outside an element's parent domain (points on
// faces). Throws Error when no element contains X.
MaterialPoint find_material_point(const ElementBlockBase& block, const CoefViewHost& q0,
                                  const Vec3& X, Real tol = 1e-9);

// A joint frame on one body (or the ground): the joint point, and three short
// material fibers from it, along the joint axis and two cross directions.
// Directions are r_axis - r_origin, r_cross1 - r_origin, r_cross2 - r_origin.
struct JointFrame {
  MaterialPoint origin, axis, cross1, cross2;
};

// Frame at reference position X on a body with unit axis u and cross axes
// c1 = a unit vector normal to u, c2 = u x c1 (or c1 given, made normal to u).
// Each fiber point is X + fiber_length * d, or X - fiber_length * d when the
// former lies outside the body (the sign of a fiber does not change which
// motions a dot-product row allows).
JointFrame body_joint_frame(const ElementBlockBase& block, const CoefViewHost& q0, const Vec3& X,
                            const Vec3& axis, Real fiber_length);
JointFrame body_joint_frame(const ElementBlockBase& block, const CoefViewHost& q0, const Vec3& X,
                            const Vec3& axis, const Vec3& cross1, Real fiber_length);
// The same frame fixed in space.
JointFrame ground_joint_frame(const Vec3& X, const Vec3& axis, Real fiber_length);
JointFrame ground_joint_frame(const Vec3& X, const Vec3& axis, const Vec3& cross1,
                              Real fiber_length);

}  // namespace tlfea
