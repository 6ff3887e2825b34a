// TLFEA (private to core/src): the Gmsh MSH 4.1 ASCII sections every Gmsh
// reader needs ($MeshFormat, $PhysicalNames, $Entities, $Nodes, and the block
// structure of $Elements), shared by the solid reader (mesh_gmsh.cpp) and the
// ANCF reader (ancf_gmsh.cpp), which decide what to keep of the elements.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mesh_text.hpp"

namespace tlfea::gmsh {

// Nodes of the Gmsh element types (0 for types this reader does not know;
// their lines are accepted with any length where they are ignored).
int type_nodes(long long type);

// Header of one $Elements block.
struct Block {
  int dim = 0;
  long long entity = 0;
  long long type = 0;
  long long count = 0;
};

class GmshFile {
 public:
  // on_block: once per $Elements block, with its header line; on_element:
  // once per element line of that block (the reader checks its length).
  using BlockFn = std::function<void(const Block&, const mesh_text::Line&)>;

  explicit GmshFile(const std::string& path) : f_(path, 0) {}

  // Reads every section: $MeshFormat first (4.1 ASCII only), $PhysicalNames,
  // $Entities, one $Nodes, then one $Elements handed to the callbacks; any
  // other section is skipped to its $End line.
  void read(const BlockFn& on_block, const BlockFn& on_element);

  const std::string& path() const { return f_.path(); }
  // Name of physical group (dim, tag): $PhysicalNames, else "tag<N>".
  std::string group_name(int dim, long long tag) const;
  // Physical tags of entity (dim, entity); empty when it has none.
  const std::vector<long long>& physicals_of(int dim, long long entity) const;
  // Node index of the node tag in `column` of an element line.
  Ordinal node_of(const mesh_text::Line& line, long long element_tag, size_t column) const;
  // "file:line: node <tag>" of node index i.
  std::string node_where(Ordinal i) const;

  mesh_text::TextFile f_;
  std::map<std::pair<int, long long>, std::string> names_;                 // (dim, tag)
  std::map<std::pair<int, long long>, std::vector<long long>> physicals_;  // (dim, entity)
  std::vector<mesh_text::Vec3> positions_;                                 // file order
  std::vector<long long> node_tags_;
  std::vector<long> node_lines_;
  std::unordered_map<long long, Ordinal> node_index_;  // tag -> index

 private:
  // Header line "blocks items minTag maxTag" of $Nodes / $Elements.
  struct BlockedHeader {
    std::string section;  // "Nodes" / "Elements"
    std::string item;     // "node" / "element"
    long line = 0;
    long long blocks = 0;
    long long items = 0;
  };
  BlockedHeader read_blocked_header(const std::string& section, const std::string& item,
                                    long long lines_per_item);
  // Throws when the blocks read so far (`read` items) exceed the header's count.
  void check_block_fits(const BlockedHeader& h, const mesh_text::Line& line, long long read) const;
  // Throws unless the blocks held the header's count; reads $End<section>.
  void end_blocked_section(const BlockedHeader& h, long long read);
  void end_section(const std::string& name);
  void skip_section(const std::string& name, const mesh_text::Line& start);
  void read_format();
  void read_physical_names();
  void read_entities();
  void read_nodes();
  void read_elements(const BlockFn& on_block, const BlockFn& on_element);
};

}  // namespace tlfea::gmsh
