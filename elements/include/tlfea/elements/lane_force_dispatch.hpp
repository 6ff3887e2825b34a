// TLFEA: which build of the point-lane force (lane_force_core.hpp) runs on
// this CPU: the widest instruction set this build of TLFEA has it compiled
// for and the CPU executes (x86-64 with GCC or Clang: generic SSE2, AVX2 +
// FMA, AVX-512), chosen once at the first use; the environment variable
// TLFEA_CPU_KERNELS (generic, avx2, avx512 or auto) overrides the choice.
// Builds for other CPUs, CUDA builds and TLFEA_NATIVE_ARCH builds have the
// one generic build ("native" in the last case). docs/theory.md §3.13.
#pragma once

#include <string>
#include <vector>

#include "tlfea/elements/lane_force_core.hpp"

namespace tlfea {

struct LaneForceKernels {
  lane::ElementForceFn elastic = nullptr;  // n = 16 (ANCF 3443), elastic law
  lane::ElementForceFn viscous = nullptr;  // n = 16, Kelvin-Voigt law
  const char* isa = "generic";
};

// The selected kernels. Throws tlfea::Error when TLFEA_CPU_KERNELS names an
// instruction set this build or CPU lacks, or is not a known name.
LaneForceKernels lane_force_kernels();

// The selected instruction set's name (lane_force_kernels().isa).
const char* cpu_kernels();

// The instruction sets this build has kernels for and this CPU executes,
// narrowest first ("generic" or "native" always first).
std::vector<std::string> available_cpu_kernels();

// Selects one of available_cpu_kernels() for every later force evaluation
// (tests, benchmarks); false, and nothing changed, for any other name.
bool select_cpu_kernels(const std::string& isa);

}  // namespace tlfea
