// TLFEA: contact detection's driver (detection.hpp): the bodies, obstacles
// and filters it is given, the device data setup() builds, and detect().
#include "tlfea/contact/detection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "hash_grid.hpp"
#include "narrow_phase.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/view_utils.hpp"

namespace tlfea {

namespace {

// The largest per-axis distance of the active vertices from x0.
struct GhostDisplacement {
  DeviceView<Real*[3]> x, x0;
  DeviceView<int*> active;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal v, Real& m) const {
    if (!active(v)) return;
    for (int k = 0; k < 3; ++k) {
      const Real d = x(v, k) > x0(v, k) ? x(v, k) - x0(v, k) : x0(v, k) - x(v, k);
      if (d > m) m = d;
    }
  }
};

}  // namespace

ContactPoints allocate_contact_points(Ordinal capacity) {
  if (capacity < 0) throw_error("contact points: negative capacity ", capacity);
  ContactPoints cp;
  cp.capacity = capacity;
  cp.count = DeviceView<Ordinal*>("tlfea::contact::count", 1);
  cp.x = DeviceView<Real* [3]>("tlfea::contact::x", capacity);
  cp.normal = DeviceView<Real* [3]>("tlfea::contact::normal", capacity);
  cp.delta = DeviceView<Real*>("tlfea::contact::delta", capacity);
  cp.area = DeviceView<Real*>("tlfea::contact::area", capacity);
  cp.radius = DeviceView<Real*>("tlfea::contact::radius", capacity);
  cp.body = DeviceView<int* [2]>("tlfea::contact::body", capacity);
  cp.num = DeviceView<int* [2]>("tlfea::contact::num", capacity);
  cp.id = DeviceView<Ordinal** [2]>("tlfea::contact::id", capacity, kMaxContactCoefficients);
  cp.weight = DeviceView<Real** [2]>("tlfea::contact::weight", capacity, kMaxContactCoefficients);
  cp.obstacle_velocity = DeviceView<Real* [3]>("tlfea::contact::obstacle_velocity", capacity);
  cp.key = DeviceView<unsigned long long*>("tlfea::contact::key", capacity);
  return cp;
}

ContactDetection::ContactDetection(const DetectionSettings& settings) : settings_(settings) {}

void ContactDetection::add_body(int body, const Mesh& mesh, Ordinal coef_offset,
                                Real contact_radius) {
  if (ready_) throw_error("contact detection: add_body after setup");
  add_surface(body, extract_surface(mesh, coef_offset, body, settings_.surface), contact_radius);
}

void ContactDetection::add_surface(int body, const SurfaceHost& surface, Real contact_radius) {
  if (ready_) throw_error("contact detection: add_surface after setup");
  if (body < 0) throw_error("contact detection: body id ", body, " < 0");
  if (std::find(bodies_.begin(), bodies_.end(), body) != bodies_.end())
    throw_error("contact detection: body ", body, " added twice");
  if (contact_radius < 0.0)
    throw_error("contact detection: body ", body, ": negative contact radius ", contact_radius);
  for (int b : surface.vertex_body)
    if (b != body)
      throw_error("contact detection: surface of body ", body, " has a vertex of body ", b);
  for (int b : surface.triangle_body)
    if (b != body)
      throw_error("contact detection: surface of body ", body, " has a triangle of body ", b);
  host_.append(surface);
  bodies_.push_back(body);
  if (static_cast<int>(body_radius_host_.size()) <= body) body_radius_host_.resize(body + 1, 0.0);
  body_radius_host_[body] = contact_radius;
  num_body_ids_ = std::max(num_body_ids_, body + 1);
}

int ContactDetection::add_obstacle(const Obstacle& obstacle) {
  if (ready_) throw_error("contact detection: add_obstacle after setup");
  evaluate_obstacle(obstacle, 0.0);  // validates
  obstacles_.push_back(obstacle);
  return static_cast<int>(obstacles_.size()) - 1;
}

