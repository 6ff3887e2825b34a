#include "tlfea/constraints/constraint_set.hpp"

#include <algorithm>
#include <cmath>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/view_utils.hpp"

namespace tlfea {

// ---------------------------------------------------------------- driving

DrivingFunction DrivingFunction::constant(Real v) {
  DrivingFunction f;
  f.kind = Kind::Constant;
  f.value = v;
  return f;
}
DrivingFunction DrivingFunction::linear(Real v0, Real rate) {
  DrivingFunction f;
  f.kind = Kind::Linear;
  f.value = v0;
  f.rate = rate;
  return f;
}
DrivingFunction DrivingFunction::sinusoid(Real offset, Real amplitude, Real omega, Real phase) {
  DrivingFunction f;
  f.kind = Kind::Sinusoid;
  f.value = offset;
  f.amplitude = amplitude;
  f.omega = omega;
  f.phase = phase;
  return f;
}
DrivingFunction DrivingFunction::function(std::function<Real(Real)> fn) {
  if (!fn) throw_error("driving function: empty std::function");
  DrivingFunction f;
  f.kind = Kind::User;
  f.user = std::move(fn);
  return f;
}
Real DrivingFunction::operator()(Real t) const {
  switch (kind) {
    case Kind::Constant:
      return value;
    case Kind::Linear:
      return value + rate * t;
    case Kind::Sinusoid:
      return value + amplitude * std::sin(omega * t + phase);
    case Kind::User:
      return user(t);
  }
  return value;
}

// ---------------------------------------------------------------- kernels

namespace {

// Point slots of a row: P, Q, R, T|S. a = r_Q - r_P; b (DP1) / d (DP2) = r_3 - r_2.
KOKKOS_INLINE_FUNCTION Vec3 point_at(const ConstraintData& d, const CoefView& q, Ordinal p) {
  return d.points.position(p, q);
}

KOKKOS_INLINE_FUNCTION Vec3 diff(const Vec3& x, const Vec3& y) {
  return Vec3{{x[0] - y[0], x[1] - y[1], x[2] - y[2]}};
}

// Weighted value c and slot gradients g[k] = dc/dr_slot(k) of one row.
KOKKOS_INLINE_FUNCTION Real row_value_and_gradients(const ConstraintData& d, const CoefView& q,
                                                    Ordinal row, Vec3 g[4]) {
  const int type = d.type(row);
  const Real w = d.weight(row);
  const Real f = d.drive(row);
  for (int k = 0; k < 4; ++k) g[k] = Vec3{{0, 0, 0}};
  if (type == static_cast<int>(PrimitiveType::DDP)) {
    // c = w (r_P^T r_Q - r_R^T r_S - f): dc/dr_P = w r_Q, dc/dr_Q = w r_P,
    // dc/dr_R = -w r_S, dc/dr_S = -w r_R.
    const Vec3 rp = point_at(d, q, d.point(row, 0)), rq = point_at(d, q, d.point(row, 1));
    const Vec3 rr = point_at(d, q, d.point(row, 2)), rs = point_at(d, q, d.point(row, 3));
    for (int x = 0; x < 3; ++x) {
      g[0][x] = w * rq[x];
      g[1][x] = w * rp[x];
      g[2][x] = -w * rs[x];
      g[3][x] = -w * rr[x];
    }
    return w * (dot(rp, rq) - dot(rr, rs) - f);
  }
  const Vec3 a = diff(point_at(d, q, d.point(row, 1)), point_at(d, q, d.point(row, 0)));
  if (type == static_cast<int>(PrimitiveType::DP1) ||
      type == static_cast<int>(PrimitiveType::DP2)) {
    // c = w (a^T b - f): dc/dr_Q = w b, dc/dr_P = -w b, dc/dr_T = w a, dc/dr_R = -w a.
    const Vec3 b = diff(point_at(d, q, d.point(row, 3)), point_at(d, q, d.point(row, 2)));
    for (int x = 0; x < 3; ++x) {
      g[0][x] = -w * b[x];
      g[1][x] = w * b[x];
      g[2][x] = -w * a[x];
      g[3][x] = w * a[x];
    }
    return w * (dot(a, b) - f);
  }
  if (type == static_cast<int>(PrimitiveType::DIST)) {
    // c = w (a^T a - f^2) / 2: dc/dr_Q = w a, dc/dr_P = -w a.
    for (int x = 0; x < 3; ++x) {
      g[0][x] = -w * a[x];
      g[1][x] = w * a[x];
    }
    return 0.5 * w * (dot(a, a) - f * f);
  }
  // CD: c = w (d^T a - f): dc/dr_Q = w d, dc/dr_P = -w d.
  const Vec3 dir{{d.direction(row, 0), d.direction(row, 1), d.direction(row, 2)}};
  for (int x = 0; x < 3; ++x) {
    g[0][x] = -w * dir[x];
    g[1][x] = w * dir[x];
  }
  return w * (dot(dir, a) - f);
}

// Jacobian block of the row's local coefficient l: dc/de_l = sum_k W(l, k) g_k.
KOKKOS_INLINE_FUNCTION Vec3 jacobian_block(const ConstraintData& d, Ordinal row, int l,
                                           const Vec3 g[4]) {
  Vec3 J{{0, 0, 0}};
  for (int k = 0; k < 4; ++k) {
    const Real s = d.slot_weight(row, l, k);
    for (int x = 0; x < 3; ++x) J[x] += s * g[k][x];
  }
  return J;
}

// Constant Hessian of the row in slot space, d^2 c / dr_k dr_k' = h(k, k') I_3
// (docs/theory.md §5.3): DP1/DP2 h = w (sa_k sb_k' + sb_k sa_k'), DIST
// h = w sa_k sa_k', with sa = (-1, 1, 0, 0), sb = (0, 0, -1, 1); DDP
// h(P, Q) = h(Q, P) = w, h(R, S) = h(S, R) = -w; CD none.
KOKKOS_INLINE_FUNCTION Real slot_hessian(int type, Real w, int k, int kk) {
  const Real sa[4] = {-1, 1, 0, 0}, sb[4] = {0, 0, -1, 1};
  if (type == static_cast<int>(PrimitiveType::DDP)) {
    if ((k == 0 && kk == 1) || (k == 1 && kk == 0)) return w;
    if ((k == 2 && kk == 3) || (k == 3 && kk == 2)) return -w;
    return 0.0;
  }
  if (type == static_cast<int>(PrimitiveType::DP1) || type == static_cast<int>(PrimitiveType::DP2))
    return w * (sa[k] * sb[kk] + sb[k] * sa[kk]);
  if (type == static_cast<int>(PrimitiveType::DIST)) return w * sa[k] * sa[kk];
  return 0.0;
}

struct EvaluateFunctor {
  ConstraintData d;
  CoefView q;
  DeviceView<Real*> c;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal row) const {
    Vec3 g[4];
    c(row) = row_value_and_gradients(d, q, row, g);
  }
};

// A work item of the launches with one item per (row, local coefficient l):
// the row, l and the row's n coefficients; with row_slot_jacobian also the
// gradients g of the row's value and its Jacobian block J_l.
struct RowSlot {
  Ordinal row;
  int l, n;
  Vec3 g[4], Jl;
};
// The slot of work item `item`; false where the row has no coefficient l.
KOKKOS_INLINE_FUNCTION bool row_slot(const ConstraintData& d, const Ordinal item, RowSlot& s) {
  s.row = item / d.max_coefficients;
  s.l = static_cast<int>(item % d.max_coefficients);
  s.n = d.num_coefficients(s.row);
  return s.l < s.n;
}
KOKKOS_INLINE_FUNCTION bool row_slot_jacobian(const ConstraintData& d, const Ordinal item,
                                              const CoefView& q, RowSlot& s) {
  if (!row_slot(d, item, s)) return false;
  row_value_and_gradients(d, q, s.row, s.g);
  s.Jl = jacobian_block(d, s.row, s.l, s.g);
  return true;
}

// One work item per (row, local coefficient l).
struct JacobianTransposeFunctor {
  ConstraintData d;
  CoefView q;
  DeviceView<Real*> y;
  CoefView f;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal item) const {
    RowSlot s;
    if (!row_slot_jacobian(d, item, q, s)) return;
    const Ordinal id = d.coefficient(s.row, s.l);
    const Real yr = y(s.row);
    for (int x = 0; x < 3; ++x) Kokkos::atomic_add(&f(id, x), yr * s.Jl[x]);
  }
};

