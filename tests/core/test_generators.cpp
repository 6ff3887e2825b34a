// Structured generators: counts in closed form, coordinates, volumes,
// conformity, named sets on the right planes, ANCF gradients; check_mesh.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/core/mesh.hpp"

namespace {

using tlfea::ElementType;
using tlfea::Mesh;
using tlfea::Ordinal;
using tlfea::Real;
using Vec3 = std::array<Real, 3>;

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Real norm(const Vec3& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }
// Reference coefficient `local` of element e (the position for T10 / Q27,
// and for ANCF local 4 a is node a's position).
const Vec3& X(const Mesh& m, Ordinal e, int local) {
  return m.coefficients[m.coefficient(e, local)];
}

const char* const kSides[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};

struct BoxCase {
  Vec3 lengths;
  std::array<int, 3> div;
  Vec3 origin;
};
const BoxCase kBox = {{1.5, 2.0, 0.5}, {2, 3, 4}, {1.0, -1.0, 0.25}};

Mesh make_box(ElementType t) { return tlfea::generate_box(t, kBox.lengths, kBox.div, kBox.origin); }

// Face sets of a box: every face on its plane, outward, total area = side area.
void expect_box_face_sets(const Mesh& m, size_t faces_per_cell_side) {
  const std::vector<int> cp = tlfea::face_corner_positions(m.type);
  for (int s = 0; s < 6; ++s) {
    const int axis = s / 2;
    const int outward = s % 2 ? 1 : -1;
    const Real plane = kBox.origin[axis] + (s % 2 ? kBox.lengths[axis] : 0.0);
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    const std::vector<tlfea::FaceRef>& faces = m.face_sets.at(kSides[s]);
    EXPECT_EQ(faces.size(), faces_per_cell_side * kBox.div[a1] * kBox.div[a2]) << kSides[s];
    Real area = 0;
    std::set<Ordinal> nodes;
    for (const tlfea::FaceRef& f : faces) {
      const std::vector<int> fn = tlfea::face_nodes(m.type, f.face);
      for (int k : fn) {
        EXPECT_NEAR(X(m, f.element, k)[axis], plane, 1e-14) << kSides[s];
        nodes.insert(m.coefficient(f.element, k));
      }
      Vec3 a = {0, 0, 0};
      for (size_t i = 0; i < cp.size(); ++i) {
        const Vec3 t =
            cross(X(m, f.element, fn[cp[i]]), X(m, f.element, fn[cp[(i + 1) % cp.size()]]));
        for (int d = 0; d < 3; ++d) a[d] += t[d] / 2;
      }
      EXPECT_GT(a[axis] * outward, 0)
          << kSides[s] << " face (" << f.element << "," << f.face << ")";
      area += std::fabs(a[axis]);
    }
    EXPECT_NEAR(area, kBox.lengths[a1] * kBox.lengths[a2], 1e-12) << kSides[s];
    // Node set = the (2 n1 + 1)(2 n2 + 1) grid nodes of the plane = the face nodes.
    const std::vector<Ordinal>& ns = m.node_sets.at(kSides[s]);
    EXPECT_EQ(ns.size(), size_t(2 * kBox.div[a1] + 1) * (2 * kBox.div[a2] + 1)) << kSides[s];
    EXPECT_EQ(std::set<Ordinal>(ns.begin(), ns.end()), nodes) << kSides[s];
    EXPECT_EQ(tlfea::nodes_where(m, axis, plane, 1e-12), ns) << kSides[s];
  }
}

// Conformity: every face (by sorted corners) is shared by two elements
// unless it is a boundary face, and the boundary faces are exactly the
// union of the six face sets.
void expect_conforming(const Mesh& m) {
  const std::vector<int> cp = tlfea::face_corner_positions(m.type);
  std::map<std::vector<Ordinal>, std::vector<tlfea::FaceRef>> faces;
  for (Ordinal e = 0; e < m.num_elements(); ++e) {
    for (int f = 0; f < tlfea::faces_per_element(m.type); ++f) {
      const std::vector<int> fn = tlfea::face_nodes(m.type, f);
      std::vector<Ordinal> key;
      for (int p : cp) key.push_back(m.coefficient(e, fn[p]));
      std::sort(key.begin(), key.end());
      faces[key].push_back({e, f});
    }
  }
  std::set<std::pair<Ordinal, int>> boundary, in_sets;
  for (const auto& [key, refs] : faces) {
    ASSERT_LE(refs.size(), 2u);
    if (refs.size() == 1) boundary.insert({refs[0].element, refs[0].face});
    if (refs.size() == 2) {
      // Shared faces carry the same full node set (midside / face nodes too).
      std::set<Ordinal> a, b;
      for (int k : tlfea::face_nodes(m.type, refs[0].face))
        a.insert(m.coefficient(refs[0].element, k));
      for (int k : tlfea::face_nodes(m.type, refs[1].face))
        b.insert(m.coefficient(refs[1].element, k));
      EXPECT_EQ(a, b);
    }
  }
  for (const char* s : kSides) {
    for (const tlfea::FaceRef& f : m.face_sets.at(s)) in_sets.insert({f.element, f.face});
  }
  EXPECT_EQ(boundary, in_sets);
}

TEST(GenerateBox, T10CountsCoordinatesVolumeMidsidesAndSets) {
  const Mesh m = make_box(ElementType::T10);
  const int nx = kBox.div[0], ny = kBox.div[1], nz = kBox.div[2];
  EXPECT_EQ(m.type, ElementType::T10);
  EXPECT_EQ(m.num_nodes(), (2 * nx + 1) * (2 * ny + 1) * (2 * nz + 1));
  EXPECT_EQ(m.num_elements(), 6 * nx * ny * nz);
  // Node (i, j, k) at origin + lengths * (i, j, k) / (2 n).
  const Vec3& last = m.node_position(m.num_nodes() - 1);
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(m.node_position(0)[d], kBox.origin[d]);
    EXPECT_DOUBLE_EQ(last[d], kBox.origin[d] + kBox.lengths[d]);
  }
  EXPECT_DOUBLE_EQ(m.node_position(1)[0], kBox.origin[0] + kBox.lengths[0] / (2 * nx));
  EXPECT_DOUBLE_EQ(m.node_position(2 * nx + 1)[1], kBox.origin[1] + kBox.lengths[1] / (2 * ny));
  // Midside nodes at edge midpoints; every tetrahedron positive with volume
  // cell / 6; total = product of lengths.
  const int edge[6][2] = {{0, 1}, {1, 2}, {0, 2}, {0, 3}, {1, 3}, {2, 3}};
  const Real cell = kBox.lengths[0] * kBox.lengths[1] * kBox.lengths[2] / (nx * ny * nz);
  Real volume = 0;
  for (Ordinal e = 0; e < m.num_elements(); ++e) {
    for (int k = 0; k < 6; ++k) {
      const Vec3& a = X(m, e, edge[k][0]);
      const Vec3& b = X(m, e, edge[k][1]);
      const Vec3 mid = {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
      EXPECT_LT(norm(sub(X(m, e, 4 + k), mid)), 1e-14);
    }
    const Real v = tlfea::straight_sided_volume(m, e);
    EXPECT_NEAR(v, cell / 6, 1e-14);
    volume += v;
  }
  EXPECT_NEAR(volume, kBox.lengths[0] * kBox.lengths[1] * kBox.lengths[2], 1e-12);
  expect_conforming(m);
  expect_box_face_sets(m, 2);  // two triangles per cell side
  EXPECT_EQ(m.node_sets.at("all").size(), size_t(m.num_nodes()));
}

TEST(GenerateBox, Q27CountsTensorPositionsVolumeAndSets) {
  const Mesh m = make_box(ElementType::Q27);
  const int nx = kBox.div[0], ny = kBox.div[1], nz = kBox.div[2];
  EXPECT_EQ(m.num_nodes(), (2 * nx + 1) * (2 * ny + 1) * (2 * nz + 1));
  EXPECT_EQ(m.num_elements(), nx * ny * nz);
  const Vec3 h = {kBox.lengths[0] / nx, kBox.lengths[1] / ny, kBox.lengths[2] / nz};
  Real volume = 0;
  for (Ordinal e = 0; e < m.num_elements(); ++e) {
    const Vec3 c0 = X(m, e, 0);
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) {
          const Vec3& x = X(m, e, i + 3 * j + 9 * k);
          EXPECT_NEAR(x[0], c0[0] + h[0] * i / 2, 1e-14);
          EXPECT_NEAR(x[1], c0[1] + h[1] * j / 2, 1e-14);
          EXPECT_NEAR(x[2], c0[2] + h[2] * k / 2, 1e-14);
        }
    const Real v = tlfea::straight_sided_volume(m, e);
    EXPECT_NEAR(v, h[0] * h[1] * h[2], 1e-14);
    volume += v;
  }
  EXPECT_NEAR(volume, kBox.lengths[0] * kBox.lengths[1] * kBox.lengths[2], 1e-12);
  expect_conforming(m);
  expect_box_face_sets(m, 1);
}

