// TLFEA scene: the bounds of accepted values and sizes (docs/scene.md, "Limits"),
// and the memory check that refuses a size this machine cannot hold.
#pragma once

#include <string>

#include "tlfea/core/types.hpp"
#include "yaml_reader.hpp"

namespace tlfea::scene::detail {

// Memory this process may use: the machine's physical memory (sysconf), or
// 64 GiB where that is unknown. Sizes that would need more are refused up
// front (docs/scene.md, "Limits") instead of being attempted.
double memory_limit_bytes();
// BYTES as "12.3 GB".
std::string gigabytes(double bytes);
// Refuses (at n) `entries` values of `bytes_each` bytes (counted in double:
// the counts may exceed 64-bit integers) when they alone exceed the limit.
void require_memory(const Ctx& c, const YAML::Node& n, const std::string& what, double entries,
                    double bytes_each, const std::string& of);
// Entries of the assembled matrix of a structured mesh (3 x 3 per pair of
// coupled coefficients). Node couplings are a tensor product over the axes:
// along an axis of n cells, `per_axis(n)` counts the pairs (i, i') of node
// indices sharing a cell, summed over i; the pairs of the mesh are the
// product over the axes.
//  Q27 box (half-cell grid of 2n + 1 nodes): a vertex couples with 5 (3 on
//  the boundary), a mid-node with 3: 5 (n - 1) + 2 * 3 + 3 n = 8 n + 1. T10
//  boxes couple a subset of these (their nodes share the same cells).
//  ANCF beam and plate (n + 1 nodes): 3 each, 2 at the ends: 3 n + 1.
inline double box_pairs_per_axis(double n) { return 8 * n + 1; }
inline double ancf_pairs_per_axis(double n) { return 3 * n + 1; }
// Bounds of values that are accepted (docs/scene.md, "Limits").
constexpr Real kMaxSteps = 1e9;      // time steps of a run
constexpr Real kMaxFriction = 10.0;  // friction coefficients (real pairs: below about 2)
constexpr Real kMinDensity = 1e-3;   // kg/m^3
constexpr Real kMaxDensity = 1e5;    // kg/m^3
// Matrix entries take a value (8 bytes) and a column index (4 bytes).
constexpr double kMatrixEntryBytes = sizeof(Real) + sizeof(Ordinal);

// Visualisation points of the ANCF bodies per output step (docs/scene.md,
// "Limits"): 1e8 points are 7.2 GB per step file with displacement and
// velocity, beyond what a viewer shows or a disk holds for many steps.
constexpr double kMaxVisualisationPoints = 1e8;

}  // namespace tlfea::scene::detail
