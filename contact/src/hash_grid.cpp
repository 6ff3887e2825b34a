// TLFEA: the contact broad phase (detection.hpp, step 2; docs/theory.md
// §7.2): triangles binned into the hash grid's buckets by a counting sort on
// the device.
#include "hash_grid.hpp"

#include <cmath>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea::hash_grid {

namespace {

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

}  // namespace

Real bin_triangles(const Surface& surface, Real max_depth, const TriangleGrid& g) {
  const Ordinal nt = surface.num_triangles();
  if (nt == 0) return 0.0;
  const unsigned long long mask = static_cast<unsigned long long>(g.num_buckets - 1);
  Real ext = 0.0;
  Kokkos::parallel_reduce("tlfea::contact::triangle_extent", Kokkos::RangePolicy<ExecSpace>(0, nt),
                          TriangleExtent{surface.x, surface.triangle, g.triangle_plane},
                          Kokkos::Max<Real>(ext));
  Real h = ext + 2.0 * max_depth;
  if (!(h > 0.0) || !std::isfinite(h)) {
    if (!std::isfinite(h)) throw_error("contact detection: non-finite vertex positions");
    h = 1.0;
  }
  const Real inv_h = 1.0 / h;
  fill(g.bucket_start, Ordinal(0));
  fill(g.bucket_cursor, Ordinal(0));
  Kokkos::parallel_for(
      "tlfea::contact::bin_count", Kokkos::RangePolicy<ExecSpace>(0, nt),
      BinCount{surface.x, surface.triangle, g.triangle_bucket, g.bucket_start, inv_h, mask});
  Kokkos::parallel_scan("tlfea::contact::bin_scan",
                        Kokkos::RangePolicy<ExecSpace>(0, g.num_buckets + 1),
                        ExclusiveScan{g.bucket_start});
  Kokkos::parallel_for(
      "tlfea::contact::bin_fill", Kokkos::RangePolicy<ExecSpace>(0, nt),
      BinFill{g.triangle_bucket, g.bucket_start, g.bucket_cursor, g.sorted_triangle,
              surface.triangle_body, g.sorted_body, g.triangle_plane, g.sorted_plane});
  return h;
}

}  // namespace tlfea::hash_grid