TEST(GenerateBox, SingleCellT10HasSixTetrahedraAroundTheDiagonal) {
  const Mesh m = tlfea::generate_box(ElementType::T10, {1, 1, 1}, {1, 1, 1});
  EXPECT_EQ(m.num_nodes(), 27);
  EXPECT_EQ(m.num_elements(), 6);
  // Every tetrahedron contains the diagonal corners (0,0,0) (node 0) and
  // (1,1,1) (node 26).
  for (Ordinal e = 0; e < 6; ++e) {
    std::set<Ordinal> v;
    for (int a = 0; a < 4; ++a) v.insert(m.coefficient(e, a));
    EXPECT_TRUE(v.count(0) && v.count(26)) << e;
  }
}

TEST(GenerateBeam, Ancf3243CountsGradientsSizesAndSets) {
  const Real L = 2.0, W = 0.1, H = 0.05;
  const int n = 5;
  const Mesh m = tlfea::generate_beam_ancf3243(L, W, H, n);
  EXPECT_EQ(m.type, ElementType::ANCF3243);
  EXPECT_EQ(m.num_nodes(), n + 1);
  EXPECT_EQ(m.num_coefficients(), 4 * (n + 1));
  EXPECT_EQ(m.num_elements(), n);
  for (Ordinal i = 0; i <= n; ++i) {
    EXPECT_NEAR(m.coefficients[4 * i][0], L * i / n, 1e-15);
    EXPECT_EQ(m.coefficients[4 * i][1], 0);
    EXPECT_EQ(m.coefficients[4 * i][2], 0);
    EXPECT_EQ(m.coefficients[4 * i + 1], (Vec3{1, 0, 0}));  // r_u = e_x
    EXPECT_EQ(m.coefficients[4 * i + 2], (Vec3{0, 1, 0}));  // r_v = e_y
    EXPECT_EQ(m.coefficients[4 * i + 3], (Vec3{0, 0, 1}));  // r_w = e_z
  }
  EXPECT_EQ(m.node_position(n)[0], L);
  Real volume = 0;
  for (Ordinal e = 0; e < n; ++e) {
    for (int k = 0; k < 8; ++k) EXPECT_EQ(m.coefficient(e, k), 4 * e + k);
    EXPECT_NEAR(m.element_size[e][0], L / n, 1e-15);
    EXPECT_EQ(m.element_size[e][1], W);
    EXPECT_EQ(m.element_size[e][2], H);
    // Element e spans [x_e, x_e + L_e] between its nodes.
    EXPECT_NEAR(X(m, e, 4)[0] - X(m, e, 0)[0], m.element_size[e][0], 1e-15);
    volume += tlfea::straight_sided_volume(m, e);
  }
  EXPECT_NEAR(volume, L * W * H, 1e-15);
  EXPECT_EQ(m.node_sets.at("end0"), (std::vector<Ordinal>{0}));
  EXPECT_EQ(m.node_sets.at("end1"), (std::vector<Ordinal>{n}));
  EXPECT_EQ(m.node_sets.at("all").size(), size_t(n + 1));
  EXPECT_EQ(m.face_sets.at("xmin"), (std::vector<tlfea::FaceRef>{{0, 0}}));
  EXPECT_EQ(m.face_sets.at("xmax"), (std::vector<tlfea::FaceRef>{{n - 1, 1}}));
  const std::map<std::string, int> lateral = {{"ymin", 2}, {"ymax", 3}, {"zmin", 4}, {"zmax", 5}};
  for (const auto& [name, face] : lateral) {
    ASSERT_EQ(m.face_sets.at(name).size(), size_t(n)) << name;
    for (Ordinal e = 0; e < n; ++e) {
      EXPECT_EQ(m.face_sets.at(name)[e], (tlfea::FaceRef{e, face})) << name;
    }
  }
  EXPECT_EQ(tlfea::nodes_where(m, 0, L, 1e-12), (std::vector<Ordinal>{n}));
}

