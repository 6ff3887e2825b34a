#include "tlfea/elements/lane_force_dispatch.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "isa/lane_force_isa.hpp"
#include "tlfea/core/build_info.hpp"
#include "tlfea/core/error.hpp"

namespace tlfea {
namespace {

struct Entry {
  const char* name;
  lane::IsaKernels (*kernels)();
  bool (*runs)();
};

bool always() { return true; }
#ifdef TLFEA_LANE_DISPATCH
// __builtin_cpu_supports also checks that the OS saves the wide registers.
bool has_avx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
bool has_avx512() { return has_avx2() && __builtin_cpu_supports("avx512f"); }
#endif

// Narrowest first.
const Entry kEntries[] = {
    {"generic", &lane::generic_kernels, &always},
#ifdef TLFEA_LANE_DISPATCH
    {"avx2", &lane::avx2_kernels, &has_avx2},
    {"avx512", &lane::avx512_kernels, &has_avx512},
#endif
};
constexpr int kNumEntries = static_cast<int>(sizeof kEntries / sizeof kEntries[0]);

// The generic build is the native one in a TLFEA_NATIVE_ARCH build.
const char* entry_name(int i) {
  return i == 0 && std::strcmp(cpu_target(), "native") == 0 ? "native" : kEntries[i].name;
}

int find(const std::string& name) {
  for (int i = 0; i < kNumEntries; ++i)
    if (name == entry_name(i) && kEntries[i].runs()) return i;
  return -1;
}

std::string available_list() {
  std::string s;
  for (const std::string& n : available_cpu_kernels()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// The widest available entry, or TLFEA_CPU_KERNELS.
int initial_choice() {
  const char* env = std::getenv("TLFEA_CPU_KERNELS");
  if (env && *env && std::string(env) != "auto") {
    const int i = find(env);
    if (i < 0)
      throw_error("TLFEA_CPU_KERNELS=", env,
                  ": not an instruction set this build of TLFEA has kernels for on this CPU "
                  "(available: ",
                  available_list(), "; or auto)");
    return i;
  }
  int best = 0;
  for (int i = 0; i < kNumEntries; ++i)
    if (kEntries[i].runs()) best = i;
  return best;
}

std::atomic<int> g_choice{-1};

int choice() {
  int i = g_choice.load();
  if (i < 0) {
    i = initial_choice();
    int expected = -1;
    if (!g_choice.compare_exchange_strong(expected, i)) i = expected;
  }
  return i;
}

}  // namespace

LaneForceKernels lane_force_kernels() {
  const int i = choice();
  const lane::IsaKernels k = kEntries[i].kernels();
  return {k.elastic, k.viscous, entry_name(i)};
}

const char* cpu_kernels() { return entry_name(choice()); }

std::vector<std::string> available_cpu_kernels() {
  std::vector<std::string> v;
  for (int i = 0; i < kNumEntries; ++i)
    if (kEntries[i].runs()) v.emplace_back(entry_name(i));
  return v;
}

bool select_cpu_kernels(const std::string& isa) {
  const int i = find(isa);
  if (i < 0) return false;
  g_choice.store(i);
  return true;
}

}  // namespace tlfea
