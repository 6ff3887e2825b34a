// TLFEA: structured mesh generators (generators.hpp).
#include "tlfea/core/generators.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "tlfea/core/error.hpp"

namespace tlfea {

namespace {

using Vec3 = std::array<Real, 3>;

void require_positive(const std::string& src, const char* what, Real v) {
  if (!std::isfinite(v) || !(v > 0)) throw_error(src, ": ", what, " must be positive and finite");
}

void require_positive(const std::string& src, const char* what, int v) {
  if (v <= 0) throw_error(src, ": ", what, " must be positive, got ", v);
}

// Rejects sizes whose indices would not fit an Ordinal. The counts are
// products of up to three divisions near 2^31, which overflow 64-bit
// integers (2^93), so they are formed in double: exact below 2^53, and far
// above the Ordinal limit (2^31) when rounded.
void require_fits(const std::string& src, double coefficients, double entries) {
  constexpr double kMax = static_cast<double>(std::numeric_limits<Ordinal>::max());
  if (coefficients > kMax || entries > kMax) {
    std::ostringstream os;
    os.precision(3);
    os << ": mesh too large for the index type (" << coefficients << " coefficients, " << entries
       << " connectivity entries; at most " << std::numeric_limits<Ordinal>::max() << " each)";
    throw_error(src, os.str());
  }
}

Real det3(const Vec3& a, const Vec3& b, const Vec3& c) {
  return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
}

// x0 + L * i / n, exactly x0 + L at i = n.
Real grid(Real x0, Real length, long long i, long long n) {
  return x0 + length * (static_cast<Real>(i) / static_cast<Real>(n));
}

const char* const kSide[3][2] = {{"xmin", "xmax"}, {"ymin", "ymax"}, {"zmin", "zmax"}};

}  // namespace

Mesh generate_box(ElementType type, std::array<Real, 3> lengths, std::array<int, 3> divisions,
                  std::array<Real, 3> origin) {
  std::ostringstream name;
  name << "generate_box(" << to_string(type) << ", " << lengths[0] << " x " << lengths[1] << " x "
       << lengths[2] << ", " << divisions[0] << " x " << divisions[1] << " x " << divisions[2]
       << ")";
  const std::string src = name.str();
  if (type != ElementType::T10 && type != ElementType::Q27) {
    throw_error(src, ": element type must be T10 or Q27");
  }
  for (int d = 0; d < 3; ++d) {
    require_positive(src, "box length", lengths[d]);
    require_positive(src, "box divisions", divisions[d]);
    if (!std::isfinite(origin[d])) throw_error(src, ": origin must be finite");
  }
  // Nodes on the grid of half cells: (2 n + 1) per direction.
  const long long n[3] = {divisions[0], divisions[1], divisions[2]};
  const long long np[3] = {2 * n[0] + 1, 2 * n[1] + 1, 2 * n[2] + 1};
  const int npe = nodes_per_element(type);
  const int per_cell = type == ElementType::T10 ? 6 : 1;
  require_fits(src,
               static_cast<double>(np[0]) * static_cast<double>(np[1]) * static_cast<double>(np[2]),
               static_cast<double>(n[0]) * static_cast<double>(n[1]) * static_cast<double>(n[2]) *
                   per_cell * npe);
  // Below 2^31 each: the 64-bit products are exact.
  const long long num_nodes = np[0] * np[1] * np[2];
  const long long num_elements = per_cell * n[0] * n[1] * n[2];

  Mesh mesh;
  mesh.type = type;
  mesh.source = src;
  mesh.coefficients.resize(static_cast<size_t>(num_nodes));
  auto node = [&](long long i, long long j, long long k) {
    return static_cast<Ordinal>(i + np[0] * (j + np[1] * k));
  };
  for (long long k = 0; k < np[2]; ++k) {
    for (long long j = 0; j < np[1]; ++j) {
      for (long long i = 0; i < np[0]; ++i) {
        mesh.coefficients[node(i, j, k)] = {grid(origin[0], lengths[0], i, 2 * n[0]),
                                            grid(origin[1], lengths[1], j, 2 * n[1]),
                                            grid(origin[2], lengths[2], k, 2 * n[2])};
      }
    }
  }
  mesh.connectivity.reserve(static_cast<size_t>(num_elements * npe));

  if (type == ElementType::Q27) {
    for (long long cz = 0; cz < n[2]; ++cz) {
      for (long long cy = 0; cy < n[1]; ++cy) {
        for (long long cx = 0; cx < n[0]; ++cx) {
          const Ordinal e = mesh.num_elements();
          for (int k = 0; k < 3; ++k) {
            for (int j = 0; j < 3; ++j) {
              for (int i = 0; i < 3; ++i) {
                mesh.connectivity.push_back(node(2 * cx + i, 2 * cy + j, 2 * cz + k));
              }
            }
          }
          const long long c[3] = {cx, cy, cz};
          for (int d = 0; d < 3; ++d) {
            if (c[d] == 0) mesh.face_sets[kSide[d][0]].push_back({e, 2 * d});
            if (c[d] == n[d] - 1) mesh.face_sets[kSide[d][1]].push_back({e, 2 * d + 1});
          }
        }
      }
    }
  } else {
    // Kuhn split: for each permutation p of the axes, the path
    // c000 -> +e_p0 -> +e_p1 -> c111. Every cell face is cut by its diagonal
    // from the min to the max corner, so neighbouring cells conform.
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    static const int edges[6][2] = {{0, 1}, {1, 2}, {0, 2}, {0, 3}, {1, 3}, {2, 3}};
    const std::vector<int> corner_pos = face_corner_positions(ElementType::T10);
    std::vector<std::vector<int>> fnodes;
    for (int f = 0; f < 4; ++f) fnodes.push_back(face_nodes(ElementType::T10, f));
    for (long long cz = 0; cz < n[2]; ++cz) {
      for (long long cy = 0; cy < n[1]; ++cy) {
        for (long long cx = 0; cx < n[0]; ++cx) {
          for (const auto& p : perms) {
            // Vertices on the half-cell grid (even indices).
            std::array<std::array<long long, 3>, 4> v;
            v[0] = {2 * cx, 2 * cy, 2 * cz};
            v[1] = v[0];
            v[1][p[0]] += 2;
            v[2] = v[1];
            v[2][p[1]] += 2;
            v[3] = {2 * cx + 2, 2 * cy + 2, 2 * cz + 2};
            Vec3 a, b, c;
            for (int d = 0; d < 3; ++d) {
              a[d] = static_cast<Real>(v[1][d] - v[0][d]);
              b[d] = static_cast<Real>(v[2][d] - v[0][d]);
              c[d] = static_cast<Real>(v[3][d] - v[0][d]);
            }
            if (det3(a, b, c) < 0) std::swap(v[1], v[2]);  // odd permutation
            const Ordinal e = mesh.num_elements();
            for (int q = 0; q < 4; ++q)
              mesh.connectivity.push_back(node(v[q][0], v[q][1], v[q][2]));
            for (const auto& ed : edges) {
              const auto& s = v[ed[0]];
              const auto& t = v[ed[1]];
              mesh.connectivity.push_back(
                  node((s[0] + t[0]) / 2, (s[1] + t[1]) / 2, (s[2] + t[2]) / 2));
            }
            // Boundary faces: all three corners on one side of the box.
            for (int f = 0; f < 4; ++f) {
              for (int d = 0; d < 3; ++d) {
                for (int side = 0; side < 2; ++side) {
                  const long long plane = side == 0 ? 0 : 2 * n[d];
                  bool on = true;
                  for (int cp : corner_pos) on = on && v[fnodes[f][cp]][d] == plane;
                  if (on) mesh.face_sets[kSide[d][side]].push_back({e, f});
                }
              }
            }
          }
        }
      }
    }
  }

  for (int d = 0; d < 3; ++d) {
    for (int side = 0; side < 2; ++side) {
      const long long fixed = side == 0 ? 0 : np[d] - 1;
      std::vector<Ordinal>& set = mesh.node_sets[kSide[d][side]];
      for (long long k = 0; k < np[2]; ++k) {
        for (long long j = 0; j < np[1]; ++j) {
          for (long long i = 0; i < np[0]; ++i) {
            const long long idx[3] = {i, j, k};
            if (idx[d] == fixed) set.push_back(node(i, j, k));
          }
        }
      }
    }
  }
  std::vector<Ordinal>& all = mesh.node_sets["all"];
  all.resize(static_cast<size_t>(num_nodes));
  for (Ordinal i = 0; i < static_cast<Ordinal>(num_nodes); ++i) all[i] = i;
  check_mesh(mesh);
  return mesh;
}

Mesh generate_ball(ElementType type, Real radius, int divisions, std::array<Real, 3> center) {
  std::ostringstream name;
  name << "generate_ball(" << to_string(type) << ", R = " << radius << ", " << divisions << ")";
  const std::string src = name.str();
  require_positive(src, "ball radius", radius);
  require_positive(src, "ball divisions", divisions);
  for (int d = 0; d < 3; ++d) {
    if (!std::isfinite(center[d])) throw_error(src, ": center must be finite");
  }
  Mesh cube = generate_box(type, {2, 2, 2}, {divisions, divisions, divisions}, {-1, -1, -1});
  Mesh mesh;
  mesh.type = type;
  mesh.source = src;
  mesh.connectivity = std::move(cube.connectivity);
  mesh.coefficients.resize(cube.coefficients.size());
  for (size_t i = 0; i < cube.coefficients.size(); ++i) {
    const Vec3& c = cube.coefficients[i];
    const Real x2 = c[0] * c[0], y2 = c[1] * c[1], z2 = c[2] * c[2];
    const Vec3 s = {c[0] * std::sqrt(std::max<Real>(0, 1 - y2 / 2 - z2 / 2 + y2 * z2 / 3)),
                    c[1] * std::sqrt(std::max<Real>(0, 1 - z2 / 2 - x2 / 2 + z2 * x2 / 3)),
                    c[2] * std::sqrt(std::max<Real>(0, 1 - x2 / 2 - y2 / 2 + x2 * y2 / 3))};
    for (int d = 0; d < 3; ++d) mesh.coefficients[i][d] = center[d] + radius * s[d];
  }
  std::vector<FaceRef>& faces = mesh.face_sets["surface"];
  std::vector<Ordinal>& nodes = mesh.node_sets["surface"];
  for (int d = 0; d < 3; ++d) {
    for (int side = 0; side < 2; ++side) {
      const auto& f = cube.face_sets[kSide[d][side]];
      faces.insert(faces.end(), f.begin(), f.end());
      const auto& n = cube.node_sets[kSide[d][side]];
      nodes.insert(nodes.end(), n.begin(), n.end());
    }
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  mesh.node_sets["all"] = std::move(cube.node_sets["all"]);
  check_mesh(mesh);
  return mesh;
}

Mesh generate_beam_ancf3243(Real length, Real width, Real height, int elements) {
  std::ostringstream name;
  name << "generate_beam_ancf3243(" << length << ", " << width << ", " << height << ", " << elements
       << ")";
  const std::string src = name.str();
  require_positive(src, "beam length", length);
  require_positive(src, "beam width", width);
  require_positive(src, "beam height", height);
  require_positive(src, "beam elements", elements);
  const long long nn = static_cast<long long>(elements) + 1;
  require_fits(src, 4.0 * static_cast<double>(nn), 8.0 * elements);

  Mesh mesh;
  mesh.type = ElementType::ANCF3243;
  mesh.source = src;
  mesh.coefficients.reserve(static_cast<size_t>(4 * nn));
  for (long long i = 0; i < nn; ++i) {
    mesh.coefficients.push_back({grid(0, length, i, elements), 0, 0});  // r
    mesh.coefficients.push_back({1, 0, 0});                             // r_u
    mesh.coefficients.push_back({0, 1, 0});                             // r_v
    mesh.coefficients.push_back({0, 0, 1});                             // r_w
  }
  const Real le = length / elements;
  for (Ordinal e = 0; e < elements; ++e) {
    for (int k = 0; k < 8; ++k) mesh.connectivity.push_back(4 * e + k);
    mesh.element_size.push_back({le, width, height});
    mesh.face_sets["ymin"].push_back({e, 2});
    mesh.face_sets["ymax"].push_back({e, 3});
    mesh.face_sets["zmin"].push_back({e, 4});
    mesh.face_sets["zmax"].push_back({e, 5});
  }
  mesh.face_sets["xmin"].push_back({0, 0});
  mesh.face_sets["xmax"].push_back({elements - 1, 1});
  mesh.node_sets["end0"] = {0};
  mesh.node_sets["end1"] = {elements};
  std::vector<Ordinal>& all = mesh.node_sets["all"];
  for (Ordinal i = 0; i <= elements; ++i) all.push_back(i);
  check_mesh(mesh);
  return mesh;
}

Mesh generate_plate_ancf3443(Real lx, Real ly, Real thickness, std::array<int, 2> divisions) {
  std::ostringstream name;
  name << "generate_plate_ancf3443(" << lx << ", " << ly << ", " << thickness << ", "
       << divisions[0] << " x " << divisions[1] << ")";
  const std::string src = name.str();
  require_positive(src, "plate length lx", lx);
  require_positive(src, "plate length ly", ly);
  require_positive(src, "plate thickness", thickness);
  require_positive(src, "plate divisions", divisions[0]);
  require_positive(src, "plate divisions", divisions[1]);
  const long long nx = divisions[0];
  const long long ny = divisions[1];
  const long long npx = nx + 1;
  require_fits(src, 4.0 * static_cast<double>(npx) * static_cast<double>(ny + 1),
               16.0 * static_cast<double>(nx) * static_cast<double>(ny));
  const long long nn = npx * (ny + 1);  // below 2^31 (checked above): exact

  Mesh mesh;
  mesh.type = ElementType::ANCF3443;
  mesh.source = src;
  mesh.coefficients.reserve(static_cast<size_t>(4 * nn));
  auto node = [&](long long i, long long j) { return static_cast<Ordinal>(i + npx * j); };
  for (long long j = 0; j <= ny; ++j) {
    for (long long i = 0; i <= nx; ++i) {
      mesh.coefficients.push_back({grid(0, lx, i, nx), grid(0, ly, j, ny), 0});  // r
      mesh.coefficients.push_back({1, 0, 0});                                    // r_u
      mesh.coefficients.push_back({0, 1, 0});                                    // r_v
      mesh.coefficients.push_back({0, 0, 1});                                    // r_w
    }
  }
  const Vec3 size = {lx / static_cast<Real>(nx), ly / static_cast<Real>(ny), thickness};
  for (long long j = 0; j < ny; ++j) {
    for (long long i = 0; i < nx; ++i) {
      const Ordinal e = mesh.num_elements();
      // Counter-clockwise from (0,0): (i,j), (i+1,j), (i+1,j+1), (i,j+1).
      const Ordinal nodes[4] = {node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1)};
      for (Ordinal nd : nodes) {
        for (int k = 0; k < 4; ++k) mesh.connectivity.push_back(4 * nd + k);
      }
      mesh.element_size.push_back(size);
      mesh.face_sets["bottom"].push_back({e, 4});
      mesh.face_sets["top"].push_back({e, 5});
      if (i == 0) mesh.face_sets["xmin"].push_back({e, 0});
      if (i == nx - 1) mesh.face_sets["xmax"].push_back({e, 1});
      if (j == 0) mesh.face_sets["ymin"].push_back({e, 2});
      if (j == ny - 1) mesh.face_sets["ymax"].push_back({e, 3});
    }
  }
  for (long long j = 0; j <= ny; ++j) {
    mesh.node_sets["xmin"].push_back(node(0, j));
    mesh.node_sets["xmax"].push_back(node(nx, j));
  }
  for (long long i = 0; i <= nx; ++i) {
    mesh.node_sets["ymin"].push_back(node(i, 0));
    mesh.node_sets["ymax"].push_back(node(i, ny));
  }
  std::vector<Ordinal>& all = mesh.node_sets["all"];
  for (Ordinal i = 0; i < static_cast<Ordinal>(nn); ++i) all.push_back(i);
  check_mesh(mesh);
  return mesh;
}

std::vector<Ordinal> nodes_where(const Mesh& mesh, int axis, Real value, Real tol) {
  if (axis < 0 || axis > 2) throw_error("nodes_where: axis ", axis, " is not 0, 1 or 2");
  if (!std::isfinite(value) || !std::isfinite(tol) || !(tol >= 0)) {
    throw_error("nodes_where: value and tolerance must be finite, tolerance non-negative");
  }
  std::vector<Ordinal> out;
  const Ordinal n = mesh.num_nodes();
  for (Ordinal i = 0; i < n; ++i) {
    const Real x = mesh.node_position(i)[axis];
    if (std::isfinite(x) && std::fabs(x - value) <= tol) out.push_back(i);
  }
  return out;
}

Real straight_sided_volume(const Mesh& mesh, Ordinal element) {
  if (element < 0 || element >= mesh.num_elements()) {
    throw_error(mesh.source, ": straight_sided_volume: element ", element, " out of range");
  }
  auto x = [&](int local) -> const Vec3& {
    return mesh.coefficients[mesh.coefficient(element, local)];
  };
  switch (mesh.type) {
    case ElementType::T10: {
      Vec3 a, b, c;
      for (int d = 0; d < 3; ++d) {
        a[d] = x(1)[d] - x(0)[d];
        b[d] = x(2)[d] - x(0)[d];
        c[d] = x(3)[d] - x(0)[d];
      }
      return det3(a, b, c) / 6;
    }
    case ElementType::Q27: {
      // Trilinear map of the 8 corners; det J has degree <= 2 per direction,
      // so the 2-point Gauss rule (weights 1) is exact.
      static const int corner[8] = {0, 2, 6, 8, 18, 20, 24, 26};
      const Real g = 1 / std::sqrt(3.0);
      Real volume = 0;
      for (int q = 0; q < 8; ++q) {
        const Real xi[3] = {(q & 1) ? g : -g, (q & 2) ? g : -g, (q & 4) ? g : -g};
        Vec3 jac[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};  // jac[d] = dX/dxi_d
        for (int a = 0; a < 8; ++a) {
          const Real s[3] = {(a & 1) ? 1.0 : -1.0, (a & 2) ? 1.0 : -1.0, (a & 4) ? 1.0 : -1.0};
          for (int d = 0; d < 3; ++d) {
            Real w = s[d] / 8;
            for (int o = 0; o < 3; ++o) {
              if (o != d) w *= 1 + s[o] * xi[o];
            }
            for (int k = 0; k < 3; ++k) jac[d][k] += w * x(corner[a])[k];
          }
        }
        volume += det3(jac[0], jac[1], jac[2]);
      }
      return volume;
    }
    case ElementType::ANCF3243:
    case ElementType::ANCF3443: {
      if (mesh.element_size.size() != static_cast<size_t>(mesh.num_elements())) {
        throw_error(mesh.source, ": straight_sided_volume: missing element_size");
      }
      const Vec3& s = mesh.element_size[element];
      return s[0] * s[1] * s[2];
    }
  }
  throw_error(mesh.source, ": straight_sided_volume: invalid element type");
}

}  // namespace tlfea
