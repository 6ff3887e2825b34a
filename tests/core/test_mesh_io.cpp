// Mesh readers: node-order mappings checked by geometry on real files, face
// sets, error messages for bad input, and fuzzed input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/core/mesh_io.hpp"

namespace {

using tlfea::ElementType;
using tlfea::Mesh;
using tlfea::Ordinal;
using tlfea::Real;
using Vec3 = std::array<Real, 3>;
namespace fs = std::filesystem;

const std::string kData = TLFEA_TEST_DATA_DIR;
const std::string kBeam = kData + "/beam_3x2x1_res0.1";
const std::string kBoxT10 = kData + "/box_t10.msh";
const std::string kBoxQ27 = kData + "/box_q27.msh";

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Real dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Real dist(const Vec3& a, const Vec3& b) { return std::sqrt(dot(sub(a, b), sub(a, b))); }

// Reference coefficient `local` of element e (the position for T10 / Q27,
// and for ANCF local 4 a is node a's position).
const Vec3& X(const Mesh& m, Ordinal e, int local) {
  return m.coefficients[m.coefficient(e, local)];
}

// T10 (mesh.hpp): midside nodes 4..9 on edges 01, 12, 02, 03, 13, 23. On a
// straight-sided mesh each sits at the midpoint of its edge.
void expect_t10_midsides(const Mesh& m, Real tol) {
  const int edge[6][2] = {{0, 1}, {1, 2}, {0, 2}, {0, 3}, {1, 3}, {2, 3}};
  int bad = 0;
  for (Ordinal e = 0; e < m.num_elements(); ++e) {
    for (int k = 0; k < 6; ++k) {
      const Vec3& a = X(m, e, edge[k][0]);
      const Vec3& b = X(m, e, edge[k][1]);
      const Vec3 mid = {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
      if (dist(X(m, e, 4 + k), mid) > tol && bad++ < 5) {
        ADD_FAILURE() << m.source << ": element " << e << " node " << 4 + k << " not at midpoint";
      }
    }
  }
  EXPECT_EQ(bad, 0);
}

// Trilinear map of the Q27 corners (i, j, k in {0, 2}) at parent point xi.
Vec3 trilinear(const Mesh& m, Ordinal e, const Vec3& xi) {
  Vec3 r = {0, 0, 0};
  for (int a = 0; a < 8; ++a) {
    const int i = (a & 1) ? 2 : 0, j = (a & 2) ? 2 : 0, k = (a & 4) ? 2 : 0;
    const Real w = (1 + (i - 1) * xi[0]) * (1 + (j - 1) * xi[1]) * (1 + (k - 1) * xi[2]) / 8;
    const Vec3& x = X(m, e, i + 3 * j + 9 * k);
    for (int d = 0; d < 3; ++d) r[d] += w * x[d];
  }
  return r;
}

// Q27 (mesh.hpp): node i + 3 j + 9 k at parent (i - 1, j - 1, k - 1); on a
// straight-sided (trilinear) mesh it sits where the corner map puts it.
void expect_q27_tensor_positions(const Mesh& m, Real tol) {
  int bad = 0;
  for (Ordinal e = 0; e < m.num_elements(); ++e) {
    for (int k = 0; k < 3; ++k) {
      for (int j = 0; j < 3; ++j) {
        for (int i = 0; i < 3; ++i) {
          const Vec3 want = trilinear(m, e, {Real(i - 1), Real(j - 1), Real(k - 1)});
          if (dist(X(m, e, i + 3 * j + 9 * k), want) > tol && bad++ < 5) {
            ADD_FAILURE() << m.source << ": element " << e << " node (" << i << "," << j << "," << k
                          << ") not at its tensor position";
          }
        }
      }
    }
  }
  EXPECT_EQ(bad, 0);
}

struct Box3 {
  Vec3 lo, hi;
};
Box3 bounding_box(const Mesh& m) {
  Box3 b{m.node_position(0), m.node_position(0)};
  for (Ordinal n = 0; n < m.num_nodes(); ++n) {
    for (int d = 0; d < 3; ++d) {
      b.lo[d] = std::min(b.lo[d], m.node_position(n)[d]);
      b.hi[d] = std::max(b.hi[d], m.node_position(n)[d]);
    }
  }
  return b;
}

Real total_volume_all_positive(const Mesh& m) {
  Real v = 0;
  int bad = 0;
  for (Ordinal e = 0; e < m.num_elements(); ++e) {
    const Real ve = tlfea::straight_sided_volume(m, e);
    if (!(ve > 0) && bad++ < 5) ADD_FAILURE() << m.source << ": element " << e << " volume " << ve;
    v += ve;
  }
  EXPECT_EQ(bad, 0);
  return v;
}

// Every face of the set lies on the plane x_axis = value with its
// corner-ordered normal pointing to `outward` (+1 / -1); returns its area.
Real expect_face_set_on_plane(const Mesh& m, const std::string& name, int axis, Real value,
                              int outward, Real tol) {
  EXPECT_TRUE(m.face_sets.count(name)) << name;
  if (!m.face_sets.count(name)) return 0;
  const std::vector<int> cp = tlfea::face_corner_positions(m.type);
  Real area = 0;
  for (const tlfea::FaceRef& f : m.face_sets.at(name)) {
    const std::vector<int> fn = tlfea::face_nodes(m.type, f.face);
    for (int k : fn) EXPECT_NEAR(X(m, f.element, k)[axis], value, tol) << name;
    std::vector<Vec3> c;
    for (int p : cp) c.push_back(X(m, f.element, fn[p]));
    // Area vector of the planar polygon of corners (counter-clockwise from outside).
    Vec3 a = {0, 0, 0};
    for (size_t i = 0; i < c.size(); ++i) {
      const Vec3 t = cross(c[i], c[(i + 1) % c.size()]);
      for (int d = 0; d < 3; ++d) a[d] += t[d] / 2;
    }
    EXPECT_GT(a[axis] * outward, 0)
        << name << ": face (" << f.element << "," << f.face << ") is not outward";
    area += std::fabs(a[axis]);
  }
  // Its node set holds exactly the nodes of its faces.
  std::set<Ordinal> nodes;
  for (const tlfea::FaceRef& f : m.face_sets.at(name)) {
    for (int k : tlfea::face_nodes(m.type, f.face)) nodes.insert(m.coefficient(f.element, k));
  }
  EXPECT_TRUE(m.node_sets.count(name)) << name;
  if (m.node_sets.count(name)) {
    const std::vector<Ordinal>& ns = m.node_sets.at(name);
    EXPECT_EQ(std::set<Ordinal>(ns.begin(), ns.end()), nodes) << name;
    for (Ordinal n : ns) EXPECT_NEAR(m.node_position(n)[axis], value, tol) << name;
  }
  return area;
}

// First integers of a file's first line ("counts from the file header").
std::vector<long> header_counts(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::istringstream is(line);
  std::vector<long> v;
  long x;
  while (is >> x) v.push_back(x);
  return v;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("tlfea_mesh_io_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream out(file(name), std::ios::binary);
    out << text;
    return file(name);
  }

 private:
  fs::path path_;
};

// Reads and expects tlfea::Error whose message contains every piece.
template <class Read>
void expect_error(Read read, const std::vector<std::string>& pieces) {
  try {
    read();
    ADD_FAILURE() << "no error; expected one containing '" << pieces.front() << "'";
  } catch (const tlfea::Error& e) {
    for (const std::string& p : pieces) {
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos)
          << "message '" << e.what() << "' lacks '" << p << "'";
    }
  }
}

// ---------------------------------------------------------------------------
// Element tables.

TEST(MeshTables, NamesRoundTripAndCounts) {
  for (ElementType t :
       {ElementType::T10, ElementType::Q27, ElementType::ANCF3243, ElementType::ANCF3443}) {
    EXPECT_EQ(tlfea::element_type_from_string(tlfea::to_string(t)), t);
  }
  EXPECT_EQ(tlfea::element_type_from_string("q27"), ElementType::Q27);
  EXPECT_EQ(tlfea::element_type_from_string("ancf3443"), ElementType::ANCF3443);
  EXPECT_THROW(tlfea::element_type_from_string("T4"), tlfea::Error);
  EXPECT_EQ(tlfea::nodes_per_element(ElementType::T10), 10);
  EXPECT_EQ(tlfea::nodes_per_element(ElementType::Q27), 27);
  EXPECT_EQ(tlfea::coefficients_per_element(ElementType::ANCF3243), 8);
  EXPECT_EQ(tlfea::coefficients_per_element(ElementType::ANCF3443), 16);
  EXPECT_EQ(tlfea::faces_per_element(ElementType::T10), 4);
  EXPECT_EQ(tlfea::faces_per_element(ElementType::Q27), 6);
  EXPECT_TRUE(tlfea::face_nodes(ElementType::ANCF3243, 0).empty());
  EXPECT_THROW(tlfea::face_nodes(ElementType::T10, 4), tlfea::Error);
}

// Reference T10 (vertices (0,0,0), (1,0,0), (0,1,0), (0,0,1)): face f is
// opposite vertex f, corners counter-clockwise from outside, midside nodes of
// the corner edges (c0 c1), (c1 c2), (c2 c0).
TEST(MeshTables, T10FacesOppositeVertexOutwardWithEdgeMidsides) {
  const Vec3 v[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const int edge[6][2] = {{0, 1}, {1, 2}, {0, 2}, {0, 3}, {1, 3}, {2, 3}};
  auto midside = [&](int a, int b) {
    for (int k = 0; k < 6; ++k) {
      if ((edge[k][0] == a && edge[k][1] == b) || (edge[k][0] == b && edge[k][1] == a))
        return 4 + k;
    }
    return -1;
  };
  const Vec3 centroid = {0.25, 0.25, 0.25};
  for (int f = 0; f < 4; ++f) {
    const std::vector<int> fn = tlfea::face_nodes(ElementType::T10, f);
    ASSERT_EQ(fn.size(), 6u);
    std::set<int> corners(fn.begin(), fn.begin() + 3);
    EXPECT_EQ(corners.count(f), 0u);  // opposite vertex f
    EXPECT_EQ(corners.size(), 3u);
    EXPECT_EQ(fn[3], midside(fn[0], fn[1]));
    EXPECT_EQ(fn[4], midside(fn[1], fn[2]));
    EXPECT_EQ(fn[5], midside(fn[2], fn[0]));
    const Vec3 n = cross(sub(v[fn[1]], v[fn[0]]), sub(v[fn[2]], v[fn[0]]));
    EXPECT_GT(dot(n, sub(v[fn[0]], centroid)), 0) << "face " << f;
  }
  EXPECT_EQ(tlfea::face_corner_positions(ElementType::T10), (std::vector<int>{0, 1, 2}));
}

// Reference Q27: face nodes on the right parent plane, a 3x3 grid with
// d/da x d/db outward, corners at positions 0, 2, 8, 6 counter-clockwise.
TEST(MeshTables, Q27FacesOnParentPlanesOutward) {
  auto parent = [](int n) { return Vec3{Real(n % 3 - 1), Real(n / 3 % 3 - 1), Real(n / 9 - 1)}; };
  for (int f = 0; f < 6; ++f) {
    const int axis = f / 2;
    const Real side = f % 2 ? 1.0 : -1.0;
    const std::vector<int> fn = tlfea::face_nodes(ElementType::Q27, f);
    ASSERT_EQ(fn.size(), 9u);
    EXPECT_EQ(std::set<int>(fn.begin(), fn.end()).size(), 9u);
    for (int n : fn) EXPECT_EQ(parent(n)[axis], side) << "face " << f;
    for (int b = 0; b < 3; ++b) {
      for (int a = 0; a < 3; ++a) {
        // Grid: neighbours in a and b differ by one parent step.
        if (a > 0) {
          EXPECT_NEAR(dist(parent(fn[a + 3 * b]), parent(fn[a - 1 + 3 * b])), 1, 1e-14);
        }
        if (b > 0) {
          EXPECT_NEAR(dist(parent(fn[a + 3 * b]), parent(fn[a + 3 * (b - 1)])), 1, 1e-14);
        }
      }
    }
    const Vec3 da = sub(parent(fn[1]), parent(fn[0]));
    const Vec3 db = sub(parent(fn[3]), parent(fn[0]));
    EXPECT_EQ(cross(da, db)[axis], side) << "face " << f;
    // Centre node of the face is the face-centre node.
    EXPECT_EQ(parent(fn[4])[(axis + 1) % 3], 0);
    EXPECT_EQ(parent(fn[4])[(axis + 2) % 3], 0);
  }
  EXPECT_EQ(tlfea::face_corner_positions(ElementType::Q27), (std::vector<int>{0, 2, 8, 6}));
}

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
