// A Kokkos Tools library that records, per process, the live bytes of every
// Kokkos view label at the largest total of live Kokkos allocations, and the
// allocations and frees of more than 1 MiB in order (the memory breakdown of
// docs/benchmarks.md, "B1 res 32: peak memory per rank"). Not part of the
// build:
//   g++ -O2 -shared -fPIC -o kokkos_memory_recorder.so kokkos_memory_recorder.cpp
//   export KOKKOS_PROFILE_LIBRARY=$PWD/kokkos_memory_recorder.so KP_MEM_OUT=/tmp/b1
//   mpirun -x KOKKOS_PROFILE_LIBRARY -x KP_MEM_OUT -np 2 tlfea_bench_t10_beam ...
// writes /tmp/b1_r<rank>.txt (rank from OMPI_COMM_WORLD_RANK): the peak, the
// labels above 0.1 MiB at the peak (MiB, largest first), then "EVENTS".
// The label snapshot is refreshed whenever the total passes the last
// snapshot by 1 MiB, and just before a free at the peak.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

struct SpaceHandle {
  char name[64];
};

namespace {
std::unordered_map<const void*, std::pair<std::string, uint64_t>> live;
std::map<std::string, int64_t> by_label, snapshot;
std::vector<std::string> events;
int64_t total = 0, peak = 0, snapshot_total = 0;
constexpr int64_t kMiB = 1 << 20;
}  // namespace

extern "C" void kokkosp_init_library(int, uint64_t, uint32_t, void*) {}

extern "C" void kokkosp_allocate_data(SpaceHandle, const char* label, const void* ptr,
                                      uint64_t size) {
  live[ptr] = {label, size};
  if (static_cast<int64_t>(size) > kMiB)
    events.push_back("+ " + std::to_string(size >> 20) + " " + label + " -> " +
                     std::to_string((total + static_cast<int64_t>(size)) >> 20));
  by_label[label] += static_cast<int64_t>(size);
  total += static_cast<int64_t>(size);
  if (total > peak) {
    peak = total;
    if (peak - snapshot_total > kMiB) {
      snapshot = by_label;
      snapshot_total = peak;
    }
  }
}

extern "C" void kokkosp_deallocate_data(SpaceHandle, const char*, const void* ptr, uint64_t) {
  auto it = live.find(ptr);
  if (it == live.end()) return;
  if (total == peak && peak > snapshot_total) {
    snapshot = by_label;
    snapshot_total = peak;
  }
  const int64_t size = static_cast<int64_t>(it->second.second);
  if (size > kMiB)
    events.push_back("- " + std::to_string(size >> 20) + " " + it->second.first + " -> " +
                     std::to_string((total - size) >> 20));
  by_label[it->second.first] -= size;
  total -= size;
  live.erase(it);
}

extern "C" void kokkosp_finalize_library() {
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  const char* out = std::getenv("KP_MEM_OUT");
  const std::string name =
      std::string(out ? out : "kokkos_memory") + "_r" + (rank ? rank : "0") + ".txt";
  std::FILE* f = std::fopen(name.c_str(), "w");
  if (!f) return;
  std::fprintf(f, "peak_total_mib %.2f snapshot_mib %.2f\n", peak / double(kMiB),
               snapshot_total / double(kMiB));
  std::vector<std::pair<int64_t, std::string>> rows;
  for (const auto& kv : snapshot)
    if (kv.second > 100000) rows.push_back({kv.second, kv.first});
  std::sort(rows.rbegin(), rows.rend());
  for (const auto& r : rows)
    std::fprintf(f, "%10.2f %s\n", r.first / double(kMiB), r.second.c_str());
  std::fprintf(f, "EVENTS\n");
  for (const auto& e : events) std::fprintf(f, "%s\n", e.c_str());
  std::fclose(f);
}
