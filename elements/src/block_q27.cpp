// Explicit instantiation of the element loops for Q27 x every material.
#include "tlfea/elements/impl/element_block_impl.hpp"

namespace tlfea {

template class ElementBlock<Q27, StVenantKirchhoff>;
template class ElementBlock<Q27, MooneyRivlin>;
template class ElementBlock<Q27, NeoHookean>;
template class ElementBlock<Q27, KelvinVoigt<StVenantKirchhoff>>;
template class ElementBlock<Q27, KelvinVoigt<MooneyRivlin>>;
template class ElementBlock<Q27, KelvinVoigt<NeoHookean>>;

std::unique_ptr<ElementBlockBase> make_block_q27(const Mesh& mesh, Ordinal coef_offset,
                                                 const MaterialSpec& spec, Real density) {
  return make_block_for_element<Q27>(mesh, coef_offset, spec, density);
}

}  // namespace tlfea
