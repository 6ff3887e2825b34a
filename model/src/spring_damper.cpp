// TLFEA: translational spring-dampers (spring_damper.hpp; docs/theory.md §11).
#include "tlfea/model/spring_damper.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea {

namespace {

using Range = Kokkos::RangePolicy<ExecSpace>;

// F_s(delta) and k_t = F_s'(delta): k delta without a table; else the
// piecewise-linear table rows [b, e), extrapolated with the end slopes.
KOKKOS_INLINE_FUNCTION void spring_force(const Real k, const Ordinal b, const Ordinal e,
                                         const DeviceView<Real* [2]>& xy, const Real delta, Real& F,
                                         Real& kt) {
  if (e - b < 2) {
    F = k * delta;
    kt = k;
    return;
  }
  Ordinal i = b;  // the segment [i, i + 1] holding delta (or the end one)
  while (i + 2 < e && delta > xy(i + 1, 0)) ++i;
  kt = (xy(i + 1, 1) - xy(i, 1)) / (xy(i + 1, 0) - xy(i, 0));
  F = xy(i, 1) + kt * (delta - xy(i, 0));
}

// int_0^delta F_s: k delta^2 / 2, or the exact integral of the table's
// interpolant (trapezoids between 0, the table rows in between, and delta).
KOKKOS_INLINE_FUNCTION Real spring_potential(const Real k, const Ordinal b, const Ordinal e,
                                             const DeviceView<Real* [2]>& xy, const Real delta) {
  if (e - b < 2) return 0.5 * k * delta * delta;
  const Real lo = delta < 0.0 ? delta : 0.0, hi = delta < 0.0 ? 0.0 : delta;
  Real x0 = lo, F0 = 0.0, kt = 0.0, V = 0.0;
  spring_force(k, b, e, xy, x0, F0, kt);
  for (Ordinal i = b; i < e; ++i) {
    const Real x = xy(i, 0);
    if (x <= lo || x >= hi) continue;
    V += 0.5 * (F0 + xy(i, 1)) * (x - x0);
    x0 = x;
    F0 = xy(i, 1);
  }
  Real F1 = 0.0;
  spring_force(k, b, e, xy, hi, F1, kt);
  V += 0.5 * (F0 + F1) * (hi - x0);
  return delta < 0.0 ? -V : V;
}

// The element's kinematics and force: d, n, L, dv, L', F.
struct Kinematics {
  Vec3 n, dv;
  Real L, rate, F, kt;
};

struct Evaluator {
  MaterialPointSet points;
  DeviceView<Real* [4]> params;
  DeviceView<Ordinal* [2]> table;
  DeviceView<Real* [2]> xy;

  KOKKOS_INLINE_FUNCTION Kinematics eval(const Ordinal e, const CoefView& q, const CoefView& v,
                                         const bool with_v) const {
    Kinematics k;
    const Vec3 ra = points.position(2 * e, q), rb = points.position(2 * e + 1, q);
    Vec3 d;
    for (int a = 0; a < 3; ++a) d[a] = rb[a] - ra[a];
    k.L = kmath::sqrt(dot(d, d));
    for (int a = 0; a < 3; ++a) k.n[a] = k.L > 0.0 ? d[a] / k.L : 0.0;
    for (int a = 0; a < 3; ++a) k.dv[a] = 0.0;
    if (with_v) {
      const Vec3 va = points.velocity(2 * e, v), vb = points.velocity(2 * e + 1, v);
      for (int a = 0; a < 3; ++a) k.dv[a] = vb[a] - va[a];
    }
    k.rate = dot(k.n, k.dv);
    Real Fs = 0.0;
    spring_force(params(e, 0), table(e, 0), table(e, 1), xy, k.L - params(e, 2), Fs, k.kt);
    k.F = Fs + params(e, 3) + params(e, 1) * k.rate;
    return k;
  }
};

// f_i += -s_i F n at both points (f(a) += F n, f(b) -= F n).
struct ForceKernel {
  Evaluator ev;
  CoefView q, v, f;
  bool with_v;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    const Kinematics k = ev.eval(e, q, v, with_v);
    Vec3 P;
    for (int a = 0; a < 3; ++a) P[a] = k.F * k.n[a];
    ev.points.add_force(2 * e, P, f, false, 1.0);
    ev.points.add_force(2 * e + 1, P, f, false, -1.0);
  }
};

