// TLFEA: ANCF 3243 / 3443 meshes from files (mesh_io.hpp, docs/ancf_mesh.md):
// the plain text format *.ancf, and Gmsh MSH 4.1 line and quadrangle meshes
// with reference gradients computed from the geometry.
//
// Reference gradients. The elements (ancf3243.hpp, ancf3443.hpp) take the
// nodal gradients as derivatives of the reference position with respect to
// the element's material coordinates (u, v, w), u in [0, L] etc., and build
// J0 = sum_i e0_i (x) ds_i/dxi from them (docs/theory.md §1.3), so any
// reference geometry the cubic Hermite interpolation of the nodal data gives
// is stress-free. Curved beams and shells therefore need (a) unit tangents
// that the elements meeting at a node agree on, and (b) an element length L
// that makes u close to arc length. For a circular arc of chord c whose end
// tangents differ by the angle theta, the arc length is
//   L = c theta / (2 sin(theta / 2)),
// and the chord bisects the end tangents; a node where two equal chords of a
// circle meet has the circle's tangent as the mean of the two unit chords.
// With those, the Hermite cubic of an arc of angle theta deviates from the
// circle by O(theta^4) R (it is the classical cubic arc approximation).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
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
using mesh_text::Vec3;
using mesh_text::where;

constexpr Real kPi = 3.14159265358979323846;

Vec3 add(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec3 scale(Real s, const Vec3& a) { return {s * a[0], s * a[1], s * a[2]}; }
Real dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
// a / |a|, or all zeros for a zero (or non-finite) vector; callers check.
Vec3 unit(const Vec3& a) {
  const Real n = mesh_text::norm(a);
  if (!(n > 0) || !std::isfinite(n)) return {0, 0, 0};
  return scale(1 / n, a);
}
bool is_unit(const Vec3& a) { return std::fabs(mesh_text::norm(a) - 1) < 1e-6; }

// Arc length of the circular arc of chord c whose unit end tangents are t0,
// t1 (angle theta between them): c theta / (2 sin(theta/2)); c for theta -> 0.
Real arc_length(Real c, const Vec3& t0, const Vec3& t1) {
  const Real theta = std::atan2(mesh_text::norm(cross(t0, t1)), dot(t0, t1));
  if (theta < 1e-8) return c;
  return c * theta / (2 * std::sin(theta / 2));
}

// Reflection of the unit tangent t about the unit chord d: for a circular arc
// the chord bisects the end tangents, so the tangent at one end follows from
// the other's.
Vec3 reflect(const Vec3& t, const Vec3& d) {
  return unit(add(scale(2 * dot(d, t), d), scale(-1, t)));
}

// ---------------------------------------------------------------------------
// Plain text format.

bool is_ancf(ElementType t) { return t == ElementType::ANCF3243 || t == ElementType::ANCF3443; }

Mesh read_text(const std::string& path) {
  TextFile f(path, '#');
  Line line;
  Mesh mesh;
  mesh.source = path;
  if (!f.next(line))
    throw_error(path, ": empty ANCF mesh file (expected 'ancf3243' or 'ancf3443')");
  mesh_text::require_tokens(f, line, 1, 1, "format line");
  if (line.tokens[0] == "ancf3243") {
    mesh.type = ElementType::ANCF3243;
  } else if (line.tokens[0] == "ancf3443") {
    mesh.type = ElementType::ANCF3443;
  } else {
    throw_error(where(f, line), "expected 'ancf3243' or 'ancf3443', found '",
                mesh_text::printable(line.text), "'");
  }
  const int npe = nodes_per_element(mesh.type);

  f.require(line, "'nodes N'");
  mesh_text::require_tokens(f, line, 2, 2, "'nodes N'");
  if (line.tokens[0] != "nodes") throw_error(where(f, line), "expected 'nodes N'");
  const long long nn = mesh_text::to_count(f, line, 1, "nodes", 1, 1);
  long long base = 0;
  mesh.coefficients.reserve(static_cast<size_t>(4 * nn));
  for (long long i = 0; i < nn; ++i) {
    f.require(line, "node");
    mesh_text::require_tokens(f, line, 13, 13, "node (id x y z, r_u, r_v, r_w)");
    const long long id = mesh_text::to_int(f, line, 0, "node id");
    if (i == 0) {
      if (id != 0 && id != 1)
        throw_error(where(f, line), "the first node id must be 0 or 1, found ", id);
      base = id;
    } else if (id != base + i) {
      throw_error(where(f, line), "node ids must be consecutive: expected ", base + i, ", found ",
                  id);
    }
    static const char* kWhat[4] = {"position", "r_u", "r_v", "r_w"};
    for (int j = 0; j < 4; ++j) {
      Vec3 v;
      for (int d = 0; d < 3; ++d) {
        v[d] = mesh_text::to_real(f, line, 1 + 3 * j + d,
                                  std::string(kWhat[j]) + " of node " + std::to_string(id));
      }
      mesh.coefficients.push_back(v);
    }
    const Vec3& ru = mesh.coefficients[4 * i + 1];
    const Vec3& rv = mesh.coefficients[4 * i + 2];
    const Vec3& rw = mesh.coefficients[4 * i + 3];
    if (!(mesh_text::det3(ru, rv, rw) >
          1e-12 * mesh_text::norm(ru) * mesh_text::norm(rv) * mesh_text::norm(rw))) {
      throw_error(where(f, line), "node ", id,
                  ": gradients r_u, r_v, r_w must form a right-handed frame (det > 0)");
    }
  }

  f.require(line, "'elements M'");
  mesh_text::require_tokens(f, line, 2, 2, "'elements M'");
  if (line.tokens[0] != "elements") throw_error(where(f, line), "expected 'elements M'");
  const long long ne = mesh_text::to_count(f, line, 1, "elements", 1, 1);
  for (long long e = 0; e < ne; ++e) {
    f.require(line, "element");
    mesh_text::require_tokens(
        f, line, static_cast<size_t>(npe + 4), static_cast<size_t>(npe + 4),
        npe == 2 ? "element (id n0 n1 L W H)" : "element (id n0 n1 n2 n3 L W H)");
    const long long id = mesh_text::to_int(f, line, 0, "element id");
    if (id != base + e) {
      throw_error(where(f, line), "element ids must be consecutive from ", base, ": expected ",
                  base + e, ", found ", id);
    }
    for (int k = 0; k < npe; ++k) {
      // "node" or "node:shift" (shift 1, 2: the element's r_u, r_v, r_w are
      // the node's gradients cycled by shift, docs/ancf_mesh.md).
      std::string_view t = line.tokens[1 + k];
      long long shift = 0;
      const size_t colon = t.find(':');
      Line tmp = line;
      if (colon != std::string_view::npos) {
        tmp.tokens = {t.substr(0, colon), t.substr(colon + 1)};
        shift = mesh_text::to_int_in(f, tmp, 1, "gradient shift", 0, 2);
      } else {
        tmp.tokens = {t};
      }
      const long long node =
          mesh_text::to_int_in(f, tmp, 0, "element node", base, base + nn - 1) - base;
      mesh.connectivity.push_back(static_cast<Ordinal>(4 * node));
      for (int j = 0; j < 3; ++j) {
        mesh.connectivity.push_back(static_cast<Ordinal>(4 * node + 1 + (j + shift) % 3));
      }
    }
    Vec3 size;
    static const char* kSize[3] = {"L", "W", "H"};
    for (int d = 0; d < 3; ++d) {
      size[d] = mesh_text::to_real(f, line, 1 + npe + d, std::string("element size ") + kSize[d]);
      if (!(size[d] > 0))
        throw_error(where(f, line), "element size ", kSize[d], " must be positive");
    }
    mesh.element_size.push_back(size);
  }

  while (f.next(line)) {
    if (line.tokens[0] != "nodeset" && line.tokens[0] != "faceset") {
      throw_error(where(f, line), "expected 'nodeset NAME K' or 'faceset NAME K', found '",
                  mesh_text::printable(line.text), "'");
    }
    mesh_text::require_tokens(f, line, 3, 3, "set header (nodeset|faceset NAME K)");
    const bool nodes = line.tokens[0] == "nodeset";
    const std::string name(line.tokens[1]);
    if ((nodes && mesh.node_sets.count(name)) || (!nodes && mesh.face_sets.count(name))) {
      throw_error(where(f, line), line.tokens[0], " '", mesh_text::printable(name),
                  "' given twice");
    }
    if (nodes) {
      const long long k = mesh_text::to_int_in(f, line, 2, "set size", 0, nn);
      std::vector<Ordinal>& set = mesh.node_sets[name];
      while (static_cast<long long>(set.size()) < k) {
        f.require(line, "node set '" + name + "'");
        for (size_t i = 0; i < line.tokens.size(); ++i) {
          if (static_cast<long long>(set.size()) == k) {
            throw_error(where(f, line), "node set '", name, "' has more than ", k, " ids");
          }
          set.push_back(static_cast<Ordinal>(
              mesh_text::to_int_in(f, line, i, "node id", base, base + nn - 1) - base));
        }
      }
    } else {
      const long long k = mesh_text::to_count(f, line, 2, "faces", 1);
      std::vector<FaceRef>& set = mesh.face_sets[name];
      for (long long i = 0; i < k; ++i) {
        f.require(line, "face of set '" + name + "'");
        mesh_text::require_tokens(f, line, 2, 2, "face (element face)");
        const Ordinal e = static_cast<Ordinal>(
            mesh_text::to_int_in(f, line, 0, "element id", base, base + ne - 1) - base);
        const int fa = static_cast<int>(mesh_text::to_int_in(f, line, 1, "face", 0, 5));
        set.push_back({e, fa});
      }
    }
  }
  if (!mesh.node_sets.count("all")) mesh.node_sets["all"] = mesh_text::iota_set(mesh.num_nodes());
  check_mesh(mesh);
  return mesh;
}

}  // namespace

