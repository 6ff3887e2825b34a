#include "tlfea/solvers/model.hpp"

#include <algorithm>

#include "tlfea/core/error.hpp"

namespace tlfea {

int Model::add_body(const Mesh& mesh, const MaterialSpec& material, Real density) {
  if (reference_built_)
    throw_error("Model::add_body: bodies must be added before constraints or finalize");
  check_mesh(mesh);
  Body b;
  b.mesh = mesh;
  b.offset = num_coefficients_;
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
    for (int k = 0; k < (gradients_too ? cpn : 1); ++k) clamped_.push_back(b.offset + n * cpn + k);
  }
  std::sort(clamped_.begin(), clamped_.end());
  clamped_.erase(std::unique(clamped_.begin(), clamped_.end()), clamped_.end());
}

void Model::clamp_node_set(int body, const std::string& set, bool gradients_too) {
  const Mesh& m = bodies_.at(body).mesh;
  auto it = m.node_sets.find(set);
  if (it == m.node_sets.end()) throw_error(m.source, ": no node set named '", set, "'");
  clamp_nodes(body, it->second, gradients_too);
}

void Model::add_nodal_force(int body, Ordinal node, const Vec3& force) {
  const Body& b = bodies_.at(body);
  if (node < 0 || node >= b.mesh.num_nodes())
    throw_error(b.mesh.source, ": loaded node ", node, " out of range");
  nodal_forces_.push_back({b.offset + node * b.mesh.coefficients_per_node(), force});
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
  load_ = CoefView("tlfea::solvers::constant_load", num_coefficients_);
  if (gravity_[0] != 0.0 || gravity_[1] != 0.0 || gravity_[2] != 0.0)
    for (const Body& b : bodies_) b.block->body_force(q0_, gravity_, load_);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), load_);
  for (const auto& nf : nodal_forces_)
    for (int a = 0; a < 3; ++a) h(nf.first, a) += nf.second[a];
  Kokkos::deep_copy(load_, h);
  finalized_ = true;
}

}  // namespace tlfea
