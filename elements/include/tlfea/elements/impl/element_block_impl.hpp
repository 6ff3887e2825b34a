// TLFEA: ElementBlock<E, M>, the templated implementation behind
// ElementBlockBase. Included only by the explicit-instantiation sources in
// elements/src/ (one per element type) to keep compile time in check.
#pragma once

#include <type_traits>
#include <vector>

#include "tlfea/core/host_device.hpp"
#include "tlfea/elements/element_block.hpp"
#include "tlfea/elements/element_types.hpp"
#include "tlfea/elements/geometry.hpp"
#include "tlfea/elements/kernels.hpp"
#include "tlfea/elements/lane_force_dispatch.hpp"
#include "tlfea/elements/lane_kernels.hpp"
#include "tlfea/elements/point_laws.hpp"
#include "tlfea/elements/poisson_split.hpp"
#include "tlfea/elements/range_kernels.hpp"
#include "tlfea/materials/materials.hpp"

namespace tlfea {

// The law's constants from the spec: set_constants(m, s) per law, and
// material_from_spec<M>(s) a law M with them.
inline void set_constants(StVenantKirchhoff& m, const MaterialSpec& s) {
  m.lambda = s.lambda;
  m.mu = s.mu;
}
inline void set_constants(MooneyRivlin& m, const MaterialSpec& s) {
  m.mu10 = s.mu10;
  m.mu01 = s.mu01;
  m.kappa = s.kappa;
}
inline void set_constants(NeoHookean& m, const MaterialSpec& s) {
  m.mu10 = s.mu10;
  m.kappa = s.kappa;
}
template <class X>
void set_constants(KelvinVoigt<X>& m, const MaterialSpec& s) {
  set_constants(m.elastic, s);
  m.mu_v = s.mu_v;
  m.lambda_v = s.lambda_v;
}
template <class M>
M material_from_spec(const MaterialSpec& s) {
  M m;
  set_constants(m, s);
  return m;
}

// Host execution space: the lane loop calls a host function (lane_force_dispatch.hpp).
inline constexpr bool kHostExec =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;

// Which <element, material> pairs take the point-lane internal force
// (lane_kernels.hpp) on host spaces: the ANCF 3443 shell with SVK and
// Kelvin-Voigt SVK, split on or off.
template <class E, class M>
struct LaneForceTraits {
  static constexpr bool enabled = false;
};
template <>
struct LaneForceTraits<ANCF3443, StVenantKirchhoff> {
  static constexpr bool enabled = true;
  static SplitLaw elastic(const StVenantKirchhoff& m) { return {m.lambda, m.mu, 0.0, 0.0}; }
  static SplitLaw viscous(const StVenantKirchhoff&) { return {}; }
};
template <>
struct LaneForceTraits<ANCF3443, KelvinVoigt<StVenantKirchhoff>> {
  static constexpr bool enabled = true;
  static SplitLaw elastic(const KelvinVoigt<StVenantKirchhoff>& m) {
    return {m.elastic.lambda, m.elastic.mu, 0.0, 0.0};
  }
  static SplitLaw viscous(const KelvinVoigt<StVenantKirchhoff>& m) {
    return {m.lambda_v, m.mu_v, 0.0, 0.0};
  }
};

// The team-per-element internal force and tangent (team_kernels.hpp) of one
// <element, material> pair: the block's data and the two launches, defined in
// impl/team_loops_impl.hpp and compiled in their own sources
// (elements/src/team_<element>.cpp), so that the translation units of the
// range loops, and the compiler's inlining in them, stay as they are (with
// the team loops in the same unit GCC stops inlining add_split_stress into
// the split beam's force loop).
template <class E, class M>
struct TeamLoops {
  ElementGeometry<E> geom;
  M mat;
  bool split = false;  // Poisson split: sets[0], sets[1] and law are used
  detail::PointSet<E> sets[2];
  detail::SplitPointLaw<M::is_viscous, typename PoissonSplitTraits<E, M>::Base> law;
  ScatterPolicy scatter;
  const ElementColouring* colouring;
  void internal_force(const CoefView& q, const CoefView& v, const CoefView& f) const;
  void tangent(const CoefView& q, const CoefView& v, Real alpha_K, Real alpha_D,
               const DeviceView<Offset***>& offsets, const DeviceView<Offset*>& block_row_length,
               const DeviceView<Real*>& values) const;
};

template <class E, class M>
class ElementBlock final : public ElementBlockBase {
 public:
  ElementBlock(const Mesh& mesh, Ordinal coef_offset, const MaterialSpec& spec, Real density)
      : geom_(build_geometry<E>(mesh, coef_offset, false)),
        mat_(material_from_spec<M>(spec)),
        spec_(spec),
        rho_(density) {
    {
      const CliqueSet c = cliques();
      colouring_ = colour_elements(c.ids, E::n, geom_.num_elements);
    }
    if constexpr (PoissonSplitTraits<E, M>::supported) {
      if (PoissonSplitTraits<E, M>::enabled(spec)) {
        prepare();  // the split's point sets start from H
        split_ = true;
        const PoissonSplitCoefficients k = PoissonSplitTraits<E, M>::coefficients(mat_);
        const PoissonSplitGeometry<E> sg = build_poisson_split_geometry<E>(mesh, geom_);
        split_sets_[0] = {sg.H_full, geom_.dV, E::nq, k.full, k.vfull};
        split_sets_[1] = {sg.H_axis, sg.dV_axis, PoissonSplitGeometry<E>::nq_axis, k.axis, k.vaxis};
        split_base_ = PoissonSplitTraits<E, M>::base(mat_);
      }
    }
    if constexpr (LaneForceTraits<E, M>::enabled && kHostExec) {
      prepare();  // the lane layout is a copy of the point sets
      if (split_) {
        const DeviceView<Real* * [E::n][3]> H[2] = {split_sets_[0].H, split_sets_[1].H};
        const DeviceView<Real**> dV[2] = {split_sets_[0].dV, split_sets_[1].dV};
        const int np[2] = {split_sets_[0].np, split_sets_[1].np};
        const SplitLaw el[2] = {split_sets_[0].el, split_sets_[1].el};
        const SplitLaw vi[2] = {split_sets_[0].vi, split_sets_[1].vi};
        lane_ = build_lane_points<E>(H, dV, np, 2, el, vi);
      } else {
        const DeviceView<Real* * [E::n][3]> H[1] = {geom_.H};
        const DeviceView<Real**> dV[1] = {geom_.dV};
        const int np[1] = {E::nq};
        const SplitLaw el[1] = {LaneForceTraits<E, M>::elastic(mat_)};
        const SplitLaw vi[1] = {LaneForceTraits<E, M>::viscous(mat_)};
        lane_ = build_lane_points<E>(H, dV, np, 1, el, vi);
      }
    }
    shapes_ = default_kernel_shapes_for<ExecSpace>(lane_.built());
  }

