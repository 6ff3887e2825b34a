// TLFEA: scene files (YAML) -> Model, stepper settings, contact: the
// public load_scene entry points, the top-level Builder::build, --set
// overrides and the duplicate-key check. Keys, defaults and units:
// docs/scene.md. Every error is one tlfea::Error "FILE:LINE:COLUMN: message".
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "builder.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea::scene {
namespace detail {
namespace {
// The default settle's duration [s]: several periods of the bounce of a
// body on its Hertz contacts (8 ms for a 0.1 m, 1 kg block on E = 1e7 Pa,
// docs/scene.md "time"); scenes with slower motions give time.settle.
constexpr Real kAutoSettle = 0.3;
}  // namespace

// Whether a body touches (or lies within a small gap of) an obstacle or
// another body: contacts found with every body moved by 1e-3 of the
// model's size along the unit gravity direction d (each node's position
// coefficient, not ANCF gradients or rigid directors; the Hertz contact of
// a body set down at zero penetration has delta = 0 and is found only so).
bool Builder::touch_under_gravity(const Vec3& d) {
  Model& model = *s_.model;
  // A copy of the reference (to_host always makes a new array).
  auto q = to_host(model.reference());
  Vec3 lo{{1e300, 1e300, 1e300}}, hi{{-1e300, -1e300, -1e300}};
  for (Ordinal k = 0; k < static_cast<Ordinal>(q.extent(0)); ++k)
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], q(k, a));
      hi[a] = std::max(hi[a], q(k, a));
    }
  Real size = 0.0;
  for (int a = 0; a < 3; ++a) size += (hi[a] - lo[a]) * (hi[a] - lo[a]);
  const Real eps = 1e-3 * std::sqrt(size);
  for (int b = 0; b < model.num_bodies(); ++b) {
    const int cpn = model.mesh(b).coefficients_per_node();
    const Ordinal off = model.coefficient_offset(b), nc = model.mesh(b).num_coefficients();
    for (Ordinal k = 0; k < nc; k += cpn)
      for (int a = 0; a < 3; ++a) q(off + k, a) += eps * d[a];
  }
  CoefView qd("tlfea::scene::touch_test", model.num_coefficients());
  copy_to_device(qd, q);
  return s_.detection->detect(qd, 0.0) > 0;
}

