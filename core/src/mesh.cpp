// TLFEA: element tables and structural mesh checks (mesh.hpp).
#include "tlfea/core/mesh.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>

#include "tlfea/core/error.hpp"

namespace tlfea {

const char* to_string(ElementType type) {
  switch (type) {
    case ElementType::T10:
      return "T10";
    case ElementType::Q27:
      return "Q27";
    case ElementType::ANCF3243:
      return "ANCF3243";
    case ElementType::ANCF3443:
      return "ANCF3443";
  }
  return "unknown";
}

ElementType element_type_from_string(const std::string& name) {
  std::string upper;
  upper.reserve(name.size());
  for (char c : name)
    upper.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  for (ElementType t :
       {ElementType::T10, ElementType::Q27, ElementType::ANCF3243, ElementType::ANCF3443}) {
    if (upper == to_string(t)) return t;
  }
  throw_error("unknown element type '", name, "' (expected T10, Q27, ANCF3243 or ANCF3443)");
}

int nodes_per_element(ElementType type) {
  switch (type) {
    case ElementType::T10:
      return 10;
    case ElementType::Q27:
      return 27;
    case ElementType::ANCF3243:
      return 2;
    case ElementType::ANCF3443:
      return 4;
  }
  throw_error("nodes_per_element: invalid element type ", static_cast<int>(type));
}

int coefficients_per_node(ElementType type) {
  switch (type) {
    case ElementType::T10:
    case ElementType::Q27:
      return 1;
    case ElementType::ANCF3243:
    case ElementType::ANCF3443:
      return 4;  // r, dr/du, dr/dv, dr/dw
  }
  throw_error("coefficients_per_node: invalid element type ", static_cast<int>(type));
}

int faces_per_element(ElementType type) {
  switch (type) {
    case ElementType::T10:
      return 4;
    case ElementType::Q27:
    case ElementType::ANCF3243:
    case ElementType::ANCF3443:
      return 6;
  }
  throw_error("faces_per_element: invalid element type ", static_cast<int>(type));
}

namespace {

// T10 midside node of edge (a, b) in the order of mesh.hpp: 01, 12, 02, 03, 13, 23.
int t10_midside(int a, int b) {
  if (a > b) std::swap(a, b);
  static const int table[4][4] = {{-1, 4, 6, 7}, {4, -1, 5, 8}, {6, 5, -1, 9}, {7, 8, 9, -1}};
  return table[a][b];
}

int q27_node(int i, int j, int k) { return i + 3 * j + 9 * k; }

}  // namespace

std::vector<int> face_nodes(ElementType type, int face) {
  if (face < 0 || face >= faces_per_element(type)) {
    throw_error("face_nodes: face ", face, " out of range for ", to_string(type), " (",
                faces_per_element(type), " faces)");
  }
  if (type == ElementType::T10) {
    // Face f is opposite vertex f; corners counter-clockwise seen from outside.
    static const int corners[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
    const int* c = corners[face];
    return {c[0],
            c[1],
            c[2],
            t10_midside(c[0], c[1]),
            t10_midside(c[1], c[2]),
            t10_midside(c[2], c[0])};
  }
  if (type == ElementType::Q27) {
    // 3x3 grid (a, b), a fastest, list index a + 3 b, d/da x d/db outward.
    std::vector<int> nodes(9);
    for (int b = 0; b < 3; ++b) {
      for (int a = 0; a < 3; ++a) {
        int n = 0;
        switch (face) {
          case 0:  // xi = -1: a = zeta, b = eta (e_z x e_y = -e_x)
            n = q27_node(0, b, a);
            break;
          case 1:  // xi = +1: a = eta, b = zeta (e_y x e_z = +e_x)
            n = q27_node(2, a, b);
            break;
          case 2:  // eta = -1: a = xi, b = zeta (e_x x e_z = -e_y)
            n = q27_node(a, 0, b);
            break;
          case 3:  // eta = +1: a = zeta, b = xi (e_z x e_x = +e_y)
            n = q27_node(b, 2, a);
            break;
          case 4:  // zeta = -1: a = eta, b = xi (e_y x e_x = -e_z)
            n = q27_node(b, a, 0);
            break;
          default:  // zeta = +1: a = xi, b = eta (e_x x e_y = +e_z)
            n = q27_node(a, b, 2);
            break;
        }
        nodes[a + 3 * b] = n;
      }
    }
    return nodes;
  }
  return {};
}

std::vector<int> face_corner_positions(ElementType type) {
  switch (type) {
    case ElementType::T10:
      return {0, 1, 2};
    case ElementType::Q27:
      // Grid positions (a, b) = (0,0), (2,0), (2,2), (0,2): counter-clockwise
      // seen from outside, like the T10 corners.
      return {0, 2, 8, 6};
    case ElementType::ANCF3243:
    case ElementType::ANCF3443:
      return {};
  }
  throw_error("face_corner_positions: invalid element type ", static_cast<int>(type));
}

void check_mesh(const Mesh& mesh) {
  const std::string& src = mesh.source.empty() ? std::string("mesh") : mesh.source;
  const int type_id = static_cast<int>(mesh.type);
  if (type_id < 0 || type_id > 3) throw_error(src, ": invalid element type ", type_id);
  const int cpn = coefficients_per_node(mesh.type);
  const int cpe = coefficients_per_element(mesh.type);
  const int npe = nodes_per_element(mesh.type);
  const int nfaces = faces_per_element(mesh.type);
  const bool ancf = mesh.type == ElementType::ANCF3243 || mesh.type == ElementType::ANCF3443;

  if (mesh.coefficients.size() % cpn != 0) {
    throw_error(src, ": ", mesh.coefficients.size(), " coefficients is not a multiple of ", cpn,
                " per node (", to_string(mesh.type), ")");
  }
  if (mesh.connectivity.size() % cpe != 0) {
    throw_error(src, ": connectivity length ", mesh.connectivity.size(), " is not a multiple of ",
                cpe, " coefficients per ", to_string(mesh.type), " element");
  }
  if (mesh.connectivity.empty()) throw_error(src, ": the mesh has no elements");
  if (mesh.coefficients.size() > static_cast<size_t>(std::numeric_limits<Ordinal>::max()) ||
      mesh.connectivity.size() / cpe > static_cast<size_t>(std::numeric_limits<Ordinal>::max())) {
    throw_error(src, ": too many coefficients or elements for the index type");
  }
  const Ordinal ncoef = mesh.num_coefficients();
  const Ordinal nnodes = mesh.num_nodes();
  const Ordinal nelem = mesh.num_elements();

  for (Ordinal c = 0; c < ncoef; ++c) {
    for (int d = 0; d < 3; ++d) {
      if (!std::isfinite(mesh.coefficients[c][d])) {
        throw_error(src, ": coefficient ", c, " (node ", c / cpn, ") has a non-finite component");
      }
    }
  }

  std::vector<Ordinal> nodes(npe);
  for (Ordinal e = 0; e < nelem; ++e) {
    for (int a = 0; a < cpe; ++a) {
      const Ordinal c = mesh.coefficient(e, a);
      if (c < 0 || c >= ncoef) {
        throw_error(src, ": element ", e, " references coefficient ", c, " but the mesh has ",
                    ncoef, " coefficients");
      }
    }
    for (int a = 0; a < npe; ++a) {
      const Ordinal first = mesh.coefficient(e, a * cpn);
      if (first % cpn != 0) {
        throw_error(src, ": element ", e, " local node ", a, " starts at coefficient ", first,
                    ", which is not the first coefficient of a node");
      }
      // ANCF: the gradient slots may be the node's cycled by a shift s
      // (local r_u, r_v, r_w = the node's coefficients first + 1 + (j + s)
      // mod 3): two beams meeting at a right angle share a node that way
      // (docs/ancf_mesh.md). s = 0 is the node's own order.
      const int shift =
          ancf ? static_cast<int>(((mesh.coefficient(e, a * cpn + 1) - first - 1) % 3 + 3) % 3) : 0;
      for (int k = 1; k < cpn; ++k) {
        const Ordinal want = ancf ? first + 1 + (k - 1 + shift) % 3 : first + k;
        if (mesh.coefficient(e, a * cpn + k) != want) {
          throw_error(src, ": element ", e, " local node ", a,
                      " does not own consecutive coefficients ", first, "..", first + cpn - 1,
                      ancf ? " (or its gradients cycled)" : "");
        }
      }
      nodes[a] = first / cpn;
    }
    std::sort(nodes.begin(), nodes.end());
    if (std::adjacent_find(nodes.begin(), nodes.end()) != nodes.end()) {
      throw_error(src, ": element ", e, " uses node ",
                  *std::adjacent_find(nodes.begin(), nodes.end()), " more than once");
    }
  }

  if (ancf) {
    if (mesh.element_size.size() != static_cast<size_t>(nelem)) {
      throw_error(src, ": ", to_string(mesh.type), " mesh has ", mesh.element_size.size(),
                  " element sizes for ", nelem, " elements");
    }
    for (Ordinal e = 0; e < nelem; ++e) {
      for (int d = 0; d < 3; ++d) {
        const Real s = mesh.element_size[e][d];
        if (!std::isfinite(s) || !(s > 0)) {
          throw_error(src, ": element ", e, " has a non-positive or non-finite size (component ", d,
                      ")");
        }
      }
    }
  } else if (!mesh.element_size.empty() && mesh.element_size.size() != static_cast<size_t>(nelem)) {
    throw_error(src, ": ", mesh.element_size.size(), " element sizes for ", nelem, " elements");
  }

  for (const auto& [name, ids] : mesh.node_sets) {
    for (Ordinal n : ids) {
      if (n < 0 || n >= nnodes) {
        throw_error(src, ": node set '", name, "' contains node ", n, " but the mesh has ", nnodes,
                    " nodes");
      }
    }
  }
  for (const auto& [name, faces] : mesh.face_sets) {
    for (const FaceRef& f : faces) {
      if (f.element < 0 || f.element >= nelem) {
        throw_error(src, ": face set '", name, "' refers to element ", f.element,
                    " but the mesh has ", nelem, " elements");
      }
      if (f.face < 0 || f.face >= nfaces) {
        throw_error(src, ": face set '", name, "' refers to face ", f.face, " of element ",
                    f.element, " but a ", to_string(mesh.type), " has ", nfaces, " faces");
      }
    }
  }
}

}  // namespace tlfea
