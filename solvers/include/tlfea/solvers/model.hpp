// TLFEA: a multibody model: bodies (meshes with a material), clamped
// coefficients, loads and constraints, with the global coefficient numbering
// (body b owns coefficients [offset(b), offset(b) + n_b)) and the fixed CRS
// pattern of the Newton matrix (elements + constraint couplings).
#pragma once

#include <memory>
#include <vector>

#include "tlfea/constraints/constraint_set.hpp"
#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/elements/element_block.hpp"

namespace tlfea {

class Model {
 public:
  // Adds a body; returns its id. Bodies must all be added before
  // constraints() is first called.
  int add_body(const Mesh& mesh, const MaterialSpec& material, Real density);
  int num_bodies() const { return static_cast<int>(bodies_.size()); }
  const Mesh& mesh(int body) const { return bodies_.at(body).mesh; }
  ElementBlockBase& block(int body) { return *bodies_.at(body).block; }
  const ElementBlockBase& block(int body) const { return *bodies_.at(body).block; }
  Ordinal coefficient_offset(int body) const { return bodies_.at(body).offset; }
  Ordinal num_coefficients() const { return num_coefficients_; }

  // Dirichlet conditions on whole coefficient vectors (eliminated from the
  // unknowns): every coefficient of the given nodes, or only their position.
  void clamp_nodes(int body, const std::vector<Ordinal>& nodes, bool gradients_too = true);
  void clamp_node_set(int body, const std::string& set, bool gradients_too = true);
  const std::vector<Ordinal>& clamped_coefficients() const { return clamped_; }

  // Loads.
  void set_gravity(const Vec3& g) { gravity_ = g; }
  const Vec3& gravity() const { return gravity_; }
  // A constant force on the position coefficient of a node.
  void add_nodal_force(int body, Ordinal node, const Vec3& force);

  // Constraint rows between material points (created on first use from the
  // reference coefficients).
  ConstraintSet& constraints();
  bool has_constraints() const { return constraints_ != nullptr && constraints_->num_rows() > 0; }

  // Builds reference coefficients, the CRS pattern (element cliques plus
  // constraint cliques), the mass matrix values and the constant load vector.
  void finalize();
  bool finalized() const { return finalized_; }

  const CoefView& reference() const { return q0_; }
  const CrsPattern& pattern() const { return pattern_; }
  const DeviceView<Real*>& mass_values() const { return mass_; }
  // Constant external force: gravity + nodal forces.
  const CoefView& constant_load() const { return load_; }

 private:
  struct Body {
    Mesh mesh;
    std::unique_ptr<ElementBlockBase> block;
    Ordinal offset = 0;
  };
  void build_reference();
  std::vector<Body> bodies_;
  Ordinal num_coefficients_ = 0;
  std::vector<Ordinal> clamped_;
  std::vector<std::pair<Ordinal, Vec3>> nodal_forces_;
  Vec3 gravity_{{0.0, 0.0, 0.0}};
  std::unique_ptr<ConstraintSet> constraints_;
  CoefView q0_, load_;
  CrsPattern pattern_;
  DeviceView<Real*> mass_;
  bool reference_built_ = false, finalized_ = false;
};

}  // namespace tlfea
