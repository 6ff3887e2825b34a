// Scene files: the contact section (laws, contact materials, pair
// overrides, moving obstacles) reaches the model, and its bad input is
// refused at its key.
#include "scene_test_util.hpp"

namespace tlfea {
namespace {

using namespace scene_test;
using scene::Scene;
using scene::TimeFunctionSpec;

// The good scene with a contact section `keys` (R* = 0.05 m) and a plane
// 1 mm above the cube's bottom face, so the cube is pressed 1 mm into it.
std::string pressed_cube(const std::string& keys) {
  return std::string(kGood) + "contact:\n" + keys +
         "  contact_radius: 0.05\n  obstacles: [{type: plane, point: [0, 0, 0.001]}]\n";
}

// The contacts of the scene's reference state and their forces at rest;
// returns the number of contacts.
Ordinal contacts_at_rest(Scene& s) {
  const Ordinal n = s.detection->detect(s.model->reference(), 0.0);
  CoefView v("v", s.model->num_coefficients()), f("f", s.model->num_coefficients());
  s.contact->compute(s.detection->points(), s.model->reference(), v, 1e-3, f);
  return n;
}

// contact.law: patch with damping_mass: body: the cube (1 kg: 1000 kg/m^3 x
// 1e-3 m^3) pressed 1 mm into a plane gets m* = its mass against the rigid
// plane on every contact, and the patch's normal forces sum to the Hertz law
// (4/3) E* sqrt(R*) delta^(3/2) of the deepest vertex (E* = E / (1 - nu^2)
// against the rigid plane, R* = contact_radius 0.05 m; round-off).
TEST(SceneContact, PatchLawWithBodyDampingMass) {
  Scene s = scene::load_scene_text(pressed_cube("  law: patch\n  damping_mass: body\n"),
                                   "good.yaml", ".");
  ASSERT_TRUE(s.detection && s.contact);
  const Ordinal n = contacts_at_rest(s);
  ASSERT_GT(n, 1);
  auto ms = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.contact->effective_mass());
  auto fn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.contact->normal_force());
  auto dl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.detection->points().delta);
  Real total = 0.0, dmax = 0.0;
  for (Ordinal k = 0; k < n; ++k) {
    EXPECT_NEAR(ms(k), 1.0, 1e-12);
    total += fn(k);
    dmax = std::max(dmax, dl(k));
  }
  EXPECT_NEAR(dmax, 1e-3, 1e-12);
  const Real Es = 1e6 / (1 - 0.09);
  const Real hertz = 4.0 / 3.0 * Es * std::sqrt(0.05) * std::pow(1e-3, 1.5);
  EXPECT_NEAR(total, hertz, 1e-12 * hertz);
}

// contact.law: patch_smooth_max (docs/theory.md §7.5, "Smooth-max patch"):
// the cube's n bottom vertices all 1 mm into the plane give the p-norm depth
// D = n^(1/p) delta and the total force G H(D) = n^(1/p) H(n^(1/p) delta) =
// n^(5/(2p)) (4/3) E* sqrt(R*) delta^(3/2), p = 32, shared equally.
TEST(SceneContact, SmoothMaxPatchLaw) {
  Scene s = scene::load_scene_text(pressed_cube("  law: patch_smooth_max\n"), "good.yaml", ".");
  ASSERT_TRUE(s.detection && s.contact);
  EXPECT_EQ(s.contact->pair_law(0, -1).patch, 2);
  const Ordinal n = contacts_at_rest(s);
  ASSERT_GT(n, 1);
  auto fn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.contact->normal_force());
  auto dl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.detection->points().delta);
  Real total = 0.0;
  for (Ordinal k = 0; k < n; ++k) {
    EXPECT_NEAR(dl(k), 1e-3, 1e-12);
    EXPECT_NEAR(fn(k), fn(0), 1e-12 * fn(0));
    total += fn(k);
  }
  const Real Es = 1e6 / (1 - 0.09);
  const Real hertz = 4.0 / 3.0 * Es * std::sqrt(0.05) * std::pow(1e-3, 1.5);
  EXPECT_NEAR(total, std::pow(static_cast<Real>(n), 2.5 / 32.0) * hertz, 1e-12 * hertz);
  // An unknown law is refused, listing the three.
  try {
    scene::load_scene_text(pressed_cube("  law: smooth\n"), "bad.yaml", ".");
    ADD_FAILURE() << "law: smooth accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("point, patch, patch_smooth_max"), std::string::npos)
        << e.what();
  }
}

