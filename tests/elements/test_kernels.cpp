// Element loops: reference state, patch test, tangents against finite
// differences, surface and point loads against closed-form resultants.
#include "kernel_test_utils.hpp"

namespace tlfea::test {
namespace {

std::string name_of(ElementType t) { return to_string(t); }

// Reference state: F = I at every quadrature point and zero internal force,
// for the reference and for a rigid rotation + translation of it, all types.
// The T10 and Q27 references are made curved (midside nodes moved off the
// straight edges) and every reference is rotated, so J0 is not diagonal.
TEST(ElementKernels, ReferenceAndRigidMotionGiveIdentityAndZeroForce) {
  for (ElementType t : all_element_types()) {
    Mesh mesh = small_mesh(t);
    // Rotate the reference itself (gradients too) and curve solid elements.
    const Real ax0[3] = {0.3, -0.5, 0.8};
    Real R0[3][3];
    rotation(ax0, 0.7, R0);
    const Real c0[3] = {0.1, 0.2, -0.3};
    const auto rotated = rigid_motion(mesh, R0, c0);
    for (Ordinal k = 0; k < mesh.num_coefficients(); ++k)
      for (int a = 0; a < 3; ++a) mesh.coefficients[k][a] = rotated(k, a);
    if (t == ElementType::T10 || t == ElementType::Q27) {
      std::mt19937 rng(7);
      std::uniform_real_distribution<Real> u(-0.02, 0.02);
      // Move every node that is not an element vertex/corner: curved edges.
      std::vector<bool> corner(mesh.num_nodes(), false);
      const int nv = t == ElementType::T10 ? 4 : 8;
      const int q27_corners[8] = {0, 2, 6, 8, 18, 20, 24, 26};
      for (Ordinal e = 0; e < mesh.num_elements(); ++e)
        for (int k = 0; k < nv; ++k)
          corner[mesh.coefficient(e, t == ElementType::T10 ? k : q27_corners[k])] = true;
      for (Ordinal k = 0; k < mesh.num_nodes(); ++k)
        if (!corner[k])
          for (int a = 0; a < 3; ++a) mesh.coefficients[k][a] += u(rng);
    }
    for (const MaterialSpec& mat : all_materials()) {
      System s = make_system(mesh, mat);
      const Real ax[3] = {-0.2, 0.9, 0.4};
      Real R[3][3];
      rotation(ax, 1.9, R);
      const Real c[3] = {2.0, -1.0, 0.5};
      for (int motion = 0; motion < 2; ++motion) {
        CoefView q = motion == 0 ? s.q0 : to_device(rigid_motion(s.mesh, R, c), "q");
        // For the rigid motion, velocities of a rigid rotation rate (Fdot = W R,
        // W skew) give zero Edot, so the Kelvin-Voigt force vanishes too.
        CoefViewHost vh("v", s.ncoef());
        if (motion == 1) {
          const Real w[3] = {0.3, -0.2, 0.5};
          auto qh = to_host(q);
          const int cpn = s.mesh.coefficients_per_node();
          for (Ordinal k = 0; k < s.ncoef(); ++k) {
            const Real x[3] = {qh(k, 0), qh(k, 1), qh(k, 2)};
            vh(k, 0) = w[1] * x[2] - w[2] * x[1];
            vh(k, 1) = w[2] * x[0] - w[0] * x[2];
            vh(k, 2) = w[0] * x[1] - w[1] * x[0];
            if (k % cpn == 0) vh(k, 0) += 0.7;  // plus a translation rate
          }
        }
        CoefView v = to_device(vh);
        auto F = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                     s.block->deformation_gradients(q));
        Real err = 0.0;
        for (size_t e = 0; e < F.extent(0); ++e)
          for (size_t p = 0; p < F.extent(1); ++p)
            for (int a = 0; a < 3; ++a)
              for (int b = 0; b < 3; ++b) {
                const Real expect = motion == 0 ? (a == b ? 1.0 : 0.0) : R[a][b];
                err = std::max(err, std::fabs(F(e, p, 3 * a + b) - expect));
              }
        EXPECT_LT(err, 1e-12) << name_of(t) << " " << mat.name() << " motion " << motion;
        CoefView f("f", s.ncoef());
        s.block->internal_force(q, v, f);
        // Scale: stress magnitude E * (a strain of 1) times an element volume.
        EXPECT_LT(max_abs(to_host(f)), 1e-9 * 2e6 * 1e-3)
            << name_of(t) << " " << mat.name() << " motion " << motion;
      }
    }
  }
}

// Patch test: x = R F0 X + c with F0 the uniaxial-stress stretch of St.
// Venant-Kirchhoff (lateral stretch from S_yy = S_zz = 0, so e2 = -nu e1)
// gives F = R F0 everywhere, zero force at interior coefficients, and a
// reaction on the x = Lx end equal to the exact traction resultant
// R P0 e_x A with P0_xx = lambda1 E e1 (E, nu: Young's modulus, Poisson).
TEST(ElementKernels, PatchTestUniaxialStressReactionMatchesClosedForm) {
  const Real E = 2e6, nu = 0.3, lambda1 = 1.1;
  const Real e1 = 0.5 * (lambda1 * lambda1 - 1), e2 = -nu * e1;
  const Real lambda2 = std::sqrt(1 + 2 * e2);
  const Real P0xx = lambda1 * E * e1;
  for (ElementType t : all_element_types()) {
    Mesh mesh = small_mesh(t);
    System s = make_system(mesh, MaterialSpec::svk(E, nu));
    const Real ax[3] = {1.0, 1.0, 0.2};
    Real R[3][3], M[3][3];
    rotation(ax, 0.6, R);
    const Real F0[3] = {lambda1, lambda2, lambda2};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) M[a][b] = R[a][b] * F0[b];
    const Real c[3] = {0.3, 0.1, -0.2};
    CoefView q = to_device(rigid_motion(s.mesh, M, c), "q");
    auto F =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.block->deformation_gradients(q));
    Real err = 0.0;
    for (size_t e = 0; e < F.extent(0); ++e)
      for (size_t p = 0; p < F.extent(1); ++p)
        for (int k = 0; k < 9; ++k) err = std::max(err, std::fabs(F(e, p, k) - M[k / 3][k % 3]));
    EXPECT_LT(err, 1e-12) << name_of(t);

