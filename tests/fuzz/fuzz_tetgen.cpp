// libFuzzer target: the TetGen reader (read_tetgen) on an arbitrary .node/.ele
// pair. The input is "<node file>\0<ele file>" (tools/fuzz.sh builds the seeds
// that way); an input without a NUL byte is all .node with an empty .ele.
// A tlfea::Error is the expected answer to bad input; any other exception, a
// crash, a sanitizer report, a timeout or running out of the RSS limit is a
// finding, and so is an Error whose message does not name the mesh (its
// path without extension, as read_tetgen takes it, names both files).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz_util.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/mesh_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  const void* nul = std::memchr(text, '\0', size);
  const std::size_t node_size =
      nul != nullptr ? static_cast<std::size_t>(static_cast<const char*>(nul) - text) : size;
  const std::size_t ele_offset = nul != nullptr ? node_size + 1 : size;
  tlfea_fuzz::write_file("input.node", text, node_size);
  tlfea_fuzz::write_file("input.ele", text + ele_offset, size - ele_offset);
  const std::string base = (tlfea_fuzz::work_dir() / "input").string();
  try {
    tlfea::read_tetgen(base);
  } catch (const tlfea::Error& e) {
    tlfea_fuzz::expect_location(e.what(), {base});
  }
  return 0;
}
