// Explicit instantiation of the team-per-element loops for ANCF3243 x every
// material (impl/team_loops_impl.hpp; apart from block_ancf3243.cpp so that the
// range loops there compile as before).
#include "tlfea/elements/impl/team_loops_impl.hpp"

TLFEA_INSTANTIATE_TEAM_LOOPS(ANCF3243)
