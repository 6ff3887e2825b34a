// TLFEA: translational spring-dampers between two material points
// (docs/theory.md §11), the force elements of a Model.
//
// Element e joins the material points a and b (docs/theory.md §1.6: each a
// fixed linear combination of coefficients, or a ground point):
//   d = r_b - r_a,  L = |d|,  n = d / L,  L' = n . (v_b - v_a),
//   F = F_s(L - L0) + F_0 + c L'     (tension positive),
// F_s(delta) = k delta, or the piecewise-linear force-deflection table
// (linear extrapolation past its ends with the end segments' slopes), F_0 the
// preload. The force on b is -F n, on a +F n; on the coefficients, with
// d = sum_i s_i q_i (s_i = +w_i for b's coefficients, -w_i for a's):
//   f_i = -s_i P,  P = F n.
// Its derivatives (dv = v_b - v_a, k_t = F_s'(delta)):
//   dP/dd  = k_t n n^T + (F / L) (I - n n^T) + (c / L) n ((I - n n^T) dv)^T,
//   dP/ddv = c n n^T,
// so df_i/dq_j = -s_i s_j dP/dd and df_i/dv_j = -s_i s_j dP/ddv. The
// potential V = int_0^delta F_s + F_0 delta (the damper dissipates).
#pragma once

#include <utility>
#include <vector>

#include "tlfea/constraints/material_point.hpp"
#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/material_point_set.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

struct SpringDamperSpec {
  Real stiffness = 0.0;    // k [N/m] (unused with a table)
  Real damping = 0.0;      // c [N s/m]
  Real rest_length = 0.0;  // L0 [m]
  Real preload = 0.0;      // F_0 [N], tension positive
  // Force-deflection table (delta [m], F_s [N]), delta strictly increasing,
  // at least two rows; empty: F_s = k delta.
  std::vector<std::pair<Real, Real>> table;
};

// The state of one spring-damper (host evaluation, for tests and output):
// L, L' and F (tension positive).
struct SpringDamperState {
  Real length = 0.0, rate = 0.0, force = 0.0;
};

class SpringDampers {
 public:
  // Adds the element between points a and b (at least one of them on a
  // body); throws Error for a negative stiffness, damping or rest length, or
  // a bad table. Before finalize().
  int add(const MaterialPoint& a, const MaterialPoint& b, const SpringDamperSpec& spec);
  int size() const { return static_cast<int>(specs_.size()); }
  // Uploads the elements; the cliques (a's and b's coefficients per element)
  // for the Newton matrix pattern.
  void finalize();
  CliqueSet cliques() const;
  void set_matrix_offsets(const CrsPattern& pattern, const DeviceView<Offset***>& offsets);
  const DeviceView<Offset***>& matrix_offsets() const { return offsets_; }
  DeviceView<Offset***>& matrix_offsets() { return offsets_; }

  // f += sum_e f^e(q, v) (the generalized forces on the bodies).
  void add_force(const CoefView& q, const CoefView& v, const CoefView& f) const;
  // values += -alpha_K df/dq - alpha_D df/dv, in the layout of the offsets
  // (a negative offset: an entry not held).
  void tangent(const CoefView& q, const CoefView& v, Real alpha_K, Real alpha_D,
               const DeviceView<Real*>& values) const;
  // The potential sum_e V_e(q) (one device reduction).
  Real energy(const CoefView& q) const;
  // Element e's length, rate, force and potential at host q, v (v may be empty).
  SpringDamperState state(int e, const CoefViewHost& q, const CoefViewHost& v) const;

 private:
  MaterialPointSetHost points_host_;  // points 2 e (a) and 2 e + 1 (b)
  std::vector<SpringDamperSpec> specs_;
  MaterialPointSet points_;
  DeviceView<Real* [4]> params_;    // k, c, L0, F_0
  DeviceView<Ordinal* [2]> table_;  // rows [begin, end) of table_xy_
  DeviceView<Real* [2]> table_xy_;
  DeviceView<Offset***> offsets_;
  DeviceView<Offset*> block_row_length_;
};

}  // namespace tlfea