// Block row l of scale J^T J for one row: block (l, m) += scale J_l J_m^T.
struct GaussNewtonFunctor {
  ConstraintData d;
  CoefView q;
  Real scale;
  DeviceView<Real*> values;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal item) const {
    RowSlot s;
    if (!row_slot_jacobian(d, item, q, s)) return;
    const Offset len = d.block_row_length(d.coefficient(s.row, s.l));
    for (int m = 0; m < s.n; ++m) {
      const Offset off = d.offsets(s.row, s.l, m);
      if (off < 0) continue;
      const Vec3 Jm = jacobian_block(d, s.row, m, s.g);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
          Kokkos::atomic_add(&values(off + r * len + c), scale * s.Jl[r] * Jm[c]);
    }
  }
};

// Block row l of scale eta_row grad^2 c_row: block (l, m) += alpha_lm I_3,
// alpha_lm = sum_{k,k'} W(l, k) h(k, k') W(m, k').
struct HessianFunctor {
  ConstraintData d;
  DeviceView<Real*> eta;
  Real scale;
  DeviceView<Real*> values;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal item) const {
    RowSlot s;
    if (!row_slot(d, item, s)) return;
    const int type = d.type(s.row);
    if (type == static_cast<int>(PrimitiveType::CD)) return;
    const Real w = d.weight(s.row);
    Real hl[4];  // (W(l, :) h)(k')
    for (int kk = 0; kk < 4; ++kk) {
      hl[kk] = 0.0;
      for (int k = 0; k < 4; ++k)
        hl[kk] += d.slot_weight(s.row, s.l, k) * slot_hessian(type, w, k, kk);
    }
    const Real factor = scale * eta(s.row);
    const Offset len = d.block_row_length(d.coefficient(s.row, s.l));
    for (int m = 0; m < s.n; ++m) {
      const Offset off = d.offsets(s.row, s.l, m);
      if (off < 0) continue;
      Real alpha = 0.0;
      for (int kk = 0; kk < 4; ++kk) alpha += hl[kk] * d.slot_weight(s.row, m, kk);
      if (alpha == 0.0) continue;
      for (int r = 0; r < 3; ++r) Kokkos::atomic_add(&values(off + r * len + r), factor * alpha);
    }
  }
};