void ContactDetection::set_body_pair(int a, int b, bool may_touch) {
  if (ready_) throw_error("contact detection: set_body_pair after setup");
  if (a < 0 || b < 0)
    throw_error("contact detection: set_body_pair(", a, ", ", b, "): negative id");
  body_pair_edits_.push_back({{a, b}, may_touch});
}

void ContactDetection::set_obstacle_body(int k, int body, bool may_touch) {
  if (ready_) throw_error("contact detection: set_obstacle_body after setup");
  if (k < 0 || body < 0)
    throw_error("contact detection: set_obstacle_body(", k, ", ", body, "): negative id");
  obstacle_edits_.push_back({{k, body}, may_touch});
}

void ContactDetection::set_self_contact(int body, Real exclusion_radius) {
  if (ready_) throw_error("contact detection: set_self_contact after setup");
  if (!(exclusion_radius > 0.0) || !std::isfinite(exclusion_radius))
    throw_error("contact detection: set_self_contact(", body, "): exclusion radius ",
                exclusion_radius, " must be positive and finite");
  self_edits_.emplace_back(body, exclusion_radius);
}

void ContactDetection::exclude_near_point(int a, int b, const Vec3& point, Real radius) {
  if (ready_) throw_error("contact detection: exclude_near_point after setup");
  if (a < 0 || b < 0 || a == b)
    throw_error("contact detection: exclude_near_point(", a, ", ", b,
                "): needs two distinct bodies");
  if (!(radius > 0.0) || !std::isfinite(radius))
    throw_error("contact detection: exclude_near_point(", a, ", ", b, "): radius ", radius,
                " must be positive");
  joint_exclusions_.push_back({a, b, point, radius});
}

void ContactDetection::build_device(const SurfaceHost& src) {
  surface_ = Surface(src);
  const Ordinal nv = surface_.num_vertices(), nt = surface_.num_triangles();
  vertex_reference_ = DeviceView<Real* [3]>("tlfea::contact::vertex_reference",
                                            any_self_ ? std::max<Ordinal>(nv, 1) : 1);
  if (any_self_) {
    auto h = host_mirror(vertex_reference_);
    for (Ordinal v = 0; v < nv; ++v)
      for (int k = 0; k < 3; ++k) h(v, k) = src.vertex_reference[v][k];
    copy_to_device(vertex_reference_, h);
  }

  // Joint filter: per vertex, the partner bodies it is not tested against.
  {
    std::vector<Ordinal> ptr(nv + 1, 0);
    std::vector<int> partner;
    for (Ordinal v = 0; v < nv; ++v) {
      const int body = src.vertex_body[v];
      const auto& X = src.vertex_reference[v];
      std::vector<int> mine;
      for (const auto& j : joint_exclusions_) {
        if (body != j.a && body != j.b) continue;
        Real d2 = 0.0;
        for (int k = 0; k < 3; ++k) d2 += (X[k] - j.point[k]) * (X[k] - j.point[k]);
        const int other = body == j.a ? j.b : j.a;
        if (d2 <= j.radius * j.radius && std::find(mine.begin(), mine.end(), other) == mine.end())
          mine.push_back(other);
      }
      partner.insert(partner.end(), mine.begin(), mine.end());
      ptr[v + 1] = static_cast<Ordinal>(partner.size());
    }
    if (partner.empty()) partner.push_back(-1);  // non-empty view
    exclusion_ptr_ = upload_to_device("tlfea::contact::exclusion_ptr", ptr);
    exclusion_body_ = upload_to_device("tlfea::contact::exclusion_body", partner);
  }

  Ordinal buckets = 1;
  while (buckets < 2 * nt && buckets < (Ordinal(1) << 30)) buckets *= 2;
  num_buckets_ = buckets;
  bucket_start_ = DeviceView<Ordinal*>("tlfea::contact::bucket_start", buckets + 1);
  bucket_cursor_ = DeviceView<Ordinal*>("tlfea::contact::bucket_cursor", buckets);
  sorted_triangle_ = DeviceView<Ordinal*>("tlfea::contact::sorted_triangle", nt);
  triangle_bucket_ = DeviceView<Ordinal*>("tlfea::contact::triangle_bucket", nt);
  triangle_plane_ = DeviceView<Real* [4]>("tlfea::contact::triangle_plane", nt);
  sorted_plane_ = DeviceView<Real* [4]>("tlfea::contact::sorted_plane", nt);
  sorted_body_ = DeviceView<int*>("tlfea::contact::sorted_body", nt);
  vertex_count_ = DeviceView<Ordinal*>("tlfea::contact::vertex_count", nv);
  vertex_offset_ = DeviceView<Ordinal*>("tlfea::contact::vertex_offset", nv);

  Ordinal cap = settings_.capacity;
  if (cap <= 0) cap = std::max<Ordinal>(64, nv);
  points_ = allocate_contact_points(cap);
}

