// TLFEA Python module (private to python/src): the process-wide runtime
// (Kokkos and MPI start and end) and the registry of objects that hold
// Kokkos views; see tlfea_python.cpp for the lifetime rules.
#pragma once

#include <pybind11/pybind11.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/types.hpp"
#include "tlfea/linalg/mpi_session.hpp"

namespace py = pybind11;

namespace tlfea_py {

using tlfea::Ordinal;
using tlfea::Real;

[[noreturn]] inline void fail(const std::string& msg) { throw tlfea::Error(msg); }

class Resource;

struct Runtime {
  std::unique_ptr<tlfea::MpiSession> mpi;
  bool kokkos_ours = false;  // this module called Kokkos::initialize
  bool finalized = false;
  int threads = -1;  // as asked of initialize (-1: Kokkos' default)
  int stepping = 0;  // steps in progress (finalize must wait for none)
  std::set<Resource*> live;
};
// Never destroyed: objects may unregister during interpreter teardown.
inline Runtime& rt() {
  static Runtime* r = new Runtime;
  return *r;
}

class Resource {
 public:
  // rank: release order at finalize (lower first): 0 output writers,
  // 1 steppers, 2 scenes and constraint sets, 3 models.
  explicit Resource(int rank) : rank_(rank) { rt().live.insert(this); }
  virtual ~Resource() { rt().live.erase(this); }
  Resource(const Resource&) = delete;
  Resource& operator=(const Resource&) = delete;
  virtual void release() = 0;
  int rank() const { return rank_; }

 private:
  int rank_;
};

inline const char* const kFinalizedMessage =
    "tlfea: this object was released when Kokkos was finalized (tlfea.finalize() or interpreter "
    "exit)";

inline void ensure_initialized(int threads = -1) {
  Runtime& r = rt();
  if (r.finalized)
    fail(
        "tlfea: Kokkos has been finalized in this process (tlfea.finalize()); it cannot be "
        "initialized again");
  if (Kokkos::is_initialized()) return;
  // MPI before Kokkos (Tpetra under the KLU2 / Belos backends needs it);
  // MpiSession starts it only when nobody has (e.g. mpi4py) and then ends it.
  if (!r.mpi) r.mpi = std::make_unique<tlfea::MpiSession>(nullptr, nullptr);
#if KOKKOS_VERSION >= 30700
  Kokkos::InitializationSettings args;
  if (threads > 0) args.set_num_threads(threads);
  Kokkos::initialize(args);
#else
  Kokkos::InitArguments args;
  args.num_threads = threads > 0 ? threads : -1;
  Kokkos::initialize(args);
#endif
  r.kokkos_ours = true;
  r.threads = threads;
}

inline void finalize_runtime() {
  Runtime& r = rt();
  if (r.finalized) return;
  if (r.stepping > 0) fail("tlfea.finalize: a step is in progress (called from a callback?)");
  std::vector<Resource*> objs(r.live.begin(), r.live.end());
  std::stable_sort(objs.begin(), objs.end(),
                   [](const Resource* a, const Resource* b) { return a->rank() < b->rank(); });
  for (Resource* o : objs) o->release();
  if (r.kokkos_ours && Kokkos::is_initialized()) Kokkos::finalize();
  r.mpi.reset();  // MPI_Finalize after Kokkos, when this module started MPI
  r.finalized = true;
}

}  // namespace tlfea_py
