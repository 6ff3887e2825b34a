// TLFEA: rotational spring-dampers between two body frames about an axis
// (docs/theory.md §11.2), force elements of a Model.
//
// Element e holds three vectors, each a fixed linear combination of
// coefficients (or constant, on the ground): the axis u and a reference
// vector a on body i (a normal to u), and a vector b on body j (b = a in the
// reference configuration). For rigid bodies they are combinations of the
// directors (u = sum_k u_k r_k, §10.1). The angle of b about u relative to a,
//   theta = atan2(s, c),  s = (a x b) . u,  c = a . b,
// is a function of q (no rotation vector, no state; defined for
// |theta| < pi). Torque tau = k (theta - theta0) + c_d theta' with
// theta' = grad(theta) . v; generalized force f = -tau grad(theta) (virtual
// work of the torque through delta theta), potential k (theta - theta0)^2 / 2.
#pragma once

#include <vector>

#include "tlfea/constraints/material_point.hpp"
#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/material_point_set.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

struct RotationalSpringDamperSpec {
  Real stiffness = 0.0;  // k [N m / rad]
  Real damping = 0.0;    // c [N m s / rad]
  Real angle0 = 0.0;     // theta0 [rad], |theta0| < pi
};

class RotationalSpringDampers {
 public:
  // u, a: vectors of body i (or constant), b: of body j; at least one on a
  // body. Throws Error for negative k or c, |theta0| >= pi, a zero u, or a
  // reference a, b not normal to u or not equal.
  int add(const MaterialPoint& u, const MaterialPoint& a, const MaterialPoint& b,
          const RotationalSpringDamperSpec& spec, const CoefViewHost& q0);
  int size() const { return static_cast<int>(specs_.size()); }
  void finalize();
  CliqueSet cliques() const;
  void set_matrix_offsets(const CrsPattern& pattern, const DeviceView<Offset***>& offsets);
  DeviceView<Offset***>& matrix_offsets() { return offsets_; }
  // f += the generalized forces at (q, v) (v empty: at rest).
  void add_force(const CoefView& q, const CoefView& v, const CoefView& f) const;
  // values += -alpha_K df/dq - alpha_D df/dv.
  void tangent(const CoefView& q, const CoefView& v, Real alpha_K, Real alpha_D,
               const DeviceView<Real*>& values) const;
  Real energy(const CoefView& q) const;
  // theta of element e at host q.
  Real angle(int e, const CoefViewHost& q) const;

 private:
  MaterialPointSetHost vectors_host_;  // 3 e: u, 3 e + 1: a, 3 e + 2: b
  std::vector<RotationalSpringDamperSpec> specs_;
  MaterialPointSet vectors_;
  DeviceView<Real* [3]> params_;  // k, c, theta0
  DeviceView<Offset***> offsets_;
  DeviceView<Offset*> block_row_length_;
};

}  // namespace tlfea
