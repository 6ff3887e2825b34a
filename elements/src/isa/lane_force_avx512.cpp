// TLFEA: lane_force_core.hpp built for avx512 (flags: elements/CMakeLists.txt).
// Header code of this unit is this build's own (point_law_core.hpp).
#define TLFEA_LANE_ISA_BUILD
#include "lane_force_isa.hpp"

namespace tlfea::lane {

IsaKernels avx512_kernels() {
  return {&element_force<Avx512, 16, false>, &element_force<Avx512, 16, true>};
}

}  // namespace tlfea::lane