TEST(GeneratePlate, Ancf3443CountsCounterClockwiseNodesGradientsAndSets) {
  const Real lx = 1.2, ly = 0.8, t = 0.01;
  const int nx = 3, ny = 2;
  const Mesh m = tlfea::generate_plate_ancf3443(lx, ly, t, {nx, ny});
  EXPECT_EQ(m.type, ElementType::ANCF3443);
  EXPECT_EQ(m.num_nodes(), (nx + 1) * (ny + 1));
  EXPECT_EQ(m.num_elements(), nx * ny);
  for (Ordinal i = 0; i < m.num_nodes(); ++i) {
    EXPECT_EQ(m.coefficients[4 * i][2], 0);
    EXPECT_EQ(m.coefficients[4 * i + 1], (Vec3{1, 0, 0}));
    EXPECT_EQ(m.coefficients[4 * i + 2], (Vec3{0, 1, 0}));
    EXPECT_EQ(m.coefficients[4 * i + 3], (Vec3{0, 0, 1}));
  }
  const Real hx = lx / nx, hy = ly / ny;
  Real volume = 0;
  for (Ordinal e = 0; e < m.num_elements(); ++e) {
    for (int a = 0; a < 4; ++a) {
      for (int k = 0; k < 4; ++k)
        EXPECT_EQ(m.coefficient(e, 4 * a + k), m.coefficient(e, 4 * a) + k);
    }
    // mesh.hpp: nodes at (0,0), (L,0), (L,W), (0,W) relative to node 0.
    const Vec3& p0 = X(m, e, 0);
    const Real want[4][2] = {{0, 0}, {hx, 0}, {hx, hy}, {0, hy}};
    for (int a = 0; a < 4; ++a) {
      EXPECT_NEAR(X(m, e, 4 * a)[0] - p0[0], want[a][0], 1e-15) << e << " " << a;
      EXPECT_NEAR(X(m, e, 4 * a)[1] - p0[1], want[a][1], 1e-15) << e << " " << a;
    }
    EXPECT_NEAR(m.element_size[e][0], hx, 1e-15);
    EXPECT_NEAR(m.element_size[e][1], hy, 1e-15);
    EXPECT_EQ(m.element_size[e][2], t);
    volume += tlfea::straight_sided_volume(m, e);
  }
  EXPECT_NEAR(volume, lx * ly * t, 1e-15);
  EXPECT_EQ(m.face_sets.at("top").size(), size_t(nx * ny));
  EXPECT_EQ(m.face_sets.at("bottom").size(), size_t(nx * ny));
  for (const tlfea::FaceRef& f : m.face_sets.at("top")) EXPECT_EQ(f.face, 5);
  for (const tlfea::FaceRef& f : m.face_sets.at("bottom")) EXPECT_EQ(f.face, 4);
  // Edge faces and edge nodes on their lines.
  struct Edge {
    const char* name;
    int axis;
    Real value;
    int face;
    size_t faces, nodes;
  };
  const Edge edges[4] = {{"xmin", 0, 0.0, 0, size_t(ny), size_t(ny + 1)},
                         {"xmax", 0, lx, 1, size_t(ny), size_t(ny + 1)},
                         {"ymin", 1, 0.0, 2, size_t(nx), size_t(nx + 1)},
                         {"ymax", 1, ly, 3, size_t(nx), size_t(nx + 1)}};
  for (const Edge& ed : edges) {
    const std::vector<tlfea::FaceRef>& fs = m.face_sets.at(ed.name);
    EXPECT_EQ(fs.size(), ed.faces) << ed.name;
    for (const tlfea::FaceRef& f : fs) {
      EXPECT_EQ(f.face, ed.face) << ed.name;
      // The element touches the edge: two of its nodes lie on it.
      int on = 0;
      for (int a = 0; a < 4; ++a)
        on += std::fabs(X(m, f.element, 4 * a)[ed.axis] - ed.value) < 1e-12;
      EXPECT_EQ(on, 2) << ed.name;
    }
    const std::vector<Ordinal>& ns = m.node_sets.at(ed.name);
    EXPECT_EQ(ns.size(), ed.nodes) << ed.name;
    std::vector<Ordinal> sorted = ns;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(tlfea::nodes_where(m, ed.axis, ed.value, 1e-12), sorted) << ed.name;
  }
}

