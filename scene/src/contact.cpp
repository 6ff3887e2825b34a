// TLFEA scene: the contact section (docs/scene.md, "contact"): contact
// bodies, the law's defaults, detection settings, contact properties of
// bodies and obstacles, per-pair overrides, and the step-force hook.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "builder.hpp"

namespace tlfea::scene::detail {

// Contact properties of a body's contact_material or an obstacle entry
// (docs/scene.md, "contact"): keys absent leave cm unchanged. E > 0,
// nu in (-1, 0.5) (elastic: a body's contact_material), restitution in
// (0, 1], mu_s, mu_k in [0, kMaxFriction] with mu_k <= mu_s when both given.
void Builder::read_contact_properties(Map& m, ContactMaterial& cm, bool elastic) {
  if (elastic && m.has("E")) {
    cm.E = m.num("E", 0.0);
    if (!(cm.E > 0.0))
      fail(c_, m.node()["E"], m.key("E") + " must be positive, got " + Map::fmt(cm.E));
  }
  if (elastic && m.has("nu")) {
    cm.nu = m.num("nu", 0.0);
    if (!(cm.nu > -1.0 && cm.nu < 0.5))
      fail(c_, m.node()["nu"], m.key("nu") + " must be in (-1, 0.5), got " + Map::fmt(cm.nu));
  }
  if (m.has("restitution")) {
    cm.restitution = m.num("restitution", 0.5);
    if (!(cm.restitution > 0.0 && cm.restitution <= 1.0))
      fail(c_, m.node()["restitution"],
           m.key("restitution") + " must be in (0, 1], got " + Map::fmt(cm.restitution));
  }
  for (const char* k : {"mu_s", "mu_k"}) {
    if (!m.has(k)) continue;
    const Real mu = m.num(k, 0.0);
    if (!(mu >= 0.0 && mu <= kMaxFriction))
      fail(c_, m.node()[k],
           m.key(k) + " must be in [0, " + Map::fmt(kMaxFriction) + "], got " + Map::fmt(mu));
    (std::string(k) == "mu_s" ? cm.mu_s : cm.mu_k) = mu;
  }
  if (m.has("mu_s") && m.has("mu_k") && cm.mu_k > cm.mu_s)
    fail(c_, m.node()["mu_k"],
         m.what() + ": mu_k = " + Map::fmt(cm.mu_k) + " exceeds mu_s = " + Map::fmt(cm.mu_s) +
             " (kinetic friction must not exceed static friction)");
}

// A body's contact_material: any subset of E, nu, restitution, mu_s, mu_k.
ContactMaterial Builder::parse_contact_material(const YAML::Node& node, const std::string& owner) {
  Map m(c_, node, owner + ".contact_material");
  ContactMaterial cm{0.0, std::numeric_limits<Real>::quiet_NaN()};
  read_contact_properties(m, cm, true);
  m.done();
  return cm;
}

// A body of contact.pairs: a contact body's model id.
int Builder::pair_body(const YAML::Node& n, const std::string& what,
                       const std::vector<int>& bodies) {
  const int b = body_index(n, what, false);
  if (std::find(bodies.begin(), bodies.end(), b) == bodies.end())
    fail(c_, n, what + ": body '" + bodies_[b].name + "' is not in contact.bodies");
  return bodies_[b].id;
}

void Builder::add_contact(const YAML::Node& node) {
  Map m(c_, node, "contact");
  Model& model = *s_.model;
  std::vector<int> bodies;
  if (m.has("bodies")) {
    const YAML::Node l = m.get("bodies");
    if (!l.IsSequence()) fail(c_, l, "contact.bodies: expected a list of body names");
    for (size_t i = 0; i < l.size(); ++i) {
      const int b = body_index(l[i], "contact.bodies", false);
      // A rigid body takes part through the triangulated surface of its
      // shape (surface.hpp, rigid_surface), with a contact modulus: the law
      // needs a compliance, and two rigid partners have none.
      if (bodies_[b].rigid && bodies_[b].rigid_shape.X.empty())
        fail(c_, l[i],
             "contact.bodies: rigid body '" + bodies_[b].name +
                 "' has no surface (mass and inertia only); give it a shape or a mesh");
      if (bodies_[b].rigid && !(bodies_[b].contact.E > 0.0))
        fail(c_, l[i],
             "contact.bodies: rigid body '" + bodies_[b].name +
                 "' needs contact_material.E (the modulus of its contact surface)");
      if (std::find(bodies.begin(), bodies.end(), b) != bodies.end())
        fail(c_, l[i], "contact.bodies: body '" + bodies_[b].name + "' listed twice");
      bodies.push_back(b);
    }
  } else {
    // Every deformable body (rigid bodies take part when listed).
    for (size_t i = 0; i < bodies_.size(); ++i)
      if (!bodies_[i].rigid) bodies.push_back(static_cast<int>(i));
  }
  ContactPairSettings pair;
  pair.restitution = m.num("restitution", pair.restitution);
  if (!(pair.restitution > 0.0 && pair.restitution <= 1.0))
    fail(c_, m.node()["restitution"], "contact.restitution must be in (0, 1]");
  pair.mu_s = m.num("mu_s", pair.mu_s);
  pair.mu_k = m.num("mu_k", pair.mu_k);
  for (const char* k : {"mu_s", "mu_k"}) {
    const Real mu = std::string(k) == "mu_s" ? pair.mu_s : pair.mu_k;
    if (!(mu >= 0.0 && mu <= kMaxFriction))
      fail(c_, m.has(k) ? m.node()[k] : m.node(),
           m.key(k) + " must be in [0, " + Map::fmt(kMaxFriction) + "], got " + Map::fmt(mu));
  }
  // Kinetic friction does not exceed static friction (Coulomb's law with
  // a static-kinetic transition).
  if (pair.mu_k > pair.mu_s)
    fail(c_, m.has("mu_k") ? m.node()["mu_k"] : m.node()["mu_s"],
         "contact: mu_k = " + Map::fmt(pair.mu_k) + " exceeds mu_s = " + Map::fmt(pair.mu_s) +
             " (kinetic friction must not exceed static friction)");
  // Slip-weakening distance D_c of the static-kinetic transition
  // (docs/theory.md §7.4).
  pair.slip_distance = m.num("slip_distance", pair.slip_distance);
  if (!(pair.slip_distance >= 0.0 && std::isfinite(pair.slip_distance)))
    fail(c_, m.node()["slip_distance"],
         "contact.slip_distance must be finite and >= 0 (0: mu_k as soon as a contact "
         "slips), got " +
             Map::fmt(pair.slip_distance));
  pair.radius = m.num("radius", 0.0);
  if (pair.radius < 0.0)
    fail(c_, m.node()["radius"],
         "contact.radius must be >= 0 (0: from the detection), got " + Map::fmt(pair.radius));
  {
    const std::string law = m.choice("law", {"point", "patch", "patch_smooth_max"}, "point");
    pair.patch = law != "point";
    pair.patch_smooth_max = law == "patch_smooth_max";
  }
  const std::string damping_mass = m.choice("damping_mass", {"nodes", "body", "shared"}, "nodes");
  const bool body_mass = damping_mass != "nodes";
  const Real contact_radius = m.num("contact_radius", 0.0);
  if (contact_radius < 0.0)
    fail(c_, m.node()["contact_radius"],
         "contact.contact_radius must be >= 0 (0: the vertex patch radius), got " +
             Map::fmt(contact_radius));
  DetectionSettings ds;
  ds.max_depth = m.num("max_depth", 0.0);
  if (ds.max_depth < 0.0)
    fail(c_, m.node()["max_depth"],
         "contact.max_depth must be >= 0 (0: automatic), got " + Map::fmt(ds.max_depth));
  const long capacity = m.integer("capacity", 0);
  if (capacity < 0)
    fail(c_, m.node()["capacity"],
         "contact.capacity must be >= 0 (0: automatic), got " + std::to_string(capacity));
  if (capacity > 0)
    require_memory(c_, m.node()["capacity"], "contact.capacity", static_cast<double>(capacity),
                   static_cast<double>(kContactPointBytes), "contact points");
  ds.capacity = static_cast<Ordinal>(capacity);
  auto det = std::make_shared<ContactDetection>(ds);
  const Real self_radius = m.num("self_contact_radius", 0.0);
  if (self_radius < 0.0)
    fail(c_, m.node()["self_contact_radius"], "contact.self_contact_radius must be >= 0");
  for (int b : bodies) {
    const BodyData& bd = bodies_[b];
    if (bd.rigid) {
      try {
        det->add_surface(bd.id,
                         rigid_surface(bd.rigid_shape,
                                       {bd.rigid_center[0], bd.rigid_center[1], bd.rigid_center[2]},
                                       model.coefficient_offset(bd.id), bd.id),
                         contact_radius);
      } catch (const Error& e) {
        fail(c_, node, std::string("contact: ") + e.what());
      }
    } else {
      det->add_body(bd.id, bd.mesh, model.coefficient_offset(bd.id), contact_radius);
    }
    if (self_radius > 0.0) det->set_self_contact(bodies_[b].id, self_radius);
  }
  std::vector<ContactMaterial> obst;
  std::vector<std::string> obstacle_names;
  add_obstacles(m, *det, obst, obstacle_names);
  const bool has_pairs = m.has("pairs");
  const YAML::Node pairs = m.get("pairs");
  m.done();
  try {
    det->setup();
  } catch (const Error& e) {
    fail(c_, node, std::string("contact: ") + e.what());
  }
  auto cf = std::make_shared<ContactForces>();
  std::vector<ContactMaterial> mats(model.num_bodies());
  for (const auto& b : bodies_) {
    // contact_material: its E, nu where given, else the bulk material's.
    ContactMaterial cm = b.contact;
    if (!(cm.E > 0.0)) cm.E = b.E;
    if (std::isnan(cm.nu)) cm.nu = b.nu;
    mats[b.id] = cm;
  }
  cf->setup(model.lumped_mass(), mats, obst, pair);
  if (has_pairs) add_contact_pairs(pairs, bodies, obstacle_names, *cf);
  // A rigid body's contact points damp with the body's mass: an impulse
  // at a point of a rigid body moves the whole body (the lumped row sums of
  // its mass matrix, §10.3, are no point masses).
  for (int b : bodies)
    if (bodies_[b].rigid) cf->set_point_mass(bodies_[b].id, bodies_[b].rigid_mass);
  if (body_mass) {
    // damping_mass: body (shared): the body's mass m = e^T M e
    // (Model::body_motion, docs/theory.md §9.3; the state does not enter m),
    // for every contact (divided among the loaded contacts of each pair).
    const CoefView rest("tlfea::scene::rest", model.num_coefficients());
    for (int b : bodies)
      cf->set_point_mass(bodies_[b].id,
                         model.body_motion(bodies_[b].id, model.reference(), rest).mass,
                         damping_mass == "shared");
  }
  // A component of the run's stepper (tlfea::Simulation, or
  // Scene::attach_contact), which the model requires of every stepper on it.
  s_.detection = det;
  s_.contact = cf;
  s_.contact_component = std::make_shared<ContactComponent>(det, cf);
  model.require_step_force(ContactComponent::component_name());
}

// contact.pairs: per-pair overrides of the law's constants; keys absent
// keep what the pair has (the contact section's defaults combined with
// the partners' contact properties).
void Builder::add_contact_pairs(const YAML::Node& l, const std::vector<int>& bodies,
                                const std::vector<std::string>& obstacle_names, ContactForces& cf) {
  if (!l.IsSequence()) fail(c_, l, "contact.pairs: expected a list of pairs");
  std::set<std::pair<int, int>> seen;
  for (size_t i = 0; i < l.size(); ++i) {
    Map pm(c_, l[i], "contact.pairs[" + std::to_string(i) + "]");
    int a = 0, b = 0;  // ContactPoints ids (obstacle k: -1 - k)
    if (pm.has("bodies")) {
      if (pm.has("body") || pm.has("obstacle"))
        fail(c_, pm.node(), pm.what() + ": give either bodies: [a, b] or body and obstacle");
      const YAML::Node bl = pm.get("bodies");
      if (!bl.IsSequence() || bl.size() != 2)
        fail(c_, bl, pm.key("bodies") + ": expected a list of two body names");
      a = pair_body(bl[0], pm.key("bodies"), bodies);
      b = pair_body(bl[1], pm.key("bodies"), bodies);
    } else {
      if (!pm.has("body") || !pm.has("obstacle"))
        fail(c_, pm.node(), pm.what() + ": give bodies: [a, b], or body and obstacle");
      a = pair_body(pm.get("body"), pm.key("body"), bodies);
      const YAML::Node on = pm.get("obstacle");
      const std::string name = to_string(c_, on, pm.key("obstacle"));
      int k = -1;
      for (size_t j = 0; j < obstacle_names.size(); ++j)
        if (!obstacle_names[j].empty() && obstacle_names[j] == name) k = static_cast<int>(j);
      if (k < 0) {
        const long idx = name.find_first_not_of("0123456789") == std::string::npos && !name.empty()
                             ? to_int(c_, on, pm.key("obstacle"))
                             : -1;
        if (idx < 0 || idx >= static_cast<long>(obstacle_names.size()))
          fail(c_, on,
               pm.key("obstacle") + ": no obstacle '" + name +
                   "' (an obstacle's name, or its index 0.." +
                   std::to_string(static_cast<long>(obstacle_names.size()) - 1) +
                   " in contact.obstacles)");
        k = static_cast<int>(idx);
      }
      b = -1 - k;
    }
    if (!seen.insert({std::min(a, b), std::max(a, b)}).second)
      fail(c_, pm.node(), pm.what() + ": this pair is listed twice in contact.pairs");
    ContactPairSettings ps = cf.pair_settings(a, b);
    ContactMaterial given{0.0, 0.0};
    read_contact_properties(pm, given, false);
    if (pm.has("restitution")) ps.restitution = given.restitution;
    if (pm.has("mu_s")) ps.mu_s = given.mu_s;
    if (pm.has("mu_k")) ps.mu_k = given.mu_k;
    if (ps.mu_k > ps.mu_s)
      fail(c_, pm.has("mu_k") ? pm.node()["mu_k"] : pm.node()["mu_s"],
           pm.what() + ": mu_k = " + Map::fmt(ps.mu_k) + " exceeds mu_s = " + Map::fmt(ps.mu_s) +
               (pm.has("mu_k") && pm.has("mu_s")
                    ? ""
                    : " (the other one is the pair's inherited value)") +
               " (kinetic friction must not exceed static friction)");
    if (pm.has("slip_distance")) {
      ps.slip_distance = pm.num("slip_distance", 0.0);
      if (!(ps.slip_distance >= 0.0 && std::isfinite(ps.slip_distance)))
        fail(c_, pm.node()["slip_distance"],
             pm.key("slip_distance") + " must be finite and >= 0, got " +
                 Map::fmt(ps.slip_distance));
    }
    if (pm.has("E_star")) ps.E_star = pm.positive("E_star", 0.0);
    if (pm.has("G_star")) ps.G_star = pm.positive("G_star", 0.0);
    if (pm.has("radius")) {
      ps.radius = pm.num("radius", 0.0);
      if (ps.radius < 0.0)
        fail(
            c_, pm.node()["radius"],
            pm.key("radius") + " must be >= 0 (0: from the detection), got " + Map::fmt(ps.radius));
    }
    if (pm.has("law")) {
      const std::string law = pm.choice("law", {"point", "patch", "patch_smooth_max"}, "point");
      ps.patch = law != "point";
      ps.patch_smooth_max = law == "patch_smooth_max";
    }
    pm.done();
    try {
      cf.set_pair(a, b, ps);
    } catch (const Error& e) {
      fail(c_, pm.node(), pm.what() + ": " + e.what());
    }
  }
}

}  // namespace tlfea::scene::detail
