// TLFEA: lane_force_core.hpp built for avx2 (flags: elements/CMakeLists.txt).
#include "lane_force_isa.hpp"

namespace tlfea::lane {

IsaKernels avx2_kernels() {
  return {&element_force<Avx2, 16, false>, &element_force<Avx2, 16, true>};
}

}  // namespace tlfea::lane