  ElementType element_type() const override { return E::type; }
  std::string material_name() const override { return spec_.name(); }
  bool is_viscous() const override { return M::is_viscous; }
  Real density() const override { return rho_; }
  Ordinal num_elements() const override { return geom_.num_elements; }
  int coefficients_per_element() const override { return E::n; }
  int quadrature_points() const override { return E::nq; }
  bool poisson_split() const override { return split_; }
  KernelShapes kernel_shapes() const override { return shapes_; }
  void set_kernel_shapes(KernelShapes s) override {
    if (s.tangent == KernelShape::Lanes)
      throw_error("element block (", to_string(E::type), ", ", spec_.name(),
                  "): the tangent has no lanes loop shape (range or team)");
    if (s.internal_force == KernelShape::Lanes && !lane_.built())
      throw_error("element block (", to_string(E::type), ", ", spec_.name(),
                  "): no lanes internal force for this element and material on this execution "
                  "space (range or team)");
    shapes_ = s;
  }
  const ElementGeometry<E>& geometry() const { return geom_; }
  void prepare() const override { build_gradients(geom_); }
  bool prepared() const override { return geom_.has_gradients(); }

  CliqueSet cliques() const override {
    CliqueSet c;
    c.size = E::n;
    auto h = to_host(geom_.conn);
    c.ids.resize(static_cast<size_t>(geom_.num_elements) * E::n);
    for (Ordinal e = 0; e < geom_.num_elements; ++e)
      for (int i = 0; i < E::n; ++i) c.ids[static_cast<size_t>(e) * E::n + i] = h(e, i);
    return c;
  }
  void set_matrix_offsets(const CrsPattern& pattern, DeviceView<Offset***> offsets) override {
    if (offsets.extent(0) != static_cast<size_t>(geom_.num_elements) || offsets.extent(1) != E::n)
      throw_error("element block: offset map of shape (", offsets.extent(0), ", ",
                  offsets.extent(1), ") does not match ", geom_.num_elements, " x ", E::n);
    offsets_ = offsets;
    block_row_length_ = pattern.block_row_length;
  }