    CoefView f("f", s.ncoef());
    s.block->internal_force(q, q, f);
    auto fh = to_host(f);
    // Reaction: sum of the position-coefficient forces on the x = max end.
    Real xmax = -1e300, xmin = 1e300;
    for (Ordinal k = 0; k < s.mesh.num_nodes(); ++k) {
      xmax = std::max(xmax, s.mesh.node_position(k)[0]);
      xmin = std::min(xmin, s.mesh.node_position(k)[0]);
    }
    Real ymin = 1e300, ymax = -1e300, zmin = 1e300, zmax = -1e300;
    for (Ordinal k = 0; k < s.mesh.num_nodes(); ++k) {
      ymin = std::min(ymin, s.mesh.node_position(k)[1]);
      ymax = std::max(ymax, s.mesh.node_position(k)[1]);
      zmin = std::min(zmin, s.mesh.node_position(k)[2]);
      zmax = std::max(zmax, s.mesh.node_position(k)[2]);
    }
    Real area = (ymax - ymin) * (zmax - zmin);
    if (t == ElementType::ANCF3243) area = 0.1 * 0.08;  // nodes lie on the axis
    if (t == ElementType::ANCF3443) area = 0.8 * 0.05;  // nodes lie on the mid-surface
    const int cpn = s.mesh.coefficients_per_node();
    Real reaction[3] = {0, 0, 0}, interior = 0.0;
    for (Ordinal k = 0; k < s.mesh.num_nodes(); ++k) {
      const Real x = s.mesh.node_position(k)[0];
      const Ordinal c0 = k * cpn;
      if (std::fabs(x - xmax) < 1e-12)
        for (int a = 0; a < 3; ++a) reaction[a] += fh(c0, a);
      const bool boundary = std::fabs(x - xmin) < 1e-12 || std::fabs(x - xmax) < 1e-12;
      if (!boundary && cpn == 1) {
        const auto& X = s.mesh.node_position(k);
        const bool lateral = std::fabs(X[1] - ymin) < 1e-12 || std::fabs(X[1] - ymax) < 1e-12 ||
                             std::fabs(X[2] - zmin) < 1e-12 || std::fabs(X[2] - zmax) < 1e-12;
        if (!lateral)
          for (int a = 0; a < 3; ++a) interior = std::max(interior, std::fabs(fh(c0, a)));
      }
    }
    for (int a = 0; a < 3; ++a) {
      const Real expect = R[a][0] * P0xx * area;
      EXPECT_NEAR(reaction[a], expect, 1e-10 * std::fabs(P0xx * area)) << name_of(t) << " " << a;
    }
    EXPECT_LT(interior, 1e-10 * std::fabs(P0xx * area)) << name_of(t);
  }
}

