// Scene files: every kind of bad input gives one "FILE:LINE:COLUMN: message"
// error at the offending key, including sizes beyond memory and values out
// of their physical range.
#include "scene_test_util.hpp"

namespace tlfea {
namespace {

using namespace scene_test;
using scene::Scene;
using scene::TimeFunctionSpec;

TEST(SceneErrors, GoodBaseParses) {
  Scene s = scene::load_scene_text(kGood, "good.yaml", ".");
  EXPECT_EQ(s.bodies.size(), 1u);
  EXPECT_EQ(s.steps, 2);
  // 1 cell, 6 tetrahedra: 3 x 3 x 3 = 27 nodes, all free.
  EXPECT_EQ(s.unknowns(), 81);
}

// time.integrator and time.rho_inf reach StepperSettings; absent: backward
// Euler (the default of docs/scene.md), rho_inf 0.8.
TEST(SceneErrors, IntegratorKeys) {
  const std::string g = kGood;
  const Scene d = scene::load_scene_text(g, "good.yaml", ".");
  EXPECT_EQ(d.settings.integrator, TimeIntegrator::backward_euler);
  EXPECT_EQ(d.settings.rho_inf, 0.8);
  const Scene a = scene::load_scene_text(
      replace(g, "steps: 2}", "steps: 2, integrator: generalized_alpha, rho_inf: 0.6}"), "a.yaml",
      ".");
  EXPECT_EQ(a.settings.integrator, TimeIntegrator::generalized_alpha);
  EXPECT_EQ(a.settings.rho_inf, 0.6);
}

// solver.coarse, coarse_aggregate_size and cg_budget reach
// LinearSolverOptions; absent: none, 0 (automatic) and true (docs/scene.md).
TEST(SceneErrors, KrylovSolverKeys) {
  const std::string g = kGood;
  const Scene d = scene::load_scene_text(g, "good.yaml", ".");
  EXPECT_EQ(d.settings.linear.coarse, "none");
  EXPECT_EQ(d.settings.linear.coarse_aggregate_size, 0);
  EXPECT_TRUE(d.settings.linear.cg_budget);
  const Scene k = scene::load_scene_text(
      g + "solver: {linear_solver: kk-cg, coarse: rigid-body, coarse_aggregate_size: 16, "
          "cg_budget: false}\n",
      "k.yaml", ".");
  EXPECT_EQ(k.settings.linear.coarse, "rigid-body");
  EXPECT_EQ(k.settings.linear.coarse_aggregate_size, 16);
  EXPECT_FALSE(k.settings.linear.cg_budget);
}

// time.settle: a duration, or {duration, ramp, kinetic_damping}; absent: no
// settle (duration 0).
TEST(SceneErrors, SettleForms) {
  const std::string g = kGood;
  EXPECT_EQ(scene::load_scene_text(g, "good.yaml", ".").settle.duration, 0.0);
  Scene a =
      scene::load_scene_text(replace(g, "steps: 2}", "steps: 2, settle: 0.25}"), "a.yaml", ".");
  EXPECT_EQ(a.settle.duration, 0.25);
  EXPECT_LT(a.settle.ramp, 0.0);  // the default: half the duration
  EXPECT_TRUE(a.settle.kinetic_damping);
  Scene b = scene::load_scene_text(
      replace(g, "steps: 2}",
              "steps: 2, settle: {duration: 0.3, ramp: 0.1, kinetic_damping: false}}"),
      "b.yaml", ".");
  EXPECT_EQ(b.settle.duration, 0.3);
  EXPECT_EQ(b.settle.ramp, 0.1);
  EXPECT_FALSE(b.settle.kinetic_damping);
}

TEST(SceneErrors, EachCaseNamesFileLineColumn) {
  const std::string g = kGood;
  const std::vector<BadCase> cases = {
      {"unknown key", replace(g, "    density: 1000\n", "    density: 1000\n    colour: red\n"),
       "bad.yaml:8:5:", "unknown key 'colour'"},
      {"unknown top key", g + "solver_settings: {}\n", "bad.yaml:8:1:", "unknown key"},
      {"missing required", replace(g, "    density: 1000\n", ""),
       "bad.yaml:3:5:", "missing required key 'density'"},
      // A misspelt required key is reported as the unknown key it is, at its
      // own position (kGood's line 7: "    density: 1000").
      {"misspelt required", replace(g, "    density: 1000\n", "    densty: 1000\n"),
       "bad.yaml:7:5:", "unknown key 'densty' in "},
      {"misspelt required, suggestion", replace(g, "    density: 1000\n", "    densty: 1000\n"),
       "bad.yaml:7:5:", "(did you mean 'density'?)"},
      {"wrong type", replace(g, "dt: 1.0e-3", "dt: fast"), "bad.yaml:1:12:", "expected a number"},
      {"wrong type vector", replace(g, "lengths: [0.1, 0.1, 0.1]", "lengths: 0.1"),
       "bad.yaml:5:37:", "list of 3 numbers"},
      {"unknown material", replace(g, "model: svk", "model: rubber"),
       "bad.yaml:6:23:", "unknown name 'rubber'"},
      {"unknown element", replace(g, "element: T10", "element: T4"),
       "bad.yaml:4:14:", "unknown name 'T4'"},
      {"unknown inner solver", g + "solver: {inner: lbfgs}\n",
       "bad.yaml:8:17:", "unknown name 'lbfgs'"},
      {"unknown linear solver", g + "solver: {linear_solver: mumps}\n",
       "bad.yaml:8:25:", "unknown name 'mumps'"},
      // The names of scene/src/settings.cpp's preconditioner choice.
      {"unknown preconditioner", g + "solver: {preconditioner: gauss-seidel}\n", "bad.yaml:8:26:",
       "solver.preconditioner: unknown name 'gauss-seidel' (expected one of: default, none, "
       "jacobi, block-jacobi, sgs, ilu0, ilu, muelu)"},
      {"unknown joint type",
       g + "joints: [{type: hinge, body_i: cube, point: [0, 0, 0], axis: [0, 1, 0]}]\n",
       "bad.yaml:8:17:", "unknown name 'hinge'"},
      {"unknown body in joint", g + "joints: [{type: spherical, body_i: box, point: [0, 0, 0]}]\n",
       "bad.yaml:8:36:", "unknown body 'box'"},
      {"missing mesh file",
       replace(g, "{generator: box, lengths: [0.1, 0.1, 0.1], divisions: [1, 1, 1]}",
               "{file: no_such_mesh.msh}"),
       "bad.yaml:5:18:", "not found"},
      {"joint point outside",
       g + "joints: [{type: spherical, body_i: cube, point: [0.5, 0.05, 0.05]}]\n",
       "bad.yaml:8:49:", "outside body 'cube'"},
      {"zero dt", replace(g, "dt: 1.0e-3", "dt: 0"), "bad.yaml:1:12:", "time.dt must be positive"},
      {"negative dt", replace(g, "dt: 1.0e-3", "dt: -1.0e-3"),
       "bad.yaml:1:12:", "time.dt must be positive"},
      {"unknown node set",
       replace(g, "    density: 1000\n", "    density: 1000\n    clamp: [{set: left}]\n"),
       "bad.yaml:8:19:", "unknown node set 'left'"},
      {"yaml syntax", replace(g, "steps: 2}", "steps: 2"), "bad.yaml:", "YAML syntax error"},
      // time.settle (docs/scene.md "time"): at the offending value or key.
      {"negative settle", replace(g, "steps: 2}", "steps: 2, settle: -1}"),
       "bad.yaml:1:38:", "time.settle must be positive"},
      {"settle ramp longer than it",
       replace(g, "steps: 2}", "steps: 2, settle: {duration: 0.1, ramp: 0.2}}"),
       "bad.yaml:1:60:", "time.settle.ramp (0.2 s) must be at most 3/4 of its duration (0.1 s)"},
      {"settle without duration", replace(g, "steps: 2}", "steps: 2, settle: {ramp: 0.2}}"),
       "bad.yaml:1:38:", "missing required key 'duration'"},
      {"settle unknown key",
       replace(g, "steps: 2}", "steps: 2, settle: {duration: 0.1, kinetic: false}}"),
       "bad.yaml:1:54:", "unknown key 'kinetic'"},
      {"settle in a static analysis",
       "analysis: static\n" + replace(g, "steps: 2}", "steps: 2, settle: 0.1}"),
       "bad.yaml:2:38:", "a static analysis (analysis: static) solves for equilibrium itself"},
      // time.integrator / time.rho_inf (docs/scene.md "time").
      {"unknown integrator", replace(g, "steps: 2}", "steps: 2, integrator: bdf2}"),
       "bad.yaml:1:42:",
       "unknown name 'bdf2' (expected one of: backward_euler, generalized_alpha)"},
      {"rho_inf above 1",
       replace(g, "steps: 2}", "steps: 2, integrator: generalized_alpha, rho_inf: 1.5}"),
       "bad.yaml:1:70:", "time.rho_inf must be in [0, 1], got 1.5"},
      {"rho_inf without generalized alpha", replace(g, "steps: 2}", "steps: 2, rho_inf: 0.5}"),
       "bad.yaml:1:39:", "time.rho_inf is a parameter of time.integrator: generalized_alpha"},
      {"generalized alpha in a static analysis",
       "analysis: static\n" + replace(g, "steps: 2}", "steps: 2, integrator: generalized_alpha}"),
       "bad.yaml:2:42:", "generalized_alpha integrates a dynamic analysis"},
      {"unknown contact law", g + "contact: {law: hertz}\n",
       "bad.yaml:8:16:", "unknown name 'hertz'"},
      {"negative self-contact radius", g + "contact: {self_contact_radius: -1}\n",
       "bad.yaml:8:32:", "self_contact_radius must be >= 0"},
      // Control bytes from the input (YAML escapes \a and \r) are echoed
      // escaped, so the message stays one line.
      {"control bytes in a key", g + "\"col\\aou\\rr\": red\n",
       "bad.yaml:8:1:", "unknown key 'col\\x07ou\\x0dr'"},
      {"control bytes in a value", replace(g, "model: svk", "model: \"s\\x1bvk\""),
       "bad.yaml:6:23:", "unknown name 's\\x1bvk'"},
  };
  expect_errors(cases);
}

// gravity as {vector, function} and body names (they head the history
// columns): bad forms are refused at their key.
TEST(SceneErrors, GravityFormsAndBodyNames) {
  const std::string g = kGood;
  const std::vector<BadCase> cases = {
      {"gravity scalar", g + "gravity: 9.81\n",
       "bad.yaml:8:10:", "gravity: expected a list of 3 numbers [x, y, z] or a mapping"},
      {"gravity vector of 2", g + "gravity: {vector: [0, -9.81]}\n",
       "bad.yaml:8:19:", "gravity.vector: expected a list of 3 numbers"},
      {"gravity without vector", g + "gravity: {function: {type: ramp}}\n",
       "bad.yaml:8:10:", "gravity: missing required key 'vector'"},
      {"gravity unknown key", g + "gravity: {vector: [0, 0, -9.81], ramp: 1}\n",
       "bad.yaml:8:34:", "unknown key 'ramp' in gravity"},
      {"gravity bad function", g + "gravity: {vector: [0, 0, -9.81], function: {type: cosine}}\n",
       "bad.yaml:8:51:", "unknown name 'cosine'"},
      {"gravity ramp t1 <= t0",
       g + "gravity: {vector: [0, 0, -9.81], function: {type: ramp, t0: 1, t1: 1}}\n",
       "bad.yaml:8:44:", "ramp needs t1 > t0"},
      {"body name with a comma", replace(g, "name: cube", "name: \"cu,be\""),
       "bad.yaml:3:11:", "body name 'cu,be': use letters, digits, '_' and '-' only"},
      {"body name with a slash", replace(g, "name: cube", "name: a/b"),
       "bad.yaml:3:11:", "body name 'a/b'"},
  };
  expect_errors(cases);
}

// A repeated key in a mapping (yaml-cpp keeps both, lookups return the
// first) is refused at the second, naming the line of the first.
TEST(SceneErrors, DuplicateKeysAtAnyLevelAreRefusedAtTheSecond) {
  const std::string g = kGood;
  const std::vector<BadCase> cases = {
      {"top level", g + "time: {dt: 1.0}\n",
       "bad.yaml:8:1:", "duplicate key 'time' (first at line 1)"},
      // "time: {dt: 1.0e-3, dt: 2, steps: 2}": the second dt at column 20.
      {"flow mapping", replace(g, "dt: 1.0e-3,", "dt: 1.0e-3, dt: 2,"),
       "bad.yaml:1:20:", "duplicate key 'dt' (first at line 1)"},
      {"body in a list",
       replace(g, "    density: 1000\n", "    density: 1000\n    density: 2000\n"),
       "bad.yaml:8:5:", "duplicate key 'density' (first at line 7)"},
      // A quoted key is the same key.
      {"quoted", replace(g, "    density: 1000\n", "    density: 1000\n    \"density\": 2000\n"),
       "bad.yaml:8:5:", "duplicate key 'density' (first at line 7)"},
      // "    material: {model: svk, E: 1.0e6, nu: 0.3, E: 2.0e6}": the second E at column 47.
      {"nested flow mapping", replace(g, "nu: 0.3}", "nu: 0.3, E: 2.0e6}"),
       "bad.yaml:6:47:", "duplicate key 'E' (first at line 6)"},
      {"mapping inside a list inside a mapping",
       g + "joints: [{type: spherical, body_i: cube, point: [0, 0, 0], type: revolute}]\n",
       "bad.yaml:8:60:", "duplicate key 'type' (first at line 8)"},
  };
  expect_errors(cases);
}

// Sizes checked up front, in arithmetic that cannot overflow, against the
// machine's memory (docs/scene.md, "Limits"); never attempted.
TEST(SceneErrors, SizesBeyondMemoryOrIndexRangeAreRefusedUpFront) {
  const std::string g = kGood;
  const std::string plate =
      replace(replace(g, "element: T10", "element: ANCF3443"),
              "{generator: box, lengths: [0.1, 0.1, 0.1], divisions: [1, 1, 1]}",
              "{generator: plate, lx: 1, ly: 1, thickness: 0.01, divisions: [20000, 20000]}");
  const std::vector<BadCase> cases = {
      // Q27 pairs per axis 8 n + 1 (scene/src/size_limits.hpp): 9 (8 2147460480 + 1)(8 1431671210 +
      // 1) 9 =
      // 1.59e22 entries of 12 bytes.
      {"box divisions overflowing 64 bits",
       replace(g, "divisions: [1, 1, 1]", "divisions: [2147460480, 1431671210, 1]"),
       "bad.yaml:5:65:", "divisions needs at least 1"},
      {"box divisions: the count in the message",
       replace(g, "divisions: [1, 1, 1]", "divisions: [2147460480, 1431671210, 1]"),
       "bad.yaml:5:65:", "(matrix entries: 1.59e+22 x 12 bytes)"},
      // ANCF pairs per axis 3 n + 1: 9 16 60001^2 = 5.18e11 entries, 6221.0 GB.
      {"20000 x 20000 plate", plate,
       "bad.yaml:5:72:", "needs at least 6221.0 GB (matrix entries: 5.18e+11 x 12 bytes)"},
      {"box divisions beyond 32 bits",
       replace(g, "divisions: [1, 1, 1]", "divisions: [1, 4294967297, 1]"),
       "bad.yaml:5:69:", "4294967297 is out of range (at most 2147483647"},
      // 1e9 contact points of 768 bytes (contact_points.hpp: 9 + 3 reals, 4 ints,
      // 2 x 27 ids of 4 and weights of 8 bytes, an 8-byte key).
      {"contact capacity", g + "contact: {capacity: 1e9}\n", "bad.yaml:8:21:",
       "contact.capacity needs at least 768.0 GB (contact points: 1e+09 x 768 bytes)"},
      {"negative contact capacity", g + "contact: {capacity: -5}\n",
       "bad.yaml:8:21:", "contact.capacity must be >= 0 (0: automatic), got -5"},
      {"samples wrapping at 32 bits", g + "output: {samples: 4294967298}\n",
       "bad.yaml:8:19:", "out of range"},
  };
  expect_errors(cases);
}

// Nonsense values are an error at their
// key; the bounds are documented in docs/scene.md.
TEST(SceneErrors, ValuesOutOfTheirPhysicalRangeAreRefused) {
  const std::string g = kGood;
  const std::string svk = "{model: svk, E: 1.0e6, nu: 0.3}";
  const std::vector<BadCase> cases = {
      {"mu_k above mu_s", g + "contact: {mu_s: 0.2, mu_k: 0.3}\n",
       "bad.yaml:8:28:", "mu_k = 0.3 exceeds mu_s = 0.2"},
      {"mu_k above the default mu_s", g + "contact: {mu_k: 0.3}\n",
       "bad.yaml:8:17:", "mu_k = 0.3 exceeds mu_s = 0.25"},
      {"friction 1e6", g + "contact: {mu_s: 1e6, mu_k: 0.3}\n",
       "bad.yaml:8:17:", "contact.mu_s must be in [0, 10], got 1e+06"},
      {"negative slip distance", g + "contact: {slip_distance: -1.0e-4}\n",
       "bad.yaml:8:26:", "contact.slip_distance must be finite and >= 0"},
      {"obstacle nu 2", g + "contact: {obstacles: [{type: plane, nu: 2}]}\n",
       "bad.yaml:8:41:", "contact.obstacles[0].nu must be in (-1, 0.5), got 2"},
      {"obstacle E 0", g + "contact: {obstacles: [{type: plane, E: 0}]}\n",
       "bad.yaml:8:40:", "contact.obstacles[0].E must be positive"},
      {"obstacle E negative", g + "contact: {obstacles: [{type: plane, E: -1e7}]}\n",
       "bad.yaml:8:40:", "contact.obstacles[0].E must be positive"},
      {"negative radius", g + "contact: {radius: -1}\n",
       "bad.yaml:8:19:", "contact.radius must be >= 0"},
      {"negative max_depth", g + "contact: {max_depth: -1}\n",
       "bad.yaml:8:22:", "contact.max_depth must be >= 0"},
      {"negative contact_radius", g + "contact: {contact_radius: -1}\n",
       "bad.yaml:8:27:", "contact.contact_radius must be >= 0"},
      {"Mooney-Rivlin mu10 < 0",
       replace(g, svk, "{model: mooney_rivlin, mu10: -1.0e5, mu01: 3.0e5, kappa: 1.0e7}"),
       "bad.yaml:6:44:", "mu10 must be >= 0"},
      // nu = (3 kappa - 2 mu) / (2 (3 kappa + mu)) = -1 in floating point.
      {"kappa 1e-300", replace(g, svk, "{model: neo_hookean, mu: 1.0e6, kappa: 1e-300}"),
       "bad.yaml:6:54:", "the implied Poisson's ratio -1 is not in (-1, 0.5)"},
      {"density 1e-9", replace(g, "density: 1000", "density: 1e-9"),
       "bad.yaml:7:14:", "density 1e-09 kg/m^3 is outside [0.001, 100000] kg/m^3"},
      {"dt 1e-30 to 0.2 s",
       replace(g, "time: {dt: 1.0e-3, steps: 2}", "time: {dt: 1.0e-30, end_time: 0.2}"),
       "bad.yaml:1:31:", "is 2e+29 steps, more than 1e+09"},
      {"end_time 1e300",
       replace(g, "time: {dt: 1.0e-3, steps: 2}", "time: {dt: 1.0e-3, end_time: 1e300}"),
       "bad.yaml:1:30:", "is 1e+303 steps, more than 1e+09"},
      {"steps 1e12", replace(g, "steps: 2", "steps: 1e12"),
       "bad.yaml:1:27:", "time.steps: 1e+12 steps is more than 1e+09"},
  };
  expect_errors(cases);
  // Values at and inside the bounds still parse.
  const std::string ok =
      replace(replace(g, svk, "{model: mooney_rivlin, mu10: 0, mu01: 3.0e5, kappa: 1.0e7}"),
              "density: 1000", "density: 22590") +
      "contact: {mu_s: 10, mu_k: 10, radius: 0, max_depth: 0.001, contact_radius: 0.01,\n"
      "  obstacles: [{type: plane, E: 2.0e11, nu: 0.49}]}\n";
  Scene s = scene::load_scene_text(ok, "good.yaml", ".");
  EXPECT_EQ(s.bodies.size(), 1u);
}

// What `run` would refuse, `check` (the scene reader) refuses at the key
// too, and errors the model or the contact detection raises without a
// position point at the offending entry.
TEST(SceneErrors, SettingsRunWouldRefuseAndDuplicatesPointAtTheKey) {
  const std::string g = kGood;
  const std::string beam =
      "time: {dt: 1.0e-3, steps: 2}\n"
      "bodies:\n"
      "  - name: beam\n"
      "    mesh: {generator: beam, length: 1.0, width: 0.02, height: 0.02, elements: 4}\n"
      "    material: {model: svk, E: 7.0e9, nu: 0.33}\n"
      "    density: 2700\n";
  const std::vector<BadCase> cases = {
      {"ilu_level -5", g + "solver: {ilu_level: -5}\n",
       "bad.yaml:8:21:", "solver.ilu_level must be >= 0, got -5"},
      // RigidBodyCoarseSpace::kMinAggregateSize (linalg/src/krylov_two_level.hpp).
      {"coarse_aggregate_size 2",
       g + "solver: {linear_solver: kk-cg, coarse: rigid-body, "
           "coarse_aggregate_size: 2}\n",
       "bad.yaml:8:75:",
       "solver.coarse_aggregate_size must be 0 (automatic) or 4 to 1000000000 nodes, got 2"},
      {"coarse with a direct solver",
       g + "solver: {linear_solver: eigen-ldlt, coarse: rigid-body}\n", "bad.yaml:8:45:",
       "solver.coarse: rigid-body needs linear_solver kk-cg or kk-gmres, got "
       "eigen-ldlt"},
      {"unknown coarse", g + "solver: {linear_solver: kk-cg, coarse: deflation}\n",
       "bad.yaml:8:40:",
       "solver.coarse: unknown name 'deflation' (expected one of: none, "
       "rigid-body)"},
      // StepperSettings::krylov_iterations: 0..50 (time_stepper.hpp).
      {"krylov_iterations 60", g + "solver: {krylov_iterations: 60}\n",
       "bad.yaml:8:29:", "solver.krylov_iterations must be in 0..50 (0: refactor at once), got 60"},
      // eigen-ldlt is built everywhere (linear_solver.cpp).
      {"LDL^T without symmetry", g + "solver: {linear_solver: eigen-ldlt, symmetric: false}\n",
       "bad.yaml:8:48:", "solver.symmetric: eigen-ldlt needs a symmetric matrix"},
      {"output.every 2^32", g + "output: {every: 4294967296}\n",
       "bad.yaml:8:17:", "4294967296 is out of range"},
      {"prescribed twice by two entries", beam + "    prescribe: [{set: end1}, {nodes: [1, 4]}]\n",
       "bad.yaml:7:30:",
       "body 'beam'.prescribe[1]: node 4 is already prescribed by body 'beam'.prescribe[0]"},
      {"prescribed twice by one entry", beam + "    prescribe: [{nodes: [1, 1]}]\n",
       "bad.yaml:7:17:", "body 'beam'.prescribe[0]: selects node 1 twice"},
      {"contact body twice", g + "contact: {bodies: [cube, cube]}\n",
       "bad.yaml:8:26:", "contact.bodies: body 'cube' listed twice"},
      // A beam of 4 elements at 2^30 samples: 4 x 4 x 2^30 = 17179869184 points,
      // 72 bytes each (x, displacement, velocity) = 1237.0 GB per step.
      {"output samples beyond the index type", beam + "output: {samples: 1073741824}\n",
       "bad.yaml:7:19:",
       "output.samples: 17179869184 visualisation points per output step, more than the limit "
       "of 1e8 (1237.0 GB per step file); refused"},
      // The limit, 1e8 points per output step (samples 100000 would write
      // 538 MB for two steps): 4 x 4 x 6250001 = 100000016 points, 7.2 GB.
      {"output samples beyond 1e8 points", beam + "output: {samples: 6250001}\n", "bad.yaml:7:19:",
       "output.samples: 100000016 visualisation points per output step, more than the limit "
       "of 1e8 (7.2 GB per step file)"},
      // A plate of 1 element: 2 x 7072^2 = 100026368 points.
      {"plate samples beyond 1e8 points",
       replace(replace(g, "element: T10", "element: ANCF3443"),
               "{generator: box, lengths: [0.1, 0.1, 0.1], divisions: [1, 1, 1]}",
               "{generator: plate, lx: 1, ly: 1, thickness: 0.01, divisions: [1, 1]}") +
           "output: {samples: 7072}\n",
       "bad.yaml:8:19:", "output.samples: 100026368 visualisation points per output step"},
  };
  expect_errors(cases);
  // One step's fields estimated for the size warning of `tlfea run`:
  // 4 x 4 x 1000 points x 72 bytes (x, displacement, velocity) = 1152000.
  {
    Scene at = scene::load_scene_text(beam + "output: {samples: 1000}\n", "good.yaml", ".");
    EXPECT_EQ(at.output.step_bytes, 1152000.0);
  }
  // A clamped node may be prescribed (the prescribed motion wins).
  Scene s = scene::load_scene_text(
      beam + "    clamp: [{set: end0}]\n    prescribe: [{set: end0}]\n", "good.yaml", ".");
  EXPECT_EQ(s.model->prescribed().size(), 4u);
  EXPECT_TRUE(s.model->clamped_coefficients().empty());
}

}  // namespace
}  // namespace tlfea
