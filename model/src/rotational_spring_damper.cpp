// TLFEA: rotational spring-dampers (rotational_spring_damper.hpp;
// docs/theory.md §11.2).
#include "tlfea/model/rotational_spring_damper.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea {

namespace {

using Range = Kokkos::RangePolicy<ExecSpace>;

// theta and its derivatives with respect to x = (u, a, b) (9 components).
struct Angle {
  Real theta, g[9], H[9][9], xdot[9];
};

KOKKOS_INLINE_FUNCTION void skew_block(Real H[9][9], int A, int B, const Vec3& w, Real sign) {
  // H[A][B] += sign [w]x, and its transpose into H[B][A]; [w]x y = w x y.
  const Real S[3][3] = {{0.0, -w[2], w[1]}, {w[2], 0.0, -w[0]}, {-w[1], w[0], 0.0}};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      H[3 * A + r][3 * B + c] += sign * S[r][c];
      H[3 * B + c][3 * A + r] += sign * S[r][c];
    }
}

// s = (a x b) . u and c = a . b: gradients and Hessians; theta = atan2(s, c),
// grad theta = (c grad s - s grad c) / rho, rho = s^2 + c^2, and
// Hess theta = J / rho - N (grad rho)^T / rho^2 with N = c grad s - s grad c,
// J = grad s grad c^T + c Hess s - grad c grad s^T - s Hess c.
KOKKOS_INLINE_FUNCTION void angle(const Vec3& u, const Vec3& a, const Vec3& b, Angle& out) {
  const Vec3 axb = cross(a, b), bxu = cross(b, u), uxa = cross(u, a);
  const Real s = dot(axb, u), c = dot(a, b);
  Real gs[9], gc[9], Hs[9][9], Hc[9][9];
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 9; ++j) Hs[i][j] = Hc[i][j] = 0.0;
  for (int r = 0; r < 3; ++r) {
    gs[r] = axb[r];
    gs[3 + r] = bxu[r];
    gs[6 + r] = uxa[r];
    gc[r] = 0.0;
    gc[3 + r] = b[r];
    gc[6 + r] = a[r];
    Hc[3 + r][6 + r] = Hc[6 + r][3 + r] = 1.0;
  }
  // d(b x u)/db = -[u]x, d(b x u)/du = [b]x, d(u x a)/du = -[a]x.
  skew_block(Hs, 1, 2, u, -1.0);
  skew_block(Hs, 1, 0, b, 1.0);
  skew_block(Hs, 2, 0, a, -1.0);
  const Real rho = s * s + c * c;
  out.theta = kmath::atan2(s, c);
  Real N[9], grho[9];
  for (int i = 0; i < 9; ++i) {
    N[i] = c * gs[i] - s * gc[i];
    grho[i] = 2.0 * (s * gs[i] + c * gc[i]);
    out.g[i] = N[i] / rho;
  }
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 9; ++j) {
      const Real J = gs[i] * gc[j] + c * Hs[i][j] - gc[i] * gs[j] - s * Hc[i][j];
      out.H[i][j] = J / rho - N[i] * grho[j] / (rho * rho);
    }
}

struct Evaluator {
  MaterialPointSet vectors;
  DeviceView<Real* [3]> params;
  KOKKOS_INLINE_FUNCTION void eval(const Ordinal e, const CoefView& q, const CoefView& v,
                                   const bool with_v, Angle& A) const {
    const Vec3 u = vectors.position(3 * e, q), a = vectors.position(3 * e + 1, q),
               b = vectors.position(3 * e + 2, q);
    angle(u, a, b, A);
    for (int k = 0; k < 3; ++k) {
      const Vec3 d = with_v ? vectors.velocity(3 * e + k, v) : Vec3{{0.0, 0.0, 0.0}};
      for (int r = 0; r < 3; ++r) A.xdot[3 * k + r] = d[r];
    }
  }
  // tau = k (theta - theta0) + c theta', theta' = grad theta . xdot.
  KOKKOS_INLINE_FUNCTION Real torque(const Ordinal e, const Angle& A, Real& rate) const {
    rate = 0.0;
    for (int i = 0; i < 9; ++i) rate += A.g[i] * A.xdot[i];
    return params(e, 0) * (A.theta - params(e, 2)) + params(e, 1) * rate;
  }
};

struct ForceKernel {
  Evaluator ev;
  CoefView q, v, f;
  bool with_v;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    Angle A;
    ev.eval(e, q, v, with_v, A);
    Real rate = 0.0;
    const Real tau = ev.torque(e, A, rate);
    for (int k = 0; k < 3; ++k) {
      const Vec3 F{{-tau * A.g[3 * k], -tau * A.g[3 * k + 1], -tau * A.g[3 * k + 2]}};
      ev.vectors.add_force(3 * e + k, F, f, false, 1.0);
    }
  }
};

