// Gmsh reader: node-order mappings checked by geometry on real and
// hand-written files, face sets, and error messages for bad input.
#include "mesh_io_test_util.hpp"

namespace {

using namespace mesh_io_test;

// ---------------------------------------------------------------------------
// Gmsh.

TEST(GmshReader, T10BoxMidsidesVolumeAndPhysicalFaces) {
  const Mesh m = tlfea::read_gmsh(kBoxT10);
  EXPECT_EQ(m.type, ElementType::T10);
  // Counts from the file: $Nodes header "27 1291 1 1291" (every node is used
  // by a tetrahedron) and the single type-11 block of 627 elements.
  EXPECT_EQ(m.num_nodes(), 1291);
  EXPECT_EQ(m.num_elements(), 627);
  expect_t10_midsides(m, 1e-12);
  // box_t10.geo: [0,2] x [0,1] x [0,0.5].
  EXPECT_NEAR(total_volume_all_positive(m), 1.0, 1e-12);
  const Box3 b = bounding_box(m);
  EXPECT_NEAR(b.hi[0] - b.lo[0], 2, 1e-12);
  EXPECT_NEAR(b.hi[1] - b.lo[1], 1, 1e-12);
  EXPECT_NEAR(b.hi[2] - b.lo[2], 0.5, 1e-12);
  // Face counts = the type-9 blocks of each physical surface in the file.
  const std::map<std::string, size_t> count = {{"xmin", 38}, {"xmax", 38},  {"ymin", 62},
                                               {"ymax", 62}, {"zmin", 108}, {"tag7", 110}};
  for (const auto& [name, n] : count) EXPECT_EQ(m.face_sets.at(name).size(), n) << name;
  EXPECT_EQ(m.face_sets.size(), 6u);
  const Real tol = 1e-12;
  EXPECT_NEAR(expect_face_set_on_plane(m, "xmin", 0, 0.0, -1, tol), 0.5, 1e-12);
  EXPECT_NEAR(expect_face_set_on_plane(m, "xmax", 0, 2.0, +1, tol), 0.5, 1e-12);
  EXPECT_NEAR(expect_face_set_on_plane(m, "ymin", 1, 0.0, -1, tol), 1.0, 1e-12);
  EXPECT_NEAR(expect_face_set_on_plane(m, "ymax", 1, 1.0, +1, tol), 1.0, 1e-12);
  EXPECT_NEAR(expect_face_set_on_plane(m, "zmin", 2, 0.0, -1, tol), 2.0, 1e-12);
  EXPECT_NEAR(expect_face_set_on_plane(m, "tag7", 2, 0.5, +1, tol), 2.0, 1e-12);
}

TEST(GmshReader, Q27BoxTensorPositionsVolumeAndPhysicalFaces) {
  const Mesh m = tlfea::read_gmsh(kBoxQ27);
  EXPECT_EQ(m.type, ElementType::Q27);
  // box_q27.geo: 3 x 2 x 2 cells, (2*3+1)(2*2+1)(2*2+1) nodes.
  EXPECT_EQ(m.num_elements(), 12);
  EXPECT_EQ(m.num_nodes(), 7 * 5 * 5);
  expect_q27_tensor_positions(m, 1e-12);
  EXPECT_NEAR(total_volume_all_positive(m), 6.0, 1e-12);
  EXPECT_EQ(m.face_sets.at("zmin").size(), 6u);
  EXPECT_EQ(m.face_sets.at("zmax").size(), 6u);
  EXPECT_EQ(m.face_sets.at("ymin").size(), 6u);
  EXPECT_EQ(m.face_sets.at("xmax").size(), 4u);
  EXPECT_EQ(m.face_sets.at("tag11").size(), 4u);
  const Real tol = 1e-12;
  EXPECT_NEAR(expect_face_set_on_plane(m, "zmin", 2, 0.0, -1, tol), 6.0, 1e-12);
  EXPECT_NEAR(expect_face_set_on_plane(m, "zmax", 2, 1.0, +1, tol), 6.0, 1e-12);
  EXPECT_NEAR(expect_face_set_on_plane(m, "ymin", 1, 0.0, -1, tol), 3.0, 1e-12);
  EXPECT_NEAR(expect_face_set_on_plane(m, "xmax", 0, 3.0, +1, tol), 2.0, 1e-12);
  EXPECT_NEAR(expect_face_set_on_plane(m, "tag11", 0, 0.0, -1, tol), 2.0, 1e-12);
  EXPECT_EQ(m.node_sets.at("xmax").size(), 25u);  // (2*2+1)^2 nodes on x = 3
  EXPECT_EQ(m.node_sets.at("zmax").size(), 35u);  // 7 * 5 nodes on z = 1
}

// Hand-written MSH 4.1 files: one tetrahedron or one hexahedron with one
// physical surface. Node tags are sparse (10 * i + 3) to exercise the tag map.
struct GmshNode {
  long tag;
  Vec3 x;
};
std::string gmsh_file(const std::vector<GmshNode>& nodes, int volume_type,
                      const std::vector<long>& volume, int surface_type,
                      const std::vector<long>& surface, const std::string& format = "4.1 0 8") {
  std::ostringstream os;
  os << "$MeshFormat\n" << format << "\n$EndMeshFormat\n";
  os << "$PhysicalNames\n2\n2 1 \"bottom face\"\n3 2 \"solid\"\n$EndPhysicalNames\n";
  os << "$Entities\n0 0 1 1\n1 0 0 0 1 1 0 1 1 0\n1 0 0 0 1 1 1 1 2 1 1\n$EndEntities\n";
  os << "$Comments\nanything $Nodes\n$EndComments\n";
  os << "$Nodes\n1 " << nodes.size() << " 1 1000\n3 1 0 " << nodes.size() << "\n";
  for (const GmshNode& n : nodes) os << n.tag << "\n";
  for (const GmshNode& n : nodes) os << n.x[0] << " " << n.x[1] << " " << n.x[2] << "\n";
  os << "$EndNodes\n$Elements\n2 2 1 2\n2 1 " << surface_type << " 1\n1";
  for (long t : surface) os << " " << t;
  os << "\n3 1 " << volume_type << " 1\n2";
  for (long t : volume) os << " " << t;
  os << "\n$EndElements\n";
  return os.str();
}

// Gmsh 10-node tetrahedron: vertices, then edges 01, 12, 02, 03, 23, 13.
std::string gmsh_one_tet(bool flat = false) {
  const Vec3 v[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, flat ? 0.0 : 1.0}};
  const int edge[6][2] = {{0, 1}, {1, 2}, {0, 2}, {0, 3}, {2, 3}, {1, 3}};
  std::vector<GmshNode> nodes;
  for (int a = 0; a < 4; ++a) nodes.push_back({10 * a + 3, v[a]});
  for (int k = 0; k < 6; ++k) {
    const Vec3& a = v[edge[k][0]];
    const Vec3& b = v[edge[k][1]];
    nodes.push_back({10 * (4 + k) + 3, {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2}});
  }
  std::vector<long> tet;
  for (const GmshNode& n : nodes) tet.push_back(n.tag);
  // Bottom triangle (z = 0): vertices 0, 2, 1 and midsides 02, 21, 10.
  const std::vector<long> tri = {3, 23, 13, 63, 53, 43};
  return gmsh_file(nodes, 11, tet, 9, tri);
}

