// TLFEA scene: the Builder that turns a checked YAML scene into a Scene; its
// parts are defined in the files named after them (scene/src/*.cpp).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "size_limits.hpp"
#include "tlfea/constraints/material_point.hpp"
#include "tlfea/contact/obstacles.hpp"
#include "tlfea/contact/surface.hpp"
#include "tlfea/core/mesh_io.hpp"
#include "tlfea/scene/scene.hpp"
#include "yaml_reader.hpp"

namespace tlfea::scene::detail {

// A scalar time function from a number (a constant) or a mapping {type: constant |
// ramp | sine | table, ...} (docs/scene.md); time_function.cpp.
TimeFunctionSpec parse_function(const Ctx& c, const YAML::Node& n, const std::string& what);
// Smallest side of the box bounding a mesh's nodes (bodies.cpp).
Real smallest_box_side(const Mesh& mesh);

// A body as the builder keeps it: its name, model id and mesh, and what
// later sections need (contact moduli, default joint fibre length).
struct BodyData {
  std::string name;
  int id = -1;
  Mesh mesh;
  Real E = 0.0, nu = 0.0;  // for contact
  Real min_size = 0.0;     // smallest body dimension (default joint fibers)
  bool rigid = false;      // type: rigid (mesh: its one-node coefficient mesh)
  Real rigid_mass = 0.0;
  // A rigid body's contact surface (body frame) and reference centre;
  // empty X: none (mass + inertia only).
  RigidShapeSurface rigid_shape;
  Vec3 rigid_center{{0.0, 0.0, 0.0}};
  // contact_material (docs/scene.md): E <= 0 / nu NaN: the bulk E, nu;
  // restitution, mu_s, mu_k < 0: the contact section's.
  ContactMaterial contact{0.0, std::numeric_limits<Real>::quiet_NaN()};
};

class Builder {
 public:
  Builder(const Ctx& c, Scene& s) : c_(c), s_(s) {}

  // The whole scene (load_scene.cpp).
  void build(const YAML::Node& root);
  // Scene::initial_velocity from the bodies' velocity / angular_velocity.
  void initial_velocities();

 private:
  struct InitV {
    int body;
    Vec3 v, w, center;
  };
  // time, solver and output sections (settings.cpp).
  void parse_time(Map& top);
  void parse_solver(Map& top);
  void parse_output(Map& top);
  void check_output_size();
  // A body's mesh: a file or a generator (meshes.cpp).
  Mesh body_mesh(Map& m, const std::string& what);
  AncfGmshOptions ancf_options(Map& mm, const std::string& what, const std::string& elem);
  Mesh read_mesh_node(Map& mm, const std::string& what, const std::string& elem);
  // Deformable bodies, their material and the lookup by name (bodies.cpp).
  void add_body(Map& m, int index);
  MaterialSpec body_material(Map& m, BodyData& b, const std::string& what);
  void require_poisson_range(Map& mat, const char* key, Real nu);
  Real density(Map& m, const std::string& what);
  void initial_motion(Map& m, int body_id, const Vec3& center);
  int body_index(const YAML::Node& n, const std::string& what, bool allow_ground);
  // Rigid bodies (rigid_bodies.cpp).
  void add_rigid(Map& m, BodyData& b, const std::string& what, const Mesh* shape);
  // Node selectors, clamps and prescribed motions (boundary_conditions.cpp).
  std::vector<Ordinal> select(Map& m, const BodyData& b);
  void body_conditions(Map& m, int index);
  // Loads of a body (loads.cpp).
  void add_loads(Map& m, const BodyData& b, const std::string& what);
  // Joints (joints.cpp).
  MaterialPoint point_on(int body, const YAML::Node& n, const std::string& what,
                         const std::string& joint);
  void add_joint(const YAML::Node& node, int index);
  void add_spring(const YAML::Node& node, int index);
  // The contact section, contact properties and pairs (contact.cpp).
  void add_contact(const YAML::Node& node);
  void read_contact_properties(Map& m, ContactMaterial& cm, bool elastic);
  ContactMaterial parse_contact_material(const YAML::Node& node, const std::string& owner);
  int pair_body(const YAML::Node& n, const std::string& what, const std::vector<int>& bodies);
  void add_contact_pairs(const YAML::Node& l, const std::vector<int>& bodies,
                         const std::vector<std::string>& obstacle_names, ContactForces& cf);
  // contact.obstacles and their motion (obstacles.cpp).
  void add_obstacles(Map& m, ContactDetection& det, std::vector<ContactMaterial>& obst,
                     std::vector<std::string>& obstacle_names);
  MotionTable parse_motion_table(const YAML::Node& node, const std::string& what);

  const Ctx& c_;
  Scene& s_;
  std::vector<BodyData> bodies_;
  std::vector<InitV> init_v_;
  CoefViewHost q0_;
  bool touch_under_gravity(const Vec3& direction);
  bool settle_given_ = false;  // time.settle in the scene (0 / false: off)
  YAML::Node samples_node_;    // output.samples, when given
};

}  // namespace tlfea::scene::detail
