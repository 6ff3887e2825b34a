// libFuzzer target: the scene reader (load_scene_text) on arbitrary YAML text.
// Relative mesh paths resolve from examples/ (TLFEA_FUZZ_BASE_DIR), so the
// seed examples that read a TetGen mesh load it. A tlfea::Error is the
// expected answer to bad input; any other exception (libFuzzer reports it as
// a crash via std::terminate), a crash, a sanitizer report, a timeout or
// running out of the RSS limit is a finding, and so is an Error whose
// message does not start with a location "FILE:LINE:" (the scene's own
// FILE:LINE:COLUMN, or a mesh file's FILE:LINE): every refusal of an input
// must point at it.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tlfea/core/error.hpp"
#include "tlfea/scene/scene.hpp"

// load_scene_text builds the Model (Kokkos views): Kokkos runs for the whole
// process. libFuzzer ends the process with exit(), so finalize from atexit.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  Kokkos::initialize();
  std::atexit([] { Kokkos::finalize(); });
  return 0;
}

namespace {
// "PATH:DIGITS:" at the start of the message.
bool starts_with_location(const std::string& m) {
  const size_t c = m.find(':');
  if (c == std::string::npos || c == 0) return false;
  size_t k = c + 1;
  while (k < m.size() && m[k] >= '0' && m[k] <= '9') ++k;
  return k > c + 1 && k < m.size() && m[k] == ':';
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    tlfea::scene::load_scene_text(text, "fuzz.yaml", TLFEA_FUZZ_BASE_DIR);
  } catch (const tlfea::Error& e) {
    if (!starts_with_location(e.what())) {
      std::fprintf(stderr, "fuzz_scene: an error without a location: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}