// values(i, j) += s_i s_j (alpha_K dP/dd + alpha_D dP/ddv) over the clique
// (a's coefficients, then b's; s = -w for a, +w for b).
struct TangentKernel {
  Evaluator ev;
  CoefView q, v;
  Real alpha_K, alpha_D;
  bool with_v;
  DeviceView<Offset***> offsets;
  DeviceView<Offset*> row_length;
  DeviceView<Real*> values;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    const Kinematics k = ev.eval(e, q, v, with_v);
    if (!(k.L > 0.0)) return;  // no direction: no tangent
    const Real c = ev.params(e, 1);
    Vec3 t;  // (I - n n^T) dv
    for (int a = 0; a < 3; ++a) t[a] = k.dv[a] - k.rate * k.n[a];
    Mat3 B;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        const Real nn = k.n[a] * k.n[b];
        const Real Kab =
            k.kt * nn + k.F / k.L * ((a == b ? 1.0 : 0.0) - nn) + c / k.L * k.n[a] * t[b];
        B(a, b) = alpha_K * Kab + alpha_D * c * nn;
      }
    const MaterialPointSet& p = ev.points;
    const Ordinal a0 = p.ptr(2 * e), na = p.ptr(2 * e + 1) - a0;
    const Ordinal nb = p.ptr(2 * e + 2) - p.ptr(2 * e + 1);
    for (Ordinal i = 0; i < na + nb; ++i) {
      const Real si = i < na ? -p.weight(a0 + i) : p.weight(a0 + i);
      const Ordinal ci = p.id(a0 + i);
      const Offset len = row_length(ci);
      for (Ordinal j = 0; j < na + nb; ++j) {
        const Offset o = offsets(e, i, j);
        if (o < 0) continue;
        const Real sj = j < na ? -p.weight(a0 + j) : p.weight(a0 + j);
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s)
            Kokkos::atomic_add(&values(o + r * len + s), si * sj * B(r, s));
      }
    }
  }
};

struct EnergyKernel {
  Evaluator ev;
  CoefView q;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e, Real& sum) const {
    const Kinematics k = ev.eval(e, q, q, false);
    const Real delta = k.L - ev.params(e, 2);
    sum += spring_potential(ev.params(e, 0), ev.table(e, 0), ev.table(e, 1), ev.xy, delta) +
           ev.params(e, 3) * delta;
  }
};

}  // namespace

int SpringDampers::add(const MaterialPoint& a, const MaterialPoint& b,
                       const SpringDamperSpec& spec) {
  const std::string what = "spring-damper " + std::to_string(size());
  if (a.is_ground() && b.is_ground()) throw_error(what, ": both points are on the ground");
  if (!(spec.stiffness >= 0.0) || !std::isfinite(spec.stiffness))
    throw_error(what, ": stiffness ", spec.stiffness, " is not a finite value >= 0");
  if (!(spec.damping >= 0.0) || !std::isfinite(spec.damping))
    throw_error(what, ": damping ", spec.damping, " is not a finite value >= 0");
  if (!(spec.rest_length >= 0.0) || !std::isfinite(spec.rest_length))
    throw_error(what, ": rest length ", spec.rest_length, " is not a finite value >= 0");
  if (!std::isfinite(spec.preload)) throw_error(what, ": preload is not finite");
  if (spec.table.size() == 1) throw_error(what, ": a force-deflection table needs two rows");
  for (size_t i = 0; i < spec.table.size(); ++i) {
    if (!std::isfinite(spec.table[i].first) || !std::isfinite(spec.table[i].second))
      throw_error(what, ": table row ", i + 1, " is not finite");
    if (i > 0 && !(spec.table[i].first > spec.table[i - 1].first))
      throw_error(what, ": table row ", i + 1, ": deflections must increase strictly");
  }
  points_host_.add(a.id, a.weight, a.offset);
  points_host_.add(b.id, b.weight, b.offset);
  specs_.push_back(spec);
  return size() - 1;
}

