// An independent reference for the slope tests: a rigid cube on a rigid
// incline with the Hertz-Mindlin contact law at its bottom vertices, written
// out again here from the formulas (docs/theory.md §7.4; Hertz 1882, Mindlin
// 1949, Tsuji et al. 1992) rather than calling contact_law.hpp, and
// integrated with a step far below the contact period (semi-implicit Euler).
// Plane motion in the slope's x-z plane: centre of mass X (down the slope),
// Z (along the normal), rotation theta about the y axis; the bottom face's
// vertices form `lines` lines across the slope of `per_line` vertices each,
// which move together. Every vertex is one contact of radius R* with
// damping mass m_d:
//   S_n = 2 E* sqrt(R delta), F_n = max(0, (2/3) S_n delta - gamma_n v_n),
//   S_t = 8 G* sqrt(R delta), F_t = -S_t delta_t - gamma_t v_t,
//   gamma = 2 sqrt(5/6) beta sqrt(S m_d), beta = -ln e / sqrt(ln^2 e + pi^2),
//   |F_t| <= mu F_n: on the cap delta_t = -F_t / S_t and the slip s grows by
//   the change of delta_t; mu = mu_s while sticking, mu_k + (mu_s - mu_k)
//   max(0, 1 - s / D_c) while slipping; a step below the cap sticks (s = 0).
#pragma once

#include <cmath>
#include <vector>

namespace tlfea {
namespace rigid_slope {

struct Params {
  double tan_alpha = 0.22, g = 9.81;
  double side = 0.1, mass = 1.0;  // cube edge [m] and mass [kg]
  double E = 1e7, nu = 0.3;       // contact material (the plane rigid)
  double radius = 0.05;           // R* of every vertex contact [m]
  double restitution = 0.5, mu_s = 0.25, mu_k = 0.2, slip_distance = 1e-4;
  double damping_mass = 0.04;        // m_d of every contact [kg]
  int lines = 5, per_line = 5;       // the bottom face's vertex grid
  double dt = 2e-6, duration = 0.3;  // integration step and time [s]
};

// Returns the centre of mass's displacement down the slope after `duration`,
// gravity on in full from t = 0 and the block at rest touching the plane.
inline double slide(const Params& p) {
  const double pi = 3.14159265358979323846;
  const double alpha = std::atan(p.tan_alpha), ca = std::cos(alpha), sa = std::sin(alpha);
  const double E_star = p.E / (1.0 - p.nu * p.nu);
  const double G_star = p.E / (2.0 * (2.0 - p.nu) * (1.0 + p.nu));
  const double le = std::log(p.restitution);
  const double beta = -le / std::sqrt(le * le + pi * pi);
  const double c_damp = 2.0 * std::sqrt(5.0 / 6.0) * beta;
  const double a = p.side, inertia = p.mass * a * a / 6.0;  // cube about a centroidal axis
  struct Vertex {
    double x;  // along the slope, from the centre line of the bottom face
    double delta_t = 0.0, slip = 0.0;
    bool sliding = false;
  };
  std::vector<Vertex> v(p.lines);
  for (int i = 0; i < p.lines; ++i) v[i].x = -0.5 * a + a * i / (p.lines - 1);
  double X = 0.0, Z = 0.5 * a, th = 0.0, VX = 0.0, VZ = 0.0, W = 0.0;
  const long n = std::lround(p.duration / p.dt);
  for (long step = 0; step < n; ++step) {
    double FX = p.mass * p.g * sa, FZ = -p.mass * p.g * ca, M = 0.0;
    const double c = std::cos(th), s = std::sin(th);
    for (Vertex& vx : v) {
      // Vertex r = R(theta) (x, -a/2) from the centre of mass; its velocity.
      const double rx = c * vx.x + s * 0.5 * a, rz = s * vx.x - c * 0.5 * a;
      const double ux = VX - W * rz, uz = VZ + W * rx;
      const double delta = -(Z + rz);
      double Fn = 0.0, Ft = 0.0;
      if (delta > 0.0) {
        const double Sn = 2.0 * E_star * std::sqrt(p.radius * delta);
        Fn = std::max(0.0, (2.0 / 3.0) * Sn * delta - c_damp * std::sqrt(Sn * p.damping_mass) * uz);
        const double St = 8.0 * G_star * std::sqrt(p.radius * delta);
        double d = vx.delta_t + p.dt * ux;
        Ft = -St * d - c_damp * std::sqrt(St * p.damping_mass) * ux;
        const double mu = !vx.sliding ? p.mu_s
                                      : p.mu_k + (p.mu_s - p.mu_k) *
                                                     std::max(0.0, 1.0 - vx.slip / p.slip_distance);
        if (std::fabs(Ft) > mu * Fn) {
          Ft = std::copysign(mu * Fn, Ft);
          const double d_cap = -Ft / St;
          vx.slip = (vx.sliding ? vx.slip : 0.0) + std::fabs(d - d_cap);
          vx.sliding = true;
          d = d_cap;
        } else {
          vx.sliding = false;
          vx.slip = 0.0;
        }
        vx.delta_t = d;
      } else {
        vx.delta_t = vx.slip = 0.0;
        vx.sliding = false;
      }
      Fn *= p.per_line;
      Ft *= p.per_line;
      FX += Ft;
      FZ += Fn;
      M += rx * Fn - rz * Ft;
    }
    VX += p.dt * FX / p.mass;
    VZ += p.dt * FZ / p.mass;
    W += p.dt * M / inertia;
    X += p.dt * VX;
    Z += p.dt * VZ;
    th += p.dt * W;
  }
  return X;
}

}  // namespace rigid_slope
}  // namespace tlfea
