// Shared helpers for the benchmark drivers: JSON output, timers, peak memory,
// argument parsing, the Kokkos thread option, and the Kokkos configuration
// recorded with every result. Needs only Kokkos (the drivers that run the
// time stepper add bench_stepper.hpp).
#pragma once

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlfea/core/peak_memory.hpp"  // tlfea::peak_memory_mib (VmHWM)

#ifndef TLFEA_GIT_REVISION
#define TLFEA_GIT_REVISION "unknown"
#endif
// The revision at build time ("-dirty" with uncommitted changes), written by
// benchmarks/revision.cmake; TLFEA_GIT_REVISION is the one at configure time.
#if __has_include("bench_revision.hpp")
#include "bench_revision.hpp"
#include "tlfea/core/build_info.hpp"
#include "tlfea/elements/lane_force_dispatch.hpp"
#endif
#ifndef TLFEA_BENCH_REVISION
#define TLFEA_BENCH_REVISION TLFEA_GIT_REVISION
#endif

namespace tlfea::bench {

inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> x) {
  if (x.empty()) return 0.0;
  std::sort(x.begin(), x.end());
  const size_t n = x.size();
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

inline double mean(const std::vector<double>& x) {
  if (x.empty()) return 0.0;
  double s = 0.0;
  for (double v : x) s += v;
  return s / static_cast<double>(x.size());
}

// A JSON array of numbers, 15 significant digits.
inline std::string json_array(const std::vector<double>& x) {
  std::ostringstream os;
  os.precision(15);
  os << "[";
  for (size_t i = 0; i < x.size(); ++i) os << (i ? ", " : "") << x[i];
  os << "]";
  return os.str();
}

// Command-line errors: the drivers catch ArgError, print it with their usage
// text and exit with status 2.
struct ArgError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
[[noreturn]] inline void arg_error(const std::string& msg) { throw ArgError(msg); }

inline double parse_double(const std::string& what, const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(v))
    arg_error(what + ": not a number: '" + s + "'");
  return v;
}
inline long parse_int(const std::string& what, const std::string& s) {
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0') arg_error(what + ": not an integer: '" + s + "'");
  return v;
}

// The argument list handed to Kokkos: the program name and every --kokkos-*
// argument of the command line, plus the thread count of --threads N (N > 0)
// in the spelling of this Kokkos version (--kokkos-threads up to 3.6,
// --kokkos-num-threads from 3.7). The Serial backend ignores it.
class KokkosArgs {
 public:
  KokkosArgs(int argc, char** argv, int threads) {
    store_.emplace_back(argc > 0 ? argv[0] : "tlfea_bench");
    for (int i = 1; i < argc; ++i)
      if (std::strncmp(argv[i], "--kokkos-", 9) == 0) store_.emplace_back(argv[i]);
    if (threads > 0) {
#if defined(KOKKOS_VERSION) && KOKKOS_VERSION >= 30700
      store_.push_back("--kokkos-num-threads=" + std::to_string(threads));
#else
      store_.push_back("--kokkos-threads=" + std::to_string(threads));
#endif
    }
    for (auto& a : store_) ptrs_.push_back(&a[0]);
    ptrs_.push_back(nullptr);
    argc_ = static_cast<int>(store_.size());
  }
  int& argc() { return argc_; }
  char** argv() { return ptrs_.data(); }

 private:
  std::vector<std::string> store_;
  std::vector<char*> ptrs_;
  int argc_ = 0;
};

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
  // The object as text, "{...}", e.g. to nest it with raw().
  std::string object() const { return "{" + body_ + "}"; }
  void print() const {
    std::printf("{%s}\n", body_.c_str());
    std::fflush(stdout);
  }

 private:
  std::string body_;
};

// Values of every MPI rank, gathered for one JSON document from rank 0.
// Comm: tlfea::MpiSession (linalg/mpi_session.hpp), or any type with the
// collectives world_size(), world_rank() and max(double) (an all-reduce).
// Each rank's value travels alone, in an all-reduce where the other ranks
// give -inf, so the list is exact (no sums, no rounding) with no collective
// beyond max(); R all-reduces of one double, run once after the timed steps.
template <class Comm>
std::vector<double> per_rank(const Comm& comm, double x) {
  const int n = comm.world_size(), me = comm.world_rank();
  std::vector<double> v(static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) v[static_cast<size_t>(r)] = comm.max(r == me ? x : -HUGE_VAL);
  return v;
}

// The fields NAME_per_rank (the list, index = rank), NAME_max_rank and
// NAME_min_rank of the gathered values v; on one rank a list of one.
inline Json& add_per_rank(Json& j, const std::string& name, const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  j.num(name + "_max_rank", v.empty() ? 0.0 : *hi)
      .num(name + "_min_rank", v.empty() ? 0.0 : *lo)
      .raw(name + "_per_rank", json_array(v));
  return j;
}

inline Json& add_config(Json& j) {
  return j.str("kokkos_backend", backend())
      .integer("threads", threads())
      .str("cpu_target", tlfea::cpu_target())
      .str("cpu_kernels", tlfea::cpu_kernels())
      .str("git_revision", TLFEA_BENCH_REVISION);
}

}  // namespace tlfea::bench
