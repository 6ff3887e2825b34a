#include "tlfea/model/model.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "rigid_block.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea {

int Model::add_body(const Mesh& mesh, const MaterialSpec& material, Real density) {
  if (reference_built_)
    throw_error("Model::add_body: bodies must be added before constraints or finalize");
  check_mesh(mesh);
  Body b;
  b.mesh = mesh;
  b.offset = num_coefficients_;
  b.material = material;
  b.density = density;
  b.block = make_element_block(mesh, b.offset, material, density);
  num_coefficients_ += mesh.num_coefficients();
  bodies_.push_back(std::move(b));
  return num_bodies() - 1;
}

int Model::add_rigid_body(const RigidBodySpec& spec) {
  if (reference_built_)
    throw_error("Model::add_rigid_body: bodies must be added before constraints or finalize");
  if (!spec.shape.connectivity.empty() && spec.shape.type != ElementType::T10 &&
      spec.shape.type != ElementType::Q27)
    throw_error("rigid body ", spec.name, ": its shape must be a T10 or Q27 mesh");
  Body b;
  // The coefficient mesh: one node of four coefficients (r, r_1, r_2, r_3) at
  // the reference pose (centre, world axes), no elements (§10.1).
  b.mesh.type = ElementType::ANCF3243;
  b.mesh.source = "rigid body " + spec.name;
  b.mesh.coefficients = {{spec.center[0], spec.center[1], spec.center[2]},
                         {1.0, 0.0, 0.0},
                         {0.0, 1.0, 0.0},
                         {0.0, 0.0, 1.0}};
  b.mesh.node_sets["all"] = {0};
  b.offset = num_coefficients_;
  auto block = std::make_unique<RigidBlock>(spec, b.offset);
  b.rigid = block.get();
  b.block = std::move(block);
  num_coefficients_ += 4;
  bodies_.push_back(std::move(b));
  return num_bodies() - 1;
}

const RigidBodySpec& Model::rigid_spec(int body) const {
  const Body& b = bodies_.at(body);
  if (!b.rigid) throw_error("Model::rigid_spec: body ", body, " is not rigid");
  return b.rigid->spec();
}

RowRange Model::rigidity_rows(int body) const {
  const Body& b = bodies_.at(body);
  if (!b.rigid) throw_error("Model::rigidity_rows: body ", body, " is not rigid");
  return b.rigidity;
}

Model::RigidPose Model::rigid_pose(int body, HostCoefs q, HostCoefs v) const {
  const Body& b = bodies_.at(body);
  if (!b.rigid) throw_error("Model::rigid_pose: body ", body, " is not rigid");
  RigidPose p;
  const Ordinal o = b.offset;
  for (int a = 0; a < 3; ++a) {
    p.center[a] = q(o, a);
    for (int k = 0; k < 3; ++k) p.rotation(a, k) = q(o + 1 + k, a);
  }
  if (v.extent(0) > 0) {
    for (int a = 0; a < 3; ++a) {
      p.velocity[a] = v(o, a);
      p.angular_velocity[a] = 0.0;
    }
    for (int k = 1; k <= 3; ++k) {
      const Vec3 r{{q(o + k, 0), q(o + k, 1), q(o + k, 2)}};
      const Vec3 w{{v(o + k, 0), v(o + k, 1), v(o + k, 2)}};
      const Vec3 c = cross(r, w);
      for (int a = 0; a < 3; ++a) p.angular_velocity[a] += 0.5 * c[a];
    }
  }
  return p;
}

void Model::set_rigid_velocity(int body, const Vec3& v_c, const Vec3& omega, const CoefViewHost& q,
                               const CoefViewHost& v) const {
  const Body& b = bodies_.at(body);
  if (!b.rigid) throw_error("Model::set_rigid_velocity: body ", body, " is not rigid");
  const Ordinal o = b.offset;
  for (int a = 0; a < 3; ++a) v(o, a) = v_c[a];
  for (int k = 1; k <= 3; ++k) {
    const Vec3 w = cross(omega, Vec3{{q(o + k, 0), q(o + k, 1), q(o + k, 2)}});
    for (int a = 0; a < 3; ++a) v(o + k, a) = w[a];
  }
}

void Model::add_torque(int body, const Vec3& T, TimeFunction amplitude) {
  if (finalized_) throw_error("Model::add_torque: the model is already finalized");
  if (!bodies_.at(body).rigid) throw_error("Model::add_torque: body ", body, " is not rigid");
  torques_.push_back({body, T, std::move(amplitude)});
}

void Model::clamp_nodes(int body, const std::vector<Ordinal>& nodes, bool gradients_too) {
  const Body& b = bodies_.at(body);
  const int cpn = b.mesh.coefficients_per_node();
  for (Ordinal n : nodes) {
    if (n < 0 || n >= b.mesh.num_nodes())
      throw_error(b.mesh.source, ": clamped node ", n, " out of range (", b.mesh.num_nodes(),
                  " nodes)");
    for (int k = 0; k < (gradients_too ? cpn : 1); ++k) {
      const Ordinal c = b.offset + n * cpn + k;
      if (!prescribed_set_.count(c)) clamped_.push_back(c);
    }
  }
  std::sort(clamped_.begin(), clamped_.end());
  clamped_.erase(std::unique(clamped_.begin(), clamped_.end()), clamped_.end());
}

const std::vector<Ordinal>& Model::clamped_coefficients() const {
  if (clamped_stale_) {
    clamped_.erase(std::remove_if(clamped_.begin(), clamped_.end(),
                                  [&](Ordinal c) { return prescribed_set_.count(c) > 0; }),
                   clamped_.end());
    clamped_stale_ = false;
  }
  return clamped_;
}

void Model::clamp_node_set(int body, const std::string& set, bool gradients_too) {
  const Mesh& m = bodies_.at(body).mesh;
  auto it = m.node_sets.find(set);
  if (it == m.node_sets.end()) throw_error(m.source, ": no node set named '", set, "'");
  clamp_nodes(body, it->second, gradients_too);
}

