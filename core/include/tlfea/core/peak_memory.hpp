// TLFEA: this process's peak resident memory, for run summaries and
// benchmark records.
#pragma once

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

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

}  // namespace tlfea