void Builder::build(const YAML::Node& root) {
  Map top(c_, root, "scene");
  s_.name = top.str("name", s_.name);
  s_.description = top.str("description", "");
  // gravity: [gx, gy, gz], or {vector: [gx, gy, gz], function: f} for
  // g f(t) (a time function as for loads, e.g. a ramp to settle a model).
  Vec3 gravity{{0.0, 0.0, 0.0}};
  TimeFunction gravity_amplitude;
  if (top.has("gravity")) {
    const YAML::Node gn = top.get("gravity");
    if (gn.IsMap()) {
      Map gm(c_, gn, "gravity");
      gravity = gm.vec3_req("vector");
      if (gm.has("function")) {
        const TimeFunctionSpec f = parse_function(c_, gm.get("function"), gm.key("function"));
        gravity_amplitude = [f](Real t) { return f(t); };
      }
      gm.done();
    } else if (gn.IsSequence()) {
      gravity = to_vec3(c_, gn, "gravity");
    } else {
      fail(c_, gn,
           std::string("gravity: expected a list of 3 numbers [x, y, z] or a mapping "
                       "{vector: [x, y, z], function: ...}, got ") +
               kind_name(gn));
    }
  }
  s_.settings.analysis = parse_analysis(top.choice("analysis", {"dynamic", "static"}, "dynamic"));
  parse_time(top);
  parse_solver(top);
  parse_output(top);
  // Bodies first (all of them before the reference is built).
  const YAML::Node bodies = top.req("bodies");
  if (!bodies.IsSequence() || bodies.size() == 0)
    fail(c_, bodies, "scene.bodies: expected a non-empty list of bodies");
  s_.model = std::make_unique<Model>();
  std::vector<std::unique_ptr<Map>> body_maps;
  for (size_t i = 0; i < bodies.size(); ++i) {
    body_maps.push_back(std::make_unique<Map>(c_, bodies[i], "bodies[" + std::to_string(i) + "]"));
    add_body(*body_maps.back(), static_cast<int>(i));
  }
  s_.model->set_gravity(gravity, gravity_amplitude);
  q0_ = to_host(s_.model->reference());
  for (size_t i = 0; i < bodies.size(); ++i) body_conditions(*body_maps[i], static_cast<int>(i));
  for (auto& m : body_maps) m->done();
  if (top.has("joints")) {
    const YAML::Node joints = top.get("joints");
    if (!joints.IsSequence()) fail(c_, joints, "scene.joints: expected a list of joints");
    for (size_t i = 0; i < joints.size(); ++i) add_joint(joints[i], static_cast<int>(i));
  }
  if (top.has("springs")) {
    const YAML::Node springs = top.get("springs");
    if (!springs.IsSequence()) fail(c_, springs, "scene.springs: expected a list of springs");
    for (size_t i = 0; i < springs.size(); ++i) add_spring(springs[i], static_cast<int>(i));
  }
  check_output_size();
  const bool has_contact = top.has("contact");
  if (has_contact && s_.settings.analysis == Analysis::static_equilibrium)
    fail(c_, top.get("contact"),
         "contact: not supported in a static analysis (analysis: static); settle a model in "
         "contact with a dynamic analysis and time.settle");
  top.done();
  s_.model->finalize();
  if (has_contact) add_contact(top.get("contact"));
  // Bodies set down touching an obstacle or each other under their full,
  // constant weight are not in equilibrium at t = 0 (the Hertz contacts
  // carry nothing at zero penetration): released, they bounce, and on a
  // slope below the friction angle slip in the troughs of that bounce
  // (docs/theory.md §6.11). Unless time.settle says otherwise they are
  // settled first, over kAutoSettle (at least 200 steps).
  const Real gn = std::sqrt(dot(gravity, gravity));
  if (has_contact && !settle_given_ && s_.settings.analysis == Analysis::dynamic &&
      !gravity_amplitude && gn > 0.0 &&
      touch_under_gravity(Vec3{{gravity[0] / gn, gravity[1] / gn, gravity[2] / gn}})) {
    s_.settle.duration = std::max(kAutoSettle, 200.0 * s_.settings.dt);
    s_.settle_auto = true;
  }
  for (const auto& b : bodies_) {
    SceneBodyInfo info;
    info.name = b.name;
    info.element = b.mesh.type;
    info.elements = b.mesh.num_elements();
    info.coefficients = b.mesh.num_coefficients();
    info.material = s_.model->block(b.id).material_name();
    info.rigid = b.rigid;
    info.mass = b.rigid ? b.rigid_mass
                        : s_.model->block(b.id).density() *
                              s_.model->block(b.id).volume(s_.model->reference());
    s_.bodies.push_back(info);
  }
}

void Builder::initial_velocities() {
  if (init_v_.empty()) return;
  Model& model = *s_.model;
  s_.initial_velocity.assign(model.num_coefficients(), Vec3{{0, 0, 0}});
  for (const auto& iv : init_v_) {
    const Mesh& mesh = model.mesh(iv.body);
    const int cpn = mesh.coefficients_per_node();
    const Ordinal off = model.coefficient_offset(iv.body);
    for (Ordinal k = 0; k < mesh.num_coefficients(); ++k) {
      const auto& c = mesh.coefficients[k];
      Vec3 v;
      if (k % cpn == 0) {
        const Vec3 r{{c[0] - iv.center[0], c[1] - iv.center[1], c[2] - iv.center[2]}};
        const Vec3 wr = cross(iv.w, r);
        for (int a = 0; a < 3; ++a) v[a] = iv.v[a] + wr[a];
      } else {
        v = cross(iv.w, Vec3{{c[0], c[1], c[2]}});
      }
      s_.initial_velocity[off + k] = v;
    }
  }
}

void apply_override(YAML::Node& root, const std::string& ov) {
  const size_t eq = ov.find('=');
  if (eq == std::string::npos || eq == 0) throw Error("--set " + ov + ": expected key.path=value");
  const std::string path = ov.substr(0, eq), value = ov.substr(eq + 1);
  std::vector<std::string> parts;
  std::stringstream ss(path);
  std::string p;
  while (std::getline(ss, p, '.')) {
    if (p.empty()) throw Error("--set " + ov + ": empty key in '" + path + "'");
    parts.push_back(p);
  }
  YAML::Node cur = root;
  for (size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    if (cur.IsSequence()) {
      char* end = nullptr;
      const long idx = std::strtol(parts[i].c_str(), &end, 10);
      if (*end != '\0' || idx < 0 || idx >= static_cast<long>(cur.size()))
        throw Error("--set " + ov + ": '" + parts[i] + "' is not an index of the list (size " +
                    std::to_string(cur.size()) + ")");
      if (last) {
        cur[idx] = YAML::Load(value);
      } else {
        YAML::Node next = cur[idx];
        cur.reset(next);
      }
    } else if (cur.IsMap() || cur.IsNull() || !cur.IsDefined()) {
      if (last) {
        cur[parts[i]] = YAML::Load(value);
      } else {
        YAML::Node next = cur[parts[i]];
        cur.reset(next);
      }
    } else {
      throw Error("--set " + ov + ": '" + parts[i - 1] + "' is a scalar, not a mapping");
    }
  }
}

