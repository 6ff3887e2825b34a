// TLFEA: mesh readers (TetGen .node/.ele, Gmsh MSH 4.1 ASCII; ANCF meshes from
// Gmsh line / quadrangle meshes and the .ancf text format, docs/ancf_mesh.md).
//
// Both readers map the file's local node order to TLFEA's (mesh.hpp), check
// every element's orientation (vertex tetrahedron volume for T10, Jacobian of
// the trilinear corner map at the centre for Q27; non-positive relative to the
// element size is an error), keep only the nodes that volume elements use (in
// file order), and finish with check_mesh. Every failure throws tlfea::Error
// naming the file and the line or element.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "tlfea/core/mesh.hpp"

namespace tlfea {

// TetGen mesh of 10-node tetrahedra (tetgen -o2). Accepts "dir/beam.1",
// "dir/beam.1.node" or "dir/beam.1.ele"; reads both files. Ids start at 0 or
// 1 (taken from the first node); '#' starts a comment; attributes and
// boundary markers declared in the headers are accepted and ignored.
// Node sets: "all". No face sets.
Mesh read_tetgen(const std::string& base_or_file);

// Gmsh MSH 4.1 ASCII. Volume elements: type 11 (10-node tetrahedron) or 12
// (27-node hexahedron), one type per file. Surface elements (type 9 / 10) on
// entities with physical tags become face sets named from $PhysicalNames
// (else "tag<N>"), as (element, local face) pairs matched by corner
// vertices; the nodes of those faces form node sets of the same name.
// Node set "all" holds every node. Other element types of dimension 0 and 1,
// and surface elements without physical tags, are ignored.
Mesh read_gmsh(const std::string& path);

// ---- ANCF meshes from files (docs/ancf_mesh.md) ----

// Cross-section of the ANCF 3243 beams of one Gmsh physical group: width
// along r_v and height along r_w of a beam whose "up" vector (projected
// normal to the axis) is the height direction. group "" applies to every line
// element no other section claims.
struct BeamSection {
  std::string group;
  Real width = 0;
  Real height = 0;
  std::array<Real, 3> up{{0, 0, 1}};
};
// Thickness of the ANCF 3443 shells of one Gmsh physical surface group
// (group "": every quadrangle no other section claims).
struct ShellSection {
  std::string group;
  Real thickness = 0;
};
struct AncfGmshOptions {
  std::vector<BeamSection> beams;
  std::vector<ShellSection> shells;
  // Two line elements meeting at a node continue one smooth beam when their
  // directions differ by at most this angle (degrees); the node's tangent is
  // then their average. Larger angles are kinks: refused unless the lines
  // meet at a right angle (a rigid right-angle junction, docs/ancf_mesh.md).
  Real smooth_angle_deg = 30;
};

// Gmsh MSH 4.1 ASCII line meshes (type 1 two-node lines, type 8 three-node
// lines) as ANCF 3243 beams, or quadrangle meshes (type 3 four-node, type 10
// nine-node: corners used, the rest for nothing) as ANCF 3443 shells, with
// reference gradients from the geometry (docs/ancf_mesh.md). Node sets from
// physical groups of dimension 0, 1 (and 2 for shells) plus "all"; face
// sets: beams, physical points at a beam end -> that end face; shells,
// physical surfaces -> their top faces (zeta = +1), physical curves on the
// boundary -> the edge faces, and "top", "bottom".
Mesh read_gmsh_ancf(const std::string& path, ElementType type, const AncfGmshOptions& options);

// TLFEA's plain ANCF text format (*.ancf, docs/ancf_mesh.md): nodes with
// position and gradients, elements with their size, node and face sets.
Mesh read_ancf_text(const std::string& path);
// Writes `mesh` (ANCF3243 or ANCF3443) in that format; read_ancf_text gives
// it back bit for bit (17 significant digits). Throws Error on I/O failure
// and for a set name that is empty or holds blanks or '#'.
void write_ancf_text(const Mesh& mesh, const std::string& path);

// Dispatches on the name: *.ancf -> read_ancf_text; *.msh -> read_gmsh; *.node, *.ele, or a TetGen
// basename whose .node file exists -> read_tetgen.
Mesh read_mesh(const std::string& path);

}  // namespace tlfea