// Central difference of a vector-valued block function along direction d.
template <class Fn>
CoefViewHost central_difference(const CoefViewHost& x, const CoefViewHost& d, Real h, Fn&& fn) {
  const Ordinal n = static_cast<Ordinal>(x.extent(0));
  CoefViewHost xp("xp", n), xm("xm", n);
  for (Ordinal k = 0; k < n; ++k)
    for (int a = 0; a < 3; ++a) {
      xp(k, a) = x(k, a) + h * d(k, a);
      xm(k, a) = x(k, a) - h * d(k, a);
    }
  auto fp = fn(xp), fm = fn(xm);
  CoefViewHost out("fd", n);
  for (Ordinal k = 0; k < n; ++k)
    for (int a = 0; a < 3; ++a) out(k, a) = (fp(k, a) - fm(k, a)) / (2 * h);
  return out;
}

CoefViewHost matvec(const std::vector<std::vector<Real>>& A, const CoefViewHost& x) {
  const Ordinal n = static_cast<Ordinal>(x.extent(0));
  CoefViewHost y("Ax", n);
  for (Ordinal r = 0; r < 3 * n; ++r) {
    Real s = 0.0;
    for (Ordinal c = 0; c < 3 * n; ++c) s += A[r][c] * x(c / 3, c % 3);
    y(r / 3, r % 3) = s;
  }
  return y;
}

Real rel_diff(const CoefViewHost& a, const CoefViewHost& b) {
  Real num = 0.0, den = 0.0;
  for (size_t k = 0; k < a.extent(0); ++k)
    for (int c = 0; c < 3; ++c) {
      num += (a(k, c) - b(k, c)) * (a(k, c) - b(k, c));
      den += b(k, c) * b(k, c);
    }
  return std::sqrt(num / den);
}

CoefViewHost random_like(Ordinal n, Real scale, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  CoefViewHost h("rand", n);
  for (Ordinal k = 0; k < n; ++k)
    for (int a = 0; a < 3; ++a) h(k, a) = scale * u(rng);
  return h;
}

// K = d f_int / d q and D = d f_int / d v against central differences of the
// internal force, every element x material, at a random deformed state
// (coefficients perturbed by 5% of the element size, random velocities).
// Tolerance 1e-6: central differences with h = 1e-6 relative have truncation
// error ~h^2 and round-off ~1e-16/h, both far below it.
TEST(ElementKernels, TangentsMatchFiniteDifferenceOfInternalForce) {
  for (ElementType t : all_element_types()) {
    for (const MaterialSpec& mat : all_materials()) {
      System s = make_system(small_mesh(t), mat);
      const Ordinal n = s.ncoef();
      auto q0 = to_host(s.q0);
      auto dq = random_like(n, 0.05 * 0.1, 11);
      CoefViewHost qh("q", n);
      for (Ordinal k = 0; k < n; ++k)
        for (int a = 0; a < 3; ++a) qh(k, a) = q0(k, a) + dq(k, a);
      auto vh = random_like(n, 0.5, 12);
      CoefView q = to_device(qh, "q"), v = to_device(vh, "v");
      auto force = [&](const CoefViewHost& qq, const CoefViewHost& vv) {
        CoefView f("f", n);
        s.block->internal_force(to_device(qq), to_device(vv), f);
        return to_host(f);
      };
      DeviceView<Real*> K("K", s.pattern.nnz()), D("D", s.pattern.nnz());
      s.block->tangent(q, v, 1.0, 0.0, K);
      s.block->tangent(q, v, 0.0, 1.0, D);
      const auto Kd = dense(s.pattern, K), Dd = dense(s.pattern, D);
      for (unsigned trial = 0; trial < 2; ++trial) {
        auto dir = random_like(n, 1.0, 100 + trial);
        auto fdK =
            central_difference(qh, dir, 1e-7, [&](const CoefViewHost& x) { return force(x, vh); });
        EXPECT_LT(rel_diff(matvec(Kd, dir), fdK), 1e-6) << name_of(t) << " " << mat.name();
        if (mat.kelvin_voigt) {
          auto fdD = central_difference(vh, dir, 1e-5,
                                        [&](const CoefViewHost& x) { return force(qh, x); });
          EXPECT_LT(rel_diff(matvec(Dd, dir), fdD), 1e-6) << name_of(t) << " " << mat.name();
        } else {
          Real dmax = 0.0;
          for (const auto& row : Dd)
            for (Real x : row) dmax = std::max(dmax, std::fabs(x));
          EXPECT_EQ(dmax, 0.0) << name_of(t) << " " << mat.name();
        }
      }
    }
  }
}

