// TLFEA: the per-instruction-set builds of the point-lane force
// (lane_force_core.hpp), one translation unit each (elements/CMakeLists.txt
// gives each its compiler flags); lane_force_dispatch.cpp picks one.
#pragma once

#include "tlfea/elements/lane_force_core.hpp"

namespace tlfea::lane {

struct IsaKernels {
  ElementForceFn elastic, viscous;
};

IsaKernels generic_kernels();  // the compiler's default target
#ifdef TLFEA_LANE_DISPATCH
IsaKernels avx2_kernels();    // -mavx2 -mfma
IsaKernels avx512_kernels();  // -mavx512f -mavx2 -mfma
#endif

}  // namespace tlfea::lane
