#include "tlfea/contact/detection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tlfea/core/error.hpp"

namespace tlfea {

// ---------------------------------------------------------------- obstacles

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

// ---------------------------------------------------------------- kernels

namespace {

constexpr Real kPi = 3.14159265358979323846;

KOKKOS_INLINE_FUNCTION long long cell_coord(Real x, Real inv_h) {
  return static_cast<long long>(kmath::floor(x * inv_h));
}

// Hash of a cell into one of mask + 1 buckets (splitmix64 finaliser of a
// linear combination; unsigned arithmetic wraps).
KOKKOS_INLINE_FUNCTION Ordinal cell_bucket(long long ix, long long iy, long long iz,
                                           unsigned long long mask) {
  unsigned long long k = static_cast<unsigned long long>(ix) * 0x9E3779B97F4A7C15ull +
                         static_cast<unsigned long long>(iy) * 0xC2B2AE3D27D4EB4Full +
                         static_cast<unsigned long long>(iz) * 0x165667B19E3779F9ull;
  k ^= k >> 30;
  k *= 0xBF58476D1CE4E5B9ull;
  k ^= k >> 27;
  k *= 0x94D049BB133111EBull;
  k ^= k >> 31;
  return static_cast<Ordinal>(k & mask);
}

// Largest bounding-box edge of the current triangles, and each triangle's
// plane (unit normal n, offset n . a) for the narrow phase's first reject.
struct TriangleExtent {
  DeviceView<Real* [3]> x;
  DeviceView<Ordinal* [3]> tri;
  DeviceView<Real* [4]> plane;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal t, Real& m) const {
    Real p[3][3];
    for (int k = 0; k < 3; ++k)
      for (int a = 0; a < 3; ++a) p[k][a] = x(tri(t, k), a);
    for (int a = 0; a < 3; ++a) {
      const Real e = kmath::fmax(p[0][a], kmath::fmax(p[1][a], p[2][a])) -
                     kmath::fmin(p[0][a], kmath::fmin(p[1][a], p[2][a]));
      if (e > m) m = e;
    }
    const Real e1[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
    const Real e2[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
    Real n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                 e1[0] * e2[1] - e1[1] * e2[0]};
    const Real len = kmath::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    const Real inv = len > 0.0 ? 1.0 / len : 0.0;
    for (int a = 0; a < 3; ++a) {
      n[a] *= inv;
      plane(t, a) = n[a];
    }
    plane(t, 3) = n[0] * p[0][0] + n[1] * p[0][1] + n[2] * p[0][2];
  }
};

KOKKOS_INLINE_FUNCTION void triangle_cell(const DeviceView<Real* [3]>& x,
                                          const DeviceView<Ordinal* [3]>& tri, Ordinal t,
                                          Real inv_h, long long c[3]) {
  for (int a = 0; a < 3; ++a) {
    const Real p = x(tri(t, 0), a), q = x(tri(t, 1), a), r = x(tri(t, 2), a);
    const Real mid = 0.5 * (kmath::fmax(p, kmath::fmax(q, r)) + kmath::fmin(p, kmath::fmin(q, r)));
    c[a] = cell_coord(mid, inv_h);
  }
}

struct BinCount {
  DeviceView<Real* [3]> x;
  DeviceView<Ordinal* [3]> tri;
  DeviceView<Ordinal*> triangle_bucket, bucket_count;
  Real inv_h;
  unsigned long long mask;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal t) const {
    long long c[3];
    triangle_cell(x, tri, t, inv_h, c);
    const Ordinal b = cell_bucket(c[0], c[1], c[2], mask);
    triangle_bucket(t) = b;
    Kokkos::atomic_increment(&bucket_count(b));
  }
};

// In-place exclusive scan; `total` of the values before the scan.
struct ExclusiveScan {
  using value_type = Ordinal;
  DeviceView<Ordinal*> a;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Ordinal& update, const bool final) const {
    const Ordinal v = a(i);
    if (final) a(i) = update;
    update += v;
  }
};

// Exclusive scan of `count` into `offset`.
struct OffsetScan {
  using value_type = Ordinal;
  DeviceView<Ordinal*> count, offset;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Ordinal& update, const bool final) const {
    const Ordinal v = count(i);
    if (final) offset(i) = update;
    update += v;
  }
};

