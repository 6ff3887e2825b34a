// TLFEA: mesh readers (TetGen .node/.ele, Gmsh MSH 4.1 ASCII).
//
// Both readers map the file's local node order to TLFEA's (mesh.hpp), check
// every element's orientation (vertex tetrahedron volume for T10, Jacobian of
// the trilinear corner map at the centre for Q27; non-positive relative to the
// element size is an error), keep only the nodes that volume elements use (in
// file order), and finish with check_mesh. Every failure throws tlfea::Error
// naming the file and the line or element.
#pragma once

#include <string>

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

// Dispatches on the name: *.msh -> read_gmsh; *.node, *.ele, or a TetGen
// basename whose .node file exists -> read_tetgen.
Mesh read_mesh(const std::string& path);

}  // namespace tlfea
