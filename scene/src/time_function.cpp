// TLFEA: closed forms of the scene time functions (docs/scene.md).
#include <cmath>

#include "tlfea/scene/scene.hpp"

namespace tlfea::scene {

Real TimeFunctionSpec::operator()(Real t) const {
  switch (kind) {
    case Kind::Constant:
      return value;
    case Kind::Ramp:
      if (t <= t0) return from;
      if (t >= t1) return to;
      return from + (to - from) * (t - t0) / (t1 - t0);
    case Kind::Sine:
      return offset + amplitude * std::sin(2.0 * M_PI * frequency * t + phase);
    case Kind::Table: {
      if (table.empty()) return 0.0;
      if (t <= table.front().first) return table.front().second;
      if (t >= table.back().first) return table.back().second;
      for (size_t i = 1; i < table.size(); ++i)
        if (t <= table[i].first) {
          const auto& a = table[i - 1];
          const auto& b = table[i];
          return a.second + (b.second - a.second) * (t - a.first) / (b.first - a.first);
        }
      return table.back().second;
    }
  }
  return value;
}

}  // namespace tlfea::scene