// Bucket order: the triangle id, and copies of its body and plane, so the
// narrow phase's first reject reads a bucket contiguously.
struct BinFill {
  DeviceView<Ordinal*> triangle_bucket, bucket_start, bucket_cursor, sorted;
  DeviceView<int*> triangle_body, sorted_body;
  DeviceView<Real*[4]> plane, sorted_plane;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal t) const {
    const Ordinal b = triangle_bucket(t);
    const Ordinal pos = Kokkos::atomic_fetch_add(&bucket_cursor(b), Ordinal(1));
    const Ordinal s = bucket_start(b) + pos;
    sorted(s) = t;
    sorted_body(s) = triangle_body(t);
    for (int k = 0; k < 4; ++k) sorted_plane(s, k) = plane(t, k);
  }
};

// Vertex p against triangle (a, b, c): see detection.hpp. On success delta,
// barycentric lam (clamped to the triangle, summing to 1) and the outward
// unit normal n.
KOKKOS_INLINE_FUNCTION bool vertex_triangle(const Real p[3], const Real a[3], const Real b[3],
                                            const Real c[3], Real max_depth, Real tol, Real& delta,
                                            Real lam[3], Real n[3]) {
  const Real e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const Real e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const Real w[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
  Real nn[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                e1[0] * e2[1] - e1[1] * e2[0]};
  const Real len = kmath::sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
  if (!(len > 0.0)) return false;
  for (int k = 0; k < 3; ++k) nn[k] /= len;
  const Real d = w[0] * nn[0] + w[1] * nn[1] + w[2] * nn[2];
  if (!(d < 0.0) || d < -max_depth) return false;
  // Barycentric coordinates of the projection (w's components along e1, e2).
  const Real d00 = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2];
  const Real d01 = e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2];
  const Real d11 = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2];
  const Real d20 = w[0] * e1[0] + w[1] * e1[1] + w[2] * e1[2];
  const Real d21 = w[0] * e2[0] + w[1] * e2[1] + w[2] * e2[2];
  const Real den = d00 * d11 - d01 * d01;
  if (!(den > 0.0)) return false;
  const Real l1 = (d11 * d20 - d01 * d21) / den;
  const Real l2 = (d00 * d21 - d01 * d20) / den;
  const Real l0 = 1.0 - l1 - l2;
  if (l0 < -tol || l1 < -tol || l2 < -tol) return false;
  lam[0] = kmath::fmax(l0, 0.0);
  lam[1] = kmath::fmax(l1, 0.0);
  lam[2] = kmath::fmax(l2, 0.0);
  const Real s = lam[0] + lam[1] + lam[2];
  for (int k = 0; k < 3; ++k) lam[k] /= s;
  delta = -d;
  for (int k = 0; k < 3; ++k) n[k] = nn[k];
  return true;
}

struct Candidate {
  int body;
  Ordinal tri;
  Real delta;
  Real lam[3];
  Real n[3];
};

struct CountTag {};
struct WriteTag {};

struct NarrowPhase {
  // Surface.
  DeviceView<Real* [3]> x, vertex_normal;
  DeviceView<int*> vertex_body;
  DeviceView<Real*> vertex_area;
  DeviceView<Ordinal*> vertex_ptr, vertex_coef;
  DeviceView<Real*> vertex_weight;
  DeviceView<Ordinal* [3]> tri;
  DeviceView<int*> triangle_body;
  Ordinal num_triangles;
  // Grid.
  DeviceView<Ordinal*> bucket_start, sorted;
  DeviceView<int*> sorted_body;
  DeviceView<Real* [4]> plane;  // in bucket order
  Real inv_h;
  unsigned long long mask;
  // Filters and partners.
  DeviceView<int*> body_pair, obstacle_body, body_has_partner;
  DeviceView<Real*> body_radius;
  DeviceView<Ordinal*> exclusion_ptr;
  DeviceView<int*> exclusion_body;
  DeviceView<Real*> self_radius;         // per body: > 0 self-contact on
  DeviceView<Real* [3]> vertex_reference;  // self-contact only (else size 1)
  DeviceView<ObstacleState*> obstacle;
  int nb, nobs;
  Real max_depth, tol, opposition;
  // Output.
  DeviceView<Ordinal*> vertex_count, vertex_offset;
  ContactPoints cp;