void ContactDetection::set_split(int rank, std::vector<int> triangle_owner, Real margin,
                                 std::function<Real(Real)> global_max) {
  if (split_) throw_error("contact detection: set_split twice");
  if (rank < 0) throw_error("contact detection: set_split: rank ", rank, " < 0");
  if (!(margin >= 0.0) || !std::isfinite(margin))
    throw_error("contact detection: set_split: ghost margin ", margin,
                " must be non-negative and finite");
  if (!global_max) throw_error("contact detection: set_split: no global maximum");
  for (int o : triangle_owner)
    if (o < 0) throw_error("contact detection: set_split: negative triangle owner ", o);
  split_ = true;
  rank_ = rank;
  triangle_owner_ = std::move(triangle_owner);
  margin_ = margin;
  global_max_ = std::move(global_max);
  if (ready_) split_now();
}

void ContactDetection::split_now() {
  if (!(margin_ > 0.0)) margin_ = 2.0 * max_depth_;
  if (static_cast<Ordinal>(triangle_owner_.size()) != host_.num_triangles())
    throw_error("contact detection: set_split: ", triangle_owner_.size(), " triangle owners for ",
                host_.num_triangles(), " triangles");
  // Vertex v: the lowest rank of its triangles.
  vertex_owner_.assign(host_.num_vertices(), std::numeric_limits<int>::max());
  for (Ordinal t = 0; t < host_.num_triangles(); ++t)
    for (int k = 0; k < 3; ++k)
      vertex_owner_[host_.triangles[t][k]] =
          std::min(vertex_owner_[host_.triangles[t][k]], triangle_owner_[t]);
  for (int& o : vertex_owner_)
    if (o == std::numeric_limits<int>::max()) o = 0;
  build_part(host_.vertex_reference);
}

int ContactDetection::key_owner(unsigned long long key) const {
  if (!split_) return 0;
  Ordinal v;
  int partner;
  decode_key(key, v, partner);
  if (v < 0 || v >= static_cast<Ordinal>(vertex_owner_.size()))
    throw_error("contact detection: key ", key, " names no surface vertex");
  return vertex_owner_[v];
}