void Model::prescribe_nodes(int body, const std::vector<Ordinal>& nodes, MotionFunction position,
                            bool gradients_clamped) {
  if (finalized_) throw_error("Model::prescribe_nodes: the model is already finalized");
  if (!position) throw_error("Model::prescribe_nodes: empty motion function");
  const Body& b = bodies_.at(body);
  const int cpn = b.mesh.coefficients_per_node();
  for (Ordinal n : nodes) {
    if (n < 0 || n >= b.mesh.num_nodes())
      throw_error(b.mesh.source, ": prescribed node ", n, " out of range (", b.mesh.num_nodes(),
                  " nodes)");
    const auto& X = b.mesh.node_position(n);
    prescribed_.push_back({b.offset + n * cpn, Vec3{{X[0], X[1], X[2]}}, position});
    prescribed_set_.insert(b.offset + n * cpn);
  }
  if (gradients_clamped && cpn > 1) clamp_nodes(body, nodes, true);
  // A prescribed position coefficient is not also clamped (one pass, hashed
  // look-ups: setup stays linear in the number of coefficients).
  clamped_.erase(std::remove_if(clamped_.begin(), clamped_.end(),
                                [&](Ordinal c) { return prescribed_set_.count(c) > 0; }),
                 clamped_.end());
}

void Model::prescribe_coefficient(int body, Ordinal node, int k, MotionFunction value) {
  if (finalized_) throw_error("Model::prescribe_coefficient: the model is already finalized");
  if (!value) throw_error("Model::prescribe_coefficient: empty motion function");
  const Body& b = bodies_.at(body);
  const int cpn = b.mesh.coefficients_per_node();
  if (node < 0 || node >= b.mesh.num_nodes() || k < 0 || k >= cpn)
    throw_error(b.mesh.source, ": prescribed coefficient (node ", node, ", ", k, ") out of range (",
                b.mesh.num_nodes(), " nodes, ", cpn, " coefficients each)");
  const Ordinal local = node * cpn + k;
  const auto& X = b.mesh.coefficients[local];
  const Ordinal c = b.offset + local;
  // Hashed look-up, not a scan of prescribed_: a scan per coefficient made
  // prescribing every node of a 100,000-element beam take minutes.
  if (!prescribed_set_.insert(c).second)
    throw_error(b.mesh.source, ": coefficient ", c - b.offset, " (node ", node, ", ", k,
                ") prescribed twice");
  prescribed_.push_back({c, Vec3{{X[0], X[1], X[2]}}, value});
  // A clamped c leaves clamped_ at its next read (clamped_coefficients): one
  // pass for all of them instead of an erase per coefficient.
  clamped_stale_ = true;
}

void Model::fix_components(int body, Ordinal node, int k, std::array<bool, 3> axes) {
  if (finalized_) throw_error("Model::fix_components: the model is already finalized");
  const Body& b = bodies_.at(body);
  const int cpn = b.mesh.coefficients_per_node();
  if (node < 0 || node >= b.mesh.num_nodes() || k < 0 || k >= cpn)
    throw_error(b.mesh.source, ": fixed coefficient (node ", node, ", ", k, ") out of range (",
                b.mesh.num_nodes(), " nodes, ", cpn, " coefficients each)");
  const Ordinal c = b.offset + node * cpn + k;
  for (int a = 0; a < 3; ++a)
    if (axes[a]) fixed_components_.push_back(3 * c + a);
}

const std::vector<Ordinal>& Model::fixed_components() const {
  std::sort(fixed_components_.begin(), fixed_components_.end());
  fixed_components_.erase(std::unique(fixed_components_.begin(), fixed_components_.end()),
                          fixed_components_.end());
  fixed_components_.erase(
      std::remove_if(fixed_components_.begin(), fixed_components_.end(),
                     [&](Ordinal d) { return prescribed_set_.count(d / 3) > 0; }),
      fixed_components_.end());
  return fixed_components_;
}

void Model::set_gravity(const Vec3& g, TimeFunction amplitude) {
  if (finalized_) throw_error("Model::set_gravity: the model is already finalized");
  gravity_ = g;
  gravity_amplitude_ = std::move(amplitude);
}

void Model::add_nodal_force(int body, Ordinal node, const Vec3& force, TimeFunction amplitude) {
  if (finalized_) throw_error("Model::add_nodal_force: the model is already finalized");
  const Body& b = bodies_.at(body);
  if (node < 0 || node >= b.mesh.num_nodes())
    throw_error(b.mesh.source, ": loaded node ", node, " out of range (", b.mesh.num_nodes(),
                " nodes)");
  nodal_forces_.push_back({b.offset + node * b.mesh.coefficients_per_node(), force, amplitude});
}

void Model::add_point_force(int body, Ordinal element, const Real xi[3], const Vec3& force,
                            TimeFunction amplitude) {
  if (finalized_) throw_error("Model::add_point_force: the model is already finalized");
  const Body& b = bodies_.at(body);
  // The block's elements (a rigid body: one, its coefficient mesh has none).
  if (element < 0 || element >= b.block->num_elements())
    throw_error(b.mesh.source, ": point force on element ", element, " out of range (",
                b.block->num_elements(), " elements)");
  point_forces_.push_back({body, element, Vec3{{xi[0], xi[1], xi[2]}}, force, amplitude});
}

void Model::add_traction(int body, const std::string& face_set, const Vec3& t0,
                         TimeFunction amplitude) {
  if (finalized_) throw_error("Model::add_traction: the model is already finalized");
  const Mesh& m = bodies_.at(body).mesh;
  auto it = m.face_sets.find(face_set);
  if (it == m.face_sets.end()) throw_error(m.source, ": no face set named '", face_set, "'");
  tractions_.push_back({body, it->second, t0, amplitude});
}

void Model::add_pressure(int body, const std::string& face_set, Real p, TimeFunction amplitude) {
  if (finalized_) throw_error("Model::add_pressure: the model is already finalized");
  const Mesh& m = bodies_.at(body).mesh;
  auto it = m.face_sets.find(face_set);
  if (it == m.face_sets.end()) throw_error(m.source, ": no face set named '", face_set, "'");
  pressures_.push_back({body, make_face_list(it->second), p, amplitude});
}

namespace {
struct AddScaled {
  CoefView f, x;
  Real a;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    for (int c = 0; c < 3; ++c) f(k, c) += a * x(k, c);
  }
};
// The block layout of the pattern (core/crs_pattern.hpp): block row b's
// three scalar rows each hold 3 entries per block column, in the same order,
// so block row b's blocks number row_map(3 b) / 9 + slot (9 entries per
// block before it), and scalar entry k of row r = 3 b + a is component
// (a, (k - row_map(r)) % 3) of block slot (k - row_map(r)) / 3.

