// The plain quadrature loops the library's element loops are checked against
// (tests only): one element per thread, one point at a time, the element's
// arrays on the stack, the element matrix K[i][j][9] updated at every point
// (docs/theory.md §3.8 and, for the ANCF Poisson split, §4). The library's
// loop shapes (range_kernels.hpp, team_kernels.hpp, lane_kernels.hpp) run the
// point laws of point_laws.hpp; these loops write the same integrals out
// directly from the material's P(F) and dP/dF (kernels.hpp material_stress,
// material_tangent) and the split laws (poisson_split.hpp add_split_stress,
// add_split_tangent), so an error in the loop shapes or in how the point laws
// assemble the integrand shows as a difference.
//
// reference_internal_force / reference_tangent run them for a mesh and
// material spec on a geometry built afresh (build_geometry,
// build_poisson_split_geometry), independent of the block under test.
#pragma once

#include <stdexcept>

#include "tlfea/elements/element_types.hpp"
#include "tlfea/elements/impl/element_block_impl.hpp"
#include "tlfea/elements/kernels.hpp"
#include "tlfea/elements/poisson_split.hpp"

namespace tlfea::test {

namespace detail {
using namespace ::tlfea::detail;

// Element tangent blocks Ke[i][j] (3 x 3, row-major) into the CRS values: for
// a symmetric tangent only j >= i was integrated and the lower blocks are
// mirrored first; then every (i, j) block goes to its precomputed offset.
template <class E>
KOKKOS_INLINE_FUNCTION void scatter_element_tangent(const ElementGeometry<E>& g, Ordinal e,
                                                    Real (&Ke)[E::n][E::n][9], bool symmetric,
                                                    bool plain,
                                                    const DeviceView<Offset***>& offsets,
                                                    const DeviceView<Offset*>& block_row_length,
                                                    const DeviceView<Real*>& values) {
  if (symmetric) {
    for (int i = 0; i < E::n; ++i)
      for (int j = 0; j < i; ++j)
        for (int a = 0; a < 3; ++a)
          for (int c = 0; c < 3; ++c) Ke[i][j][3 * a + c] = Ke[j][i][3 * c + a];
  }
  for (int i = 0; i < E::n; ++i) {
    const Offset len = block_row_length(g.conn(e, i));
    for (int j = 0; j < E::n; ++j) {
      const Offset off = offsets(e, i, j);
      if (off < 0) continue;
      for (int a = 0; a < 3; ++a)
        for (int c = 0; c < 3; ++c)
          scatter_add(plain, values(off + a * len + c), Ke[i][j][3 * a + c]);
    }
  }
}

}  // namespace detail

// f_i += sum_q P(F, Fdot) h_i dV.
template <class E, class M>
struct ReferenceInternalForceFunctor {
  ElementGeometry<E> g;
  M mat;
  CoefView q, v, f;
  bool plain = false;  // add mode, set by for_each_element (scatter_policy.hpp)
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    Real xe[E::n][3], ve[E::n][3], fe[E::n][3];
    detail::gather(g, q, e, xe);
    if constexpr (M::is_viscous) detail::gather(g, v, e, ve);
    for (int i = 0; i < E::n; ++i) fe[i][0] = fe[i][1] = fe[i][2] = 0.0;
    for (int p = 0; p < E::nq; ++p) {
      const Mat3 F = detail::deformation_gradient(g, e, p, xe);
      Mat3 Fdot = zero3();
      if constexpr (M::is_viscous) Fdot = detail::deformation_gradient(g, e, p, ve);
      const Mat3 P = g.dV(e, p) * material_stress(mat, F, Fdot);
      for (int i = 0; i < E::n; ++i) {
        const Real h0 = g.H(e, p, i, 0), h1 = g.H(e, p, i, 1), h2 = g.H(e, p, i, 2);
        for (int a = 0; a < 3; ++a) fe[i][a] += P(a, 0) * h0 + P(a, 1) * h1 + P(a, 2) * h2;
      }
    }
    for (int i = 0; i < E::n; ++i) {
      const Ordinal c = g.conn(e, i);
      for (int a = 0; a < 3; ++a) scatter_add(plain, f(c, a), fe[i][a]);
    }
  }
};

