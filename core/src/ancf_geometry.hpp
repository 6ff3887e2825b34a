// TLFEA (private to core/src): vector geometry for the ANCF Gmsh builders
// (mesh_ancf_beams.cpp, mesh_ancf_shells.cpp): unit tangents, circular-arc
// lengths and end tangents of the reference gradients.
//
// Reference gradients. The elements (ancf3243.hpp, ancf3443.hpp) take the
// nodal gradients as derivatives of the reference position with respect to
// the element's material coordinates (u, v, w), u in [0, L] etc., and build
// J0 = sum_i e0_i (x) ds_i/dxi from them (docs/theory.md §1.3), so any
// reference geometry the cubic Hermite interpolation of the nodal data gives
// is stress-free. Curved beams and shells therefore need (a) unit tangents
// that the elements meeting at a node agree on, and (b) an element length L
// that makes u close to arc length. For a circular arc of chord c whose end
// tangents differ by the angle theta, the arc length is
//   L = c theta / (2 sin(theta / 2)),
// and the chord bisects the end tangents; a node where two equal chords of a
// circle meet has the circle's tangent as the mean of the two unit chords.
// With those, the Hermite cubic of an arc of angle theta deviates from the
// circle by O(theta^4) R (it is the classical cubic arc approximation).
#pragma once

#include <cmath>

#include "mesh_text.hpp"

namespace tlfea::ancf_geometry {

using mesh_text::Vec3;

inline constexpr Real kPi = 3.14159265358979323846;

inline Vec3 add(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline Vec3 scale(Real s, const Vec3& a) { return {s * a[0], s * a[1], s * a[2]}; }
inline Real dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
// a / |a|, or all zeros for a zero (or non-finite) vector; callers check.
inline Vec3 unit(const Vec3& a) {
  const Real n = mesh_text::norm(a);
  if (!(n > 0) || !std::isfinite(n)) return {0, 0, 0};
  return scale(1 / n, a);
}
inline bool is_unit(const Vec3& a) { return std::fabs(mesh_text::norm(a) - 1) < 1e-6; }

// Arc length of the circular arc of chord c whose unit end tangents are t0,
// t1 (angle theta between them): c theta / (2 sin(theta/2)); c for theta -> 0.
inline Real arc_length(Real c, const Vec3& t0, const Vec3& t1) {
  const Real theta = std::atan2(mesh_text::norm(cross(t0, t1)), dot(t0, t1));
  if (theta < 1e-8) return c;
  return c * theta / (2 * std::sin(theta / 2));
}

// Reflection of the unit tangent t about the unit chord d: for a circular arc
// the chord bisects the end tangents, so the tangent at one end follows from
// the other's.
inline Vec3 reflect(const Vec3& t, const Vec3& d) {
  return unit(add(scale(2 * dot(d, t), d), scale(-1, t)));
}

}  // namespace tlfea::ancf_geometry
