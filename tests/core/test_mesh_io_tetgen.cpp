// TetGen reader: node-order mapping checked by geometry on real files, and
// error messages for bad input.
#include "mesh_io_test_util.hpp"

namespace {

using namespace mesh_io_test;

// ---------------------------------------------------------------------------
// TetGen.

TEST(TetgenReader, Res0BeamCountsBoxVolumeAndMidsides) {
  const Mesh m = tlfea::read_tetgen(kBeam);
  const std::vector<long> nh = header_counts(kBeam + ".node");
  const std::vector<long> eh = header_counts(kBeam + ".ele");
  ASSERT_GE(nh.size(), 1u);
  ASSERT_GE(eh.size(), 2u);
  EXPECT_EQ(m.type, ElementType::T10);
  EXPECT_EQ(m.num_nodes(), nh[0]);
  EXPECT_EQ(m.num_elements(), eh[0]);
  EXPECT_EQ(m.num_elements(), 36);
  EXPECT_EQ(eh[1], 10);
  const Box3 b = bounding_box(m);
  for (int d = 0; d < 3; ++d) EXPECT_EQ(b.lo[d], 0);
  EXPECT_EQ(b.hi[0], 3);
  EXPECT_EQ(b.hi[1], 2);
  EXPECT_EQ(b.hi[2], 1);
  expect_t10_midsides(m, 1e-12);
  // Sum of vertex-tetrahedron volumes = 3 * 2 * 1.
  EXPECT_NEAR(total_volume_all_positive(m), 6.0, 1e-12);
  EXPECT_EQ(m.node_sets.at("all").size(), static_cast<size_t>(m.num_nodes()));
  EXPECT_NO_THROW(tlfea::check_mesh(m));
}

TEST(TetgenReader, AcceptsBasenameNodeOrEleAndReadMeshDispatches) {
  const Mesh a = tlfea::read_tetgen(kBeam);
  for (const std::string& p : {kBeam + ".node", kBeam + ".ele"}) {
    const Mesh b = tlfea::read_tetgen(p);
    EXPECT_EQ(b.connectivity, a.connectivity);
    EXPECT_EQ(b.coefficients, a.coefficients);
  }
  EXPECT_EQ(tlfea::read_mesh(kBeam).connectivity, a.connectivity);
  EXPECT_EQ(tlfea::read_mesh(kBeam + ".ele").connectivity, a.connectivity);
  EXPECT_EQ(tlfea::read_mesh(kBoxQ27).type, ElementType::Q27);
  expect_error([] { tlfea::read_mesh(kData + "/no_such_mesh"); }, {"no_such_mesh"});
}

// A single 10-node tetrahedron written by hand in TetGen's column order
// (vertices, then midsides of edges 23, 03, 01, 12, 13, 02), 1-based, with
// comments, attributes and boundary markers; and the same 0-based.
const char* kOneTetNode =
    "# one tetrahedron\n"
    "10 3 1 1\n"
    "1  0 0 0   7 1\n"
    "2  1 0 0   7 1\n"
    "3  0 1 0   7 1\n"
    "4  0 0 1   7 1  # apex\n"
    "5  0.5 0 0  7 1\n"    // 01
    "6  0.5 0.5 0  7 1\n"  // 12
    "7  0 0.5 0  7 1\n"    // 02
    "8  0 0 0.5  7 1\n"    // 03
    "9  0.5 0 0.5  7 1\n"  // 13
    "\n"
    "10 0 0.5 0.5  7 1\n";  // 23
const char* kOneTetEle =
    "1 10 1\n"
    "1   1 2 3 4   10 8 5 6 9 7   3\n";

std::string shift_ids_to_zero(const std::string& text, bool node_file) {
  std::istringstream in(text);
  std::ostringstream out;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') {
      out << line << "\n";
      continue;
    }
    std::istringstream ls(line);
    if (header) {
      out << line << "\n";
      header = false;
      continue;
    }
    long id;
    ls >> id;
    out << id - 1;
    if (node_file) {
      std::string rest;
      std::getline(ls, rest);
      out << rest << "\n";
    } else {
      long n;
      for (int k = 0; k < 10; ++k) {
        ls >> n;
        out << " " << n - 1;
      }
      std::string rest;
      std::getline(ls, rest);
      out << rest << "\n";
    }
  }
  return out.str();
}

