// TLFEA: contact detection (docs/theory.md §7.2-7.3): fills ContactPoints
// (contact_points.hpp) once per step from the coefficients q, with every loop
// on the device and no allocation after setup.
//
// Per step:
//  1. vertex positions from q (Surface::update_positions);
//  2. broad phase: a uniform grid of cell size h = (largest current triangle
//     bounding-box edge) + 2 max_depth; each triangle is binned by the cell of
//     its bounding-box centre into a fixed hash table of buckets (2^k >= 2
//     triangles) by a counting sort (count, scan, fill: linear in the number
//     of triangles); a vertex visits the 2 x 2 x 2 cells nearest to it, which
//     hold every triangle whose bounding box it can be within max_depth of
//     (the centre is within h / 2 per axis);
//  3. narrow phase, per vertex of body A:
//     - vertex-triangle against the triangles of every other body B the pair
//       filter allows (and of its own body with set_self_contact, below):
//       the vertex p penetrates triangle
//       (a, b, c) with outward unit normal n_t when its signed distance
//       d = (p - a) . n_t lies in [-max_depth, 0), its projection lies in
//       the triangle (barycentric coordinates >= -inside_tolerance), and
//       the vertex normal opposes n_t (DetectionSettings::normal_opposition). Per body
//       B the candidate of least depth wins (ties: lower triangle id), so the
//       result does not depend on the order triangles were binned in;
//     - vertex-obstacle against every allowed obstacle (obstacles.hpp).
//     Each contact: delta = -d > 0; n = n_t (from B towards A); x_c the
//     midpoint of the vertex and its projection on B; A's material point the
//     vertex's combination; B's material point the barycentric combination
//     sum_b lambda_b (vertex b's combination) of the triangle's vertices, i.e.
//     the material point of the flat triangle's closest point (all three
//     vertices belong to one element; Surface checks that they fit the
//     kMaxContactCoefficients slots of a side, contact_points.hpp).
//  4. output in vertex order (a count pass, a scan, a write pass), so the
//     result is deterministic and keys come out in increasing order.
//
// Both bodies' vertices are tested against the other's triangles
// (symmetric, no master / slave): two touching bodies give contacts with
// A = either body.
//
// Self-contact (set_self_contact(body, r), off by default): the body's
// vertices are also tested against its own triangles, except the triangles
// with a vertex within r of the tested vertex in the reference configuration
// (the vertex's own triangles and their neighbourhood, which a vertex "sees"
// at zero depth). Choose r at least the size of the surface triangles and
// below the smallest reference distance between parts of the surface that
// may touch (parts closer than r in the reference never touch each other).
// ANCF surfaces: a sampled surface vertex interpolates all coefficients of
// its element, so choose r at least the element size there (a vertex must
// not be tested against a triangle of its own element).
// Contacts carry body id A = B,
// and the normal-opposition test applies as between bodies. The pair (b, b)
// uses the point law even where the patch law is set.
//
// Effective radius R*: 1/R* = 1/R_A + 1/R_B, R_A the body's contact_radius,
// or when that is 0 the patch radius sqrt(A_patch / pi) of the vertex; R_B the
// same for a deformable B, the radius of a sphere obstacle, infinite for a
// plane or a box.
//
// Key of a contact: vertex * P + partner, P = num_body_ids() +
// num_obstacles(), partner = body B's id, or num_body_ids() + k for obstacle
// k. A pair keeps its key while the vertex stays in contact with the same
// partner, and keys of one step are strictly increasing.
#pragma once

#include <functional>
#include <vector>

#include "tlfea/contact/contact_points.hpp"
#include "tlfea/contact/obstacles.hpp"
#include "tlfea/contact/surface.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/core/tensor.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

// A vertex keeps at most this many deformable partner bodies per step.
constexpr int kMaxPartnersPerVertex = 4;

