// Explicit instantiation of the team-per-element loops for Q27 x every
// material (impl/team_loops_impl.hpp; apart from block_q27.cpp so that the
// range loops there compile as before).
#include "tlfea/elements/impl/team_loops_impl.hpp"

TLFEA_INSTANTIATE_TEAM_LOOPS(Q27)
