// TLFEA: contact surfaces as triangle soups whose vertices are material points.
//
// Extraction (host, once at setup):
//  - T10 / Q27: the boundary (faces not shared by two elements). Each
//    quadratic face is split into flat triangles on its own nodes: a T6 face
//    into 4 (corner triangles and the middle one), a Q9 face into 8 (two per
//    quarter). Vertices are the boundary nodes, shared between faces.
//  - ANCF 3443: the two faces zeta = +-1 (w = +-H/2) of every element, each
//    sampled on an m x m grid of (xi, eta) (SurfaceSettings::shell_divisions),
//    two triangles per grid cell. Shell edges are not part of the surface.
//  - ANCF 3243: the four lateral faces eta = +-1, zeta = +-1 of every element,
//    sampled on an (axial x cross) grid; the end faces are not part of it.
//  ANCF vertices are per element (not merged across elements: the position
//  field of a fully parameterised ANCF mesh need not be continuous across
//  element edges, and per-element vertices keep each one a point of one
//  element).
// Triangles are oriented outward: solid faces by the mesh's face convention
// (core/mesh.hpp), ANCF faces by the sign of the triangle normal against
// (face centre - element centre) in the reference configuration.
//
// Every vertex is a material point (element, parent xi); its position is the
// fixed combination r = sum_l w_l q(c_l) of coefficients with weights
// w_l = s_l(xi) (docs/theory.md §1.3: r(xi) = N s(xi); vertices: §7.1). A
// solid vertex is a node, so its combination is that one coefficient with
// weight 1; an ANCF
// vertex combines the element's 8 or 16 coefficients. The combinations are
// stored compressed (vertex_ptr / vertex_coef / vertex_weight: the CRS of a
// MaterialPointSetHost, core/material_point_set.hpp); on the device they are
// one MaterialPointSet (Surface::vertices), through which the positions are
// refreshed from q by one kernel (Surface::update_positions).
//
// A_patch of a vertex is one third of the reference areas of its triangles.
//
// Vertex normals (update_positions): the normalised angle-weighted sum of
// the current unit normals of the vertex's triangles, summed in a fixed order
// per vertex (deterministic on every backend). At a box edge or corner this
// is the mean of the faces' normals, however the faces are triangulated. The detection uses them to
// reject a vertex-triangle pair whose normals do not oppose (DetectionSettings::
// normal_opposition).
#pragma once

#include <array>
#include <vector>

#include "tlfea/core/material_point_set.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

struct SurfaceSettings {
  int shell_divisions = 4;       // ANCF 3443: grid cells per direction per element face
  int beam_axial_divisions = 4;  // ANCF 3243: grid cells along each element
  int beam_cross_divisions = 2;  // ANCF 3243: grid cells across each lateral face
};

// Host triangle soup of one or more bodies.
struct SurfaceHost {
  // Per vertex.
  std::vector<int> vertex_body;
  std::vector<Ordinal> vertex_element;                // block-local element of the material point
  std::vector<std::array<Real, 3>> vertex_xi;         // its parent coordinates (rigid: body X)
  std::vector<Ordinal> vertex_ptr{0};                 // combination of vertex v: [ptr[v], ptr[v+1])
  std::vector<Ordinal> vertex_coef;                   // global coefficient ids
  std::vector<Real> vertex_weight;                    // s_l(xi)
  std::vector<std::array<Real, 3>> vertex_reference;  // reference position
  std::vector<Real> vertex_area;                      // A_patch (reference)
  // Per triangle (vertex ids, counter-clockwise seen from outside).
  std::vector<std::array<Ordinal, 3>> triangles;
  std::vector<int> triangle_body;
  std::vector<Ordinal> triangle_element;

  Ordinal num_vertices() const { return static_cast<Ordinal>(vertex_body.size()); }
  Ordinal num_triangles() const { return static_cast<Ordinal>(triangles.size()); }
  // Appends another soup (vertex ids of `other` shifted past this one's).
  void append(const SurfaceHost& other);
  // The vertices as a set of material points (point v = vertex v).
  MaterialPointSetHost vertex_points() const;
};

