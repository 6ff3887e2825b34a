// TLFEA: rigid obstacles for contact (docs/theory.md §7.1): an infinite plane,
// a sphere and a box, each fixed or moved by a prescribed rigid motion, a host
// function of time evaluated once per step: a translation at constant
// velocity, a constant velocity and angular velocity (rigid_motion), a table
// of positions and angles interpolated linearly (table_motion), or any
// function.
//
// An obstacle is body B of its contacts (ContactPoints body id -1 - k for
// obstacle k); the deformable vertex is body A, so the normal is the
// obstacle's outward normal at the closest surface point, and B's velocity at
// the contact point is v + omega x (x_c - position) (rigid-body kinematics).
#pragma once

#include <functional>
#include <vector>

#include "tlfea/core/tensor.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

enum class ObstacleShape : int { Plane = 0, Sphere = 1, Box = 2 };

// Pose of an obstacle at time t: the current position of its reference point
// (plane point / sphere or box centre), the rotation applied to its reference
// orientation (plane normal, box axes), and the rigid velocity field
// (velocity of the reference point, angular velocity).
struct RigidMotion {
  Vec3 position{{0.0, 0.0, 0.0}};
  Mat3 rotation = identity3();
  Vec3 velocity{{0.0, 0.0, 0.0}};
  Vec3 angular_velocity{{0.0, 0.0, 0.0}};
};

struct Obstacle {
  ObstacleShape shape = ObstacleShape::Plane;
  Vec3 point{{0.0, 0.0, 0.0}};      // plane: a point on it; sphere / box: centre
  Vec3 normal{{0.0, 0.0, 1.0}};     // plane: unit normal towards the bodies
  Real radius = 0.0;                // sphere
  Vec3 half_size{{0.0, 0.0, 0.0}};  // box: half edge lengths along its axes
  Mat3 orientation = identity3();   // box: its axes as columns (a rotation)
  // Empty: fixed at the reference pose. Otherwise called on the host once per
  // detection with the time of the configuration being checked.
  std::function<RigidMotion(Real)> motion;

  // Plane through `point` with normal `normal` (normalised here); bodies
  // live on the side the normal points to.
  static Obstacle plane(const Vec3& point, const Vec3& normal);
  static Obstacle sphere(const Vec3& centre, Real radius);
  static Obstacle box(const Vec3& centre, const Vec3& half_size,
                      const Mat3& orientation = identity3());
  Obstacle& with_motion(std::function<RigidMotion(Real)> m) {
    motion = std::move(m);
    return *this;
  }
};

// A translation at constant velocity from the reference pose:
// position(t) = start + velocity t.
std::function<RigidMotion(Real)> constant_velocity_motion(const Vec3& start, const Vec3& velocity);

// Rotation by `angle` [rad] about the unit vector along `axis` (Rodrigues:
// R = I + sin(a) [k]x + (1 - cos(a)) [k]x^2); identity for a zero axis.
Mat3 axis_angle_rotation(const Vec3& axis, Real angle);

// A rigid motion at constant velocity v and constant angular velocity omega
// (docs/theory.md §7.1): a material point X of the obstacle (reference pose)
// is at x(t) = c(t) + R(t) (X - c0), c(t) = c0 + v t, R(t) = exp(t [omega]x)
// (a rotation by |omega| t about omega), and moves at
// v + omega x (x - c(t)). `reference_point` is the obstacle's point (plane
// point / centre), c0 the point the obstacle turns about at t = 0.
std::function<RigidMotion(Real)> rigid_motion(const Vec3& reference_point, const Vec3& c0,
                                              const Vec3& velocity, const Vec3& omega);

// A motion given as a table: at times t_0 < t_1 < ... the displacement u_i
// of the obstacle's reference point and (optionally) an angle theta_i [rad]
// about the fixed unit axis `axis` through the displaced reference point:
// x(t) = p0 + u(t) + R(theta(t)) (X - p0). Between rows u and theta are
// linear, so the velocity of the reference point is the row's slope
// (u_{i+1} - u_i) / (t_{i+1} - t_i) and omega = axis (theta_{i+1} - theta_i) /
// (t_{i+1} - t_i); at a row time the later segment's slope is used. Before
// t_0 and after the last row the pose is held (velocity 0).
struct MotionTable {
  std::vector<Real> time;
  std::vector<Vec3> displacement;
  std::vector<Real> angle;  // empty: no rotation
  Vec3 axis{{0.0, 0.0, 1.0}};
};
// Throws Error for an empty table, times that do not increase, rows of
// unequal length, non-finite values or a zero axis with angles.
std::function<RigidMotion(Real)> table_motion(const Vec3& reference_point, MotionTable table);