void ContactDetection::build_part(const std::vector<std::array<Real, 3>>& X) {
  const SurfaceHost& h = host_;
  const Ordinal nv = h.num_vertices(), nt = h.num_triangles();
  const int nb = num_body_ids_;
  // The bounding box of this rank's own vertices of each body.
  std::vector<std::array<Real, 6>> box(
      nb, {{std::numeric_limits<Real>::max(), std::numeric_limits<Real>::max(),
            std::numeric_limits<Real>::max(), -std::numeric_limits<Real>::max(),
            -std::numeric_limits<Real>::max(), -std::numeric_limits<Real>::max()}});
  std::vector<char> own_body(nb, 0);
  num_own_vertices_ = 0;
  for (Ordinal v = 0; v < nv; ++v) {
    if (vertex_owner_[v] != rank_) continue;
    ++num_own_vertices_;
    auto& b = box[h.vertex_body[v]];
    own_body[h.vertex_body[v]] = 1;
    for (int k = 0; k < 3; ++k) {
      b[k] = std::min(b[k], X[v][k]);
      b[3 + k] = std::max(b[3 + k], X[v][k]);
    }
  }
  // Held triangles: own, of an own vertex, or in reach of a box. A vertex
  // within max_depth of a triangle (its plane distance <= max_depth, its
  // projection inside up to inside_tolerance) lies in the triangle's box
  // grown by max_depth; the reach adds the margin (and a relative 1e-9 of
  // the box sizes against round-off).
  std::vector<char> held_tri(nt, 0), held_vert(nv, 0);
  num_own_triangles_ = 0;
  for (Ordinal t = 0; t < nt; ++t) {
    const auto& tv = h.triangles[t];
    bool keep = triangle_owner_[t] == rank_;
    num_own_triangles_ += keep ? 1 : 0;
    for (int k = 0; k < 3 && !keep; ++k) keep = vertex_owner_[tv[k]] == rank_;
    if (!keep) {
      Real lo[3], hi[3], size = 0.0;
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(X[tv[0]][k], std::min(X[tv[1]][k], X[tv[2]][k]));
        hi[k] = std::max(X[tv[0]][k], std::max(X[tv[1]][k], X[tv[2]][k]));
        size = std::max(size, hi[k] - lo[k]);
      }
      for (int b = 0; b < nb && !keep; ++b) {
        if (!own_body[b]) continue;
        Real bsize = size;
        for (int k = 0; k < 3; ++k) bsize = std::max(bsize, box[b][3 + k] - box[b][k]);
        const Real reach = max_depth_ + margin_ + 1e-9 * bsize;
        bool overlap = true;
        for (int k = 0; k < 3; ++k)
          overlap = overlap && lo[k] - reach <= box[b][3 + k] && box[b][k] <= hi[k] + reach;
        keep = overlap;
      }
    }
    if (keep) {
      held_tri[t] = 1;
      for (int k = 0; k < 3; ++k) held_vert[tv[k]] = 1;
    }
  }
  // The part, in the whole soup's order (so that a vertex's triangles, and
  // the candidates of equal depth, come in the same order as unsplit).
  SurfaceHost p;
  std::vector<Ordinal> local(nv, -1), global;
  std::vector<int> active;
  std::vector<Real> x0;
  for (Ordinal v = 0; v < nv; ++v) {
    if (!held_vert[v]) continue;
    local[v] = p.num_vertices();
    global.push_back(v);
    active.push_back(vertex_owner_[v] == rank_ ? 1 : 0);
    for (int k = 0; k < 3; ++k) x0.push_back(X[v][k]);
    p.vertex_body.push_back(h.vertex_body[v]);
    p.vertex_element.push_back(h.vertex_element[v]);
    p.vertex_xi.push_back(h.vertex_xi[v]);
    for (Ordinal l = h.vertex_ptr[v]; l < h.vertex_ptr[v + 1]; ++l) {
      p.vertex_coef.push_back(h.vertex_coef[l]);
      p.vertex_weight.push_back(h.vertex_weight[l]);
    }
    p.vertex_ptr.push_back(static_cast<Ordinal>(p.vertex_coef.size()));
    p.vertex_reference.push_back(h.vertex_reference[v]);
    p.vertex_area.push_back(h.vertex_area[v]);
  }
  for (Ordinal t = 0; t < nt; ++t) {
    if (!held_tri[t]) continue;
    const auto& tv = h.triangles[t];
    p.triangles.push_back({{local[tv[0]], local[tv[1]], local[tv[2]]}});
    p.triangle_body.push_back(h.triangle_body[t]);
    p.triangle_element.push_back(h.triangle_element[t]);
  }
  part_ = std::move(p);
  build_device(part_);
  if (global.empty()) global.push_back(0);  // non-empty views
  if (active.empty()) active.push_back(0);
  if (x0.empty()) x0.assign(3, 0.0);
  vertex_global_ = upload_to_device("tlfea::contact::vertex_global", global);
  vertex_active_ = upload_to_device("tlfea::contact::vertex_active", active);
  ghost_x_ = DeviceView<Real* [3]>("tlfea::contact::ghost_x", x0.size() / 3);
  auto gx = host_mirror(ghost_x_);
  for (size_t v = 0; v < x0.size() / 3; ++v)
    for (int k = 0; k < 3; ++k) gx(v, k) = x0[3 * v + k];
  copy_to_device(ghost_x_, gx);
}

