#include "tlfea/solvers/model.hpp"

#include <KokkosBlas1_dot.hpp>
#include <KokkosSparse_spmv.hpp>
#include <algorithm>

#include "tlfea/core/error.hpp"
#include "tlfea/core/sparse_matrix.hpp"

namespace tlfea {

int Model::add_body(const Mesh& mesh, const MaterialSpec& material, Real density) {
  if (reference_built_)
    throw_error("Model::add_body: bodies must be added before constraints or finalize");
  check_mesh(mesh);
  Body b;
  b.mesh = mesh;
  b.offset = num_coefficients_;
  b.material = material;
  b.block = make_element_block(mesh, b.offset, material, density);
  num_coefficients_ += mesh.num_coefficients();
  bodies_.push_back(std::move(b));
  return num_bodies() - 1;
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
  // prescribing every node of a 100,000-element beam take minutes (issue 12).
  if (!prescribed_set_.insert(c).second)
    throw_error(b.mesh.source, ": coefficient ", c - b.offset, " (node ", node, ", ", k,
                ") prescribed twice");
  prescribed_.push_back({c, Vec3{{X[0], X[1], X[2]}}, value});
  // A clamped c leaves clamped_ at its next read (clamped_coefficients): one
  // pass for all of them instead of an erase per coefficient.
  clamped_stale_ = true;
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
  if (element < 0 || element >= b.mesh.num_elements())
    throw_error(b.mesh.source, ": point force on element ", element, " out of range (",
                b.mesh.num_elements(), " elements)");
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
}  // namespace

void Model::external_load(Real t, const CoefView& q, const CoefView& f) const {
  Kokkos::deep_copy(f, load_);
  for (const TimedLoad& l : timed_)
    Kokkos::parallel_for("tlfea::solvers::timed_load",
                         Kokkos::RangePolicy<ExecSpace>(0, num_coefficients_),
                         AddScaled{f, l.f, l.amplitude(t)});
  for (const Pressure& p : pressures_)
    bodies_[p.body].block->follower_pressure(q, p.faces, p.amplitude ? p.p * p.amplitude(t) : p.p,
                                             f);
}

void Model::external_load_tangent(Real t, const CoefView& q, Real alpha,
                                  const DeviceView<Real*>& values) const {
  for (const Pressure& p : pressures_)
    bodies_[p.body].block->follower_pressure_tangent(
        q, p.faces, p.amplitude ? p.p * p.amplitude(t) : p.p, alpha, values);
}

void Model::build_reference() {
  if (reference_built_) return;
  if (bodies_.empty()) throw_error("Model: no bodies");
  q0_ = CoefView("tlfea::solvers::q0", num_coefficients_);
  for (const Body& b : bodies_) copy_reference_coefficients(b.mesh, b.offset, q0_);
  reference_built_ = true;
}

ConstraintSet& Model::constraints() {
  build_reference();
  if (!constraints_) constraints_ = std::make_unique<ConstraintSet>(q0_);
  return *constraints_;
}

void Model::finalize() {
  if (finalized_) return;
  build_reference();
  std::vector<CliqueSet> cliques;
  for (const Body& b : bodies_) cliques.push_back(b.block->cliques());
  const bool with_constraints = constraints_ && constraints_->num_rows() > 0;
  if (with_constraints) {
    constraints_->finalize();
    cliques.push_back(constraints_->jacobian_cliques());
  }
  std::vector<DeviceView<Offset***>> offsets;
  pattern_ = build_crs_pattern(num_coefficients_, cliques, offsets);
  for (size_t k = 0; k < bodies_.size(); ++k)
    bodies_[k].block->set_matrix_offsets(pattern_, offsets[k]);
  if (with_constraints) constraints_->set_matrix_offsets(pattern_, offsets.back());
  mass_ = DeviceView<Real*>("tlfea::solvers::mass", pattern_.nnz());
  for (const Body& b : bodies_) b.block->mass(q0_, 1.0, mass_);
  mass_work_ = DeviceView<Real*>("tlfea::solvers::mass_work", pattern_.num_rows());
  // Loads without amplitude go into one constant vector; each timed load keeps
  // its own (unit-amplitude) vector.
  load_ = CoefView("tlfea::solvers::constant_load", num_coefficients_);
  if (gravity_[0] != 0.0 || gravity_[1] != 0.0 || gravity_[2] != 0.0)
    for (const Body& b : bodies_) b.block->body_force(q0_, gravity_, load_);
  auto target = [&](const TimeFunction& amp) -> CoefView {
    if (!amp) return load_;
    timed_.push_back({CoefView("tlfea::solvers::timed_load", num_coefficients_), amp});
    return timed_.back().f;
  };
  for (const NodalForce& nf : nodal_forces_) {
    CoefView f = target(nf.amplitude);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
    for (int a = 0; a < 3; ++a) h(nf.coefficient, a) += nf.force[a];
    Kokkos::deep_copy(f, h);
  }
  for (const PointForce& pf : point_forces_) {
    PointLoads pl;
    pl.element = DeviceView<Ordinal*>("tlfea::solvers::point_element", 1);
    pl.xi = DeviceView<Real* [3]>("tlfea::solvers::point_xi", 1);
    pl.force = DeviceView<Real* [3]>("tlfea::solvers::point_force", 1);
    auto he = Kokkos::create_mirror_view(pl.element);
    auto hx = Kokkos::create_mirror_view(pl.xi);
    auto hf = Kokkos::create_mirror_view(pl.force);
    he(0) = pf.element;
    for (int a = 0; a < 3; ++a) {
      hx(0, a) = pf.xi[a];
      hf(0, a) = pf.force[a];
    }
    Kokkos::deep_copy(pl.element, he);
    Kokkos::deep_copy(pl.xi, hx);
    Kokkos::deep_copy(pl.force, hf);
    bodies_[pf.body].block->point_forces(pl, 1.0, target(pf.amplitude));
  }
  for (const Traction& tr : tractions_)
    bodies_[tr.body].block->dead_traction(q0_, make_face_list(tr.faces), tr.t0,
                                          target(tr.amplitude));
  finalized_ = true;
}

Real Model::kinetic_energy(const CoefView& v) const {
  if (!finalized_) throw_error("Model::kinetic_energy() before finalize()");
  if (static_cast<Ordinal>(v.extent(0)) != num_coefficients_)
    throw_error("Model::kinetic_energy: v has ", v.extent(0), " coefficients, expected ",
                num_coefficients_);
  const DeviceView<Real*> vf(v.data(), 3 * v.extent(0));  // the flat view of v
  KokkosSparse::spmv("N", 1.0, make_sparse_matrix(pattern_, mass_, "tlfea::solvers::mass_matrix"),
                     vf, 0.0, mass_work_);
  return 0.5 * KokkosBlas::dot(vf, mass_work_);
}

}  // namespace tlfea