  KOKKOS_INLINE_FUNCTION int find_candidates(const Ordinal v, Candidate* slot) const {
    const int a = vertex_body(v);
    int ns = 0;
    if (num_triangles == 0 || !body_has_partner(a)) return 0;
    const Real p[3] = {x(v, 0), x(v, 1), x(v, 2)};
    // The 2 x 2 x 2 cells nearest the vertex: a triangle it can touch has its
    // bounding-box centre within extent / 2 + max_depth <= h / 2 of it per axis.
    long long c[3];
    int lo[3];
    for (int k = 0; k < 3; ++k) {
      const Real s = p[k] * inv_h;
      c[k] = cell_coord(p[k], inv_h);
      lo[k] = (s - static_cast<Real>(c[k]) < 0.5) ? -1 : 0;
    }
    const long long c0 = c[0], c1 = c[1], c2 = c[2];
    for (int dz = lo[2]; dz <= lo[2] + 1; ++dz)
      for (int dy = lo[1]; dy <= lo[1] + 1; ++dy)
        for (int dx = lo[0]; dx <= lo[0] + 1; ++dx) {
          const Ordinal b = cell_bucket(c0 + dx, c1 + dy, c2 + dz, mask);
          for (Ordinal s = bucket_start(b); s < bucket_start(b + 1); ++s) {
            const int bt = sorted_body(s);
            if (!body_pair(a * nb + bt)) continue;  // a == bt only with self-contact
            bool joined = false;  // joint filter (exclude_near_point)
            for (Ordinal e = exclusion_ptr(v); e < exclusion_ptr(v + 1); ++e)
              joined = joined || exclusion_body(e) == bt;
            if (joined) continue;
            // First reject on the precomputed plane, with a margin above its
            // round-off; the exact test below decides.
            const Real d0 =
                p[0] * plane(s, 0) + p[1] * plane(s, 1) + p[2] * plane(s, 2) - plane(s, 3);
            const Real margin =
                1e-6 * max_depth + 1e-12 * (kmath::fabs(p[0]) + kmath::fabs(p[1]) +
                                            kmath::fabs(p[2]) + kmath::fabs(plane(s, 3)));
            if (d0 > margin || d0 < -max_depth - margin) continue;
            const Ordinal t = sorted(s);
            if (bt == a) {
              // Self-contact: not against the body's own triangles within
              // self_radius of the vertex in the reference configuration
              // (its own triangles and their neighbourhood).
              const Real r = self_radius(a);
              bool near = false;
              for (int b = 0; b < 3 && !near; ++b) {
                Real d2 = 0.0;
                for (int k = 0; k < 3; ++k) {
                  const Real d = vertex_reference(tri(t, b), k) - vertex_reference(v, k);
                  d2 += d * d;
                }
                near = d2 < r * r;
              }
              if (near) continue;
            }
            Real ta[3], tb[3], tc[3];
            for (int k = 0; k < 3; ++k) {
              ta[k] = x(tri(t, 0), k);
              tb[k] = x(tri(t, 1), k);
              tc[k] = x(tri(t, 2), k);
            }
            Candidate cand;
            if (!vertex_triangle(p, ta, tb, tc, max_depth, tol, cand.delta, cand.lam, cand.n))
              continue;
            if (vertex_normal(v, 0) * cand.n[0] + vertex_normal(v, 1) * cand.n[1] +
                    vertex_normal(v, 2) * cand.n[2] >=
                -opposition)
              continue;  // normals do not oppose: not a contact through this face
            cand.body = bt;
            cand.tri = t;
            int k = 0;
            while (k < ns && slot[k].body != bt) ++k;
            if (k < ns) {
              if (cand.delta < slot[k].delta || (cand.delta == slot[k].delta && t < slot[k].tri))
                slot[k] = cand;
            } else if (ns < kMaxPartnersPerVertex) {
              slot[ns++] = cand;
            }
          }
        }
    // Partners in increasing body id (keys increase within a vertex).
    for (int i = 1; i < ns; ++i)
      for (int j = i; j > 0 && slot[j - 1].body > slot[j].body; --j) {
        const Candidate tmp = slot[j - 1];
        slot[j - 1] = slot[j];
        slot[j] = tmp;
      }
    return ns;
  }

