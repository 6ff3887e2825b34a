// Static solves for the validation tests (test_static_limits.cpp,
// test_shell_plates.cpp).
//
// A static solve is a backward-Euler step with a very large h from rest:
// g = M (v - v_n)/h + f_int(q_n + h v) - f_ext, so with dq = h v the inertia
// term is M dq / h^2, at most 1 / (omega_1 h)^2 ~ 1e-9 of the stiffness term
// at h = 1e6 s (omega_1 >= 0.03 rad/s for every model in
// test_static_limits.cpp, the softest being the B3 strip; check it for a new
// model): Newton then solves f_int(q) = f_ext. Nonlinear cases take several
// such steps while the load amplitude ramps linearly (load_ramp); with equal
// increments the stepper's initial guess v = v_n is the linear extrapolation
// of the load path.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tlfea/solvers/time_stepper.hpp"

namespace tlfea::test {

constexpr Real kStaticDt = 1e6;  // s; see the file comment

// Load amplitude of a ramp over `increments` static steps: the load at
// t_{n+1} = i h is i / increments of the full load.
inline TimeFunction load_ramp(int increments) {
  const Real T = increments * kStaticDt;
  return [T](Real t) { return std::min(1.0, t / T); };
}

struct StaticSolution {
  CoefViewHost q;
  int newton_iterations = 0;
};

// Static equilibrium under the model's loads, reached in `increments` large
// steps (the loads carry load_ramp(increments)); every step must converge
// (the stepper throws otherwise).
//
// Plain Newton, line_search = false: the stepper's backtracking on |g| takes
// the shortest trial step (alpha = 1/128) when no trial decreases |g|, and for
// these slender structures the full Newton step often raises |g| (membrane
// residuals of the linear predictor) while landing in the quadratic basin.
// With the line search the B3 strip does not converge in 60 iterations from
// the reference under 1/8 (or 1/50) of its load, and takes ~36 sawtooth
// iterations per 1/100 increment; without it, 8 increments of ~11 iterations.
// `backend`: the solids use "eigen-ldlt" (AMD-ordered); Debian's Tacho has no
// METIS, its analysis keeps the natural order, and the 19,683-unknown T10 bar
// then takes minutes to factor. The ANCF systems (< 1024 rows) go to Tacho's
// dense LAPACK path.
inline StaticSolution solve_static(Model& model, int increments,
                                   const std::string& backend = "default") {
  StepperSettings s;
  s.dt = kStaticDt;
  s.max_newton = 40;
  s.max_retries = 0;  // halving h does not change a static problem
  s.line_search = false;
  s.linear.backend = backend;
  TimeStepper stepper(model, s);
  StaticSolution out;
  for (int i = 1; i <= increments; ++i) {
    const StepReport r = stepper.step();
    EXPECT_TRUE(r.converged) << "load increment " << i;
    out.newton_iterations += r.newton_iterations;
  }
  out.q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
  return out;
}

}  // namespace tlfea::test
