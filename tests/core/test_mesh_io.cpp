// Mesh tables: element names, face tables and their orientation.
#include "mesh_io_test_util.hpp"

namespace {

using namespace mesh_io_test;

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

}  // namespace
