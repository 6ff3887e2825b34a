// TLFEA scene: joints and basic constraints (docs/scene.md, "joints"):
// spherical, universal, revolute, fixed, cylindrical, prismatic with drives,
// and the DP1, DP2, distance and coordinate-difference constraints.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "builder.hpp"

namespace tlfea::scene::detail {

MaterialPoint Builder::point_on(int body, const YAML::Node& n, const std::string& what,
                                const std::string& joint) {
  const Vec3 X = to_vec3(c_, n, what);
  if (body < 0) return ground_point(X);
  try {
    return find_material_point(s_.model->block(bodies_[body].id), q0_, X);
  } catch (const Error&) {
    fail(c_, n,
         "joint '" + joint + "': point (" + Map::fmt(X[0]) + ", " + Map::fmt(X[1]) + ", " +
             Map::fmt(X[2]) + ") is outside body '" + bodies_[body].name + "'");
  }
}

void Builder::add_joint(const YAML::Node& node, int index) {
  Map m(c_, node, "joints[" + std::to_string(index) + "]");
  const std::string name = m.str("name", "joint" + std::to_string(index));
  const std::string type = m.choice("type",
                                    {"spherical", "universal", "revolute", "fixed", "cylindrical",
                                     "prismatic", "dp1", "dp2", "dist", "cd", "coupling"},
                                    "");
  const int bi = body_index(m.req("body_i"), m.key("body_i"), true);
  const int bj = m.has("body_j") ? body_index(m.get("body_j"), m.key("body_j"), true) : -1;
  if (bi == bj) fail(c_, m.node(), "joint '" + name + "': body_i and body_j are the same");
  ConstraintSet& cs = s_.model->constraints();
  RowRange rows;
  rows.first = cs.num_rows();
  const std::string jw = "joint '" + name + "'";
  try {
    if (type == "coupling") {
      // A node set of body_i coupled to body_j (docs/scene.md "Couplings").
      if (bi < 0)
        fail(c_, m.get("body_i"),
             jw + ": body_i of a coupling is the body whose nodes are coupled, not the ground");
      if (bodies_[bi].rigid)
        fail(c_, m.get("body_i"),
             jw + ": body_i '" + bodies_[bi].name +
                 "' is rigid (no nodes to couple); make it body_j and the deformable body body_i");
      Model::CouplingSpec spec;
      spec.form = m.choice("form", {"kinematic", "distributing"}, "kinematic") == "kinematic"
                      ? Model::CouplingSpec::Form::kinematic
                      : Model::CouplingSpec::Form::distributing;
      spec.rotation = m.choice("dofs", {"position", "position+rotation"}, "position") != "position";
      std::vector<Ordinal> nodes;
      if (m.has("set") && m.get("set").IsSequence()) {
        // Several node sets: their union.
        if (m.has("box") || m.has("plane") || m.has("nodes"))
          fail(c_, m.node(), jw + ": give exactly one selector: set, box, plane or nodes");
        const YAML::Node l = m.get("set");
        const Mesh& mesh = bodies_[bi].mesh;
        for (size_t k = 0; k < l.size(); ++k) {
          const std::string set = to_string(c_, l[k], m.key("set"));
          auto it = mesh.node_sets.find(set);
          if (it == mesh.node_sets.end()) {
            std::vector<std::string> names;
            for (const auto& kv : mesh.node_sets) names.push_back(kv.first);
            fail(c_, l[k],
                 jw + ": unknown node set '" + set + "' of body '" + bodies_[bi].name +
                     "' (sets: " + Map::join(names) + ")");
          }
          nodes.insert(nodes.end(), it->second.begin(), it->second.end());
        }
        std::sort(nodes.begin(), nodes.end());
        nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
      } else {
        nodes = select(m, bodies_[bi]);
      }
      if (nodes.empty()) fail(c_, m.node(), jw + ": the selector chooses no nodes");
      const int idj = bj < 0 ? -1 : bodies_[bj].id;
      s_.model->add_coupling(bodies_[bi].id, nodes, idj, spec);
    } else if (type == "dp1" || type == "dp2" || type == "dist" || type == "cd") {
      auto pair = [&](const std::string& k, int body) {
        const YAML::Node p = m.req(k);
        if (!p.IsSequence() || p.size() != 2)
          fail(c_, p, m.key(k) + ": expected two points [[x, y, z], [x, y, z]]");
        return std::make_pair(point_on(body, p[0], m.key(k), name),
                              point_on(body, p[1], m.key(k), name));
      };
      std::optional<TimeFunctionSpec> f;
      if (m.has("function")) f = parse_function(c_, m.get("function"), m.key("function"));
      auto drive = [&](Real ref) {
        if (!f) return DrivingFunction::constant(ref);
        const TimeFunctionSpec g = *f;
        return DrivingFunction::function([g](Real t) { return g(t); });
      };
      auto pos = [&](const MaterialPoint& p) { return cs.reference_position(p); };
      auto diff = [&](const MaterialPoint& a, const MaterialPoint& b) {
        const Vec3 x = pos(a), y = pos(b);
        return Vec3{{y[0] - x[0], y[1] - x[1], y[2] - x[2]}};
      };
      if (type == "dp1") {
        const auto a = pair("a", bi), b = pair("b", bj);
        cs.add_dp1(a.first, a.second, b.first, b.second,
                   drive(dot(diff(a.first, a.second), diff(b.first, b.second))));
      } else if (type == "dp2") {
        const auto a = pair("a", bi);
        const MaterialPoint R = point_on(bi, m.req("point_i"), m.key("point_i"), name);
        const MaterialPoint S = point_on(bj, m.req("point_j"), m.key("point_j"), name);
        cs.add_dp2(a.first, a.second, R, S, drive(dot(diff(a.first, a.second), diff(R, S))));
      } else {
        const MaterialPoint P = point_on(bi, m.req("point_i"), m.key("point_i"), name);
        const MaterialPoint Q = point_on(bj, m.req("point_j"), m.key("point_j"), name);
        if (type == "dist") {
          const Vec3 d = diff(P, Q);
          cs.add_dist(P, Q, drive(std::sqrt(dot(d, d))));
        } else {
          const Vec3 dir = m.vec3_req("direction");
          const Real len = std::sqrt(dot(dir, dir));
          if (len == 0.0) fail(c_, m.node()["direction"], m.key("direction") + " is zero");
          cs.add_cd(P, Q, dir, drive(dot(dir, diff(P, Q)) / len));
        }
      }
    } else {
      const YAML::Node pn = m.req("point");
      const Vec3 X = to_vec3(c_, pn, m.key("point"));
      const bool needs_axis = type != "spherical";
      const Vec3 axis = needs_axis ? m.vec3_req("axis") : m.vec3("axis", Vec3{{0, 0, 1}});
      if (dot(axis, axis) == 0.0) fail(c_, m.node()["axis"], m.key("axis") + " is zero");
      const Vec3 axis_j = m.vec3("axis_j", axis);
      if (type == "universal" && !m.has("axis_j"))
        fail(c_, m.node(),
             jw + ": a universal joint needs axis_j (the second cross-pin axis, "
                  "normal to axis)");
      const bool has_cross = m.has("cross");
      const Vec3 cr = m.vec3("cross", Vec3{{0, 0, 0}});
      Real fiber = 0.0;
      for (int b : {bi, bj})
        if (b >= 0)
          fiber = fiber == 0.0 ? bodies_[b].min_size : std::min(fiber, bodies_[b].min_size);
      fiber = m.positive("fiber", fiber > 0 ? 0.25 * fiber : 0.01);
      std::optional<TimeFunctionSpec> drive;
      if (m.has("drive")) {
        if (type != "revolute" && type != "cylindrical" && type != "prismatic")
          fail(c_, m.node()["drive"],
               jw + ": only revolute, cylindrical (angle) and prismatic "
                    "(displacement) joints take a drive");
        drive = parse_function(c_, m.get("drive"), m.key("drive"));
      }
      auto frame = [&](int b, const Vec3& ax) {
        if (b < 0)
          return has_cross ? ground_joint_frame(X, ax, cr, fiber)
                           : ground_joint_frame(X, ax, fiber);
        try {
          const ElementBlockBase& blk = s_.model->block(bodies_[b].id);
          return has_cross ? body_joint_frame(blk, q0_, X, ax, cr, fiber)
                           : body_joint_frame(blk, q0_, X, ax, fiber);
        } catch (const Error& e) {
          fail(c_, pn,
               jw + ": point (" + Map::fmt(X[0]) + ", " + Map::fmt(X[1]) + ", " + Map::fmt(X[2]) +
                   ") with fibres of " + Map::fmt(fiber) + " m is outside body '" +
                   bodies_[b].name + "' (" + e.what() + ")");
        }
      };
      const JointFrame fi = frame(bi, axis), fj = frame(bj, axis_j);
      if (type == "spherical")
        cs.add_spherical(fi, fj);
      else if (type == "universal")
        cs.add_universal(fi, fj);
      else if (type == "revolute")
        cs.add_revolute(fi, fj);
      else if (type == "fixed")
        cs.add_fixed(fi, fj);
      else if (type == "cylindrical")
        cs.add_cylindrical(fi, fj);
      else
        cs.add_prismatic(fi, fj);
      if (drive) {
        const TimeFunctionSpec g = *drive;
        auto vec = [&](const MaterialPoint& a, const MaterialPoint& b) {
          const Vec3 x = cs.reference_position(a), y = cs.reference_position(b);
          return Vec3{{y[0] - x[0], y[1] - x[1], y[2] - x[2]}};
        };
        const Real n = std::sqrt(dot(axis, axis));
        const Vec3 u{{axis[0] / n, axis[1] / n, axis[2] / n}};
        if (type == "prismatic") {
          // DP2: a = axis fibre of i, d = origin_j - origin_i: a . d = (a0 . u) s(t).
          const Real au = dot(vec(fi.origin, fi.axis), u);
          cs.add_dp2(fi.origin, fi.axis, fi.origin, fj.origin,
                     DrivingFunction::function([g, au](Real t) { return au * g(t); }));
        } else {
          // Body j turned by theta(t) about u relative to i: the rotation
          // driver's two DP1 rows (cos and sin forms) keep full rank at every
          // angle, so the drive may turn through any number of revolutions.
          cs.add_rotation_driver(fi, fj, u,
                                 DrivingFunction::function([g](Real t) { return g(t); }));
        }
      }
    }
  } catch (const Error& e) {
    const std::string msg = e.what();
    if (msg.rfind(c_.file + ":", 0) == 0) throw;
    fail(c_, node, jw + ": " + msg);
  }
  m.done();
  rows.count = cs.num_rows() - rows.first;
  s_.joints.emplace_back(name, rows);
}

// A translational spring-damper between point_i on body_i and point_j on
// body_j (or the ground): docs/scene.md "springs[]", docs/theory.md §11.
void Builder::add_spring(const YAML::Node& node, int index) {
  Map m(c_, node, "springs[" + std::to_string(index) + "]");
  const std::string name = m.str("name", "spring" + std::to_string(index));
  const std::string type = m.choice("type", {"translational", "rotational"}, "translational");
  const int bi = body_index(m.req("body_i"), m.key("body_i"), true);
  const int bj = m.has("body_j") ? body_index(m.get("body_j"), m.key("body_j"), true) : -1;
  if (bi < 0 && bj < 0)
    fail(c_, m.node(), "spring '" + name + "': body_i and body_j are both the ground");
  if (type == "rotational") {
    // Between two frames (rigid bodies' directors, ANCF nodes' gradients
    // (node_i / node_j), or the ground) about `axis` (docs/theory.md §11.2):
    // theta of body j's vector a_j relative to body i's a_i about the axis
    // u, all three fixed in their frames.
    std::array<long, 2> frame_node{{-1, -1}};
    for (int side = 0; side < 2; ++side) {
      const int b = side == 0 ? bi : bj;
      const std::string nk = side == 0 ? "node_i" : "node_j";
      if (m.has(nk)) {
        if (b < 0 || bodies_[b].rigid)
          fail(c_, m.get(nk),
               "spring '" + name + "': " + m.key(nk) + " names an ANCF node's frame; body " +
                   (b < 0 ? std::string("ground") : "'" + bodies_[b].name + "' (rigid)") +
                   " has no nodes (its frame is used without " + nk + ")");
        if (bodies_[b].mesh.coefficients_per_node() != 4)
          fail(c_, m.get(nk),
               "spring '" + name + "': " + m.key(nk) + ": body '" + bodies_[b].name +
                   "' has no node frames (only ANCF nodes carry gradients)");
        const long n = m.integer(nk, -1);
        if (n < 0 || n >= bodies_[b].mesh.num_nodes())
          fail(c_, m.get(nk),
               m.key(nk) + ": node " + std::to_string(n) + " out of range (body '" +
                   bodies_[b].name + "' has " + std::to_string(bodies_[b].mesh.num_nodes()) +
                   " nodes)");
        frame_node[side] = n;
      } else if (b >= 0 && !bodies_[b].rigid) {
        fail(c_, m.node(),
             "spring '" + name +
                 "': a rotational spring-damper joins rigid bodies (or one and "
                 "the ground) or ANCF node frames; body '" +
                 bodies_[b].name + "' is deformable: give " + nk +
                 " (the ANCF node whose gradients are the frame)");
      }
    }
    const Vec3 u = m.vec3_req("axis");
    const Real nu = std::sqrt(dot(u, u));
    if (!(nu > 0.0)) fail(c_, m.get("axis"), m.key("axis") + " is zero");
    const Vec3 un{{u[0] / nu, u[1] / nu, u[2] / nu}};
    // A reference vector normal to the axis: the first candidate not within
    // |cos| 0.9 of u, made normal to u. Candidates: for an ANCF node frame
    // its reference gradients g_3, g_2, g_1 (the cross-section or thickness
    // directors first: a torque on them is a couple on the section, where
    // one on the axial gradient g_1 of a beam node is a local load along
    // the axis), then e_x, e_y.
    std::vector<Vec3> candidates;
    for (int side = 0; side < 2 && candidates.empty(); ++side) {
      if (frame_node[side] < 0) continue;
      const Mesh& mesh = bodies_[side == 0 ? bi : bj].mesh;
      for (int k = 3; k >= 1; --k) {
        const auto& g = mesh.coefficients[4 * frame_node[side] + k];
        const Real ng = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        if (ng > 0.0) candidates.push_back(Vec3{{g[0] / ng, g[1] / ng, g[2] / ng}});
      }
    }
    candidates.push_back(Vec3{{1.0, 0.0, 0.0}});
    candidates.push_back(Vec3{{0.0, 1.0, 0.0}});
    Vec3 a = candidates.back();
    for (const Vec3& cand : candidates)
      if (std::fabs(dot(un, cand)) < 0.9) {
        a = cand;
        break;
      }
    const Real ua = dot(un, a);
    for (int r = 0; r < 3; ++r) a[r] -= ua * un[r];
    const Real na = std::sqrt(dot(a, a));
    for (int r = 0; r < 3; ++r) a[r] /= na;
    RotationalSpringDamperSpec spec;
    spec.stiffness = m.nonnegative("stiffness", 0.0);
    spec.damping = m.nonnegative("damping", 0.0);
    spec.angle0 = m.num("rest_angle", 0.0);
    if (!(std::fabs(spec.angle0) < M_PI))
      fail(c_, m.get("rest_angle"), m.key("rest_angle") + " must lie in (-pi, pi)");
    m.done();
    Model& model = *s_.model;
    const int ii = bi < 0 ? -1 : bodies_[bi].id, jj = bj < 0 ? -1 : bodies_[bj].id;
    // The vector of side i or j that is w in the reference configuration.
    auto vector = [&](int id, long node, const Vec3& w) {
      return node >= 0 ? model.node_vector(id, static_cast<Ordinal>(node), w)
                       : model.rigid_vector(id, w);
    };
    try {
      model.add_rotational_spring_damper(vector(ii, frame_node[0], un),
                                         vector(ii, frame_node[0], a), vector(jj, frame_node[1], a),
                                         spec);
    } catch (const Error& e) {
      fail(c_, m.node(), "spring '" + name + "': " + e.what());
    }
    s_.springs.push_back(name);
    return;
  }
  const MaterialPoint a = point_on(bi, m.req("point_i"), m.key("point_i"), name);
  const MaterialPoint b = point_on(bj, m.req("point_j"), m.key("point_j"), name);
  const Vec3 xa = to_vec3(c_, m.get("point_i"), m.key("point_i"));
  const Vec3 xb = to_vec3(c_, m.get("point_j"), m.key("point_j"));
  const Vec3 d{{xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]}};
  SpringDamperSpec spec;
  spec.rest_length = m.nonnegative("rest_length", std::sqrt(dot(d, d)));
  spec.damping = m.nonnegative("damping", 0.0);
  spec.preload = m.num("preload", 0.0);
  if (m.has("table")) {
    if (m.has("stiffness"))
      fail(c_, m.get("stiffness"),
           "spring '" + name + "': give stiffness or table (force-deflection), not both");
    const YAML::Node t = m.get("table");
    if (!t.IsSequence() || t.size() < 2)
      fail(c_, t, m.key("table") + ": expected at least two rows [deflection, force]");
    for (size_t r = 0; r < t.size(); ++r) {
      const std::string w = m.key("table") + "[" + std::to_string(r) + "]";
      if (!t[r].IsSequence() || t[r].size() != 2)
        fail(c_, t[r], w + ": expected [deflection, force]");
      const Real x = to_real(c_, t[r][0], w), F = to_real(c_, t[r][1], w);
      if (r > 0 && !(x > spec.table.back().first))
        fail(c_, t[r], w + ": deflections must increase strictly");
      spec.table.push_back({x, F});
    }
  } else {
    spec.stiffness = m.nonnegative("stiffness", 0.0);
  }
  if (!(spec.rest_length > 0.0) && spec.stiffness > 0.0)
    fail(c_, m.node(),
         "spring '" + name +
             "': rest length 0 (the points coincide, or rest_length: 0): a spring's direction is "
             "undefined at zero length; give a positive rest_length");
  m.done();
  try {
    s_.model->add_spring_damper(a, b, spec);
  } catch (const Error& e) {
    fail(c_, m.node(), "spring '" + name + "': " + e.what());
  }
  s_.springs.push_back(name);
}

}  // namespace tlfea::scene::detail