// damping_mass: shared with the point law: the cube (1 kg) pressed 1 mm into
// a plane touches it with n vertices, and every contact's m* is 1 kg / n
// (the body's mass divided among the pair's loaded contacts; round-off).
TEST(SceneContact, PointLawWithSharedDampingMass) {
  Scene s = scene::load_scene_text(pressed_cube("  damping_mass: shared\n"), "good.yaml", ".");
  ASSERT_TRUE(s.detection && s.contact);
  const Ordinal n = contacts_at_rest(s);
  ASSERT_GT(n, 1);
  auto ms = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.contact->effective_mass());
  for (Ordinal k = 0; k < n; ++k) EXPECT_NEAR(ms(k), 1.0 / n, 1e-12);
}

// Contact material separate from the bulk: the cube's
// bulk E = 1e6 Pa, its contact_material E = 2e8 Pa, nu = 0.25, pressed 1 mm
// into a rigid plane by the plane's position (patch law, R = 0.05 m): the
// total force is Hertz's (4/3) E* sqrt(R) d^(3/2) with E* = 2e8 / (1 - 0.25^2)
// from the contact E, nu (closed form here), not the bulk's 1e6 / (1 - 0.09).
TEST(SceneContact, ContactMaterialSetsTheHertzModulus) {
  const std::string text =
      replace(std::string(kGood), "    density: 1000\n",
              "    density: 1000\n    contact_material: {E: 2.0e8, nu: 0.25, restitution: 0.8}\n") +
      "contact:\n  law: patch\n  contact_radius: 0.05\n"
      "  obstacles: [{type: plane, point: [0, 0, 0.001]}]\n";
  Scene s = scene::load_scene_text(text, "good.yaml", ".");
  ASSERT_TRUE(s.detection && s.contact);
  const Ordinal n = s.detection->detect(s.model->reference(), 0.0);
  ASSERT_GT(n, 1);
  CoefView v("v", s.model->num_coefficients()), f("f", s.model->num_coefficients());
  s.contact->compute(s.detection->points(), s.model->reference(), v, 1e-3, f);
  auto fn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.contact->normal_force());
  Real total = 0.0;
  for (Ordinal k = 0; k < n; ++k) total += fn(k);
  const Real Es = 2e8 / (1 - 0.0625);
  const Real hertz = 4.0 / 3.0 * Es * std::sqrt(0.05) * std::pow(1e-3, 1.5);
  EXPECT_NEAR(total, hertz, 1e-12 * hertz);
  // restitution 0.8 from the body (the section's default is 0.5):
  // beta = -ln e / sqrt(ln^2 e + pi^2).
  const Real le = std::log(0.8), beta = -le / std::sqrt(le * le + M_PI * M_PI);
  EXPECT_NEAR(s.contact->pair_law(0, -1).beta, beta, 1e-15);
  // Without contact_material: the bulk E, nu (today's behaviour).
  Scene b = scene::load_scene_text(std::string(kGood) + "contact: {obstacles: [{type: plane}]}\n",
                                   "good.yaml", ".");
  EXPECT_NEAR(b.contact->pair_law(0, -1).E_star, 1e6 / (1 - 0.09), 1e-6);
}

