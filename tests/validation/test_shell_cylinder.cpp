// The pinched cylinder with rigid end diaphragms (MacNeal and Harder, A
// proposed standard set of problems to test finite element accuracy, Finite
// Elem. Anal. Des. 1 (1985) 3-20; Belytschko et al., Comput. Methods
// Appl. Mech. Engrg 51 (1985) 221-258) with ANCF 3443 shells on the exact
// curved reference geometry.
//
// Problem: radius R = 300, length L = 600, thickness t = 3 (R / t = 100),
// E = 3e6, nu = 0.3; two opposite radial point loads P = 1 at mid-length;
// at each end a diaphragm rigid in its own plane: radial and circumferential
// displacements zero, axial free. Reference radial displacement under a
// load: w = 1.8248e-5 (Lindberg, Olson and Cowper 1969 series solution of
// thin shell theory, as quoted by MacNeal and Harder).
//
// Model: one octant, x in [0, L/2] along the axis (x = 0 the loaded
// mid-section, x = L/2 a diaphragm), angle a in [0, pi/2] from +z, the
// reference mid-surface
//   r(x, a) = (x, R sin a, R cos a),
// the load P / 4 along -e_z at (0, 0, R) (it lies on two symmetry planes).
// n x n ANCF 3443 elements (L_e = (L/2) / n, W_e = R (pi/2) / n, H = t),
// nodal coefficients with the library's convention (docs/ancf_mesh.md: the
// derivatives of the reference position with respect to arc length u, v and
// the thickness coordinate w): exact, not chord approximations,
//   r_u = e_x,  r_v = dr/(R da) = (0, cos a, -sin a),
//   r_w = r_u x r_v = (0, sin a, cos a)   (outward unit normal).
//
// Symmetry conditions on the coefficients. A plane through the origin with
// unit normal n reflects by S = I - 2 n n^T. A deformation symmetric about it,
// x(S X) = S x(X), has on the plane (S X = X) the gradient F = dx/dX with
// F S = S F: F maps n to a multiple of n and the plane into itself. Applied
// to the nodal coefficients (r = x(X); r_u, r_v, r_w = F times their
// reference vectors, docs/theory.md §1.2), a node on the plane keeps
//   n . r = 0,
//   a gradient coefficient along n (reference) stays along n: its two
//     in-plane components vanish,
//   a gradient coefficient in the plane (reference) stays in it: n . r_k = 0.
// So (the components held at their reference value, which is 0):
//   x = 0   (n = e_x; r_u along n, r_v and r_w in the plane):
//           r.x;  r_u.y, r_u.z;  r_v.x;  r_w.x
//   a = 0   (plane y = 0, n = e_y; r_v = e_y along n, r_u and r_w = e_z in it):
//           r.y;  r_u.y;  r_v.x, r_v.z;  r_w.y
//   a = pi/2 (plane z = 0, n = e_z; r_v = -e_z along n, r_u and r_w = e_y in it):
//           r.z;  r_u.z;  r_v.x, r_v.y;  r_w.z
// Diaphragm at x = L/2, rigid in the plane x = L/2 and free out of it
// (MacNeal and Harder: u_y = u_z = theta_x = 0): every point of the end
// section keeps its y and z, so along the edge (v) and through the
// thickness (w) the y, z components of the mid-surface position and of its
// v- and w-derivatives stay at their reference values:
//           r.y, r.z;  r_v.y, r_v.z;  r_w.y, r_w.z
// (r.x, r_v.x: axial displacement free and varying along the edge; r_u free:
// no axial constraint and no moment). Holding r_w.y, r_w.z also holds the
// fibre's length at the end nodes (no thickness strain there), as a rigid
// end plate bonded to a solid would; the shell-theory diaphragm has N_x =
// M_x = 0 and leaves the thickness free. That differs within about a
// thickness of the end, 300 = 100 t away from the load.
// All conditions are components of whole Cartesian axes: Model::fix_components.
//
// Static, linear (w / t ~ 1e-5): one increment of the static analysis
// (docs/theory.md §6.10), SVK at (E, nu) with the Poisson split
// (elements/poisson_split.hpp; on by default). The octant has 12 (n + 1)^2
// coefficient components less the fixed ones; sparse direct solve
// (eigen-ldlt, AMD-ordered).
//
// Measured (OpenMP build, one thread, Release), w / w_ref at n = 4, 8, 16,
// 32, 48, 64: 0.0815, 0.4039, 0.8323, 0.9681, 0.9911, 0.9993 (205, 793,
// 3121, 12385, 27793, 49345 unknowns; 64 x 64 in about 14 s). The coarse
// meshes are far too stiff: membrane and transverse shear locking of the
// curved 3443 element (R / t = 100; cf. the curved strip of
// test_ancf_file_meshes.cpp), which only refinement removes here. Past
// 64 x 64 the value passes the reference: 1.0058 at 96 x 96, 1.0085 at
// 128 x 128 (58 s and 153 s, not run here). The reference is thin-shell
// theory (no transverse shear, no thickness strain); the element has both,
// and under a point load a shear-deformable shell's deflection is singular
// (logarithmically, Reissner-Mindlin), so once elements approach a few
// thicknesses (64 x 64: 4.7 x 7.4 = 1.6 t x 2.5 t) a value slowly above the
// thin-shell one is expected, as measured. The test asserts what holds at the sizes it runs: the
// error |w / w_ref - 1| falls at every refinement from 4 to 64, and 64 x 64
// is within 2 % of the published value (it is within 0.1 %).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