TEST(Generators, RejectNonPositiveSizesAndDivisions) {
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  const Real inf = std::numeric_limits<Real>::infinity();
  EXPECT_THROW(tlfea::generate_box(ElementType::T10, {0, 1, 1}, {1, 1, 1}), tlfea::Error);
  EXPECT_THROW(tlfea::generate_box(ElementType::Q27, {1, -1, 1}, {1, 1, 1}), tlfea::Error);
  EXPECT_THROW(tlfea::generate_box(ElementType::Q27, {1, 1, nan}, {1, 1, 1}), tlfea::Error);
  EXPECT_THROW(tlfea::generate_box(ElementType::Q27, {1, 1, inf}, {1, 1, 1}), tlfea::Error);
  EXPECT_THROW(tlfea::generate_box(ElementType::T10, {1, 1, 1}, {1, 0, 1}), tlfea::Error);
  EXPECT_THROW(tlfea::generate_box(ElementType::T10, {1, 1, 1}, {1, 1, -2}), tlfea::Error);
  EXPECT_THROW(tlfea::generate_box(ElementType::ANCF3243, {1, 1, 1}, {1, 1, 1}), tlfea::Error);
  EXPECT_THROW(tlfea::generate_box(ElementType::Q27, {1, 1, 1}, {1, 1, 1}, {0, nan, 0}),
               tlfea::Error);
  EXPECT_THROW(tlfea::generate_box(ElementType::Q27, {1, 1, 1}, {100000, 100000, 100000}),
               tlfea::Error);
  EXPECT_THROW(tlfea::generate_beam_ancf3243(0, 1, 1, 1), tlfea::Error);
  EXPECT_THROW(tlfea::generate_beam_ancf3243(1, -1, 1, 1), tlfea::Error);
  EXPECT_THROW(tlfea::generate_beam_ancf3243(1, 1, nan, 1), tlfea::Error);
  EXPECT_THROW(tlfea::generate_beam_ancf3243(1, 1, 1, 0), tlfea::Error);
  EXPECT_THROW(tlfea::generate_plate_ancf3443(1, 1, 0, {1, 1}), tlfea::Error);
  EXPECT_THROW(tlfea::generate_plate_ancf3443(-1, 1, 1, {1, 1}), tlfea::Error);
  EXPECT_THROW(tlfea::generate_plate_ancf3443(1, 1, 1, {0, 1}), tlfea::Error);
  EXPECT_THROW(tlfea::generate_plate_ancf3443(1, 1, 1, {1, -1}), tlfea::Error);
  EXPECT_THROW(tlfea::nodes_where(tlfea::generate_beam_ancf3243(1, 1, 1, 1), 3, 0, 0),
               tlfea::Error);
  try {
    tlfea::generate_box(ElementType::T10, {1, 1, 1}, {1, 0, 1});
    ADD_FAILURE();
  } catch (const tlfea::Error& e) {
    EXPECT_NE(std::string(e.what()).find("divisions"), std::string::npos) << e.what();
  }
}

