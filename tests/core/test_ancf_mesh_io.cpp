// ANCF meshes from files (docs/ancf_mesh.md): Gmsh line meshes as ANCF 3243
// beams, quadrangle meshes as ANCF 3443 shells, and the plain .ancf text
// format. Reference gradients are checked against the exact geometry of the
// shipped meshes (tests/data/make_ancf_meshes.py): a circle's tangent is the
// mean of two equal unit chords at a node and the reflection of the
// neighbouring tangent about the chord at an end, and its arc length is
// c theta / (2 sin(theta / 2)), so on circular arcs both are exact to
// rounding.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tlfea/core/error.hpp"
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
constexpr Real kPi = 3.14159265358979323846;

Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Real dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Real dist(const Vec3& a, const Vec3& b) {
  const Vec3 d = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return std::sqrt(dot(d, d));
}
const Vec3& C(const Mesh& m, Ordinal e, int local) {
  return m.coefficients[m.coefficient(e, local)];
}

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("tlfea_ancf_io_" + std::to_string(::getpid()) + "_" +
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

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

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

tlfea::AncfGmshOptions beam_options(Real w, Real h, Vec3 up = {0, 0, 1}) {
  tlfea::AncfGmshOptions o;
  o.beams.push_back({"", w, h, up});
  return o;
}

// Every element end of a beam mesh: (r_u, r_v, r_w) orthonormal and
// right-handed, r_u along the element (positive projection on the chord).
void expect_beam_frames(const Mesh& m) {
  for (Ordinal e = 0; e < m.num_elements(); ++e) {
    const Vec3 chord = {C(m, e, 4)[0] - C(m, e, 0)[0], C(m, e, 4)[1] - C(m, e, 0)[1],
                        C(m, e, 4)[2] - C(m, e, 0)[2]};
    for (int a = 0; a < 2; ++a) {
      const Vec3 &u = C(m, e, 4 * a + 1), &v = C(m, e, 4 * a + 2), &w = C(m, e, 4 * a + 3);
      EXPECT_NEAR(dot(u, u), 1, 1e-12);
      EXPECT_NEAR(dot(v, v), 1, 1e-12);
      EXPECT_NEAR(dot(u, v), 0, 1e-12);
      EXPECT_NEAR(dot(cross(u, v), w), 1, 1e-12) << "element " << e << " end " << a;
      EXPECT_GT(dot(u, chord), 0) << "element " << e << " end " << a;
    }
  }
}

// Quarter circle of radius 1 from (0,0,0) along +x turning toward +y, 32
// two-node lines: positions on the circle, r_u its exact tangent, element
// length its exact arc length R pi / 64, r_w = up = e_z.
TEST(AncfGmsh, QuarterRingTangentsAndArcLengthsAreExact) {
  const Mesh m = tlfea::read_gmsh_ancf(kData + "/quarter_ring.msh", ElementType::ANCF3243,
                                       beam_options(0.02, 0.03));
  ASSERT_EQ(m.type, ElementType::ANCF3243);
  ASSERT_EQ(m.num_nodes(), 33);
  ASSERT_EQ(m.num_elements(), 32);
  Real worst_t = 0, worst_l = 0;
  for (Ordinal n = 0; n < m.num_nodes(); ++n) {
    const Vec3& x = m.node_position(n);
    const Real a = std::atan2(x[0], 1 - x[1]);  // angle from the start
    const Vec3 t = {std::cos(a), std::sin(a), 0};
    worst_t = std::max(worst_t, dist(m.coefficients[4 * n + 1], t));
    EXPECT_NEAR(dist(m.coefficients[4 * n + 3], {0, 0, 1}), 0, 1e-14);
  }
  for (Ordinal e = 0; e < m.num_elements(); ++e) {
    worst_l = std::max(worst_l, std::fabs(m.element_size[e][0] - kPi / 64));
    EXPECT_EQ(m.element_size[e][1], 0.02);  // width along r_v
    EXPECT_EQ(m.element_size[e][2], 0.03);  // height along r_w = up
  }
  std::printf("[ quarter ring ] max |r_u - t| = %.2e, max |L - R dtheta| = %.2e\n", worst_t,
              worst_l);
  EXPECT_LT(worst_t, 1e-13);
  EXPECT_LT(worst_l, 1e-13);
  expect_beam_frames(m);
  EXPECT_EQ(m.node_sets.at("clamp"), std::vector<Ordinal>{0});
  EXPECT_EQ(m.node_sets.at("tip"), std::vector<Ordinal>{32});
  EXPECT_EQ(m.node_sets.at("ring").size(), 33u);
  EXPECT_EQ(m.node_sets.at("all").size(), 33u);
  ASSERT_EQ(m.face_sets.at("tip").size(), 1u);
  const tlfea::FaceRef tip = m.face_sets.at("tip")[0];
  EXPECT_EQ(m.coefficient(tip.element, tip.face == 0 ? 0 : 4), 4 * 32);
}

// A 3 x 3 cell net of straight beams in the x-y plane: every interior grid
// node is a right-angle crossing. Beams along x keep the node frame
// (e_x, e_y, e_z); beams along y use it cycled (e_y, e_z, e_x) (up = e_z in
// r_v, so their size is (L, height, width)). Both chains through a crossing
// share its four coefficients: it is a rigid joint.
TEST(AncfGmsh, BeamNetSharesNodesAtRightAngleCrossings) {
  const Mesh m = tlfea::read_gmsh_ancf(kData + "/beam_net.msh", ElementType::ANCF3243,
                                       beam_options(0.05, 0.02));
  ASSERT_EQ(m.num_nodes(), 16);
  ASSERT_EQ(m.num_elements(), 24);
  expect_beam_frames(m);
  int along_x = 0, along_y = 0;
  for (Ordinal e = 0; e < m.num_elements(); ++e) {
    const Vec3& u = C(m, e, 1);
    if (std::fabs(u[0]) > 0.5) {
      ++along_x;
      EXPECT_NEAR(dist(u, {1, 0, 0}), 0, 1e-14);
      EXPECT_NEAR(dist(C(m, e, 3), {0, 0, 1}), 0, 1e-14);
      EXPECT_EQ(m.element_size[e][1], 0.05);
      EXPECT_EQ(m.element_size[e][2], 0.02);
    } else {
      ++along_y;
      EXPECT_NEAR(dist(u, {0, 1, 0}), 0, 1e-14);
      EXPECT_NEAR(dist(C(m, e, 2), {0, 0, 1}), 0, 1e-14);
      EXPECT_EQ(m.element_size[e][1], 0.02);
      EXPECT_EQ(m.element_size[e][2], 0.05);
    }
    EXPECT_NEAR(m.element_size[e][0], 1.0, 1e-15);
  }
  EXPECT_EQ(along_x, 12);
  EXPECT_EQ(along_y, 12);
  EXPECT_EQ(m.node_sets.at("corners").size(), 4u);
  // Written and read back in the text format (the cycled gradients as
  // "node:shift"), the mesh is the same bit for bit.
  TempDir dir;
  tlfea::write_ancf_text(m, dir.file("net.ancf"));
  const Mesh r = tlfea::read_mesh(dir.file("net.ancf"));
  EXPECT_EQ(r.type, m.type);
  EXPECT_EQ(r.coefficients, m.coefficients);
  EXPECT_EQ(r.connectivity, m.connectivity);
  EXPECT_EQ(r.element_size, m.element_size);
  EXPECT_EQ(r.node_sets, m.node_sets);
  EXPECT_EQ(r.face_sets.size(), m.face_sets.size());
}

// Half cylinder R = 1 (x^2 + z^2 = 1, z >= 0), axis y in [0, 2], 8 x 4
// four-node quadrangles: r_u the exact circumferential tangent, r_v = e_y,
// r_w the unit normal, L = R pi / 8 and W = 0.5 exactly.
TEST(AncfGmsh, HalfCylinderShellGradientsAreExact) {
  tlfea::AncfGmshOptions o;
  o.shells.push_back({"", 0.01});
  const Mesh m =
      tlfea::read_gmsh_ancf(kData + "/half_cylinder_quads.msh", ElementType::ANCF3443, o);
  ASSERT_EQ(m.type, ElementType::ANCF3443);
  ASSERT_EQ(m.num_nodes(), 45);
  ASSERT_EQ(m.num_elements(), 32);
  Real worst = 0;
  for (Ordinal n = 0; n < m.num_nodes(); ++n) {
    const Vec3& x = m.node_position(n);
    const Vec3 t = {-x[2], 0, x[0]};  // counter-clockwise tangent about +y... up to sign
    const Vec3& ru = m.coefficients[4 * n + 1];
    const Vec3& rv = m.coefficients[4 * n + 2];
    const Vec3& rw = m.coefficients[4 * n + 3];
    const Real s = dot(ru, t) > 0 ? 1 : -1;
    worst = std::max(worst, dist(ru, {s * t[0], 0, s * t[2]}));
    worst = std::max(worst, std::fabs(std::fabs(rv[1]) - 1));
    EXPECT_NEAR(dot(cross(ru, rv), rw), 1, 1e-12);
    EXPECT_NEAR(std::fabs(dot(rw, {x[0], 0, x[2]})), 1, 1e-12);  // radial
  }
  std::printf("[ half cylinder ] max gradient error %.2e\n", worst);
  EXPECT_LT(worst, 1e-13);
  for (Ordinal e = 0; e < m.num_elements(); ++e) {
    // u and v may be exchanged by the orientation search: compare as a set.
    const Real a = std::min(m.element_size[e][0], m.element_size[e][1]);
    const Real b = std::max(m.element_size[e][0], m.element_size[e][1]);
    EXPECT_NEAR(a, kPi / 8, 1e-13);
    EXPECT_NEAR(b, 0.5, 1e-13);
    EXPECT_EQ(m.element_size[e][2], 0.01);
  }
  EXPECT_EQ(m.face_sets.at("shell").size(), 32u);
  EXPECT_EQ(m.face_sets.at("top").size(), 32u);
  EXPECT_EQ(m.face_sets.at("edge0").size(), 8u);
  EXPECT_EQ(m.face_sets.at("edge1").size(), 8u);
  EXPECT_EQ(m.node_sets.at("edge0").size(), 9u);
  for (Ordinal n : m.node_sets.at("edge0")) EXPECT_NEAR(m.node_position(n)[1], 0, 1e-15);
}

// Minimal MSH 4.1 text from nodes and line / quad elements (one entity per
// physical group "g").
std::string msh(const std::vector<Vec3>& nodes, int dim, int type,
                const std::vector<std::vector<int>>& elements) {
  std::ostringstream o;
  o << "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$PhysicalNames\n1\n"
    << dim << " 1 \"g\"\n$EndPhysicalNames\n";
  o << "$Entities\n0 " << (dim == 1 ? 1 : 0) << ' ' << (dim == 2 ? 1 : 0)
    << " 0\n1 0 0 0 1 1 1 1 1 0\n$EndEntities\n";
  o << "$Nodes\n1 " << nodes.size() << " 1 " << nodes.size() << "\n3 1 0 " << nodes.size() << "\n";
  for (size_t i = 0; i < nodes.size(); ++i) o << i + 1 << "\n";
  o.precision(17);
  for (const Vec3& x : nodes) o << x[0] << ' ' << x[1] << ' ' << x[2] << "\n";
  o << "$EndNodes\n$Elements\n1 " << elements.size() << " 1 " << elements.size() << "\n";
  o << dim << " 1 " << type << ' ' << elements.size() << "\n";
  for (size_t e = 0; e < elements.size(); ++e) {
    o << e + 1;
    for (int n : elements[e]) o << ' ' << n;
    o << "\n";
  }
  o << "$EndElements\n";
  return o.str();
}

// Three-node lines (type 8): the mid node shapes the end tangents (the
// quadratic's X'(0), X'(1)) and is no ANCF node. A quarter circle in 8
// three-node lines (Gmsh order: ends, then mid node): 9 nodes; the interior
// tangents average two symmetric quadratic end tangents and are exact to
// rounding; the two end tangents are the quadratic's: with h = theta / 2 and
// the circle as e^{ia}, X'(0) = 4 e^{ih} - 3 - e^{2ih} = 2ih + (2/3) i h^3 -
// h^4 / 2 + O(h^5), off the tangent i by the angle h^3 / 4 = theta^3 / 32
// (theta = pi / 16 per element: 2.4e-4, measured 2.35e-4); bound theta^3 / 16.
TEST(AncfGmsh, ThreeNodeLinesGiveTangentsFromTheQuadratic) {
  TempDir dir;
  const int n = 8;
  std::vector<Vec3> nodes;
  std::vector<std::vector<int>> lines;
  for (int i = 0; i <= n; ++i) {
    const Real a = kPi / 2 * i / n;
    nodes.push_back({std::sin(a), 1 - std::cos(a), 0});
  }
  for (int i = 0; i < n; ++i) {
    const Real a = kPi / 2 * (i + 0.5) / n;
    nodes.push_back({std::sin(a), 1 - std::cos(a), 0});
    lines.push_back({i + 1, i + 2, n + 2 + i});
  }
  const Mesh m = tlfea::read_gmsh_ancf(dir.write("arc3.msh", msh(nodes, 1, 8, lines)),
                                       ElementType::ANCF3243, beam_options(0.02, 0.02));
  ASSERT_EQ(m.num_nodes(), n + 1);
  ASSERT_EQ(m.num_elements(), n);
  expect_beam_frames(m);
  Real interior = 0, ends = 0;
  for (Ordinal k = 0; k <= n; ++k) {
    const Real a = kPi / 2 * k / n;
    const Real err = dist(m.coefficients[4 * k + 1], {std::cos(a), std::sin(a), 0});
    (k == 0 || k == n ? ends : interior) = std::max(k == 0 || k == n ? ends : interior, err);
  }
  std::printf("[ 3-node arc ] tangent error: interior %.2e, ends %.2e\n", interior, ends);
  EXPECT_LT(interior, 1e-13);
  EXPECT_LT(ends, std::pow(kPi / 16, 3) / 16);
}

// Nine-node quadrangles (type 10): the corners are the ANCF nodes, the
// midside and centre nodes are ignored (also in physical groups). Two flat
// 1 x 0.5 quadrangles side by side, the second numbered from another corner
// (same winding): the reader rotates its numbering to agree with the first.
TEST(AncfGmsh, NineNodeQuadranglesUseTheirCornersAndAreReoriented) {
  TempDir dir;
  // Corner grid 3 x 2: nodes 1..6 at x = 0, 1, 2 and y = 0, 0.5; the
  // remaining nodes midside / centre points (positions irrelevant to the
  // reader but on the flat plate).
  std::vector<Vec3> nodes = {{0, 0, 0},   {1, 0, 0},   {2, 0, 0},
                             {0, 0.5, 0}, {1, 0.5, 0}, {2, 0.5, 0}};
  for (int k = 0; k < 10; ++k) nodes.push_back({0.1 * k, 0.25, 0});
  const std::vector<std::vector<int>> quads = {{1, 2, 5, 4, 7, 8, 9, 10, 11},
                                               {6, 5, 2, 3, 12, 13, 14, 15, 16}};
  tlfea::AncfGmshOptions o;
  o.shells.push_back({"g", 0.02});
  const Mesh m = tlfea::read_gmsh_ancf(dir.write("q9.msh", msh(nodes, 2, 10, quads)),
                                       ElementType::ANCF3443, o);
  ASSERT_EQ(m.num_nodes(), 6);
  ASSERT_EQ(m.num_elements(), 2);
  EXPECT_EQ(m.node_sets.at("g").size(), 6u);
  for (Ordinal e = 0; e < 2; ++e) {
    EXPECT_NEAR(m.element_size[e][0], 1.0, 1e-15);
    EXPECT_NEAR(m.element_size[e][1], 0.5, 1e-15);
    // Local node 0 -> 1 along +x, 0 -> 3 along +y, as the first element.
    EXPECT_NEAR(C(m, e, 4)[0] - C(m, e, 0)[0], 1.0, 1e-15);
    EXPECT_NEAR(C(m, e, 12)[1] - C(m, e, 0)[1], 0.5, 1e-15);
  }
  for (Ordinal n = 0; n < 6; ++n) {
    EXPECT_EQ(m.coefficients[4 * n + 1], (Vec3{1, 0, 0}));
    EXPECT_EQ(m.coefficients[4 * n + 2], (Vec3{0, 1, 0}));
    EXPECT_EQ(m.coefficients[4 * n + 3], (Vec3{0, 0, 1}));
  }
}

// A quadrangle wound the other way than its neighbour (its file normal is
// -e_z): the reader reflects its numbering so that both share the first
// element's parametrisation and normal +e_z.
TEST(AncfGmsh, OppositelyWoundQuadrangleIsReflected) {
  TempDir dir;
  const std::vector<Vec3> nodes = {{0, 0, 0},   {1, 0, 0},   {2, 0, 0},
                                   {0, 0.5, 0}, {1, 0.5, 0}, {2, 0.5, 0}};
  tlfea::AncfGmshOptions o;
  o.shells.push_back({"", 0.02});
  const Mesh m =
      tlfea::read_gmsh_ancf(dir.write("wound.msh", msh(nodes, 2, 3, {{1, 2, 5, 4}, {2, 5, 6, 3}})),
                            ElementType::ANCF3443, o);
  ASSERT_EQ(m.num_elements(), 2);
  for (Ordinal n = 0; n < 6; ++n) EXPECT_EQ(m.coefficients[4 * n + 3], (Vec3{0, 0, 1}));
  for (Ordinal e = 0; e < 2; ++e) {
    EXPECT_NEAR(C(m, e, 4)[0] - C(m, e, 0)[0], 1.0, 1e-15);
    EXPECT_NEAR(C(m, e, 12)[1] - C(m, e, 0)[1], 0.5, 1e-15);
  }
}

TEST(AncfGmsh, KinksBranchesAndBadInputAreRefusedWithFileAndLine) {
  TempDir dir;
  const auto beams = [&](const std::string& name, const std::string& text,
                         tlfea::AncfGmshOptions o = beam_options(0.1, 0.1)) {
    const std::string p = dir.write(name, text);
    return [p, o] { tlfea::read_gmsh_ancf(p, ElementType::ANCF3243, o); };
  };
  // A 60-degree kink at node 2 (line 16 of the file: its tag).
  const Real c = std::cos(kPi / 3), s = std::sin(kPi / 3);
  const std::string kink = msh({{0, 0, 0}, {1, 0, 0}, {1 + c, s, 0}}, 1, 1, {{1, 2}, {2, 3}});
  expect_error(beams("kink.msh", kink), {"kink.msh:16: node 2", "kink", "at 60 degrees", "joint"});
  // Allowed as a smooth (coarse) curve when the smooth angle exceeds it.
  tlfea::AncfGmshOptions wide = beam_options(0.1, 0.1);
  wide.smooth_angle_deg = 70;
  EXPECT_NO_THROW(beams("kink70.msh", kink, wide)());
  // A closed square frame: four right-angle corners, each a rigid junction
  // (an even cycle of junctions: consistent frames exist); a closed
  // triangle has 60-degree kinks.
  const Mesh square = tlfea::read_gmsh_ancf(
      dir.write("square.msh", msh({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, 1, 1,
                                  {{1, 2}, {2, 3}, {3, 4}, {4, 1}})),
      ElementType::ANCF3243, beam_options(0.1, 0.1));
  EXPECT_EQ(square.num_nodes(), 4);
  expect_beam_frames(square);
  expect_error(beams("triangle.msh",
                     msh({{0, 0, 0}, {1, 0, 0}, {0.5, s, 0}}, 1, 1, {{1, 2}, {2, 3}, {3, 1}})),
               {"triangle.msh:15: node 1", "at 60 degrees"});
  // A smooth line through the same node twice: a figure eight (x, y) =
  // (sin a, sin a cos a) in 32 chords (turning at most 33 degrees: smooth at
  // 70), its
  // crossing a = 0, pi one node (tag 1; tag 17, at the same place, unused).
  std::vector<Vec3> eight;
  std::vector<std::vector<int>> eight_lines;
  for (int k = 0; k < 32; ++k) {
    const Real a = 2 * kPi * k / 32;
    eight.push_back({std::sin(a), std::sin(a) * std::cos(a), 0});
  }
  for (int k = 0; k < 32; ++k) eight_lines.push_back({k + 1, (k + 1) % 32 + 1});
  eight_lines[15][1] = 1;
  eight_lines[16][0] = 1;
  expect_error(beams("eight.msh", msh(eight, 1, 1, eight_lines), wide),
               {"eight.msh:15: node 1", "twice"});
  // Three lines at node 1.
  expect_error(beams("branch.msh", msh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, 1, 1,
                                       {{1, 2}, {1, 3}, {1, 4}})),
               {"branch.msh:15: node 1", "3 beam lines meet"});
  // Right-angle corner with the up vector in the plane of the beams.
  expect_error(beams("upplane.msh", msh({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}}, 1, 1, {{1, 2}, {2, 3}}),
                     beam_options(0.1, 0.1, {0, 1, 0})),
               {"upplane.msh:16: node 2", "up vector"});
  // Up vector along the beam.
  expect_error(beams("upaxis.msh", msh({{0, 0, 0}, {0, 0, 1}}, 1, 1, {{1, 2}})),
               {"upaxis.msh:", "parallel to the beam axis"});
  // No section for the group.
  tlfea::AncfGmshOptions other;
  other.beams.push_back({"other", 0.1, 0.1, {0, 0, 1}});
  expect_error(beams("nosec.msh", msh({{0, 0, 0}, {1, 0, 0}}, 1, 1, {{1, 2}}), other),
               {"nosec.msh:23: element 1", "no beam section", "(g)"});
  // A zero-length line, an unknown node, a quad in a beam mesh.
  expect_error(beams("zero.msh", msh({{0, 0, 0}, {0, 0, 0}}, 1, 1, {{1, 2}})),
               {"zero.msh:23: element 1", "zero length"});
  expect_error(beams("range.msh", msh({{0, 0, 0}, {1, 0, 0}}, 1, 1, {{1, 7}})),
               {"range.msh:23:", "node 7"});
  expect_error(
      beams("quad.msh", msh({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, 2, 3, {{1, 2, 3, 4}})),
      {"quad.msh:27: element 1", "surface element"});
  expect_error(beams("nolines.msh", msh({{0, 0, 0}}, 1, 15, {{1}})),
               {"nolines.msh:21: element 1", "type 15"});

  const auto shells = [&](const std::string& name, const std::string& text) {
    const std::string p = dir.write(name, text);
    tlfea::AncfGmshOptions o;
    o.shells.push_back({"", 0.01});
    return [p, o] { tlfea::read_gmsh_ancf(p, ElementType::ANCF3443, o); };
  };
  // Three quadrangles around a node (valence 3): no consistent parametrisation.
  std::vector<Vec3> hex = {{0, 0, 0}};
  for (int k = 0; k < 6; ++k) hex.push_back({std::cos(k * kPi / 3), std::sin(k * kPi / 3), 0});
  expect_error(shells("valence3.msh", msh(hex, 2, 3, {{1, 2, 3, 4}, {1, 4, 5, 6}, {1, 6, 7, 2}})),
               {"valence3.msh:", "quadrangle"});
  // Triangles; a trapezoid whose opposite edges differ.
  expect_error(shells("tri.msh", msh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, 2, 2, {{1, 2, 3}})),
               {"tri.msh:25: element 1", "type 2"});
  expect_error(shells("trap.msh",
                      msh({{0, 0, 0}, {2, 0, 0}, {1.5, 1, 0}, {0.5, 1, 0}}, 2, 3, {{1, 2, 3, 4}})),
               {"trap.msh:27: element 1", "opposite edges differ"});
}

