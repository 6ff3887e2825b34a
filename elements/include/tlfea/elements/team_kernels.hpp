// TLFEA: internal-force and tangent loops shaped for GPUs: one Kokkos team per
// element, the per-point constitutive data in team scratch memory, and no
// element matrix held by one thread (docs/theory.md §3.12).
//
// The one-thread-per-element loops (range_kernels.hpp) hold the element matrix on the stack: n x n
// x 9 doubles, 52 KB for Q27, 18 KB for ANCF 3443, 7 KB for T10. On a GPU that spills to local
// memory and leaves few threads resident. Here:
//  phase 0: the team gathers the element coefficients x_e (and v_e) into
//           scratch;
//  phase 1: the team's threads split the quadrature points (every set of the
//           law: the full rule, and the reduced rule of the ANCF Poisson
//           split); each computes F (and Fdot) at its point and stores the
//           weighted first Piola stress dV P (force) or the weighted tangent
//           C = alpha_K dV dP/dF + alpha_D dV dP/dFdot (9 x 9) in scratch;
//  phase 2: the threads split the outputs. Force: the pairs (node i,
//           direction a), f_ia = sum_p P_p(a, B) h_iB. Tangent: the entries
//           (block (i, j), a, c), K_ij[a][c] = sum_p C_p[3a+B][3c+D] h_iB h_jD,
//           j >= i for the symmetric (elastic) tangents, the entry then also
//           added at its mirror (j, i, c, a). Each thread holds one scalar
//           accumulator and scatters it itself (scatter_add with the add mode
//           of the launch helper, atomics on GPUs).
// Same points, weights, gradients and laws (the point laws of
// point_laws.hpp) as the range loops: the results agree to round-off, only
// the order of the sums differs. Which shape runs where is chosen in one
// place, default_kernel_shapes (scatter_policy.hpp).
#pragma once

#include "tlfea/elements/point_laws.hpp"

namespace tlfea {

namespace detail {

using TeamMember = Kokkos::TeamPolicy<ExecSpace>::member_type;
using ScratchReals =
    Kokkos::View<Real*, ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// Total point count over the sets, and (set, point) of a flat point index.
template <class E, int nsets>
KOKKOS_INLINE_FUNCTION int total_points(const PointSet<E> (&set)[nsets]) {
  int np = 0;
  for (int k = 0; k < nsets; ++k) np += set[k].np;
  return np;
}
template <class E, int nsets>
KOKKOS_INLINE_FUNCTION void point_of(const PointSet<E> (&set)[nsets], int flat, int& k, int& p) {
  k = 0;
  while (k + 1 < nsets && flat >= set[k].np) flat -= set[k++].np;
  p = flat;
}

// x_e into scratch, xs[3 * i + a] = x(conn(e, i), a), split over the team.
template <class E>
KOKKOS_INLINE_FUNCTION void team_gather(const TeamMember& m, const ElementGeometry<E>& g,
                                        const CoefView& x, Ordinal e, Real* xs) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(m, 3 * E::n),
                       [&](const int t) { xs[t] = x(g.conn(e, t / 3), t % 3); });
}

// F = sum_i x_i (x) h_i at point p of set ps, x from scratch
// (point_law_core.hpp deformation_gradient).
template <class E>
KOKKOS_INLINE_FUNCTION Mat3 team_gradient(const PointSet<E>& ps, Ordinal e, int p, const Real* xs) {
  Mat3 F;
  point::deformation_gradient<E::n>([&](int i, int a) { return xs[3 * i + a]; },
                                    [&](int i, int k) { return ps.H(e, p, i, k); }, F.m);
  return F;
}

// Phase 0: x_e (and, for a viscous law, v_e at xs + 3n) into scratch, then a
// team barrier.
template <class E, bool viscous>
KOKKOS_INLINE_FUNCTION void team_gather_state(const TeamMember& m, const ElementGeometry<E>& g,
                                              const CoefView& q, const CoefView& v, Ordinal e,
                                              Real* xs) {
  team_gather(m, g, q, e, xs);
  if constexpr (viscous) team_gather(m, g, v, e, xs + 3 * E::n);
  m.team_barrier();
}

// F (and Fdot for a viscous law, else 0) at point p of set ps, from the
// scratch state of team_gather_state.
template <class E, bool viscous>
KOKKOS_INLINE_FUNCTION void team_kinematics(const PointSet<E>& ps, Ordinal e, int p, const Real* xs,
                                            Mat3& F, Mat3& Fdot) {
  F = team_gradient(ps, e, p, xs);
  Fdot = zero3();
  if constexpr (viscous) Fdot = team_gradient(ps, e, p, xs + 3 * E::n);
}

// Block (i, j) of the b-th block of the upper triangle (row-major, j >= i).
KOKKOS_INLINE_FUNCTION void upper_block(int n, int b, int& i, int& j) {
  i = 0;
  while (b >= n - i) b -= n - i++;
  j = i + b;
}

}  // namespace detail

// f_i += sum_sets sum_p P(F, Fdot) h_i dV (as RangeInternalForceFunctor). Launched with
// for_each_element_team, which calls operator()(member, e) once per element.
template <class E, class Law, int nsets>
struct TeamInternalForceFunctor : PointSetLoop<E, Law, nsets> {
  CoefView f;