  KOKKOS_INLINE_FUNCTION Real own_radius(const int body, const Real area) const {
    const Real r = body_radius(body);
    return r > 0.0 ? r : kmath::sqrt(area / kPi);
  }

  KOKKOS_INLINE_FUNCTION void copy_vertex_point(const Ordinal v, const Ordinal idx) const {
    int m = 0;
    for (Ordinal l = vertex_ptr(v); l < vertex_ptr(v + 1) && m < kMaxContactCoefficients;
         ++l, ++m) {
      cp.id(idx, m, 0) = vertex_coef(l);
      cp.weight(idx, m, 0) = vertex_weight(l);
    }
    cp.num(idx, 0) = m;
  }

  KOKKOS_INLINE_FUNCTION void operator()(CountTag, const Ordinal v) const {
    Candidate slot[kMaxPartnersPerVertex];
    int count = find_candidates(v, slot);
    const int a = vertex_body(v);
    const Real p[3] = {x(v, 0), x(v, 1), x(v, 2)};
    for (int k = 0; k < nobs; ++k) {
      if (!obstacle_body(k * nb + a)) continue;
      Real delta, n[3], xs[3];
      if (obstacle_penetration(obstacle(k), p, delta, n, xs)) ++count;
    }
    vertex_count(v) = count;
  }

  KOKKOS_INLINE_FUNCTION void operator()(WriteTag, const Ordinal v) const {
    if (vertex_count(v) == 0) return;
    Candidate slot[kMaxPartnersPerVertex];
    const int ns = find_candidates(v, slot);
    const int a = vertex_body(v);
    const Real area = vertex_area(v);
    const Real ra = own_radius(a, area);
    const Real p[3] = {x(v, 0), x(v, 1), x(v, 2)};
    const unsigned long long P = static_cast<unsigned long long>(nb + nobs);
    Ordinal idx = vertex_offset(v);
    for (int j = 0; j < ns; ++j, ++idx) {
      if (idx >= cp.capacity) return;
      const Candidate& c = slot[j];
      for (int k = 0; k < 3; ++k) {
        cp.x(idx, k) = p[k] + 0.5 * c.delta * c.n[k];
        cp.normal(idx, k) = c.n[k];
        cp.obstacle_velocity(idx, k) = 0.0;
      }
      cp.delta(idx) = c.delta;
      cp.area(idx) = area;
      const Real rb = own_radius(c.body, area);
      cp.radius(idx) = ra * rb / (ra + rb);
      cp.body(idx, 0) = a;
      cp.body(idx, 1) = c.body;
      copy_vertex_point(v, idx);
      // B: sum_b lam_b (combination of triangle vertex b), merged by id.
      int m = 0;
      for (int b = 0; b < 3; ++b) {
        const Ordinal tv = tri(c.tri, b);
        for (Ordinal l = vertex_ptr(tv); l < vertex_ptr(tv + 1); ++l) {
          const Ordinal id = vertex_coef(l);
          const Real w = c.lam[b] * vertex_weight(l);
          int i = 0;
          while (i < m && cp.id(idx, i, 1) != id) ++i;
          if (i < m) {
            cp.weight(idx, i, 1) += w;
          } else if (m < kMaxContactCoefficients) {
            cp.id(idx, m, 1) = id;
            cp.weight(idx, m, 1) = w;
            ++m;
          }
        }
      }
      cp.num(idx, 1) = m;
      cp.key(idx) =
          static_cast<unsigned long long>(v) * P + static_cast<unsigned long long>(c.body);
    }
    for (int k = 0; k < nobs; ++k) {
      if (!obstacle_body(k * nb + a)) continue;
      const ObstacleState o = obstacle(k);
      Real delta, n[3], xs[3];
      if (!obstacle_penetration(o, p, delta, n, xs)) continue;
      if (idx >= cp.capacity) return;
      Real xc[3], vb[3];
      for (int i = 0; i < 3; ++i) xc[i] = 0.5 * (p[i] + xs[i]);
      obstacle_velocity_at(o, xc, vb);
      for (int i = 0; i < 3; ++i) {
        cp.x(idx, i) = xc[i];
        cp.normal(idx, i) = n[i];
        cp.obstacle_velocity(idx, i) = vb[i];
      }
      cp.delta(idx) = delta;
      cp.area(idx) = area;
      cp.radius(idx) = (o.shape == static_cast<int>(ObstacleShape::Sphere))
                           ? ra * o.radius / (ra + o.radius)
                           : ra;
      cp.body(idx, 0) = a;
      cp.body(idx, 1) = -1 - k;
      copy_vertex_point(v, idx);
      cp.num(idx, 1) = 0;
      cp.key(idx) =
          static_cast<unsigned long long>(v) * P + static_cast<unsigned long long>(nb + k);
      ++idx;
    }
  }
};