  // The loop shape of shapes_ around the block's point law (point_laws.hpp).
  void internal_force(const CoefView& q, const CoefView& v, const CoefView& f) const override {
    prepare();
    const char* label = "tlfea::elements::internal_force";
    switch (shapes_.internal_force) {
      case KernelShape::Team:
        team_loops().internal_force(q, v, f);
        return;
      case KernelShape::Lanes:
        if constexpr (LaneForceTraits<E, M>::enabled && kHostExec) {
          const LaneForceKernels k = lane_force_kernels();
          launch_assembly(label, LaneInternalForceFunctor<E, M::is_viscous>{
                                     geom_, lane_, q, v, f, M::is_viscous ? k.viscous : k.elastic});
          return;
        }
        break;  // unreachable: set_kernel_shapes admits Lanes only where lane_ is built
      case KernelShape::Range:
        with_point_loop(q, v, [&](const auto& loop) {
          using Loop = std::decay_t<decltype(loop)>;
          launch_assembly(
              label,
              RangeInternalForceFunctor<E, typename Loop::law_type, Loop::num_sets>{loop, f});
        });
        return;
    }
    throw_error("element block: internal force shape ", to_string(shapes_.internal_force),
                " not available");
  }
  void tangent(const CoefView& q, const CoefView& v, Real alpha_K, Real alpha_D,
               const DeviceView<Real*>& values) const override {
    require_offsets();
    prepare();
    if (shapes_.tangent == KernelShape::Team) {
      team_loops().tangent(q, v, alpha_K, alpha_D, offsets_, block_row_length_, values);
      return;
    }
    with_point_loop(q, v, [&](const auto& loop) {
      using Loop = std::decay_t<decltype(loop)>;
      launch_assembly("tlfea::elements::tangent",
                      RangeTangentFunctor<E, typename Loop::law_type, Loop::num_sets>{
                          {loop, offsets_, block_row_length_, values, alpha_K, alpha_D}});
    });
  }
  void mass(const CoefView& q0, Real alpha, const DeviceView<Real*>& values) const override {
    require_offsets();
    MassFunctor<E> fn{geom_, q0, rho_, alpha, offsets_, block_row_length_, values};
    launch_assembly("tlfea::elements::mass", fn);
  }
  void block_mass(const CoefView& q0, Real alpha, const DeviceView<Offset*>& row_map,
                  const DeviceView<Real*>& blocks) const override {
    require_offsets();
    MassFunctor<E> fn{geom_, q0, rho_, alpha, offsets_, block_row_length_, blocks};
    fn.row_map = row_map;
    launch_assembly("tlfea::elements::block_mass", fn);
  }
  void body_force(const CoefView& q0, const Vec3& b, const CoefView& f) const override {
    launch_assembly("tlfea::elements::body_force",
                    BodyForceFunctor<E>{geom_, q0, rho_, {b[0], b[1], b[2]}, f});
  }
  void dead_traction(const CoefView& q0, const FaceList& faces, const Vec3& t0,
                     const CoefView& f) const override {
    SurfaceLoadFunctor<E> fn{geom_, faces.element,         faces.face, q0,
                             false, {t0[0], t0[1], t0[2]}, 0.0,        f};
    for_each_load("tlfea::elements::dead_traction", scatter_, faces.size(), fn);
  }
  void follower_pressure(const CoefView& q, const FaceList& faces, Real p,
                         const CoefView& f) const override {
    SurfaceLoadFunctor<E> fn{geom_, faces.element, faces.face, q, true, {0.0, 0.0, 0.0}, p, f};
    for_each_load("tlfea::elements::follower_pressure", scatter_, faces.size(), fn);
  }
  void follower_pressure_tangent(const CoefView& q, const FaceList& faces, Real p, Real alpha,
                                 const DeviceView<Real*>& values) const override {
    require_offsets();
    PressureTangentFunctor<E> fn{geom_, faces.element, faces.face, offsets_, block_row_length_, q,
                                 p,     alpha,         values};
    for_each_load("tlfea::elements::follower_pressure_tangent", scatter_, faces.size(), fn);
  }
  Real strain_energy(const CoefView& q) const override {
    prepare();
    Real sum = 0.0;
    if constexpr (PoissonSplitTraits<E, M>::supported) {
      if (split_) {
        SplitStrainEnergyFunctor<E, SplitBase> fn{geom_, {split_sets_[0], split_sets_[1]}, q};
        fn.base = split_base_;
        Kokkos::parallel_reduce("tlfea::elements::strain_energy",
                                Kokkos::RangePolicy<ExecSpace>(0, geom_.num_elements), fn, sum);
        return sum;
      }
    }
    Kokkos::parallel_reduce("tlfea::elements::strain_energy",
                            Kokkos::RangePolicy<ExecSpace>(0, geom_.num_elements),
                            StrainEnergyFunctor<E, M>{geom_, mat_, q}, sum);
    return sum;
  }
  Real volume(const CoefView& q0) const override {
    Real sum = 0.0;
    Kokkos::parallel_reduce("tlfea::elements::volume",
                            Kokkos::RangePolicy<ExecSpace>(0, geom_.num_elements),
                            VolumeFunctor<E>{geom_, q0}, sum);
    return sum;
  }
  DeviceView<Real** [9]> deformation_gradients(const CoefView& q) const override {
    prepare();
    DeviceView<Real** [9]> F("tlfea::elements::F", geom_.num_elements, E::nq);
    Kokkos::parallel_for("tlfea::elements::deformation_gradient",
                         Kokkos::RangePolicy<ExecSpace>(0, geom_.num_elements),
                         DeformationGradientFunctor<E>{geom_, q, F});
    return F;
  } std::vector<Real> shape_at(Ordinal element, const Real xi[3]) const override {
    auto p = to_host(Kokkos::subview(geom_.param, std::make_pair(element, element + 1)));
    Real s[E::n];
    E::shape(p(0), xi, s);
    return std::vector<Real>(s, s + E::n);
  }
  std::vector<Ordinal> element_coefficients(Ordinal element) const override {
    auto row = Kokkos::subview(geom_.conn, element, Kokkos::ALL());
    auto h = to_host(row);
    std::vector<Ordinal> out(E::n);
    for (int i = 0; i < E::n; ++i) out[i] = h(i);
    return out;
  }

