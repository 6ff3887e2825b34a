// TLFEA scene: rigid bodies (docs/scene.md, "Rigid bodies"; docs/theory.md §10).
#include <algorithm>
#include <cmath>
#include <limits>

#include "builder.hpp"
#include "tlfea/model/rigid_body.hpp"

namespace tlfea::scene::detail {

namespace {
// Largest contact-surface divisions of a primitive shape (a sphere of n =
// 256 has 131 k triangles).
constexpr long kMaxRigidDivisions = 256;
}  // namespace

// A rigid body (docs/scene.md, "Rigid bodies"): from `shape` (a T10 / Q27
// mesh, already placed, with `density`), a primitive `shape` with
// `density`, or `mass` + `inertia` (about the centre of mass, reference
// axes: a list of 3 principal moments or a 3 x 3 matrix) + `center`.
void Builder::add_rigid(Map& m, BodyData& b, const std::string& what, const Mesh* shape) {
  RigidBodySpec spec;
  const int kinds = (shape != nullptr) + m.has("shape") + m.has("mass");
  if (kinds != 1)
    fail(c_, m.node(),
         what +
             ": a rigid body needs exactly one of mesh (with density), shape "
             "(with density) or mass (with inertia)");

  if (shape) {
    if (shape->type != ElementType::T10 && shape->type != ElementType::Q27)
      fail(c_, m.node()["mesh"], what + ": a rigid body's mesh must be T10 or Q27");
    const Real rho = density(m, what);
    try {
      spec = rigid_body_from_mesh(*shape, rho);
    } catch (const Error& e) {
      fail(c_, m.node()["mesh"], what + ".mesh: " + e.what());
    }
    // Contact surface: the shape mesh's boundary triangles (surface.hpp).
    b.rigid_shape = rigid_shape_of_mesh(*shape, {spec.center[0], spec.center[1], spec.center[2]});
  } else if (m.has("shape")) {
    Map sm(c_, m.get("shape"), what + ".shape");
    const std::string kind = sm.choice("type", {"box", "sphere", "cylinder"}, "");
    const Real rho = density(m, what);
    const Vec3 c = m.vec3("center", Vec3{{0, 0, 0}});
    // Contact surface resolution (surface.hpp, rigid_*_shape): box faces
    // n x n, sphere 2n x n, cylinder 2n around.
    const long n = sm.integer("divisions", kind == "box" ? 4 : 12);
    if (n < 1 || n > kMaxRigidDivisions)
      fail(c_, sm.node()["divisions"],
           sm.key("divisions") + " must be in [1, " + std::to_string(kMaxRigidDivisions) +
               "], got " + std::to_string(n));
    const int nd = static_cast<int>(n);
    if (kind == "box") {
      const Vec3 size = sm.vec3_req("size");
      for (int a = 0; a < 3; ++a)
        if (!(size[a] > 0)) fail(c_, sm.node()["size"], sm.key("size") + " must be positive");
      spec = rigid_box(c, size, rho);
      b.rigid_shape = rigid_box_shape({size[0], size[1], size[2]}, nd);
    } else if (kind == "sphere") {
      const Real R = sm.positive_req("radius");
      spec = rigid_sphere(c, R, rho);
      b.rigid_shape = rigid_sphere_shape(R, nd);
    } else {
      const Real R = sm.positive_req("radius"), L = sm.positive_req("length");
      spec = rigid_cylinder(c, R, L, rho);
      b.rigid_shape = rigid_cylinder_shape(R, L, nd);
    }
    sm.done();
    // Output: the body drawn as this triangulation (visualisation_mesh.cpp).
    for (const auto& X : b.rigid_shape.X) spec.surface_points.push_back(Vec3{{X[0], X[1], X[2]}});
    spec.surface_triangles = b.rigid_shape.triangles;
  } else {
    spec.mass = m.positive_req("mass");
    spec.center = m.vec3("center", Vec3{{0, 0, 0}});
    const YAML::Node in = m.req("inertia");
    if (in.IsSequence() && in.size() == 3 && in[0].IsScalar()) {
      const Vec3 d = to_vec3(c_, in, m.key("inertia"));
      for (int a = 0; a < 3; ++a) spec.inertia(a, a) = d[a];
    } else if (in.IsSequence() && in.size() == 3) {
      for (int a = 0; a < 3; ++a) {
        const Vec3 row = to_vec3(c_, in[a], m.key("inertia"));
        for (int c = 0; c < 3; ++c) spec.inertia(a, c) = row[c];
      }
      for (int a = 0; a < 3; ++a)
        for (int c = 0; c < a; ++c)
          if (std::fabs(spec.inertia(a, c) - spec.inertia(c, a)) >
              1e-12 * (std::fabs(spec.inertia(a, c)) + std::fabs(spec.inertia(c, a))))
            fail(c_, in, m.key("inertia") + ": the inertia tensor must be symmetric");
    } else {
      fail(c_, in,
           m.key("inertia") +
               ": expected 3 principal moments [Ixx, Iyy, Izz] or a 3 x 3 "
               "matrix [[...], [...], [...]] (kg m^2)");
    }
    for (int a = 0; a < 3; ++a)
      if (!(spec.inertia(a, a) >= 0))
        fail(c_, in, m.key("inertia") + ": moments of inertia must be >= 0");
  }
  if (m.has("extent")) {
    spec.extent = m.vec3_req("extent");
    for (int a = 0; a < 3; ++a)
      if (!(spec.extent[a] > 0))
        fail(c_, m.node()["extent"], m.key("extent") + " must be positive");
  }
  spec.name = b.name;
  try {
    b.id = s_.model->add_rigid_body(spec);
  } catch (const Error& e) {
    fail(c_, m.node(), what + ": " + e.what());
  }
  b.mesh = s_.model->mesh(b.id);
  b.rigid = true;
  b.rigid_center = spec.center;
  // Rigid in the contact law (E = inf) unless contact_material gives E.
  b.E = std::numeric_limits<Real>::infinity();
  b.nu = 0.0;
  if (m.has("contact_material"))
    b.contact = parse_contact_material(m.get("contact_material"), what);
  // Default joint fibre: the smallest dimension of the shape or box; for
  // mass properties only, the radius of gyration sqrt(tr(S) / m).
  Real ext = std::numeric_limits<Real>::max();
  for (int a = 0; a < 3; ++a)
    if (spec.extent[a] > 0) ext = std::min(ext, 2 * spec.extent[a]);
  if (shape) ext = smallest_box_side(*shape);
  if (ext == std::numeric_limits<Real>::max()) {
    const Real tr = 0.5 * (spec.inertia(0, 0) + spec.inertia(1, 1) + spec.inertia(2, 2));
    ext = tr > 0 ? std::sqrt(tr / spec.mass) : 0.1;
  }
  b.min_size = ext;
  b.rigid_mass = spec.mass;
  // Initial velocity of the centre and angular velocity about it.
  initial_motion(m, b.id, spec.center);
  bodies_.push_back(std::move(b));
}

}  // namespace tlfea::scene::detail
