// TLFEA: lane_force_core.hpp built for avx512 (flags: elements/CMakeLists.txt).
#include "lane_force_isa.hpp"

namespace tlfea::lane {

IsaKernels avx512_kernels() {
  return {&element_force<Avx512, 16, false>, &element_force<Avx512, 16, true>};
}

}  // namespace tlfea::lane
