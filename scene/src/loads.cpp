// TLFEA scene: a body's loads (docs/scene.md): point and nodal forces,
// tractions, pressures and torques, each with an optional time function.
#include "builder.hpp"

namespace tlfea::scene::detail {

// The loads: list of a body.
void Builder::add_loads(Map& m, const BodyData& b, const std::string& what) {
  Model& model = *s_.model;
  for_each_entry(m, "loads", what, "a list", [&](Map& lm, size_t) {
    const std::string type =
        lm.choice("type", {"point_force", "nodal_force", "traction", "pressure", "torque"}, "");
    TimeFunction amp;
    if (lm.has("function")) {
      const TimeFunctionSpec f = parse_function(c_, lm.get("function"), lm.key("function"));
      amp = [f](Real t) { return f(t); };
    }
    if (type == "torque") {
      // A torque (world axes) on a rigid body (docs/theory.md §10.4).
      if (!b.rigid)
        fail(c_, lm.node()["type"], lm.key("type") + ": a torque acts on rigid bodies only");
      model.add_torque(b.id, lm.vec3_req("torque"), amp);
    } else if (type == "nodal_force") {
      // On the position coefficient of every selected node: `force` each,
      // or `total_force` split equally.
      const std::vector<Ordinal> nodes = select(lm, b);
      if (lm.has("force") == lm.has("total_force"))
        fail(c_, lm.node(), lm.what() + ": give either force (per node) or total_force");
      Vec3 F = lm.has("force") ? lm.vec3_req("force") : lm.vec3_req("total_force");
      if (lm.has("total_force"))
        for (int a = 0; a < 3; ++a) F[a] /= static_cast<Real>(nodes.size());
      for (Ordinal n : nodes) model.add_nodal_force(b.id, n, F, amp);
    } else if (type == "point_force") {
      const Vec3 X = lm.vec3_req("position"), F = lm.vec3_req("force");
      Ordinal e = -1;
      Real xi[3];
      if (!locate_material_point(model.block(b.id), q0_, X, e, xi))
        fail(c_, lm.node()["position"],
             lm.key("position") + ": point (" + Map::fmt(X[0]) + ", " + Map::fmt(X[1]) + ", " +
                 Map::fmt(X[2]) + ") is outside body '" + b.name + "'");
      model.add_point_force(b.id, e, xi, F, amp);
    } else {
      const std::string set = lm.str_req("faces");
      if (!b.mesh.face_sets.count(set)) {
        std::vector<std::string> names;
        for (const auto& kv : b.mesh.face_sets) names.push_back(kv.first);
        fail(c_, lm.node()["faces"],
             lm.key("faces") + ": unknown face set '" + set + "' of body '" + b.name +
                 "' (face sets: " + Map::join(names) + ")");
      }
      if (type == "traction")
        model.add_traction(b.id, set, lm.vec3_req("traction"), amp);
      else
        model.add_pressure(b.id, set, lm.num_req("pressure"), amp);
    }
    lm.done();
  });
}

}  // namespace tlfea::scene::detail
