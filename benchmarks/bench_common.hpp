// Shared helpers for the benchmark drivers: JSON output, timers, peak memory,
// and the Kokkos configuration recorded with every result.
#pragma once

#include <sys/resource.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>

#ifndef TLFEA_GIT_REVISION
#define TLFEA_GIT_REVISION "unknown"
#endif

namespace tlfea::bench {

inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Peak resident set size of this process, in MiB (getrusage reports KiB on Linux).
inline double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

inline std::string backend() { return Kokkos::DefaultExecutionSpace::name(); }
inline int threads() { return Kokkos::DefaultExecutionSpace().concurrency(); }

// A flat JSON object built field by field, printed on one line.
class Json {
 public:
  Json& num(const std::string& k, double v) {
    std::ostringstream os;
    os.precision(10);
    os << v;
    return raw(k, os.str());
  }
  Json& integer(const std::string& k, long long v) { return raw(k, std::to_string(v)); }
  Json& str(const std::string& k, const std::string& v) { return raw(k, "\"" + v + "\""); }
  Json& raw(const std::string& k, const std::string& v) {
    body_ += (body_.empty() ? "" : ", ") + ("\"" + k + "\": " + v);
    return *this;
  }
  void print() const {
    std::printf("{%s}\n", body_.c_str());
    std::fflush(stdout);
  }

 private:
  std::string body_;
};

inline Json& add_config(Json& j) {
  return j.str("kokkos_backend", backend())
      .integer("threads", threads())
      .str("git_revision", TLFEA_GIT_REVISION);
}

}  // namespace tlfea::bench
