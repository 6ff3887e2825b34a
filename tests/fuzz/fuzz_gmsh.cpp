// libFuzzer target: the Gmsh MSH 4.1 reader (read_gmsh) on arbitrary bytes.
// A tlfea::Error is the expected answer to bad input; any other exception
// (libFuzzer reports it as a crash via std::terminate), a crash, a sanitizer
// report, a timeout or running out of the RSS limit is a finding, and so is an
// Error whose message does not name the file read.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/mesh_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path =
      tlfea_fuzz::write_file("input.msh", reinterpret_cast<const char*>(data), size);
  try {
    tlfea::read_gmsh(path);
  } catch (const tlfea::Error& e) {
    tlfea_fuzz::expect_location(e.what(), {path});
  }
  return 0;
}