// contact.pairs overrides a subset of a pair's constants; the rest is what
// the pair had (section defaults combined with the partners' properties).
TEST(SceneContact, PairOverridesKeepTheRestInherited) {
  const std::string text =
      replace(std::string(kGood), "    density: 1000\n",
              "    density: 1000\n    contact_material: {mu_s: 0.6, mu_k: 0.5}\n") +
      "contact:\n  restitution: 0.4\n  slip_distance: 2.0e-5\n"
      "  obstacles: [{type: plane, name: floor}, {type: sphere, center: [0, 0, -1], radius: 0.5,\n"
      "               restitution: 0.9, mu_s: 0.3}]\n"
      "  pairs:\n"
      "    - {body: cube, obstacle: floor, mu_k: 0.1, E_star: 3.0e8}\n"
      "    - {body: cube, obstacle: 1, G_star: 1.0e7, slip_distance: 0}\n";
  Scene s = scene::load_scene_text(text, "good.yaml", ".");
  const ContactLawParams& floor = s.contact->pair_law(0, -1);
  EXPECT_EQ(floor.mu_s, 0.6);            // the body's
  EXPECT_EQ(floor.mu_k, 0.1);            // the pair's
  EXPECT_EQ(floor.E_star, 3e8);          // the pair's
  EXPECT_EQ(floor.slip_distance, 2e-5);  // the section's
  // G* = E_star (1 - nu) / (2 (2 - nu)) for nu = 0.3 against a rigid plane.
  EXPECT_NEAR(floor.G_star, 3e8 * 0.7 / 3.4, 1e-6);
  const Real le = std::log(0.4);
  EXPECT_NEAR(floor.beta, -le / std::sqrt(le * le + M_PI * M_PI), 1e-15);
  const ContactLawParams& ball = s.contact->pair_law(0, -2);
  // e: the sphere's 0.9; mu_s = min(0.6, 0.3); mu_k = the body's 0.5 capped at 0.3.
  const Real l9 = std::log(0.9);
  EXPECT_NEAR(ball.beta, -l9 / std::sqrt(l9 * l9 + M_PI * M_PI), 1e-15);
  EXPECT_EQ(ball.mu_s, 0.3);
  EXPECT_EQ(ball.mu_k, 0.3);
  EXPECT_NEAR(ball.E_star, 1e6 / (1 - 0.09), 1e-6);
  EXPECT_EQ(ball.G_star, 1e7);
  EXPECT_EQ(ball.slip_distance, 0.0);  // the pair's: mu_k as soon as it slips
}

