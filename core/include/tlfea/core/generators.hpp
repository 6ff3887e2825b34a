// TLFEA: structured mesh generators with named boundary sets, and small mesh
// queries used with them.
#pragma once

#include <array>
#include <vector>

#include "tlfea/core/mesh.hpp"

namespace tlfea {

// Box [origin, origin + lengths] with divisions[d] cells per direction. T10:
// each cell split into 6 tetrahedra around its (min corner -> max corner)
// diagonal (Kuhn split, conforming across cells, positively oriented); Q27:
// one element per cell. Nodes lie on the grid of half cells, node (i, j, k)
// at index i + (2 nx + 1) (j + (2 ny + 1) k). Node sets and face sets "xmin",
// "xmax", "ymin", "ymax", "zmin", "zmax"; node set "all".
Mesh generate_box(ElementType type, std::array<Real, 3> lengths, std::array<int, 3> divisions,
                  std::array<Real, 3> origin = {0, 0, 0});

// Structured ball of radius `radius` about `center`: generate_box's grid of
// the cube [-1, 1]^3 with `divisions` cells per side (T10: the same Kuhn
// split), every node (midside nodes too) mapped by the cube-to-sphere map
// x' = x sqrt(1 - y^2/2 - z^2/2 + y^2 z^2/3) (and cyclic), then scaled by
// radius: cube-face nodes lie on the sphere, element faces are curved. The
// map preserves orientation. Node sets "all", "surface"; face set "surface".
Mesh generate_ball(ElementType type, Real radius, int divisions,
                   std::array<Real, 3> center = {0, 0, 0});

// Straight ANCF 3243 beam along +x from the origin, cross-section width (y)
// x height (z) centred on the axis; reference gradients r_u = e_x,
// r_v = e_y, r_w = e_z. Node sets "end0", "end1", "all"; face sets "xmin",
// "xmax" (end faces), "ymin", "ymax", "zmin", "zmax" (lateral faces);
// element_size = (L_e, width, height).
Mesh generate_beam_ancf3243(Real length, Real width, Real height, int elements);

// ANCF 3443 plate [0, lx] x [0, ly] in the x-y plane (mid-surface z = 0),
// w along +z. Node (i, j) at index i + (nx + 1) j. Node sets "xmin", "xmax",
// "ymin", "ymax" (edge nodes), "all"; face sets "top" (zeta = +1), "bottom",
// "xmin", "xmax", "ymin", "ymax"; element_size = (lx / nx, ly / ny, thickness).
Mesh generate_plate_ancf3443(Real lx, Real ly, Real thickness, std::array<int, 2> divisions);

// Nodes whose position coordinate `axis` (0, 1, 2) is within tol of value,
// in increasing order.
std::vector<Ordinal> nodes_where(const Mesh& mesh, int axis, Real value, Real tol);

// Signed straight-sided volume of an element from its corners: T10 the
// tetrahedron of its 4 vertices; Q27 the trilinear hexahedron of its 8
// corners (exact 2x2x2 Gauss rule); ANCF the product of element_size.
Real straight_sided_volume(const Mesh& mesh, Ordinal element);

}  // namespace tlfea