struct DetectionSettings {
  SurfaceSettings surface;
  // Depth window of vertex-triangle tests; 0: half the largest reference
  // triangle bounding-box edge.
  Real max_depth = 0.0;
  // ContactPoints capacity; 0: the number of surface vertices (at least 64).
  Ordinal capacity = 0;
  // Slack on barycentric coordinates of the projection (edges and corners
  // shared by two triangles are found from both).
  Real inside_tolerance = 1e-9;
  // Normal compatibility: a vertex of A is tested against a triangle of B
  // only when A's vertex normal n_A and the triangle's outward normal n_t
  // oppose, n_A . n_t < -normal_opposition (0.5: within 60 degrees of
  // head-on; a box edge's vertex normal is 45 degrees off its faces, a
  // corner's 55). Without it a vertex near the edge of B's face, a hair
  // outside B's face plane, is taken as deep inside B through B's side face
  // (depth = its distance from the side face, up to max_depth): stacked
  // blocks with offset edges got kN-sized side kicks and flew apart, and
  // aligned stacks chattered. <= -1 disables the check.
  Real normal_opposition = 0.5;
};

// ContactPoints with every view allocated for `capacity` contacts.
ContactPoints allocate_contact_points(Ordinal capacity);

class ContactDetection {
 public:
  explicit ContactDetection(const DetectionSettings& settings = {});

  // Adds the surface of body `body` (>= 0, the model's body index) whose mesh
  // coefficient 0 is global coefficient `coef_offset`. contact_radius > 0
  // sets R_A for its vertices (else the patch radius).
  void add_body(int body, const Mesh& mesh, Ordinal coef_offset, Real contact_radius = 0.0);
  // Adds a ready surface of body `body` (all its vertices and triangles
  // labelled `body`), e.g. a rigid body's (rigid_surface in surface.hpp).
  void add_surface(int body, const SurfaceHost& surface, Real contact_radius = 0.0);
  // Returns k; its contacts carry body id -1 - k.
  int add_obstacle(const Obstacle& obstacle);
  // Pair filter (default: every pair of distinct bodies, every body with
  // every obstacle).
  void set_body_pair(int body_a, int body_b, bool may_touch);
  void set_obstacle_body(int obstacle, int body, bool may_touch);
  // Joint filter: bodies a and b joined at `point` (reference configuration,
  // e.g. a joint's point) do not collide near it. A surface vertex of a or b
  // whose reference position lies within `radius` of `point` is not tested
  // against the other body's triangles (the rest of the pair still collides,
  // and both bodies still touch every other body and obstacle). The test is
  // on the reference positions, so the excluded region moves with the joint.
  // Call once per joint; overlapping regions combine.
  void exclude_near_point(int body_a, int body_b, const Vec3& point, Real radius);
  // Self-contact of `body` (above); exclusion_radius > 0 [m], reference.
  void set_self_contact(int body, Real exclusion_radius);

  // Builds the device data (called by the first detect; bodies, obstacles
  // and filters are fixed afterwards).
  void setup();

  // Split over several ranks (before or after setup; the integrators layer's
  // distributed stepper, docs/guide/mpi.md "Contact on several ranks").
  // The vertices and triangles are numbered over the whole soup of the
  // added bodies (host_surface(), in the order added); owner[t] is the rank
  // of triangle t (its element's rank; a rigid body's: 0). Vertex v belongs
  // to the lowest rank of its triangles and only that rank computes its
  // contacts (keys carry the whole soup's vertex ids, so a pair has the same
  // key on any rank count). This instance keeps on the device only its own
  // triangles, the triangles of its own vertices (their normals), and the
  // ghosts: every triangle whose bounding box comes within max_depth +
  // margin of the bounding box of this rank's own vertices of some body,
  // from the positions at setup (reference) or at the last re-ghosting.
  // Each detect then measures how far the own vertices have moved since
  // (global_max: the largest value over the ranks, collective, the same on
  // every rank); beyond margin / 2 every rank re-ghosts from the current
  // positions (then a vertex of this rank can only reach a triangle
  // within max_depth + margin of the boxes it was ghosted from). A contact
  // of an own vertex is thus found as by the unsplit detection: same
  // triangles in reach, same order (the held ones keep the whole soup's
  // order), same vertex normals and areas. margin >= 0 [m]; 0: twice
  // max_depth.
  void set_split(int rank, std::vector<int> triangle_owner, Real margin,
                 std::function<Real(Real)> global_max);
  bool is_split() const { return split_; }
  // The whole soup of the added bodies (host; the device data of a split
  // instance is its part of it).
  const SurfaceHost& host_surface() const { return host_; }
  // Split: the rank computing the contacts of a key's vertex.
  int key_owner(unsigned long long key) const;
  // Split: this rank's own vertices and triangles, and how many times the
  // ghosts were rebuilt after setup.
  Ordinal num_own_vertices() const { return num_own_vertices_; }
  Ordinal num_own_triangles() const { return num_own_triangles_; }
  int ghost_updates() const { return ghost_updates_; }

