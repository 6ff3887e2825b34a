// Explicit instantiation of the element loops for T10 x every material.
#include "tlfea/elements/impl/element_block_impl.hpp"

TLFEA_INSTANTIATE_ELEMENT_BLOCKS(T10, t10)
