// TLFEA (private to core/src): a Gmsh MSH 4.1 file as the ANCF builders see
// it (docs/ancf_mesh.md): every element of the types they use, with its
// entity and physical groups, and the builders for beams and shells.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "gmsh_msh.hpp"
#include "tlfea/core/mesh_io.hpp"

namespace tlfea::ancf_gmsh {

struct GmshElement {
  int dim = 0;
  long long type = 0;
  long long entity = 0;
  long long tag = 0;
  long line = 0;
  std::vector<Ordinal> nodes;  // node indices, file order
};

class GmshRaw : public gmsh::GmshFile {
 public:
  explicit GmshRaw(const std::string& path) : gmsh::GmshFile(path) {}
  std::vector<GmshElement> elements_;

  // Reads the file, keeping every element of a type the builders use.
  void read();
  // Names of the physical groups of the element's entity.
  std::vector<std::string> groups_of(const GmshElement& el) const;
  // "file:line: element <tag>".
  std::string element_where(const GmshElement& el) const;
};

// Node sets from physical groups of dimension <= max_dim over the kept
// nodes (renumber: file index -> mesh node, -1 for nodes no element uses).
void physical_node_sets(const GmshRaw& g, int max_dim, const std::vector<Ordinal>& renumber,
                        Mesh& mesh);

// The first of `sections` (BeamSection / ShellSection) whose group is empty
// or one of `groups` (an element's physical groups); null when none is.
template <class Section>
const Section* section_for(const std::vector<Section>& sections,
                           const std::vector<std::string>& groups) {
  for (const Section& s : sections) {
    if (s.group.empty() || std::find(groups.begin(), groups.end(), s.group) != groups.end())
      return &s;
  }
  return nullptr;
}

// ANCF 3243 from line elements (mesh_ancf_beams.cpp).
Mesh build_beams(const GmshRaw& g, const AncfGmshOptions& opt);
// ANCF 3443 from quadrangles (mesh_ancf_shells.cpp).
Mesh build_shells(const GmshRaw& g, const AncfGmshOptions& opt);

}  // namespace tlfea::ancf_gmsh