// Device form of an obstacle at one time (trivially copyable).
struct ObstacleState {
  int shape = 0;                 // ObstacleShape
  Vec3 center{{0.0, 0.0, 0.0}};  // current reference point
  Vec3 normal{{0.0, 0.0, 1.0}};  // plane: current unit normal
  Mat3 axes = identity3();       // box: current axes as columns
  Real radius = 0.0;
  Vec3 half_size{{0.0, 0.0, 0.0}};
  Vec3 velocity{{0.0, 0.0, 0.0}};
  Vec3 angular_velocity{{0.0, 0.0, 0.0}};
};

// Host: the obstacle's pose at time t (throws Error for a malformed obstacle).
ObstacleState evaluate_obstacle(const Obstacle& obstacle, Real t);

// Penetration of point x into the obstacle: true when x is strictly inside,
// with depth delta > 0, the outward unit normal n at the closest surface point
// and that point xs = x + delta n. Plane: signed distance d = (x - p) . n,
// delta = -d. Sphere: delta = R - |x - c|, n = (x - c) / |x - c|. Box: the
// face of least depth, delta = h_i - |y_i| with y = axes^T (x - c).
KOKKOS_INLINE_FUNCTION bool obstacle_penetration(const ObstacleState& o, const Real x[3],
                                                 Real& delta, Real n[3], Real xs[3]) {
  Real d[3] = {x[0] - o.center[0], x[1] - o.center[1], x[2] - o.center[2]};
  if (o.shape == static_cast<int>(ObstacleShape::Plane)) {
    const Real s = d[0] * o.normal[0] + d[1] * o.normal[1] + d[2] * o.normal[2];
    if (!(s < 0.0)) return false;
    delta = -s;
    for (int a = 0; a < 3; ++a) n[a] = o.normal[a];
  } else if (o.shape == static_cast<int>(ObstacleShape::Sphere)) {
    const Real r = kmath::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(r < o.radius)) return false;
    delta = o.radius - r;
    if (r > 0.0) {
      for (int a = 0; a < 3; ++a) n[a] = d[a] / r;
    } else {  // at the centre every direction is closest; pick +z
      n[0] = 0.0;
      n[1] = 0.0;
      n[2] = 1.0;
    }
  } else {
    Real y[3];
    for (int i = 0; i < 3; ++i)
      y[i] = o.axes(0, i) * d[0] + o.axes(1, i) * d[1] + o.axes(2, i) * d[2];
    int best = -1;
    Real depth = 0.0;
    for (int i = 0; i < 3; ++i) {
      const Real di = o.half_size[i] - kmath::fabs(y[i]);
      if (!(di > 0.0)) return false;
      if (best < 0 || di < depth) {
        best = i;
        depth = di;
      }
    }
    delta = depth;
    const Real sgn = (y[best] < 0.0) ? -1.0 : 1.0;
    for (int a = 0; a < 3; ++a) n[a] = sgn * o.axes(a, best);
  }
  for (int a = 0; a < 3; ++a) xs[a] = x[a] + delta * n[a];
  return true;
}

// Velocity of the obstacle's material point at x: v + omega x (x - c).
KOKKOS_INLINE_FUNCTION void obstacle_velocity_at(const ObstacleState& o, const Real x[3],
                                                 Real v[3]) {
  const Real r[3] = {x[0] - o.center[0], x[1] - o.center[1], x[2] - o.center[2]};
  const Vec3& w = o.angular_velocity;
  v[0] = o.velocity[0] + w[1] * r[2] - w[2] * r[1];
  v[1] = o.velocity[1] + w[2] * r[0] - w[0] * r[2];
  v[2] = o.velocity[2] + w[0] * r[1] - w[1] * r[0];
}

}  // namespace tlfea
