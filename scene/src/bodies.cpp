// TLFEA scene: deformable bodies (mesh, placement, material, density,
// initial velocity, contact material) and the lookup of a body by name.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "builder.hpp"

namespace tlfea::scene::detail {

Real smallest_box_side(const Mesh& mesh) {
  Real lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = std::numeric_limits<Real>::max();
    hi[a] = -lo[a];
  }
  for (Ordinal n = 0; n < mesh.num_nodes(); ++n)
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], mesh.node_position(n)[a]);
      hi[a] = std::max(hi[a], mesh.node_position(n)[a]);
    }
  return std::min({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
}

void Builder::add_body(Map& m, int index) {
  BodyData b;
  b.name = m.str("name", "body" + std::to_string(index));
  for (const auto& o : bodies_)
    if (o.name == b.name) fail(c_, m.node()["name"], "body name '" + b.name + "' used twice");
  if (b.name == "ground") fail(c_, m.node()["name"], "'ground' is reserved for the fixed frame");
  // The name heads the body's history columns ("<name>.com_x", ...,
  // io/output.hpp) in history.csv and output.h5: letters, digits, '_', '-'.
  if (b.name.empty() || !std::all_of(b.name.begin(), b.name.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
      }))
    fail(c_, m.node()["name"],
         "body name '" + b.name +
             "': use letters, digits, '_' and '-' only (it names the "
             "body's history columns)");
  const std::string what = "body '" + b.name + "'";
  // type: rigid (docs/theory.md §10): mass properties given (mass, inertia),
  // of a primitive shape, or of a T10 / Q27 mesh with a density.
  const bool rigid = m.choice("type", {"deformable", "rigid"}, "deformable") == "rigid";
  if (rigid && !m.has("mesh")) {
    add_rigid(m, b, what, nullptr);
    return;
  }
  b.mesh = body_mesh(m, what);
  // Placement: x = R X + translation (R about the origin, axis-angle in rad).
  Vec3 trans{{0, 0, 0}};
  Mat3 R = identity3();
  if (m.has("placement")) {
    Map pm(c_, m.get("placement"), what + ".placement");
    trans = pm.vec3("translation", trans);
    if (pm.has("rotation")) {
      Map rm(c_, pm.get("rotation"), what + ".placement.rotation");
      const Vec3 axis = rm.vec3_req("axis");
      if (dot(axis, axis) == 0.0) fail(c_, rm.node()["axis"], what + ": rotation axis is zero");
      R = axis_angle_rotation(axis, rm.num_req("angle"));
      rm.done();
    }
    pm.done();
  }
  const int cpn = b.mesh.coefficients_per_node();
  for (size_t k = 0; k < b.mesh.coefficients.size(); ++k) {
    const Vec3 x{{b.mesh.coefficients[k][0], b.mesh.coefficients[k][1], b.mesh.coefficients[k][2]}};
    Vec3 y = R * x;
    if (k % cpn == 0)
      for (int a = 0; a < 3; ++a) y[a] += trans[a];
    for (int a = 0; a < 3; ++a) b.mesh.coefficients[k][a] = y[a];
  }
  if (rigid) {
    const Mesh shape = b.mesh;
    add_rigid(m, b, what, &shape);
    return;
  }
  const MaterialSpec spec = body_material(m, b, what);
  const Real rho = density(m, what);
  try {
    b.id = s_.model->add_body(b.mesh, spec, rho);
  } catch (const Error& e) {
    fail(c_, m.node(), what + ": " + e.what());
  }
  // Smallest dimension (default joint fibre): ANCF cross-section, solids their box.
  if (b.mesh.type == ElementType::ANCF3243)
    b.min_size = std::min(b.mesh.element_size[0][1], b.mesh.element_size[0][2]);
  else if (b.mesh.type == ElementType::ANCF3443)
    b.min_size = b.mesh.element_size[0][2];
  else
    b.min_size = smallest_box_side(b.mesh);
  // Initial velocity v(x) = v0 + w x (x - translation); gradients w x r_u.
  initial_motion(m, b.id, trans);
  if (m.has("contact_material"))
    b.contact = parse_contact_material(m.get("contact_material"), what);
  bodies_.push_back(std::move(b));
}