  // Detects in configuration q at time t (obstacle motions evaluated at t;
  // t < 0, a settle's pseudo-time (TimeStepper::settle): at t = 0, at rest).
  // Returns the number of contacts (also in points().count(0)); throws Error
  // when it exceeds the capacity.
  Ordinal detect(const CoefView& q, Real t);

  const ContactPoints& points() const { return points_; }
  const Surface& surface() const { return surface_; }  // after setup
  int num_body_ids() const { return num_body_ids_; }
  int num_obstacles() const { return static_cast<int>(obstacles_.size()); }
  Real cell_size() const { return cell_size_; }  // of the last detect
  Real max_depth() const { return max_depth_; }
  // Decodes a key into (vertex, partner) (see above).
  void decode_key(unsigned long long key, Ordinal& vertex, int& partner) const;

 private:
  DetectionSettings settings_;
  bool ready_ = false;
  SurfaceHost host_;
  std::vector<int> bodies_;
  std::vector<Real> body_radius_host_;
  std::vector<Obstacle> obstacles_;
  std::vector<std::pair<std::pair<int, int>, bool>> body_pair_edits_;
  std::vector<std::pair<std::pair<int, int>, bool>> obstacle_edits_;
  struct JointExclusion {
    int a, b;
    Vec3 point;
    Real radius;
  };
  std::vector<JointExclusion> joint_exclusions_;
  std::vector<std::pair<int, Real>> self_edits_;
  int num_body_ids_ = 0;
  Real max_depth_ = 0.0;
  Real cell_size_ = 0.0;

  Surface surface_;
  ContactPoints points_;
  DeviceView<int*> body_pair_;      // (a * nb + b): 1 may touch
  DeviceView<int*> obstacle_body_;  // (k * nb + body)
  DeviceView<int*> body_has_partner_;
  DeviceView<Real*> body_radius_;
  DeviceView<Ordinal*> exclusion_ptr_;  // per vertex: [ptr[v], ptr[v+1]) in exclusion_body_
  DeviceView<int*> exclusion_body_;     // partner bodies vertex v is not tested against
  DeviceView<Real*> self_radius_;       // per body: self-contact exclusion radius (0: off)
  DeviceView<Real* [3]> vertex_reference_;
  DeviceView<ObstacleState*> obstacle_state_;
  typename DeviceView<ObstacleState*>::HostMirror obstacle_state_host_;
  Ordinal num_buckets_ = 1;
  DeviceView<Ordinal*> bucket_start_, bucket_cursor_, sorted_triangle_, triangle_bucket_;
  DeviceView<Ordinal*> vertex_count_, vertex_offset_;
  DeviceView<Real*[4]> triangle_plane_, sorted_plane_;
  DeviceView<int*> sorted_body_;

  // Device data of the surface `s` (the whole soup, or a split rank's part).
  void build_device(const SurfaceHost& s);
  // Split: this rank's part of the soup from the whole soup's vertex
  // positions X, and its device data.
  void build_part(const std::vector<std::array<Real, 3>>& X);
  // Split: re-ghost (build_part at q) when the own vertices have moved
  // more than margin / 2 since the ghosts were chosen (collective).
  void reghost_if_moved(const CoefView& q);
  // Split: the vertex owners and this rank's part at the reference.
  void split_now();
  bool any_self_ = false;
  bool split_ = false;
  int rank_ = 0;
  Real margin_ = 0.0;
  std::function<Real(Real)> global_max_;
  std::vector<int> triangle_owner_, vertex_owner_;  // whole soup
  Ordinal num_own_vertices_ = 0, num_own_triangles_ = 0;
  int ghost_updates_ = 0;
  SurfaceHost part_;
  DeviceView<Ordinal*> vertex_global_;  // split: the whole soup's id of each vertex
  DeviceView<int*> vertex_active_;      // split: 1 for this rank's own vertices
  DeviceView<Real* [3]> ghost_x_;       // split: positions the ghosts were chosen at
};

}  // namespace tlfea