// values += alpha_K K + alpha_D D with
//   K_ij[a][c] = sum_q A_{aBcD} h_iB h_jD dV,  A = dP/dF,
//   D_ij[a][c] = sum_q B_{aBcD} h_iB h_jD dV,  B = dP/dFdot (Kelvin-Voigt).
template <class E, class M>
struct ReferenceTangentFunctor {
  ElementGeometry<E> g;
  M mat;
  CoefView q, v;
  DeviceView<Offset***> offsets;         // (e, i, j) -> CRS offset of block (0, 0)
  DeviceView<Offset*> block_row_length;  // scalar row length of each block row
  DeviceView<Real*> values;
  Real alpha_K = 1.0, alpha_D = 0.0;
  bool plain = false;  // add mode, set by for_each_element
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    Real xe[E::n][3], ve[E::n][3];
    Real Ke[E::n][E::n][9];
    detail::gather(g, q, e, xe);
    if constexpr (M::is_viscous) detail::gather(g, v, e, ve);
    for (int i = 0; i < E::n; ++i)
      for (int j = 0; j < E::n; ++j)
        for (int k = 0; k < 9; ++k) Ke[i][j][k] = 0.0;
    for (int p = 0; p < E::nq; ++p) {
      const Mat3 F = detail::deformation_gradient(g, e, p, xe);
      Mat3 Fdot = zero3();
      if constexpr (M::is_viscous) Fdot = detail::deformation_gradient(g, e, p, ve);
      Tangent C;
      material_tangent(mat, F, Fdot, alpha_K * g.dV(e, p), alpha_D * g.dV(e, p), C);
      for (int i = 0; i < E::n; ++i) {
        // G[a][c][D] = sum_B C_{aBcD} h_iB
        Real G[3][3][3];
        const Real h0 = g.H(e, p, i, 0), h1 = g.H(e, p, i, 1), h2 = g.H(e, p, i, 2);
        for (int a = 0; a < 3; ++a)
          for (int c = 0; c < 3; ++c)
            for (int D = 0; D < 3; ++D)
              G[a][c][D] = C.a[3 * a][3 * c + D] * h0 + C.a[3 * a + 1][3 * c + D] * h1 +
                           C.a[3 * a + 2][3 * c + D] * h2;
        // Hyperelastic tangents have major symmetry (A_aBcD = A_cDaB), so
        // K_ji = K_ij^T: only j >= i is integrated.
        for (int j = M::is_viscous ? 0 : i; j < E::n; ++j) {
          const Real k0 = g.H(e, p, j, 0), k1 = g.H(e, p, j, 1), k2 = g.H(e, p, j, 2);
          for (int a = 0; a < 3; ++a)
            for (int c = 0; c < 3; ++c)
              Ke[i][j][3 * a + c] += G[a][c][0] * k0 + G[a][c][1] * k1 + G[a][c][2] * k2;
        }
      }
    }
    detail::scatter_element_tangent<E>(g, e, Ke, !M::is_viscous, plain, offsets, block_row_length,
                                       values);
  }
};

// Functors of the split element (same contracts as ReferenceInternalForceFunctor,
// ReferenceTangentFunctor, and StrainEnergyFunctor in kernels.hpp). `viscous`: the
// Kelvin-Voigt part is present; `Base`: the law kept in full on set 0 (the
// full rule; NoBaseLaw for SVK, the hyperelastic law for MR / NH shells).
template <class E, bool viscous, class Base = NoBaseLaw>
struct ReferenceSplitInternalForceFunctor {
  ElementGeometry<E> g;
  detail::SplitPointSet<E> set[2];
  CoefView q, v, f;
  bool plain = false;  // add mode, set by for_each_element (scatter_policy.hpp)
  Base base{};
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    Real xe[E::n][3], ve[E::n][3], fe[E::n][3];
    detail::gather(g, q, e, xe);
    if constexpr (viscous) detail::gather(g, v, e, ve);
    for (int i = 0; i < E::n; ++i) fe[i][0] = fe[i][1] = fe[i][2] = 0.0;
    detail::for_each_split_point<E>(
        set, e, xe,
        [&](const int k, const detail::SplitPointSet<E>& ps, const int p, const Real(&hl)[E::n][3],
            const Mat3& F) {
          Mat3 S = zero3();
          detail::add_split_stress(ps.el, StVenantKirchhoff::green_lagrange_strain(F), S);
          if constexpr (viscous) {
            const Mat3 Fdot = detail::frame_F<E>(hl, ve);
            detail::add_split_stress(ps.vi, detail::strain_rate(F, Fdot), S);
          }
          Mat3 P = F * S;
          if constexpr (Base::present) {
            if (k == 0) P = P + base.first_piola(F);
          }
          P = ps.dV(e, p) * P;
          for (int i = 0; i < E::n; ++i) {
            const Real h0 = hl[i][0], h1 = hl[i][1], h2 = hl[i][2];
            for (int a = 0; a < 3; ++a) fe[i][a] += P(a, 0) * h0 + P(a, 1) * h1 + P(a, 2) * h2;
          }
        });
    for (int i = 0; i < E::n; ++i) {
      const Ordinal c = g.conn(e, i);
      for (int a = 0; a < 3; ++a) scatter_add(plain, f(c, a), fe[i][a]);
    }
  }
};

