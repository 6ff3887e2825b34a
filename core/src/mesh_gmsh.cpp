// TLFEA: Gmsh MSH 4.1 ASCII reader.
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
#include <unordered_map>
#include <vector>

#include "mesh_text.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/mesh_io.hpp"

namespace tlfea {

namespace {

using mesh_text::Line;
using mesh_text::TextFile;
using mesh_text::where;

constexpr int kGmshT10Column[10] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 8};
constexpr int kGmshQ27Column[27] = {0,  8,  1,  9,  20, 11, 3, 13, 2,  10, 21, 12, 22, 26,
                                    23, 15, 24, 14, 4,  16, 5, 17, 25, 18, 7,  19, 6};

// Nodes of the Gmsh element types (0 for types this reader does not know;
// their lines are accepted with any length where they are ignored).
int gmsh_type_nodes(long long type) {
  switch (type) {
    case 1:
      return 2;  // 2-node line
    case 2:
      return 3;  // 3-node triangle
    case 3:
      return 4;  // 4-node quadrangle
    case 4:
      return 4;  // 4-node tetrahedron
    case 5:
      return 8;  // 8-node hexahedron
    case 6:
      return 6;  // 6-node prism
    case 7:
      return 5;  // 5-node pyramid
    case 8:
      return 3;  // 3-node line
    case 9:
      return 6;  // 6-node triangle
    case 10:
      return 9;  // 9-node quadrangle
    case 11:
      return 10;  // 10-node tetrahedron
    case 12:
      return 27;  // 27-node hexahedron
    case 13:
      return 18;  // 18-node prism
    case 14:
      return 14;  // 14-node pyramid
    case 15:
      return 1;  // 1-node point
    case 16:
      return 8;  // 8-node quadrangle
    case 17:
      return 20;  // 20-node hexahedron
    case 18:
      return 15;  // 15-node prism
    case 19:
      return 13;  // 13-node pyramid
    default:
      return 0;
  }
}

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
  explicit GmshReader(const std::string& path) : f_(path, 0) {}

  Mesh read() {
    Line line;
    while (f_.next(line)) {
      if (line.tokens.size() != 1 || line.tokens[0].empty() || line.tokens[0][0] != '$') {
        throw_error(where(f_, line), "expected a section header such as $Nodes, found '",
                    mesh_text::printable(line.text), "'");
      }
      const std::string name(line.tokens[0].substr(1));
      if (!have_format_ && name != "MeshFormat") {
        throw_error(where(f_, line),
                    "the file does not start with $MeshFormat (not a Gmsh MSH file?)");
      }
      if (name == "MeshFormat") {
        if (have_format_) throw_error(where(f_, line), "second $MeshFormat section");
        read_format();
      } else if (name == "PhysicalNames") {
        read_physical_names();
      } else if (name == "Entities") {
        read_entities();
      } else if (name == "PartitionedEntities") {
        throw_error(where(f_, line), "partitioned MSH files are not supported");
      } else if (name == "Nodes") {
        if (have_nodes_) throw_error(where(f_, line), "second $Nodes section");
        read_nodes();
      } else if (name == "Elements") {
        if (!have_nodes_) throw_error(where(f_, line), "$Elements before $Nodes");
        if (have_elements_) throw_error(where(f_, line), "second $Elements section");
        read_elements();
      } else {
        skip_section(name, line);
      }
    }
    if (!have_format_) throw_error(f_.path(), ": empty file (no $MeshFormat)");
    if (!have_nodes_) throw_error(f_.path(), ": no $Nodes section");
    if (!have_elements_) throw_error(f_.path(), ": no $Elements section");
    if (volume_lines_.empty()) {
      throw_error(f_.path(),
                  ": no volume elements (need 10-node tetrahedra, type 11, or 27-node "
                  "hexahedra, type 12)");
    }
    return assemble();
  }

 private:
  void end_section(const std::string& name) {
    Line line;
    f_.require(line, "$End" + name);
    if (line.tokens.size() != 1 || line.tokens[0] != "$End" + name) {
      throw_error(where(f_, line), "expected $End", name, ", found '",
                  mesh_text::printable(line.text), "'");
    }
  }