TEST(CheckMesh, RejectsInconsistentMeshesNamingSourceAndEntity) {
  auto expect_error = [](const Mesh& m, const std::string& piece) {
    try {
      tlfea::check_mesh(m);
      ADD_FAILURE() << "no error, expected '" << piece << "'";
    } catch (const tlfea::Error& e) {
      EXPECT_NE(std::string(e.what()).find(piece), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(m.source), std::string::npos) << e.what();
    }
  };
  const Mesh box = tlfea::generate_box(ElementType::Q27, {1, 1, 1}, {1, 1, 2});
  EXPECT_NO_THROW(tlfea::check_mesh(box));
  Mesh m = box;
  m.connectivity[30] = 999;
  expect_error(m, "element 1 references coefficient 999");
  m = box;
  m.connectivity.pop_back();
  expect_error(m, "connectivity length");
  m = box;
  m.connectivity[1] = m.connectivity[0];
  expect_error(m, "more than once");
  m = box;
  m.node_sets["bad"] = {-1};
  expect_error(m, "node set 'bad'");
  m = box;
  m.face_sets["bad"] = {{2, 0}};
  expect_error(m, "face set 'bad' refers to element 2");
  m = box;
  m.face_sets["bad"] = {{0, 6}};
  expect_error(m, "face 6");
  m = box;
  m.connectivity.clear();
  expect_error(m, "no elements");
  const Mesh beam = tlfea::generate_beam_ancf3243(1, 1, 1, 2);
  EXPECT_NO_THROW(tlfea::check_mesh(beam));
  m = beam;
  m.element_size.pop_back();
  expect_error(m, "element sizes");
  m = beam;
  m.connectivity[1] = 2;  // node 0's gradient replaced
  expect_error(m, "consecutive coefficients");
  m = beam;
  m.coefficients.pop_back();
  expect_error(m, "multiple of 4");
}

}  // namespace

