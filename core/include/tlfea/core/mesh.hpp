// TLFEA: host-side mesh data, as read from a file or made by a generator.
//
// Coefficients are node-major. For T10 and Q27 a node has one coefficient
// (its position); for ANCF 3243 / 3443 a node has four, in the order of
// docs/theory.md §1.2 (r, dr/du, dr/dv, dr/dw), so node k owns coefficients
// 4k .. 4k+3 and its position is coefficient 4k. An ANCF element's local
// gradients of node k are 4k+1, 4k+2, 4k+3 in that order or cycled
// (4k+2, 4k+3, 4k+1 or 4k+3, 4k+1, 4k+2): the rigid right-angle beam
// junctions of read_gmsh_ancf (docs/ancf_mesh.md).
//
// Local node orders (parent coordinates xi = (xi, eta, zeta)):
//  T10  (docs/theory.md §3.1): vertices 0..3 at (0,0,0), (1,0,0), (0,1,0),
//       (0,0,1); midside nodes 4..9 on edges 01, 12, 02, 03, 13, 23.
//  Q27  (docs/theory.md §3.2): node (i, j, k) in {0,1,2}^3 at coordinates
//       (-1, 0, +1) per direction, local index i + 3 j + 9 k.
//  ANCF 3243: nodes 0, 1 at u = 0, L on the beam axis; parent xi in
//       [-1,1]^3 with u = L (xi + 1) / 2, v = W eta / 2, w = H zeta / 2.
//  ANCF 3443: nodes 0..3 at (u, v) = (0,0), (L,0), (L,W), (0,W) on the
//       mid-surface; u = L (xi + 1) / 2, v = W (eta + 1) / 2, w = H zeta / 2.
//
// Local faces (their node lists are outward oriented: for T10 the first three
// entries are the corner vertices counter-clockwise seen from outside):
//  T10: face f is opposite vertex f: f0 = (1,2,3), f1 = (0,3,2),
//       f2 = (0,1,3), f3 = (0,2,1).
//  Q27, ANCF: f0 xi = -1, f1 xi = +1, f2 eta = -1, f3 eta = +1,
//       f4 zeta = -1, f5 zeta = +1.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "tlfea/core/types.hpp"

namespace tlfea {

enum class ElementType { T10, Q27, ANCF3243, ANCF3443 };

const char* to_string(ElementType type);
// Accepts "T10", "Q27", "ANCF3243", "ANCF3443" (case-insensitive); throws Error otherwise.
ElementType element_type_from_string(const std::string& name);
int nodes_per_element(ElementType type);
int coefficients_per_node(ElementType type);
inline int coefficients_per_element(ElementType type) {
  return nodes_per_element(type) * coefficients_per_node(type);
}
int faces_per_element(ElementType type);
// Local node indices of face f (T10: 6 = 3 vertices + 3 midside nodes of the
// edges (v0 v1), (v1 v2), (v2 v0); Q27: 9 in a 3x3 grid, the first running
// fastest, with d/da x d/db outward). For ANCF types faces have no nodes and
// this returns an empty list.
std::vector<int> face_nodes(ElementType type, int face);
// Number of corner vertices among face_nodes (T10: 3, Q27: 4) and their
// positions in that list.
std::vector<int> face_corner_positions(ElementType type);

struct FaceRef {
  Ordinal element;
  int face;
  bool operator==(const FaceRef& o) const { return element == o.element && face == o.face; }
};

struct Mesh {
  ElementType type = ElementType::T10;
  std::string source;  // file name or generator description, used in messages
  std::vector<std::array<Real, 3>> coefficients;  // reference coefficients
  std::vector<Ordinal> connectivity;              // element e: coefficient ids [e n, (e+1) n)
  // ANCF only: per element (L, W, H) in the element's material coordinates.
  std::vector<std::array<Real, 3>> element_size;
  std::map<std::string, std::vector<Ordinal>> node_sets;  // node ids
  std::map<std::string, std::vector<FaceRef>> face_sets;

  int coefficients_per_element() const { return tlfea::coefficients_per_element(type); }
  int coefficients_per_node() const { return tlfea::coefficients_per_node(type); }
  Ordinal num_elements() const {
    return static_cast<Ordinal>(connectivity.size() / coefficients_per_element());
  }
  Ordinal num_coefficients() const { return static_cast<Ordinal>(coefficients.size()); }
  Ordinal num_nodes() const { return num_coefficients() / coefficients_per_node(); }
  Ordinal coefficient(Ordinal element, int local) const {
    return connectivity[static_cast<size_t>(element) * coefficients_per_element() + local];
  }
  // Reference position of node k.
  const std::array<Real, 3>& node_position(Ordinal node) const {
    return coefficients[static_cast<size_t>(node) * coefficients_per_node()];
  }
};

// Structural checks that need no element geometry: sizes agree, every index
// in range, every set refers to existing nodes / faces. Throws Error naming
// the mesh source and the entity.
void check_mesh(const Mesh& mesh);

}  // namespace tlfea