void ContactDetection::setup() {
  if (ready_) return;
  const int nb = std::max(num_body_ids_, 1);
  num_body_ids_ = nb;
  const int nobs = num_obstacles();
  std::vector<int> pair(static_cast<size_t>(nb) * nb, 0);
  for (int a : bodies_)
    for (int b : bodies_)
      if (a != b) pair[a * nb + b] = 1;
  std::vector<Real> self_radius(nb, 0.0);
  for (const auto& e : self_edits_) {
    if (std::find(bodies_.begin(), bodies_.end(), e.first) == bodies_.end())
      throw_error("contact detection: set_self_contact(", e.first, "): no such body");
    self_radius[e.first] = e.second;
  }
  for (const auto& e : body_pair_edits_) {
    const int a = e.first.first, b = e.first.second;
    if (a >= nb || b >= nb)
      throw_error("contact detection: set_body_pair(", a, ", ", b, "): no such body");
    pair[a * nb + b] = pair[b * nb + a] = (e.second && a != b) ? 1 : 0;
  }
  bool any_self = false;
  for (int a = 0; a < nb; ++a)
    if (self_radius[a] > 0.0) {
      pair[a * nb + a] = 1;
      any_self = true;
    }
  std::vector<int> obs(static_cast<size_t>(std::max(nobs, 1)) * nb, 1);
  for (const auto& e : obstacle_edits_) {
    const int k = e.first.first, b = e.first.second;
    if (k >= nobs || b >= nb)
      throw_error("contact detection: set_obstacle_body(", k, ", ", b, "): no such obstacle/body");
    obs[k * nb + b] = e.second ? 1 : 0;
  }
  std::vector<int> has(nb, 0);
  for (int a = 0; a < nb; ++a)
    for (int b = 0; b < nb; ++b) has[a] |= pair[a * nb + b];
  body_radius_host_.resize(nb, 0.0);
  body_pair_ = upload_to_device("tlfea::contact::body_pair", pair);
  obstacle_body_ = upload_to_device("tlfea::contact::obstacle_body", obs);
  body_has_partner_ = upload_to_device("tlfea::contact::body_has_partner", has);
  body_radius_ = upload_to_device("tlfea::contact::body_radius", body_radius_host_);
  self_radius_ = upload_to_device("tlfea::contact::self_radius", self_radius);

  any_self_ = any_self;
  for (const auto& j : joint_exclusions_)
    if (std::find(bodies_.begin(), bodies_.end(), j.a) == bodies_.end() ||
        std::find(bodies_.begin(), bodies_.end(), j.b) == bodies_.end())
      throw_error("contact detection: exclude_near_point(", j.a, ", ", j.b, "): no such body");

  // Depth window: half the largest reference triangle bounding-box edge.
  max_depth_ = settings_.max_depth;
  if (!(max_depth_ > 0.0)) {
    Real ext = 0.0;
    for (const auto& t : host_.triangles)
      for (int a = 0; a < 3; ++a) {
        const Real p = host_.vertex_reference[t[0]][a], q = host_.vertex_reference[t[1]][a],
                   r = host_.vertex_reference[t[2]][a];
        ext = std::max(ext, std::max(p, std::max(q, r)) - std::min(p, std::min(q, r)));
      }
    max_depth_ = 0.5 * ext;
  }

  if (split_) {
    split_now();
  } else {
    build_device(host_);
  }

  obstacle_state_ = DeviceView<ObstacleState*>("tlfea::contact::obstacles", nobs);
  obstacle_state_host_ = host_mirror(obstacle_state_);

  ready_ = true;
}

