// TLFEA: ANCF 3243 beam meshes from Gmsh line elements (docs/ancf_mesh.md,
// "Beams from Gmsh lines"): chains, unit tangents and arc-length element
// lengths (ancf_geometry.hpp), sections and node sets.
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
using ancf_geometry::dot;
using ancf_geometry::is_unit;
using ancf_geometry::kPi;
using ancf_geometry::reflect;
using ancf_geometry::scale;
using ancf_geometry::unit;
using mesh_text::Line;
using mesh_text::Vec3;
using mesh_text::where;

// ANCF 3243 from line elements (docs/ancf_mesh.md, "Beams from Gmsh lines").

namespace {

struct BeamElement {
  const GmshElement* src = nullptr;
  Ordinal a = -1, b = -1;  // end nodes (file indices), a -> b along the chain
  Vec3 ta{}, tb{};         // unit tangents at a and b pointing a -> b (from the geometry)
  bool curved = false;     // 3-node line: ta, tb from the quadratic
  const BeamSection* section = nullptr;
  int chain = -1;
};

}  // namespace

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
    be.section = section_for(opt.beams, groups);
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
    // Tangent at the chain end `end` of element e (`inner` its other node):
    // e's own where it is curved or alone, else the circular-arc reflection of
    // the tangent at `inner` about e's chord.
    const auto set_end = [&](const BeamElement& e, Ordinal end, Ordinal inner, const Vec3& own) {
      if (e.curved || ch.size() == 1) {
        set_tan(ci, end, own);
      } else {
        const Vec3 chord = unit(mesh_text::sub(g.positions_[e.b], g.positions_[e.a]));
        set_tan(ci, end, reflect(tan.at({ci, inner}), chord));
      }
    };
    set_end(f, f.a, f.b, f.ta);
    set_end(l, l.b, l.a, l.tb);
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

}  // namespace tlfea::ancf_gmsh