  static constexpr int nx = 3 * E::n * (Law::viscous ? 2 : 1);
  // Scratch reals per team: x_e (and v_e), then 9 per point.
  KOKKOS_INLINE_FUNCTION int scratch_reals() const {
    return nx + 9 * detail::total_points(this->set);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const detail::TeamMember& m, const Ordinal e) const {
    detail::ScratchReals s(m.team_scratch(0), scratch_reals());
    Real* xs = s.data();
    Real* Ps = xs + nx;
    detail::team_gather_state<E, Law::viscous>(m, this->g, this->q, this->v, e, xs);
    const int np = detail::total_points(this->set);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, np), [&](const int t) {
      int k, p;
      detail::point_of(this->set, t, k, p);
      Mat3 F, Fdot;
      detail::team_kinematics<E, Law::viscous>(this->set[k], e, p, xs, F, Fdot);
      const Mat3 P = this->set[k].dV(e, p) * this->law.stress(k, F, Fdot);
      for (int r = 0; r < 9; ++r) Ps[9 * t + r] = P.m[r];
    });
    m.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, 3 * E::n), [&](const int t) {
      const int i = t / 3, a = t % 3;
      Real fi = 0.0;
      int flat = 0;
      for (int k = 0; k < nsets; ++k)
        for (int p = 0; p < this->set[k].np; ++p, ++flat) {
          const Real* P = Ps + 9 * flat + 3 * a;
          fi += P[0] * this->set[k].H(e, p, i, 0) + P[1] * this->set[k].H(e, p, i, 1) +
                P[2] * this->set[k].H(e, p, i, 2);
        }
      scatter_add(this->plain, f(this->g.conn(e, i), a), fi);
    });
    m.team_barrier();  // scratch free for the team's next element
  }
};

// values += alpha_K K + alpha_D D, K_ij[a][c] = sum_p C_p[3a+B][3c+D] h_iB
// h_jD (as RangeTangentFunctor).
template <class E, class Law, int nsets>
struct TeamTangentFunctor : PointSetTangentLoop<E, Law, nsets> {
  static constexpr bool symmetric = !Law::viscous;
  static constexpr int nx = 3 * E::n * (Law::viscous ? 2 : 1);
  static constexpr int nblocks = symmetric ? E::n * (E::n + 1) / 2 : E::n * E::n;
  // Scratch reals per team: x_e (and v_e), then 81 per point (ANCF 3443
  // with the Poisson split, the largest: 48 points, 31 KB).
  KOKKOS_INLINE_FUNCTION int scratch_reals() const {
    return nx + 81 * detail::total_points(this->set);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const detail::TeamMember& m, const Ordinal e) const {
    const int np = detail::total_points(this->set);
    detail::ScratchReals s(m.team_scratch(0), scratch_reals());
    Real* xs = s.data();
    Real* Cs = xs + nx;
    detail::team_gather_state<E, Law::viscous>(m, this->g, this->q, this->v, e, xs);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, np), [&](const int t) {
      int k, p;
      detail::point_of(this->set, t, k, p);
      Mat3 F, Fdot;
      detail::team_kinematics<E, Law::viscous>(this->set[k], e, p, xs, F, Fdot);
      const Real dV = this->set[k].dV(e, p);
      Tangent C;
      this->law.tangent(k, F, Fdot, this->alpha_K * dV, this->alpha_D * dV, C);
      for (int r = 0; r < 9; ++r)
        for (int c = 0; c < 9; ++c) Cs[81 * t + 9 * r + c] = C.a[r][c];
    });
    m.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, 9 * nblocks), [&](const int t) {
      const int b = t / 9, a = (t % 9) / 3, c = t % 3;
      int i, j;
      if constexpr (symmetric)
        detail::upper_block(E::n, b, i, j);
      else {
        i = b / E::n;
        j = b % E::n;
      }
      // Blocks outside the pattern have offset -1 (and are skipped).
      const Offset off = this->offsets(e, i, j);
      const Offset offT = symmetric && j != i ? this->offsets(e, j, i) : Offset(-1);
      if (off < 0 && offT < 0) return;
      Real kij = 0.0;
      int flat = 0;
      for (int k = 0; k < nsets; ++k)
        for (int p = 0; p < this->set[k].np; ++p, ++flat) {
          const Real* C = Cs + 81 * flat + 27 * a + 3 * c;  // C[3a+B][3c+D] = C[27a+9B+3c+D]
          const Real hi[3] = {this->set[k].H(e, p, i, 0), this->set[k].H(e, p, i, 1),
                              this->set[k].H(e, p, i, 2)};
          const Real hj[3] = {this->set[k].H(e, p, j, 0), this->set[k].H(e, p, j, 1),
                              this->set[k].H(e, p, j, 2)};
          for (int B = 0; B < 3; ++B)
            kij += hi[B] * (C[9 * B] * hj[0] + C[9 * B + 1] * hj[1] + C[9 * B + 2] * hj[2]);
        }
      if (off >= 0)
        scatter_add(this->plain,
                    this->values(off + a * this->block_row_length(this->g.conn(e, i)) + c), kij);
      // Elastic: K_ji = K_ij^T (major symmetry), entry (c, a) of block (j, i).
      if (offT >= 0)
        scatter_add(this->plain,
                    this->values(offT + c * this->block_row_length(this->g.conn(e, j)) + a), kij);
    });
    m.team_barrier();  // scratch free for the team's next element
  }
};

}  // namespace tlfea