struct MaxAbsFunctor {
  DeviceView<Real*> c;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Real& m) const {
    const Real v = c(i) < 0 ? -c(i) : c(i);
    if (v > m) m = v;
  }
};

Real norm(const Vec3& v) { return std::sqrt(dot(v, v)); }

}  // namespace

// ---------------------------------------------------------------- building

ConstraintSet::ConstraintSet(const CoefView& q0, bool row_weights) : row_weights_(row_weights) {
  q0_ = host_mirror(q0);
  copy_to_host(q0_, q0);
}

Ordinal ConstraintSet::add_point(const MaterialPoint& p) {
  if (finalized_) throw_error("constraints: add after finalize");
  if (p.id.size() != static_cast<size_t>(p.num) || p.weight.size() != p.id.size())
    throw_error("constraints: point with ", p.num, " coefficients, ", p.id.size(), " ids and ",
                p.weight.size(), " weights");
  for (int i = 0; i < p.num; ++i)
    if (p.id[i] < 0 || static_cast<size_t>(p.id[i]) >= q0_.extent(0))
      throw_error("constraints: point coefficient ", p.id[i], " outside the system (",
                  q0_.extent(0), " coefficients)");
  return points_.add(p.id.data(), p.weight.data(), p.num, p.offset);
}

Ordinal ConstraintSet::add_row(Row row) {
  if (finalized_) throw_error("constraints: add after finalize");
  rows_.push_back(std::move(row));
  return static_cast<Ordinal>(rows_.size() - 1);
}