constexpr Real kPi = 3.14159265358979323846;
constexpr Real kR = 300.0, kL = 600.0, kT = 3.0, kE = 3e6, kNu = 0.3, kP = 1.0;
constexpr Real kWRef = 1.8248e-5;  // Lindberg, Olson and Cowper (1969), via MacNeal and Harder

// n x n octant (nodes (i, j): i along x, j around), exact reference gradients.
Mesh octant_mesh(int n) {
  Mesh mesh;
  mesh.type = ElementType::ANCF3443;
  mesh.source = "pinched-cylinder octant " + std::to_string(n) + " x " + std::to_string(n);
  const auto node = [n](int i, int j) { return static_cast<Ordinal>(i + (n + 1) * j); };
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const Real x = 0.5 * kL * i / n, a = 0.5 * kPi * j / n;
      const Real s = std::sin(a), c = std::cos(a);
      mesh.coefficients.push_back({x, kR * s, kR * c});  // r
      mesh.coefficients.push_back({1.0, 0.0, 0.0});      // r_u
      mesh.coefficients.push_back({0.0, c, -s});         // r_v
      mesh.coefficients.push_back({0.0, s, c});          // r_w
    }
  const std::array<Real, 3> size{{0.5 * kL / n, 0.5 * kPi * kR / n, kT}};
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const Ordinal e = mesh.num_elements();
      for (Ordinal nd : {node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1)})
        for (int k = 0; k < 4; ++k) mesh.connectivity.push_back(4 * nd + k);
      mesh.element_size.push_back(size);
      mesh.face_sets["top"].push_back({e, 5});
      mesh.face_sets["bottom"].push_back({e, 4});
    }
  for (Ordinal k = 0; k < mesh.num_nodes(); ++k) mesh.node_sets["all"].push_back(k);
  check_mesh(mesh);
  return mesh;
}

struct PinchResult {
  Real ratio = 0.0;  // w / w_ref
  Ordinal unknowns = 0;
  double seconds = 0.0;
};

PinchResult pinched_octant(int n) {
  const auto t0 = std::chrono::steady_clock::now();
  const Mesh mesh = octant_mesh(n);
  Model model;
  const int body = model.add_body(mesh, MaterialSpec::svk(kE, kNu), 7800.0);
  enum { R = 0, RU = 1, RV = 2, RW = 3 };
  const std::array<bool, 3> X{{true, false, false}}, Y{{false, true, false}},
      Z{{false, false, true}}, XZ{{true, false, true}}, XY{{true, true, false}},
      YZ{{false, true, true}};
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const Ordinal nd = static_cast<Ordinal>(i + (n + 1) * j);
      if (i == 0) {  // symmetry plane x = 0
        model.fix_components(body, nd, R, X);
        model.fix_components(body, nd, RU, YZ);
        model.fix_components(body, nd, RV, X);
        model.fix_components(body, nd, RW, X);
      }
      if (j == 0) {  // symmetry plane y = 0
        model.fix_components(body, nd, R, Y);
        model.fix_components(body, nd, RU, Y);
        model.fix_components(body, nd, RV, XZ);
        model.fix_components(body, nd, RW, Y);
      }
      if (j == n) {  // symmetry plane z = 0
        model.fix_components(body, nd, R, Z);
        model.fix_components(body, nd, RU, Z);
        model.fix_components(body, nd, RV, XY);
        model.fix_components(body, nd, RW, Z);
      }
      if (i == n) {  // diaphragm x = L / 2
        model.fix_components(body, nd, R, YZ);
        model.fix_components(body, nd, RV, YZ);
        model.fix_components(body, nd, RW, YZ);
      }
    }
  const Ordinal loaded = 0;  // (x, a) = (0, 0): (0, 0, R)
  EXPECT_NEAR(mesh.node_position(loaded)[2], kR, 1e-12);
  model.add_nodal_force(body, loaded, Vec3{{0.0, 0.0, -kP / 4}},
                        [](Real t) { return std::min(1.0, t); });
  StepperSettings s;
  s.linear.backend = "eigen-ldlt";
  const StaticSolution sol = solve_static(model, 1, s);
  PinchResult r;
  r.ratio = -(sol.q(0, 2) - kR) / kWRef;
  r.unknowns = 3 * model.num_coefficients() - static_cast<Ordinal>(model.fixed_components().size());
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "[ pinched cylinder, ANCF 3443 octant ] %2d x %2d elements, %6lld unknowns: w / w_ref = "
      "%.4f (%.2f s, %d Newton)\n",
      n, n, static_cast<long long>(r.unknowns), r.ratio, r.seconds, sol.newton_iterations);
  return r;
}

TEST(ShellCylinder, PinchedCylinderWithDiaphragms) {
  Real prev = 1e300;
  PinchResult r;
  for (int n : {4, 8, 16, 32, 64}) {
    r = pinched_octant(n);
    const Real err = std::fabs(r.ratio - 1.0);
    EXPECT_LT(err, prev) << n;
    prev = err;
  }
  EXPECT_NEAR(r.ratio, 1.0, 0.02);
}

}  // namespace
}  // namespace tlfea
