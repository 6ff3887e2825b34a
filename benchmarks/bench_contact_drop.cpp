// Contact benchmark: a drop of n x n x layers deformable cubes (Q27 or T10)
// onto a rigid ground plane, with cube-cube and cube-ground frictional
// contact. One JSON object per run (the B1 fields, docs/theory.md §A.1 and
// docs/guide/benchmarks.md) with the share of the step time spent in contact
// (detection + law).
//
//   tlfea_bench_contact_drop [--cubes-per-side N] [--layers L] [--steps S]
//                            [--dt DT] [--element q27|t10]
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>

#include "bench_common.hpp"
#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

using namespace tlfea;

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  int n = 4, layers = 4, steps = 100;
  Real dt = 1e-4;
  std::string element = "q27";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "tlfea_bench_contact_drop: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--cubes-per-side")
      n = std::atoi(next().c_str());
    else if (a == "--layers")
      layers = std::atoi(next().c_str());
    else if (a == "--steps")
      steps = std::atoi(next().c_str());
    else if (a == "--dt")
      dt = std::atof(next().c_str());
    else if (a == "--element")
      element = next();
    else if (a == "--help" || a == "-h") {
      std::printf(
          "usage: tlfea_bench_contact_drop [--cubes-per-side N] [--layers L] [--steps S] [--dt DT] "
          "[--element q27|t10]\n");
      return 0;
    } else {
      std::fprintf(stderr, "tlfea_bench_contact_drop: unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (n < 1 || layers < 1 || steps < 1 || !(dt > 0) || (element != "q27" && element != "t10")) {
    std::fprintf(stderr, "tlfea_bench_contact_drop: invalid arguments\n");
    return 2;
  }
  try {
    const ElementType type = element == "q27" ? ElementType::Q27 : ElementType::T10;
    const Real a = 0.1, gap = 0.02, lift = 0.002;  // edge, side spacing, drop gaps [m]
    Model model;
    std::vector<Mesh> meshes;
    for (int l = 0; l < layers; ++l)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          // Odd layers are shifted by half a cube so the cubes land on edges.
          const Real sx = (l % 2) * 0.5 * a;
          meshes.push_back(
              generate_box(type, {a, a, a}, {2, 2, 2},
                           {i * (a + gap) + sx, j * (a + gap), lift + l * (a + lift)}));
          model.add_body(meshes.back(), MaterialSpec::svk(1e7, 0.3), 1000.0);
        }
    model.set_gravity({{0.0, 0.0, -9.81}});
    model.finalize();
    auto det = std::make_shared<ContactDetection>();
    for (int b = 0; b < model.num_bodies(); ++b)
      det->add_body(b, meshes[b], model.coefficient_offset(b), 0.05);
    det->add_obstacle(Obstacle::plane({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 1.0}}));
    det->setup();
    auto cf = std::make_shared<ContactForces>();
    std::vector<ContactMaterial> mats(model.num_bodies(), ContactMaterial{1e7, 0.3});
    cf->setup(row_sum_lumped_mass(model.pattern(), model.mass_values()), mats,
              {ContactMaterial{std::numeric_limits<Real>::infinity(), 0.0}}, ContactPairSettings{});
    long max_contacts = 0;
    auto step_force = make_step_force(
        [&](Real t, const CoefView& q, const CoefView& v, Real h, const CoefView& f) {
          det->detect(q, t);
          cf->compute(det->points(), q, v, h, f, t);
          max_contacts = std::max<long>(max_contacts, cf->active_contacts());
        });
    StepperSettings s;
    s.dt = dt;
    TimeStepper stepper(model, s);
    stepper.add_step_force(step_force);
    long newton = 0, outer = 0, factorizations = 0;
    double assembly = 0, factorization = 0, solve = 0, contact = 0;
    Kokkos::fence();
    const double t0 = bench::now();
    for (int k = 0; k < steps; ++k) {
      const StepReport r = stepper.step();
      newton += r.newton_iterations;
      outer += r.outer_iterations;
      factorizations += r.factorizations;
      assembly += r.assembly_s;
      factorization += r.factorization_s;
      solve += r.solve_s;
      contact += r.step_force_s;
    }
    Kokkos::fence();
    const double wall = bench::now() - t0;
    bench::Json j;
    j.str("case", "contact_drop")
        .str("element", to_string(type))
        .integer("bodies", model.num_bodies())
        .integer("unknowns", 3LL * model.num_coefficients())
        .integer("triangles", det->surface().num_triangles())
        .integer("steps", steps)
        .num("dt", dt)
        .num("wall_s", wall)
        .num("s_per_step", wall / steps)
        .num("real_time_factor", wall / (steps * dt))
        .integer("newton_iterations", newton)
        .integer("outer_iterations", outer)
        .integer("factorizations", factorizations)
        .integer("max_active_contacts", max_contacts)
        .raw("time_breakdown", "{\"assembly_s\": " + std::to_string(assembly) +
                                   ", \"factorization_s\": " + std::to_string(factorization) +
                                   ", \"solve_s\": " + std::to_string(solve) + ", \"contact_s\": " +
                                   std::to_string(contact) + ", \"output_s\": 0}")
        .num("contact_share", contact / wall)
        .num("peak_rss_mib", tlfea::peak_memory_mib());
    bench::add_config(j).print();
  } catch (const Error& e) {
    std::fprintf(stderr, "tlfea_bench_contact_drop: %s\n", e.what());
    return 1;
  }
  return 0;
}