template <class T>
DeviceView<T*> upload(const std::string& label, const std::vector<T>& h) {
  DeviceView<T*> d(label, h.size());
  auto m = Kokkos::create_mirror_view(d);
  for (size_t i = 0; i < h.size(); ++i) m(i) = h[i];
  Kokkos::deep_copy(d, m);
  return d;
}

}  // namespace

// ---------------------------------------------------------------- ContactDetection

ContactPoints allocate_contact_points(Ordinal capacity) {
  if (capacity < 0) throw_error("contact points: negative capacity ", capacity);
  ContactPoints cp;
  cp.capacity = capacity;
  cp.count = DeviceView<Ordinal*>("tlfea::contact::count", 1);
  cp.x = DeviceView<Real* [3]>("tlfea::contact::x", capacity);
  cp.normal = DeviceView<Real* [3]>("tlfea::contact::normal", capacity);
  cp.delta = DeviceView<Real*>("tlfea::contact::delta", capacity);
  cp.area = DeviceView<Real*>("tlfea::contact::area", capacity);
  cp.radius = DeviceView<Real*>("tlfea::contact::radius", capacity);
  cp.body = DeviceView<int* [2]>("tlfea::contact::body", capacity);
  cp.num = DeviceView<int* [2]>("tlfea::contact::num", capacity);
  cp.id = DeviceView<Ordinal** [2]>("tlfea::contact::id", capacity, kMaxContactCoefficients);
  cp.weight = DeviceView<Real** [2]>("tlfea::contact::weight", capacity, kMaxContactCoefficients);
  cp.obstacle_velocity = DeviceView<Real* [3]>("tlfea::contact::obstacle_velocity", capacity);
  cp.key = DeviceView<unsigned long long*>("tlfea::contact::key", capacity);
  return cp;
}

ContactDetection::ContactDetection(const DetectionSettings& settings) : settings_(settings) {}

void ContactDetection::add_body(int body, const Mesh& mesh, Ordinal coef_offset,
                                Real contact_radius) {
  if (ready_) throw_error("contact detection: add_body after setup");
  if (std::find(bodies_.begin(), bodies_.end(), body) != bodies_.end())
    throw_error("contact detection: body ", body, " added twice");
  if (contact_radius < 0.0)
    throw_error("contact detection: body ", body, ": negative contact radius ", contact_radius);
  host_.append(extract_surface(mesh, coef_offset, body, settings_.surface));
  bodies_.push_back(body);
  if (static_cast<int>(body_radius_host_.size()) <= body) body_radius_host_.resize(body + 1, 0.0);
  body_radius_host_[body] = contact_radius;
  num_body_ids_ = std::max(num_body_ids_, body + 1);
}

int ContactDetection::add_obstacle(const Obstacle& obstacle) {
  if (ready_) throw_error("contact detection: add_obstacle after setup");
  evaluate_obstacle(obstacle, 0.0);  // validates
  obstacles_.push_back(obstacle);
  return static_cast<int>(obstacles_.size()) - 1;
}

void ContactDetection::set_body_pair(int a, int b, bool may_touch) {
  if (ready_) throw_error("contact detection: set_body_pair after setup");
  if (a < 0 || b < 0)
    throw_error("contact detection: set_body_pair(", a, ", ", b, "): negative id");
  body_pair_edits_.push_back({{a, b}, may_touch});
}

