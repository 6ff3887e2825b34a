// Box [0,3] x [0,2] x [0,1] as 3 x 2 x 2 structured hexahedra (built-in
// kernel, extruded with layers and recombined), second order complete:
// 27-node hexahedra (Gmsh element type 12).
Point(1) = {0, 0, 0, 1.0};
line[] = Extrude {3, 0, 0} { Point{1}; Layers{3}; Recombine; };
face[] = Extrude {0, 2, 0} { Line{line[1]}; Layers{2}; Recombine; };
vol[] = Extrude {0, 0, 1} { Surface{face[1]}; Layers{2}; Recombine; };
// vol[0] = top surface (z = 1), vol[1] = volume, vol[2..5] = lateral surfaces
// in the order of the bottom surface's boundary curves: y = 0, x = 3, y = 2, x = 0.
Mesh.SecondOrderIncomplete = 0;
Mesh.SecondOrderLinear = 1;
Physical Surface("zmin") = {face[1]};
Physical Surface("zmax") = {vol[0]};
Physical Surface("ymin") = {vol[2]};
Physical Surface("xmax") = {vol[3]};
Physical Surface(11) = {vol[5]};  // unnamed (x = 0): becomes face set "tag11"
Physical Volume("solid") = {vol[1]};
