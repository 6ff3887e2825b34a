// TLFEA: the contact broad phase's spatial hash grid (detection.hpp, step 2;
// docs/theory.md §7.2): the cell of a point and the bucket of a cell, used on
// the device by the binning (hash_grid.cpp) and the narrow phase.
#pragma once

#include "tlfea/contact/surface.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea::hash_grid {

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

// The grid's device arrays (views owned by ContactDetection, sized by its
// setup: num_buckets a power of two, bucket_start num_buckets + 1, the rest
// one entry per triangle).
struct TriangleGrid {
  Ordinal num_buckets;
  DeviceView<Ordinal*> bucket_start, bucket_cursor, triangle_bucket, sorted_triangle;
  DeviceView<Real*[4]> triangle_plane, sorted_plane;
  DeviceView<int*> sorted_body;
};

// Bins the triangles of `surface` (current positions) for one step: cell size
// h = (largest triangle bounding-box edge) + 2 max_depth, each triangle in the
// bucket of the cell of its bounding-box centre, by a counting sort (count,
// exclusive scan into bucket_start, fill). Writes triangle_plane (unit normal
// n, offset n . a per triangle) and, in bucket order, sorted_triangle,
// sorted_body and sorted_plane. Returns h (0 when there are no triangles);
// throws Error on non-finite positions.
Real bin_triangles(const Surface& surface, Real max_depth, const TriangleGrid& g);

}  // namespace tlfea::hash_grid
