// TLFEA: what the detection layer hands the contact law (docs/theory.md
// §7.3-7.4). Per active contact k:
//   point x_c, penetration delta > 0, unit normal n pointing from body B
//   towards body A, patch area A_patch, and the two material points (each a
//   fixed combination of up to kMaxContactCoefficients coefficients, or none
//   for a rigid obstacle, whose velocity is given instead), plus a key that
//   identifies the pair across steps (for the tangential history).
// The narrow phase copies each side's combination from the surface's
// MaterialPointSet (side A: a vertex; side B: the barycentric sum of a
// triangle's vertices, merged by id) into fixed slots; every gather and
// scatter over a side goes through contact_side_gather / contact_side_scatter
// (core/material_point_set.hpp's gather_combination / scatter_combination).
#pragma once

#include <cstddef>

#include "tlfea/core/material_point_set.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

// Slots per side. Surface (contact/surface.hpp) refuses a triangle whose three
// vertices together have more distinct coefficients, so no side is cut short.
constexpr int kMaxContactCoefficients = 27;

// Device arrays with capacity `capacity`; `count` entries are valid.
struct ContactPoints {
  Ordinal capacity = 0;
  DeviceView<Ordinal*> count;               // size 1 (device-side counter)
  DeviceView<Real* [3]> x;                  // contact point
  DeviceView<Real* [3]> normal;             // unit, from B towards A
  DeviceView<Real*> delta;                  // penetration > 0
  DeviceView<Real*> area;                   // patch area A_patch
  DeviceView<Real*> radius;                 // effective radius R* (from the patch, or given)
  DeviceView<int* [2]> body;                // body ids of A and B (obstacle ids are -1 - k)
  DeviceView<int* [2]> num;                 // coefficients in each material point (0: obstacle)
  DeviceView<Ordinal** [2]> id;             // (k, l, side) coefficient ids
  DeviceView<Real** [2]> weight;            // (k, l, side) shape-function weights s_l
  DeviceView<Real* [3]> obstacle_velocity;  // velocity of B when B is an obstacle
  DeviceView<unsigned long long*> key;      // pair identity (stable across steps)
};

// Bytes per contact of the views of ContactPoints (allocate_contact_points):
// x, normal and obstacle_velocity (3 reals each); delta, area and radius;
// body and num (2 ints each); id and weight (2 x kMaxContactCoefficients
// each); key. The scene reader refuses capacities whose points alone would
// not fit in memory.
constexpr std::size_t kContactPointBytes =
    9 * sizeof(Real) + 3 * sizeof(Real) + 4 * sizeof(int) +
    2 * kMaxContactCoefficients * (sizeof(Ordinal) + sizeof(Real)) + sizeof(unsigned long long);

// Slot l of one side of contact k, as the id / weight accessors of
// gather_combination and scatter_combination.
struct ContactSideIds {
  DeviceView<Ordinal** [2]> id;
  Ordinal k;
  int side;
  KOKKOS_INLINE_FUNCTION Ordinal operator()(const Ordinal l) const { return id(k, l, side); }
};
struct ContactSideWeights {
  DeviceView<Real** [2]> weight;
  Ordinal k;
  int side;
  KOKKOS_INLINE_FUNCTION Real operator()(const Ordinal l) const { return weight(k, l, side); }
};

// out[a] += sum_l w_l u(id_l, a) over side `side` of contact k (u: positions
// or velocities; nothing for an obstacle side).
KOKKOS_INLINE_FUNCTION void contact_side_gather(const ContactPoints& cp, const Ordinal k,
                                                const int side, const CoefView& u, Real out[3]) {
  gather_combination(0, cp.num(k, side), ContactSideIds{cp.id, k, side},
                     ContactSideWeights{cp.weight, k, side}, u, out);
}

// f(id_l) += (scale w_l) F over side `side` of contact k, atomically (contacts
// share coefficients).
KOKKOS_INLINE_FUNCTION void contact_side_scatter(const ContactPoints& cp, const Ordinal k,
                                                 const int side, const Real scale, const Real F[3],
                                                 const CoefView& f) {
  scatter_combination(0, cp.num(k, side), ContactSideIds{cp.id, k, side},
                      ContactSideWeights{cp.weight, k, side}, scale, F, f, false);
}

}  // namespace tlfea
