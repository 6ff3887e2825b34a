// TLFEA: how this build of the library was compiled (reported by `tlfea info`
// and the benchmark drivers' JSON).
#pragma once

namespace tlfea {

// "native" when TLFEA's sources were compiled with -march=native (CMake option
// TLFEA_NATIVE_ARCH, off by default), else "generic" (the compiler's default
// CPU, e.g. x86-64 with SSE2).
const char* cpu_target();

}  // namespace tlfea
