// Explicit instantiation of the team-per-element loops for ANCF3443 x every
// material (impl/team_loops_impl.hpp; apart from block_ancf3443.cpp so that the
// range loops there compile as before).
#include "tlfea/elements/impl/team_loops_impl.hpp"

TLFEA_INSTANTIATE_TEAM_LOOPS(ANCF3443)