Ordinal ConstraintSet::add_dp1(const MaterialPoint& P, const MaterialPoint& Q,
                               const MaterialPoint& R, const MaterialPoint& T,
                               const DrivingFunction& f) {
  const Real a0 = norm(diff(reference_position(Q), reference_position(P)));
  const Real b0 = norm(diff(reference_position(T), reference_position(R)));
  if (!(a0 > 0) || !(b0 > 0)) throw_error("constraints: DP1 with a zero reference direction");
  Row r{PrimitiveType::DP1,
        {add_point(P), add_point(Q), add_point(R), add_point(T)},
        Vec3{{0, 0, 0}},
        1.0 / (a0 * b0),
        f};
  return add_row(std::move(r));
}

Ordinal ConstraintSet::add_dp2(const MaterialPoint& P, const MaterialPoint& Q,
                               const MaterialPoint& R, const MaterialPoint& S,
                               const DrivingFunction& f) {
  const Real a0 = norm(diff(reference_position(Q), reference_position(P)));
  if (!(a0 > 0)) throw_error("constraints: DP2 with a zero reference direction");
  Row r{PrimitiveType::DP2,
        {add_point(P), add_point(Q), add_point(R), add_point(S)},
        Vec3{{0, 0, 0}},
        1.0 / a0,
        f};
  return add_row(std::move(r));
}

Ordinal ConstraintSet::add_dist(const MaterialPoint& P, const MaterialPoint& Q,
                                const DrivingFunction& f) {
  Real L = norm(diff(reference_position(Q), reference_position(P)));
  if (!(L > 0)) L = std::fabs(f(0.0));
  const Ordinal p = add_point(P), q = add_point(Q);
  Row r{PrimitiveType::DIST, {p, q, -1, -1}, Vec3{{0, 0, 0}}, L > 0 ? 1.0 / L : 1.0, f};
  return add_row(std::move(r));
}

Ordinal ConstraintSet::add_cd(const MaterialPoint& P, const MaterialPoint& Q, const Vec3& d,
                              const DrivingFunction& f) {
  const Real n = norm(d);
  if (!(n > 0)) throw_error("constraints: CD with a zero direction");
  const Ordinal p = add_point(P), q = add_point(Q);
  Row r{PrimitiveType::CD, {p, q, -1, -1}, Vec3{{d[0] / n, d[1] / n, d[2] / n}}, 1.0, f};
  return add_row(std::move(r));
}

Ordinal ConstraintSet::add_ddp(const MaterialPoint& P, const MaterialPoint& Q,
                               const MaterialPoint& R, const MaterialPoint& S,
                               const DrivingFunction& f, Real w) {
  if (!(w > 0.0) || !std::isfinite(w))
    throw_error("constraints: DDP row weight ", w, " is not > 0");
  Row r{PrimitiveType::DDP,
        {add_point(P), add_point(Q), add_point(R), add_point(S)},
        Vec3{{0, 0, 0}},
        w,
        f};
  return add_row(std::move(r));
}

