// Static solves for the validation tests (test_static_limits.cpp,
// test_shell_plates.cpp), through the library's static analysis
// (tlfea::solve_static, docs/theory.md §6.10): load functions see a
// pseudo-time t in [0, 1], so a load carrying load_ramp() grows linearly
// with the increments and reaches its full value at the last one.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea::test {

// Load amplitude over the pseudo-time of a static analysis: t at t <= 1.
inline TimeFunction load_ramp() {
  return [](Real t) { return std::min(1.0, t); };
}

using tlfea::StaticSolution;

// Static equilibrium under the model's loads, reached in `increments` equal
// increments with the library's default static settings (Newton with the
// directional line search, increment halving on failure).
// `backend`: the solids use "eigen-ldlt" (AMD-ordered); Debian's Tacho has no
// METIS, its analysis keeps the natural order, and the 19,683-unknown T10 bar
// then takes minutes to factor. The ANCF systems (< 1024 rows) go to Tacho's
// dense LAPACK path.
inline StaticSolution static_equilibrium(Model& model, int increments,
                                         const std::string& backend = "default") {
  StepperSettings s;
  s.linear.backend = backend;
  return tlfea::solve_static(model, increments, s);  // throws (test fails) on failure
}

}  // namespace tlfea::test
