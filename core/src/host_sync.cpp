// TLFEA: counting host synchronisations (host_sync.hpp).
#include "tlfea/core/host_sync.hpp"

#include <array>

namespace tlfea {
namespace {

using Kokkos::Tools::Experimental::EventSet;

struct Counter {
  bool on = false;
  SyncPhase phase = SyncPhase::step;
  int quiet = 0;  // open Asynchronous scopes
  std::array<HostSyncCounts, kSyncPhases> counts{};
  std::vector<std::string> events;
  EventSet previous{};  // the callbacks found at start, called on
};

Counter& counter() {
  static Counter c;
  return c;
}

const char* phase_name(SyncPhase p) {
  switch (p) {
    case SyncPhase::step:
      return "step";
    case SyncPhase::newton:
      return "newton";
    case SyncPhase::factorize:
      return "factorize";
    case SyncPhase::solve:
      return "solve";
  }
  return "step";
}

void record(long long HostSyncCounts::*field, const char* kind, const std::string& label) {
  Counter& c = counter();
  if (!c.on || c.quiet > 0) return;
  ++(c.counts[static_cast<int>(c.phase)].*field);
  c.events.push_back(std::string(phase_name(c.phase)) + " " + kind + " " + label);
}

void on_reduce(const char* name, const uint32_t device, uint64_t* id) {
  record(&HostSyncCounts::reductions, "reduce", name);
  if (counter().previous.begin_parallel_reduce)
    counter().previous.begin_parallel_reduce(name, device, id);
}

void on_deep_copy(Kokkos::Tools::SpaceHandle dst_space, const char* dst_label, const void* dst,
                  Kokkos::Tools::SpaceHandle src_space, const char* src_label, const void* src,
                  uint64_t size) {
  record(&HostSyncCounts::copies, "deep_copy",
         std::string(dst_label) + " <- " + std::string(src_label));
  if (counter().previous.begin_deep_copy)
    counter().previous.begin_deep_copy(dst_space, dst_label, dst, src_space, src_label, src, size);
}

}  // namespace

void start_sync_counting() {
  Counter& c = counter();
  if (!c.on) {
    c.previous = Kokkos::Tools::Experimental::get_callbacks();
    Kokkos::Tools::Experimental::set_begin_parallel_reduce_callback(on_reduce);
    Kokkos::Tools::Experimental::set_begin_deep_copy_callback(on_deep_copy);
  }
  c.on = true;
  c.counts = {};
  c.events.clear();
}

void stop_sync_counting() {
  Counter& c = counter();
  if (!c.on) return;
  Kokkos::Tools::Experimental::set_begin_parallel_reduce_callback(c.previous.begin_parallel_reduce);
  Kokkos::Tools::Experimental::set_begin_deep_copy_callback(c.previous.begin_deep_copy);
  c.on = false;
}

bool sync_counting() { return counter().on; }

HostSyncCounts sync_counts(SyncPhase phase) { return counter().counts[static_cast<int>(phase)]; }

HostSyncCounts sync_counts_total() {
  HostSyncCounts t;
  for (const HostSyncCounts& p : counter().counts) {
    t.reductions += p.reductions;
    t.copies += p.copies;
    t.fences += p.fences;
  }
  return t;
}

const std::vector<std::string>& sync_events() { return counter().events; }

void fence(const char* why) {
  record(&HostSyncCounts::fences, "fence", why);
  Kokkos::fence();
}

SyncPhaseScope::SyncPhaseScope(SyncPhase phase) : previous_(counter().phase) {
  counter().phase = phase;
}
SyncPhaseScope::~SyncPhaseScope() { counter().phase = previous_; }

namespace host_sync_detail {
Asynchronous::Asynchronous() { ++counter().quiet; }
Asynchronous::~Asynchronous() { --counter().quiet; }
}  // namespace host_sync_detail

}  // namespace tlfea
