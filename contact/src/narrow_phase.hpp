// TLFEA: the contact narrow phase (detection.hpp, step 3-4; docs/theory.md
// §7.3): the data it reads and writes, and the call that fills ContactPoints
// in vertex order from the hash grid binned by hash_grid.hpp.
#pragma once

#include "tlfea/contact/contact_points.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/contact/obstacles.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

struct NarrowPhaseData {
  // Surface.
  DeviceView<Real*[3]> x, vertex_normal;
  DeviceView<int*> vertex_body;
  DeviceView<Real*> vertex_area;
  MaterialPointSet vertices;
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
  DeviceView<Real*> self_radius;           // per body: > 0 self-contact on
  DeviceView<Real* [3]> vertex_reference;  // self-contact only (else size 1)
  DeviceView<ObstacleState*> obstacle;
  int nb, nobs;
  Real max_depth, tol, opposition;
  // Output.
  DeviceView<Ordinal*> vertex_count, vertex_offset;
  ContactPoints cp;
  // Split detection (ContactDetection::set_split): only the vertices with
  // vertex_active(v) != 0 are tested, and keys carry vertex_global(v).
  bool split = false;
  DeviceView<int*> vertex_active;
  DeviceView<Ordinal*> vertex_global;
};

// Per vertex, the contacts against other bodies' triangles and the obstacles
// (detection.hpp, step 3), written in vertex order (a count pass, an
// exclusive scan into vertex_offset, a write pass; step 4) into d.cp.
// Returns the number of contacts found, which may exceed d.cp.capacity (the
// write pass stops at the capacity; the caller reports the overflow).
Ordinal find_contacts(const NarrowPhaseData& d, Ordinal num_vertices);

}  // namespace tlfea
