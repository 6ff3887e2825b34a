// Explicit instantiation of the element loops for ANCF3443 x every material.
#include "tlfea/elements/impl/element_block_impl.hpp"

namespace tlfea {

template class ElementBlock<ANCF3443, StVenantKirchhoff>;
template class ElementBlock<ANCF3443, MooneyRivlin>;
template class ElementBlock<ANCF3443, NeoHookean>;
template class ElementBlock<ANCF3443, KelvinVoigt<StVenantKirchhoff>>;
template class ElementBlock<ANCF3443, KelvinVoigt<MooneyRivlin>>;
template class ElementBlock<ANCF3443, KelvinVoigt<NeoHookean>>;

std::unique_ptr<ElementBlockBase> make_block_ancf3443(const Mesh& mesh, Ordinal coef_offset,
                                                      const MaterialSpec& spec, Real density) {
  return make_block_for_element<ANCF3443>(mesh, coef_offset, spec, density);
}

}  // namespace tlfea