// values(k) = scale M_bc for the (a, a) entries of block (b, c) of scalar row
// r = 3 b + a, 0 for the others: scale (M (x) I3) on the pattern, row by row.
// A row whose block row holds no blocks (released mass rows: another rank
// owns it) is written 0.
struct ExpandBlockMass {
  DeviceView<Offset*> row_map;
  DeviceView<Offset*> block_row_map;  // Model::block_row_map
  DeviceView<Real*> mass, values;
  Real scale;
  DeviceView<Offset*> shift;  // RowLayout::shift (empty: the whole pattern)
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal r) const {
    const Offset s = shift.extent(0) == 0 ? 0 : shift(r);
    if (s == RowLayout::kAbsent) return;
    const Ordinal a = r % 3;
    const Offset base = block_row_map(r / 3);
    const bool held = block_row_map(r / 3 + 1) > base;
    for (Offset k = row_map(r); k < row_map(r + 1); ++k) {
      const Offset j = k - row_map(r);
      values(k + s) = held && j % 3 == a ? scale * mass(base + j / 3) : 0.0;
    }
  }
};

// m(b) = sum_c M_bc (the row sums of M).
struct BlockRowSum {
  DeviceView<Offset*> block_row_map;  // Model::block_row_map
  DeviceView<Real*> mass, m;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal b) const {
    Real s = 0.0;
    for (Offset i = block_row_map(b); i < block_row_map(b + 1); ++i) s += mass(i);
    m(b) = s;
  }
};

// v^T (M (x) I3) v = sum_b sum_c M_bc v_b . v_c.
struct BlockQuadratic {
  DeviceView<Offset*> block_row_map;  // Model::block_row_map, block_columns
  DeviceView<Ordinal*> columns;
  DeviceView<Real*> mass;
  CoefView v;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal b, Real& s) const {
    Real mv[3] = {0.0, 0.0, 0.0};
    for (Offset i = block_row_map(b); i < block_row_map(b + 1); ++i) {
      const Ordinal c = columns(i);
      for (int a = 0; a < 3; ++a) mv[a] += mass(i) * v(c, a);
    }
    s += v(b, 0) * mv[0] + v(b, 1) * mv[1] + v(b, 2) * mv[2];
  }
};

// Per-row contributions to Model::body_motion of the rows [off, off + n)
// of one body with cpn coefficients per node (position coefficient: local
// index % cpn == 0). Row k of M: the block masses M_kj of block row k
// (Model::block_mass; docs/theory.md §3.5, §8.1). Sums:
//   s[0] = sum_{k pos} w_k (mass), w_k = sum_{j pos} M_kj = (e^T M)_k,
//   s[1..3] = sum_k w_k q_k (m c),  s[4..6] = sum_k w_k v_k (p),
//   s[7..9] = sum_k q_k x (M v)_k (L),  s[10] = sum_k v_k . (M v)_k (2 T).
struct BodyMotionSums {
  using value_type = Real[];
  using size_type = Ordinal;
  unsigned value_count = 11;
  DeviceView<Offset*> block_row_map;  // Model::block_row_map, block_columns
  DeviceView<Ordinal*> columns;
  DeviceView<Real*> mass;  // Model::block_mass
  CoefView q, v;
  Ordinal off, n;
  int cpn;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, value_type s) const {
    const Ordinal k = off + i;
    Real w = 0.0, mv[3] = {0.0, 0.0, 0.0};
    // Block row k's block columns j and their block masses (Model::block_mass).
    for (Offset b = block_row_map(k); b < block_row_map(k + 1); ++b) {
      const Ordinal j = columns(b);
      if (j < off || j >= off + n) continue;  // another body (constraint couplings: no mass)
      const Real m = mass(b);
      if ((j - off) % cpn == 0) w += m;
      for (int a = 0; a < 3; ++a) mv[a] += m * v(j, a);
    }
    if (i % cpn == 0) s[0] += w;
    for (int a = 0; a < 3; ++a) {
      s[1 + a] += w * q(k, a);
      s[4 + a] += w * v(k, a);
    }
    s[7] += q(k, 1) * mv[2] - q(k, 2) * mv[1];
    s[8] += q(k, 2) * mv[0] - q(k, 0) * mv[2];
    s[9] += q(k, 0) * mv[1] - q(k, 1) * mv[0];
    s[10] += v(k, 0) * mv[0] + v(k, 1) * mv[1] + v(k, 2) * mv[2];
  }
  KOKKOS_INLINE_FUNCTION void init(value_type s) const {
    for (unsigned c = 0; c < value_count; ++c) s[c] = 0.0;
  }
  // Kokkos 3 joins through volatile references, Kokkos 4 through plain ones.
  KOKKOS_INLINE_FUNCTION void join(volatile value_type d, const volatile value_type s) const {
    for (unsigned c = 0; c < value_count; ++c) d[c] += s[c];
  }
  KOKKOS_INLINE_FUNCTION void join(value_type d, const value_type s) const {
    for (unsigned c = 0; c < value_count; ++c) d[c] += s[c];
  }
};
}  // namespace

void Model::external_load(Real t, const CoefView& q, const CoefView& f) const {
  whole();
  device_copy(f, load_);
  for (const TimedLoad& l : timed_)
    Kokkos::parallel_for("tlfea::model::timed_load",
                         Kokkos::RangePolicy<ExecSpace>(0, num_coefficients_),
                         AddScaled{f, l.f, l.amplitude(t)});
  for (const Pressure& p : pressures_)
    bodies_[p.body].block->follower_pressure(q, p.faces, p.amplitude ? p.p * p.amplitude(t) : p.p,
                                             f);
  for (const Torque& tq : torques_)
    bodies_[tq.body].rigid->torque(q, tq.T, tq.amplitude ? tq.amplitude(t) : 1.0, f);
}

void Model::external_load_tangent(Real t, const CoefView& q, Real alpha,
                                  const DeviceView<Real*>& values) const {
  whole();
  for (const Pressure& p : pressures_)
    bodies_[p.body].block->follower_pressure_tangent(
        q, p.faces, p.amplitude ? p.p * p.amplitude(t) : p.p, alpha, values);
  for (const Torque& tq : torques_)
    bodies_[tq.body].rigid->torque_tangent(tq.T, tq.amplitude ? tq.amplitude(t) : 1.0, alpha,
                                           values);
}

