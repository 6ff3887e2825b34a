// TLFEA: what the detection layer hands the contact law (docs/theory.md
// §7.3-7.4). Per active contact k:
//   point x_c, penetration delta > 0, unit normal n pointing from body B
//   towards body A, patch area A_patch, and the two material points (each a
//   fixed combination of up to kMaxContactCoefficients coefficients, or none
//   for a rigid obstacle, whose velocity is given instead), plus a key that
//   identifies the pair across steps (for the tangential history).
#pragma once

#include <cstddef>

#include "tlfea/core/types.hpp"

namespace tlfea {

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

}  // namespace tlfea