template <class E, bool viscous, class Base = NoBaseLaw>
struct ReferenceSplitTangentFunctor {
  ElementGeometry<E> g;
  detail::SplitPointSet<E> set[2];
  CoefView q, v;
  DeviceView<Offset***> offsets;
  DeviceView<Offset*> block_row_length;
  DeviceView<Real*> values;
  Real alpha_K = 1.0, alpha_D = 0.0;
  bool plain = false;  // add mode, set by for_each_element
  Base base{};
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    Real xe[E::n][3], ve[E::n][3];
    Real Ke[E::n][E::n][9];
    detail::gather(g, q, e, xe);
    if constexpr (viscous) detail::gather(g, v, e, ve);
    for (int i = 0; i < E::n; ++i)
      for (int j = 0; j < E::n; ++j)
        for (int k = 0; k < 9; ++k) Ke[i][j][k] = 0.0;
    detail::for_each_split_point<E>(
        set, e, xe,
        [&](const int k, const detail::SplitPointSet<E>& ps, const int p, const Real(&hl)[E::n][3],
            const Mat3& F) {
          const Real sK = alpha_K * ps.dV(e, p), sD = alpha_D * ps.dV(e, p);
          Mat3 S = zero3();
          detail::add_split_stress(ps.el, StVenantKirchhoff::green_lagrange_strain(F), S);
          Mat3 Fdot = zero3();
          if constexpr (viscous) {
            Fdot = detail::frame_F<E>(hl, ve);
            detail::add_split_stress(ps.vi, detail::strain_rate(F, Fdot), S);
          }
          // C = sK (delta_ik S_LJ + [F, F; Ce] + [F, Fdot; Cv]) + sD [F, F; Cv]
          Tangent C;
          for (int r = 0; r < 9; ++r)
            for (int c = 0; c < 9; ++c) C.a[r][c] = 0.0;
          for (int i = 0; i < 3; ++i)
            for (int J = 0; J < 3; ++J)
              for (int L = 0; L < 3; ++L) C.a[3 * i + J][3 * i + L] = sK * S(L, J);
          detail::add_split_tangent(ps.el, F, F, sK, C);
          if constexpr (viscous) {
            detail::add_split_tangent(ps.vi, F, Fdot, sK, C);
            detail::add_split_tangent(ps.vi, F, F, sD, C);
          }
          if constexpr (Base::present) {
            if (k == 0) detail::add_base_tangent(base, F, sK, C);
          }
          for (int i = 0; i < E::n; ++i) {
            Real G[3][3][3];
            const Real h0 = hl[i][0], h1 = hl[i][1], h2 = hl[i][2];
            for (int a = 0; a < 3; ++a)
              for (int c = 0; c < 3; ++c)
                for (int D = 0; D < 3; ++D)
                  G[a][c][D] = C.a[3 * a][3 * c + D] * h0 + C.a[3 * a + 1][3 * c + D] * h1 +
                               C.a[3 * a + 2][3 * c + D] * h2;
            // Elastic: major symmetry, only j >= i (as ReferenceTangentFunctor).
            for (int j = viscous ? 0 : i; j < E::n; ++j) {
              const Real k0 = hl[j][0], k1 = hl[j][1], k2 = hl[j][2];
              for (int a = 0; a < 3; ++a)
                for (int c = 0; c < 3; ++c)
                  Ke[i][j][3 * a + c] += G[a][c][0] * k0 + G[a][c][1] * k1 + G[a][c][2] * k2;
            }
          }
        });
    detail::scatter_element_tangent<E>(g, e, Ke, !viscous, plain, offsets, block_row_length,
                                       values);
  }
};

// Runs the reference force (split or continuum, as the spec asks) of the
// <E, M> block of `mesh` with `spec`: f += f_int(q, v) (atomic adds).
template <class E, class M>
void reference_force_em(const Mesh& mesh, const MaterialSpec& spec, const CoefView& q,
                        const CoefView& v, const CoefView& f) {
  const ElementGeometry<E> g = build_geometry<E>(mesh, 0);
  const M mat = material_from_spec<M>(spec);
  const Ordinal ne = g.num_elements;
  if constexpr (PoissonSplitTraits<E, M>::supported) {
    if (PoissonSplitTraits<E, M>::enabled(spec)) {
      const PoissonSplitCoefficients k = PoissonSplitTraits<E, M>::coefficients(mat);
      const PoissonSplitGeometry<E> sg = build_poisson_split_geometry<E>(mesh, g);
      ReferenceSplitInternalForceFunctor<E, M::is_viscous, typename PoissonSplitTraits<E, M>::Base>
          fn{g,
             {{sg.H_full, g.dV, E::nq, k.full, k.vfull},
              {sg.H_axis, sg.dV_axis, PoissonSplitGeometry<E>::nq_axis, k.axis, k.vaxis}},
             q,
             v,
             f};
      fn.base = PoissonSplitTraits<E, M>::base(mat);
      Kokkos::parallel_for("tlfea::test::reference_force", Kokkos::RangePolicy<ExecSpace>(0, ne),
                           fn);
      return;
    }
  }
  Kokkos::parallel_for("tlfea::test::reference_force", Kokkos::RangePolicy<ExecSpace>(0, ne),
                       ReferenceInternalForceFunctor<E, M>{g, mat, q, v, f});
}