RowRange Model::add_coupling(int body_i, const std::vector<Ordinal>& nodes, int body_j,
                             const CouplingSpec& spec) {
  if (finalized_) throw_error("Model::add_coupling() after finalize()");
  if (body_i < 0 || body_i >= num_bodies()) throw_error("coupling: no body ", body_i);
  if (body_j >= num_bodies() || body_j < -1) throw_error("coupling: no body ", body_j);
  if (body_i == body_j) throw_error("coupling: body_i and body_j are the same body");
  if (is_rigid(body_i))
    throw_error(
        "coupling: body_i is rigid (it has no nodes to couple); couple a deformable "
        "body's nodes to it as body_j");
  if (nodes.empty()) throw_error("coupling: no nodes");
  const Body& bi = bodies_[body_i];
  const int cpn = bi.mesh.coefficients_per_node();
  const bool ancf = cpn == 4;
  for (const Ordinal n : nodes)
    if (n < 0 || n >= bi.mesh.num_nodes())
      throw_error("coupling: node ", n, " out of range (body ", body_i, " has ",
                  bi.mesh.num_nodes(), " nodes)");
  ConstraintSet& cs = constraints();
  // A HostMirror (CoefViewHost), the type find_material_point takes on
  // every backend.
  CoefViewHost q0 = to_host(q0_);
  // body_j's material point at reference position X.
  auto point_j = [&](const Vec3& X) -> MaterialPoint {
    if (body_j < 0) return ground_point(X);
    const Body& bj = bodies_[body_j];
    if (bj.rigid) {
      const Vec3& c = rigid_spec(body_j).center;
      const Ordinal o = bj.offset;
      return combination_point({o, o + 1, o + 2, o + 3},
                               {1.0, X[0] - c[0], X[1] - c[1], X[2] - c[2]});
    }
    return find_material_point(*bj.block, q0, X);
  };
  auto position = [&](Ordinal n) { return combination_point({bi.offset + n * cpn}, {1.0}); };
  // The pairs of points to hold together; their rows are added once all are
  // found (a point outside body_j adds nothing).
  std::vector<std::pair<MaterialPoint, MaterialPoint>> pairs;
  auto coincide = [&](const MaterialPoint& P, const MaterialPoint& Q) { pairs.push_back({P, Q}); };
  // Further rows, added after the pairs' (the distributing rotation rows).
  std::vector<std::function<void()>> rotation_rows;
  const Ordinal first = cs.num_rows();
  if (spec.form == CouplingSpec::Form::kinematic) {
    if (spec.rotation && ancf && body_j >= 0 && !is_rigid(body_j))
      throw_error(
          "coupling: position+rotation ties ANCF gradients to a rigid body_j or the "
          "ground; body_j is deformable");
    for (const Ordinal n : nodes) {
      const Ordinal c = bi.offset + n * cpn;
      const Vec3 X{{q0(c, 0), q0(c, 1), q0(c, 2)}};
      coincide(position(n), point_j(X));
      if (!(spec.rotation && ancf)) continue;
      for (int k = 1; k < 4; ++k) {
        const Vec3 g{{q0(c + k, 0), q0(c + k, 1), q0(c + k, 2)}};
        const MaterialPoint G = combination_point({c + k}, {1.0});
        if (body_j < 0) {
          coincide(G, ground_point(g));
        } else {
          const Ordinal o = bodies_[body_j].offset;
          coincide(G, combination_point({o + 1, o + 2, o + 3}, {g[0], g[1], g[2]}));
        }
      }
    }
  } else {
    if (spec.rotation && body_j >= 0 && !is_rigid(body_j))
      throw_error(
          "coupling: a distributing position+rotation coupling makes the set's mean rotation "
          "follow a rigid body_j or the ground; body_j is deformable (it has no rotation of its "
          "own)");
    if (!spec.weights.empty() && spec.weights.size() != nodes.size())
      throw_error("coupling: ", spec.weights.size(), " weights for ", nodes.size(), " nodes");
    Real sum = 0.0;
    for (size_t i = 0; i < nodes.size(); ++i) {
      const Real w = spec.weights.empty() ? 1.0 : spec.weights[i];
      if (!(w >= 0.0) || !std::isfinite(w)) throw_error("coupling: weight ", w, " is not >= 0");
      sum += w;
    }
    if (!(sum > 0.0)) throw_error("coupling: the weights sum to zero");
    std::vector<Ordinal> ids;
    std::vector<Real> ws;
    Vec3 Xc{{0.0, 0.0, 0.0}};
    for (size_t i = 0; i < nodes.size(); ++i) {
      const Real w = (spec.weights.empty() ? 1.0 : spec.weights[i]) / sum;
      const Ordinal c = bi.offset + nodes[i] * cpn;
      ids.push_back(c);
      ws.push_back(w);
      for (int a = 0; a < 3; ++a) Xc[a] += w * q0(c, a);
    }
    coincide(combination_point(ids, ws), point_j(Xc));
    if (spec.rotation) {
      // Rotation rows (docs/theory.md §5.7): with d_i = X_i - X_c and body
      // j's directors r_k (reference: e_k, so R = [r_1 r_2 r_3] is its
      // rotation), y_k = sum_i w_i d_ik x_i, the rows
      //   c_a = w (r_m^T y_k - r_k^T y_m),  k = a+1, m = a+2 (mod 3),
      // are the body-frame components r_a^T g of
      //   g = sum_i w_i (R d_i) x (x_i - x_c) = sum_k r_k x y_k
      // where R is orthonormal (its rigidity rows), the stationarity of
      // min_R sum_i w_i |x_i - x_c - R d_i|^2. The rotation is determined
      // where the set's polar moment J = tr(S) I - S, S = sum_i w_i d_i d_i^T,
      // is regular, i.e. unless the set is collinear (rank S < 2).
      Mat3 S = zero3();
      for (size_t i = 0; i < ids.size(); ++i) {
        const Vec3 d{{q0(ids[i], 0) - Xc[0], q0(ids[i], 1) - Xc[1], q0(ids[i], 2) - Xc[2]}};
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) S(a, b) += ws[i] * d[a] * d[b];
      }
      const Real trS = S(0, 0) + S(1, 1) + S(2, 2);
      Mat3 J = zero3();
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) J(a, b) = (a == b ? trS : 0.0) - S(a, b);
      // det J = product of J's eigenvalues (>= 0); relative to (tr J / 3)^3
      // it is zero for a collinear set (one eigenvalue of J vanishes).
      const Real mean = 2.0 * trS / 3.0;
      if (!(trS > 0.0) || !(det(J) > 1e-9 * mean * mean * mean))
        throw_error("coupling: the ", nodes.size(),
                    " nodes of a distributing position+rotation coupling are collinear or "
                    "coincide (their rotation about that line is undetermined); couple a set "
                    "that spans a plane or a volume, or use dofs: position");
      std::vector<MaterialPoint> y;
      for (int k = 0; k < 3; ++k) {
        std::vector<Real> wk;
        for (size_t i = 0; i < ids.size(); ++i) wk.push_back(ws[i] * (q0(ids[i], k) - Xc[k]));
        y.push_back(combination_point(ids, wk));
      }
      std::vector<MaterialPoint> r;
      for (int k = 0; k < 3; ++k) {
        Vec3 e{{0.0, 0.0, 0.0}};
        e[k] = 1.0;
        r.push_back(body_j < 0 ? ground_point(e)
                               : combination_point({bodies_[body_j].offset + 1 + k}, {1.0}));
      }
      // Rows weighted by 1 / sqrt(tr S) (a rotation theta gives c ~ sqrt(tr S)
      // theta, a length like the CD rows'); f the reference value (zero up to
      // round-off: S is symmetric).
      const Real w = 1.0 / std::sqrt(trS);
      for (int a = 0; a < 3; ++a) {
        const int k = (a + 1) % 3, m = (a + 2) % 3;
        const Real f0 = dot(cs.reference_position(r[m]), cs.reference_position(y[k])) -
                        dot(cs.reference_position(r[k]), cs.reference_position(y[m]));
        rotation_rows.push_back([&cs, r, y, k, m, f0, w] {
          cs.add_ddp(r[m], y[k], r[k], y[m], DrivingFunction::constant(f0), w);
        });
      }
    }
  }
  // Three CD rows per pair holding Q - P at its reference value (zero up to
  // the point search's tolerance), as a spherical joint does.
  for (const auto& pq : pairs) {
    const Vec3 a = cs.reference_position(pq.first), b = cs.reference_position(pq.second);
    for (int k = 0; k < 3; ++k) {
      Vec3 e{{0.0, 0.0, 0.0}};
      e[k] = 1.0;
      cs.add_cd(pq.first, pq.second, e, DrivingFunction::constant(b[k] - a[k]));
    }
  }
  for (const auto& add : rotation_rows) add();
  return RowRange{first, cs.num_rows() - first};
}

