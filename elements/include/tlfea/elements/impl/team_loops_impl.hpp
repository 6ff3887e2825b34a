// TLFEA: the launches of the team-per-element internal force and tangent
// (team_kernels.hpp, docs/theory.md §3.12) behind TeamLoops<E, M>. Included
// only by elements/src/team_<element>.cpp (TLFEA_INSTANTIATE_TEAM_LOOPS).
#pragma once

#include "tlfea/elements/impl/element_block_impl.hpp"
#include "tlfea/elements/team_kernels.hpp"

namespace tlfea {

template <class E, class M>
void TeamLoops<E, M>::internal_force(const CoefView& q, const CoefView& v,
                                     const CoefView& f) const {
  const char* label = "tlfea::elements::internal_force";
  if constexpr (PoissonSplitTraits<E, M>::supported) {
    if (split) {
      for_each_element_team(
          label, scatter, *colouring, geom.num_elements,
          TeamInternalForceFunctor<E, decltype(law), 2>{{geom, {sets[0], sets[1]}, law, q, v}, f});
      return;
    }
  }
  for_each_element_team(label, scatter, *colouring, geom.num_elements,
                        TeamInternalForceFunctor<E, detail::ContinuumPointLaw<M>, 1>{
                            {geom, {sets[0]}, {mat}, q, v}, f});
}

template <class E, class M>
void TeamLoops<E, M>::tangent(const CoefView& q, const CoefView& v, Real alpha_K, Real alpha_D,
                              const DeviceView<Offset***>& offsets,
                              const DeviceView<Offset*>& block_row_length,
                              const DeviceView<Real*>& values) const {
  // The team tangent on `loop`'s point sets.
  auto launch = [&](const auto& loop) {
    using Loop = std::decay_t<decltype(loop)>;
    for_each_element_team("tlfea::elements::tangent", scatter, *colouring, geom.num_elements,
                          TeamTangentFunctor<E, typename Loop::law_type, Loop::num_sets>{
                              {loop, offsets, block_row_length, values, alpha_K, alpha_D}});
  };
  if constexpr (PoissonSplitTraits<E, M>::supported) {
    if (split) {
      launch(PointSetLoop<E, decltype(law), 2>{geom, {sets[0], sets[1]}, law, q, v});
      return;
    }
  }
  launch(PointSetLoop<E, detail::ContinuumPointLaw<M>, 1>{geom, {sets[0]}, {mat}, q, v});
}

}  // namespace tlfea

// The team loops of element E for every material.
#define TLFEA_INSTANTIATE_TEAM_LOOP(E, M) template struct TeamLoops<E, M>;
#define TLFEA_INSTANTIATE_TEAM_LOOPS(E)                   \
  namespace tlfea {                                       \
  TLFEA_FOR_EACH_MATERIAL(TLFEA_INSTANTIATE_TEAM_LOOP, E) \
  }
