// TLFEA: TetGen .node / .ele reader (10-node tetrahedra).
//
// TetGen's local order of the six midside nodes (tetgen -o2) was decided by a
// geometric test on tests/data/beam_3x2x1_res0.1.*: with vertices v0..v3 in
// file columns 0..3, file columns 4..9 sit at the midpoints of the edges
// (v2 v3), (v0 v3), (v0 v1), (v1 v2), (v1 v3), (v0 v2) in every element, and
// the vertex tetrahedron is positively oriented. TLFEA's order (mesh.hpp) is
// 01, 12, 02, 03, 13, 23, hence kTetgenColumn below. The test
// TetgenReader.MidsideNodesAtEdgeMidpoints re-checks this for every element.
#include <string>
#include <vector>

#include "mesh_text.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/mesh_io.hpp"

namespace tlfea {

namespace {

using mesh_text::Line;
using mesh_text::TextFile;
using mesh_text::where;

// TLFEA local node k is TetGen column kTetgenColumn[k].
constexpr int kTetgenColumn[10] = {0, 1, 2, 3, 6, 7, 9, 5, 8, 4};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct NodeFile {
  long long first_id = 0;
  std::vector<mesh_text::Vec3> positions;
};

NodeFile read_node_file(const std::string& path) {
  TextFile f(path, '#');
  Line line;
  f.require(line, "the .node header");
  mesh_text::require_tokens(f, line, 1, 4, "the .node header");
  const long long n = mesh_text::to_count(f, line, 0, "nodes", 1, 1);
  if (line.tokens.size() > 1) {
    const long long dim = mesh_text::to_int(f, line, 1, "the dimension");
    if (dim != 3) throw_error(where(f, line), "dimension ", dim, " is not supported (need 3)");
  }
  const long long nattr =
      line.tokens.size() > 2 ? mesh_text::to_int_in(f, line, 2, "attribute count", 0, 1000) : 0;
  const long long nmark =
      line.tokens.size() > 3 ? mesh_text::to_int_in(f, line, 3, "boundary marker flag", 0, 1) : 0;

  NodeFile out;
  out.positions.assign(static_cast<size_t>(n), {0, 0, 0});
  std::vector<char> seen(static_cast<size_t>(n), 0);
  for (long long i = 0; i < n; ++i) {
    f.require(line, "node " + std::to_string(i) + " of " + std::to_string(n));
    mesh_text::require_tokens(f, line, 4, static_cast<size_t>(4 + nattr + nmark), "node record");
    long long id = mesh_text::to_int(f, line, 0, "node id");
    if (i == 0) {
      if (id != 0 && id != 1) {
        throw_error(where(f, line), "first node id is ", id, "; TetGen ids start at 0 or 1");
      }
      out.first_id = id;
    }
    if (id < out.first_id || id >= out.first_id + n) {
      throw_error(where(f, line), "node id ", id, " out of range [", out.first_id, ", ",
                  out.first_id + n - 1, "] for the ", n, " nodes the header declares");
    }
    const size_t k = static_cast<size_t>(id - out.first_id);
    if (seen[k]) throw_error(where(f, line), "duplicate node id ", id);
    seen[k] = 1;
    for (int d = 0; d < 3; ++d) {
      out.positions[k][d] = mesh_text::to_real(
          f, line, 1 + d, "coordinate " + std::to_string(d) + " of node " + std::to_string(id));
    }
  }
  if (f.next(line)) {
    throw_error(where(f, line), "unexpected data after the ", n, " nodes the header declares");
  }
  return out;
}

}  // namespace

Mesh read_tetgen(const std::string& base_or_file) {
  std::string base = base_or_file;
  if (ends_with(base, ".node")) {
    base.resize(base.size() - 5);
  } else if (ends_with(base, ".ele")) {
    base.resize(base.size() - 4);
  }
  const std::string node_path = base + ".node";
  const std::string ele_path = base + ".ele";
  NodeFile nodes = read_node_file(node_path);
  const long long num_nodes = static_cast<long long>(nodes.positions.size());

  TextFile f(ele_path, '#');
  Line line;
  f.require(line, "the .ele header");
  mesh_text::require_tokens(f, line, 2, 3, "the .ele header");
  const long long ne = mesh_text::to_count(f, line, 0, "elements", 1, 1);
  const long long npe = mesh_text::to_int(f, line, 1, "nodes per element");
  if (npe == 4) {
    throw_error(where(f, line),
                "4-node tetrahedra are not supported; TLFEA needs 10-node tetrahedra (tetgen -o2)");
  }
  if (npe != 10)
    throw_error(where(f, line), npe, " nodes per tetrahedron is not supported (need 10)");
  const long long nattr =
      line.tokens.size() > 2 ? mesh_text::to_int_in(f, line, 2, "attribute count", 0, 1000) : 0;

  Mesh mesh;
  mesh.type = ElementType::T10;
  mesh.source = base_or_file;
  mesh.connectivity.assign(static_cast<size_t>(ne) * 10, 0);
  std::vector<long> element_line(static_cast<size_t>(ne), 0);
  long long first_element = 0;
  for (long long i = 0; i < ne; ++i) {
    f.require(line, "element " + std::to_string(i) + " of " + std::to_string(ne));
    mesh_text::require_tokens(f, line, 11, static_cast<size_t>(11 + nattr), "element record");
    const long long id = mesh_text::to_int(f, line, 0, "element id");
    if (i == 0) {
      if (id != 0 && id != 1) {
        throw_error(where(f, line), "first element id is ", id, "; TetGen ids start at 0 or 1");
      }
      first_element = id;
    }
    if (id < first_element || id >= first_element + ne) {
      throw_error(where(f, line), "element id ", id, " out of range [", first_element, ", ",
                  first_element + ne - 1, "] for the ", ne, " elements the header declares");
    }
    const size_t e = static_cast<size_t>(id - first_element);
    if (element_line[e] != 0) {
      throw_error(where(f, line), "duplicate element id ", id, " (first on line ", element_line[e],
                  ")");
    }
    element_line[e] = line.number;
    for (int k = 0; k < 10; ++k) {
      const int column = kTetgenColumn[k];
      const long long node =
          mesh_text::to_int(f, line, 1 + column, "node of element " + std::to_string(id));
      if (node < nodes.first_id || node >= nodes.first_id + num_nodes) {
        throw_error(where(f, line), "element ", id, " references node ", node, " but the mesh has ",
                    num_nodes, " nodes (ids ", nodes.first_id, "..", nodes.first_id + num_nodes - 1,
                    ")");
      }
      mesh.connectivity[e * 10 + k] = static_cast<Ordinal>(node - nodes.first_id);
    }
  }
  if (f.next(line)) {
    throw_error(where(f, line), "unexpected data after the ", ne, " elements the header declares");
  }

  mesh.coefficients = std::move(nodes.positions);
  for (long long e = 0; e < ne; ++e) {
    const auto o = mesh_text::orientation(mesh, static_cast<Ordinal>(e));
    if (mesh_text::badly_oriented(o)) {
      throw_error(ele_path, ":", element_line[e], ": element ", e + first_element,
                  " has non-positive vertex volume ", o.first / 6,
                  " (inverted or degenerate tetrahedron)");
    }
  }
  mesh_text::compact_nodes(mesh.coefficients, mesh.connectivity);
  mesh.node_sets["all"] = mesh_text::iota_set(mesh.num_nodes());
  check_mesh(mesh);
  return mesh;
}

Mesh read_mesh(const std::string& path) {
  if (ends_with(path, ".ancf")) return read_ancf_text(path);
  if (ends_with(path, ".msh")) return read_gmsh(path);
  if (ends_with(path, ".node") || ends_with(path, ".ele")) return read_tetgen(path);
  std::error_code ec;
  if (std::filesystem::exists(path + ".node", ec)) return read_tetgen(path);
  throw_error(path,
              ": cannot tell the mesh format (expected .ancf, .msh, .node, .ele or a TetGen "
              "basename with a .node file)");
}

}  // namespace tlfea