int Model::add_spring_damper(const MaterialPoint& a, const MaterialPoint& b,
                             const SpringDamperSpec& spec) {
  if (finalized_) throw_error("Model::add_spring_damper() after finalize()");
  for (const MaterialPoint* p : {&a, &b})
    for (const Ordinal id : p->id)
      if (id < 0 || id >= num_coefficients_)
        throw_error("Model::add_spring_damper: coefficient ", id, " outside the model's ",
                    num_coefficients_);
  return springs_.add(a, b, spec);
}

int Model::add_rotational_spring_damper(const MaterialPoint& u, const MaterialPoint& a,
                                        const MaterialPoint& b,
                                        const RotationalSpringDamperSpec& spec) {
  if (finalized_) throw_error("Model::add_rotational_spring_damper() after finalize()");
  for (const MaterialPoint* p : {&u, &a, &b})
    for (const Ordinal id : p->id)
      if (id < 0 || id >= num_coefficients_)
        throw_error("Model::add_rotational_spring_damper: coefficient ", id,
                    " outside the model's ", num_coefficients_);
  build_reference();
  CoefViewHost q0 = to_host(q0_);
  return rsdas_.add(u, a, b, spec, q0);
}

MaterialPoint Model::rigid_vector(int body, const Vec3& w) const {
  if (body < 0) return ground_point(w);
  if (!is_rigid(body)) throw_error("Model::rigid_vector: body ", body, " is not rigid");
  const Ordinal o = bodies_.at(body).offset;
  return combination_point({o + 1, o + 2, o + 3}, {w[0], w[1], w[2]});
}

MaterialPoint Model::node_vector(int body, Ordinal node, const Vec3& w) {
  if (body < 0 || body >= num_bodies()) throw_error("Model::node_vector: no body ", body);
  const Body& b = bodies_[body];
  if (b.rigid || b.mesh.coefficients_per_node() != 4)
    throw_error("Model::node_vector: body ", body,
                " has no node frames (only ANCF nodes carry gradients)");
  if (node < 0 || node >= b.mesh.num_nodes())
    throw_error("Model::node_vector: node ", node, " out of range (body ", body, " has ",
                b.mesh.num_nodes(), " nodes)");
  build_reference();
  const CoefViewHost q0 = to_host(q0_);
  const Ordinal c = b.offset + 4 * node;
  Mat3 G;  // columns: the reference gradients
  for (int k = 0; k < 3; ++k)
    for (int a = 0; a < 3; ++a) G(a, k) = q0(c + 1 + k, a);
  Real scale = 0.0;
  for (int k = 0; k < 9; ++k) scale = std::max(scale, std::fabs(G.m[k]));
  if (!(std::fabs(det(G)) > 1e-12 * scale * scale * scale))
    throw_error("Model::node_vector: node ", node, " of body ", body,
                " has a singular reference frame (its gradients are linearly dependent)");
  const Mat3 Gi = inverse(G);
  std::vector<Real> alpha(3, 0.0);
  for (int k = 0; k < 3; ++k)
    for (int a = 0; a < 3; ++a) alpha[k] += Gi(k, a) * w[a];
  return combination_point({c + 1, c + 2, c + 3}, alpha);
}

void Model::force_element_load(const CoefView& q, const CoefView& v, const CoefView& f) const {
  whole();
  if (springs_.size() > 0) springs_.add_force(q, v, f);
  if (rsdas_.size() > 0) rsdas_.add_force(q, v, f);
}

void Model::force_element_tangent(const CoefView& q, const CoefView& v, Real alpha_K, Real alpha_D,
                                  const DeviceView<Real*>& values) const {
  whole();
  if (springs_.size() > 0) springs_.tangent(q, v, alpha_K, alpha_D, values);
  if (rsdas_.size() > 0) rsdas_.tangent(q, v, alpha_K, alpha_D, values);
}

Real Model::force_element_energy(const CoefView& q) const {
  whole();
  return (springs_.size() > 0 ? springs_.energy(q) : 0.0) +
         (rsdas_.size() > 0 ? rsdas_.energy(q) : 0.0);
}

void Model::build_reference() {
  if (reference_built_) return;
  if (bodies_.empty()) throw_error("Model: no bodies");
  q0_ = CoefView("tlfea::model::q0", num_coefficients_);
  for (const Body& b : bodies_) copy_reference_coefficients(b.mesh, b.offset, q0_);
  reference_built_ = true;
}