void ContactDetection::set_obstacle_body(int k, int body, bool may_touch) {
  if (ready_) throw_error("contact detection: set_obstacle_body after setup");
  if (k < 0 || body < 0)
    throw_error("contact detection: set_obstacle_body(", k, ", ", body, "): negative id");
  obstacle_edits_.push_back({{k, body}, may_touch});
}

void ContactDetection::set_self_contact(int body, Real exclusion_radius) {
  if (ready_) throw_error("contact detection: set_self_contact after setup");
  if (!(exclusion_radius > 0.0) || !std::isfinite(exclusion_radius))
    throw_error("contact detection: set_self_contact(", body, "): exclusion radius ",
                exclusion_radius, " must be positive and finite");
  self_edits_.emplace_back(body, exclusion_radius);
}

void ContactDetection::exclude_near_point(int a, int b, const Vec3& point, Real radius) {
  if (ready_) throw_error("contact detection: exclude_near_point after setup");
  if (a < 0 || b < 0 || a == b)
    throw_error("contact detection: exclude_near_point(", a, ", ", b, "): needs two distinct bodies");
  if (!(radius > 0.0) || !std::isfinite(radius))
    throw_error("contact detection: exclude_near_point(", a, ", ", b, "): radius ", radius,
                " must be positive");
  joint_exclusions_.push_back({a, b, point, radius});
}