Mesh read_ancf_text(const std::string& path) { return read_text(path); }

void write_ancf_text(const Mesh& mesh, const std::string& path) {
  if (!is_ancf(mesh.type)) throw_error(mesh.source, ": write_ancf_text needs an ANCF mesh");
  check_mesh(mesh);
  std::ofstream out(path);
  if (!out) throw_error(path, ": cannot open for writing");
  out << std::setprecision(17);
  out << "# ANCF mesh (docs/ancf_mesh.md) from " << mesh.source << "\n";
  out << (mesh.type == ElementType::ANCF3243 ? "ancf3243" : "ancf3443") << "\n";
  out << "nodes " << mesh.num_nodes() << "\n";
  for (Ordinal n = 0; n < mesh.num_nodes(); ++n) {
    out << n;
    for (int j = 0; j < 4; ++j)
      for (int d = 0; d < 3; ++d)
        out << ' ' << mesh.coefficients[4 * static_cast<size_t>(n) + j][d];
    out << "\n";
  }
  out << "elements " << mesh.num_elements() << "\n";
  const int npe = nodes_per_element(mesh.type);
  for (Ordinal e = 0; e < mesh.num_elements(); ++e) {
    out << e;
    for (int k = 0; k < npe; ++k) {
      const Ordinal c0 = mesh.coefficient(e, 4 * k);
      const int shift = (mesh.coefficient(e, 4 * k + 1) - c0 + 2) % 3;
      bool ok = c0 % 4 == 0;
      for (int j = 0; j < 3 && ok; ++j)
        ok = mesh.coefficient(e, 4 * k + 1 + j) == c0 + 1 + (j + shift) % 3;
      if (!ok) {
        throw_error(mesh.source, ": element ", e,
                    " does not use a node's coefficients as one block (cannot be written)");
      }
      out << ' ' << c0 / 4;
      if (shift != 0) out << ':' << shift;
    }
    for (int d = 0; d < 3; ++d) out << ' ' << mesh.element_size[e][d];
    out << "\n";
  }
  for (const auto& [name, set] : mesh.node_sets) {
    if (name.empty() || name.find_first_of(" \t\r\n#") != std::string::npos) {
      throw_error(mesh.source, ": set name '", name,
                  "' cannot be written (empty, or with blanks or '#')");
    }
    out << "nodeset " << name << ' ' << set.size() << "\n";
    for (size_t i = 0; i < set.size(); ++i)
      out << set[i] << ((i % 10 == 9 || i + 1 == set.size()) ? "\n" : " ");
  }
  for (const auto& [name, set] : mesh.face_sets) {
    if (name.empty() || name.find_first_of(" \t\r\n#") != std::string::npos) {
      throw_error(mesh.source, ": set name '", name,
                  "' cannot be written (empty, or with blanks or '#')");
    }
    out << "faceset " << name << ' ' << set.size() << "\n";
    for (const FaceRef& fr : set) out << fr.element << ' ' << fr.face << "\n";
  }
  if (!out) throw_error(path, ": error writing");
}