// Divisions whose node or entry counts overflow 64-bit integers (e.g.
// [2147460480, 1431671210, 1] would wrap a naive check and wrote past the
// coefficient vector): refused before anything is allocated.
TEST(Generators, RejectCountsBeyondTheIndexTypeWithoutOverflow) {
  auto message = [](auto make) {
    try {
      make();
    } catch (const tlfea::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string box = message([] {
    tlfea::generate_box(ElementType::Q27, {1, 1, 1}, {2147460480, 1431671210, 1});
  });
  EXPECT_NE(box.find("mesh too large for the index type"), std::string::npos) << box;
  // (2 * 2147460480 + 1) (2 * 1431671210 + 1) 3 = 3.69e19 nodes.
  EXPECT_NE(box.find("3.69e+19 coefficients"), std::string::npos) << box;
  const std::string t10 = message([] {
    tlfea::generate_box(ElementType::T10, {1, 1, 1}, {2147483647, 2147483647, 2147483647});
  });
  EXPECT_NE(t10.find("mesh too large for the index type"), std::string::npos) << t10;
  const std::string plate = message([] {
    tlfea::generate_plate_ancf3443(1, 1, 0.01, {2147483647, 2147483647});
  });
  // 4 (2^31) (2^31) = 1.84e19 coefficients, 16 (2^31 - 1)^2 = 7.38e19 entries.
  EXPECT_NE(plate.find("1.84e+19 coefficients, 7.38e+19 connectivity entries"), std::string::npos)
      << plate;
  const std::string beam = message([] { tlfea::generate_beam_ancf3243(1, 0.1, 0.1, 2147483647); });
  EXPECT_NE(beam.find("mesh too large for the index type"), std::string::npos) << beam;
  // Largest sizes that fit are not refused by this check (1 x 1 x 1 stays valid).
  EXPECT_EQ(tlfea::generate_box(ElementType::Q27, {1, 1, 1}, {1, 1, 1}).num_nodes(), 27);
}

// Error messages quote input text: control bytes are escaped as \xHH so that
// the message stays one printable line; other bytes (UTF-8 names)
// are kept.
TEST(Error, EscapesControlBytes) {
  const std::string raw =
      std::string("key 'a") + '\a' + "b\nc\rd" + '\x1b' + "[31m" + '\x7f' + "' \xc3\xa9t\xc3\xa9";
  EXPECT_EQ(tlfea::escape_control_bytes(raw),
            "key 'a\\x07b\\x0ac\\x0dd\\x1b[31m\\x7f' \xc3\xa9t\xc3\xa9");
  EXPECT_EQ(std::string(tlfea::Error(raw).what()), tlfea::escape_control_bytes(raw));
  EXPECT_EQ(tlfea::escape_control_bytes("plain text: 1.5e-3"), "plain text: 1.5e-3");
}
