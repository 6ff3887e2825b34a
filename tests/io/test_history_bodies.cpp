// Per-body history columns (history.csv and output.h5 /history/<name>.*):
// centre of mass, linear and angular momentum about the origin, kinetic
// energy and gravity potential of each body, against the closed forms of
// rigid boxes and bars in rigid motion, and of a free fall under a ramped
// gravity (Model::set_gravity with a time function).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tlfea/core/generators.hpp"
#include "tlfea/io/output.hpp"

namespace tlfea {
namespace {

std::string fresh_dir(const std::string& name) {
  const std::string d = ::testing::TempDir() + "tlfea_io_" + name + "_" + std::to_string(getpid());
  if (std::system(("rm -rf '" + d + "'").c_str()) != 0) ADD_FAILURE() << "cannot remove " << d;
  return d;
}

// history.csv as column name -> values (one per row), read here (not by the
// writer's code).
std::map<std::string, std::vector<Real>> read_history(const std::string& path,
                                                      std::vector<std::string>* header = nullptr) {
  std::ifstream in(path);
  std::string line;
  std::map<std::string, std::vector<Real>> cols;
  if (!std::getline(in, line)) {
    ADD_FAILURE() << "cannot read " << path;
    return cols;
  }
  std::vector<std::string> names;
  std::stringstream hs(line);
  for (std::string n; std::getline(hs, n, ',');) names.push_back(n);
  while (std::getline(in, line)) {
    std::stringstream ls(line);
    size_t c = 0;
    for (std::string v; std::getline(ls, v, ','); ++c) {
      if (c >= names.size()) {
        ADD_FAILURE() << "row with more values than columns: " << line;
        break;
      }
      cols[names[c]].push_back(std::strtod(v.c_str(), nullptr));
    }
    EXPECT_EQ(c, names.size()) << line;
  }
  if (header) *header = names;
  return cols;
}

// Places a mesh: x -> x + d on the position coefficients.
Mesh translated(Mesh m, const Vec3& d) {
  const int cpn = m.coefficients_per_node();
  for (size_t k = 0; k < m.coefficients.size(); k += cpn)
    for (int a = 0; a < 3; ++a) m.coefficients[k][a] += d[a];
  return m;
}

Vec3 cross_product(const Vec3& a, const Vec3& b) {
  return Vec3{{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}};
}

struct RigidBox {
  Mesh mesh;
  std::string name;
  Real rho;
  Vec3 size, center, v0, w;  // box a x b x c about center; v = v0 + w x (x - c)
  Real mass() const { return rho * size[0] * size[1] * size[2]; }
  // Inertia of a homogeneous box about its centre (principal axes x, y, z):
  // I = m/12 diag(b^2 + c^2, a^2 + c^2, a^2 + b^2) (any mechanics text, e.g.
  // Meriam & Kraige, Dynamics, Appendix B).
  Vec3 inertia_times(const Vec3& u) const {
    const Real m = mass(), a = size[0], b = size[1], c = size[2];
    return Vec3{{m / 12 * (b * b + c * c) * u[0], m / 12 * (a * a + c * c) * u[1],
                 m / 12 * (a * a + b * b) * u[2]}};
  }
};

// Three bodies (Q27 box, T10 box, ANCF 3243 bar) in rigid motion v(x) =
// v0 + w x (x - c) at t = 0, gravity g f(t) with f(0) = 0.5. Closed forms
// for a homogeneous box of mass m = rho a b c, centre c:
//   centre of mass c; p = m v0; L about the origin = m c x v0 + I w
//   (int rho r x (w x (r - c)) dV = I w with r = c + s, int s = 0);
//   T = 1/2 m |v0|^2 + 1/2 w . I w; V_g = -f(t) m g . c.
// The interpolations reproduce affine fields exactly and the mass rules
// integrate s_i s_j exactly on these straight elements (docs/theory.md §3),
// so the history agrees to round-off (1e-12 relative).
TEST(HistoryBodies, RigidMotionOfBoxesAndBarGivesClosedFormMomenta) {
  std::vector<RigidBox> bodies(3);
  {
    RigidBox& b = bodies[0];
    b.name = "hex";
    b.rho = 1200.0;
    b.size = {{0.2, 0.1, 0.05}};
    const Vec3 o{{0.3, -0.1, 0.2}};
    b.mesh = generate_box(ElementType::Q27, {0.2, 0.1, 0.05}, {2, 1, 1}, {o[0], o[1], o[2]});
    b.center = {{o[0] + 0.1, o[1] + 0.05, o[2] + 0.025}};
    b.v0 = {{0.5, -0.25, 1.0}};
    b.w = {{2.0, -3.0, 5.0}};
  }
  {
    RigidBox& b = bodies[1];
    b.name = "tet";
    b.rho = 800.0;
    b.size = {{0.1, 0.3, 0.2}};
    b.mesh = generate_box(ElementType::T10, {0.1, 0.3, 0.2}, {1, 2, 1}, {-1.0, 0.5, 0.0});
    b.center = {{-0.95, 0.65, 0.1}};
    b.v0 = {{-0.2, 0.1, 0.0}};
    b.w = {{0.0, 7.0, -1.0}};
  }
  {
    RigidBox& b = bodies[2];
    b.name = "bar";
    b.rho = 2700.0;
    b.size = {{1.0, 0.04, 0.02}};
    // Along +x from the origin, section centred on the axis: moved by d.
    const Vec3 d{{0.0, 2.0, -0.5}};
    b.mesh = translated(generate_beam_ancf3243(1.0, 0.04, 0.02, 3), d);
    b.center = {{0.5, 2.0, -0.5}};
    b.v0 = {{0.0, 0.3, -0.7}};
    b.w = {{1.5, 0.5, -2.5}};
  }
  Model model;
  for (const RigidBox& b : bodies) model.add_body(b.mesh, MaterialSpec::svk(1e7, 0.3), b.rho);
  const Vec3 g{{1.0, -2.0, -9.81}};
  model.set_gravity(g, [](Real t) { return 0.5 + t; });
  model.finalize();
  StepperSettings s;
  s.dt = 1e-3;
  TimeStepper stepper(model, s);
  // Rigid-motion velocities: positions v0 + w x (x - c), ANCF gradients
  // w x r_u (the rate of a rotated material direction).
  CoefView v("v", model.num_coefficients());
  auto vh = Kokkos::create_mirror_view(v);
  for (int b = 0; b < 3; ++b) {
    const Mesh& m = bodies[b].mesh;
    const int cpn = m.coefficients_per_node();
    const Ordinal off = model.coefficient_offset(b);
    for (Ordinal k = 0; k < m.num_coefficients(); ++k) {
      const auto& x = m.coefficients[k];
      Vec3 u;
      if (k % cpn == 0) {
        const Vec3 r{
            {x[0] - bodies[b].center[0], x[1] - bodies[b].center[1], x[2] - bodies[b].center[2]}};
        const Vec3 wr = cross_product(bodies[b].w, r);
        for (int a = 0; a < 3; ++a) u[a] = bodies[b].v0[a] + wr[a];
      } else {
        u = cross_product(bodies[b].w, Vec3{{x[0], x[1], x[2]}});
      }
      for (int a = 0; a < 3; ++a) vh(off + k, a) = u[a];
    }
  }
  Kokkos::deep_copy(v, vh);
  stepper.set_velocities(v);

  const std::string dir = fresh_dir("history_bodies");
  io::OutputSettings os;
  os.directory = dir;
  os.body_names = {"hex", "tet", "bar"};
  {
    io::OutputWriter out(model, stepper, os);
    out.finish();
  }
  std::vector<std::string> header;
  auto h = read_history(dir + "/history.csv", &header);
  // The existing columns first, unchanged (the start of the header line as
  // documented in io/output.hpp), then 11 per body.
  std::vector<std::string> fixed;
  std::stringstream header_start(
      "step,time,kinetic_energy,strain_energy,gravity_potential,total_energy,"
      "constraint_violation,newton_iterations,outer_iterations,factorizations,retries,"
      "step_wall_time");
  for (std::string name; std::getline(header_start, name, ',');) fixed.push_back(name);
  ASSERT_EQ(header.size(), fixed.size() + 3 * 11);
  for (size_t c = 0; c < fixed.size(); ++c) EXPECT_EQ(header[c], fixed[c]);
  EXPECT_EQ(header[fixed.size()], "hex.com_x");
  EXPECT_EQ(header.back(), "bar.gravity_potential");

  const Real f0 = 0.5;
  Real ke_sum = 0.0, vg_sum = 0.0, worst = 0.0;
  for (const RigidBox& b : bodies) {
    const Real m = b.mass();
    const Vec3 Iw = b.inertia_times(b.w), cv = cross_product(b.center, b.v0);
    const char* ax[3] = {"x", "y", "z"};
    auto check = [&](const std::string& col, Real ref, Real scale) {
      ASSERT_TRUE(h.count(b.name + "." + col)) << b.name << "." << col;
      ASSERT_EQ(h[b.name + "." + col].size(), 1u);
      const Real got = h[b.name + "." + col][0];
      EXPECT_NEAR(got, ref, 1e-12 * scale) << b.name << "." << col;
      worst = std::max(worst, std::fabs(got - ref) / scale);
    };
    Real vmax = 0.0, Lmax = 0.0;
    for (int a = 0; a < 3; ++a) {
      vmax = std::max(vmax, std::fabs(m * b.v0[a]));
      Lmax = std::max(Lmax, std::fabs(m * cv[a] + Iw[a]));
    }
    for (int a = 0; a < 3; ++a) {
      check(std::string("com_") + ax[a], b.center[a], 1.0);
      check(std::string("momentum_") + ax[a], m * b.v0[a], vmax);
      check(std::string("angular_momentum_") + ax[a], m * cv[a] + Iw[a], Lmax);
    }
    const Real T = 0.5 * m * (b.v0[0] * b.v0[0] + b.v0[1] * b.v0[1] + b.v0[2] * b.v0[2]) +
                   0.5 * (b.w[0] * Iw[0] + b.w[1] * Iw[1] + b.w[2] * Iw[2]);
    const Real Vg = -f0 * m * (g[0] * b.center[0] + g[1] * b.center[1] + g[2] * b.center[2]);
    check("kinetic_energy", T, T);
    check("gravity_potential", Vg, std::fabs(Vg));
    ke_sum += T;
    vg_sum += Vg;
  }
  // The model totals are the sums of the bodies' (closed forms).
  EXPECT_NEAR(h["kinetic_energy"][0], ke_sum, 1e-12 * ke_sum);
  EXPECT_NEAR(h["gravity_potential"][0], vg_sum, 1e-12 * std::fabs(vg_sum));
  std::printf("per-body history vs closed forms: largest relative error %.3g\n", worst);
  if (!HasFailure()) std::system(("rm -rf '" + dir + "'").c_str());
}

// Free fall under the ramped gravity g f(t), f = t / T_r (t <= T_r), of a
// Q27 block: every coefficient has the acceleration g f(t) (f_g = M 1 g for
// the consistent mass, internal forces vanish in a translation). The
// velocity-level backward Euler of the stepper (docs/theory.md §6.1:
// v_n = v_{n-1} + h a(t_n), q_n = q_{n-1} + h v_n) gives in closed form
//   v_n = g h^2 n (n + 1) / (2 T_r),
//   z_n - z_0 = h sum_{m<=n} v_m = g h^3 n (n + 1) (n + 2) / (6 T_r),
// which tends to the exact g t^3 / (6 T_r) as h -> 0 (checked too, to its
// O(h) difference). The per-body history (com_z, momentum_z,
// gravity_potential = -f(t) m g z_c) follows these at every row; a constant
// gravity (z_n = g h^2 n (n + 1) / 2) would miss them by far.
TEST(HistoryBodies, FreeFallUnderRampedGravityFollowsTheClosedForm) {
  const Real gz = -9.81, Tr = 0.05, h = 1e-3, rho = 1000.0;
  const int n_steps = 40;
  Model model;
  const Mesh box = generate_box(ElementType::Q27, {0.1, 0.1, 0.1}, {1, 1, 1}, {0.0, 0.0, 1.0});
  model.add_body(box, MaterialSpec::svk(1e7, 0.3), rho);
  model.set_gravity({{0.0, 0.0, gz}}, [Tr](Real t) { return t < Tr ? t / Tr : 1.0; });
  model.finalize();
  StepperSettings s;
  s.dt = h;
  s.residual_abs_tol = 1e-12;
  TimeStepper stepper(model, s);
  const std::string dir = fresh_dir("ramped_gravity");
  io::OutputSettings os;
  os.directory = dir;
  os.every = 1000;
  {
    io::OutputWriter out(model, stepper, os);
    for (int i = 0; i < n_steps; ++i) out.record(stepper.step());
    out.finish();
  }
  auto hist = read_history(dir + "/history.csv");
  ASSERT_EQ(hist["body0.com_z"].size(), static_cast<size_t>(n_steps + 1));
  const Real m = rho * 1e-3, z0 = 1.05;
  Real worst_z = 0.0, worst_p = 0.0;
  for (int n = 0; n <= n_steps; ++n) {
    const Real t = n * h;
    const Real dz = gz * h * h * h * n * (n + 1.0) * (n + 2.0) / (6.0 * Tr);
    const Real vz = gz * h * h * n * (n + 1.0) / (2.0 * Tr);
    EXPECT_NEAR(hist["time"][n], t, 1e-15);
    EXPECT_NEAR(hist["body0.com_z"][n], z0 + dz, 1e-12) << "row " << n;
    EXPECT_NEAR(hist["body0.momentum_z"][n], m * vz, 1e-9 * m * std::fabs(gz) * Tr) << "row " << n;
    EXPECT_NEAR(hist["body0.gravity_potential"][n], -(t / Tr) * m * gz * (z0 + dz),
                1e-12 * m * std::fabs(gz) * z0)
        << "row " << n;
    EXPECT_NEAR(hist["body0.com_x"][n], 0.05, 1e-12);
    worst_z = std::max(worst_z, std::fabs(hist["body0.com_z"][n] - (z0 + dz)));
    worst_p = std::max(worst_p, std::fabs(hist["body0.momentum_z"][n] - m * vz));
  }
  // Against the exact motion g t^3 / (6 T_r): first-order agreement, the
  // difference g h^3 (3 n^2 + 2 n) / (6 T_r) of the two closed forms.
  const Real t = n_steps * h, exact = gz * t * t * t / (6.0 * Tr);
  const Real be_minus_exact =
      gz * h * h * h * (3.0 * n_steps * n_steps + 2.0 * n_steps) / (6.0 * Tr);
  EXPECT_NEAR(hist["body0.com_z"][n_steps] - z0, exact + be_minus_exact, 1e-12);
  EXPECT_LT(std::fabs(hist["body0.com_z"][n_steps] - z0 - exact), 0.1 * std::fabs(exact));
  std::printf("ramped free fall: |z - z_BE| <= %.3g m, |p - p_BE| <= %.3g kg m/s over %d steps\n",
              worst_z, worst_p, n_steps);
  if (!HasFailure()) std::system(("rm -rf '" + dir + "'").c_str());
}

}  // namespace
}  // namespace tlfea