// Hyperelastic consistency: f_int is the gradient of the strain energy
// (central differences of the summed element energies along random directions).
TEST(ElementKernels, InternalForceIsGradientOfStrainEnergy) {
  for (ElementType t : all_element_types()) {
    for (const MaterialSpec& mat : all_materials()) {
      if (mat.kelvin_voigt) continue;
      System s = make_system(small_mesh(t), mat);
      const Ordinal n = s.ncoef();
      auto q0 = to_host(s.q0);
      auto dq = random_like(n, 0.005, 21);
      CoefViewHost qh("q", n);
      for (Ordinal k = 0; k < n; ++k)
        for (int a = 0; a < 3; ++a) qh(k, a) = q0(k, a) + dq(k, a);
      CoefView f("f", n);
      s.block->internal_force(to_device(qh), to_device(qh), f);
      auto fh = to_host(f);
      auto dir = random_like(n, 1.0, 22);
      const Real h = 1e-6;
      CoefViewHost qp("qp", n), qm("qm", n);
      Real proj = 0.0;
      for (Ordinal k = 0; k < n; ++k)
        for (int a = 0; a < 3; ++a) {
          qp(k, a) = qh(k, a) + h * dir(k, a);
          qm(k, a) = qh(k, a) - h * dir(k, a);
          proj += fh(k, a) * dir(k, a);
        }
      const Real fd =
          (s.block->strain_energy(to_device(qp)) - s.block->strain_energy(to_device(qm))) / (2 * h);
      EXPECT_NEAR(fd, proj, 1e-6 * std::fabs(proj)) << name_of(t) << " " << mat.name();
    }
  }
}