void ContactDetection::setup() {
  if (ready_) return;
  const int nb = std::max(num_body_ids_, 1);
  num_body_ids_ = nb;
  const int nobs = num_obstacles();
  std::vector<int> pair(static_cast<size_t>(nb) * nb, 0);
  for (int a : bodies_)
    for (int b : bodies_)
      if (a != b) pair[a * nb + b] = 1;
  std::vector<Real> self_radius(nb, 0.0);
  for (const auto& e : self_edits_) {
    if (std::find(bodies_.begin(), bodies_.end(), e.first) == bodies_.end())
      throw_error("contact detection: set_self_contact(", e.first, "): no such body");
    self_radius[e.first] = e.second;
  }
  for (const auto& e : body_pair_edits_) {
    const int a = e.first.first, b = e.first.second;
    if (a >= nb || b >= nb)
      throw_error("contact detection: set_body_pair(", a, ", ", b, "): no such body");
    pair[a * nb + b] = pair[b * nb + a] = (e.second && a != b) ? 1 : 0;
  }
  bool any_self = false;
  for (int a = 0; a < nb; ++a)
    if (self_radius[a] > 0.0) {
      pair[a * nb + a] = 1;
      any_self = true;
    }
  std::vector<int> obs(static_cast<size_t>(std::max(nobs, 1)) * nb, 1);
  for (const auto& e : obstacle_edits_) {
    const int k = e.first.first, b = e.first.second;
    if (k >= nobs || b >= nb)
      throw_error("contact detection: set_obstacle_body(", k, ", ", b, "): no such obstacle/body");
    obs[k * nb + b] = e.second ? 1 : 0;
  }
  std::vector<int> has(nb, 0);
  for (int a = 0; a < nb; ++a)
    for (int b = 0; b < nb; ++b) has[a] |= pair[a * nb + b];
  body_radius_host_.resize(nb, 0.0);
  body_pair_ = upload("tlfea::contact::body_pair", pair);
  obstacle_body_ = upload("tlfea::contact::obstacle_body", obs);
  body_has_partner_ = upload("tlfea::contact::body_has_partner", has);
  body_radius_ = upload("tlfea::contact::body_radius", body_radius_host_);
  self_radius_ = upload("tlfea::contact::self_radius", self_radius);

  surface_ = Surface(host_);
  const Ordinal nv = surface_.num_vertices(), nt = surface_.num_triangles();
  vertex_reference_ = DeviceView<Real* [3]>("tlfea::contact::vertex_reference",
                                            any_self ? std::max<Ordinal>(nv, 1) : 1);
  if (any_self) {
    auto h = Kokkos::create_mirror_view(vertex_reference_);
    for (Ordinal v = 0; v < nv; ++v)
      for (int k = 0; k < 3; ++k) h(v, k) = host_.vertex_reference[v][k];
    Kokkos::deep_copy(vertex_reference_, h);
  }

  // Joint filter: per vertex, the partner bodies it is not tested against.
  {
    for (const auto& j : joint_exclusions_)
      if (std::find(bodies_.begin(), bodies_.end(), j.a) == bodies_.end() ||
          std::find(bodies_.begin(), bodies_.end(), j.b) == bodies_.end())
        throw_error("contact detection: exclude_near_point(", j.a, ", ", j.b, "): no such body");
    std::vector<Ordinal> ptr(nv + 1, 0);
    std::vector<int> partner;
    for (Ordinal v = 0; v < nv; ++v) {
      const int body = host_.vertex_body[v];
      const auto& X = host_.vertex_reference[v];
      std::vector<int> mine;
      for (const auto& j : joint_exclusions_) {
        if (body != j.a && body != j.b) continue;
        Real d2 = 0.0;
        for (int k = 0; k < 3; ++k) d2 += (X[k] - j.point[k]) * (X[k] - j.point[k]);
        const int other = body == j.a ? j.b : j.a;
        if (d2 <= j.radius * j.radius &&
            std::find(mine.begin(), mine.end(), other) == mine.end())
          mine.push_back(other);
      }
      partner.insert(partner.end(), mine.begin(), mine.end());
      ptr[v + 1] = static_cast<Ordinal>(partner.size());
    }
    if (partner.empty()) partner.push_back(-1);  // non-empty view
    exclusion_ptr_ = upload("tlfea::contact::exclusion_ptr", ptr);
    exclusion_body_ = upload("tlfea::contact::exclusion_body", partner);
  }

  // Depth window: half the largest reference triangle bounding-box edge.
  max_depth_ = settings_.max_depth;
  if (!(max_depth_ > 0.0)) {
    Real ext = 0.0;
    for (const auto& t : host_.triangles)
      for (int a = 0; a < 3; ++a) {
        const Real p = host_.vertex_reference[t[0]][a], q = host_.vertex_reference[t[1]][a],
                   r = host_.vertex_reference[t[2]][a];
        ext = std::max(ext, std::max(p, std::max(q, r)) - std::min(p, std::min(q, r)));
      }
    max_depth_ = 0.5 * ext;
  }

  Ordinal buckets = 1;
  while (buckets < 2 * nt && buckets < (Ordinal(1) << 30)) buckets *= 2;
  num_buckets_ = buckets;
  bucket_start_ = DeviceView<Ordinal*>("tlfea::contact::bucket_start", buckets + 1);
  bucket_cursor_ = DeviceView<Ordinal*>("tlfea::contact::bucket_cursor", buckets);
  sorted_triangle_ = DeviceView<Ordinal*>("tlfea::contact::sorted_triangle", nt);
  triangle_bucket_ = DeviceView<Ordinal*>("tlfea::contact::triangle_bucket", nt);
  triangle_plane_ = DeviceView<Real* [4]>("tlfea::contact::triangle_plane", nt);
  sorted_plane_ = DeviceView<Real* [4]>("tlfea::contact::sorted_plane", nt);
  sorted_body_ = DeviceView<int*>("tlfea::contact::sorted_body", nt);
  vertex_count_ = DeviceView<Ordinal*>("tlfea::contact::vertex_count", nv);
  vertex_offset_ = DeviceView<Ordinal*>("tlfea::contact::vertex_offset", nv);

  obstacle_state_ = DeviceView<ObstacleState*>("tlfea::contact::obstacles", nobs);
  obstacle_state_host_ = Kokkos::create_mirror_view(obstacle_state_);

  Ordinal cap = settings_.capacity;
  if (cap <= 0) cap = std::max<Ordinal>(64, nv);
  points_ = allocate_contact_points(cap);
  ready_ = true;
}

