// TLFEA: this process's peak resident memory and the GPU memory in use, for
// run summaries and benchmark records.
#pragma once

#include <sys/resource.h>

#include <Kokkos_Macros.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tlfea {

// Peak resident set of this process image in MiB: VmHWM from
// /proc/self/status, which starts afresh at exec (getrusage's ru_maxrss keeps
// the parent's peak when the program is started from a large process such as
// a Python script); getrusage's ru_maxrss (KiB on Linux and the BSDs) where
// /proc is absent.
inline double peak_memory_mib() {
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    double kib = -1.0;
    while (std::fgets(line, sizeof line, f))
      if (std::strncmp(line, "VmHWM:", 6) == 0) kib = std::atof(line + 6);
    std::fclose(f);
    if (kib >= 0) return kib / 1024.0;
  }
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// Memory in use on the current CUDA device in MiB: total minus free from
// cudaMemGetInfo, so it counts every allocation on the device (Kokkos views,
// cuDSS's and cuSPARSE's own buffers, the CUDA context) and those of any other
// process sharing the device. A peak is the largest of samples taken by the
// caller. -1 in a build without CUDA or when the query fails.
inline double device_memory_used_mib() {
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    cudaGetLastError();  // clear the error state the failed query left
    return -1.0;
  }
  return static_cast<double>(total_bytes - free_bytes) / (1024.0 * 1024.0);
#else
  return -1.0;
#endif
}

}  // namespace tlfea
