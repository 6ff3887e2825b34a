// TLFEA: T10 / Q27 solid meshes from Gmsh MSH 4.1 ASCII files (the sections
// themselves: gmsh_msh.hpp), with face and node sets from physical surfaces.
//
// Local node orders, decided by a geometric test on the straight-sided files
// tests/data/box_t10.msh and box_q27.msh (every element) and re-checked by
// GmshReader.* in tests/core/test_mesh_io.cpp:
//  - type 11 (10-node tetrahedron): file columns 4..9 sit at the midpoints of
//    the vertex edges 01, 12, 02, 03, 23, 13. TLFEA wants 01, 12, 02, 03, 13,
//    23, so the last two swap.
//  - type 12 (27-node hexahedron): with the first eight columns at the
//    trilinear corners (-1,-1,-1), (1,-1,-1), (1,1,-1), (-1,1,-1), then the
//    same at zeta = +1, file column m sits at the tensor position of TLFEA
//    node i + 3 j + 9 k with (m -> TLFEA) = 0 2 8 6 18 20 26 24 | 1 3 9 5 11
//    7 17 15 19 21 23 25 | 4 10 12 14 16 22 | 13 (corners, edges, faces,
//    centre); kGmshQ27Column is its inverse.
//  - type 9 (6-node triangle) / 10 (9-node quadrangle): the first 3 / 4
//    columns are the corners; faces are matched on those alone.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "gmsh_msh.hpp"
#include "mesh_text.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/mesh_io.hpp"

namespace tlfea {

namespace {

using mesh_text::Line;
using mesh_text::where;

constexpr int kGmshT10Column[10] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 8};
constexpr int kGmshQ27Column[27] = {0,  8,  1,  9,  20, 11, 3, 13, 2,  10, 21, 12, 22, 26,
                                    23, 15, 24, 14, 4,  16, 5, 17, 25, 18, 7,  19, 6};

std::string gmsh_type_name(long long type) {
  switch (type) {
    case 2:
      return "3-node triangle";
    case 3:
      return "4-node quadrangle";
    case 4:
      return "4-node tetrahedron";
    case 5:
      return "8-node hexahedron";
    case 6:
      return "6-node prism";
    case 7:
      return "5-node pyramid";
    case 9:
      return "6-node triangle";
    case 10:
      return "9-node quadrangle";
    case 11:
      return "10-node tetrahedron";
    case 12:
      return "27-node hexahedron";
    case 13:
      return "18-node prism";
    case 14:
      return "14-node pyramid";
    case 16:
      return "8-node quadrangle";
    case 17:
      return "20-node hexahedron";
    case 18:
      return "15-node prism";
    case 19:
      return "13-node pyramid";
    default:
      return "element type " + std::to_string(type);
  }
}

struct BoundaryElement {
  long line = 0;
  long long tag = 0;
  long long type = 0;
  long long entity = 0;
  std::array<Ordinal, 4> corners{{-1, -1, -1, -1}};  // node indices (file order)
};

class GmshReader {
 public:
  explicit GmshReader(const std::string& path) : g_(path) {}

  Mesh read() {
    g_.read([this](const gmsh::Block& b, const Line& line) { begin_block(b, line); },
            [this](const gmsh::Block& b, const Line& line) { read_element(b, line); });
    if (volume_lines_.empty()) {
      throw_error(g_.path(),
                  ": no volume elements (need 10-node tetrahedra, type 11, or 27-node "
                  "hexahedra, type 12)");
    }
    return assemble();
  }

 private:
  // Checks the block's element type; decides whether its elements are kept.
  void begin_block(const gmsh::Block& b, const Line& line) {
    const long long type = b.type;
    keep_boundary_ = false;
    if (b.dim == 3) {
      if (type != 11 && type != 12) {
        throw_error(where(g_.f_, line), "unsupported volume element type ", type, " (",
                    gmsh_type_name(type),
                    "); TLFEA reads 10-node tetrahedra (11) and 27-node hexahedra (12)");
      }
      if (volume_type_ != 0 && volume_type_ != type) {
        throw_error(where(g_.f_, line), "the file mixes ", gmsh_type_name(volume_type_), " and ",
                    gmsh_type_name(type), " volume elements");
      }
      volume_type_ = type;
    } else if (b.dim == 2 && !g_.physicals_of(2, b.entity).empty()) {
      if (type != 9 && type != 10) {
        throw_error(where(g_.f_, line), "unsupported boundary element type ", type, " (",
                    gmsh_type_name(type), ") on physical surface entity ", b.entity,
                    "; need 6-node triangles (9) or 9-node quadrangles (10)");
      }
      keep_boundary_ = true;
    }
  }

  void read_element(const gmsh::Block& b, const Line& line) {
    const int npe = gmsh::type_nodes(b.type);
    if (npe > 0) {
      mesh_text::require_tokens(g_.f_, line, 1 + npe, 1 + npe,
                                "element of type " + std::to_string(b.type));
    } else if (line.tokens.size() < 2) {
      throw_error(where(g_.f_, line), "element record needs a tag and nodes");
    }
    const long long tag = mesh_text::to_int(g_.f_, line, 0, "element tag");
    if (b.dim == 3) {
      for (int k = 0; k < npe; ++k) volume_nodes_.push_back(g_.node_of(line, tag, 1 + k));
      volume_lines_.push_back(line.number);
      volume_tags_.push_back(tag);
    } else if (keep_boundary_) {
      BoundaryElement be;
      be.line = line.number;
      be.tag = tag;
      be.type = b.type;
      be.entity = b.entity;
      const int corners = b.type == 9 ? 3 : 4;
      for (int k = 0; k < npe; ++k) {
        const Ordinal node = g_.node_of(line, tag, 1 + k);
        if (k < corners) be.corners[k] = node;
      }
      boundary_.push_back(be);
    }
  }

