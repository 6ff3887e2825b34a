// TLFEA scene: the YAML value readers of yaml_reader.hpp.
#include "yaml_reader.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace tlfea::scene::detail {

std::string where(const Ctx& c, const YAML::Mark& m) {
  std::ostringstream os;
  os << c.file << ':' << (m.line >= 0 ? m.line + 1 : 1) << ':' << (m.column >= 0 ? m.column + 1 : 1)
     << ": ";
  return os.str();
}

[[noreturn]] void fail_at(const Ctx& c, const YAML::Mark& m, const std::string& msg) {
  throw Error(where(c, m) + msg);
}
[[noreturn]] void fail(const Ctx& c, const YAML::Node& n, const std::string& msg) {
  fail_at(c, n.IsDefined() ? n.Mark() : YAML::Mark::null_mark(), msg);
}

const char* kind_name(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Null:
      return "null";
    case YAML::NodeType::Scalar:
      return "a scalar";
    default:
      return "nothing";
  }
}

Real to_real(const Ctx& c, const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) fail(c, n, what + ": expected a number, got " + kind_name(n));
  const std::string s = n.Scalar();
  try {
    size_t pos = 0;
    const double v = std::stod(s, &pos);
    if (pos != s.size()) throw std::invalid_argument(s);
    if (!std::isfinite(v)) fail(c, n, what + ": expected a finite number, got '" + s + "'");
    return v;
  } catch (const std::logic_error&) {
    fail(c, n, what + ": expected a number, got '" + s + "'");
  }
}
long to_int(const Ctx& c, const YAML::Node& n, const std::string& what) {
  const Real v = to_real(c, n, what);
  if (v != std::floor(v) || std::fabs(v) > 1e15)
    fail(c, n, what + ": expected an integer, got '" + n.Scalar() + "'");
  // Counts and ids are 32-bit (Ordinal, int): larger values would wrap.
  constexpr long kMax = std::numeric_limits<int>::max();
  if (std::fabs(v) > static_cast<Real>(kMax))
    fail(c, n,
         what + ": " + n.Scalar() + " is out of range (at most " + std::to_string(kMax) +
             " in magnitude)");
  return static_cast<long>(v);
}

bool to_bool(const Ctx& c, const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) fail(c, n, what + ": expected true or false, got " + kind_name(n));
  const std::string s = n.Scalar();
  if (s == "true" || s == "True" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "False" || s == "no" || s == "off") return false;
  fail(c, n, what + ": expected true or false, got '" + s + "'");
}
std::string to_string(const Ctx& c, const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) fail(c, n, what + ": expected a string, got " + kind_name(n));
  return n.Scalar();
}
Vec3 to_vec3(const Ctx& c, const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence() || n.size() != 3)
    fail(c, n, what + ": expected a list of 3 numbers [x, y, z]");
  Vec3 v;
  for (int a = 0; a < 3; ++a) v[a] = to_real(c, n[a], what);
  return v;
}

}  // namespace tlfea::scene::detail
