// Builds a T10 box from the installed TLFEA and checks its volume against
// the closed form lx * ly * lz.
#include <cmath>
#include <cstdio>

#include "tlfea/core/generators.hpp"
#include "tlfea/elements/element_block.hpp"

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const tlfea::Mesh mesh = tlfea::generate_box(tlfea::ElementType::T10, {3.0, 2.0, 1.0}, {3, 2, 1});
  tlfea::CoefView q0("q0", mesh.num_coefficients());
  tlfea::copy_reference_coefficients(mesh, 0, q0);
  auto block = tlfea::make_element_block(mesh, 0, tlfea::MaterialSpec::svk(7e8, 0.33), 2700.0);
  const double v = block->volume(q0);
  std::printf("volume %.15g (expected 6)\n", v);
  return std::fabs(v - 6.0) < 1e-12 ? 0 : 1;
}