TEST(TetgenReader, MapsTetgenColumnsToTlfeaOrderOneAndZeroBased) {
  TempDir dir;
  dir.write("one.1.node", kOneTetNode);
  dir.write("one.1.ele", kOneTetEle);
  dir.write("zero.1.node", shift_ids_to_zero(kOneTetNode, true));
  dir.write("zero.1.ele", shift_ids_to_zero(kOneTetEle, false));
  for (const std::string& base : {dir.file("one.1"), dir.file("zero.1")}) {
    const Mesh m = tlfea::read_tetgen(base);
    ASSERT_EQ(m.num_elements(), 1);
    ASSERT_EQ(m.num_nodes(), 10);
    // TLFEA order: vertices, then midsides 01, 12, 02, 03, 13, 23.
    const Vec3 want[10] = {{0, 0, 0},     {1, 0, 0},   {0, 1, 0},   {0, 0, 1},     {0.5, 0, 0},
                           {0.5, 0.5, 0}, {0, 0.5, 0}, {0, 0, 0.5}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    for (int k = 0; k < 10; ++k) EXPECT_EQ(X(m, 0, k), want[k]) << base << " local " << k;
  }
}

TEST(TetgenReader, BadInputThrowsErrorNamingFileAndLine) {
  TempDir dir;
  const std::string node = kOneTetNode;
  const std::string ele = kOneTetEle;
  auto make = [&](const std::string& base, const std::string& n, const std::string& e) {
    dir.write(base + ".node", n);
    dir.write(base + ".ele", e);
    return dir.file(base);
  };
  auto replace = [](std::string s, const std::string& from, const std::string& to) {
    const size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  // Missing / unreadable.
  expect_error([&] { tlfea::read_tetgen(dir.file("absent.1")); }, {"absent.1.node"});
  make("noele.1", node, ele);
  fs::remove(dir.file("noele.1.ele"));
  expect_error([&] { tlfea::read_tetgen(dir.file("noele.1")); }, {"noele.1.ele"});
  fs::create_directories(dir.file("isdir.1.node"));
  expect_error([&] { tlfea::read_tetgen(dir.file("isdir.1")); }, {"isdir.1.node", "directory"});
  // Truncated: header says 10 nodes, the file ends after 6.
  std::string cut = node.substr(0, node.find("6  0.5 0.5"));
  auto p = make("trunc.1", cut, ele);
  expect_error([&] { tlfea::read_tetgen(p); }, {"trunc.1.node:2:", "10"});
  // Header says 10 nodes, 10 lines follow but one of them is blank/comment.
  p = make("short.1", replace(node, "9  0.5 0 0.5  7 1\n", "# gone\n"), ele);
  expect_error([&] { tlfea::read_tetgen(p); }, {"short.1.node:", "end of file"});
  // Wrong element count: header says 2, one present.
  p = make("count.1", node, replace(ele, "1 10 1\n", "2 10 1\n"));
  expect_error([&] { tlfea::read_tetgen(p); }, {"count.1.ele:1:", "2 elements"});
  // Index out of range.
  p = make("range.1", node, replace(ele, " 9 7 ", " 999 7 "));
  expect_error([&] { tlfea::read_tetgen(p); },
               {"range.1.ele:2:", "element 1 references node 999", "10 nodes"});
  // 4-node tetrahedra.
  p = make("lin.1", node, "1 4 0\n1 1 2 3 4\n");
  expect_error([&] { tlfea::read_tetgen(p); }, {"lin.1.ele:1:", "4-node"});
  // Non-numeric, NaN and infinite coordinates.
  p = make("text.1", replace(node, "2  1 0 0", "2  1 abc 0"), ele);
  expect_error([&] { tlfea::read_tetgen(p); }, {"text.1.node:4:", "abc"});
  p = make("nan.1", replace(node, "3  0 1 0", "3  0 nan 0"), ele);
  expect_error([&] { tlfea::read_tetgen(p); }, {"nan.1.node:5:", "node 3"});
  p = make("inf.1", replace(node, "3  0 1 0", "3  0 1 -inf"), ele);
  expect_error([&] { tlfea::read_tetgen(p); }, {"inf.1.node:5:", "not finite"});
  p = make("huge.1", replace(node, "3  0 1 0", "3  0 1 1e300"), ele);
  expect_error([&] { tlfea::read_tetgen(p); }, {"huge.1.node:5:"});
  // Duplicate node ids.
  p = make("dup.1", replace(node, "3  0 1 0", "2  0 1 0"), ele);
  expect_error([&] { tlfea::read_tetgen(p); }, {"dup.1.node:5:", "duplicate node id 2"});
  // Ids neither 0- nor 1-based.
  p = make("base.1", replace(node, "1  0 0 0", "5  0 0 0"), ele);
  expect_error([&] { tlfea::read_tetgen(p); }, {"base.1.node:3:", "0 or 1"});
  // Zero volume (apex in the base plane) and negative volume (v1, v2 swapped).
  p = make("flat.1", replace(node, "4  0 0 1 ", "4  0.3 0.3 0 "), ele);
  expect_error([&] { tlfea::read_tetgen(p); }, {"flat.1.ele:2:", "element 1", "volume"});
  p = make("inv.1", node, replace(ele, "1 2 3 4   10 8 5 6 9 7", "1 3 2 4   9 8 7 6 10 5"));
  expect_error([&] { tlfea::read_tetgen(p); }, {"inv.1.ele:2:", "element 1", "volume"});
  // Unexpected trailing data and an element line with too few values.
  p = make("extra.1", node, ele + "2 1 2 3 4 5 6 7 8 9 10\n");
  expect_error([&] { tlfea::read_tetgen(p); }, {"extra.1.ele:3:"});
  p = make("few.1", node, replace(ele, " 9 7 ", " "));
  expect_error([&] { tlfea::read_tetgen(p); }, {"few.1.ele:2:"});
  // Absurd count rejected before allocating.
  p = make("absurd.1", replace(node, "10 3 1 1", "99999999999 3 1 1"), ele);
  expect_error([&] { tlfea::read_tetgen(p); }, {"absurd.1.node:2:"});
}

}  // namespace
