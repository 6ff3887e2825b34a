// TLFEA: the Gmsh MSH 4.1 ASCII sections shared by the Gmsh readers
// (gmsh_msh.hpp): format, physical names, entities, nodes, element blocks.
#include "gmsh_msh.hpp"

#include <limits>

#include "tlfea/core/error.hpp"

namespace tlfea::gmsh {

using mesh_text::Line;
using mesh_text::where;

int type_nodes(long long type) {
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

void GmshFile::read(const BlockFn& on_block, const BlockFn& on_element) {
  Line line;
  bool have_format = false, have_nodes = false, have_elements = false;
  while (f_.next(line)) {
    if (line.tokens.size() != 1 || line.tokens[0].empty() || line.tokens[0][0] != '$') {
      throw_error(where(f_, line), "expected a section header such as $Nodes, found '",
                  mesh_text::printable(line.text), "'");
    }
    const std::string name(line.tokens[0].substr(1));
    if (!have_format && name != "MeshFormat") {
      throw_error(where(f_, line),
                  "the file does not start with $MeshFormat (not a Gmsh MSH file?)");
    }
    if (name == "MeshFormat") {
      if (have_format) throw_error(where(f_, line), "second $MeshFormat section");
      read_format();
      have_format = true;
    } else if (name == "PhysicalNames") {
      read_physical_names();
    } else if (name == "Entities") {
      read_entities();
    } else if (name == "PartitionedEntities") {
      throw_error(where(f_, line), "partitioned MSH files are not supported");
    } else if (name == "Nodes") {
      if (have_nodes) throw_error(where(f_, line), "second $Nodes section");
      read_nodes();
      have_nodes = true;
    } else if (name == "Elements") {
      if (!have_nodes) throw_error(where(f_, line), "$Elements before $Nodes");
      if (have_elements) throw_error(where(f_, line), "second $Elements section");
      read_elements(on_block, on_element);
      have_elements = true;
    } else {
      skip_section(name, line);
    }
  }
  if (!have_format) throw_error(f_.path(), ": empty file (no $MeshFormat)");
  if (!have_nodes) throw_error(f_.path(), ": no $Nodes section");
  if (!have_elements) throw_error(f_.path(), ": no $Elements section");
}

std::string GmshFile::group_name(int dim, long long tag) const {
  const auto it = names_.find({dim, tag});
  return it != names_.end() ? it->second : "tag" + std::to_string(tag);
}

const std::vector<long long>& GmshFile::physicals_of(int dim, long long entity) const {
  static const std::vector<long long> kNone;
  const auto it = physicals_.find({dim, entity});
  return it != physicals_.end() ? it->second : kNone;
}

Ordinal GmshFile::node_of(const Line& line, long long element_tag, size_t column) const {
  const long long tag = mesh_text::to_int(f_, line, column, "node tag");
  const auto it = node_index_.find(tag);
  if (it == node_index_.end()) {
    throw_error(where(f_, line), "element ", element_tag, " references node ", tag,
                ", which is not in $Nodes (", positions_.size(), " nodes)");
  }
  return it->second;
}

std::string GmshFile::node_where(Ordinal i) const {
  return f_.path() + ":" + std::to_string(node_lines_[i]) + ": node " +
         std::to_string(node_tags_[i]);
}

void GmshFile::end_section(const std::string& name) {
  Line line;
  f_.require(line, "$End" + name);
  if (line.tokens.size() != 1 || line.tokens[0] != "$End" + name) {
    throw_error(where(f_, line), "expected $End", name, ", found '",
                mesh_text::printable(line.text), "'");
  }
}

void GmshFile::skip_section(const std::string& name, const Line& start) {
  Line line;
  while (f_.next(line)) {
    if (line.tokens.size() == 1 && line.tokens[0] == "$End" + name) return;
  }
  throw_error(where(f_, start), "section $", name, " has no $End", name);
}

void GmshFile::read_format() {
  Line line;
  f_.require(line, "$MeshFormat");
  mesh_text::require_tokens(f_, line, 3, 3, "$MeshFormat");
  if (line.tokens[0] != "4.1") {
    throw_error(where(f_, line), "MSH version ", mesh_text::printable(line.tokens[0]),
                " is not supported; write MSH 4.1 ASCII (gmsh -format msh41)");
  }
  const long long file_type = mesh_text::to_int(f_, line, 1, "file type");
  if (file_type == 1)
    throw_error(where(f_, line), "binary MSH files are not supported; write MSH 4.1 ASCII");
  if (file_type != 0) throw_error(where(f_, line), "unknown MSH file type ", file_type);
  mesh_text::to_int(f_, line, 2, "data size");
  end_section("MeshFormat");
}

void GmshFile::read_physical_names() {
  Line line;
  f_.require(line, "$PhysicalNames");
  mesh_text::require_tokens(f_, line, 1, 1, "$PhysicalNames count");
  const long long n = mesh_text::to_count(f_, line, 0, "physical names", 1);
  for (long long i = 0; i < n; ++i) {
    f_.require(line, "physical name");
    if (line.tokens.size() < 3) throw_error(where(f_, line), "expected 'dimension tag \"name\"'");
    const int dim = static_cast<int>(mesh_text::to_int_in(f_, line, 0, "physical dimension", 0, 3));
    const long long tag = mesh_text::to_int(f_, line, 1, "physical tag");
    const size_t open = line.text.find('"');
    const size_t close = line.text.rfind('"');
    if (open == std::string_view::npos || close <= open) {
      throw_error(where(f_, line), "physical name is not in double quotes");
    }
    names_[{dim, tag}] = std::string(line.text.substr(open + 1, close - open - 1));
  }
  end_section("PhysicalNames");
}

void GmshFile::read_entities() {
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
    throw_error(where(f_, line), "header says ", total, " entities but only ", f_.remaining_lines(),
                " lines follow");
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
      std::vector<long long>& phys = physicals_[{d, tag}];
      phys.clear();
      for (long long k = 0; k < nphys; ++k) {
        phys.push_back(mesh_text::to_int(f_, line, phys_at + 1 + k, "physical tag"));
      }
    }
  }
  end_section("Entities");
}

