// Box [0,2] x [0,1] x [0,0.5] meshed with 10-node tetrahedra (gmsh -order 2).
// Physical surfaces name the six faces; physical volume "solid".
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 2, 1, 0.5};
Mesh.CharacteristicLengthMax = 0.4;
Mesh.SecondOrderLinear = 1;  // straight-sided: midside nodes at edge midpoints
// OpenCASCADE box surfaces: 1 x=0, 2 x=2, 3 y=0, 4 y=1, 5 z=0, 6 z=0.5
Physical Surface("xmin") = {1};
Physical Surface("xmax") = {2};
Physical Surface("ymin") = {3};
Physical Surface("ymax") = {4};
Physical Surface("zmin") = {5};
Physical Surface(7) = {6};  // unnamed: becomes face set "tag7"
Physical Volume("solid") = {1};
