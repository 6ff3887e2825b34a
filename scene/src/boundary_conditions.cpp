// TLFEA scene: node selectors (set, box, plane, nodes) and a body's
// boundary conditions: clamped nodes, symmetry planes and prescribed motions
// (docs/scene.md).
#include <array>
#include <cmath>

#include "builder.hpp"

namespace tlfea::scene::detail {

// Nodes of a body chosen by a selector (set / box / plane / nodes).
std::vector<Ordinal> Builder::select(Map& m, const BodyData& b) {
  const std::string what = m.what();
  int kinds = m.has("set") + m.has("box") + m.has("plane") + m.has("nodes");
  if (kinds != 1)
    fail(c_, m.node(), what + ": give exactly one selector: set, box, plane or nodes");
  std::vector<Ordinal> nodes;
  if (m.has("set")) {
    const std::string set = m.str("set", "");
    auto it = b.mesh.node_sets.find(set);
    if (it == b.mesh.node_sets.end()) {
      std::vector<std::string> names;
      for (const auto& kv : b.mesh.node_sets) names.push_back(kv.first);
      fail(c_, m.node()["set"],
           what + ": unknown node set '" + set + "' of body '" + b.name +
               "' (sets: " + Map::join(names) + ")");
    }
    nodes = it->second;
  } else if (m.has("box")) {
    Map bm(c_, m.get("box"), what + ".box");
    const Vec3 lo = bm.vec3_req("min"), hi = bm.vec3_req("max");
    bm.done();
    for (Ordinal n = 0; n < b.mesh.num_nodes(); ++n) {
      const auto& x = b.mesh.node_position(n);
      bool in = true;
      for (int a = 0; a < 3; ++a) in = in && x[a] >= lo[a] && x[a] <= hi[a];
      if (in) nodes.push_back(n);
    }
  } else if (m.has("plane")) {
    Map pm(c_, m.get("plane"), what + ".plane");
    const Vec3 p = pm.vec3_req("point"), nrm = pm.vec3_req("normal");
    const Real tol = pm.num("tolerance", 1e-9);
    const Real len = std::sqrt(dot(nrm, nrm));
    if (len == 0.0) fail(c_, pm.node()["normal"], what + ".plane.normal is zero");
    pm.done();
    for (Ordinal n = 0; n < b.mesh.num_nodes(); ++n) {
      const auto& x = b.mesh.node_position(n);
      const Real d =
          ((x[0] - p[0]) * nrm[0] + (x[1] - p[1]) * nrm[1] + (x[2] - p[2]) * nrm[2]) / len;
      if (std::fabs(d) <= tol) nodes.push_back(n);
    }
  } else {
    const YAML::Node l = m.get("nodes");
    if (!l.IsSequence()) fail(c_, l, what + ".nodes: expected a list of node ids");
    for (size_t i = 0; i < l.size(); ++i) {
      const long id = to_int(c_, l[i], what + ".nodes");
      if (id < 0 || id >= b.mesh.num_nodes())
        fail(c_, l[i],
             what + ".nodes: node " + std::to_string(id) + " out of range (body '" + b.name +
                 "' has " + std::to_string(b.mesh.num_nodes()) + " nodes)");
      nodes.push_back(static_cast<Ordinal>(id));
    }
  }
  if (nodes.empty()) fail(c_, m.node(), what + ": selects no node of body '" + b.name + "'");
  return nodes;
}

void Builder::body_conditions(Map& m, int index) {
  BodyData& b = bodies_[index];
  const std::string what = "body '" + b.name + "'";
  Model& model = *s_.model;
  for_each_entry(m, "clamp", what, "a list of selectors", [&](Map& cm, size_t) {
    const std::vector<Ordinal> nodes = select(cm, b);
    const bool grads = cm.boolean("gradients", true);
    cm.done();
    model.clamp_nodes(b.id, nodes, grads);
  });
  // Symmetry planes normal to a coordinate axis e_a (docs/scene.md): a node on
  // the plane keeps x_a; each ANCF gradient d keeps its reflection symmetry,
  // F commuting with the reflection I - 2 e_a e_a^T: a gradient in the plane
  // (d_a = 0) stays in it (d_a fixed), one along e_a stays along it (the
  // other two components fixed); an oblique gradient has no such condition.
  for_each_entry(m, "symmetry", what, "a list of {plane: {point, normal}}", [&](Map& sm, size_t) {
    if (b.rigid) fail(c_, sm.node(), sm.what() + ": symmetry applies to deformable bodies");
    if (!sm.has("plane")) fail(c_, sm.node(), sm.what() + ": give plane: {point, normal}");
    const Vec3 nrm = Map(c_, sm.get("plane"), sm.key("plane")).vec3_req("normal");
    const Real len = std::sqrt(dot(nrm, nrm));
    int axis = -1;
    for (int a = 0; a < 3; ++a)
      if (len > 0.0 && std::fabs(std::fabs(nrm[a]) - len) <= 1e-12 * len) axis = a;
    if (axis < 0)
      fail(c_, sm.node()["plane"],
           sm.what() +
               ".plane.normal must be along x, y or z (a symmetry plane normal to a "
               "coordinate axis)");
    const std::vector<Ordinal> nodes = select(sm, b);  // checks the plane's keys
    sm.done();
    const int cpn = b.mesh.coefficients_per_node();
    const char* names[4] = {"r", "r_u", "r_v", "r_w"};
    for (Ordinal n : nodes) {
      std::array<bool, 3> along{false, false, false};
      along[axis] = true;
      model.fix_components(b.id, n, 0, along);
      for (int k = 1; k < cpn; ++k) {
        const auto& d = b.mesh.coefficients[static_cast<size_t>(n) * cpn + k];
        const Real dn = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        const Real normal_part = std::fabs(d[axis]),
                   in_plane = std::sqrt(dn * dn - d[axis] * d[axis]);
        if (normal_part <= 1e-9 * dn)
          model.fix_components(b.id, n, k, along);
        else if (in_plane <= 1e-9 * dn)
          model.fix_components(b.id, n, k, {axis != 0, axis != 1, axis != 2});
        else
          fail(c_, sm.node(),
               sm.what() + ": gradient " + names[k] + " of node " + std::to_string(n) +
                   " is oblique to the symmetry plane (neither in it nor normal to it)");
      }
    }
  });
  // Per node: 1 + the prescribe entry that prescribed it, 0 if none (one
  // look-up per node; Model::prescribe_coefficient would only say "twice").
  std::vector<int> by(static_cast<size_t>(b.mesh.num_nodes()), 0);
  for_each_entry(m, "prescribe", what, "a list", [&](Map& pm, size_t i) {
    const std::vector<Ordinal> nodes = select(pm, b);
    for (Ordinal n : nodes) {
      if (by[n] == static_cast<int>(i) + 1)
        fail(c_, pm.node(), pm.what() + ": selects node " + std::to_string(n) + " twice");
      if (by[n] > 0)
        fail(c_, pm.node(),
             pm.what() + ": node " + std::to_string(n) + " is already prescribed by " + what +
                 ".prescribe[" + std::to_string(by[n] - 1) + "]");
      by[n] = static_cast<int>(i) + 1;
    }
    const Vec3 d = pm.vec3("displacement", Vec3{{0, 0, 0}});
    TimeFunctionSpec f;
    if (pm.has("function")) f = parse_function(c_, pm.get("function"), pm.key("function"));
    Vec3 axis{{0, 0, 1}}, point{{0, 0, 0}};
    TimeFunctionSpec angle;
    angle.value = 0.0;
    bool rot = false;
    if (pm.has("rotation")) {
      Map rm(c_, pm.get("rotation"), pm.key("rotation"));
      axis = rm.vec3_req("axis");
      if (dot(axis, axis) == 0.0) fail(c_, rm.node()["axis"], rm.key("axis") + " is zero");
      point = rm.vec3("point", point);
      angle = parse_function(c_, rm.req("angle"), rm.key("angle"));
      rm.done();
      rot = true;
    }
    pm.done();
    const int cpn = b.mesh.coefficients_per_node();
    for (Ordinal n : nodes) {
      model.prescribe_coefficient(b.id, n, 0, [=](Real t, const Vec3& X) {
        const Real ft = f(t);
        Vec3 x = X;
        if (rot) {
          const Vec3 r{{X[0] - point[0], X[1] - point[1], X[2] - point[2]}};
          const Vec3 y = axis_angle_rotation(axis, angle(t)) * r;
          for (int a = 0; a < 3; ++a) x[a] = point[a] + y[a];
        }
        for (int a = 0; a < 3; ++a) x[a] += d[a] * ft;
        return x;
      });
      for (int k = 1; k < cpn; ++k)
        model.prescribe_coefficient(b.id, n, k, [=](Real t, const Vec3& G) {
          return rot ? axis_angle_rotation(axis, angle(t)) * G : G;
        });
    }
  });
  add_loads(m, b, what);
}

}  // namespace tlfea::scene::detail
