// TLFEA: ANCF 3443 shell meshes from Gmsh quadrangles (docs/ancf_mesh.md,
// "Shells from Gmsh quadrangles"): consistent parametric directions, nodal
// gradients (ancf_geometry.hpp), sections and node sets.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ancf_geometry.hpp"
#include "mesh_ancf_gmsh.hpp"
#include "mesh_text.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/mesh_io.hpp"

namespace tlfea::ancf_gmsh {

using ancf_geometry::add;
using ancf_geometry::arc_length;
using ancf_geometry::cross;
using ancf_geometry::reflect;
using ancf_geometry::unit;
using mesh_text::Line;
using mesh_text::Vec3;
using mesh_text::where;

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
    q.section = section_for(opt.shells, groups);
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

}  // namespace tlfea::ancf_gmsh
