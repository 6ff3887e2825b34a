// TLFEA: every constitutive law (pointwise P(F, Fdot) and its tangents).
#pragma once

#include <tlfea/materials/kelvin_voigt.hpp>
#include <tlfea/materials/mooney_rivlin.hpp>
#include <tlfea/materials/parameters.hpp>
#include <tlfea/materials/st_venant_kirchhoff.hpp>