ConstraintSet& Model::constraints() {
  whole();
  build_reference();
  if (!constraints_) constraints_ = std::make_unique<ConstraintSet>(q0_);
  return *constraints_;
}

namespace {

// f += F_k at material point k of a set of point loads (one thread).
struct PointForceScatter {
  MaterialPointSet points;
  Vec3 F;
  CoefView f;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const { points.add_force(k, F, f, true); }
};

}  // namespace

void Model::require_step_force(const std::string& name) {
  if (std::find(required_step_forces_.begin(), required_step_forces_.end(), name) ==
      required_step_forces_.end())
    required_step_forces_.push_back(name);
}

void Model::finalize() {
  if (finalized_) return;
  build_reference();
  // Rigidity of each rigid body (§10.2), after the user's rows: with a
  // ground point o at the origin and the director points r_k,
  //   DIST (o, r_k, f = 1):          (r_k . r_k - 1) / 2 = 0,
  //   DP1 (o, r_k, o, r_l, f = 0):   r_k . r_l = 0   (k < l);
  // all reference lengths are 1, so every row weight is 1.
  for (Body& b : bodies_) {
    if (!b.rigid) continue;
    ConstraintSet& cs = constraints();
    const MaterialPoint o = ground_point(Vec3{{0.0, 0.0, 0.0}});
    MaterialPoint d[3];
    for (int k = 0; k < 3; ++k) d[k] = combination_point({b.offset + 1 + k}, {1.0});
    b.rigidity.first = cs.num_rows();
    for (int k = 0; k < 3; ++k) cs.add_dist(o, d[k], DrivingFunction::constant(1.0));
    cs.add_dp1(o, d[0], o, d[1], DrivingFunction::constant(0.0));
    cs.add_dp1(o, d[1], o, d[2], DrivingFunction::constant(0.0));
    cs.add_dp1(o, d[0], o, d[2], DrivingFunction::constant(0.0));
    b.rigidity.count = 6;
  }
  const bool with_constraints = constraints_ && constraints_->num_rows() > 0;
  if (with_constraints) constraints_->finalize();
  // The clique sets in the order build_structure takes them: bodies,
  // constraints, spring-dampers, rotational spring-dampers.
  const int nsets = static_cast<int>(bodies_.size()) + (with_constraints ? 1 : 0);
  springs_offsets_ = -1;
  if (springs_.size() > 0) {
    springs_.finalize();
    springs_offsets_ = nsets;
  }
  rsdas_offsets_ = -1;
  if (rsdas_.size() > 0) {
    rsdas_.finalize();
    rsdas_offsets_ = nsets + (springs_offsets_ >= 0 ? 1 : 0);
  }
  build_structure();
  // The consistent mass is M (x) I3 (docs/theory.md §3.5): kept as M's
  // scalars, one per 3 x 3 block (block_mass()), assembled there directly
  // (ElementBlockBase::block_mass): 1/9 of the pattern's entries, and no
  // array of all of them at any time.
  assemble_block_mass();
  // Loads without amplitude go into one constant vector; each timed load keeps
  // its own (unit-amplitude) vector, scaled by f(t) in external_load.
  load_ = CoefView("tlfea::model::constant_load", num_coefficients_);
  auto target = [&](const TimeFunction& amp) -> CoefView {
    if (!amp) return load_;
    timed_.push_back({CoefView("tlfea::model::timed_load", num_coefficients_), amp});
    return timed_.back().f;
  };
  // Gravity: the dead load f_g = int rho N^T g dV0 on the reference (a
  // constant vector, since rho dV = rho0 dV0), times f(t) when timed.
  if (gravity_[0] != 0.0 || gravity_[1] != 0.0 || gravity_[2] != 0.0) {
    const CoefView fg = target(gravity_amplitude_);
    for (const Body& b : bodies_) b.block->body_force(q0_, gravity_, fg);
  }
  // Nodal forces: those without amplitude added, in the order given, into
  // one host copy of the constant load (a copy of the whole vector per
  // force made the setup quadratic in a load spread over many nodes); a
  // timed one has a vector of its own.
  {
    decltype(to_host(load_)) constant;
    for (const NodalForce& nf : nodal_forces_) {
      if (nf.amplitude) {
        CoefView f = target(nf.amplitude);
        auto h = to_host(f);
        for (int a = 0; a < 3; ++a) h(nf.coefficient, a) += nf.force[a];
        copy_to_device(f, h);
        continue;
      }
      if (constant.extent(0) == 0) constant = to_host(load_);
      for (int a = 0; a < 3; ++a) constant(nf.coefficient, a) += nf.force[a];
    }
    if (constant.extent(0) > 0) copy_to_device(load_, constant);
  }
  // Point forces (§3.7): one set of their material points, each force
  // scattered into its target by MaterialPointSet::add_force (one launch per
  // force, in order).
  if (!point_forces_.empty()) {
    MaterialPointSetHost ph;
    for (const PointForce& pf : point_forces_) {
      const Real xi[3] = {pf.xi[0], pf.xi[1], pf.xi[2]};
      const MaterialPoint p = make_material_point(*bodies_[pf.body].block, pf.element, xi);
      ph.add(p.id.data(), p.weight.data(), p.num);
    }
    const MaterialPointSet points = upload_material_points("tlfea::model::point_load", ph);
    for (size_t k = 0; k < point_forces_.size(); ++k)
      Kokkos::parallel_for(
          "tlfea::model::point_force",
          Kokkos::RangePolicy<ExecSpace>(static_cast<Ordinal>(k), static_cast<Ordinal>(k) + 1),
          PointForceScatter{points, point_forces_[k].force, target(point_forces_[k].amplitude)});
  }
  for (const Traction& tr : tractions_)
    bodies_[tr.body].block->dead_traction(q0_, make_face_list(tr.faces), tr.t0,
                                          target(tr.amplitude));
  finalized_ = true;
}

void Model::build_structure() {
  std::vector<CliqueSet> cliques;
  for (const Body& b : bodies_) cliques.push_back(b.block->cliques());
  const bool with_constraints = constraints_ && constraints_->num_rows() > 0;
  if (with_constraints) cliques.push_back(constraints_->jacobian_cliques());
  if (springs_offsets_ >= 0) cliques.push_back(springs_.cliques());
  if (rsdas_offsets_ >= 0) cliques.push_back(rsdas_.cliques());
  std::vector<DeviceView<Offset***>>& offsets = offsets_;
  // Without the scalar column indices: pattern() builds them when first
  // asked (a stepper on several ranks never asks).
  pattern_ = build_crs_pattern(num_coefficients_, cliques, offsets, false);
  layout_ = RowLayout();
  for (size_t k = 0; k < bodies_.size(); ++k)
    bodies_[k].block->set_matrix_offsets(pattern_, offsets[k]);
  if (with_constraints) constraints_->set_matrix_offsets(pattern_, offsets[bodies_.size()]);
  if (springs_offsets_ >= 0) springs_.set_matrix_offsets(pattern_, offsets[springs_offsets_]);
  if (rsdas_offsets_ >= 0) rsdas_.set_matrix_offsets(pattern_, offsets[rsdas_offsets_]);
  block_row_map_ = pattern_.block_row_map;
  block_columns_ = pattern_.block_columns;
}

