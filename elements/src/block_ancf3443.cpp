// Explicit instantiation of the element loops for ANCF3443 x every material.
#include "tlfea/elements/impl/element_block_impl.hpp"

TLFEA_INSTANTIATE_ELEMENT_BLOCKS(ANCF3443, ancf3443)
