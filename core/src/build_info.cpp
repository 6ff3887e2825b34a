#include "tlfea/core/build_info.hpp"

#ifndef TLFEA_CPU_TARGET
#define TLFEA_CPU_TARGET "generic"
#endif

namespace tlfea {

const char* cpu_target() { return TLFEA_CPU_TARGET; }

}  // namespace tlfea