// Obstacle motions from the scene. A plane turning about
// the vertical axis through (0.05, 0.05, 0) at w = 2 rad/s, 1 mm into the
// cube's bottom face: every contact carries omega x (x_c - c) = w (-(y -
// 0.05), x - 0.05, 0). A plane moved by a table z(t) = -0.01 + 0.02 t (rows at
// 0 and 1 s, inline and as a CSV file) is 1 mm into the cube at t = 0.55 s
// with velocity 0.02 m/s (closed form of the linear motion).
TEST(SceneContact, RotatingAndTabulatedObstacles) {
  {
    const std::string text =
        std::string(kGood) +
        "contact:\n  obstacles: [{type: plane, point: [0, 0, 0.001],\n"
        "    angular_velocity: [0, 0, 2], rotation_center: [0.05, 0.05, 0]}]\n";
    Scene s = scene::load_scene_text(text, "good.yaml", ".");
    const Ordinal n = s.detection->detect(s.model->reference(), 0.3);
    ASSERT_GT(n, 0);
    auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.detection->points().x);
    auto vb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                  s.detection->points().obstacle_velocity);
    auto dl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.detection->points().delta);
    for (Ordinal k = 0; k < n; ++k) {
      EXPECT_NEAR(dl(k), 1e-3, 1e-12);
      EXPECT_NEAR(vb(k, 0), -2.0 * (x(k, 1) - 0.05), 1e-12);
      EXPECT_NEAR(vb(k, 1), 2.0 * (x(k, 0) - 0.05), 1e-12);
      EXPECT_NEAR(vb(k, 2), 0.0, 1e-12);
    }
  }
  const std::string dir = ::testing::TempDir();
  {
    std::FILE* fp = std::fopen((dir + "/lift.csv").c_str(), "w");
    ASSERT_NE(fp, nullptr);
    std::fputs("# time, ux, uy, uz\nt,ux,uy,uz\n0, 0, 0, -0.01\n1.0, 0, 0, 0.01\n", fp);
    std::fclose(fp);
  }
  for (const char* motion :
       {"{table: [[0, 0, 0, -0.01], [1.0, 0, 0, 0.01]]}", "{file: lift.csv}"}) {
    const std::string text =
        std::string(kGood) + "contact:\n  obstacles: [{type: plane, motion: " + motion + "}]\n";
    Scene s = scene::load_scene_text(text, "good.yaml", dir);
    EXPECT_EQ(s.detection->detect(s.model->reference(), 0.0), 0) << motion;
    const Ordinal n = s.detection->detect(s.model->reference(), 0.55);
    ASSERT_GT(n, 0) << motion;
    auto vb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                  s.detection->points().obstacle_velocity);
    auto dl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.detection->points().delta);
    for (Ordinal k = 0; k < n; ++k) {
      EXPECT_NEAR(dl(k), 1e-3, 1e-12) << motion;
      EXPECT_NEAR(vb(k, 2), 0.02, 1e-15) << motion;
    }
  }
}