const CrsPattern& Model::pattern() const {
  whole();
  if (!entries_released_ && !pattern_.has_entries())
    build_entries(const_cast<CrsPattern&>(pattern_));
  return pattern_;
}

void Model::assemble_block_mass() {
  mass_ = DeviceView<Real*>("tlfea::model::block_mass", pattern_.nnz() / 9);
  for (const Body& b : bodies_) b.block->block_mass(q0_, 1.0, pattern_.row_map, mass_);
}

void Model::release_mass_rows(const std::vector<Ordinal>& block_rows, RankSum sum) {
  whole();
  if (!finalized_) throw_error("Model::release_mass_rows() before finalize()");
  if (mass_split_) throw_error("Model::release_mass_rows: the mass rows are released already");
  if (!sum) throw_error("Model::release_mass_rows: no sum over the ranks");
  lumped_ = lumped_mass();
  const Ordinal nb = pattern_.num_block_rows;
  auto rm = host_view(block_row_map_);
  auto cols = host_view(block_columns_);
  auto mass = host_view(mass_);
  Offset kept = 0;
  for (size_t i = 0; i < block_rows.size(); ++i) {
    const Ordinal b = block_rows[i];
    if (b < 0 || b >= nb || (i > 0 && b <= block_rows[i - 1]))
      throw_error("Model::release_mass_rows: block rows must ascend within [0, ", nb, ")");
    kept += rm(b + 1) - rm(b);
  }
  DeviceView<Offset*> map("tlfea::model::block_row_map", nb + 1);
  DeviceView<Ordinal*> columns("tlfea::model::block_columns", kept);
  DeviceView<Real*> values("tlfea::model::block_mass", kept);
  auto hm = host_mirror(map);
  auto hc = host_mirror(columns);
  auto hv = host_mirror(values);
  Offset at = 0;
  size_t next = 0;
  for (Ordinal b = 0; b < nb; ++b) {
    hm(b) = at;
    if (next < block_rows.size() && block_rows[next] == b) {
      ++next;
      for (Offset i = rm(b); i < rm(b + 1); ++i, ++at) {
        hc(at) = cols(i);
        hv(at) = mass(i);
      }
    }
  }
  hm(nb) = at;
  copy_to_device(map, hm);
  copy_to_device(columns, hc);
  copy_to_device(values, hv);
  block_row_map_ = map;
  block_columns_ = columns;
  mass_ = values;
  mass_sum_ = std::move(sum);
  mass_split_ = true;
}

void Model::release_pattern_entries() {
  whole();
  if (!finalized_) throw_error("Model::release_pattern_entries() before finalize()");
  pattern_.entries = DeviceView<Ordinal*>();
  // block_columns_ (the mass's structure) holds them until the mass rows go.
  pattern_.block_columns = DeviceView<Ordinal*>();
  entries_released_ = true;
}

void Model::restore_structure() {
  restore_pending_ = false;
  const bool mass_split = mass_split_;
  if (mass_split) {  // the rank's mass rows go before the whole mass is built
    mass_sum_ = RankSum();
    mass_split_ = false;
    lumped_ = DeviceView<Real*>();
    mass_ = DeviceView<Real*>();
    block_columns_ = DeviceView<Ordinal*>();
  }
  if (!entries_released_) {
    set_row_layout(RowLayout());
    restore_blocks();
  } else {
    for (Body& b : bodies_)
      if (!b.block) b.block = rebuilt_block(b);
    // The same clique sets in the same order: the same pattern as finalize()'s
    // (block_mass indexes it unchanged), every offset in the whole layout.
    build_structure();
    entries_released_ = false;
  }
  if (mass_split) {
    // The whole mass again, as finalize() assembled it, on the whole block
    // structure.
    block_row_map_ = pattern_.block_row_map;
    block_columns_ = pattern_.block_columns;
    assemble_block_mass();
  }
}

void Model::restore_when_needed() {
  bool released = entries_released_ || mass_split_ || !layout_.whole();
  for (const Body& b : bodies_) released = released || !b.block;
  if (!released) return;
  mass_sum_ = RankSum();  // its stepper's: no sum over the ranks without it
  restore_pending_ = true;
}

Real Model::kinetic_energy(const CoefView& v) const {
  whole();
  if (!finalized_) throw_error("Model::kinetic_energy() before finalize()");
  if (static_cast<Ordinal>(v.extent(0)) != num_coefficients_)
    throw_error("Model::kinetic_energy: v has ", v.extent(0), " coefficients, expected ",
                num_coefficients_);
  Real twice = 0.0;
  Kokkos::parallel_reduce("tlfea::model::kinetic_energy",
                          Kokkos::RangePolicy<ExecSpace>(0, num_coefficients_),
                          BlockQuadratic{block_row_map_, block_columns_, mass_, v}, twice);
  if (mass_sum_) mass_sum_(&twice, 1);  // the ranks' rows
  return 0.5 * twice;
}

DeviceView<Real*> Model::mass_values() const {
  whole();
  if (!finalized_) throw_error("Model::mass_values() before finalize()");
  // The values follow the pattern's entries, which a stepper on several
  // ranks frees while it lives.
  if (entries_released_ || mass_split_)
    throw_error(
        "Model::mass_values(): the pattern's column indices and the mass rows of other ranks "
        "are released while a stepper on several MPI ranks lives "
        "(Model::release_pattern_entries, release_mass_rows); the mass is in the "
        "stepper's Newton matrix (scaled_mass fills a rank's rows)");
  DeviceView<Real*> full("tlfea::model::mass_values", pattern_.nnz());
  Kokkos::parallel_for("tlfea::model::mass_values",
                       Kokkos::RangePolicy<ExecSpace>(0, pattern_.num_rows()),
                       ExpandBlockMass{pattern_.row_map, block_row_map_, mass_, full, 1.0, {}});
  return full;
}