// Follower pressure: the load stiffness matches central differences of the
// pressure force; a closed box under pressure p has zero resultant (the
// integral of n da over a closed surface vanishes), and a dead traction t0
// on the x = max face has resultant t0 * area.
TEST(ElementKernels, SurfaceLoadsMatchClosedFormsAndPressureTangentMatchesFD) {
  for (ElementType t : {ElementType::T10, ElementType::Q27}) {
    System s = make_system(small_mesh(t), MaterialSpec::svk(2e6, 0.3));
    const Ordinal n = s.ncoef();
    std::vector<FaceRef> all_faces;
    for (const char* name : {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"})
      for (const FaceRef& fr : s.mesh.face_sets.at(name)) all_faces.push_back(fr);
    FaceList closed = make_face_list(all_faces);
    FaceList xmax = make_face_list(s.mesh.face_sets.at("xmax"));
    // Dead traction resultant.
    CoefView f("f", n);
    const Vec3 t0{{100.0, -50.0, 25.0}};
    s.block->dead_traction(s.q0, xmax, t0, f);
    auto fh = to_host(f);
    const Real area = 0.8 * 0.6;
    for (int a = 0; a < 3; ++a) {
      Real sum = 0.0;
      for (Ordinal k = 0; k < n; ++k) sum += fh(k, a);
      EXPECT_NEAR(sum, t0[a] * area, 1e-12 * 100 * area) << name_of(t);
    }
    // Closed-surface pressure resultant in a deformed state.
    auto q0 = to_host(s.q0);
    auto dq = random_like(n, 0.01, 31);
    CoefViewHost qh("q", n);
    for (Ordinal k = 0; k < n; ++k)
      for (int a = 0; a < 3; ++a) qh(k, a) = q0(k, a) + dq(k, a);
    CoefView q = to_device(qh, "q");
    CoefView fp("fp", n);
    s.block->follower_pressure(q, closed, 1e4, fp);
    auto fph = to_host(fp);
    for (int a = 0; a < 3; ++a) {
      Real sum = 0.0;
      for (Ordinal k = 0; k < n; ++k) sum += fph(k, a);
      EXPECT_NEAR(sum, 0.0, 1e-9 * 1e4) << name_of(t);
    }
    // Pressure on the undeformed x = max face: resultant -p * area * e_x.
    CoefView fx("fx", n);
    s.block->follower_pressure(s.q0, xmax, 1e4, fx);
    auto fxh = to_host(fx);
    Real sx = 0.0;
    for (Ordinal k = 0; k < n; ++k) sx += fxh(k, 0);
    EXPECT_NEAR(sx, -1e4 * area, 1e-9 * 1e4) << name_of(t);
    // Load stiffness.
    DeviceView<Real*> Kp("Kp", s.pattern.nnz());
    s.block->follower_pressure_tangent(q, xmax, 1e4, 1.0, Kp);
    auto dir = random_like(n, 1.0, 32);
    auto fd = central_difference(qh, dir, 1e-6, [&](const CoefViewHost& x) {
      CoefView ff("ff", n);
      s.block->follower_pressure(to_device(x), xmax, 1e4, ff);
      return to_host(ff);
    });
    EXPECT_LT(rel_diff(matvec(dense(s.pattern, Kp), dir), fd), 1e-7) << name_of(t);
  }
}

// Point force: distributed coefficient forces sum to f_P (partition of unity)
// and, for T10 / Q27, their first moment equals X_P x f_P (the shape functions
// reproduce linear fields), for a point at random parent coordinates.
TEST(ElementKernels, PointForceIsStaticallyEquivalent) {
  for (ElementType t : all_element_types()) {
    System s = make_system(small_mesh(t), MaterialSpec::svk(2e6, 0.3));
    const Ordinal n = s.ncoef();
    const Real xi[3] = {0.2, 0.1, 0.3};  // inside every parent domain
    const Real fP[3] = {3.0, -2.0, 5.0};
    const PointLoad load{1, {xi[0], xi[1], xi[2]}, Vec3{{fP[0], fP[1], fP[2]}}};
    auto fh = to_host(point_load_forces(*s.block, {load}, 2.0, n));
    const int cpn = s.mesh.coefficients_per_node();
    for (int a = 0; a < 3; ++a) {
      Real sum = 0.0;
      for (Ordinal k = 0; k < n; k += cpn) sum += fh(k, a);
      EXPECT_NEAR(sum, 2.0 * fP[a], 1e-13) << name_of(t);
    }
    // Position of the material point from the host shape functions.
    const auto sh = s.block->shape_at(1, xi);
    const auto ids = s.block->element_coefficients(1);
    Real X[3] = {0, 0, 0};
    for (size_t i = 0; i < ids.size(); ++i)
      for (int a = 0; a < 3; ++a) X[a] += sh[i] * s.mesh.coefficients[ids[i]][a];
    if (cpn == 1) {
      Real m[3] = {0, 0, 0};
      for (Ordinal k = 0; k < n; ++k) {
        const auto& Y = s.mesh.coefficients[k];
        m[0] += Y[1] * fh(k, 2) - Y[2] * fh(k, 1);
        m[1] += Y[2] * fh(k, 0) - Y[0] * fh(k, 2);
        m[2] += Y[0] * fh(k, 1) - Y[1] * fh(k, 0);
      }
      const Real e[3] = {X[1] * fP[2] - X[2] * fP[1], X[2] * fP[0] - X[0] * fP[2],
                         X[0] * fP[1] - X[1] * fP[0]};
      for (int a = 0; a < 3; ++a) EXPECT_NEAR(m[a], 2.0 * e[a], 1e-12) << name_of(t);
    }
  }
}

}  // namespace
}  // namespace tlfea::test