  static std::array<Ordinal, 4> face_key(std::array<Ordinal, 4> k) {
    std::sort(k.begin(), k.end());
    return k;
  }

  Mesh assemble() {
    Mesh mesh;
    mesh.type = volume_type_ == 11 ? ElementType::T10 : ElementType::Q27;
    mesh.source = g_.path();
    const int npe = nodes_per_element(mesh.type);
    const int* column = mesh.type == ElementType::T10 ? kGmshT10Column : kGmshQ27Column;
    const size_t ne = volume_lines_.size();
    mesh.connectivity.resize(ne * npe);
    for (size_t e = 0; e < ne; ++e) {
      for (int k = 0; k < npe; ++k) {
        mesh.connectivity[e * npe + k] = volume_nodes_[e * npe + column[k]];
      }
    }
    mesh.coefficients = std::move(g_.positions_);
    for (size_t e = 0; e < ne; ++e) {
      const auto o = mesh_text::orientation(mesh, static_cast<Ordinal>(e));
      if (mesh_text::badly_oriented(o)) {
        throw_error(g_.path(), ":", volume_lines_[e], ": element ", volume_tags_[e],
                    " has non-positive vertex volume measure ", o.first,
                    " (inverted or degenerate ", gmsh_type_name(volume_type_), ")");
      }
    }
    const std::vector<Ordinal> renumber =
        mesh_text::compact_nodes(mesh.coefficients, mesh.connectivity);

    // Faces by sorted corner nodes; the first element seen owns a face.
    const int nfaces = faces_per_element(mesh.type);
    const std::vector<int> corner_pos = face_corner_positions(mesh.type);
    std::map<std::array<Ordinal, 4>, FaceRef> faces;
    if (!boundary_.empty()) {
      for (size_t e = 0; e < ne; ++e) {
        for (int fa = 0; fa < nfaces; ++fa) {
          const std::vector<int> fn = face_nodes(mesh.type, fa);
          std::array<Ordinal, 4> key{{-1, -1, -1, -1}};
          for (size_t c = 0; c < corner_pos.size(); ++c) {
            key[c] = mesh.coefficient(static_cast<Ordinal>(e), fn[corner_pos[c]]);
          }
          faces.emplace(face_key(key), FaceRef{static_cast<Ordinal>(e), fa});
        }
      }
    }
    const long long want_type = mesh.type == ElementType::T10 ? 9 : 10;
    for (const BoundaryElement& be : boundary_) {
      const std::vector<long long>& phys = g_.physicals_of(2, be.entity);
      const std::string first_name = set_name(phys.front());
      if (be.type != want_type) {
        throw_error(g_.path(), ":", be.line, ": surface element ", be.tag, " on physical surface '",
                    first_name, "' is a ", gmsh_type_name(be.type), " but the volume elements are ",
                    gmsh_type_name(volume_type_));
      }
      std::array<Ordinal, 4> key = be.corners;
      for (Ordinal& c : key) {
        if (c >= 0) c = renumber[c];
      }
      // A corner no volume element uses (renumbered -1) cannot match: the
      // key then holds an extra -1 and the lookup below fails.
      const auto it = faces.find(face_key(key));
      if (it == faces.end()) {
        throw_error(g_.path(), ":", be.line, ": surface element ", be.tag, " on physical surface '",
                    first_name, "' matches no face of a volume element");
      }
      for (long long p : phys) mesh.face_sets[set_name(p)].push_back(it->second);
    }
    for (auto& [name, list] : mesh.face_sets) {
      std::sort(list.begin(), list.end(), [](const FaceRef& a, const FaceRef& b) {
        return a.element != b.element ? a.element < b.element : a.face < b.face;
      });
      list.erase(std::unique(list.begin(), list.end()), list.end());
      std::vector<Ordinal>& nodes = mesh.node_sets[name];
      for (const FaceRef& fr : list) {
        for (int k : face_nodes(mesh.type, fr.face))
          nodes.push_back(mesh.coefficient(fr.element, k));
      }
      std::sort(nodes.begin(), nodes.end());
      nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    }
    mesh.node_sets["all"] = mesh_text::iota_set(mesh.num_nodes());
    check_mesh(mesh);
    return mesh;
  }

  // Name of physical surface `physical` ($PhysicalNames, else "tag<N>").
  std::string set_name(long long physical) const { return g_.group_name(2, physical); }

  gmsh::GmshFile g_;
  bool keep_boundary_ = false;  // the current block's elements are kept as boundary
  long long volume_type_ = 0;
  std::vector<Ordinal> volume_nodes_;  // file column order
  std::vector<long> volume_lines_;
  std::vector<long long> volume_tags_;
  std::vector<BoundaryElement> boundary_;
};

}  // namespace

Mesh read_gmsh(const std::string& path) { return GmshReader(path).read(); }

}  // namespace tlfea
