// TLFEA: rigid obstacles (obstacles.hpp, docs/theory.md §7.1): the plane,
// sphere and box factories, the prescribed rigid motions, and the pose of an
// obstacle at a time.
#include "tlfea/contact/obstacles.hpp"

#include <algorithm>
#include <cmath>

#include "tlfea/core/error.hpp"

namespace tlfea {

Obstacle Obstacle::plane(const Vec3& point, const Vec3& normal) {
  const Real len = std::sqrt(dot(normal, normal));
  if (!(len > 0.0)) throw_error("contact obstacle: plane normal is zero");
  Obstacle o;
  o.shape = ObstacleShape::Plane;
  o.point = point;
  o.normal = Vec3{{normal[0] / len, normal[1] / len, normal[2] / len}};
  return o;
}

Obstacle Obstacle::sphere(const Vec3& centre, Real radius) {
  if (!(radius > 0.0)) throw_error("contact obstacle: sphere radius must be > 0, got ", radius);
  Obstacle o;
  o.shape = ObstacleShape::Sphere;
  o.point = centre;
  o.radius = radius;
  return o;
}

Obstacle Obstacle::box(const Vec3& centre, const Vec3& half_size, const Mat3& orientation) {
  for (int a = 0; a < 3; ++a)
    if (!(half_size[a] > 0.0))
      throw_error("contact obstacle: box half sizes must be > 0, got ", half_size[a]);
  // Orientation must be a rotation (columns orthonormal, det +1).
  const Mat3 rtr = mul_tn(orientation, orientation);
  Real err = std::fabs(det(orientation) - 1.0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) err = std::max(err, std::fabs(rtr(i, j) - (i == j ? 1.0 : 0.0)));
  if (err > 1e-9)
    throw_error("contact obstacle: box orientation is not a rotation (error ", err, ")");
  Obstacle o;
  o.shape = ObstacleShape::Box;
  o.point = centre;
  o.half_size = half_size;
  o.orientation = orientation;
  return o;
}

std::function<RigidMotion(Real)> constant_velocity_motion(const Vec3& start, const Vec3& velocity) {
  return [start, velocity](Real t) {
    RigidMotion m;
    for (int a = 0; a < 3; ++a) m.position[a] = start[a] + velocity[a] * t;
    m.velocity = velocity;
    return m;
  };
}

Mat3 axis_angle_rotation(const Vec3& axis, Real angle) {
  Mat3 R = identity3();
  const Real n = std::sqrt(dot(axis, axis));
  if (!(n > 0.0) || angle == 0.0) return R;
  const Real k[3] = {axis[0] / n, axis[1] / n, axis[2] / n};
  const Real c = std::cos(angle), s = std::sin(angle), t = 1.0 - c;
  // R = c I + s [k]x + (1 - c) k k^T (Rodrigues).
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = (i == j ? c : 0.0) + t * k[i] * k[j];
  R(0, 1) -= s * k[2];
  R(0, 2) += s * k[1];
  R(1, 0) += s * k[2];
  R(1, 2) -= s * k[0];
  R(2, 0) -= s * k[1];
  R(2, 1) += s * k[0];
  return R;
}

namespace {
Vec3 cross_vec(const Vec3& a, const Vec3& b) {
  return Vec3{{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}};
}
Vec3 rotate(const Mat3& R, const Vec3& x) {
  Vec3 y;
  for (int i = 0; i < 3; ++i) y[i] = R(i, 0) * x[0] + R(i, 1) * x[1] + R(i, 2) * x[2];
  return y;
}
}  // namespace

std::function<RigidMotion(Real)> rigid_motion(const Vec3& p0, const Vec3& c0, const Vec3& v,
                                              const Vec3& omega) {
  for (int a = 0; a < 3; ++a)
    if (!std::isfinite(p0[a]) || !std::isfinite(c0[a]) || !std::isfinite(v[a]) ||
        !std::isfinite(omega[a]))
      throw_error("contact obstacle: rigid motion with a non-finite value");
  const Real w = std::sqrt(dot(omega, omega));
  return [p0, c0, v, omega, w](Real t) {
    RigidMotion m;
    // R(t) = exp(t [omega]x): a rotation by |omega| t about omega.
    m.rotation = axis_angle_rotation(omega, w * t);
    Vec3 c, r0;
    for (int a = 0; a < 3; ++a) {
      c[a] = c0[a] + v[a] * t;
      r0[a] = p0[a] - c0[a];
    }
    const Vec3 r = rotate(m.rotation, r0);  // p(t) - c(t)
    const Vec3 wr = cross_vec(omega, r);
    for (int a = 0; a < 3; ++a) {
      m.position[a] = c[a] + r[a];
      m.velocity[a] = v[a] + wr[a];  // the reference point's velocity
    }
    m.angular_velocity = omega;
    return m;
  };
}

std::function<RigidMotion(Real)> table_motion(const Vec3& p0, MotionTable tab) {
  const size_t n = tab.time.size();
  if (n == 0) throw_error("contact obstacle: motion table has no rows");
  if (tab.displacement.size() != n || (!tab.angle.empty() && tab.angle.size() != n))
    throw_error("contact obstacle: motion table columns have unequal lengths");
  for (size_t i = 0; i < n; ++i) {
    bool finite = std::isfinite(tab.time[i]);
    for (int a = 0; a < 3; ++a) finite = finite && std::isfinite(tab.displacement[i][a]);
    if (!tab.angle.empty()) finite = finite && std::isfinite(tab.angle[i]);
    if (!finite) throw_error("contact obstacle: motion table row ", i, " has a non-finite value");
    if (i > 0 && !(tab.time[i] > tab.time[i - 1]))
      throw_error("contact obstacle: motion table times must increase (row ", i, ": ", tab.time[i],
                  " after ", tab.time[i - 1], ")");
  }
  if (!tab.angle.empty()) {
    const Real len = std::sqrt(dot(tab.axis, tab.axis));
    if (!(len > 0.0) || !std::isfinite(len))
      throw_error("contact obstacle: motion table rotation axis is zero");
    for (int a = 0; a < 3; ++a) tab.axis[a] /= len;
  }
  return [p0, tab](Real t) {
    const size_t n = tab.time.size();
    const bool rot = !tab.angle.empty();
    RigidMotion m;
    Vec3 u = tab.displacement[0];
    Real th = rot ? tab.angle[0] : 0.0, dth = 0.0;
    if (n > 1 && t >= tab.time[0] && t < tab.time[n - 1]) {
      // Segment i: t_i <= t < t_{i+1}.
      const size_t i = static_cast<size_t>(std::upper_bound(tab.time.begin(), tab.time.end(), t) -
                                           tab.time.begin()) -
                       1;
      const Real h = tab.time[i + 1] - tab.time[i], s = (t - tab.time[i]) / h;
      for (int a = 0; a < 3; ++a) {
        const Real du = tab.displacement[i + 1][a] - tab.displacement[i][a];
        u[a] = tab.displacement[i][a] + s * du;
        m.velocity[a] = du / h;
      }
      if (rot) {
        dth = (tab.angle[i + 1] - tab.angle[i]) / h;
        th = tab.angle[i] + s * (tab.angle[i + 1] - tab.angle[i]);
      }
    } else if (n > 1 && t >= tab.time[n - 1]) {
      u = tab.displacement[n - 1];
      th = rot ? tab.angle[n - 1] : 0.0;
    }
    for (int a = 0; a < 3; ++a) m.position[a] = p0[a] + u[a];
    if (rot) {
      m.rotation = axis_angle_rotation(tab.axis, th);
      for (int a = 0; a < 3; ++a) m.angular_velocity[a] = dth * tab.axis[a];
    }
    return m;
  };
}

ObstacleState evaluate_obstacle(const Obstacle& o, Real t) {
  RigidMotion m;
  m.position = o.point;
  if (o.motion) m = o.motion(t);
  ObstacleState s;
  s.shape = static_cast<int>(o.shape);
  s.center = m.position;
  s.velocity = m.velocity;
  s.angular_velocity = m.angular_velocity;
  s.radius = o.radius;
  s.half_size = o.half_size;
  s.normal = m.rotation * o.normal;
  s.axes = m.rotation * o.orientation;
  if (o.shape == ObstacleShape::Plane) {
    const Real len = std::sqrt(dot(s.normal, s.normal));
    if (!(len > 0.0)) throw_error("contact obstacle: plane normal is zero at t = ", t);
    for (int a = 0; a < 3; ++a) s.normal[a] /= len;
  }
  return s;
}

}  // namespace tlfea