namespace tlfea::test {
namespace {

// An element whose reference Jacobian is inverted (two vertices swapped) or
// degenerate (all vertices coplanar) is refused at setup with a message that
// names the mesh source and the element.
TEST(ElementGeometry, RefusesInvertedOrDegenerateReferenceNamingTheElement) {
  Mesh mesh = generate_box(ElementType::T10, {1.0, 1.0, 1.0}, {1, 1, 1});
  mesh.source = "inverted-box";
  // Element 3: swap vertices 1 and 2 together with their edge nodes
  // (edges 01 <-> 02, 13 <-> 23), a mirror image: det J0 < 0 everywhere.
  std::swap(mesh.connectivity[3 * 10 + 1], mesh.connectivity[3 * 10 + 2]);
  std::swap(mesh.connectivity[3 * 10 + 4], mesh.connectivity[3 * 10 + 6]);
  std::swap(mesh.connectivity[3 * 10 + 8], mesh.connectivity[3 * 10 + 9]);
  try {
    make_element_block(mesh, 0, MaterialSpec::svk(1e6, 0.3), 1000.0);
    FAIL() << "inverted element accepted";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("inverted-box"), std::string::npos) << msg;
    EXPECT_NE(msg.find("element 3"), std::string::npos) << msg;
  }
  Mesh flat = generate_beam_ancf3243(1.0, 0.1, 0.1, 2);
  flat.source = "flat-beam";
  for (Ordinal k = 0; k < flat.num_nodes(); ++k) flat.coefficients[4 * k + 3] = {0.0, 0.0, 0.0};
  EXPECT_THROW(make_element_block(flat, 0, MaterialSpec::svk(1e6, 0.3), 1000.0), Error);
  EXPECT_THROW(make_element_block(generate_box(ElementType::Q27, {1, 1, 1}, {1, 1, 1}), 0,
                                  MaterialSpec::svk(1e6, 0.3), -1.0),
               Error);
}

// A T10 or Q27 block builds its shape-function gradients at its first
// internal force (or tangent, energy, F), not at construction nor for the
// setup sums (mass, body force), so that a whole block that only serves the
// setup never holds them (ElementBlockBase::prepare). Built lazily or by
// prepare(), the force is the same bit for bit (the coloured scatter sums
// each entry in one order whatever the threads), and in the reference
// configuration it is zero (F = I, the gradients' defining property:
// geometry.hpp).
TEST(ElementGeometry, GradientsAreBuiltAtFirstUse) {
  for (ElementType t : {ElementType::T10, ElementType::Q27}) {
    System s = make_system(small_mesh(t), MaterialSpec::svk(2e6, 0.3));
    s.block->set_scatter(ScatterPolicy::Coloured);
    EXPECT_FALSE(s.block->prepared()) << name_of(t);
    DeviceView<Real*> values("values", s.pattern.nnz());
    CoefView f("f", s.ncoef()), g("g", s.ncoef());
    s.block->mass(s.q0, 1.0, values);
    s.block->body_force(s.q0, Vec3{{0.0, 0.0, -9.81}}, f);
    EXPECT_FALSE(s.block->prepared()) << name_of(t);
    CoefViewHost qh = to_host(s.q0);
    for (Ordinal k = 0; k < s.ncoef(); ++k) qh(k, 0) += 0.01 * qh(k, 1) * qh(k, 1);
    const CoefView q = to_device(qh, "q");
    Kokkos::deep_copy(f, 0.0);
    s.block->internal_force(q, q, f);
    EXPECT_TRUE(s.block->prepared()) << name_of(t);
    System p = make_system(small_mesh(t), MaterialSpec::svk(2e6, 0.3));
    p.block->set_scatter(ScatterPolicy::Coloured);
    p.block->prepare();
    EXPECT_TRUE(p.block->prepared()) << name_of(t);
    p.block->internal_force(q, q, g);
    auto fh = to_host(f);
    auto gh = to_host(g);
    for (Ordinal k = 0; k < s.ncoef(); ++k)
      for (int a = 0; a < 3; ++a) EXPECT_EQ(fh(k, a), gh(k, a)) << name_of(t) << " " << k;
    Kokkos::deep_copy(g, 0.0);
    p.block->internal_force(p.q0, p.q0, g);
    EXPECT_LT(max_abs(to_host(g)), 1e-9 * 2e6 * 1e-3) << name_of(t);
  }
}

}  // namespace
}  // namespace tlfea::test