// Surface of a mesh whose coefficient 0 is global coefficient `coef_offset`,
// labelled as body `body` (>= 0). Throws Error for an empty or malformed mesh.
SurfaceHost extract_surface(const Mesh& mesh, Ordinal coef_offset, int body,
                            const SurfaceSettings& settings = {});

// Triangulated surface of a rigid body in its body frame: vertex positions X
// relative to the centre of mass (reference axes), triangles counter-clockwise
// seen from outside. Its contact surface (rigid_surface) has the vertices
//   x(X) = r + X_1 r_1 + X_2 r_2 + X_3 r_3   (docs/theory.md §10.1),
// the combination of the body's 4 coefficients with weights (1, X1, X2, X3).
struct RigidShapeSurface {
  std::vector<std::array<Real, 3>> X;
  std::vector<std::array<Ordinal, 3>> triangles;
};

// The boundary of a T10 / Q27 shape mesh (its extract_surface triangles),
// positions relative to `center`.
RigidShapeSurface rigid_shape_of_mesh(const Mesh& mesh, const std::array<Real, 3>& center);
// Primitive shapes centred at the origin (axes along the body axes;
// cylinder axis X_3). Resolution (docs/theory.md §10.7): a box face is an
// n x n grid (n = divisions), a sphere a latitude-longitude grid of
// 2 n longitudes and n latitude bands with a vertex at each pole, a
// cylinder 2 n segments around, n / 2 (>= 1) along, each cap n / 4 (>= 1)
// rings. Vertices shared between faces are merged.
RigidShapeSurface rigid_box_shape(const std::array<Real, 3>& size, int divisions);
RigidShapeSurface rigid_sphere_shape(Real radius, int divisions);
RigidShapeSurface rigid_cylinder_shape(Real radius, Real length, int divisions);

// Contact surface of a rigid body (body `body`, coefficients coef_offset ..
// coef_offset + 3 = r, r_1, r_2, r_3, centre of mass `center` in the
// reference configuration): each vertex the combination above,
// vertex_element 0 and vertex_xi = X (its body coordinates); A_patch one
// third of its triangles' areas. Throws Error for an empty shape, a
// triangle with a vertex id out of range or a degenerate triangle.
SurfaceHost rigid_surface(const RigidShapeSurface& shape, const std::array<Real, 3>& center,
                          Ordinal coef_offset, int body);

// Device copy of a soup and the per-step vertex positions.
class Surface {
 public:
  Surface() = default;
  // Throws Error when the three vertices of a triangle together have more
  // than kMaxContactCoefficients distinct coefficients (contact_points.hpp).
  explicit Surface(const SurfaceHost& host);

  Ordinal num_vertices() const { return num_vertices_; }
  Ordinal num_triangles() const { return num_triangles_; }
  const SurfaceHost& host() const { return host_; }

  // x(v) = vertices.position(v, q) for every vertex ("tlfea::contact::update_vertices"),
  // then the vertex normals ("tlfea::contact::update_normals").
  void update_positions(const CoefView& q) const;

  MaterialPointSet vertices;  // vertex v is material point v
  DeviceView<int*> vertex_body;
  DeviceView<Real*> vertex_area;
  DeviceView<Real* [3]> x;       // current vertex positions (after update_positions)
  DeviceView<Real* [3]> normal;  // current unit vertex normals (after update_positions)
  DeviceView<Ordinal*> vertex_triangle_ptr, vertex_triangle;  // triangles of each vertex
  DeviceView<Ordinal* [3]> triangle;
  DeviceView<int*> triangle_body;

 private:
  SurfaceHost host_;
  Ordinal num_vertices_ = 0, num_triangles_ = 0;
};

// Host: area of the flat triangle (a, b, c).
Real triangle_area(const std::array<Real, 3>& a, const std::array<Real, 3>& b,
                   const std::array<Real, 3>& c);

}  // namespace tlfea