// The text format: a hand-written file and its errors.
const char* kTwoBeams =
    "# two ANCF 3243 elements\n"
    "ancf3243\n"
    "nodes 3\n"
    "1  0 0 0  1 0 0  0 1 0  0 0 1\n"
    "2  1 0 0  1 0 0  0 1 0  0 0 1\n"
    "3  2 0 0  1 0 0  0 1 0  0 0 1\n"
    "elements 2\n"
    "1  1 2  1 0.1 0.2\n"
    "2  2 3  1 0.1 0.2\n"
    "nodeset clamp 1\n"
    "1\n"
    "faceset tip 1\n"
    "2 1\n";

TEST(AncfText, ReadsOneBasedFileAndRefusesBadInputWithFileAndLine) {
  TempDir dir;
  const Mesh m = tlfea::read_ancf_text(dir.write("two.ancf", kTwoBeams));
  EXPECT_EQ(m.num_nodes(), 3);
  EXPECT_EQ(m.num_elements(), 2);
  EXPECT_EQ(m.coefficient(1, 4), 8);
  EXPECT_EQ(m.element_size[1], (Vec3{1, 0.1, 0.2}));
  EXPECT_EQ(m.node_sets.at("clamp"), std::vector<Ordinal>{0});
  EXPECT_EQ(m.node_sets.at("all").size(), 3u);
  EXPECT_EQ(m.face_sets.at("tip")[0], (tlfea::FaceRef{1, 1}));
  auto replace = [](std::string s, const std::string& from, const std::string& to) {
    const size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  auto read = [&](const std::string& name, const std::string& text) {
    const std::string p = dir.write(name, text);
    return [p] { tlfea::read_ancf_text(p); };
  };
  const std::string t = kTwoBeams;
  expect_error(read("empty.ancf", "# nothing\n"), {"empty.ancf", "empty"});
  expect_error(read("kind.ancf", replace(t, "ancf3243", "ancf9999")), {"kind.ancf:2:", "ancf3243"});
  expect_error(read("count.ancf", replace(t, "nodes 3", "nodes 30")), {"count.ancf:3:", "30"});
  expect_error(read("ids.ancf", replace(t, "\n3  2 0 0", "\n4  2 0 0")),
               {"ids.ancf:6:", "consecutive"});
  expect_error(read("short.ancf", replace(t, "2  1 0 0  1 0 0  0 1 0  0 0 1", "2  1 0 0  1 0 0")),
               {"short.ancf:5:", "expected 13 values"});
  expect_error(read("nan.ancf", replace(t, "2  1 0 0  1 0 0", "2  1 0 nan  1 0 0")),
               {"nan.ancf:5:", "not finite"});
  expect_error(read("left.ancf",
                    replace(t, "2  1 0 0  1 0 0  0 1 0  0 0 1", "2  1 0 0  1 0 0  0 1 0  0 0 -1")),
               {"left.ancf:5:", "right-handed"});
  expect_error(read("node.ancf", replace(t, "2  2 3  1", "2  2 4  1")),
               {"node.ancf:9:", "element node 4"});
  expect_error(read("shift.ancf", replace(t, "2  2 3  1", "2  2 3:3  1")),
               {"shift.ancf:9:", "shift"});
  expect_error(read("size.ancf", replace(t, "2  2 3  1 0.1", "2  2 3  -1 0.1")),
               {"size.ancf:9:", "positive"});
  expect_error(read("set.ancf", replace(t, "nodeset clamp 1", "nodeset clamp 2")),
               {"set.ancf:12:", "node id"});
  expect_error(read("face.ancf", replace(t, "2 1\n", "2 6\n")), {"face.ancf:13:", "face 6"});
  expect_error(read("word.ancf", t + "edges 1\n"), {"word.ancf:14:", "nodeset"});
}

// Fuzz: truncated and byte-flipped copies of both readers' inputs read into
// a mesh that passes check_mesh or throw tlfea::Error, nothing else.
std::string mutate(const std::string& text, bool truncate, std::mt19937& rng) {
  if (truncate) return text.substr(0, std::uniform_int_distribution<size_t>(0, text.size())(rng));
  std::string s = text;
  std::uniform_int_distribution<size_t> at(0, s.size() - 1);
  std::uniform_int_distribution<int> byte(0, 255);
  const int n = std::uniform_int_distribution<int>(1, 3)(rng);
  for (int k = 0; k < n; ++k) s[at(rng)] = static_cast<char>(byte(rng));
  return s;
}

TEST(AncfFuzz, TruncatedAndFlippedCopiesReadOrThrowError) {
  TempDir dir;
  tlfea::AncfGmshOptions o = beam_options(0.05, 0.02);
  o.shells.push_back({"", 0.01});
  tlfea::write_ancf_text(tlfea::read_gmsh_ancf(kData + "/beam_net.msh", ElementType::ANCF3243, o),
                         dir.file("net.ancf"));
  struct Input {
    std::string text;
    int kind;  // 0 text, 1 Gmsh beams, 2 Gmsh shells
  };
  const std::vector<Input> inputs = {{slurp(dir.file("net.ancf")), 0},
                                     {slurp(kData + "/beam_net.msh"), 1},
                                     {slurp(kData + "/quarter_ring.msh"), 1},
                                     {slurp(kData + "/half_cylinder_quads.msh"), 2}};
  std::mt19937 rng(4242);
  for (const Input& in : inputs) {
    ASSERT_FALSE(in.text.empty());
    int ok = 0, error = 0;
    for (int i = 0; i < 300; ++i) {
      const std::string p =
          dir.write(in.kind == 0 ? "f.ancf" : "f.msh", mutate(in.text, i % 2 == 0, rng));
      try {
        const Mesh m =
            in.kind == 0 ? tlfea::read_ancf_text(p)
                         : tlfea::read_gmsh_ancf(
                               p, in.kind == 1 ? ElementType::ANCF3243 : ElementType::ANCF3443, o);
        EXPECT_NO_THROW(tlfea::check_mesh(m));
        ++ok;
      } catch (const tlfea::Error&) {
        ++error;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "input " << in.kind << " mutation " << i << ": non-tlfea exception "
                      << e.what();
      }
    }
    EXPECT_EQ(ok + error, 300);
    EXPECT_GT(error, 100);
  }
}

}  // namespace
