// TLFEA: every constitutive law (pointwise P(F, Fdot) and its tangents).
#pragma once

#include <tlfea/materials/kelvin_voigt.hpp>
#include <tlfea/materials/mooney_rivlin.hpp>
#include <tlfea/materials/parameters.hpp>
#include <tlfea/materials/st_venant_kirchhoff.hpp>

// Expands WHAT(E, M) for every material law M the element blocks take (the
// elastic laws and their Kelvin-Voigt variants), for explicit instantiation
// lists over (element E, material M).
#define TLFEA_FOR_EACH_MATERIAL(WHAT, E)  \
  WHAT(E, StVenantKirchhoff)              \
  WHAT(E, MooneyRivlin)                   \
  WHAT(E, NeoHookean)                     \
  WHAT(E, KelvinVoigt<StVenantKirchhoff>) \
  WHAT(E, KelvinVoigt<MooneyRivlin>)      \
  WHAT(E, KelvinVoigt<NeoHookean>)
