// TLFEA: ANCF 3243 / 3443 meshes in the plain text format *.ancf (mesh_io.hpp,
// docs/ancf_mesh.md): reading with line-numbered errors, and writing.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>
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

}  // namespace tlfea