// The material section of a deformable body (svk, neo_hookean or
// mooney_rivlin, optional Kelvin-Voigt damping); b.E and b.nu are kept for
// contact.
MaterialSpec Builder::body_material(Map& m, BodyData& b, const std::string& what) {
  Map mat(c_, m.req("material"), what + ".material");
  const std::string model = mat.choice("model", {"svk", "neo_hookean", "mooney_rivlin"}, "");
  MaterialSpec spec;
  try {
    if (model == "svk") {
      b.E = mat.num_req("E");
      b.nu = mat.num_req("nu");
      spec = MaterialSpec::svk(b.E, b.nu);
    } else if (model == "neo_hookean") {
      Real mu, kappa;
      if (mat.has("E") || mat.has("nu")) {
        b.E = mat.num_req("E");
        b.nu = mat.num_req("nu");
        const LameParameters l = lame_from_young_poisson(b.E, b.nu);
        mu = l.mu;
        kappa = l.lambda + 2.0 * l.mu / 3.0;
      } else {
        mu = mat.positive_req("mu");
        kappa = mat.positive_req("kappa");
        b.E = 9.0 * kappa * mu / (3.0 * kappa + mu);
        b.nu = (3.0 * kappa - 2.0 * mu) / (2.0 * (3.0 * kappa + mu));
        require_poisson_range(mat, "kappa", b.nu);
      }
      spec = MaterialSpec::neo_hookean(mu, kappa);
    } else {
      const Real mu10 = mat.num_req("mu10"), mu01 = mat.num_req("mu01"),
                 kappa = mat.positive_req("kappa");
      // A negative constant makes the strain energy lose convexity
      // (polyconvexity, and with it stability, needs mu10, mu01 >= 0).
      for (const char* k : {"mu10", "mu01"})
        if (mat.num_req(k) < 0)
          fail(c_, mat.node()[k],
               mat.key(k) +
                   " must be >= 0 (a negative Mooney-Rivlin constant "
                   "makes the material unstable), got " +
                   Map::fmt(mat.num_req(k)));
      const Real mu = 2.0 * (mu10 + mu01);
      if (!(mu > 0)) fail(c_, mat.node(), what + ".material: mu10 + mu01 must be positive");
      b.E = 9.0 * kappa * mu / (3.0 * kappa + mu);
      b.nu = (3.0 * kappa - 2.0 * mu) / (2.0 * (3.0 * kappa + mu));
      require_poisson_range(mat, "kappa", b.nu);
      spec = MaterialSpec::mooney_rivlin(mu10, mu01, kappa);
    }
  } catch (const Error& e) {
    const std::string msg = e.what();
    if (msg.rfind(c_.file + ":", 0) == 0) throw;
    fail(c_, mat.node(), what + ".material: " + msg);
  }
  if (mat.has("damping")) {
    Map dm(c_, mat.get("damping"), what + ".material.damping");
    const Real mu_v = dm.num("mu_v", 0.0), lambda_v = dm.num("lambda_v", 0.0);
    if (mu_v < 0 || lambda_v < 0) fail(c_, dm.node(), what + ": damping constants must be >= 0");
    spec = spec.with_kelvin_voigt(mu_v, lambda_v);
    dm.done();
  }
  mat.done();
  return spec;
}

// A body's density [kg/m^3].
Real Builder::density(Map& m, const std::string& what) {
  const Real rho = m.positive_req("density");
  // SI units: solids lie between aerogels (about 1 kg/m^3) and osmium
  // (22,590 kg/m^3); a value far outside is a unit mistake (g/cm^3, or
  // kg/mm^3) that would scale every inertia force.
  if (rho < kMinDensity || rho > kMaxDensity)
    fail(c_, m.node()["density"],
         what + ".density " + Map::fmt(rho) + " kg/m^3 is outside [" + Map::fmt(kMinDensity) +
             ", " + Map::fmt(kMaxDensity) + "] kg/m^3 (SI units)");
  return rho;
}

// A body's initial velocity (velocity v0, angular_velocity w about `center`);
// none in a static analysis.
void Builder::initial_motion(Map& m, int body_id, const Vec3& center) {
  const Vec3 v0 = m.vec3("velocity", Vec3{{0, 0, 0}});
  const Vec3 w = m.vec3("angular_velocity", Vec3{{0, 0, 0}});
  if (dot(v0, v0) > 0 || dot(w, w) > 0) init_v_.push_back({body_id, v0, w, center});
  if (s_.settings.analysis == Analysis::static_equilibrium && (dot(v0, v0) > 0 || dot(w, w) > 0))
    fail(c_, m.node()[dot(v0, v0) > 0 ? "velocity" : "angular_velocity"],
         m.key(dot(v0, v0) > 0 ? "velocity" : "angular_velocity") +
             ": a static analysis (analysis: static) has no initial velocity");
}

// The Poisson's ratio implied by the moduli (mu, kappa) must lie in
// (-1, 0.5); kappa -> 0 gives nu -> -1 (e.g. kappa = 1e-300: nu = -1 in
// floating point), a material without resistance to volume change.
void Builder::require_poisson_range(Map& mat, const char* key, Real nu) {
  if (!(nu > -1.0 && nu < 0.5))
    fail(c_, mat.node()[key],
         mat.key(key) + ": the implied Poisson's ratio " + Map::fmt(nu) + " is not in (-1, 0.5)");
}

int Builder::body_index(const YAML::Node& n, const std::string& what, bool allow_ground) {
  const std::string name = to_string(c_, n, what);
  if (allow_ground && name == "ground") return -1;
  for (size_t i = 0; i < bodies_.size(); ++i)
    if (bodies_[i].name == name) return static_cast<int>(i);
  std::vector<std::string> names;
  for (const auto& b : bodies_) names.push_back(b.name);
  if (allow_ground) names.push_back("ground");
  fail(c_, n, what + ": unknown body '" + name + "' (bodies: " + Map::join(names) + ")");
}

}  // namespace tlfea::scene::detail
