// TLFEA scene: reading and checking YAML values (numbers, integers, flags,
// strings, vectors, mappings whose keys are checked) with errors "FILE:LINE:COLUMN: message".
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/tensor.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea::scene::detail {

// The scene file (named in messages) and the folder relative paths start from.
struct Ctx {
  std::string file, base_dir;
};

// "FILE:LINE:COLUMN: " of a YAML mark (1-based; an unknown mark is 1:1).
std::string where(const Ctx& c, const YAML::Mark& m);
[[noreturn]] void fail_at(const Ctx& c, const YAML::Mark& m, const std::string& msg);
// At the node's mark (1:1 when the node is absent).
[[noreturn]] void fail(const Ctx& c, const YAML::Node& n, const std::string& msg);
// "a mapping", "a list", "null", "a scalar" or "nothing".
const char* kind_name(const YAML::Node& n);

// Scalars of the expected kind; `what` names the value in the message.
Real to_real(const Ctx& c, const YAML::Node& n, const std::string& what);
long to_int(const Ctx& c, const YAML::Node& n, const std::string& what);
bool to_bool(const Ctx& c, const YAML::Node& n, const std::string& what);
std::string to_string(const Ctx& c, const YAML::Node& n, const std::string& what);
Vec3 to_vec3(const Ctx& c, const YAML::Node& n, const std::string& what);

// A mapping whose keys are checked: every key read is allowed; done() reports
// the first key never read as unknown.
class Map {
 public:
  Map(const Ctx& c, const YAML::Node& n, std::string what) : c_(c), n_(n), what_(std::move(what)) {
    if (!n_.IsMap()) fail(c_, n_, what_ + ": expected a mapping, got " + kind_name(n_));
  }
  const YAML::Node& node() const { return n_; }
  const std::string& what() const { return what_; }
  const Ctx& ctx() const { return c_; }
  bool has(const std::string& k) {
    used_.insert(k);
    const YAML::Node v = n_[k];
    return v.IsDefined() && !v.IsNull();
  }
  YAML::Node get(const std::string& k) {
    used_.insert(k);
    return n_[k];
  }
  YAML::Node req(const std::string& k) {
    if (!has(k)) missing(k);
    return n_[k];
  }
  // A required key is absent: a present key that is a near miss of it (a
  // typo, edit distance <= 2) is reported as unknown at its own position.
  [[noreturn]] void missing(const std::string& k) const {
    for (auto it = n_.begin(); it != n_.end(); ++it) {
      if (!it->first.IsScalar()) continue;
      const std::string u = it->first.Scalar();
      if (!used_.count(u) && edit_distance(u, k) <= 2)
        fail(c_, it->first, "unknown key '" + u + "' in " + what_ + " (did you mean '" + k + "'?)");
    }
    fail(c_, n_, what_ + ": missing required key '" + k + "'");
  }
  static size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> d(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) d[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t diag = d[0];
      d[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        const size_t up = d[j];
        d[j] = std::min({d[j] + 1, d[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diag = up;
      }
    }
    return d[b.size()];
  }
  std::string key(const std::string& k) const { return what_ + "." + k; }
  Real num(const std::string& k, Real def) { return has(k) ? to_real(c_, n_[k], key(k)) : def; }
  Real num_req(const std::string& k) { return to_real(c_, req(k), key(k)); }
  Real positive(const std::string& k, Real def) {
    const Real v = num(k, def);
    if (!(v > 0.0)) fail(c_, has(k) ? n_[k] : n_, key(k) + " must be positive, got " + fmt(v));
    return v;
  }
  Real nonnegative(const std::string& k, Real def) {
    const Real v = num(k, def);
    if (!(v >= 0.0)) fail(c_, has(k) ? n_[k] : n_, key(k) + " must be >= 0, got " + fmt(v));
    return v;
  }
  Real positive_req(const std::string& k) {
    const Real v = num_req(k);
    if (!(v > 0.0)) fail(c_, n_[k], key(k) + " must be positive, got " + fmt(v));
    return v;
  }
  long integer(const std::string& k, long def) { return has(k) ? to_int(c_, n_[k], key(k)) : def; }
  long positive_int(const std::string& k, long def) {
    const long v = integer(k, def);
    if (v < 1) fail(c_, has(k) ? n_[k] : n_, key(k) + " must be a positive integer");
    return v;
  }
  bool boolean(const std::string& k, bool def) { return has(k) ? to_bool(c_, n_[k], key(k)) : def; }
  std::string str(const std::string& k, const std::string& def) {
    return has(k) ? to_string(c_, n_[k], key(k)) : def;
  }
  std::string str_req(const std::string& k) { return to_string(c_, req(k), key(k)); }
  Vec3 vec3(const std::string& k, const Vec3& def) {
    return has(k) ? to_vec3(c_, n_[k], key(k)) : def;
  }
  Vec3 vec3_req(const std::string& k) { return to_vec3(c_, req(k), key(k)); }
  // A name from `choices`.
  std::string choice(const std::string& k, const std::vector<std::string>& choices,
                     const std::string& def) {
    if (!has(k)) {
      if (def.empty()) missing(k);
      return def;
    }
    const std::string v = to_string(c_, n_[k], key(k));
    if (std::find(choices.begin(), choices.end(), v) == choices.end())
      fail(c_, n_[k],
           key(k) + ": unknown name '" + v + "' (expected one of: " + join(choices) + ")");
    return v;
  }
  void done() const {
    for (auto it = n_.begin(); it != n_.end(); ++it) {
      const std::string k = it->first.IsScalar() ? it->first.Scalar() : std::string("?");
      if (!used_.count(k)) {
        std::vector<std::string> allowed(used_.begin(), used_.end());
        fail(c_, it->first,
             "unknown key '" + k + "' in " + what_ + " (allowed: " + join(allowed) + ")");
      }
    }
  }
  static std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
  }
  static std::string fmt(Real v) {
    std::ostringstream os;
    os << v;
    return os.str();
  }

 private:
  const Ctx& c_;
  const YAML::Node n_;
  std::string what_;
  std::set<std::string> used_;
};

// Calls entry(map, i) for each entry i of the list under key k of m (none
// when k is absent), the entry a mapping named "<owner>.<k>[i]"; a value
// that is not a list is refused: "<owner>.<k>: expected <form>".
template <class Entry>
void for_each_entry(Map& m, const std::string& k, const std::string& owner, const std::string& form,
                    Entry entry) {
  if (!m.has(k)) return;
  const YAML::Node l = m.get(k);
  if (!l.IsSequence()) fail(m.ctx(), l, owner + "." + k + ": expected " + form);
  for (size_t i = 0; i < l.size(); ++i) {
    Map em(m.ctx(), l[i], owner + "." + k + "[" + std::to_string(i) + "]");
    entry(em, i);
  }
}

}  // namespace tlfea::scene::detail