TEST(SceneErrors, ContactMaterialPairsAndMotionsAreValidated) {
  const std::string g = kGood;
  auto cm = [&](const std::string& v) {
    return replace(g, "    density: 1000\n",
                   "    density: 1000\n    contact_material: " + v + "\n");
  };
  const std::string ob = "contact:\n  obstacles: [{type: plane, name: floor}]\n";
  const std::vector<BadCase> cases = {
      {"contact E 0", cm("{E: 0}"), "bad.yaml:8:27:", "contact_material.E must be positive"},
      {"contact nu 0.5", cm("{nu: 0.5}"),
       "bad.yaml:8:28:", "contact_material.nu must be in (-1, 0.5)"},
      {"contact restitution 1.5", cm("{restitution: 1.5}"),
       "bad.yaml:8:37:", "contact_material.restitution must be in (0, 1]"},
      {"contact mu_k above mu_s", cm("{mu_s: 0.2, mu_k: 0.3}"),
       "bad.yaml:8:41:", "mu_k = 0.3 exceeds mu_s = 0.2"},
      {"contact mu negative", cm("{mu_s: -0.1}"), "bad.yaml:8:30:", "must be in [0, 10]"},
      {"contact unknown key", cm("{G: 1}"), "bad.yaml:8:24:", "unknown key 'G'"},
      {"pair unknown body", g + ob + "  pairs: [{body: cub, obstacle: floor}]\n",
       "bad.yaml:10:18:", "unknown body 'cub'"},
      {"pair unknown obstacle", g + ob + "  pairs: [{body: cube, obstacle: flor}]\n",
       "bad.yaml:10:34:", "no obstacle 'flor'"},
      {"pair obstacle index", g + ob + "  pairs: [{body: cube, obstacle: 1}]\n",
       "bad.yaml:10:34:", "no obstacle '1'"},
      {"pair twice",
       g + ob + "  pairs: [{body: cube, obstacle: floor}, {body: cube, obstacle: 0}]\n",
       "bad.yaml:10:42:", "listed twice"},
      {"pair mu_k above inherited mu_s",
       g + ob + "  pairs: [{body: cube, obstacle: floor, mu_k: 0.3}]\n",
       "bad.yaml:10:47:", "mu_k = 0.3 exceeds mu_s = 0.25"},
      {"pair E_star negative", g + ob + "  pairs: [{body: cube, obstacle: floor, E_star: -1}]\n",
       "bad.yaml:10:49:", "E_star must be positive"},
      {"pair three bodies", g + "contact:\n  pairs: [{bodies: [cube, cube, cube]}]\n",
       "bad.yaml:9:20:", "a list of two body names"},
      {"pair without partner", g + "contact:\n  pairs: [{body: cube}]\n",
       "bad.yaml:9:11:", "give bodies: [a, b], or body and obstacle"},
      {"motion times",
       g + "contact:\n  obstacles: [{type: plane, motion: {table: [[0, 0, 0, 0], [0, 0, 0, "
           "1]]}}]\n",
       "bad.yaml:9:60:", "times must increase"},
      {"motion row length",
       g + "contact:\n  obstacles: [{type: plane, motion: {table: [[0, 0, 0]]}}]\n",
       "bad.yaml:9:46:", "got 3 values"},
      {"motion angle without axis",
       g + "contact:\n  obstacles: [{type: plane, motion: {table: [[0, 0, 0, 0, 1]]}}]\n",
       "bad.yaml:9:37:", "need the rotation axis"},
      {"motion non-finite",
       g + "contact:\n  obstacles: [{type: plane, motion: {table: [[0, nan, 0, 0]]}}]\n",
       "bad.yaml:9:50:", "expected a finite number"},
      {"motion and velocity",
       g + "contact:\n  obstacles: [{type: plane, velocity: [1, 0, 0], motion: {table: [[0, 0, 0, "
           "0]]}}]\n",
       "bad.yaml:9:58:", "give either motion or velocity"},
      {"rotation_center alone",
       g + "contact:\n  obstacles: [{type: plane, rotation_center: [0, 0, 0]}]\n",
       "bad.yaml:9:46:", "rotation_center needs angular_velocity"},
      {"motion file missing",
       g + "contact:\n  obstacles: [{type: plane, motion: {file: none.csv}}]\n",
       "bad.yaml:9:44:", "not found"},
  };
  expect_errors(cases);
  // CSV errors name the CSV file's line and column.
  const std::string dir = ::testing::TempDir();
  std::FILE* fp = std::fopen((dir + "/bad_motion.csv").c_str(), "w");
  ASSERT_NE(fp, nullptr);
  std::fputs("t,ux,uy,uz\n0, 0, 0, 0\n1, 0, x1, 0\n", fp);
  std::fclose(fp);
  try {
    scene::load_scene_text(
        g + "contact:\n  obstacles: [{type: plane, motion: {file: bad_motion.csv}}]\n", "bad.yaml",
        dir);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad_motion.csv:3:7: "), std::string::npos) << msg;
    EXPECT_NE(msg.find("expected a number, got 'x1'"), std::string::npos) << msg;
  }
  fp = std::fopen((dir + "/bad_motion.csv").c_str(), "w");
  std::fputs("0, 0, 0, 0\n0, 0, 0, 1\n", fp);
  std::fclose(fp);
  try {
    scene::load_scene_text(
        g + "contact:\n  obstacles: [{type: plane, motion: {file: bad_motion.csv}}]\n", "bad.yaml",
        dir);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad_motion.csv:2:1: "), std::string::npos) << msg;
    EXPECT_NE(msg.find("times must increase"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace tlfea

namespace tlfea {
namespace {

// The simplest scene of a soft block on a slope (examples/
// block_on_slope_settled.yaml without time.settle: point law, nodal damping
// masses, full gravity from t = 0, every contact setting at its default).
// Released at t = 0 it slid 1.03 times the free kinetic slide in 0.6 s;
// bodies that start in contact under constant gravity are now settled by
// default (docs/scene.md "time"). Compared with the closed forms: below the
// friction angle (tan a = 0.22 < mu_s = 0.25) the centre of mass moves less
// than 1 % of the free kinetic slide g (sin a - mu_k cos a) t^2 / 2; above
// it (tan a = 0.26) it slides within 3 % of it (measured 0 and 0.979).
std::string slope_scene(Real tan_alpha, const std::string& settle) {
  const Real a = std::atan(tan_alpha);
  char g[128];
  std::snprintf(g, sizeof g, "[%.10g, 0.0, %.10g]", 9.81 * std::sin(a), -9.81 * std::cos(a));
  return std::string("gravity: ") + g + "\ntime: {dt: 1.0e-4, end_time: 0.6" + settle +
         "}\n"
         "bodies:\n"
         "  - name: block\n"
         "    element: Q27\n"
         "    mesh: {generator: box, lengths: [0.1, 0.1, 0.1], divisions: [2, 2, 2], origin: "
         "[-0.05, -0.05, 0.0]}\n"
         "    material: {model: svk, E: 1.0e7, nu: 0.3}\n"
         "    density: 1000\n"
         "contact:\n"
         "  law: point\n"
         "  restitution: 0.5\n"
         "  mu_s: 0.25\n"
         "  mu_k: 0.2\n"
         "  contact_radius: 0.05\n"
         "  obstacles:\n"
         "    - {type: plane, point: [0, 0, 0], normal: [0, 0, 1]}\n";
}

// Slide of the centre of mass along x over the scene's run, over the free
// kinetic slide.
Real slide_ratio(Real tan_alpha) {
  Scene s = scene::load_scene_text(slope_scene(tan_alpha, ""), "slope.yaml", ".");
  EXPECT_TRUE(s.settle_auto);
  EXPECT_GT(s.settle.duration, 0.0);
  TimeStepper st(*s.model, s.settings);
  s.attach_contact(st);
  st.settle(s.settle);
  s.apply_initial_state(st);
  const CoefView rest("rest", s.model->num_coefficients());
  const Real x0 = s.model->body_motion(0, st.positions(), rest).center_of_mass[0];
  for (long n = 0; n < s.steps; ++n) st.step();
  const Real x1 = s.model->body_motion(0, st.positions(), rest).center_of_mass[0];
  const Real a = std::atan(tan_alpha), t = st.time();
  const Real free = 0.5 * 9.81 * (std::sin(a) - 0.2 * std::cos(a)) * t * t;
  std::printf("[naive slope] tan a = %.2f: moved %.4e m, free kinetic slide %.4e m (ratio %.4f)\n",
              tan_alpha, x1 - x0, free, (x1 - x0) / free);
  return (x1 - x0) / free;
}

TEST(SceneContact, BlockStartingInContactIsSettledByDefaultAndStays) {
  EXPECT_LT(std::fabs(slide_ratio(0.22)), 0.01);
}

TEST(SceneContact, BlockStartingInContactSettledByDefaultSlidesAboveFrictionAngle) {
  EXPECT_NEAR(slide_ratio(0.26), 1.0, 0.03);
}

TEST(SceneContact, DefaultSettleOffWithTimeSettleZeroAndNotWithoutContactAtStart) {
  const Scene off = scene::load_scene_text(slope_scene(0.22, ", settle: 0"), "s.yaml", ".");
  EXPECT_FALSE(off.settle_auto);
  EXPECT_EQ(off.settle.duration, 0.0);
  const Scene f = scene::load_scene_text(slope_scene(0.22, ", settle: false"), "s.yaml", ".");
  EXPECT_EQ(f.settle.duration, 0.0);
  // Lifted 1 cm above the plane: no contact at t = 0, no settle.
  std::string lifted = slope_scene(0.22, "");
  lifted.replace(lifted.find("origin: [-0.05, -0.05, 0.0]"), 27, "origin: [-0.05, -0.05, 0.01]");
  const Scene l = scene::load_scene_text(lifted, "s.yaml", ".");
  EXPECT_FALSE(l.settle_auto);
  EXPECT_EQ(l.settle.duration, 0.0);
}

}  // namespace
}  // namespace tlfea
