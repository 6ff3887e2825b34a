// Explicit instantiation of the element loops for Q27 x every material.
#include "tlfea/elements/impl/element_block_impl.hpp"

TLFEA_INSTANTIATE_ELEMENT_BLOCKS(Q27, q27)