// yaml-cpp keeps every pair of a mapping and its lookups return the first, so
// a repeated key would silently lose its value: refused at the
// second occurrence, naming the line of the first. Collections are visited
// once each (an alias shares its anchor's node and mark, and may refer to an
// enclosing node).
void check_duplicate_keys(const Ctx& c, const YAML::Node& n,
                          std::set<std::pair<int, int>>& visited) {
  if (!n.IsMap() && !n.IsSequence()) return;
  if (!visited.emplace(n.Mark().line, n.Mark().column).second) return;
  if (n.IsSequence()) {
    for (const auto& e : n) check_duplicate_keys(c, e, visited);
    return;
  }
  std::map<std::string, YAML::Mark> first;
  for (auto it = n.begin(); it != n.end(); ++it) {
    if (it->first.IsScalar()) {
      const auto [f, fresh] = first.emplace(it->first.Scalar(), it->first.Mark());
      if (!fresh)
        fail(c, it->first,
             "duplicate key '" + it->first.Scalar() + "' (first at line " +
                 std::to_string(f->second.line + 1) + ")");
    }
    check_duplicate_keys(c, it->first, visited);
    check_duplicate_keys(c, it->second, visited);
  }
}

Scene build_scene(YAML::Node root, const Ctx& c, const std::vector<std::string>& overrides,
                  const std::string& default_name) {
  std::set<std::pair<int, int>> visited;
  check_duplicate_keys(c, root, visited);
  for (const auto& ov : overrides) apply_override(root, ov);
  Scene s;
  s.file = c.file;
  s.name = default_name;
  Builder b(c, s);
  b.build(root);
  b.initial_velocities();
  return s;
}

}  // namespace detail

namespace fs = std::filesystem;
using detail::build_scene;
using detail::Ctx;
using detail::fail_at;

Ordinal Scene::unknowns() const {
  std::set<Ordinal> fixed(model->clamped_coefficients().begin(),
                          model->clamped_coefficients().end());
  for (const auto& p : model->prescribed()) fixed.insert(p.coefficient);
  Ordinal components = 0;  // single fixed components of otherwise free coefficients
  for (Ordinal d : model->fixed_components()) components += fixed.count(d / 3) ? 0 : 1;
  return 3 * (model->num_coefficients() - static_cast<Ordinal>(fixed.size())) - components;
}

Ordinal Scene::constraint_rows() const {
  return model->has_constraints() ? model->constraints().num_rows() : 0;
}

void Scene::apply_initial_state(TimeStepper& stepper) const {
  if (initial_velocity.empty()) return;
  CoefView v("scene_v0", model->num_coefficients());
  auto h = host_mirror(v);
  for (Ordinal k = 0; k < model->num_coefficients(); ++k)
    for (int a = 0; a < 3; ++a) h(k, a) = initial_velocity[k][a];
  copy_to_device(v, h);
  stepper.set_velocities(v);
}

void Scene::attach_contact(TimeStepper& stepper) const {
  if (!contact_component) return;
  for (const auto& f : stepper.step_forces())
    if (f == contact_component) return;
  stepper.add_step_force(contact_component);
}

Scene load_scene_text(const std::string& text, const std::string& file, const std::string& base_dir,
                      const std::vector<std::string>& overrides) {
  Ctx c{file, base_dir};
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    fail_at(c, e.mark, "YAML syntax error: " + e.msg);
  }
  std::string stem = fs::path(file).stem().string();
  if (stem.empty() || stem.front() == '<') stem = "scene";
  try {
    return build_scene(root, c, overrides, stem);
  } catch (const YAML::Exception& e) {
    fail_at(c, e.mark, e.msg);
  }
}

Scene load_scene(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) throw Error(path + ":1:1: cannot open the scene file");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string dir = fs::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  return load_scene_text(ss.str(), path, dir, overrides);
}

}  // namespace tlfea::scene