namespace {

// Joint DP rows pair directions that must not be (nearly) parallel: the dot
// product is stationary there and the row would lose rank (docs/theory.md §5.5).
void require_transverse(const Vec3& a, const Vec3& b, const char* joint) {
  if (std::fabs(dot(a, b)) > 0.9 * norm(a) * norm(b))
    throw_error("constraints: ", joint, " joint with nearly parallel frame directions");
}

// A frame's fibers run from its origin to these points.
enum Fiber { kAxis, kCross1, kCross2 };
const MaterialPoint& fiber_end(const JointFrame& f, Fiber d) {
  return d == kAxis ? f.axis : (d == kCross1 ? f.cross1 : f.cross2);
}

// The rows of each joint between frames i and j (docs/theory.md §5.5), in
// this order: the three CD rows of a point coincidence (coincident); DP1 rows
// holding fiber dp1[k].i of frame i at its reference angle to fiber dp1[k].j
// of frame j, with the two DP2 rows of offset collinearity (origin_j -
// origin_i has no component along frame i's cross fibers) after the first
// `collinear_after` of them (-1: none).
struct FiberPair {
  Fiber i, j;
};
struct JointRows {
  const char* name;
  bool coincident;
  int ndp1;
  FiberPair dp1[3];
  int collinear_after;
};
enum JointKind { kSpherical, kUniversal, kRevolute, kFixed, kCylindrical, kPrismatic };
const JointRows kJoints[] = {
    {"spherical", true, 0, {}, -1},
    {"universal", true, 1, {{kAxis, kAxis}}, -1},
    {"revolute", true, 2, {{kAxis, kCross1}, {kAxis, kCross2}}, -1},
    {"fixed", true, 3, {{kAxis, kCross1}, {kAxis, kCross2}, {kCross1, kCross2}}, -1},
    {"cylindrical", false, 2, {{kAxis, kCross1}, {kAxis, kCross2}}, 2},
    {"prismatic", false, 3, {{kAxis, kCross1}, {kAxis, kCross2}, {kCross1, kCross2}}, 2},
};

}  // namespace

template <class Build>
RowRange ConstraintSet::all_or_nothing(const Build& build) {
  const size_t nrows = rows_.size();
  const Ordinal npoints = points_.size();
  try {
    return build();
  } catch (...) {
    rows_.resize(nrows);
    points_.truncate(npoints);
    throw;
  }
}

RowRange ConstraintSet::add_joint(int kind, const JointFrame& i, const JointFrame& j) {
  const JointRows& rows = kJoints[kind];
  return all_or_nothing([&] {
    const RowRange range{num_rows(), 0};
    const Vec3 off = diff(reference_position(j.origin), reference_position(i.origin));
    if (rows.coincident)  // CD rows holding the reference offset
      for (int k = 0; k < 3; ++k) {
        Vec3 e{{0, 0, 0}};
        e[k] = 1.0;
        add_cd(i.origin, j.origin, e, DrivingFunction::constant(off[k]));
      }
    for (int k = 0; k <= rows.ndp1; ++k) {
      if (k == rows.collinear_after)
        for (const MaterialPoint* c : {&i.cross1, &i.cross2}) {
          const Vec3 a0 = diff(reference_position(*c), reference_position(i.origin));
          add_dp2(i.origin, *c, i.origin, j.origin, DrivingFunction::constant(dot(a0, off)));
        }
      if (k == rows.ndp1) break;
      const MaterialPoint& Q = fiber_end(i, rows.dp1[k].i);
      const MaterialPoint& T = fiber_end(j, rows.dp1[k].j);
      const Vec3 a0 = diff(reference_position(Q), reference_position(i.origin));
      const Vec3 b0 = diff(reference_position(T), reference_position(j.origin));
      require_transverse(a0, b0, rows.name);
      add_dp1(i.origin, Q, j.origin, T, DrivingFunction::constant(dot(a0, b0)));
    }
    return RowRange{range.first, num_rows() - range.first};
  });
}

// The public joint builders: each adds its joint's rows (kJoints).
#define TLFEA_JOINT_BUILDER(name, kind)                                          \
  RowRange ConstraintSet::add_##name(const JointFrame& i, const JointFrame& j) { \
    return add_joint(kind, i, j);                                                \
  }
TLFEA_JOINT_BUILDER(spherical, kSpherical)
TLFEA_JOINT_BUILDER(universal, kUniversal)
TLFEA_JOINT_BUILDER(revolute, kRevolute)
TLFEA_JOINT_BUILDER(fixed, kFixed)
TLFEA_JOINT_BUILDER(cylindrical, kCylindrical)
TLFEA_JOINT_BUILDER(prismatic, kPrismatic)
#undef TLFEA_JOINT_BUILDER

