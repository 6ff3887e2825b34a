// TLFEA: host synchronisations, and how they are counted.
//
// A host synchronisation is a point where the host thread waits for the
// device to finish the work queued so far. On a GPU each one stalls the
// launch queue (the device idles while the host decides, then the host
// idles while the device catches up), so an implicit step keeps them to
// what its decisions need. With Kokkos 3.4 they are:
// - a parallel_reduce whose result is a host value (a scalar, an array or a
//   reducer on one): Kokkos fences before returning it;
// - a Kokkos::deep_copy without an execution-space instance: Kokkos fences
//   the whole device before and after it (a device-to-host read, a
//   host-to-device write, or a copy/fill within device memory alike);
// - a fence (Kokkos::fence, ExecutionSpace::fence).
// Not one: a kernel launch, a reduction into a device view
// (reduce_on_device), and the copies and fills of tlfea::device_copy and
// tlfea::fill (host_device.hpp), which run on the view's execution-space
// instance and are ordered with the kernels like one.
//
// Counting (tests, diagnostics): start_sync_counting() installs Kokkos Tools
// callbacks (begin_parallel_reduce, begin_deep_copy) that count every
// reduction and deep copy not issued by one of the asynchronous helpers, so
// a synchronising reduction or copy added anywhere later is counted whether
// or not it goes through a tlfea helper; the callbacks of a profiling tool
// loaded before are called on as well. Kokkos 3.4 reports no fences to
// Tools, so library code fences only through tlfea::fence (counted), and
// tests/lint/check_host_device.cmake fails the tests on a Kokkos::fence or
// .fence() anywhere else. Each event is counted against the current phase
// (SyncPhaseScope): a step's work outside its Newton iterations, an
// iteration's own work, or the linear solver's factorization or solve, so
// that each can be held to its own bound (docs/guide/gpu.md, "Host synchronisations").
#pragma once

#include <string>
#include <vector>

#include "tlfea/core/types.hpp"

namespace tlfea {

// step: a step's work outside its Newton iterations; newton: an
// iteration's own (residual, matrix, line search), outside the linear
// solver's factorize and solve.
enum class SyncPhase : int { step = 0, newton = 1, factorize = 2, solve = 3 };
constexpr int kSyncPhases = 4;

struct HostSyncCounts {
  long long reductions = 0;  // parallel_reduce into a host value
  long long copies = 0;      // deep copies without an execution-space instance
  long long fences = 0;      // tlfea::fence
  long long total() const { return reductions + copies + fences; }
};

// Starts counting from zero (every phase). The events' labels are kept too
// (sync_events) while counting.
void start_sync_counting();
// Stops counting and puts back the Tools callbacks found at start.
void stop_sync_counting();
bool sync_counting();
HostSyncCounts sync_counts(SyncPhase phase);
HostSyncCounts sync_counts_total();
// "phase kind label" per counted event, in order (cleared by start).
const std::vector<std::string>& sync_events();

// A counted fence of every execution space; `why` names the caller in the
// event list.
void fence(const char* why);

// The events counted until it ends are charged to `phase` (nested scopes:
// the innermost).
class SyncPhaseScope {
 public:
  explicit SyncPhaseScope(SyncPhase phase);
  ~SyncPhaseScope();
  SyncPhaseScope(const SyncPhaseScope&) = delete;
  SyncPhaseScope& operator=(const SyncPhaseScope&) = delete;

 private:
  SyncPhase previous_;
};

namespace host_sync_detail {
// While one exists, reductions and deep copies are not counted: the
// asynchronous helpers (device_copy, fill, reduce_on_device) issue theirs
// inside one.
class Asynchronous {
 public:
  Asynchronous();
  ~Asynchronous();
  Asynchronous(const Asynchronous&) = delete;
  Asynchronous& operator=(const Asynchronous&) = delete;
};
}  // namespace host_sync_detail

// parallel_reduce into the device view `result` (a rank-0 view, or a rank-1
// view of the functor's value_count for an array reduction), or with a
// reducer on a device view (Kokkos::Max<Real, MemSpace>(view)):
// asynchronous, the result stays on the device until copied (copy_to_host:
// one host synchronisation for everything reduced this way since the last).
template <class Policy, class Functor, class ResultView>
void reduce_on_device(const std::string& label, const Policy& policy, const Functor& functor,
                      const ResultView& result) {
  static_assert(Kokkos::is_view<ResultView>::value || Kokkos::is_reducer_type<ResultView>::value,
                "tlfea::reduce_on_device: the result must be a device view or a reducer on one");
  host_sync_detail::Asynchronous quiet;
  Kokkos::parallel_reduce(label, policy, functor, result);
}

}  // namespace tlfea