GmshFile::BlockedHeader GmshFile::read_blocked_header(const std::string& section,
                                                      const std::string& item,
                                                      long long lines_per_item) {
  Line line;
  f_.require(line, "$" + section);
  mesh_text::require_tokens(f_, line, 4, 4, "$" + section + " header");
  BlockedHeader h;
  h.section = section;
  h.item = item;
  h.line = line.number;
  h.blocks = mesh_text::to_count(f_, line, 0, item + " blocks", 1);
  h.items = mesh_text::to_count(f_, line, 1, item + "s", lines_per_item);
  return h;
}

void GmshFile::check_block_fits(const BlockedHeader& h, const Line& line, long long read) const {
  if (read > h.items) {
    throw_error(where(f_, line), h.item, " blocks hold more than the ", h.items, " ", h.item,
                "s the $", h.section, " header declares");
  }
}

void GmshFile::end_blocked_section(const BlockedHeader& h, long long read) {
  if (read != h.items) {
    throw_error(f_.path(), ":", h.line, ": the $", h.section, " header declares ", h.items, " ",
                h.item, "s but its blocks hold ", read);
  }
  end_section(h.section);
}

void GmshFile::read_nodes() {
  Line line;
  const BlockedHeader header = read_blocked_header("Nodes", "node", 2);
  const long long n = header.items;
  positions_.reserve(static_cast<size_t>(n));
  node_index_.reserve(static_cast<size_t>(n));
  long long read = 0;
  std::vector<long long> tags;
  std::vector<long> lines;
  for (long long b = 0; b < header.blocks; ++b) {
    f_.require(line, "node block header");
    mesh_text::require_tokens(f_, line, 4, 4, "node block header");
    const long long dim = mesh_text::to_int_in(f_, line, 0, "entity dimension", 0, 3);
    const long long parametric = mesh_text::to_int_in(f_, line, 2, "parametric flag", 0, 1);
    const long long m = mesh_text::to_count(f_, line, 3, "nodes in block", 2);
    check_block_fits(header, line, read + m);
    tags.assign(static_cast<size_t>(m), 0);
    lines.assign(static_cast<size_t>(m), 0);
    for (long long i = 0; i < m; ++i) {
      f_.require(line, "node tag");
      mesh_text::require_tokens(f_, line, 1, 1, "node tag");
      tags[i] =
          mesh_text::to_int_in(f_, line, 0, "node tag", 1, std::numeric_limits<long long>::max());
      lines[i] = line.number;
    }
    const size_t ncoord = 3 + (parametric ? static_cast<size_t>(dim) : 0);
    for (long long i = 0; i < m; ++i) {
      f_.require(line, "node coordinates");
      mesh_text::require_tokens(f_, line, ncoord, ncoord, "node coordinates");
      mesh_text::Vec3 x;
      for (int d = 0; d < 3; ++d) {
        x[d] = mesh_text::to_real(
            f_, line, d, "coordinate " + std::to_string(d) + " of node " + std::to_string(tags[i]));
      }
      const auto [it, inserted] =
          node_index_.emplace(tags[i], static_cast<Ordinal>(positions_.size()));
      if (!inserted) {
        throw_error(f_.path(), ":", lines[i], ": duplicate node tag ", tags[i],
                    " (first defined on line ", node_lines_[it->second], ")");
      }
      positions_.push_back(x);
      node_tags_.push_back(tags[i]);
      node_lines_.push_back(lines[i]);
    }
    read += m;
  }
  end_blocked_section(header, read);
}

void GmshFile::read_elements(const BlockFn& on_block, const BlockFn& on_element) {
  Line line;
  const BlockedHeader header = read_blocked_header("Elements", "element", 1);
  long long read = 0;
  for (long long b = 0; b < header.blocks; ++b) {
    f_.require(line, "element block header");
    mesh_text::require_tokens(f_, line, 4, 4, "element block header");
    Block block;
    block.dim = static_cast<int>(mesh_text::to_int_in(f_, line, 0, "entity dimension", 0, 3));
    block.entity = mesh_text::to_int(f_, line, 1, "entity tag");
    block.type = mesh_text::to_int(f_, line, 2, "element type");
    block.count = mesh_text::to_count(f_, line, 3, "elements in block", 1);
    check_block_fits(header, line, read + block.count);
    on_block(block, line);
    for (long long i = 0; i < block.count; ++i) {
      f_.require(line, "element");
      on_element(block, line);
    }
    read += block.count;
  }
  end_blocked_section(header, read);
}

}  // namespace tlfea::gmsh