RowRange ConstraintSet::add_rotation_driver(const JointFrame& i, const JointFrame& j,
                                            const Vec3& axis, const DrivingFunction& theta) {
  const Real nu = norm(axis);
  if (!(nu > 0)) throw_error("constraints: rotation driver with a zero axis");
  const Vec3 u{{axis[0] / nu, axis[1] / nu, axis[2] / nu}};
  const Vec3 b1 = diff(reference_position(i.cross1), reference_position(i.origin));
  const Vec3 b2 = diff(reference_position(i.cross2), reference_position(i.origin));
  const Vec3 a = diff(reference_position(j.cross1), reference_position(j.origin));
  const Real L1 = norm(b1), L2 = norm(b2), La = norm(a);
  if (!(L1 > 0) || !(L2 > 0) || !(La > 0))
    throw_error("constraints: rotation driver with a zero reference fiber");
  // The driven fiber and frame i's cross fibers must lie across the axis.
  if (std::fabs(dot(b1, u)) > 1e-6 * L1 || std::fabs(dot(b2, u)) > 1e-6 * L2)
    throw_error("constraints: rotation driver: frame i's cross fibers are not normal to the axis");
  const Vec3 e1{{b1[0] / L1, b1[1] / L1, b1[2] / L1}};
  const Vec3 e2 = cross(u, e1);
  const Real s2 = dot(b2, e2) >= 0 ? 1.0 : -1.0;
  const Real alpha = dot(a, e1), beta = dot(a, e2);
  if (!(std::hypot(alpha, beta) > 0.1 * La))
    throw_error("constraints: rotation driver: frame j's cross1 fiber is (nearly) along the axis");
  return all_or_nothing([&] {
    const RowRange range{num_rows(), 2};
    add_dp1(i.origin, i.cross1, j.origin, j.cross1,
            DrivingFunction::function([theta, L1, alpha, beta](Real t) {
              const Real th = theta(t);
              return L1 * (alpha * std::cos(th) - beta * std::sin(th));
            }));
    add_dp1(i.origin, i.cross2, j.origin, j.cross1,
            DrivingFunction::function([theta, L2, s2, alpha, beta](Real t) {
              const Real th = theta(t);
              return s2 * L2 * (alpha * std::sin(th) + beta * std::cos(th));
            }));
    return range;
  });
}

void ConstraintSet::set_row_weight(Ordinal row, Real w) {
  if (finalized_) throw_error("constraints: set_row_weight after finalize");
  if (!(w > 0)) throw_error("constraints: row weight must be positive");
  rows_.at(row).weight = w;
}

Real ConstraintSet::row_weight(Ordinal row) const {
  return row_weights_ ? rows_.at(row).weight : 1.0;
}

