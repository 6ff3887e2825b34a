// Contact-detection benchmark: time per detection (vertex update, grid
// binning, narrow phase, output) for two Q27 boxes in contact, from about 1e3
// to 1e6 surface triangles. The element size is fixed (h = 1 cm) and the boxes
// grow (n h x n h x 2 h, n x n x 2 elements, the upper one offset by a quarter
// element and overlapping by h / 10), so a linear method shows a constant
// time per triangle. One JSON object per case.
//
//   tlfea_bench_contact_detection [--max-triangles T] [--repeat N]
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/elements/element_block.hpp"

using namespace tlfea;

namespace {

// Two boxes of n x n x 2 Q27 elements: 2 (16 n^2 + 64 n) surface triangles.
int divisions_for(double triangles) {
  return std::max(
      1,
      static_cast<int>(std::ceil((-128.0 + std::sqrt(128.0 * 128.0 + 128.0 * triangles)) / 64.0)));
}

void run_case(double target, int repeat) {
  const int n = divisions_for(target);
  const Real h = 0.01;
  const double t0 = bench::now();
  Mesh a = generate_box(ElementType::Q27, {n * h, n * h, 2 * h}, {n, n, 2});
  Mesh b = generate_box(ElementType::Q27, {n * h, n * h, 2 * h}, {n, n, 2},
                        {0.25 * h, 0.25 * h, 2 * h - 0.1 * h});
  DetectionSettings settings;
  // Contacts: about the (2n+1)^2 nodes of each contact face.
  settings.capacity = 2 * (2 * n + 1) * (2 * n + 1) + 1024;
  ContactDetection det(settings);
  det.add_body(0, a, 0);
  det.add_body(1, b, a.num_coefficients());
  CoefView q("q", a.num_coefficients() + b.num_coefficients());
  copy_reference_coefficients(a, 0, q);
  copy_reference_coefficients(b, a.num_coefficients(), q);
  det.setup();
  const double t_setup = bench::now() - t0;

  Ordinal contacts = det.detect(q, 0.0);  // warm-up
  Kokkos::fence();
  const double t1 = bench::now();
  for (int r = 0; r < repeat; ++r) contacts = det.detect(q, 0.0);
  Kokkos::fence();
  const double t_detect = (bench::now() - t1) / repeat;
  const double nt = det.surface().num_triangles();
  bench::Json j;
  j.str("case", "contact_detection_two_boxes")
      .str("element", "Q27")
      .integer("divisions", n)
      .integer("triangles", det.surface().num_triangles())
      .integer("vertices", det.surface().num_vertices())
      .integer("contacts", contacts)
      .num("cell_size", det.cell_size())
      .integer("repeat", repeat)
      .num("setup_s", t_setup)
      .num("detection_s", t_detect)
      .num("triangles_per_s", nt / t_detect)
      .num("ns_per_triangle", 1e9 * t_detect / nt)
      .num("peak_rss_mib", tlfea::peak_memory_mib());
  bench::add_config(j).print();
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  double max_triangles = 1e6;
  int repeat = 0;  // 0: about 1e7 triangles of work per case (at least 3)
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--max-triangles") && i + 1 < argc) {
      max_triangles = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
      repeat = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--max-triangles T] [--repeat N]\n", argv[0]);
      return 2;
    }
  }
  try {
    for (double t = 1e3; t <= max_triangles * 1.0001; t *= 10.0) {
      const int r = repeat > 0 ? repeat : std::max(3, static_cast<int>(1e7 / t));
      run_case(t, r);
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
