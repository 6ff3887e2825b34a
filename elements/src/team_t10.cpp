// Explicit instantiation of the team-per-element loops for T10 x every
// material (impl/team_loops_impl.hpp; apart from block_t10.cpp so that the
// range loops there compile as before).
#include "tlfea/elements/impl/team_loops_impl.hpp"

TLFEA_INSTANTIATE_TEAM_LOOPS(T10)