// Gmsh 27-node hexahedron in parent coordinates: corners, edges (01, 03, 04,
// 12, 15, 23, 26, 37, 45, 47, 56, 67), faces (z-, y-, x-, x+, y+, z+), centre.
std::vector<Vec3> gmsh_hex27_parent() {
  const Vec3 c[8] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                     {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  const int edge[12][2] = {{0, 1}, {0, 3}, {0, 4}, {1, 2}, {1, 5}, {2, 3},
                           {2, 6}, {3, 7}, {4, 5}, {4, 7}, {5, 6}, {6, 7}};
  const int face[6][4] = {{0, 3, 2, 1}, {0, 1, 5, 4}, {0, 4, 7, 3},
                          {1, 2, 6, 5}, {2, 3, 7, 6}, {4, 5, 6, 7}};
  std::vector<Vec3> p(c, c + 8);
  for (const auto& e : edge) {
    p.push_back({(c[e[0]][0] + c[e[1]][0]) / 2, (c[e[0]][1] + c[e[1]][1]) / 2,
                 (c[e[0]][2] + c[e[1]][2]) / 2});
  }
  for (const auto& f : face) {
    Vec3 s = {0, 0, 0};
    for (int a : f)
      for (int d = 0; d < 3; ++d) s[d] += c[a][d] / 4;
    p.push_back(s);
  }
  p.push_back({0, 0, 0});
  return p;
}

// Hexahedron [0,2] x [0,1] x [0,1] (mirrored in z when inverted).
std::string gmsh_one_hex(bool inverted = false) {
  const std::vector<Vec3> par = gmsh_hex27_parent();
  std::vector<GmshNode> nodes;
  std::vector<long> hex;
  for (size_t m = 0; m < par.size(); ++m) {
    const Real z = inverted ? -par[m][2] : par[m][2];
    nodes.push_back({long(10 * m + 3), {par[m][0] + 1, (par[m][1] + 1) / 2, (z + 1) / 2}});
    hex.push_back(long(10 * m + 3));
  }
  // Bottom quadrangle z = 0: corners 0, 3, 2, 1, edges 03, 32, 21, 10, centre.
  const std::vector<long> quad = {3, 33, 23, 13, 93, 133, 113, 83, 203};
  return gmsh_file(nodes, 12, hex, 10, quad);
}

TEST(GmshReader, HandWrittenTetAndHexMapToTlfeaOrder) {
  TempDir dir;
  {
    const Mesh m = tlfea::read_gmsh(dir.write("tet.msh", gmsh_one_tet()));
    ASSERT_EQ(m.num_elements(), 1);
    const Vec3 want[10] = {{0, 0, 0},     {1, 0, 0},   {0, 1, 0},   {0, 0, 1},     {0.5, 0, 0},
                           {0.5, 0.5, 0}, {0, 0.5, 0}, {0, 0, 0.5}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    for (int k = 0; k < 10; ++k) EXPECT_EQ(X(m, 0, k), want[k]) << "local " << k;
    // The bottom triangle is face 3 = (0, 2, 1) of mesh.hpp.
    ASSERT_EQ(m.face_sets.count("bottom face"), 1u);
    EXPECT_EQ(m.face_sets.at("bottom face"), (std::vector<tlfea::FaceRef>{{0, 3}}));
    EXPECT_EQ(m.node_sets.at("bottom face").size(), 6u);
  }
  {
    const Mesh m = tlfea::read_gmsh(dir.write("hex.msh", gmsh_one_hex()));
    ASSERT_EQ(m.num_elements(), 1);
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) {
          const Vec3 want = {Real(i), Real(j) / 2, Real(k) / 2};
          EXPECT_EQ(X(m, 0, i + 3 * j + 9 * k), want) << i << j << k;
        }
    EXPECT_EQ(m.face_sets.at("bottom face"), (std::vector<tlfea::FaceRef>{{0, 4}}));
    EXPECT_NEAR(tlfea::straight_sided_volume(m, 0), 2.0, 1e-14);  // [0,2] x [0,1] x [0,1]
  }
}

TEST(GmshReader, BadInputThrowsErrorNamingFileAndLine) {
  TempDir dir;
  const std::string tet = gmsh_one_tet();
  auto replace = [](std::string s, const std::string& from, const std::string& to) {
    const size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  auto read = [&](const std::string& name, const std::string& text) {
    const std::string p = dir.write(name, text);
    return [p] { tlfea::read_gmsh(p); };
  };
  expect_error([&] { tlfea::read_gmsh(dir.file("absent.msh")); }, {"absent.msh"});
  expect_error(read("empty.msh", ""), {"empty.msh"});
  expect_error(read("garbage.msh", "hello world\n"), {"garbage.msh:1:"});
  expect_error(read("v22.msh", replace(tet, "4.1 0 8", "2.2 0 8")), {"v22.msh:2:", "2.2"});
  expect_error(read("v40.msh", replace(tet, "4.1 0 8", "4 0 8")), {"v40.msh:2:", "version"});
  expect_error(read("binary.msh", replace(tet, "4.1 0 8", "4.1 1 8")), {"binary.msh:2:", "binary"});
  // Truncated inside $Nodes; fewer nodes than the header says.
  expect_error(read("trunc.msh", tet.substr(0, tet.find("0.5 0 0\n"))), {"trunc.msh:"});
  expect_error(read("count.msh", replace(tet, "$Nodes\n1 10 1 1000\n3 1 0 10\n",
                                         "$Nodes\n1 11 1 1000\n3 1 0 10\n")),
               {"count.msh:18:", "11 nodes"});
  // Element references a node tag not in $Nodes.
  expect_error(read("range.msh", replace(tet, "2 3 13 23 33", "2 3 13 23 999")),
               {"range.msh:46:", "element 2 references node 999"});
  // Unsupported volume types: 4-node tetrahedron, 8-node hexahedron.
  expect_error(read("tet4.msh", replace(tet, "3 1 11 1\n2 3 13 23 33 43 53 63 73 83 93",
                                        "3 1 4 1\n2 3 13 23 33")),
               {"tet4.msh:45:", "4-node tetrahedron"});
  expect_error(read("hex8.msh", replace(tet, "3 1 11 1\n2 3 13 23 33 43 53 63 73 83 93",
                                        "3 1 5 1\n2 3 13 23 33 43 53 63 73")),
               {"hex8.msh:45:", "8-node hexahedron"});
  // Linear triangles on a physical surface.
  expect_error(read("tri3.msh", replace(tet, "2 1 9 1\n1 3 23 13 63 53 43", "2 1 2 1\n1 3 23 13")),
               {"tri3.msh:43:", "boundary element type 2"});
  // Non-numeric, NaN, infinite coordinates.
  expect_error(read("text.msh", replace(tet, "\n1 0 0\n", "\n1 x 0\n")), {"text.msh:31:", "'x'"});
  expect_error(read("nan.msh", replace(tet, "\n1 0 0\n", "\n1 NaN 0\n")),
               {"nan.msh:31:", "node 13"});
  expect_error(read("inf.msh", replace(tet, "\n1 0 0\n", "\n1 0 inf\n")),
               {"inf.msh:31:", "not finite"});
  // Duplicate node tags.
  expect_error(read("dup.msh", replace(tet, "\n13\n", "\n3\n")),
               {"dup.msh:21:", "duplicate node tag 3"});
  // Zero and negative reference volume.
  expect_error(read("flat.msh", gmsh_one_tet(true)), {"flat.msh:46:", "element 2", "volume"});
  expect_error(read("invhex.msh", gmsh_one_hex(true)), {"invhex.msh:80:", "element 2", "volume"});
  // A physical surface element that is no element face.
  expect_error(read("noface.msh", replace(tet, "1 3 23 13 63 53 43", "1 3 23 93 63 53 43")),
               {"noface.msh:44:", "bottom face", "matches no face"});
  // Mixed sections, missing $End, absurd counts.
  expect_error(read("noend.msh", replace(tet, "$EndNodes", "$EndNodez")), {"noend.msh:40:"});
  expect_error(read("absurd.msh", replace(tet, "$Nodes\n1 10 1 1000", "$Nodes\n1 99999999999 1 1")),
               {"absurd.msh:18:"});
  expect_error(read("elemfirst.msh",
                    replace(replace(tet, "\n$Nodes\n", "\n$Xodes\n"), "$EndNodes", "$EndXodes")),
               {"elemfirst.msh:", "$Elements before $Nodes"});
}

}  // namespace
