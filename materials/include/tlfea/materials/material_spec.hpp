// TLFEA: host-side description of a body's material, from which the element
// factory picks the <Element, Material> instantiation.
#pragma once

#include <string>

#include "tlfea/core/types.hpp"
#include "tlfea/materials/parameters.hpp"

namespace tlfea {

enum class MaterialModel { StVenantKirchhoff, MooneyRivlin, NeoHookean };

struct MaterialSpec {
  MaterialModel model = MaterialModel::StVenantKirchhoff;
  // St. Venant-Kirchhoff: Lame constants (lambda, mu).
  Real lambda = 0.0, mu = 0.0;
  // Mooney-Rivlin / Neo-Hookean: mu10, mu01 (0 for Neo-Hookean), bulk modulus kappa.
  Real mu10 = 0.0, mu01 = 0.0, kappa = 0.0;
  // Kelvin-Voigt viscous part (added to the elastic law when enabled):
  // S_v = 2 mu_v Edot + lambda_v tr(Edot) I, in Pa s.
  bool kelvin_voigt = false;
  Real mu_v = 0.0, lambda_v = 0.0;
  // ANCF 3243 beams with St. Venant-Kirchhoff (plain or Kelvin-Voigt) only;
  // ignored by every other element and by Mooney-Rivlin / Neo-Hookean, which
  // keep the continuum element. When true (the default) the element removes
  // Poisson locking the way Chrono's ChElementBeamANCF_3243 does (enhanced
  // continuum mechanics, Nachbagauer, Gruber and Gerstmayr 2012): the Voigt
  // matrix D = D0 + Dv is split, D0 = diag(E, E, E, G, G, G) in the beam frame
  // over the full 3 x 2 x 2 rule and the Poisson coupling Dv over the beam axis
  // only (elements/poisson_split.hpp). false: the pure continuum element.
  bool ancf3243_poisson_split = true;
  // ANCF 3443 shells, every law (SVK, Mooney-Rivlin, Neo-Hookean, plain or
  // Kelvin-Voigt); ignored by every other element. When true (the default)
  // the shell removes its through-thickness Poisson locking (plates too stiff
  // in bending by (1 - nu)^2 / (1 - 2 nu)) with the same split adapted to
  // shells: D0 the plane-stress law of the shell's tangent plane (no coupling
  // of E33 to the in-plane strains) over the full 4 x 4 x 2 rule, Dv = D - D0
  // over the mid-surface points only; the hyperelastic laws keep the law in
  // full and move only their linearised Dv (elements/poisson_split.hpp,
  // docs/theory.md §4.2-4.3). false: the pure continuum element.
  bool ancf3443_poisson_split = true;

  static MaterialSpec svk(Real E, Real nu) {
    MaterialSpec s;
    s.model = MaterialModel::StVenantKirchhoff;
    const LameParameters l = lame_from_young_poisson(E, nu);  // validates E > 0, -1 < nu < 1/2
    s.lambda = l.lambda;
    s.mu = l.mu;
    return s;
  }
  static MaterialSpec mooney_rivlin(Real mu10, Real mu01, Real kappa) {
    MaterialSpec s;
    s.model = MaterialModel::MooneyRivlin;
    s.mu10 = mu10;
    s.mu01 = mu01;
    s.kappa = kappa;
    return s;
  }
  // Neo-Hookean with shear modulus mu (= 2 mu10) and bulk modulus kappa.
  static MaterialSpec neo_hookean(Real mu, Real kappa) {
    MaterialSpec s;
    s.model = MaterialModel::NeoHookean;
    s.mu10 = mu / 2;
    s.kappa = kappa;
    return s;
  }
  MaterialSpec with_kelvin_voigt(Real mu_v_, Real lambda_v_) const {
    MaterialSpec s = *this;
    s.kelvin_voigt = true;
    s.mu_v = mu_v_;
    s.lambda_v = lambda_v_;
    return s;
  }
  MaterialSpec with_ancf3243_poisson_split(bool on) const {
    MaterialSpec s = *this;
    s.ancf3243_poisson_split = on;
    return s;
  }
  MaterialSpec with_ancf3443_poisson_split(bool on) const {
    MaterialSpec s = *this;
    s.ancf3443_poisson_split = on;
    return s;
  }
  std::string name() const {
    std::string n = model == MaterialModel::StVenantKirchhoff ? "svk"
                    : model == MaterialModel::MooneyRivlin    ? "mooney_rivlin"
                                                              : "neo_hookean";
    return kelvin_voigt ? "kelvin_voigt<" + n + ">" : n;
  }
};

}  // namespace tlfea