Ordinal ContactDetection::detect(const CoefView& q, Real t) {
  setup();
  const Ordinal nv = surface_.num_vertices(), nt = surface_.num_triangles();
  const int nb = num_body_ids_, nobs = num_obstacles();
  surface_.update_positions(q);
  for (int k = 0; k < nobs; ++k) obstacle_state_host_(k) = evaluate_obstacle(obstacles_[k], t);
  if (nobs > 0) Kokkos::deep_copy(obstacle_state_, obstacle_state_host_);

  // Broad phase: bin triangles by the hashed cell of their bounding-box centre.
  const unsigned long long mask = static_cast<unsigned long long>(num_buckets_ - 1);
  Real inv_h = 1.0;
  if (nt > 0) {
    Real ext = 0.0;
    Kokkos::parallel_reduce(
        "tlfea::contact::triangle_extent", Kokkos::RangePolicy<ExecSpace>(0, nt),
        TriangleExtent{surface_.x, surface_.triangle, triangle_plane_}, Kokkos::Max<Real>(ext));
    Real h = ext + 2.0 * max_depth_;
    if (!(h > 0.0) || !std::isfinite(h)) {
      if (!std::isfinite(h)) throw_error("contact detection: non-finite vertex positions");
      h = 1.0;
    }
    cell_size_ = h;
    inv_h = 1.0 / h;
    Kokkos::deep_copy(bucket_start_, Ordinal(0));
    Kokkos::deep_copy(bucket_cursor_, Ordinal(0));
    Kokkos::parallel_for(
        "tlfea::contact::bin_count", Kokkos::RangePolicy<ExecSpace>(0, nt),
        BinCount{surface_.x, surface_.triangle, triangle_bucket_, bucket_start_, inv_h, mask});
    Kokkos::parallel_scan("tlfea::contact::bin_scan",
                          Kokkos::RangePolicy<ExecSpace>(0, num_buckets_ + 1),
                          ExclusiveScan{bucket_start_});
    Kokkos::parallel_for(
        "tlfea::contact::bin_fill", Kokkos::RangePolicy<ExecSpace>(0, nt),
        BinFill{triangle_bucket_, bucket_start_, bucket_cursor_, sorted_triangle_,
                surface_.triangle_body, sorted_body_, triangle_plane_, sorted_plane_});
  }

  Ordinal total = 0;
  if (nv > 0) {
    NarrowPhase np{surface_.x,
                   surface_.normal,
                   surface_.vertex_body,
                   surface_.vertex_area,
                   surface_.vertex_ptr,
                   surface_.vertex_coef,
                   surface_.vertex_weight,
                   surface_.triangle,
                   surface_.triangle_body,
                   nt,
                   bucket_start_,
                   sorted_triangle_,
                   sorted_body_,
                   sorted_plane_,
                   inv_h,
                   mask,
                   body_pair_,
                   obstacle_body_,
                   body_has_partner_,
                   body_radius_,
                   exclusion_ptr_,
                   exclusion_body_,
                   self_radius_,
                   vertex_reference_,
                   obstacle_state_,
                   nb,
                   nobs,
                   max_depth_,
                   settings_.inside_tolerance,
                   settings_.normal_opposition,
                   vertex_count_,
                   vertex_offset_,
                   points_};
    Kokkos::parallel_for("tlfea::contact::narrow_count",
                         Kokkos::RangePolicy<ExecSpace, CountTag>(0, nv), np);
    Kokkos::parallel_scan("tlfea::contact::contact_scan", Kokkos::RangePolicy<ExecSpace>(0, nv),
                          OffsetScan{vertex_count_, vertex_offset_}, total);
    Kokkos::parallel_for("tlfea::contact::narrow_write",
                         Kokkos::RangePolicy<ExecSpace, WriteTag>(0, nv), np);
  }
  Kokkos::deep_copy(points_.count, std::min(total, points_.capacity));
  if (total > points_.capacity)
    throw_error("contact detection: ", total, " contacts exceed the capacity ", points_.capacity,
                " (DetectionSettings::capacity)");
  return total;
}

void ContactDetection::decode_key(unsigned long long key, Ordinal& vertex, int& partner) const {
  const unsigned long long P = static_cast<unsigned long long>(num_body_ids_ + num_obstacles());
  vertex = static_cast<Ordinal>(key / P);
  partner = static_cast<int>(key % P);
}

}  // namespace tlfea