  void skip_section(const std::string& name, const Line& start) {
    Line line;
    while (f_.next(line)) {
      if (line.tokens.size() == 1 && line.tokens[0] == "$End" + name) return;
    }
    throw_error(where(f_, start), "section $", name, " has no $End", name);
  }

  void read_format() {
    Line line;
    f_.require(line, "$MeshFormat");
    mesh_text::require_tokens(f_, line, 3, 3, "$MeshFormat");
    const std::string version(line.tokens[0]);
    if (version != "4.1") {
      throw_error(where(f_, line), "MSH version ", mesh_text::printable(version),
                  " is not supported; write MSH 4.1 ASCII (gmsh -format msh41)");
    }
    const long long file_type = mesh_text::to_int(f_, line, 1, "file type");
    if (file_type == 1) {
      throw_error(where(f_, line), "binary MSH files are not supported; write MSH 4.1 ASCII");
    }
    if (file_type != 0) throw_error(where(f_, line), "unknown MSH file type ", file_type);
    mesh_text::to_int(f_, line, 2, "data size");
    have_format_ = true;
    end_section("MeshFormat");
  }

  void read_physical_names() {
    Line line;
    f_.require(line, "$PhysicalNames");
    mesh_text::require_tokens(f_, line, 1, 1, "$PhysicalNames count");
    const long long n = mesh_text::to_count(f_, line, 0, "physical names", 1);
    for (long long i = 0; i < n; ++i) {
      f_.require(line, "physical name");
      if (line.tokens.size() < 3) {
        throw_error(where(f_, line), "expected 'dimension tag \"name\"'");
      }
      const long long dim = mesh_text::to_int_in(f_, line, 0, "physical dimension", 0, 3);
      const long long tag = mesh_text::to_int(f_, line, 1, "physical tag");
      const size_t open = line.text.find('"');
      const size_t close = line.text.rfind('"');
      if (open == std::string_view::npos || close <= open) {
        throw_error(where(f_, line), "physical name is not in double quotes");
      }
      if (dim == 2) surface_names_[tag] = std::string(line.text.substr(open + 1, close - open - 1));
    }
    end_section("PhysicalNames");
  }

  void read_entities() {
    Line line;
    f_.require(line, "$Entities");
    mesh_text::require_tokens(f_, line, 4, 4, "$Entities counts");
    long long count[4];
    long long total = 0;
    for (int d = 0; d < 4; ++d) {
      count[d] = mesh_text::to_count(f_, line, d, "entities", 1);
      total += count[d];
    }
    if (total > static_cast<long long>(f_.remaining_lines())) {
      throw_error(where(f_, line), "header says ", total, " entities but only ",
                  f_.remaining_lines(), " lines follow");
    }
    for (int d = 0; d < 4; ++d) {
      for (long long i = 0; i < count[d]; ++i) {
        f_.require(line, "entity");
        // point: tag x y z nphys ...; others: tag 6 bounding-box values nphys ...
        const size_t phys_at = d == 0 ? 4 : 7;
        const long long tag = mesh_text::to_int(f_, line, 0, "entity tag");
        if (line.tokens.size() <= phys_at) {
          throw_error(where(f_, line), "entity record too short (", line.tokens.size(), " values)");
        }
        const long long nphys = mesh_text::to_int_in(
            f_, line, phys_at, "physical tag count", 0,
            static_cast<long long>(line.tokens.size()) - static_cast<long long>(phys_at) - 1);
        if (d == 2 && nphys > 0) {
          std::vector<long long>& phys = surface_physicals_[tag];
          for (long long k = 0; k < nphys; ++k) {
            phys.push_back(mesh_text::to_int(f_, line, phys_at + 1 + k, "physical tag"));
          }
        }
      }
    }
    end_section("Entities");
  }