  std::vector<std::vector<Ordinal>> element_colours() const override {
    auto h = to_host(colouring_.elements);
    std::vector<std::vector<Ordinal>> out(colouring_.num_colours());
    for (int c = 0; c < colouring_.num_colours(); ++c)
      for (Ordinal k = colouring_.offsets[c]; k < colouring_.offsets[c + 1]; ++k)
        out[c].push_back(h(k));
    return out;
  }
  ScatterPolicy scatter() const override { return scatter_; }
  void set_scatter(ScatterPolicy p) override {
    check_scatter_policy(p, ExecSpace().concurrency());
    scatter_ = p;
  }

 private:
  template <class F>
  void launch_assembly(const char* label, F fn) const {
    for_each_element(label, scatter_, colouring_, geom_.num_elements, fn);
  }
  TeamLoops<E, M> team_loops() const {
    TeamLoops<E, M> t{geom_, mat_,     false,      {{geom_.H, geom_.dV, E::nq}, {}},
                      {},    scatter_, &colouring_};
    if constexpr (PoissonSplitTraits<E, M>::supported) {
      if (split_) {
        t.split = true;
        t.sets[0] = point_set(0);
        t.sets[1] = point_set(1);
        t.law = split_law();
      }
    }
    return t;
  }
  detail::PointSet<E> point_set(int k) const {
    return {split_sets_[k].H, split_sets_[k].dV, split_sets_[k].np};
  }
  using SplitBase = typename PoissonSplitTraits<E, M>::Base;
  using SplitLawOf = detail::SplitPointLaw<M::is_viscous, SplitBase>;
  SplitLawOf split_law() const {
    SplitLawOf l;
    for (int k = 0; k < 2; ++k) {
      l.el[k] = split_sets_[k].el;
      l.vi[k] = split_sets_[k].vi;
    }
    l.base = split_base_;
    return l;
  }
  // fn(loop) with the block's point sets and point law: the two sets of the
  // Poisson split with its law, or the stiffness rule with the material.
  template <class Fn>
  void with_point_loop(const CoefView& q, const CoefView& v, Fn&& fn) const {
    if constexpr (PoissonSplitTraits<E, M>::supported) {
      if (split_) {
        fn(PointSetLoop<E, SplitLawOf, 2>{geom_, {point_set(0), point_set(1)}, split_law(), q, v});
        return;
      }
    }
    fn(PointSetLoop<E, detail::ContinuumPointLaw<M>, 1>{
        geom_, {{geom_.H, geom_.dV, E::nq}}, {mat_}, q, v});
  }
  void require_offsets() const {
    if (offsets_.extent(0) != static_cast<size_t>(geom_.num_elements))
      throw_error("element block: matrix assembly before set_matrix_offsets");
  }
  // Mutable: prepare() (a const call's first use) builds its gradients.
  mutable ElementGeometry<E> geom_;
  M mat_;
  MaterialSpec spec_;
  Real rho_;
  DeviceView<Offset***> offsets_;
  DeviceView<Offset*> block_row_length_;
  // Element colouring (built once in the constructor), used when scatter_
  // is Coloured; scatter_ starts at the per-space default (scatter_policy.hpp).
  ElementColouring colouring_;
  ScatterPolicy scatter_ = default_scatter_policy_for<ExecSpace>();
  // ANCF 3243 / 3443 Poisson split (poisson_split.hpp): on for SVK /
  // KelvinVoigt<SVK> when spec.ancf3243_poisson_split (beam) /
  // spec.ancf3443_poisson_split (shell), and for the hyperelastic shells
  // (plain or Kelvin-Voigt) when spec.ancf3443_poisson_split; the point sets
  // (full rule, reduced rule: beam axis / shell mid-surface) and the law kept
  // in full on the full rule (hyperelastic shells only).
  bool split_ = false;
  // internal_force / tangent loop shape; per-space default (scatter_policy.hpp,
  // set in the constructor once the lane data is known).
  KernelShapes shapes_ = default_kernel_shapes_for<ExecSpace>();
  detail::SplitPointSet<E> split_sets_[2];
  SplitBase split_base_{};
  // Point-lane internal force data (LaneForceTraits; host spaces only).
  LanePoints<E> lane_;
};

// Factory for one element type over all materials (defined per element in
// elements/src/block_<element>.cpp).
template <class E>
std::unique_ptr<ElementBlockBase> make_block_for_element(const Mesh& mesh, Ordinal coef_offset,
                                                         const MaterialSpec& spec, Real density) {
  switch (spec.model) {
    case MaterialModel::StVenantKirchhoff:
      if (spec.kelvin_voigt)
        return std::make_unique<ElementBlock<E, KelvinVoigt<StVenantKirchhoff>>>(mesh, coef_offset,
                                                                                 spec, density);
      return std::make_unique<ElementBlock<E, StVenantKirchhoff>>(mesh, coef_offset, spec, density);
    case MaterialModel::MooneyRivlin:
      if (spec.kelvin_voigt)
        return std::make_unique<ElementBlock<E, KelvinVoigt<MooneyRivlin>>>(mesh, coef_offset, spec,
                                                                            density);
      return std::make_unique<ElementBlock<E, MooneyRivlin>>(mesh, coef_offset, spec, density);
    case MaterialModel::NeoHookean:
      if (spec.kelvin_voigt)
        return std::make_unique<ElementBlock<E, KelvinVoigt<NeoHookean>>>(mesh, coef_offset, spec,
                                                                          density);
      return std::make_unique<ElementBlock<E, NeoHookean>>(mesh, coef_offset, spec, density);
  }
  throw_error("unknown material model");
}

}  // namespace tlfea

// The element loops of element E for every material and its factory
// make_block_<name> (declared in elements/src/element_block.cpp).
#define TLFEA_INSTANTIATE_ELEMENT_BLOCK(E, M) template class ElementBlock<E, M>;
#define TLFEA_INSTANTIATE_ELEMENT_BLOCKS(E, name)                                               \
  namespace tlfea {                                                                             \
  TLFEA_FOR_EACH_MATERIAL(TLFEA_INSTANTIATE_ELEMENT_BLOCK, E)                                   \
  std::unique_ptr<ElementBlockBase> make_block_##name(const Mesh& mesh, Ordinal coef_offset,    \
                                                      const MaterialSpec& spec, Real density) { \
    return make_block_for_element<E>(mesh, coef_offset, spec, density);                         \
  }                                                                                             \
  }
