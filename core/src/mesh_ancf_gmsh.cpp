// TLFEA: ANCF 3243 / 3443 meshes from Gmsh MSH 4.1 files (mesh_io.hpp,
// docs/ancf_mesh.md): the elements the builders use, physical node sets, and
// read_gmsh_ancf, which hands the file to the beam or the shell builder.
#include "mesh_ancf_gmsh.hpp"

#include <algorithm>

#include "tlfea/core/error.hpp"

namespace tlfea {

namespace ancf_gmsh {

namespace {

// Nodes of the element types the builders look at (lines, triangles,
// quadrangles, points and the solids of the same families); 0 for the others,
// whose lines are skipped whatever their length.
int ancf_type_nodes(long long type) {
  switch (type) {
    case 6:
    case 7:
    case 13:
    case 14:
    case 17:
    case 18:
    case 19:
      return 0;
    default:
      return gmsh::type_nodes(type);
  }
}

}  // namespace

void GmshRaw::read() {
  using mesh_text::Line;
  using mesh_text::where;
  GmshFile::read([](const gmsh::Block&, const Line&) {},
                 [this](const gmsh::Block& b, const Line& line) {
                   const int npe = ancf_type_nodes(b.type);
                   if (npe == 0) {
                     // a type no ANCF builder uses; its dimension decides below
                     if (line.tokens.size() < 2)
                       throw_error(where(f_, line), "element record needs a tag and nodes");
                     return;
                   }
                   mesh_text::require_tokens(f_, line, 1 + npe, 1 + npe,
                                             "element of type " + std::to_string(b.type));
                   GmshElement el;
                   el.dim = b.dim;
                   el.type = b.type;
                   el.entity = b.entity;
                   el.tag = mesh_text::to_int(f_, line, 0, "element tag");
                   el.line = line.number;
                   for (int k = 0; k < npe; ++k) el.nodes.push_back(node_of(line, el.tag, 1 + k));
                   elements_.push_back(std::move(el));
                 });
}

std::vector<std::string> GmshRaw::groups_of(const GmshElement& el) const {
  std::vector<std::string> out;
  for (long long p : physicals_of(el.dim, el.entity)) out.push_back(group_name(el.dim, p));
  return out;
}

std::string GmshRaw::element_where(const GmshElement& el) const {
  return f_.path() + ":" + std::to_string(el.line) + ": element " + std::to_string(el.tag);
}

void physical_node_sets(const GmshRaw& g, int max_dim, const std::vector<Ordinal>& renumber,
                        Mesh& mesh) {
  for (const GmshElement& el : g.elements_) {
    if (el.dim > max_dim) continue;
    for (const std::string& name : g.groups_of(el)) {
      std::vector<Ordinal>& set = mesh.node_sets[name];
      // Corner nodes only: the mid nodes of 3-node lines and 9-node
      // quadrangles shape the geometry but are no ANCF nodes.
      const size_t corners = el.type == 8 ? 2 : el.type == 10 ? 4 : el.nodes.size();
      for (size_t k = 0; k < corners; ++k) {
        const Ordinal n = el.nodes[k];
        if (renumber[n] < 0) {
          throw_error(g.element_where(el), " of physical group '", name, "' uses node ",
                      g.node_tags_[n], ", which no ", to_string(mesh.type), " element uses");
        }
        set.push_back(renumber[n]);
      }
    }
  }
  for (auto& [name, set] : mesh.node_sets) {
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
  }
}

}  // namespace ancf_gmsh

Mesh read_gmsh_ancf(const std::string& path, ElementType type, const AncfGmshOptions& options) {
  ancf_gmsh::GmshRaw g(path);
  g.read();
  if (type == ElementType::ANCF3243) return ancf_gmsh::build_beams(g, options);
  if (type == ElementType::ANCF3443) return ancf_gmsh::build_shells(g, options);
  throw_error(path, ": read_gmsh_ancf makes ANCF3243 or ANCF3443 meshes, not ", to_string(type));
}

}  // namespace tlfea