  void read_nodes() {
    Line line;
    f_.require(line, "$Nodes");
    mesh_text::require_tokens(f_, line, 4, 4, "$Nodes header");
    const long header_line = line.number;
    const long long blocks = mesh_text::to_count(f_, line, 0, "node blocks", 1);
    const long long n = mesh_text::to_count(f_, line, 1, "nodes", 2);
    positions_.reserve(static_cast<size_t>(n));
    node_index_.reserve(static_cast<size_t>(n));
    long long read = 0;
    std::vector<long long> tags;
    for (long long b = 0; b < blocks; ++b) {
      f_.require(line, "node block header");
      mesh_text::require_tokens(f_, line, 4, 4, "node block header");
      const long long dim = mesh_text::to_int_in(f_, line, 0, "entity dimension", 0, 3);
      const long long parametric = mesh_text::to_int_in(f_, line, 2, "parametric flag", 0, 1);
      const long long m = mesh_text::to_count(f_, line, 3, "nodes in block", 2);
      if (read + m > n) {
        throw_error(where(f_, line), "node blocks hold more than the ", n,
                    " nodes the $Nodes header declares");
      }
      tags.assign(static_cast<size_t>(m), 0);
      for (long long i = 0; i < m; ++i) {
        f_.require(line, "node tag");
        mesh_text::require_tokens(f_, line, 1, 1, "node tag");
        tags[i] =
            mesh_text::to_int_in(f_, line, 0, "node tag", 1, std::numeric_limits<long long>::max());
        tag_lines_.push_back(line.number);
      }
      const size_t ncoord = 3 + (parametric ? static_cast<size_t>(dim) : 0);
      for (long long i = 0; i < m; ++i) {
        f_.require(line, "node coordinates");
        mesh_text::require_tokens(f_, line, ncoord, ncoord, "node coordinates");
        mesh_text::Vec3 x;
        for (int d = 0; d < 3; ++d) {
          x[d] = mesh_text::to_real(
              f_, line, d,
              "coordinate " + std::to_string(d) + " of node " + std::to_string(tags[i]));
        }
        const auto [it, inserted] =
            node_index_.emplace(tags[i], static_cast<Ordinal>(positions_.size()));
        if (!inserted) {
          throw_error(f_.path(), ":", tag_lines_[read + i], ": duplicate node tag ", tags[i],
                      " (first defined on line ", tag_lines_[it->second], ")");
        }
        positions_.push_back(x);
      }
      read += m;
    }
    if (read != n) {
      throw_error(f_.path(), ":", header_line, ": the $Nodes header declares ", n,
                  " nodes but its blocks hold ", read);
    }
    have_nodes_ = true;
    end_section("Nodes");
  }

  Ordinal node_of(const Line& line, long long element_tag, size_t column) {
    const long long tag = mesh_text::to_int(f_, line, column, "node tag");
    const auto it = node_index_.find(tag);
    if (it == node_index_.end()) {
      throw_error(where(f_, line), "element ", element_tag, " references node ", tag,
                  ", which is not in $Nodes (", positions_.size(), " nodes)");
    }
    return it->second;
  }