// values += alpha_K K + alpha_D D by the reference tangent of the <E, M>
// block, at the block's offsets (ElementBlockBase::set_matrix_offsets).
template <class E, class M>
void reference_tangent_em(const Mesh& mesh, const MaterialSpec& spec, const CoefView& q,
                          const CoefView& v, Real alpha_K, Real alpha_D,
                          const DeviceView<Offset***>& offsets,
                          const DeviceView<Offset*>& block_row_length,
                          const DeviceView<Real*>& values) {
  const ElementGeometry<E> g = build_geometry<E>(mesh, 0);
  const M mat = material_from_spec<M>(spec);
  const Ordinal ne = g.num_elements;
  if constexpr (PoissonSplitTraits<E, M>::supported) {
    if (PoissonSplitTraits<E, M>::enabled(spec)) {
      const PoissonSplitCoefficients k = PoissonSplitTraits<E, M>::coefficients(mat);
      const PoissonSplitGeometry<E> sg = build_poisson_split_geometry<E>(mesh, g);
      ReferenceSplitTangentFunctor<E, M::is_viscous, typename PoissonSplitTraits<E, M>::Base> fn{
          g,
          {{sg.H_full, g.dV, E::nq, k.full, k.vfull},
           {sg.H_axis, sg.dV_axis, PoissonSplitGeometry<E>::nq_axis, k.axis, k.vaxis}},
          q,
          v,
          offsets,
          block_row_length,
          values,
          alpha_K,
          alpha_D};
      fn.base = PoissonSplitTraits<E, M>::base(mat);
      Kokkos::parallel_for("tlfea::test::reference_tangent", Kokkos::RangePolicy<ExecSpace>(0, ne),
                           fn);
      return;
    }
  }
  Kokkos::parallel_for("tlfea::test::reference_tangent", Kokkos::RangePolicy<ExecSpace>(0, ne),
                       ReferenceTangentFunctor<E, M>{g, mat, q, v, offsets, block_row_length,
                                                     values, alpha_K, alpha_D});
}

// Calls fn(E{}, M{}) with the element type of `mesh` and the law of `spec`.
template <class Fn>
void with_element_material(const Mesh& mesh, const MaterialSpec& spec, Fn&& fn) {
  auto by_material = [&](auto e) {
    switch (spec.model) {
      case MaterialModel::StVenantKirchhoff:
        if (spec.kelvin_voigt) return fn(e, KelvinVoigt<StVenantKirchhoff>{});
        return fn(e, StVenantKirchhoff{});
      case MaterialModel::MooneyRivlin:
        if (spec.kelvin_voigt) return fn(e, KelvinVoigt<MooneyRivlin>{});
        return fn(e, MooneyRivlin{});
      case MaterialModel::NeoHookean:
        if (spec.kelvin_voigt) return fn(e, KelvinVoigt<NeoHookean>{});
        return fn(e, NeoHookean{});
    }
    throw std::runtime_error("reference kernels: unknown material model");
  };
  dispatch_element_type(mesh.type, by_material);
}

inline void reference_internal_force(const Mesh& mesh, const MaterialSpec& spec, const CoefView& q,
                                     const CoefView& v, const CoefView& f) {
  with_element_material(mesh, spec, [&](auto e, auto m) {
    reference_force_em<decltype(e), decltype(m)>(mesh, spec, q, v, f);
  });
}

inline void reference_tangent(const Mesh& mesh, const MaterialSpec& spec, const CoefView& q,
                              const CoefView& v, Real alpha_K, Real alpha_D,
                              const DeviceView<Offset***>& offsets,
                              const DeviceView<Offset*>& block_row_length,
                              const DeviceView<Real*>& values) {
  with_element_material(mesh, spec, [&](auto e, auto m) {
    reference_tangent_em<decltype(e), decltype(m)>(mesh, spec, q, v, alpha_K, alpha_D, offsets,
                                                   block_row_length, values);
  });
}

}  // namespace tlfea::test
