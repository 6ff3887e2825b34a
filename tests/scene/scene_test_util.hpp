// Shared helpers of the scene tests: host copies, relative differences, and
// the bad-input cases (a good base scene, one-token edits, expected
// "FILE:LINE:COLUMN:" prefixes).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tlfea/constraints/material_point.hpp"
#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/scene/scene.hpp"

namespace tlfea::scene_test {

inline CoefViewHost host(const CoefView& v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

// Largest |a - b| over all coefficients, relative to the largest |b|.
inline Real relative_difference(const CoefView& a, const CoefView& b) {
  auto ha = host(a), hb = host(b);
  EXPECT_EQ(ha.extent(0), hb.extent(0));
  Real d = 0.0, m = 0.0;
  for (size_t k = 0; k < ha.extent(0) && k < hb.extent(0); ++k)
    for (int c = 0; c < 3; ++c) {
      d = std::max(d, std::fabs(ha(k, c) - hb(k, c)));
      m = std::max(m, std::fabs(hb(k, c)));
    }
  return d / m;
}

// ---------------------------------------------------------------- bad input
// Each case: the exact "FILE:LINE:COLUMN:" prefix of the offending node (line
// and column 1-based, counted in the text below: column = Python's
// line.index(token) + 1) and a word of the message.
struct BadCase {
  const char* name;
  std::string text;
  const char* where;
  const char* says;
};

inline const char* kGood = R"(time: {dt: 1.0e-3, steps: 2}
bodies:
  - name: cube
    element: T10
    mesh: {generator: box, lengths: [0.1, 0.1, 0.1], divisions: [1, 1, 1]}
    material: {model: svk, E: 1.0e6, nu: 0.3}
    density: 1000
)";

inline std::string replace(std::string s, const std::string& a, const std::string& b) {
  const size_t p = s.find(a);
  EXPECT_NE(p, std::string::npos) << a;
  if (p != std::string::npos) s.replace(p, a.size(), b);
  return s;
}

inline void expect_errors(const std::vector<BadCase>& cases) {
  for (const auto& c : cases) {
    try {
      scene::load_scene_text(c.text, "bad.yaml", ".");
      ADD_FAILURE() << c.name << ": no error";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind(c.where, 0), 0u) << c.name << ": " << msg;
      EXPECT_NE(msg.find(c.says), std::string::npos) << c.name << ": " << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << c.name << ": one line: " << msg;
    }
  }
}

}  // namespace tlfea::scene_test
