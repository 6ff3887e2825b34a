// Explicit instantiation of the element loops for ANCF3243 x every material.
#include "tlfea/elements/impl/element_block_impl.hpp"

namespace tlfea {

template class ElementBlock<ANCF3243, StVenantKirchhoff>;
template class ElementBlock<ANCF3243, MooneyRivlin>;
template class ElementBlock<ANCF3243, NeoHookean>;
template class ElementBlock<ANCF3243, KelvinVoigt<StVenantKirchhoff>>;
template class ElementBlock<ANCF3243, KelvinVoigt<MooneyRivlin>>;
template class ElementBlock<ANCF3243, KelvinVoigt<NeoHookean>>;

std::unique_ptr<ElementBlockBase> make_block_ancf3243(const Mesh& mesh, Ordinal coef_offset,
                                                      const MaterialSpec& spec, Real density) {
  return make_block_for_element<ANCF3243>(mesh, coef_offset, spec, density);
}

}  // namespace tlfea