void ContactDetection::reghost_if_moved(const CoefView& q) {
  // The largest per-axis displacement of this rank's own vertices since
  // the ghosts were chosen, over every rank (each vertex is some rank's).
  Real moved = 0.0;
  Kokkos::parallel_reduce("tlfea::contact::ghost_displacement",
                          Kokkos::RangePolicy<ExecSpace>(0, surface_.num_vertices()),
                          GhostDisplacement{surface_.x, ghost_x_, vertex_active_},
                          Kokkos::Max<Real>(moved));
  moved = global_max_(moved);
  if (!(moved > 0.5 * margin_)) return;
  // Re-ghost from the current positions of the whole soup (q is the same
  // on every rank): r = sum_l w_l q(c_l) per vertex, as on the device.
  const auto qh = to_host(q);
  const SurfaceHost& h = host_;
  std::vector<std::array<Real, 3>> X(h.num_vertices());
  for (Ordinal v = 0; v < h.num_vertices(); ++v) {
    std::array<Real, 3> r{{0.0, 0.0, 0.0}};
    for (Ordinal l = h.vertex_ptr[v]; l < h.vertex_ptr[v + 1]; ++l)
      for (int k = 0; k < 3; ++k) r[k] += h.vertex_weight[l] * qh(h.vertex_coef[l], k);
    X[v] = r;
  }
  build_part(X);
  ++ghost_updates_;
  surface_.update_positions(q);
}

Ordinal ContactDetection::detect(const CoefView& q, Real t) {
  setup();
  surface_.update_positions(q);
  if (split_) reghost_if_moved(q);  // may rebuild the part (and its surface_)
  const Ordinal nv = surface_.num_vertices(), nt = surface_.num_triangles();
  const int nb = num_body_ids_, nobs = num_obstacles();
  // t < 0 is the pseudo-time of a settle before the run (TimeStepper::settle):
  // the obstacles stay at their pose of t = 0, at rest.
  for (int k = 0; k < nobs; ++k) {
    ObstacleState& st = obstacle_state_host_(k);
    st = evaluate_obstacle(obstacles_[k], t < 0.0 ? 0.0 : t);
    if (t < 0.0) st.velocity = st.angular_velocity = Vec3{{0.0, 0.0, 0.0}};
  }
  if (nobs > 0) copy_to_device(obstacle_state_, obstacle_state_host_);

  // Broad phase: bin triangles by the hashed cell of their bounding-box centre.
  Real inv_h = 1.0;
  if (nt > 0) {
    const hash_grid::TriangleGrid grid{num_buckets_,     bucket_start_,    bucket_cursor_,
                                       triangle_bucket_, sorted_triangle_, triangle_plane_,
                                       sorted_plane_,    sorted_body_};
    cell_size_ = hash_grid::bin_triangles(surface_, max_depth_, grid);
    inv_h = 1.0 / cell_size_;
  }

  Ordinal total = 0;
  if (nv > 0) {
    NarrowPhaseData d{surface_.x,
                      surface_.normal,
                      surface_.vertex_body,
                      surface_.vertex_area,
                      surface_.vertices,
                      surface_.triangle,
                      surface_.triangle_body,
                      nt,
                      bucket_start_,
                      sorted_triangle_,
                      sorted_body_,
                      sorted_plane_,
                      inv_h,
                      static_cast<unsigned long long>(num_buckets_ - 1),
                      body_pair_,
                      obstacle_body_,
                      body_has_partner_,
                      body_radius_,
                      exclusion_ptr_,
                      exclusion_body_,
                      self_radius_,
                      vertex_reference_,
                      obstacle_state_,
                      nb,
                      nobs,
                      max_depth_,
                      settings_.inside_tolerance,
                      settings_.normal_opposition,
                      vertex_count_,
                      vertex_offset_,
                      points_};
    if (split_) {
      d.split = true;
      d.vertex_active = vertex_active_;
      d.vertex_global = vertex_global_;
    }
    total = find_contacts(d, nv);
  }
  fill(points_.count, std::min(total, points_.capacity));
  if (total > points_.capacity)
    throw_error("contact detection: ", total, " contacts exceed the capacity ", points_.capacity,
                " (DetectionSettings::capacity)");
  return total;
}

void ContactDetection::decode_key(unsigned long long key, Ordinal& vertex, int& partner) const {
  const unsigned long long P = static_cast<unsigned long long>(num_body_ids_ + num_obstacles());
  vertex = static_cast<Ordinal>(key / P);
  partner = static_cast<int>(key % P);
}

}  // namespace tlfea
