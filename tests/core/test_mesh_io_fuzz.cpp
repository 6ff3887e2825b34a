// Mesh readers on fuzzed input: truncated and flipped copies of real files
// read or throw tlfea::Error, never crash.
#include "mesh_io_test_util.hpp"

namespace {

using namespace mesh_io_test;

// ---------------------------------------------------------------------------
// Fuzz: truncated and byte-flipped copies either read into a mesh that
// passes check_mesh or throw tlfea::Error; never crash, hang or throw
// anything else.

struct FuzzResult {
  int ok = 0;
  int error = 0;
};

template <class Read>
void read_or_error(Read read, FuzzResult& r, const std::string& what) {
  try {
    const Mesh m = read();
    EXPECT_NO_THROW(tlfea::check_mesh(m)) << what;
    ++r.ok;
  } catch (const tlfea::Error&) {
    ++r.error;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": non-tlfea exception: " << e.what();
  }
}

std::string mutate(const std::string& text, bool truncate, std::mt19937& rng) {
  if (truncate) {
    std::uniform_int_distribution<size_t> at(0, text.size());
    return text.substr(0, at(rng));
  }
  std::string s = text;
  std::uniform_int_distribution<size_t> at(0, s.size() - 1);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> flips(1, 3);
  const int n = flips(rng);
  for (int k = 0; k < n; ++k) s[at(rng)] = static_cast<char>(byte(rng));
  return s;
}

TEST(MeshFuzz, TetgenTruncatedAndFlippedCopiesReadOrThrowError) {
  TempDir dir;
  const std::string node = slurp(kBeam + ".node");
  const std::string ele = slurp(kBeam + ".ele");
  ASSERT_FALSE(node.empty());
  ASSERT_FALSE(ele.empty());
  std::mt19937 rng(20240611);
  FuzzResult r;
  for (int mode = 0; mode < 2; ++mode) {
    for (int i = 0; i < 200; ++i) {
      const bool in_node = (i % 2) == 0;
      dir.write("f.1.node", in_node ? mutate(node, mode == 0, rng) : node);
      dir.write("f.1.ele", in_node ? ele : mutate(ele, mode == 0, rng));
      read_or_error([&] { return tlfea::read_tetgen(dir.file("f.1")); }, r,
                    "tetgen " + std::to_string(mode) + "/" + std::to_string(i));
    }
  }
  EXPECT_EQ(r.ok + r.error, 400);
  EXPECT_GT(r.error, 200);  // most mutations are caught
}

TEST(MeshFuzz, GmshTruncatedAndFlippedCopiesReadOrThrowError) {
  TempDir dir;
  std::mt19937 rng(977);
  for (const std::string& path : {kBoxQ27, kBoxT10}) {
    const std::string text = slurp(path);
    ASSERT_FALSE(text.empty());
    FuzzResult r;
    for (int mode = 0; mode < 2; ++mode) {
      for (int i = 0; i < 200; ++i) {
        const std::string p = dir.write("f.msh", mutate(text, mode == 0, rng));
        read_or_error([&] { return tlfea::read_gmsh(p); }, r,
                      path + " " + std::to_string(mode) + "/" + std::to_string(i));
      }
    }
    EXPECT_EQ(r.ok + r.error, 400);
    EXPECT_GT(r.error, 200);
  }
}

}  // namespace
