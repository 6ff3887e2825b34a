// TLFEA: the RigidBodyLayout of a Model (linalg/linear_solver.hpp), which
// coefficients are positions and which rows are free, for the rigid-body
// modes a muelu preconditioner builds (linalg/src/rigid_body_modes.hpp,
// docs/theory.md §8.4). Internal to the integrators layer.
#pragma once

#include "tlfea/core/host_device.hpp"
#include "tlfea/linalg/linear_solver.hpp"
#include "tlfea/model/model.hpp"

namespace tlfea::detail {

// The layout of `model`'s coefficients: position coefficient = local index
// a multiple of the coefficients per node of its body's mesh (1 for T10 /
// Q27, 4 for ANCF and rigid bodies: r first, model.hpp); free_rows the
// stepper's free-dof flags (one per scalar row).
inline RigidBodyLayout rigid_body_layout(const Model& model,
                                         const DeviceView<unsigned char*>& free_rows) {
  const Ordinal n = model.num_coefficients();
  RigidBodyLayout layout;
  layout.free_rows = free_rows;
  layout.position = DeviceView<unsigned char*>("tlfea::integrators::position_coefficients", n);
  auto h = host_mirror(layout.position);
  for (Ordinal c = 0; c < n; ++c) h(c) = 1;
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Ordinal off = model.coefficient_offset(b);
    const Ordinal nb = model.mesh(b).num_coefficients();
    const int cpn = model.mesh(b).coefficients_per_node();
    for (Ordinal i = 0; i < nb; ++i) h(off + i) = i % cpn == 0 ? 1 : 0;
  }
  copy_to_device(layout.position, h);
  return layout;
}

}  // namespace tlfea::detail
