// Explicit instantiation of the element loops for T10 x every material.
#include "tlfea/elements/impl/element_block_impl.hpp"

namespace tlfea {

template class ElementBlock<T10, StVenantKirchhoff>;
template class ElementBlock<T10, MooneyRivlin>;
template class ElementBlock<T10, NeoHookean>;
template class ElementBlock<T10, KelvinVoigt<StVenantKirchhoff>>;
template class ElementBlock<T10, KelvinVoigt<MooneyRivlin>>;
template class ElementBlock<T10, KelvinVoigt<NeoHookean>>;

std::unique_ptr<ElementBlockBase> make_block_t10(const Mesh& mesh, Ordinal coef_offset,
                                                 const MaterialSpec& spec, Real density) {
  return make_block_for_element<T10>(mesh, coef_offset, spec, density);
}

}  // namespace tlfea