// -df/dx = tau Hess theta + grad theta (k grad theta + c Hess theta xdot)^T,
// -df/dxdot = c grad theta grad theta^T; scattered over the clique (u's,
// a's, then b's coefficients) with their weights.
struct TangentKernel {
  Evaluator ev;
  CoefView q, v;
  Real alpha_K, alpha_D;
  bool with_v;
  DeviceView<Offset***> offsets;
  DeviceView<Offset*> row_length;
  DeviceView<Real*> values;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    Angle A;
    ev.eval(e, q, v, with_v, A);
    Real rate = 0.0;
    const Real tau = ev.torque(e, A, rate);
    const Real k = ev.params(e, 0), c = ev.params(e, 1);
    Real Hx[9];
    for (int i = 0; i < 9; ++i) {
      Hx[i] = 0.0;
      for (int j = 0; j < 9; ++j) Hx[i] += A.H[i][j] * A.xdot[j];
    }
    const MaterialPointSet& p = ev.vectors;
    const Ordinal base = p.ptr(3 * e), n = p.ptr(3 * e + 3) - base;
    for (Ordinal i = 0; i < n; ++i) {
      const int Ai = (base + i >= p.ptr(3 * e + 2)) ? 2 : (base + i >= p.ptr(3 * e + 1)) ? 1 : 0;
      const Real wi = p.weight(base + i);
      const Offset len = row_length(p.id(base + i));
      for (Ordinal j = 0; j < n; ++j) {
        const Offset o = offsets(e, i, j);
        if (o < 0) continue;
        const int Bj = (base + j >= p.ptr(3 * e + 2)) ? 2 : (base + j >= p.ptr(3 * e + 1)) ? 1 : 0;
        const Real wij = wi * p.weight(base + j);
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s) {
            const int I = 3 * Ai + r, J = 3 * Bj + s;
            const Real K = tau * A.H[I][J] + A.g[I] * (k * A.g[J] + c * Hx[J]);
            const Real D = c * A.g[I] * A.g[J];
            Kokkos::atomic_add(&values(o + r * len + s), wij * (alpha_K * K + alpha_D * D));
          }
      }
    }
  }
};

struct EnergyKernel {
  Evaluator ev;
  CoefView q;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e, Real& sum) const {
    Angle A;
    ev.eval(e, q, q, false, A);
    const Real d = A.theta - ev.params(e, 2);
    sum += 0.5 * ev.params(e, 0) * d * d;
  }
};

}  // namespace

int RotationalSpringDampers::add(const MaterialPoint& u, const MaterialPoint& a,
                                 const MaterialPoint& b, const RotationalSpringDamperSpec& spec,
                                 const CoefViewHost& q0) {
  const std::string what = "rotational spring-damper " + std::to_string(size());
  if (u.is_ground() && a.is_ground() && b.is_ground())
    throw_error(what, ": both frames are on the ground");
  if (!(spec.stiffness >= 0.0) || !std::isfinite(spec.stiffness))
    throw_error(what, ": stiffness ", spec.stiffness, " is not a finite value >= 0");
  if (!(spec.damping >= 0.0) || !std::isfinite(spec.damping))
    throw_error(what, ": damping ", spec.damping, " is not a finite value >= 0");
  if (!(std::fabs(spec.angle0) < M_PI))
    throw_error(what, ": rest angle ", spec.angle0, " is not within (-pi, pi)");
  const Vec3 u0 = point_position(u, q0), a0 = point_position(a, q0), b0 = point_position(b, q0);
  const Real nu = std::sqrt(dot(u0, u0)), na = std::sqrt(dot(a0, a0));
  if (!(nu > 0.0) || !(na > 0.0)) throw_error(what, ": a zero axis or reference vector");
  if (std::fabs(dot(u0, a0)) > 1e-9 * nu * na)
    throw_error(what, ": the reference vector is not normal to the axis");
  for (int r = 0; r < 3; ++r)
    if (std::fabs(a0[r] - b0[r]) > 1e-9 * na)
      throw_error(what, ": body j's vector differs from body i's in the reference configuration");
  vectors_host_.add(u.id, u.weight, u.offset);
  vectors_host_.add(a.id, a.weight, a.offset);
  vectors_host_.add(b.id, b.weight, b.offset);
  specs_.push_back(spec);
  return size() - 1;
}

void RotationalSpringDampers::finalize() {
  vectors_ = upload_material_points("tlfea::model::rsda_vectors", vectors_host_);
  params_ = DeviceView<Real* [3]>("tlfea::model::rsda_params", size());
  auto p = host_mirror(params_);
  for (int e = 0; e < size(); ++e) {
    p(e, 0) = specs_[e].stiffness;
    p(e, 1) = specs_[e].damping;
    p(e, 2) = specs_[e].angle0;
  }
  copy_to_device(params_, p);
}

CliqueSet RotationalSpringDampers::cliques() const { return vectors_host_.grouped_cliques(3); }

void RotationalSpringDampers::set_matrix_offsets(const CrsPattern& pattern,
                                                 const DeviceView<Offset***>& offsets) {
  offsets_ = offsets;
  block_row_length_ = pattern.block_row_length;
}

void RotationalSpringDampers::add_force(const CoefView& q, const CoefView& v,
                                        const CoefView& f) const {
  Kokkos::parallel_for("tlfea::model::rsda_force", Range(0, size()),
                       ForceKernel{{vectors_, params_}, q, v, f, v.extent(0) == q.extent(0)});
}

void RotationalSpringDampers::tangent(const CoefView& q, const CoefView& v, Real alpha_K,
                                      Real alpha_D, const DeviceView<Real*>& values) const {
  Kokkos::parallel_for("tlfea::model::rsda_tangent", Range(0, size()),
                       TangentKernel{{vectors_, params_},
                                     q,
                                     v,
                                     alpha_K,
                                     alpha_D,
                                     v.extent(0) == q.extent(0),
                                     offsets_,
                                     block_row_length_,
                                     values});
}

Real RotationalSpringDampers::energy(const CoefView& q) const {
  Real sum = 0.0;
  Kokkos::parallel_reduce("tlfea::model::rsda_energy", Range(0, size()),
                          EnergyKernel{{vectors_, params_}, q}, sum);
  return sum;
}

Real RotationalSpringDampers::angle(int e, const CoefViewHost& q) const {
  if (e < 0 || e >= size()) throw_error("rotational spring-damper ", e, ": no such element");
  const Vec3 u = vectors_host_.position(3 * e, q), a = vectors_host_.position(3 * e + 1, q),
             b = vectors_host_.position(3 * e + 2, q);
  return std::atan2(dot(cross(a, b), u), dot(a, b));
}

}  // namespace tlfea