namespace {

// ---------------------------------------------------------------------------
// Gmsh MSH 4.1: the parts the ANCF builders need (nodes, elements of every
// dimension with their entity, physical groups and names).

struct GmshElement {
  int dim = 0;
  long long type = 0;
  long long entity = 0;
  long long tag = 0;
  long line = 0;
  std::vector<Ordinal> nodes;  // node indices, file order
};

class GmshRaw {
 public:
  explicit GmshRaw(const std::string& path) : f_(path, 0) {}
  TextFile f_;
  std::map<std::pair<int, long long>, std::string> names_;                 // (dim, tag)
  std::map<std::pair<int, long long>, std::vector<long long>> physicals_;  // (dim, entity)
  std::vector<Vec3> positions_;
  std::vector<long long> node_tags_;
  std::vector<long> node_lines_;
  std::unordered_map<long long, Ordinal> node_index_;
  std::vector<GmshElement> elements_;

  void read() {
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
        read_elements();
        have_elements = true;
      } else {
        const Line start = line;
        bool closed = false;
        while (f_.next(line)) {
          if (line.tokens.size() == 1 && line.tokens[0] == "$End" + name) {
            closed = true;
            break;
          }
        }
        if (!closed) throw_error(where(f_, start), "section $", name, " has no $End", name);
      }
    }
    if (!have_format) throw_error(f_.path(), ": empty file (no $MeshFormat)");
    if (!have_nodes) throw_error(f_.path(), ": no $Nodes section");
    if (!have_elements) throw_error(f_.path(), ": no $Elements section");
  }

  // Name of physical group (dim, tag): $PhysicalNames, else "tag<N>".
  std::string group_name(int dim, long long tag) const {
    const auto it = names_.find({dim, tag});
    return it != names_.end() ? it->second : "tag" + std::to_string(tag);
  }
  std::vector<std::string> groups_of(const GmshElement& el) const {
    std::vector<std::string> out;
    const auto it = physicals_.find({el.dim, el.entity});
    if (it != physicals_.end()) {
      for (long long p : it->second) out.push_back(group_name(el.dim, p));
    }
    return out;
  }
  std::string node_where(Ordinal i) const {
    return f_.path() + ":" + std::to_string(node_lines_[i]) + ": node " +
           std::to_string(node_tags_[i]);
  }
  std::string element_where(const GmshElement& el) const {
    return f_.path() + ":" + std::to_string(el.line) + ": element " + std::to_string(el.tag);
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
  void read_format() {
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
  void read_physical_names() {
    Line line;
    f_.require(line, "$PhysicalNames");
    mesh_text::require_tokens(f_, line, 1, 1, "$PhysicalNames count");
    const long long n = mesh_text::to_count(f_, line, 0, "physical names", 1);
    for (long long i = 0; i < n; ++i) {
      f_.require(line, "physical name");
      if (line.tokens.size() < 3) throw_error(where(f_, line), "expected 'dimension tag \"name\"'");
      const int dim =
          static_cast<int>(mesh_text::to_int_in(f_, line, 0, "physical dimension", 0, 3));
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
  void read_nodes() {
    Line line;
    f_.require(line, "$Nodes");
    mesh_text::require_tokens(f_, line, 4, 4, "$Nodes header");
    const long header_line = line.number;
    const long long blocks = mesh_text::to_count(f_, line, 0, "node blocks", 1);
    const long long n = mesh_text::to_count(f_, line, 1, "nodes", 2);
    long long read = 0;
    std::vector<long long> tags;
    std::vector<long> lines;
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
        Vec3 x;
        for (int d = 0; d < 3; ++d) {
          x[d] = mesh_text::to_real(
              f_, line, d,
              "coordinate " + std::to_string(d) + " of node " + std::to_string(tags[i]));
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
    if (read != n) {
      throw_error(f_.path(), ":", header_line, ": the $Nodes header declares ", n,
                  " nodes but its blocks hold ", read);
    }
    end_section("Nodes");
  }
  static int type_nodes(long long type) {
    switch (type) {
      case 1:
        return 2;
      case 2:
        return 3;
      case 3:
        return 4;
      case 4:
        return 4;
      case 5:
        return 8;
      case 8:
        return 3;
      case 9:
        return 6;
      case 10:
        return 9;
      case 11:
        return 10;
      case 12:
        return 27;
      case 15:
        return 1;
      case 16:
        return 8;
      default:
        return 0;
    }
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
      const int dim = static_cast<int>(mesh_text::to_int_in(f_, line, 0, "entity dimension", 0, 3));
      const long long entity = mesh_text::to_int(f_, line, 1, "entity tag");
      const long long type = mesh_text::to_int(f_, line, 2, "element type");
      const long long m = mesh_text::to_count(f_, line, 3, "elements in block", 1);
      if (read + m > n) {
        throw_error(where(f_, line), "element blocks hold more than the ", n,
                    " elements the $Elements header declares");
      }
      const int npe = type_nodes(type);
      for (long long i = 0; i < m; ++i) {
        f_.require(line, "element");
        if (npe == 0) {
          if (line.tokens.size() < 2)
            throw_error(where(f_, line), "element record needs a tag and nodes");
          continue;  // a type no ANCF builder uses; its dimension decides below
        }
        mesh_text::require_tokens(f_, line, 1 + npe, 1 + npe,
                                  "element of type " + std::to_string(type));
        GmshElement el;
        el.dim = dim;
        el.type = type;
        el.entity = entity;
        el.tag = mesh_text::to_int(f_, line, 0, "element tag");
        el.line = line.number;
        for (int k = 0; k < npe; ++k) {
          const long long tag = mesh_text::to_int(f_, line, 1 + k, "node tag");
          const auto it = node_index_.find(tag);
          if (it == node_index_.end()) {
            throw_error(where(f_, line), "element ", el.tag, " references node ", tag,
                        ", which is not in $Nodes (", positions_.size(), " nodes)");
          }
          el.nodes.push_back(it->second);
        }
        elements_.push_back(std::move(el));
      }
      read += m;
    }
    if (read != n) {
      throw_error(f_.path(), ":", header_line, ": the $Elements header declares ", n,
                  " elements but its blocks hold ", read);
    }
    end_section("Elements");
  }
};

// Node sets from physical groups of dimension <= max_dim over the kept
// nodes (renumber: file index -> mesh node, -1 for nodes no element uses).
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

// ---------------------------------------------------------------------------
// ANCF 3243 from line elements (docs/ancf_mesh.md, "Beams from Gmsh lines").

struct BeamElement {
  const GmshElement* src = nullptr;
  Ordinal a = -1, b = -1;  // end nodes (file indices), a -> b along the chain
  Vec3 ta{}, tb{};         // unit tangents at a and b pointing a -> b (from the geometry)
  bool curved = false;     // 3-node line: ta, tb from the quadratic
  const BeamSection* section = nullptr;
  int chain = -1;
};

Mesh build_beams(const GmshRaw& g, const AncfGmshOptions& opt) {
  const std::string& path = g.f_.path();
  if (opt.beams.empty()) throw_error(path, ": ANCF3243 needs at least one beam section");
  for (const BeamSection& s : opt.beams) {
    if (!(s.width > 0) || !(s.height > 0)) {
      throw_error(path, ": section '", s.group, "': width and height must be positive");
    }
    if (!(mesh_text::norm(s.up) > 0))
      throw_error(path, ": section '", s.group, "': up vector is zero");
  }
  if (!(opt.smooth_angle_deg >= 0) || !(opt.smooth_angle_deg < 90)) {
    throw_error(path, ": smooth angle must be in [0, 90) degrees, got ", opt.smooth_angle_deg);
  }
  std::vector<BeamElement> beams;
  for (const GmshElement& el : g.elements_) {
    if (el.dim == 2 || el.dim == 3) {
      throw_error(g.element_where(el), ": a ", el.dim == 2 ? "surface" : "volume",
                  " element in a beam (ANCF3243) mesh; keep only lines (and points)");
    }
    if (el.dim != 1) continue;
    if (el.type != 1 && el.type != 8) {
      throw_error(g.element_where(el), ": line element type ", el.type,
                  " is not supported (2-node 1 or 3-node 8)");
    }
    BeamElement be;
    be.src = &el;
    be.a = el.nodes[0];
    be.b = el.nodes[1];
    if (be.a == be.b) throw_error(g.element_where(el), ": both ends are the same node");
    const Vec3 xa = g.positions_[be.a], xb = g.positions_[be.b];
    const Vec3 d = mesh_text::sub(xb, xa);
    if (!(mesh_text::norm(d) > 0)) throw_error(g.element_where(el), ": zero length");
    if (el.type == 8) {
      // X(s) = xa (1-s)(1-2s) + 4 xm s(1-s) + xb s(2s-1): X'(0) = 4xm - 3xa - xb, X'(1) = 3xb + xa
      // - 4xm.
      const Vec3 xm = g.positions_[el.nodes[2]];
      be.ta = unit(add(mesh_text::sub(scale(4, xm), scale(3, xa)), scale(-1, xb)));
      be.tb = unit(add(mesh_text::sub(scale(3, xb), scale(4, xm)), xa));
      be.curved = true;
      if (!is_unit(be.ta) || !is_unit(be.tb) || dot(be.ta, unit(d)) <= 0 ||
          dot(be.tb, unit(d)) <= 0) {
        throw_error(g.element_where(el),
                    ": degenerate 3-node line (its mid node turns it back on itself)");
      }
    } else {
      be.ta = be.tb = unit(d);
    }
    const std::vector<std::string> groups = g.groups_of(el);
    for (const BeamSection& s : opt.beams) {
      if (!s.group.empty() && std::find(groups.begin(), groups.end(), s.group) == groups.end())
        continue;
      be.section = &s;
      break;
    }
    if (be.section == nullptr) {
      std::string list;
      for (const std::string& n : groups) list += (list.empty() ? "" : ", ") + n;
      throw_error(g.element_where(el), ": no beam section for its physical group(s) (",
                  list.empty() ? "none" : list,
                  "); add a section for one of them or one without a group");
    }
    beams.push_back(be);
  }
  if (beams.empty()) throw_error(path, ": no line elements (type 1 or 8) for ANCF3243 beams");

  // Element ends at every node: (element, end 0 = a / 1 = b).
  const size_t nfile = g.positions_.size();
  std::vector<std::vector<std::pair<int, int>>> ends(nfile);
  for (size_t e = 0; e < beams.size(); ++e) {
    ends[beams[e].a].push_back({static_cast<int>(e), 0});
    ends[beams[e].b].push_back({static_cast<int>(e), 1});
  }
  // Outgoing unit direction of an element end (away from the node).
  auto outgoing = [&](std::pair<int, int> end) {
    const BeamElement& be = beams[end.first];
    return end.second == 0 ? be.ta : scale(-1, be.tb);
  };
  // Pair element ends that continue each other smoothly: outgoing directions
  // within smooth_angle of opposite, best pairs first.
  const Real cos_smooth = std::cos(opt.smooth_angle_deg * kPi / 180);
  std::vector<std::array<std::pair<int, int>, 2>> partner(
      beams.size(), {{{-1, -1}, {-1, -1}}});  // partner[e][end] = (element, end) or (-1, -1)
  for (size_t n = 0; n < nfile; ++n) {
    const auto& es = ends[n];
    std::vector<std::tuple<Real, int, int>> cand;
    for (size_t i = 0; i < es.size(); ++i)
      for (size_t j = i + 1; j < es.size(); ++j) {
        const Real c = -dot(outgoing(es[i]), outgoing(es[j]));
        if (c >= cos_smooth) cand.emplace_back(-c, static_cast<int>(i), static_cast<int>(j));
      }
    std::sort(cand.begin(), cand.end());
    std::vector<bool> used(es.size(), false);
    for (const auto& [c, i, j] : cand) {
      if (used[i] || used[j]) continue;
      used[i] = used[j] = true;
      partner[es[i].first][es[i].second] = es[j];
      partner[es[j].first][es[j].second] = es[i];
    }
  }
  // Chains: walk from unpaired ends, then the closed loops.
  std::vector<std::vector<int>> chains;
  auto walk = [&](int e, int entry_end) {
    std::vector<int> chain;
    const int c = static_cast<int>(chains.size());
    while (e >= 0 && beams[e].chain < 0) {
      BeamElement& be = beams[e];
      be.chain = c;
      if (entry_end == 1) {  // traverse b -> a: reverse the element
        std::swap(be.a, be.b);
        std::swap(be.ta, be.tb);
        be.ta = scale(-1, be.ta);
        be.tb = scale(-1, be.tb);
        std::swap(partner[e][0], partner[e][1]);
        for (int s = 0; s < 2; ++s) {
          const auto p = partner[e][s];
          if (p.first >= 0) partner[p.first][p.second] = {e, s};
        }
      }
      chain.push_back(e);
      const auto next = partner[e][1];
      e = next.first;
      entry_end = next.second;
    }
    chains.push_back(chain);
  };
  for (size_t e = 0; e < beams.size(); ++e) {
    if (beams[e].chain >= 0) continue;
    if (partner[e][0].first < 0)
      walk(static_cast<int>(e), 0);
    else if (partner[e][1].first < 0)
      walk(static_cast<int>(e), 1);
  }
  for (size_t e = 0; e < beams.size(); ++e) {
    if (beams[e].chain < 0) walk(static_cast<int>(e), 0);  // closed loop
  }
  // Up vector per chain (from its first element's section), one per chain.
  std::vector<Vec3> chain_up(chains.size());
  for (size_t c = 0; c < chains.size(); ++c) {
    chain_up[c] = unit(beams[chains[c][0]].section->up);
    for (int e : chains[c]) {
      if (dot(unit(beams[e].section->up), chain_up[c]) < 1 - 1e-9) {
        throw_error(
            g.element_where(*beams[e].src),
            ": its section's up vector differs from that of the beam line it continues smoothly "
            "(one up vector per smooth line)");
      }
    }
  }

  // Tangents at nodes, per chain, oriented along the chain. A node interior
  // to a chain: mean of the two unit element tangents there. A chain end:
  // the element's own end tangent for 3-node lines; for 2-node lines the
  // reflection of the tangent at the element's other node about its chord
  // (circular-arc continuation) when that node is interior, else the chord.
  // tan[(chain, node)] = tangent.
  std::map<std::pair<int, Ordinal>, Vec3> tan;
  auto set_tan = [&](int c, Ordinal n, const Vec3& t) {
    if (!tan.emplace(std::make_pair(c, n), t).second) {
      throw_error(g.node_where(n),
                  ": a beam line passes through this node twice (it crosses itself, or closes with "
                  "a kink); split it there");
    }
  };
  for (size_t c = 0; c < chains.size(); ++c) {
    const std::vector<int>& ch = chains[c];
    const bool loop =
        beams[ch.front()].a == beams[ch.back()].b && partner[ch.front()][0].first >= 0;
    const int ci = static_cast<int>(c);
    for (size_t i = 0; i + 1 < ch.size(); ++i) {
      set_tan(ci, beams[ch[i]].b, unit(add(beams[ch[i]].tb, beams[ch[i + 1]].ta)));
    }
    if (loop) {
      set_tan(ci, beams[ch.front()].a, unit(add(beams[ch.back()].tb, beams[ch.front()].ta)));
      continue;
    }
    const BeamElement& f = beams[ch.front()];
    const BeamElement& l = beams[ch.back()];
    if (f.curved || ch.size() == 1) {
      set_tan(ci, f.a, f.ta);
    } else {
      set_tan(
          ci, f.a,
          reflect(tan.at({ci, f.b}), unit(mesh_text::sub(g.positions_[f.b], g.positions_[f.a]))));
    }
    if (l.curved || ch.size() == 1) {
      set_tan(ci, l.b, l.tb);
    } else {
      set_tan(
          ci, l.b,
          reflect(tan.at({ci, l.a}), unit(mesh_text::sub(g.positions_[l.b], g.positions_[l.a]))));
    }
  }

  // Junctions: nodes on two chains. Supported: two lines meeting at a right
  // angle, both normal to the (common) up vector: the slope-discontinuity
  // junction of Shabana and Mikkola (J. Mech. Des. 125 (2), 2003), whose
  // constant gradient transformation is here a permutation of the node's
  // gradient coefficients. Node frame from the chain
  // with role 0 (up = r_w); the other chain (role 1, up = r_v) uses the
  // node's gradients cycled by one (its r_u, r_v, r_w = the node's r_v, r_w,
  // r_u), which needs its tangent to equal up x t0 (orientations below).
  std::vector<std::vector<int>> node_chains(nfile);
  for (size_t c = 0; c < chains.size(); ++c)
    for (int e : chains[c]) {
      for (Ordinal n : {beams[e].a, beams[e].b}) {
        auto& nc = node_chains[n];
        if (std::find(nc.begin(), nc.end(), static_cast<int>(c)) == nc.end())
          nc.push_back(static_cast<int>(c));
      }
    }
  struct Junction {
    Ordinal node;
    int c1, c2;
    Real s;  // sign of t2 . (up x t1)
  };
  std::vector<Junction> junctions;
  std::vector<std::vector<int>> chain_junctions(chains.size());
  for (size_t n = 0; n < nfile; ++n) {
    const auto& nc = node_chains[n];
    if (nc.size() <= 1) {
      // A node on one chain whose ends were not paired: a kink of that chain
      // (e.g. a closed polygon's corner), or the same chain twice.
      if (nc.size() == 1) {
        int count = 0;
        for (const auto& end : ends[n]) count += partner[end.first][end.second].first < 0 ? 1 : 0;
        if (count > 1) {
          throw_error(g.node_where(static_cast<Ordinal>(n)),
                      ": beam line meets itself at a kink (angle above the smooth angle ",
                      opt.smooth_angle_deg, " degrees)");
        }
      }
      continue;
    }
    if (nc.size() > 2) {
      throw_error(g.node_where(static_cast<Ordinal>(n)), ": ", nc.size(),
                  " beam lines meet here; supported are smooth lines (elements within ",
                  opt.smooth_angle_deg,
                  " degrees of each other) and two lines crossing or ending at a right angle "
                  "(docs/ancf_mesh.md)");
    }
    const int c1 = nc[0], c2 = nc[1];
    const Vec3 t1 = tan.at({c1, static_cast<Ordinal>(n)}),
               t2 = tan.at({c2, static_cast<Ordinal>(n)});
    // The acute angle between the two lines (independent of their directions).
    const Real angle = std::acos(std::clamp(std::fabs(dot(t1, t2)), 0.0, 1.0)) * 180 / kPi;
    if (std::fabs(dot(t1, t2)) > 1e-6) {
      throw_error(
          g.node_where(static_cast<Ordinal>(n)), ": a kink: beam lines meet here at ", angle,
          " degrees; a shared node joins beams rigidly only where they continue smoothly (within ",
          opt.smooth_angle_deg,
          " degrees: raise smooth_angle for a coarse curve) or meet at a right "
          "angle; model other kinks with separate nodes and a joint");
    }
    const Vec3 up = chain_up[c1];
    if (dot(up, chain_up[c2]) < 1 - 1e-9 || std::fabs(dot(up, t1)) > 1e-6 ||
        std::fabs(dot(up, t2)) > 1e-6) {
      throw_error(
          g.node_where(static_cast<Ordinal>(n)),
          ": at a right-angle beam junction both sections need the same up vector, normal to "
          "both beams");
    }
    junctions.push_back({static_cast<Ordinal>(n), c1, c2, dot(t2, cross(up, t1)) > 0 ? 1.0 : -1.0});
    chain_junctions[c1].push_back(static_cast<int>(junctions.size()) - 1);
    chain_junctions[c2].push_back(static_cast<int>(junctions.size()) - 1);
  }
  // Roles and orientations by breadth-first search over the junctions:
  // roles differ across a junction; o2 = (role1 == 0 ? s : -s) o1.
  std::vector<int> role(chains.size(), -1), orient(chains.size(), 0);
  for (size_t start = 0; start < chains.size(); ++start) {
    if (role[start] >= 0) continue;
    role[start] = 0;
    orient[start] = 1;
    std::vector<int> queue = {static_cast<int>(start)};
    for (size_t q = 0; q < queue.size(); ++q) {
      const int c = queue[q];
      for (int j : chain_junctions[c]) {
        const Junction& J = junctions[j];
        const int other = J.c1 == c ? J.c2 : J.c1;
        const int r1 = role[J.c1];
        const int want_role = 1 - role[c];
        // o2 / o1 = (role(c1) == 0 ? s : -s).
        const Real ratio = (c == J.c1 ? (r1 == 0 ? J.s : -J.s) : (want_role == 0 ? J.s : -J.s));
        const int want_orient = static_cast<int>(ratio) * orient[c];
        if (role[other] < 0) {
          role[other] = want_role;
          orient[other] = want_orient;
          queue.push_back(other);
        } else if (role[other] != want_role || orient[other] != want_orient) {
          throw_error(
              g.node_where(J.node),
              ": the right-angle beam junctions cannot be given consistent gradient frames here "
              "(a junction cycle of odd length, or a line crossing itself); split the lines");
        }
      }
    }
  }
  // Apply orientations (reverse chains with orient -1).
  for (size_t c = 0; c < chains.size(); ++c) {
    if (orient[c] > 0) continue;
    std::reverse(chains[c].begin(), chains[c].end());
    for (int e : chains[c]) {
      BeamElement& be = beams[e];
      std::swap(be.a, be.b);
      std::swap(be.ta, be.tb);
      be.ta = scale(-1, be.ta);
      be.tb = scale(-1, be.tb);
    }
    for (auto& [key, t] : tan)
      if (key.first == static_cast<int>(c)) t = scale(-1, t);
  }

  // Mesh nodes: the file nodes lines use (file order); frames.
  std::vector<Ordinal> renumber(nfile, -1);
  Mesh mesh;
  mesh.type = ElementType::ANCF3243;
  mesh.source = path;
  Ordinal next = 0;
  std::vector<int> frame_chain(nfile, -1);  // the chain whose frame the node stores
  for (size_t n = 0; n < nfile; ++n) {
    if (node_chains[n].empty()) continue;
    renumber[n] = next++;
    int c = node_chains[n][0];
    if (node_chains[n].size() == 2 && role[c] != 0) c = node_chains[n][1];
    frame_chain[n] = c;
    const Vec3 t = tan.at({c, static_cast<Ordinal>(n)});
    const Vec3& up = chain_up[c];
    const Vec3 h = unit(mesh_text::sub(up, scale(dot(up, t), t)));  // height direction
    if (!(mesh_text::norm(cross(up, t)) > 1e-6)) {
      throw_error(g.node_where(static_cast<Ordinal>(n)),
                  ": the section up vector is parallel to the beam axis");
    }
    mesh.coefficients.push_back(g.positions_[n]);
    mesh.coefficients.push_back(t);
    if (role[c] == 0) {  // (t, h x t, h): up = r_w
      mesh.coefficients.push_back(cross(h, t));
      mesh.coefficients.push_back(h);
    } else {  // (t, h, t x h): up = r_v
      mesh.coefficients.push_back(h);
      mesh.coefficients.push_back(cross(t, h));
    }
  }
  std::vector<int> element_of(beams.size(), -1);
  Ordinal ne = 0;
  for (size_t c = 0; c < chains.size(); ++c) {
    for (int e : chains[c]) {
      const BeamElement& be = beams[e];
      element_of[e] = ne++;
      for (Ordinal n : {be.a, be.b}) {
        const Ordinal k = renumber[n];
        const int shift = frame_chain[n] == static_cast<int>(c) ? 0 : 1;
        mesh.connectivity.push_back(4 * k);
        for (int j = 0; j < 3; ++j) mesh.connectivity.push_back(4 * k + 1 + (j + shift) % 3);
      }
      const Real chord = mesh_text::norm(mesh_text::sub(g.positions_[be.b], g.positions_[be.a]));
      const Real L = arc_length(chord, tan.at({static_cast<int>(c), be.a}),
                                tan.at({static_cast<int>(c), be.b}));
      const Real W = role[c] == 0 ? be.section->width : be.section->height;
      const Real H = role[c] == 0 ? be.section->height : be.section->width;
      mesh.element_size.push_back({L, W, H});
    }
  }
  // Sets: physical points and lines -> node sets; a physical point at a beam
  // end (one element there) -> that end face.
  physical_node_sets(g, 1, renumber, mesh);
  for (const GmshElement& el : g.elements_) {
    if (el.dim != 0) continue;
    const Ordinal n = el.nodes[0];
    if (ends[n].size() != 1) continue;
    const int e = ends[n][0].first;
    const int face = beams[e].a == n ? 0 : 1;
    for (const std::string& name : g.groups_of(el))
      mesh.face_sets[name].push_back({element_of[e], face});
  }
  mesh.node_sets["all"] = mesh_text::iota_set(mesh.num_nodes());
  check_mesh(mesh);
  return mesh;
}

// ---------------------------------------------------------------------------
// ANCF 3443 from quadrangles (docs/ancf_mesh.md, "Shells from Gmsh
// quadrangles"). Every element is renumbered so that neighbours agree on the
// parametric directions: across a shared edge, the edge has the same role
// (u or v) and direction in both. Nodal r_u, r_v: mean of the unit u- / v-
// edge directions at the node (circular-arc reflection at the boundary);
// r_w = unit normal r_u x r_v / |r_u x r_v| (w is the thickness coordinate).

Mesh build_shells(const GmshRaw& g, const AncfGmshOptions& opt) {
  const std::string& path = g.f_.path();
  if (opt.shells.empty())
    throw_error(path, ": ANCF3443 needs at least one shell section (thickness)");
  for (const ShellSection& s : opt.shells) {
    if (!(s.thickness > 0))
      throw_error(path, ": section '", s.group, "': thickness must be positive");
  }
  struct Quad {
    const GmshElement* src;
    std::array<Ordinal, 4> n;                    // corners, file order
    std::array<Ordinal, 4> o{{-1, -1, -1, -1}};  // TLFEA order after orientation
    const ShellSection* section = nullptr;
  };
  std::vector<Quad> quads;
  for (const GmshElement& el : g.elements_) {
    if (el.dim == 3)
      throw_error(g.element_where(el), ": a volume element in a shell (ANCF3443) mesh");
    if (el.dim != 2) continue;
    if (el.type != 3 && el.type != 10) {
      throw_error(
          g.element_where(el), ": surface element type ", el.type,
          " is not supported for ANCF3443 (4-node quadrangles 3 or 9-node 10; recombine the mesh)");
    }
    Quad q{&el, {el.nodes[0], el.nodes[1], el.nodes[2], el.nodes[3]}};
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (q.n[a] == q.n[b])
          throw_error(g.element_where(el), ": a corner node is repeated (degenerate quadrangle)");
    const std::vector<std::string> groups = g.groups_of(el);
    for (const ShellSection& s : opt.shells) {
      if (!s.group.empty() && std::find(groups.begin(), groups.end(), s.group) == groups.end())
        continue;
      q.section = &s;
      break;
    }
    if (q.section == nullptr) {
      throw_error(g.element_where(el), ": no shell section for its physical group(s); add one");
    }
    quads.push_back(q);
  }
  if (quads.empty()) throw_error(path, ": no quadrangles (type 3 or 10) for ANCF3443 shells");
  // Edges -> (quad, file-order edge index).
  std::map<std::pair<Ordinal, Ordinal>, std::vector<int>> edge_quads;
  auto key = [](Ordinal a, Ordinal b) { return std::make_pair(std::min(a, b), std::max(a, b)); };
  for (size_t q = 0; q < quads.size(); ++q)
    for (int k = 0; k < 4; ++k)
      edge_quads[key(quads[q].n[k], quads[q].n[(k + 1) % 4])].push_back(static_cast<int>(q));
  for (const auto& [edge, qs] : edge_quads) {
    if (qs.size() > 2) {
      throw_error(g.element_where(*quads[qs[2]].src),
                  ": an edge shared by more than two quadrangles");
    }
  }
  // Orientation by breadth-first search.
  for (size_t start = 0; start < quads.size(); ++start) {
    if (quads[start].o[0] >= 0) continue;
    quads[start].o = quads[start].n;
    std::vector<int> queue = {static_cast<int>(start)};
    for (size_t qi = 0; qi < queue.size(); ++qi) {
      const Quad& A = quads[queue[qi]];
      // Local edges (i, j) of A and where they go in the neighbour B:
      // bottom (0,1) -> B's (3,2); top (3,2) -> B's (0,1); left (0,3) ->
      // B's (1,2); right (1,2) -> B's (0,3).
      static const int kEdge[4][4] = {{0, 1, 3, 2}, {3, 2, 0, 1}, {0, 3, 1, 2}, {1, 2, 0, 3}};
      for (const auto& E : kEdge) {
        const Ordinal p = A.o[E[0]], q = A.o[E[1]];
        for (int bi : edge_quads.at(key(p, q))) {
          if (bi == queue[qi]) continue;
          Quad& B = quads[bi];
          // B's file cycle: p, q adjacent. Want B.o[E[2]] = p, B.o[E[3]] = q,
          // the other two following the cycle.
          std::array<Ordinal, 4> want{{-1, -1, -1, -1}};
          int ip = 0;
          while (B.n[ip] != p) ++ip;
          const int dir = B.n[(ip + 1) % 4] == q ? 1 : 3;  // cycle direction p -> q
          // Local order around B: E[2] -> E[3] -> ... is the cycle 0-1-2-3 or reversed.
          const int lp = E[2], lq = E[3];
          const int ldir = ((lq - lp + 4) % 4 == 1) ? 1 : 3;
          for (int s = 0; s < 4; ++s) want[(lp + ldir * s) % 4] = B.n[(ip + dir * s) % 4];
          if (B.o[0] < 0) {
            B.o = want;
            queue.push_back(bi);
          } else if (B.o != want) {
            throw_error(
                g.element_where(*B.src),
                ": the quadrangle mesh cannot be oriented consistently here (ANCF3443 needs a "
                "structured mesh: every interior node shared by four quadrangles, one parametric "
                "direction per grid line; docs/ancf_mesh.md)");
          }
        }
      }
    }
  }
  // Directed u- and v-edges (from, to) per node.
  const size_t nfile = g.positions_.size();
  std::vector<std::vector<std::pair<Ordinal, Ordinal>>> uedges(nfile), vedges(nfile);
  auto add_edge = [](std::vector<std::pair<Ordinal, Ordinal>>& list, Ordinal a, Ordinal b) {
    if (std::find(list.begin(), list.end(), std::make_pair(a, b)) == list.end())
      list.push_back({a, b});
  };
  for (const Quad& q : quads) {
    for (auto [a, b] : {std::make_pair(q.o[0], q.o[1]), std::make_pair(q.o[3], q.o[2])}) {
      add_edge(uedges[a], a, b);
      add_edge(uedges[b], a, b);
    }
    for (auto [a, b] : {std::make_pair(q.o[0], q.o[3]), std::make_pair(q.o[1], q.o[2])}) {
      add_edge(vedges[a], a, b);
      add_edge(vedges[b], a, b);
    }
  }
  auto chord = [&](Ordinal a, Ordinal b) {
    return unit(mesh_text::sub(g.positions_[b], g.positions_[a]));
  };
  // Tangent of a direction family at node n: mean of the unit edges if the
  // node has an incoming and an outgoing one; else the reflection of the
  // neighbour's mean (if it has two) about the chord; else the chord.
  auto tangents = [&](const std::vector<std::vector<std::pair<Ordinal, Ordinal>>>& edges,
                      const char* which) {
    std::vector<Vec3> t(nfile, Vec3{0, 0, 0});
    std::vector<bool> interior(nfile, false);
    for (size_t n = 0; n < nfile; ++n) {
      const auto& es = edges[n];
      if (es.empty()) continue;
      if (es.size() > 2) {
        throw_error(g.node_where(static_cast<Ordinal>(n)), ": more than two ", which,
                    "-edges meet here (not a structured quadrangle mesh)");
      }
      if (es.size() == 2) {
        const bool in0 = es[0].second == static_cast<Ordinal>(n);
        const bool in1 = es[1].second == static_cast<Ordinal>(n);
        if (in0 == in1) {
          throw_error(g.node_where(static_cast<Ordinal>(n)), ": two ", which,
                      "-edges both end or both start here (inconsistent orientation)");
        }
        t[n] = unit(add(chord(es[0].first, es[0].second), chord(es[1].first, es[1].second)));
        interior[n] = true;
      }
    }
    for (size_t n = 0; n < nfile; ++n) {
      const auto& es = edges[n];
      if (es.size() != 1) continue;
      const Ordinal other = es[0].first == static_cast<Ordinal>(n) ? es[0].second : es[0].first;
      const Vec3 d = chord(es[0].first, es[0].second);
      t[n] = interior[other] ? reflect(t[other], d) : d;
    }
    return t;
  };
  const std::vector<Vec3> tu = tangents(uedges, "u");
  const std::vector<Vec3> tv = tangents(vedges, "v");
  std::vector<Ordinal> renumber(nfile, -1);
  Mesh mesh;
  mesh.type = ElementType::ANCF3443;
  mesh.source = path;
  Ordinal next = 0;
  for (size_t n = 0; n < nfile; ++n) {
    if (uedges[n].empty()) continue;
    renumber[n] = next++;
    const Vec3 nrm = unit(cross(tu[n], tv[n]));
    if (!(mesh_text::norm(cross(tu[n], tv[n])) > 1e-6)) {
      throw_error(g.node_where(static_cast<Ordinal>(n)),
                  ": the quadrangle edges here are parallel (degenerate)");
    }
    mesh.coefficients.push_back(g.positions_[n]);
    mesh.coefficients.push_back(tu[n]);
    mesh.coefficients.push_back(tv[n]);
    mesh.coefficients.push_back(nrm);
  }
  // Normals must agree across the mesh: the orientation search keeps them
  // continuous; a fold (normals of neighbours opposite) shows as a negative
  // reference volume when the element geometry is built.
  std::map<std::pair<Ordinal, Ordinal>, std::vector<std::pair<Ordinal, int>>> edge_faces;
  for (size_t qi = 0; qi < quads.size(); ++qi) {
    const Quad& q = quads[qi];
    const Ordinal e = static_cast<Ordinal>(qi);
    for (int k = 0; k < 4; ++k) {
      const Ordinal nd = renumber[q.o[k]];
      for (int j = 0; j < 4; ++j) mesh.connectivity.push_back(4 * nd + j);
    }
    // Arc lengths of the two u-edges and the two v-edges; they must agree
    // (one L, one W per element) for the element edges to conform.
    auto len = [&](Ordinal a, Ordinal b, const std::vector<Vec3>& t) {
      return arc_length(mesh_text::norm(mesh_text::sub(g.positions_[b], g.positions_[a])), t[a],
                        t[b]);
    };
    const Real L0 = len(q.o[0], q.o[1], tu), L1 = len(q.o[3], q.o[2], tu);
    const Real W0 = len(q.o[0], q.o[3], tv), W1 = len(q.o[1], q.o[2], tv);
    if (std::fabs(L0 - L1) > 1e-3 * std::max(L0, L1) ||
        std::fabs(W0 - W1) > 1e-3 * std::max(W0, W1)) {
      throw_error(g.element_where(*q.src), ": opposite edges differ in length (", L0, " vs ", L1,
                  ", ", W0, " vs ", W1,
                  "); ANCF3443 has one length and one width per element, so the edges of "
                  "neighbours would not conform (docs/ancf_mesh.md)");
    }
    mesh.element_size.push_back({(L0 + L1) / 2, (W0 + W1) / 2, q.section->thickness});
    mesh.face_sets["top"].push_back({e, 5});
    mesh.face_sets["bottom"].push_back({e, 4});
    for (const std::string& name : g.groups_of(*q.src)) mesh.face_sets[name].push_back({e, 5});
    // Edge faces: f0 xi = -1 (0,3), f1 xi = +1 (1,2), f2 eta = -1 (0,1), f3 eta = +1 (3,2).
    static const int kFace[4][3] = {{0, 3, 0}, {1, 2, 1}, {0, 1, 2}, {3, 2, 3}};
    for (const auto& F : kFace) edge_faces[key(q.o[F[0]], q.o[F[1]])].push_back({e, F[2]});
  }
  physical_node_sets(g, 2, renumber, mesh);
  for (const GmshElement& el : g.elements_) {
    if (el.dim != 1 || el.nodes.size() < 2) continue;
    const std::vector<std::string> groups = g.groups_of(el);
    if (groups.empty()) continue;
    const auto it = edge_faces.find(key(el.nodes[0], el.nodes[1]));
    if (it == edge_faces.end()) {
      throw_error(g.element_where(el), " of physical curve '", groups[0],
                  "' is no quadrangle edge");
    }
    for (const std::string& name : groups)
      for (const auto& [e, fa] : it->second) mesh.face_sets[name].push_back({e, fa});
  }
  for (auto& [name, list] : mesh.face_sets) {
    std::sort(list.begin(), list.end(), [](const FaceRef& a, const FaceRef& b) {
      return a.element != b.element ? a.element < b.element : a.face < b.face;
    });
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  mesh.node_sets["all"] = mesh_text::iota_set(mesh.num_nodes());
  check_mesh(mesh);
  return mesh;
}

}  // namespace

Mesh read_gmsh_ancf(const std::string& path, ElementType type, const AncfGmshOptions& options) {
  GmshRaw g(path);
  g.read();
  if (type == ElementType::ANCF3243) return build_beams(g, options);
  if (type == ElementType::ANCF3443) return build_shells(g, options);
  throw_error(path, ": read_gmsh_ancf makes ANCF3243 or ANCF3443 meshes, not ", to_string(type));
}

}  // namespace tlfea
