// Shared helpers of the mesh-reader tests: test data paths, geometric
// checks of node orders, file helpers and the expected-error check.
#pragma once

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

namespace mesh_io_test {

using tlfea::ElementType;
using tlfea::Mesh;
using tlfea::Ordinal;
using tlfea::Real;
using Vec3 = std::array<Real, 3>;
namespace fs = std::filesystem;

inline const std::string kData = TLFEA_TEST_DATA_DIR;
inline const std::string kBeam = kData + "/beam_3x2x1_res0.1";
inline const std::string kBoxT10 = kData + "/box_t10.msh";
inline const std::string kBoxQ27 = kData + "/box_q27.msh";

inline Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline Real dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline Real dist(const Vec3& a, const Vec3& b) { return std::sqrt(dot(sub(a, b), sub(a, b))); }

// Reference coefficient `local` of element e (the position for T10 / Q27,
// and for ANCF local 4 a is node a's position).
inline const Vec3& X(const Mesh& m, Ordinal e, int local) {
  return m.coefficients[m.coefficient(e, local)];
}

// T10 (mesh.hpp): midside nodes 4..9 on edges 01, 12, 02, 03, 13, 23. On a
// straight-sided mesh each sits at the midpoint of its edge.
inline void expect_t10_midsides(const Mesh& m, Real tol) {
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
inline Vec3 trilinear(const Mesh& m, Ordinal e, const Vec3& xi) {
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
inline void expect_q27_tensor_positions(const Mesh& m, Real tol) {
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
inline Box3 bounding_box(const Mesh& m) {
  Box3 b{m.node_position(0), m.node_position(0)};
  for (Ordinal n = 0; n < m.num_nodes(); ++n) {
    for (int d = 0; d < 3; ++d) {
      b.lo[d] = std::min(b.lo[d], m.node_position(n)[d]);
      b.hi[d] = std::max(b.hi[d], m.node_position(n)[d]);
    }
  }
  return b;
}

inline Real total_volume_all_positive(const Mesh& m) {
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
inline Real expect_face_set_on_plane(const Mesh& m, const std::string& name, int axis, Real value,
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
inline std::vector<long> header_counts(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::istringstream is(line);
  std::vector<long> v;
  long x;
  while (is >> x) v.push_back(x);
  return v;
}

inline std::string slurp(const std::string& path) {
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
inline void expect_error(Read read, const std::vector<std::string>& pieces) {
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

}  // namespace mesh_io_test