void SpringDampers::finalize() {
  const int n = size();
  points_ = upload_material_points("tlfea::model::spring_damper_points", points_host_);
  params_ = DeviceView<Real* [4]>("tlfea::model::spring_damper_params", n);
  table_ = DeviceView<Ordinal* [2]>("tlfea::model::spring_damper_table", n);
  Ordinal rows = 0;
  for (const auto& s : specs_) rows += static_cast<Ordinal>(s.table.size());
  table_xy_ = DeviceView<Real* [2]>("tlfea::model::spring_damper_table_xy", rows);
  auto p = host_mirror(params_);
  auto t = host_mirror(table_);
  auto xy = host_mirror(table_xy_);
  Ordinal r = 0;
  for (int e = 0; e < n; ++e) {
    const SpringDamperSpec& s = specs_[e];
    p(e, 0) = s.stiffness;
    p(e, 1) = s.damping;
    p(e, 2) = s.rest_length;
    p(e, 3) = s.preload;
    t(e, 0) = r;
    for (const auto& row : s.table) {
      xy(r, 0) = row.first;
      xy(r, 1) = row.second;
      ++r;
    }
    t(e, 1) = r;
  }
  copy_to_device(params_, p);
  copy_to_device(table_, t);
  copy_to_device(table_xy_, xy);
}

CliqueSet SpringDampers::cliques() const { return points_host_.grouped_cliques(2); }

void SpringDampers::set_matrix_offsets(const CrsPattern& pattern,
                                       const DeviceView<Offset***>& offsets) {
  offsets_ = offsets;
  block_row_length_ = pattern.block_row_length;
}

void SpringDampers::add_force(const CoefView& q, const CoefView& v, const CoefView& f) const {
  Kokkos::parallel_for(
      "tlfea::model::spring_damper_force", Range(0, size()),
      ForceKernel{{points_, params_, table_, table_xy_}, q, v, f, v.extent(0) == q.extent(0)});
}

void SpringDampers::tangent(const CoefView& q, const CoefView& v, Real alpha_K, Real alpha_D,
                            const DeviceView<Real*>& values) const {
  Kokkos::parallel_for("tlfea::model::spring_damper_tangent", Range(0, size()),
                       TangentKernel{{points_, params_, table_, table_xy_},
                                     q,
                                     v,
                                     alpha_K,
                                     alpha_D,
                                     v.extent(0) == q.extent(0),
                                     offsets_,
                                     block_row_length_,
                                     values});
}

Real SpringDampers::energy(const CoefView& q) const {
  Real sum = 0.0;
  Kokkos::parallel_reduce("tlfea::model::spring_damper_energy", Range(0, size()),
                          EnergyKernel{{points_, params_, table_, table_xy_}, q}, sum);
  return sum;
}

SpringDamperState SpringDampers::state(int e, const CoefViewHost& q, const CoefViewHost& v) const {
  if (e < 0 || e >= size()) throw_error("spring-damper ", e, ": no such element");
  const SpringDamperSpec& s = specs_[e];
  const Vec3 ra = points_host_.position(2 * e, q), rb = points_host_.position(2 * e + 1, q);
  Vec3 d{{rb[0] - ra[0], rb[1] - ra[1], rb[2] - ra[2]}};
  SpringDamperState out;
  out.length = std::sqrt(dot(d, d));
  if (v.extent(0) == q.extent(0) && out.length > 0.0) {
    const MaterialPointSetHost& p = points_host_;
    Vec3 dv{{0.0, 0.0, 0.0}};
    for (int side = 0; side < 2; ++side)
      for (Ordinal l = p.ptr[2 * e + side]; l < p.ptr[2 * e + side + 1]; ++l)
        for (int a = 0; a < 3; ++a) dv[a] += (side ? 1.0 : -1.0) * p.weight[l] * v(p.id[l], a);
    out.rate = dot(d, dv) / out.length;
  }
  // F_s as spring_force() computes it on the device.
  const Real delta = out.length - s.rest_length;
  Real Fs = s.stiffness * delta;
  if (s.table.size() >= 2) {
    size_t i = 0;
    while (i + 2 < s.table.size() && delta > s.table[i + 1].first) ++i;
    const Real kt =
        (s.table[i + 1].second - s.table[i].second) / (s.table[i + 1].first - s.table[i].first);
    Fs = s.table[i].second + kt * (delta - s.table[i].first);
  }
  out.force = Fs + s.preload + s.damping * out.rate;
  return out;
}

}  // namespace tlfea
