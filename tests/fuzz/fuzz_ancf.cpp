// libFuzzer target: the ANCF mesh readers (mesh_io.hpp, docs/ancf_mesh.md)
// on arbitrary bytes: read_ancf_text, and read_gmsh_ancf as ANCF 3243 beams
// (with a right-angle-junction-friendly section) and as ANCF 3443 shells.
// A tlfea::Error naming the file is the expected answer to bad input;
// anything else is a finding (see fuzz_gmsh.cpp).
#include <cstddef>
#include <cstdint>

#include "fuzz_util.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/mesh_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  const std::string ancf = tlfea_fuzz::write_file("input.ancf", text, size);
  try {
    tlfea::read_ancf_text(ancf);
  } catch (const tlfea::Error& e) {
    tlfea_fuzz::expect_location(e.what(), {ancf});
  }
  const std::string msh = tlfea_fuzz::write_file("input.msh", text, size);
  tlfea::AncfGmshOptions o;
  o.beams.push_back({"", 0.05, 0.02, {0, 0, 1}});
  o.shells.push_back({"", 0.01});
  for (tlfea::ElementType t : {tlfea::ElementType::ANCF3243, tlfea::ElementType::ANCF3443}) {
    try {
      tlfea::read_gmsh_ancf(msh, t, o);
    } catch (const tlfea::Error& e) {
      tlfea_fuzz::expect_location(e.what(), {msh});
    }
  }
  return 0;
}
