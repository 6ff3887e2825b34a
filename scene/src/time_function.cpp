// TLFEA scene: time functions (docs/scene.md): reading one from the scene
// and its closed forms f(t).
#include <cmath>
#include <initializer_list>
#include <tuple>

#include "builder.hpp"

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

namespace detail {

TimeFunctionSpec parse_function(const Ctx& c, const YAML::Node& n, const std::string& what) {
  TimeFunctionSpec f;
  if (n.IsScalar()) {
    f.kind = TimeFunctionSpec::Kind::Constant;
    f.value = to_real(c, n, what);
    return f;
  }
  Map m(c, n, what);
  // Each key of `keys` read into its member of f, with its default.
  using Key = std::tuple<const char*, Real TimeFunctionSpec::*, Real>;
  auto read = [&](std::initializer_list<Key> keys) {
    for (const auto& [k, field, def] : keys) f.*field = m.num(k, def);
  };
  const std::string type = m.choice("type", {"constant", "ramp", "sine", "table"}, "");
  if (type == "constant") {
    f.kind = TimeFunctionSpec::Kind::Constant;
    f.value = m.num("value", 1.0);
  } else if (type == "ramp") {
    f.kind = TimeFunctionSpec::Kind::Ramp;
    read({Key{"t0", &TimeFunctionSpec::t0, 0.0}, Key{"t1", &TimeFunctionSpec::t1, 1.0},
          Key{"from", &TimeFunctionSpec::from, 0.0}, Key{"to", &TimeFunctionSpec::to, 1.0}});
    if (!(f.t1 > f.t0)) fail(c, n, what + ": ramp needs t1 > t0");
  } else if (type == "sine") {
    f.kind = TimeFunctionSpec::Kind::Sine;
    read({Key{"amplitude", &TimeFunctionSpec::amplitude, 1.0},
          Key{"frequency", &TimeFunctionSpec::frequency, 1.0},
          Key{"phase", &TimeFunctionSpec::phase, 0.0},
          Key{"offset", &TimeFunctionSpec::offset, 0.0}});
  } else {
    f.kind = TimeFunctionSpec::Kind::Table;
    const YAML::Node pts = m.req("points");
    if (!pts.IsSequence() || pts.size() < 1)
      fail(c, pts, what + ".points: expected a list of [t, value] pairs");
    for (size_t i = 0; i < pts.size(); ++i) {
      const YAML::Node p = pts[i];
      if (!p.IsSequence() || p.size() != 2)
        fail(c, p, what + ".points: expected a [t, value] pair");
      const Real t = to_real(c, p[0], what + ".points"), v = to_real(c, p[1], what + ".points");
      if (!f.table.empty() && !(t > f.table.back().first))
        fail(c, p, what + ".points: times must increase");
      f.table.emplace_back(t, v);
    }
  }
  m.done();
  return f;
}

}  // namespace detail
}  // namespace tlfea::scene