void Model::scaled_mass(Real scale, const DeviceView<Real*>& values) const {
  whole();
  if (!finalized_) throw_error("Model::scaled_mass() before finalize()");
  const Offset size = layout_.size(pattern_);
  if (values.extent(0) != static_cast<size_t>(size))
    throw_error("Model::scaled_mass: ", values.extent(0), " values for ", size,
                layout_.whole() ? " pattern entries" : " entries of this rank's rows");
  Kokkos::parallel_for(
      "tlfea::model::scaled_mass", Kokkos::RangePolicy<ExecSpace>(0, pattern_.num_rows()),
      ExpandBlockMass{pattern_.row_map, block_row_map_, mass_, values, scale, layout_.shift});
}

ElementBlockBase& Model::block(int body) {
  return const_cast<ElementBlockBase&>(static_cast<const Model&>(*this).block(body));
}

const ElementBlockBase& Model::block(int body) const {
  whole();
  const Body& b = bodies_.at(body);
  if (!b.block)
    throw_error("Model::block: body ", body, " (", b.mesh.source,
                ") is split between the MPI ranks of a TimeStepper, which freed its whole element "
                "block (TimeStepper::own_elements gives the rank's elements)");
  return *b.block;
}

bool Model::can_release_block(int body) const {
  whole();
  const Body& b = bodies_.at(body);
  if (!finalized_ || b.rigid || !b.block) return false;
  if (b.mesh.type != ElementType::T10 && b.mesh.type != ElementType::Q27) return false;
  for (const Pressure& p : pressures_)
    if (p.body == body) return false;
  return true;
}

void Model::release_block(int body) {
  whole();
  if (!can_release_block(body))
    throw_error("Model::release_block: body ", body, "'s element block cannot be released");
  Body& b = bodies_[body];
  b.scatter = b.block->scatter();
  b.shapes = b.block->kernel_shapes();
  b.block.reset();
  offsets_[body] = DeviceView<Offset***>();
}

std::unique_ptr<ElementBlockBase> Model::rebuilt_block(const Body& b) {
  auto block = make_element_block(b.mesh, b.offset, b.material, b.density);
  block->set_scatter(b.scatter);
  block->set_kernel_shapes(b.shapes);
  return block;
}

void Model::restore_blocks() {
  whole();
  if (entries_released_)
    throw_error(
        "Model::restore_blocks: the pattern's column indices are released "
        "(restore_structure)");
  for (size_t k = 0; k < bodies_.size(); ++k) {
    Body& b = bodies_[k];
    if (b.block) continue;
    auto block = rebuilt_block(b);
    // The offsets of the whole pattern found again, then in row_layout().
    const CliqueSet cl = block->cliques();
    const DeviceView<Offset***> offsets = find_clique_offsets(pattern_, cl);
    convert_offsets(pattern_, cl, RowLayout(), layout_, offsets);
    block->set_matrix_offsets(pattern_, offsets);
    offsets_[k] = offsets;
    b.block = std::move(block);
  }
}

void Model::set_row_layout(const RowLayout& layout) {
  whole();
  if (!finalized_) throw_error("Model::set_row_layout() before finalize()");
  if (entries_released_)
    throw_error(
        "Model::set_row_layout: the pattern's column indices are released "
        "(restore_structure)");
  if (!layout.whole() && !layout_.whole())
    throw_error(
        "Model::set_row_layout: the model's matrix already has a rank's row layout (one "
        "TimeStepper on several MPI ranks at a time per model)");
  if (!layout.whole() && layout.shift.extent(0) != static_cast<size_t>(pattern_.num_rows()))
    throw_error("Model::set_row_layout: a layout of ", layout.shift.extent(0), " rows for ",
                pattern_.num_rows());
  for (size_t k = 0; k < bodies_.size(); ++k)
    if (bodies_[k].block)  // released ones are found again by restore_blocks
      convert_offsets(pattern_, bodies_[k].block->cliques(), layout_, layout, offsets_[k]);
  if (constraints_ && constraints_->num_rows() > 0)
    convert_offsets(pattern_, constraints_->jacobian_cliques(), layout_, layout,
                    offsets_[bodies_.size()]);
  if (springs_offsets_ >= 0)
    convert_offsets(pattern_, springs_.cliques(), layout_, layout, offsets_[springs_offsets_]);
  if (rsdas_offsets_ >= 0)
    convert_offsets(pattern_, rsdas_.cliques(), layout_, layout, offsets_[rsdas_offsets_]);
  layout_ = layout;
}

DeviceView<Real*> Model::lumped_mass() const {
  whole();
  if (!finalized_) throw_error("Model::lumped_mass() before finalize()");
  DeviceView<Real*> m("tlfea::model::lumped_mass", num_coefficients_);
  if (mass_split_) {  // kept whole when the rows were released
    device_copy(m, lumped_);
    return m;
  }
  Kokkos::parallel_for("tlfea::model::lumped_mass",
                       Kokkos::RangePolicy<ExecSpace>(0, num_coefficients_),
                       BlockRowSum{block_row_map_, mass_, m});
  return m;
}

Model::BodyMotion Model::body_motion(int body, const CoefView& q, const CoefView& v) const {
  whole();
  if (!finalized_) throw_error("Model::body_motion() before finalize()");
  const Body& b = bodies_.at(body);
  if (static_cast<Ordinal>(q.extent(0)) != num_coefficients_ ||
      static_cast<Ordinal>(v.extent(0)) != num_coefficients_)
    throw_error("Model::body_motion: q, v have ", q.extent(0), ", ", v.extent(0),
                " coefficients, expected ", num_coefficients_);
  const Ordinal n = b.mesh.num_coefficients();
  Real s[11] = {};
  const BodyMotionSums sums{
      11, block_row_map_, block_columns_, mass_, q, v, b.offset, n, b.mesh.coefficients_per_node()};
  Kokkos::parallel_reduce("tlfea::model::body_motion", Kokkos::RangePolicy<ExecSpace>(0, n), sums,
                          s);
  if (mass_sum_) mass_sum_(s, 11);  // the ranks' rows
  BodyMotion r;
  r.mass = s[0];
  for (int a = 0; a < 3; ++a) {
    r.center_of_mass[a] = s[0] != 0.0 ? s[1 + a] / s[0] : 0.0;
    r.momentum[a] = s[4 + a];
    r.angular_momentum[a] = s[7 + a];
  }
  r.kinetic_energy = 0.5 * s[10];
  return r;
}

}  // namespace tlfea