void ConstraintSet::finalize() {
  if (finalized_) throw_error("constraints: finalize called twice");
  const Ordinal nr = num_rows();

  // Unique coefficients per row and the slot weights W(row, l, k).
  std::vector<std::vector<Ordinal>> coefs(nr);
  int K = 1;
  for (Ordinal r = 0; r < nr; ++r) {
    auto& ids = coefs[r];
    for (int k = 0; k < 4; ++k) {
      const Ordinal p = rows_[r].point[k];
      if (p < 0) continue;
      for (Ordinal i = points_.ptr[p]; i < points_.ptr[p + 1]; ++i) ids.push_back(points_.id[i]);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    K = std::max(K, static_cast<int>(ids.size()));
  }

  ConstraintData& d = data_;
  d.num_rows = nr;
  d.max_coefficients = K;
  d.type = DeviceView<int*>("tlfea::constraints::type", nr);
  d.point = DeviceView<Ordinal* [4]>("tlfea::constraints::point", nr);
  d.direction = DeviceView<Real* [3]>("tlfea::constraints::direction", nr);
  d.weight = DeviceView<Real*>("tlfea::constraints::weight", nr);
  d.drive = DeviceView<Real*>("tlfea::constraints::drive", nr);
  d.num_coefficients = DeviceView<int*>("tlfea::constraints::num_coefficients", nr);
  d.coefficient = DeviceView<Ordinal**>("tlfea::constraints::coefficient", nr, K);
  d.slot_weight = DeviceView<Real** [4]>("tlfea::constraints::slot_weight", nr, K);
  d.points = upload_material_points("tlfea::constraints::point", points_);

  auto type = host_mirror(d.type);
  auto point = host_mirror(d.point);
  auto direction = host_mirror(d.direction);
  auto weight = host_mirror(d.weight);
  auto ncoef = host_mirror(d.num_coefficients);
  auto coefficient = host_mirror(d.coefficient);
  auto slot_weight = host_mirror(d.slot_weight);
  fill(slot_weight, 0.0);
  for (Ordinal r = 0; r < nr; ++r) {
    const Row& row = rows_[r];
    type(r) = static_cast<int>(row.type);
    weight(r) = row_weights_ ? row.weight : 1.0;
    for (int x = 0; x < 3; ++x) direction(r, x) = row.direction[x];
    const auto& ids = coefs[r];
    ncoef(r) = static_cast<int>(ids.size());
    for (int l = 0; l < K; ++l) coefficient(r, l) = l < ncoef(r) ? ids[l] : -1;
    for (int k = 0; k < 4; ++k) {
      const Ordinal p = row.point[k];
      // Unused slots alias slot 0's point; their gradient is zero.
      point(r, k) = p >= 0 ? p : row.point[0];
      if (p < 0) continue;
      for (Ordinal i = points_.ptr[p]; i < points_.ptr[p + 1]; ++i) {
        const int l =
            static_cast<int>(std::lower_bound(ids.begin(), ids.end(), points_.id[i]) - ids.begin());
        slot_weight(r, l, k) += points_.weight[i];
      }
    }
  }
  copy_to_device(d.type, type);
  copy_to_device(d.point, point);
  copy_to_device(d.direction, direction);
  copy_to_device(d.weight, weight);
  copy_to_device(d.num_coefficients, ncoef);
  copy_to_device(d.coefficient, coefficient);
  copy_to_device(d.slot_weight, slot_weight);
  drive_host_ = host_mirror(d.drive);
  drive_valid_ = false;
  finalized_ = true;
}

// ---------------------------------------------------------------- evaluation

void ConstraintSet::require_finalized(const char* what) const {
  if (!finalized_) throw_error("constraints: ", what, " before finalize");
}

void ConstraintSet::upload_drive(Real t) {
  if (drive_valid_ && t == drive_time_) return;
  for (Ordinal r = 0; r < num_rows(); ++r) drive_host_(r) = rows_[r].f(t);
  copy_to_device(data_.drive, drive_host_);
  drive_time_ = t;
  drive_valid_ = true;
}

void ConstraintSet::evaluate(const CoefView& q, Real t, const DeviceView<Real*>& c) {
  require_finalized("evaluate");
  if (c.extent(0) < static_cast<size_t>(num_rows()))
    throw_error("constraints: evaluate into ", c.extent(0), " values for ", num_rows(), " rows");
  if (q.extent(0) != q0_.extent(0))
    throw_error("constraints: q has ", q.extent(0), " coefficients, expected ", q0_.extent(0));
  upload_drive(t);
  Kokkos::parallel_for("tlfea::constraints::evaluate",
                       Kokkos::RangePolicy<ExecSpace>(0, num_rows()), EvaluateFunctor{data_, q, c});
}

void ConstraintSet::apply_jacobian_transpose(const CoefView& q, Real /*t*/,
                                             const DeviceView<Real*>& y, const CoefView& f) const {
  require_finalized("apply_jacobian_transpose");
  if (y.extent(0) < static_cast<size_t>(num_rows()) || f.extent(0) != q0_.extent(0) ||
      q.extent(0) != q0_.extent(0))
    throw_error("constraints: apply_jacobian_transpose with mismatched sizes");
  Kokkos::parallel_for("tlfea::constraints::jacobian_transpose",
                       Kokkos::RangePolicy<ExecSpace>(0, num_rows() * data_.max_coefficients),
                       JacobianTransposeFunctor{data_, q, y, f});
}

CliqueSet ConstraintSet::jacobian_cliques() const {
  require_finalized("jacobian_cliques");
  CliqueSet set;
  set.size = data_.max_coefficients;
  auto h = to_host(data_.coefficient);
  set.ids.resize(static_cast<size_t>(num_rows()) * set.size);
  for (Ordinal r = 0; r < num_rows(); ++r)
    for (int l = 0; l < set.size; ++l) set.ids[static_cast<size_t>(r) * set.size + l] = h(r, l);
  return set;
}

void ConstraintSet::set_matrix_offsets(const CrsPattern& pattern, DeviceView<Offset***> offsets) {
  require_finalized("set_matrix_offsets");
  if (offsets.extent(0) != static_cast<size_t>(num_rows()) ||
      offsets.extent(1) != static_cast<size_t>(data_.max_coefficients) ||
      offsets.extent(2) != static_cast<size_t>(data_.max_coefficients))
    throw_error("constraints: matrix offsets of the wrong shape (", offsets.extent(0), "x",
                offsets.extent(1), "x", offsets.extent(2), ")");
  if (pattern.num_block_rows != static_cast<Ordinal>(q0_.extent(0)))
    throw_error("constraints: pattern has ", pattern.num_block_rows, " block rows, expected ",
                q0_.extent(0));
  data_.offsets = offsets;
  data_.block_row_length = pattern.block_row_length;
}

void ConstraintSet::assemble_gauss_newton(const CoefView& q, Real /*t*/, Real scale,
                                          const DeviceView<Real*>& values) const {
  require_finalized("assemble_gauss_newton");
  if (data_.offsets.extent(0) != static_cast<size_t>(num_rows()))
    throw_error("constraints: matrix assembly before set_matrix_offsets");
  Kokkos::parallel_for("tlfea::constraints::gauss_newton",
                       Kokkos::RangePolicy<ExecSpace>(0, num_rows() * data_.max_coefficients),
                       GaussNewtonFunctor{data_, q, scale, values});
}

void ConstraintSet::assemble_dp1_hessian(const CoefView& /*q*/, const DeviceView<Real*>& eta,
                                         Real scale, const DeviceView<Real*>& values) const {
  require_finalized("assemble_dp1_hessian");
  if (data_.offsets.extent(0) != static_cast<size_t>(num_rows()))
    throw_error("constraints: matrix assembly before set_matrix_offsets");
  if (eta.extent(0) < static_cast<size_t>(num_rows()))
    throw_error("constraints: eta has ", eta.extent(0), " values for ", num_rows(), " rows");
  Kokkos::parallel_for("tlfea::constraints::hessian",
                       Kokkos::RangePolicy<ExecSpace>(0, num_rows() * data_.max_coefficients),
                       HessianFunctor{data_, eta, scale, values});
}

Real ConstraintSet::violation_norm(const DeviceView<Real*>& c) const {
  Real sum = 0.0;
  Kokkos::parallel_reduce("tlfea::constraints::violation_norm",
                          Kokkos::RangePolicy<ExecSpace>(0, num_rows()), SquaredNorm{c}, sum);
  return std::sqrt(sum);
}

Real ConstraintSet::violation_max(const DeviceView<Real*>& c) const {
  Real m = 0.0;
  if (num_rows() == 0) return m;
  Kokkos::parallel_reduce("tlfea::constraints::violation_max",
                          Kokkos::RangePolicy<ExecSpace>(0, num_rows()), MaxAbsFunctor{c},
                          Kokkos::Max<Real>(m));
  return m;
}

}  // namespace tlfea