  void read_elements() {
    Line line;
    f_.require(line, "$Elements");
    mesh_text::require_tokens(f_, line, 4, 4, "$Elements header");
    const long header_line = line.number;
    const long long blocks = mesh_text::to_count(f_, line, 0, "element blocks", 1);
    const long long n = mesh_text::to_count(f_, line, 1, "elements", 1);
    long long read = 0;
    for (long long b = 0; b < blocks; ++b) {
      f_.require(line, "element block header");
      mesh_text::require_tokens(f_, line, 4, 4, "element block header");
      const long long dim = mesh_text::to_int_in(f_, line, 0, "entity dimension", 0, 3);
      const long long entity = mesh_text::to_int(f_, line, 1, "entity tag");
      const long long type = mesh_text::to_int(f_, line, 2, "element type");
      const long long m = mesh_text::to_count(f_, line, 3, "elements in block", 1);
      if (read + m > n) {
        throw_error(where(f_, line), "element blocks hold more than the ", n,
                    " elements the $Elements header declares");
      }
      const int npe = gmsh_type_nodes(type);
      bool keep_boundary = false;
      if (dim == 3) {
        if (type != 11 && type != 12) {
          throw_error(where(f_, line), "unsupported volume element type ", type, " (",
                      gmsh_type_name(type),
                      "); TLFEA reads 10-node tetrahedra (11) and 27-node hexahedra (12)");
        }
        if (volume_type_ != 0 && volume_type_ != type) {
          throw_error(where(f_, line), "the file mixes ", gmsh_type_name(volume_type_), " and ",
                      gmsh_type_name(type), " volume elements");
        }
        volume_type_ = type;
      } else if (dim == 2 && surface_physicals_.count(entity)) {
        if (type != 9 && type != 10) {
          throw_error(where(f_, line), "unsupported boundary element type ", type, " (",
                      gmsh_type_name(type), ") on physical surface entity ", entity,
                      "; need 6-node triangles (9) or 9-node quadrangles (10)");
        }
        keep_boundary = true;
      }
      for (long long i = 0; i < m; ++i) {
        f_.require(line, "element");
        if (npe > 0) {
          mesh_text::require_tokens(f_, line, 1 + npe, 1 + npe,
                                    "element of type " + std::to_string(type));
        } else if (line.tokens.size() < 2) {
          throw_error(where(f_, line), "element record needs a tag and nodes");
        }
        const long long tag = mesh_text::to_int(f_, line, 0, "element tag");
        if (dim == 3) {
          for (int k = 0; k < npe; ++k) volume_nodes_.push_back(node_of(line, tag, 1 + k));
          volume_lines_.push_back(line.number);
          volume_tags_.push_back(tag);
        } else if (keep_boundary) {
          BoundaryElement be;
          be.line = line.number;
          be.tag = tag;
          be.type = type;
          be.entity = entity;
          const int corners = type == 9 ? 3 : 4;
          for (int k = 0; k < npe; ++k) {
            const Ordinal node = node_of(line, tag, 1 + k);
            if (k < corners) be.corners[k] = node;
          }
          boundary_.push_back(be);
        }
      }
      read += m;
    }
    if (read != n) {
      throw_error(f_.path(), ":", header_line, ": the $Elements header declares ", n,
                  " elements but its blocks hold ", read);
    }
    have_elements_ = true;
    end_section("Elements");
  }

  static std::array<Ordinal, 4> face_key(std::array<Ordinal, 4> k) {
    std::sort(k.begin(), k.end());
    return k;
  }

  Mesh assemble() {
    Mesh mesh;
    mesh.type = volume_type_ == 11 ? ElementType::T10 : ElementType::Q27;
    mesh.source = f_.path();
    const int npe = nodes_per_element(mesh.type);
    const int* column = mesh.type == ElementType::T10 ? kGmshT10Column : kGmshQ27Column;
    const size_t ne = volume_lines_.size();
    mesh.connectivity.resize(ne * npe);
    for (size_t e = 0; e < ne; ++e) {
      for (int k = 0; k < npe; ++k) {
        mesh.connectivity[e * npe + k] = volume_nodes_[e * npe + column[k]];
      }
    }
    mesh.coefficients = std::move(positions_);
    for (size_t e = 0; e < ne; ++e) {
      const auto o = mesh_text::orientation(mesh, static_cast<Ordinal>(e));
      if (mesh_text::badly_oriented(o)) {
        throw_error(f_.path(), ":", volume_lines_[e], ": element ", volume_tags_[e],
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
      const std::vector<long long>& phys = surface_physicals_.at(be.entity);
      const std::string first_name = set_name(phys.front());
      if (be.type != want_type) {
        throw_error(f_.path(), ":", be.line, ": surface element ", be.tag, " on physical surface '",
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
        throw_error(f_.path(), ":", be.line, ": surface element ", be.tag, " on physical surface '",
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

  std::string set_name(long long physical) const {
    const auto it = surface_names_.find(physical);
    return it != surface_names_.end() ? it->second : "tag" + std::to_string(physical);
  }

  TextFile f_;
  bool have_format_ = false;
  bool have_nodes_ = false;
  bool have_elements_ = false;
  std::map<long long, std::string> surface_names_;
  std::map<long long, std::vector<long long>> surface_physicals_;
  std::vector<mesh_text::Vec3> positions_;
  std::vector<long> tag_lines_;
  std::unordered_map<long long, Ordinal> node_index_;
  long long volume_type_ = 0;
  std::vector<Ordinal> volume_nodes_;  // file column order
  std::vector<long> volume_lines_;
  std::vector<long long> volume_tags_;
  std::vector<BoundaryElement> boundary_;
};

}  // namespace

Mesh read_gmsh(const std::string& path) { return GmshReader(path).read(); }

}  // namespace tlfea
