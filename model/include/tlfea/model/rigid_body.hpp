// TLFEA: rigid bodies in natural (fully Cartesian) coordinates
// (docs/theory.md §10; Garcia de Jalon and Bayo 1994, ch. 2-4).
//
// A rigid body is one "rigid node" of four coefficient vectors, like an ANCF
// node: its centre of mass r and three director vectors r_1, r_2, r_3 (the
// body axes, unit and mutually orthogonal; in the reference configuration
// the world axes e_1, e_2, e_3). A material point with body coordinates X
// (reference position c + X) is at
//   x(X) = r + X_1 r_1 + X_2 r_2 + X_3 r_3,                       (§10.1)
// a fixed linear combination of coefficients, so the constraint primitives,
// joints and point loads use it unchanged. Rigidity is six quadratic
// constraints, added to the model's constraint set at finalize():
//   |r_k|^2 = 1 (three DIST rows),  r_k . r_l = 0 (three DP1 rows). (§10.2)
// With s = (1, X_1, X_2, X_3) the mass matrix is constant (§10.3):
//   M = int rho s s^T dV (x) I_3 = [[m, 0], [0, S]] (x) I_3,
//   S = int rho X X^T dV = (tr(I_c) / 2) 1 - I_c,
// I_c the inertia tensor about the centre of mass (reference axes). There is
// no internal force: the body's stiffness is the rigidity constraints.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "tlfea/core/mesh.hpp"
#include "tlfea/core/tensor.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

struct RigidBodySpec {
  Real mass = 0.0;               // m > 0 [kg]
  Vec3 center{{0.0, 0.0, 0.0}};  // centre of mass, reference configuration [m]
  Mat3 inertia = zero3();        // I_c about the centre, reference axes [kg m^2]
  // Half-extents of the box around the centre that holds the body's
  // material points (joint frames and point loads are located in it; its
  // parent domain is [-1, 1]^3, x = c + 1.05 extent .* xi: a 5 % margin).
  // Zero entries: taken from the shape when there is one, else 1e3 m (any
  // point).
  Vec3 extent{{0.0, 0.0, 0.0}};
  // Optional shape for output (a T10 or Q27 mesh in the reference
  // configuration, written moved rigidly); empty connectivity: none.
  Mesh shape;
  // Optional triangulated surface for output when there is no shape mesh
  // (a primitive's contact triangulation): points relative to `center` in
  // the reference axes, triangles counter-clockwise seen from outside.
  std::vector<Vec3> surface_points;
  std::vector<std::array<Ordinal, 3>> surface_triangles;
  std::string name;  // for messages
};

// Mass properties (m, centre, I_c) of a T10 / Q27 mesh of uniform density,
// from its consistent mass matrix M_ij = int rho s_i s_j dV (the elements'
// own mass integration, docs/theory.md §3.5): with x = sum_i s_i x_i and
// sum_i s_i = 1, m = sum_ij M_ij, m c = sum_ij M_ij x_j,
// int rho x x^T dV = sum_ij M_ij x_i x_j^T. The shape is stored in the spec.
RigidBodySpec rigid_body_from_mesh(const Mesh& mesh, Real density);

// Closed-form mass properties of primitive solids of density rho centred at
// c with axes along the world axes (cylinder: axis e_3 = z).
RigidBodySpec rigid_box(const Vec3& center, const Vec3& size, Real density);
RigidBodySpec rigid_sphere(const Vec3& center, Real radius, Real density);
RigidBodySpec rigid_cylinder(const Vec3& center, Real radius, Real length, Real density);

// The 4x4 scalar mass of §10.3 (row-major; the coefficient order r, r_1, r_2, r_3).
void rigid_mass_matrix(const RigidBodySpec& spec, Real M[16]);

}  // namespace tlfea
