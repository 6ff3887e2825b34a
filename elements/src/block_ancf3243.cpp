// Explicit instantiation of the element loops for ANCF3243 x every material.
#include "tlfea/elements/impl/element_block_impl.hpp"

TLFEA_INSTANTIATE_ELEMENT_BLOCKS(ANCF3243, ancf3243)
