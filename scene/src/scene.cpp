// TLFEA: scene files (YAML) -> Model, stepper settings, contact hook.
// Keys, defaults and units: docs/scene.md. Every error is one tlfea::Error
// "FILE:LINE:COLUMN: message".
#include "tlfea/scene/scene.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

#include "tlfea/constraints/material_point.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/core/mesh_io.hpp"
#include "tlfea/solvers/linear_solver.hpp"

namespace tlfea::scene {
namespace {

namespace fs = std::filesystem;

struct Ctx {
  std::string file, base_dir;
};

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
    fail(c, n, what + ": " + n.Scalar() + " is out of range (at most " + std::to_string(kMax) +
                   " in magnitude)");
  return static_cast<long>(v);
}
// Memory this process may use: the machine's physical memory (sysconf), or
// 64 GiB where that is unknown. Sizes that would need more are refused up
// front (docs/scene.md, "Limits") instead of being attempted.
double memory_limit_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) return static_cast<double>(pages) * static_cast<double>(page);
  return 64.0 * (1ull << 30);
}
std::string gigabytes(double bytes) {
  std::ostringstream os;
  if (bytes < 1e15) {
    os.setf(std::ios::fixed);
    os.precision(1);
  } else {
    os.precision(3);
  }
  os << bytes / 1e9 << " GB";
  return os.str();
}
// Refuses (at n) `entries` values of `bytes_each` bytes (counted in double:
// the counts may exceed 64-bit integers) when they alone exceed the limit.
void require_memory(const Ctx& c, const YAML::Node& n, const std::string& what, double entries,
                    double bytes_each, const std::string& of) {
  const double need = entries * bytes_each, limit = memory_limit_bytes();
  if (need > limit) {
    std::ostringstream os;
    os.precision(3);
    os << what << " needs at least " << gigabytes(need) << " (" << of << ": " << entries << " x "
       << bytes_each << " bytes), more than the " << gigabytes(limit)
       << " of memory of this machine; refused";
    fail(c, n, os.str());
  }
}
// Entries of the assembled matrix of a structured mesh (3 x 3 per pair of
// coupled coefficients). Node couplings are a tensor product over the axes:
// along an axis of n cells, `per_axis(n)` counts the pairs (i, i') of node
// indices sharing a cell, summed over i; the pairs of the mesh are the
// product over the axes.
//  Q27 box (half-cell grid of 2n + 1 nodes): a vertex couples with 5 (3 on
//  the boundary), a mid-node with 3: 5 (n - 1) + 2 * 3 + 3 n = 8 n + 1. T10
//  boxes couple a subset of these (their nodes share the same cells).
//  ANCF beam and plate (n + 1 nodes): 3 each, 2 at the ends: 3 n + 1.
double box_pairs_per_axis(double n) { return 8 * n + 1; }
double ancf_pairs_per_axis(double n) { return 3 * n + 1; }
// Bounds of values that are accepted (docs/scene.md, "Limits").
constexpr Real kMaxSteps = 1e9;        // time steps of a run
constexpr Real kMaxFriction = 10.0;    // friction coefficients (real pairs: below about 2)
constexpr Real kMinDensity = 1e-3;     // kg/m^3
constexpr Real kMaxDensity = 1e5;      // kg/m^3
// Matrix entries take a value (8 bytes) and a column index (4 bytes).
constexpr double kMatrixEntryBytes = sizeof(Real) + sizeof(Ordinal);


// A body's mass: sum of the consistent mass over its position coefficients
// (a rigid translation moves only those: sum_{a,b position} M_ab = m).
Real body_total_mass(const Model& model, int body) {
  const CrsPattern& pat = model.pattern();
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pat.row_map);
  auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pat.entries);
  auto mv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.mass_values());
  const Mesh& mesh = model.mesh(body);
  const int cpn = mesh.coefficients_per_node();
  const Ordinal off = model.coefficient_offset(body);
  Real m = 0.0;
  for (Ordinal k = 0; k < mesh.num_coefficients(); k += cpn) {
    const Ordinal r = 3 * (off + k);
    for (Offset j = rm(r); j < rm(r + 1); ++j) {
      const Ordinal col = en(j);
      if (col % 3 != 0) continue;
      const Ordinal c = col / 3 - off;
      if (c >= 0 && c < mesh.num_coefficients() && c % cpn == 0) m += mv(j);
    }
  }
  return m;
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
  Real num(const std::string& k, Real def) {
    return has(k) ? to_real(c_, n_[k], key(k)) : def;
  }
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
  long integer(const std::string& k, long def) {
    return has(k) ? to_int(c_, n_[k], key(k)) : def;
  }
  long positive_int(const std::string& k, long def) {
    const long v = integer(k, def);
    if (v < 1) fail(c_, has(k) ? n_[k] : n_, key(k) + " must be a positive integer");
    return v;
  }
  bool boolean(const std::string& k, bool def) {
    return has(k) ? to_bool(c_, n_[k], key(k)) : def;
  }
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
      fail(c_, n_[k], key(k) + ": unknown name '" + v + "' (expected one of: " + join(choices) + ")");
    return v;
  }
  void done() const {
    for (auto it = n_.begin(); it != n_.end(); ++it) {
      const std::string k = it->first.IsScalar() ? it->first.Scalar() : std::string("?");
      if (!used_.count(k)) {
        std::vector<std::string> allowed(used_.begin(), used_.end());
        fail(c_, it->first, "unknown key '" + k + "' in " + what_ + " (allowed: " + join(allowed) +
                                ")");
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

TimeFunctionSpec parse_function(const Ctx& c, const YAML::Node& n, const std::string& what) {
  TimeFunctionSpec f;
  if (n.IsScalar()) {
    f.kind = TimeFunctionSpec::Kind::Constant;
    f.value = to_real(c, n, what);
    return f;
  }
  Map m(c, n, what);
  const std::string type = m.choice("type", {"constant", "ramp", "sine", "table"}, "");
  if (type == "constant") {
    f.kind = TimeFunctionSpec::Kind::Constant;
    f.value = m.num("value", 1.0);
  } else if (type == "ramp") {
    f.kind = TimeFunctionSpec::Kind::Ramp;
    f.t0 = m.num("t0", 0.0);
    f.t1 = m.num("t1", 1.0);
    f.from = m.num("from", 0.0);
    f.to = m.num("to", 1.0);
    if (!(f.t1 > f.t0)) fail(c, n, what + ": ramp needs t1 > t0");
  } else if (type == "sine") {
    f.kind = TimeFunctionSpec::Kind::Sine;
    f.amplitude = m.num("amplitude", 1.0);
    f.frequency = m.num("frequency", 1.0);
    f.phase = m.num("phase", 0.0);
    f.offset = m.num("offset", 0.0);
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

Mat3 rotation_matrix(const Vec3& axis, Real angle) {
  const Real n = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  Mat3 R = identity3();
  if (n == 0.0 || angle == 0.0) return R;
  const Real x = axis[0] / n, y = axis[1] / n, z = axis[2] / n;
  const Real cs = std::cos(angle), sn = std::sin(angle), t = 1.0 - cs;
  R(0, 0) = t * x * x + cs;
  R(0, 1) = t * x * y - sn * z;
  R(0, 2) = t * x * z + sn * y;
  R(1, 0) = t * x * y + sn * z;
  R(1, 1) = t * y * y + cs;
  R(1, 2) = t * y * z - sn * x;
  R(2, 0) = t * x * z - sn * y;
  R(2, 1) = t * y * z + sn * x;
  R(2, 2) = t * z * z + cs;
  return R;
}
Vec3 mul(const Mat3& R, const Vec3& x) {
  Vec3 y;
  for (int i = 0; i < 3; ++i) y[i] = R(i, 0) * x[0] + R(i, 1) * x[1] + R(i, 2) * x[2];
  return y;
}
Vec3 cross3(const Vec3& a, const Vec3& b) {
  return Vec3{{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}};
}
Real dot3(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

struct BodyData {
  std::string name;
  int id = -1;
  Mesh mesh;
  Real E = 0.0, nu = 0.0;  // for contact
  Real min_size = 0.0;     // smallest body dimension (default joint fibers)
  bool rigid = false;      // type: rigid (mesh: its one-node coefficient mesh)
  Real rigid_mass = 0.0;
  // contact_material (docs/scene.md): E <= 0 / nu NaN: the bulk E, nu;
  // restitution, mu_s, mu_k < 0: the contact section's.
  ContactMaterial contact{0.0, std::numeric_limits<Real>::quiet_NaN()};
};

// Visualisation points of the ANCF bodies per output step (docs/scene.md,
// "Limits"): 1e8 points are 7.2 GB per step file with displacement and
// velocity, beyond what a viewer shows or a disk holds for many steps.
constexpr double kMaxVisualisationPoints = 1e8;

class Builder {
 public:
  Builder(const Ctx& c, Scene& s) : c_(c), s_(s) {}

  void build(const YAML::Node& root) {
    Map top(c_, root, "scene");
    s_.name = top.str("name", s_.name);
    s_.description = top.str("description", "");
    // gravity: [gx, gy, gz], or {vector: [gx, gy, gz], function: f} for
    // g f(t) (a time function as for loads, e.g. a ramp to settle a model).
    Vec3 gravity{{0.0, 0.0, 0.0}};
    TimeFunction gravity_amplitude;
    if (top.has("gravity")) {
      const YAML::Node gn = top.get("gravity");
      if (gn.IsMap()) {
        Map gm(c_, gn, "gravity");
        gravity = gm.vec3_req("vector");
        if (gm.has("function")) {
          const TimeFunctionSpec f = parse_function(c_, gm.get("function"), gm.key("function"));
          gravity_amplitude = [f](Real t) { return f(t); };
        }
        gm.done();
      } else if (gn.IsSequence()) {
        gravity = to_vec3(c_, gn, "gravity");
      } else {
        fail(c_, gn, std::string("gravity: expected a list of 3 numbers [x, y, z] or a mapping "
                                 "{vector: [x, y, z], function: ...}, got ") + kind_name(gn));
      }
    }
    s_.settings.analysis = top.choice("analysis", {"dynamic", "static"}, "dynamic");
    parse_time(top);
    parse_solver(top);
    parse_output(top);
    // Bodies first (all of them before the reference is built).
    const YAML::Node bodies = top.req("bodies");
    if (!bodies.IsSequence() || bodies.size() == 0)
      fail(c_, bodies, "scene.bodies: expected a non-empty list of bodies");
    s_.model = std::make_unique<Model>();
    std::vector<std::unique_ptr<Map>> body_maps;
    for (size_t i = 0; i < bodies.size(); ++i) {
      body_maps.push_back(std::make_unique<Map>(c_, bodies[i], "bodies[" + std::to_string(i) + "]"));
      add_body(*body_maps.back(), static_cast<int>(i));
    }
    s_.model->set_gravity(gravity, gravity_amplitude);
    q0_ = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s_.model->reference());
    for (size_t i = 0; i < bodies.size(); ++i) body_conditions(*body_maps[i], static_cast<int>(i));
    for (auto& m : body_maps) m->done();
    if (top.has("joints")) {
      const YAML::Node joints = top.get("joints");
      if (!joints.IsSequence()) fail(c_, joints, "scene.joints: expected a list of joints");
      for (size_t i = 0; i < joints.size(); ++i) add_joint(joints[i], static_cast<int>(i));
    }
    check_output_size();
    const bool has_contact = top.has("contact");
    if (has_contact && s_.settings.analysis == "static")
      fail(c_, top.get("contact"),
           "contact: not supported in a static analysis (analysis: static); settle a model in "
           "contact with a dynamic analysis and damping");
    top.done();
    s_.model->finalize();
    if (has_contact) add_contact(top.get("contact"));
    for (const auto& b : bodies_) {
      SceneBodyInfo info;
      info.name = b.name;
      info.element = b.mesh.type;
      info.elements = b.mesh.num_elements();
      info.coefficients = b.mesh.num_coefficients();
      info.material = s_.model->block(b.id).material_name();
      info.rigid = b.rigid;
      info.mass = b.rigid ? b.rigid_mass
                          : s_.model->block(b.id).density() *
                                s_.model->block(b.id).volume(s_.model->reference());
      s_.bodies.push_back(info);
    }
  }

 private:
  void parse_time(Map& top) {
    s_.settings.dt = 1e-3;
    s_.steps = 100;
    if (!top.has("time")) {
      s_.end_time = s_.steps * s_.settings.dt;
      return;
    }
    Map t(c_, top.get("time"), "time");
    const Real dt = t.num("dt", 1e-3);
    if (!(dt > 0.0))
      fail(c_, t.has("dt") ? t.node()["dt"] : t.node(), "time.dt must be positive, got " + Map::fmt(dt));
    s_.settings.dt = dt;
    if (t.has("steps") && t.has("end_time"))
      fail(c_, t.node()["end_time"], "time: give either steps or end_time, not both");
    if (t.has("end_time")) {
      const Real T = t.positive("end_time", 0.0);
      // Checked before rounding: lround of a huge ratio is undefined (it
      // made end_time 1e300 one step).
      if (T / dt > kMaxSteps)
        fail(c_, t.node()["end_time"], "time: end_time / dt = " + Map::fmt(T) + " / " + Map::fmt(dt) +
                                           " is " + Map::fmt(T / dt) + " steps, more than " +
                                           Map::fmt(kMaxSteps));
      s_.steps = std::max<long>(1, std::lround(T / dt));
    } else if (t.has("steps")) {
      const Real n = t.num("steps", 100);
      if (n > kMaxSteps)
        fail(c_, t.node()["steps"], "time.steps: " + Map::fmt(n) + " steps is more than " +
                                        Map::fmt(kMaxSteps));
      s_.steps = t.positive_int("steps", 100);
    }
    s_.end_time = s_.steps * dt;
    t.done();
  }

  void parse_solver(Map& top) {
    StepperSettings& st = s_.settings;
    if (!top.has("solver")) return;
    Map m(c_, top.get("solver"), "solver");
    st.inner_solver = m.choice("inner", {"newton", "adamw"}, "newton");
    if (m.has("linear_solver")) {
      const std::vector<std::string> avail = available_linear_solvers();
      const std::string name = m.str("linear_solver", "default");
      if (std::find(avail.begin(), avail.end(), name) == avail.end())
        fail(c_, m.node()["linear_solver"],
             "solver.linear_solver: unknown name '" + name + "' (built: " + Map::join(avail) + ")");
      st.linear.backend = name;
    }
    st.linear.tolerance = m.positive("linear_tolerance", st.linear.tolerance);
    st.linear.max_iterations = static_cast<int>(m.positive_int("linear_max_iterations", st.linear.max_iterations));
    st.linear.preconditioner =
        m.choice("preconditioner", {"default", "none", "jacobi", "block-jacobi", "ilu", "muelu"},
                 st.linear.preconditioner);
    st.linear.ilu_level = static_cast<int>(m.integer("ilu_level", st.linear.ilu_level));
    if (st.linear.ilu_level < 0)
      fail(c_, m.node()["ilu_level"],
           "solver.ilu_level must be >= 0, got " + std::to_string(st.linear.ilu_level));
    st.linear.symmetric = m.boolean("symmetric", st.linear.symmetric);
    st.linear.ordering = m.choice("ordering", {"default", "nd", "amd"}, st.linear.ordering);
    st.linear.positive_definite = m.boolean("positive_definite", st.linear.positive_definite);
    st.penalty = m.num("rho", st.penalty);
    if (st.penalty < 0.0) fail(c_, m.node()["rho"], "solver.rho must be >= 0 (0: automatic)");
    st.penalty_scale = m.positive("penalty_scale", st.penalty_scale);
    st.max_outer = static_cast<int>(m.positive_int("max_outer", st.max_outer));
    st.constraint_tolerance = m.positive("constraint_tolerance", st.constraint_tolerance);
    st.max_newton = static_cast<int>(m.positive_int("max_newton", st.max_newton));
    st.residual_force_tol = m.nonnegative("residual_force_tol", st.residual_force_tol);
    st.residual_rel_tol = m.nonnegative("residual_rel_tol", st.residual_rel_tol);
    st.residual_abs_tol = m.nonnegative("residual_abs_tol", st.residual_abs_tol);
    st.step_tol = m.nonnegative("step_tol", st.step_tol);
    st.position_tol = m.nonnegative("position_tol", st.position_tol);
    st.dp1_curvature = m.boolean("dp1_curvature", st.dp1_curvature);
    st.line_search = m.boolean("line_search", st.line_search);
    st.reuse_jacobian = m.boolean("reuse_jacobian", st.reuse_jacobian);
    st.reuse_ratio = m.positive("reuse_ratio", st.reuse_ratio);
    st.max_retries = static_cast<int>(m.integer("max_retries", st.max_retries));
    st.adamw_learning_rate = m.positive("adamw_learning_rate", st.adamw_learning_rate);
    st.adamw_beta1 = m.num("adamw_beta1", st.adamw_beta1);
    st.adamw_beta2 = m.num("adamw_beta2", st.adamw_beta2);
    st.adamw_epsilon = m.positive("adamw_epsilon", st.adamw_epsilon);
    st.adamw_weight_decay = m.num("adamw_weight_decay", st.adamw_weight_decay);
    st.adamw_lr_decay = m.positive("adamw_lr_decay", st.adamw_lr_decay);
    st.adamw_max_iterations = static_cast<int>(m.positive_int("adamw_max_iterations", st.adamw_max_iterations));
    st.adamw_check_every = static_cast<int>(m.positive_int("adamw_check_every", st.adamw_check_every));
    m.done();
    // The linear solver the stepper will make (TimeStepper's setup), made
    // here so that `check` refuses every combination `run` would (e.g.
    // belos-cg with symmetric: false), at the key that chose it.
    LinearSolverOptions lo = st.linear;
    if (st.dp1_curvature) lo.positive_definite = false;
    try {
      make_linear_solver(lo);
    } catch (const Error& e) {
      const std::string msg = e.what();
      const char* key = msg.find("symmetric") != std::string::npos && m.has("symmetric")
                            ? "symmetric"
                            : m.has("linear_solver") ? "linear_solver" : nullptr;
      fail(c_, key ? m.node()[key] : m.node(), std::string("solver") + (key ? "." : "") +
                                                   (key ? key : "") + ": " + msg);
    }
  }

  // ANCF bodies are written as samples^d visualisation points per element
  // (io/src/output.cpp: beams samples x 2 x 2, plates samples x samples x 2),
  // each holding its shape-function weights (a 4-byte id and an 8-byte
  // weight per element coefficient), its reference position, an offset and
  // the 8 ids of at most one cell: refused when they would not fit.
  // Also estimates the bytes of one output step's fields (x, displacement,
  // velocity: 3 doubles each per point; stress and von Mises: 7 per
  // quadratic element) for the size warning of `tlfea run`.
  void check_output_size() {
    if (!s_.output.enabled) return;
    const double ns = std::max(2, s_.output.samples);
    const double per_point = 3.0 * sizeof(Real) * (1 + s_.output.displacement + s_.output.velocity);
    double points = 0.0, bytes = 0.0, step_bytes = 0.0;
    for (const auto& b : bodies_) {
      const bool beam = b.mesh.type == ElementType::ANCF3243;
      if (!beam && b.mesh.type != ElementType::ANCF3443) {
        step_bytes += static_cast<double>(b.mesh.num_nodes()) * per_point +
                      (s_.output.stress ? 7.0 * sizeof(Real) * b.mesh.num_elements() : 0.0);
        continue;
      }
      const double p = static_cast<double>(b.mesh.num_elements()) * (beam ? 4 * ns : 2 * ns * ns);
      const double coefficients = beam ? 8 : 16;
      points += p;
      step_bytes += p * per_point;
      bytes += p * (coefficients * (sizeof(Ordinal) + sizeof(Real)) + 3 * sizeof(Real) +
                    sizeof(Ordinal) + 8 * sizeof(Ordinal));
    }
    s_.output.step_bytes = step_bytes;
    if (points == 0.0 || !samples_node_.IsDefined()) return;
    if (points > kMaxVisualisationPoints) {
      std::ostringstream os;
      os.precision(12);
      os << "output.samples: " << points << " visualisation points per output step, more than "
         << "the limit of 1e8 (" << gigabytes(points * per_point)
         << " per step file); refused";
      fail(c_, samples_node_, os.str());
    }
    if (points > static_cast<double>(std::numeric_limits<Ordinal>::max())) {
      std::ostringstream os;
      os.precision(3);
      os << "output.samples: " << points << " visualisation points, more than the index type holds ("
         << std::numeric_limits<Ordinal>::max() << ")";
      fail(c_, samples_node_, os.str());
    }
    require_memory(c_, samples_node_, "output.samples", points, bytes / points,
                   "visualisation points");
  }

  void parse_output(Map& top) {
    SceneOutput& o = s_.output;
    o.directory = "tlfea_out/" + s_.name;
    if (!top.has("output")) return;
    Map m(c_, top.get("output"), "output");
    o.enabled = m.boolean("enabled", true);
    o.directory = m.str("directory", o.directory);
    o.every = static_cast<int>(m.positive_int("every", 1));
    o.samples = static_cast<int>(m.integer("samples", 3));
    if (m.has("samples")) samples_node_ = m.node()["samples"];
    if (o.samples < 2) fail(c_, m.node()["samples"], "output.samples must be >= 2");
    if (m.has("fields")) {
      const YAML::Node f = m.get("fields");
      if (!f.IsSequence()) fail(c_, f, "output.fields: expected a list of field names");
      o.displacement = o.velocity = o.stress = o.reactions = o.contact = false;
      for (size_t i = 0; i < f.size(); ++i) {
        const std::string n = to_string(c_, f[i], "output.fields");
        if (n == "displacement") o.displacement = true;
        else if (n == "velocity") o.velocity = true;
        else if (n == "stress") o.stress = true;
        else if (n == "reactions") o.reactions = true;
        else if (n == "contact") o.contact = true;
        else
          fail(c_, f[i], "output.fields: unknown name '" + n +
                             "' (expected one of: displacement, velocity, stress, reactions, contact)");
      }
    }
    m.done();
  }

  // ANCF options of a Gmsh mesh file (docs/ancf_mesh.md): beams need
  // sections: [{group, width, height, up}], shells thickness (or sections:
  // [{group, thickness}]); smooth_angle (degrees) for beams.
  AncfGmshOptions ancf_options(Map& mm, const std::string& what, const std::string& elem) {
    AncfGmshOptions o;
    const bool beam = elem == "ANCF3243";
    if (beam) o.smooth_angle_deg = mm.num("smooth_angle", o.smooth_angle_deg);
    if (beam && !(o.smooth_angle_deg >= 0 && o.smooth_angle_deg < 90))
      fail(c_, mm.node()["smooth_angle"], what + ".smooth_angle must be in [0, 90) degrees");
    if (!beam && mm.has("thickness")) o.shells.push_back({"", mm.positive_req("thickness")});
    if (mm.has("sections")) {
      const YAML::Node sn = mm.get("sections");
      if (!sn.IsSequence() || sn.size() == 0)
        fail(c_, sn, what + ".sections: expected a non-empty list of sections");
      for (size_t i = 0; i < sn.size(); ++i) {
        Map sm(c_, sn[i], what + ".sections[" + std::to_string(i) + "]");
        const std::string group = sm.str("group", "");
        if (beam) {
          const Vec3 up = sm.vec3("up", Vec3{{0, 0, 1}});
          if (dot3(up, up) == 0.0) fail(c_, sm.node()["up"], sm.key("up") + ": zero vector");
          o.beams.push_back({group, sm.positive_req("width"), sm.positive_req("height"),
                             {up[0], up[1], up[2]}});
        } else {
          o.shells.push_back({group, sm.positive_req("thickness")});
        }
        sm.done();
      }
    }
    if (beam && o.beams.empty())
      fail(c_, mm.node(),
           what + ": an ANCF3243 Gmsh mesh needs sections: [{group, width, height, up}]");
    if (!beam && o.shells.empty())
      fail(c_, mm.node(),
           what + ": an ANCF3443 Gmsh mesh needs thickness (or sections: [{group, thickness}])");
    return o;
  }

  Mesh read_mesh_node(Map& mm, const std::string& what, const std::string& elem) {
    const YAML::Node fn = mm.get("file");
    const std::string rel = to_string(c_, fn, what + ".file");
    fs::path p(rel);
    if (p.is_relative()) p = fs::path(c_.base_dir) / p;
    const std::string ps = p.string();
    const bool exists = fs::is_regular_file(p) || fs::is_regular_file(ps + ".node");
    if (!exists) fail(c_, fn, what + ".file: mesh file '" + ps + "' not found");
    const bool ancf_msh = (elem == "ANCF3243" || elem == "ANCF3443") && p.extension() == ".msh";
    if (!ancf_msh && (mm.has("sections") || mm.has("thickness") || mm.has("smooth_angle")))
      fail(c_, mm.node(),
           what + ": sections, thickness and smooth_angle are for a Gmsh (.msh) file read as ANCF "
                  "beams or shells: give element: ANCF3243 or ANCF3443");
    AncfGmshOptions ancf;
    if (ancf_msh) ancf = ancf_options(mm, what, elem);
    try {
      if (ancf_msh) return read_gmsh_ancf(ps, element_type_from_string(elem), ancf);
      return read_mesh(ps);
    } catch (const Error& e) {
      fail(c_, fn, what + ".file: " + e.what());
    } catch (const std::length_error& e) {
      fail(c_, fn, what + ".file: counts too large (" + e.what() + ")");
    } catch (const std::bad_alloc&) {
      fail(c_, fn, what + ".file: out of memory while reading it");
    }
  }

  void add_body(Map& m, int index) {
    BodyData b;
    b.name = m.str("name", "body" + std::to_string(index));
    for (const auto& o : bodies_)
      if (o.name == b.name) fail(c_, m.node()["name"], "body name '" + b.name + "' used twice");
    if (b.name == "ground") fail(c_, m.node()["name"], "'ground' is reserved for the fixed frame");
    // The name heads the body's history columns ("<name>.com_x", ...,
    // io/output.hpp) in history.csv and output.h5: letters, digits, '_', '-'.
    if (b.name.empty() || !std::all_of(b.name.begin(), b.name.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
        }))
      fail(c_, m.node()["name"], "body name '" + b.name +
                                     "': use letters, digits, '_' and '-' only (it names the "
                                     "body's history columns)");
    const std::string what = "body '" + b.name + "'";
    // type: rigid (docs/theory.md §11): mass properties given (mass, inertia),
    // of a primitive shape, or of a T10 / Q27 mesh with a density.
    const bool rigid = m.choice("type", {"deformable", "rigid"}, "deformable") == "rigid";
    if (rigid && !m.has("mesh")) {
      add_rigid(m, b, what, nullptr);
      return;
    }
    const std::vector<std::string> elems = {"T10", "Q27", "ANCF3243", "ANCF3443"};
    std::string elem;
    if (m.has("element")) elem = m.choice("element", elems, "");
    Map mm(c_, m.req("mesh"), what + ".mesh");
    if (mm.has("file") && mm.has("generator"))
      fail(c_, mm.node(), what + ".mesh: give either file or generator, not both");
    if (mm.has("file")) {
      b.mesh = read_mesh_node(mm, what + ".mesh", elem);
      if (!elem.empty() && elem != tlfea::to_string(b.mesh.type))
        fail(c_, m.node()["element"], what + ": element " + elem + " does not match the mesh file's " +
                                          tlfea::to_string(b.mesh.type));
    } else {
      const std::string g = mm.choice("generator", {"box", "ball", "beam", "plate"}, "");
      try {
        if (g == "box" || g == "ball") {
          if (elem.empty()) fail(c_, m.node(), what + ": missing required key 'element' (T10 or Q27)");
          if (elem != "T10" && elem != "Q27")
            fail(c_, m.node()["element"], what + ": generator " + g + " makes T10 or Q27, not " + elem);
          const ElementType t = element_type_from_string(elem);
          if (g == "box") {
            const Vec3 L = mm.vec3_req("lengths");
            const YAML::Node dn = mm.req("divisions");
            if (!dn.IsSequence() || dn.size() != 3)
              fail(c_, dn, what + ".mesh.divisions: expected a list of 3 integers");
            std::array<int, 3> d;
            for (int a = 0; a < 3; ++a) {
              d[a] = static_cast<int>(to_int(c_, dn[a], what + ".mesh.divisions"));
              if (d[a] < 1) fail(c_, dn[a], what + ".mesh.divisions must be >= 1");
              if (!(L[a] > 0)) fail(c_, mm.node()["lengths"], what + ".mesh.lengths must be positive");
            }
            const Vec3 o = mm.vec3("origin", Vec3{{0, 0, 0}});
            require_memory(c_, dn, what + ".mesh.divisions", 9.0 * box_pairs_per_axis(d[0]) *
                               box_pairs_per_axis(d[1]) * box_pairs_per_axis(d[2]),
                           kMatrixEntryBytes, "matrix entries");
            b.mesh = generate_box(t, {L[0], L[1], L[2]}, d, {o[0], o[1], o[2]});
          } else {
            const Real r = mm.positive_req("radius");
            const int d = static_cast<int>(mm.positive_int("divisions", 2));
            const Vec3 ctr = mm.vec3("center", Vec3{{0, 0, 0}});
            const double pairs = box_pairs_per_axis(d);
            require_memory(c_, mm.has("divisions") ? mm.node()["divisions"] : mm.node(),
                           what + ".mesh.divisions", 9.0 * pairs * pairs * pairs, kMatrixEntryBytes,
                           "matrix entries");
            b.mesh = generate_ball(t, r, d, {ctr[0], ctr[1], ctr[2]});
          }
        } else if (g == "beam") {
          if (!elem.empty() && elem != "ANCF3243")
            fail(c_, m.node()["element"], what + ": generator beam makes ANCF3243, not " + elem);
          const Real L = mm.positive_req("length"), W = mm.positive_req("width"),
                     H = mm.positive_req("height");
          const int n = static_cast<int>(mm.positive_int("elements", 4));
          require_memory(c_, mm.has("elements") ? mm.node()["elements"] : mm.node(),
                         what + ".mesh.elements", 9.0 * 16.0 * ancf_pairs_per_axis(n),
                         kMatrixEntryBytes, "matrix entries");
          b.mesh = generate_beam_ancf3243(L, W, H, n);
        } else {
          if (!elem.empty() && elem != "ANCF3443")
            fail(c_, m.node()["element"], what + ": generator plate makes ANCF3443, not " + elem);
          const Real lx = mm.positive_req("lx"), ly = mm.positive_req("ly"),
                     th = mm.positive_req("thickness");
          const YAML::Node dn = mm.req("divisions");
          if (!dn.IsSequence() || dn.size() != 2)
            fail(c_, dn, what + ".mesh.divisions: expected a list of 2 integers [nx, ny]");
          std::array<int, 2> d;
          for (int a = 0; a < 2; ++a) {
            d[a] = static_cast<int>(to_int(c_, dn[a], what + ".mesh.divisions"));
            if (d[a] < 1) fail(c_, dn[a], what + ".mesh.divisions must be >= 1");
          }
          require_memory(c_, dn, what + ".mesh.divisions",
                         9.0 * 16.0 * ancf_pairs_per_axis(d[0]) * ancf_pairs_per_axis(d[1]),
                         kMatrixEntryBytes, "matrix entries");
          b.mesh = generate_plate_ancf3443(lx, ly, th, d);
        }
      } catch (const Error& e) {
        const std::string msg = e.what();
        if (msg.rfind(c_.file + ":", 0) == 0) throw;
        fail(c_, mm.node(), what + ".mesh: " + msg);
      } catch (const std::length_error& e) {
        // A size the checks above missed (std::vector's own limit, e.g.
        // "vector::_M_default_append"): still an error at the mesh.
        fail(c_, mm.node(), what + ".mesh: too large (" + e.what() + ")");
      } catch (const std::bad_alloc&) {
        fail(c_, mm.node(), what + ".mesh: out of memory while generating it");
      }
    }
    mm.done();
    // Placement: x = R X + translation (R about the origin, axis-angle in rad).
    Vec3 trans{{0, 0, 0}};
    Mat3 R = identity3();
    if (m.has("placement")) {
      Map pm(c_, m.get("placement"), what + ".placement");
      trans = pm.vec3("translation", trans);
      if (pm.has("rotation")) {
        Map rm(c_, pm.get("rotation"), what + ".placement.rotation");
        const Vec3 axis = rm.vec3_req("axis");
        if (dot3(axis, axis) == 0.0) fail(c_, rm.node()["axis"], what + ": rotation axis is zero");
        R = rotation_matrix(axis, rm.num_req("angle"));
        rm.done();
      }
      pm.done();
    }
    const int cpn = b.mesh.coefficients_per_node();
    for (size_t k = 0; k < b.mesh.coefficients.size(); ++k) {
      const Vec3 x{{b.mesh.coefficients[k][0], b.mesh.coefficients[k][1], b.mesh.coefficients[k][2]}};
      Vec3 y = mul(R, x);
      if (k % cpn == 0)
        for (int a = 0; a < 3; ++a) y[a] += trans[a];
      for (int a = 0; a < 3; ++a) b.mesh.coefficients[k][a] = y[a];
    }
    if (rigid) {
      const Mesh shape = b.mesh;
      add_rigid(m, b, what, &shape);
      return;
    }
    // Material.
    Map mat(c_, m.req("material"), what + ".material");
    const std::string model = mat.choice("model", {"svk", "neo_hookean", "mooney_rivlin"}, "");
    MaterialSpec spec;
    try {
      if (model == "svk") {
        b.E = mat.num_req("E");
        b.nu = mat.num_req("nu");
        spec = MaterialSpec::svk(b.E, b.nu);
      } else if (model == "neo_hookean") {
        Real mu, kappa;
        if (mat.has("E") || mat.has("nu")) {
          b.E = mat.num_req("E");
          b.nu = mat.num_req("nu");
          const LameParameters l = lame_from_young_poisson(b.E, b.nu);
          mu = l.mu;
          kappa = l.lambda + 2.0 * l.mu / 3.0;
        } else {
          mu = mat.positive_req("mu");
          kappa = mat.positive_req("kappa");
          b.E = 9.0 * kappa * mu / (3.0 * kappa + mu);
          b.nu = (3.0 * kappa - 2.0 * mu) / (2.0 * (3.0 * kappa + mu));
          require_poisson_range(mat, "kappa", b.nu);
        }
        spec = MaterialSpec::neo_hookean(mu, kappa);
      } else {
        const Real mu10 = mat.num_req("mu10"), mu01 = mat.num_req("mu01"),
                   kappa = mat.positive_req("kappa");
        // A negative constant makes the strain energy lose convexity
        // (polyconvexity, and with it stability, needs mu10, mu01 >= 0).
        for (const char* k : {"mu10", "mu01"})
          if (mat.num_req(k) < 0)
            fail(c_, mat.node()[k], mat.key(k) + " must be >= 0 (a negative Mooney-Rivlin constant "
                                                 "makes the material unstable), got " +
                                        Map::fmt(mat.num_req(k)));
        const Real mu = 2.0 * (mu10 + mu01);
        if (!(mu > 0)) fail(c_, mat.node(), what + ".material: mu10 + mu01 must be positive");
        b.E = 9.0 * kappa * mu / (3.0 * kappa + mu);
        b.nu = (3.0 * kappa - 2.0 * mu) / (2.0 * (3.0 * kappa + mu));
        require_poisson_range(mat, "kappa", b.nu);
        spec = MaterialSpec::mooney_rivlin(mu10, mu01, kappa);
      }
    } catch (const Error& e) {
      const std::string msg = e.what();
      if (msg.rfind(c_.file + ":", 0) == 0) throw;
      fail(c_, mat.node(), what + ".material: " + msg);
    }
    if (mat.has("damping")) {
      Map dm(c_, mat.get("damping"), what + ".material.damping");
      const Real mu_v = dm.num("mu_v", 0.0), lambda_v = dm.num("lambda_v", 0.0);
      if (mu_v < 0 || lambda_v < 0) fail(c_, dm.node(), what + ": damping constants must be >= 0");
      spec = spec.with_kelvin_voigt(mu_v, lambda_v);
      dm.done();
    }
    mat.done();
    const Real rho = m.positive_req("density");
    // SI units: solids lie between aerogels (about 1 kg/m^3) and osmium
    // (22,590 kg/m^3); a value far outside is a unit mistake (g/cm^3, or
    // kg/mm^3) that would scale every inertia force.
    if (rho < kMinDensity || rho > kMaxDensity)
      fail(c_, m.node()["density"], what + ".density " + Map::fmt(rho) + " kg/m^3 is outside [" +
                                        Map::fmt(kMinDensity) + ", " + Map::fmt(kMaxDensity) +
                                        "] kg/m^3 (SI units)");
    try {
      b.id = s_.model->add_body(b.mesh, spec, rho);
    } catch (const Error& e) {
      fail(c_, m.node(), what + ": " + e.what());
    }
    // Smallest dimension (default joint fibre): ANCF cross-section, solids their box.
    Real lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::numeric_limits<Real>::max();
      hi[a] = -lo[a];
    }
    for (Ordinal n = 0; n < b.mesh.num_nodes(); ++n)
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::min(lo[a], b.mesh.node_position(n)[a]);
        hi[a] = std::max(hi[a], b.mesh.node_position(n)[a]);
      }
    if (b.mesh.type == ElementType::ANCF3243)
      b.min_size = std::min(b.mesh.element_size[0][1], b.mesh.element_size[0][2]);
    else if (b.mesh.type == ElementType::ANCF3443)
      b.min_size = b.mesh.element_size[0][2];
    else
      b.min_size = std::min({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
    // Initial velocity v(x) = v0 + w x (x - translation); gradients w x r_u.
    const Vec3 v0 = m.vec3("velocity", Vec3{{0, 0, 0}});
    const Vec3 w = m.vec3("angular_velocity", Vec3{{0, 0, 0}});
    if (dot3(v0, v0) > 0 || dot3(w, w) > 0) init_v_.push_back({b.id, v0, w, trans});
    if (s_.settings.analysis == "static" && (dot3(v0, v0) > 0 || dot3(w, w) > 0))
      fail(c_, m.node()[dot3(v0, v0) > 0 ? "velocity" : "angular_velocity"],
           m.key(dot3(v0, v0) > 0 ? "velocity" : "angular_velocity") +
               ": a static analysis (analysis: static) has no initial velocity");
    if (m.has("contact_material"))
      b.contact = parse_contact_material(m.get("contact_material"), what);
    bodies_.push_back(std::move(b));
  }

  // A rigid body (docs/scene.md, "Rigid bodies"): from `shape` (a T10 / Q27
  // mesh, already placed, with `density`), a primitive `shape` with
  // `density`, or `mass` + `inertia` (about the centre of mass, reference
  // axes: a list of 3 principal moments or a 3 x 3 matrix) + `center`.
  void add_rigid(Map& m, BodyData& b, const std::string& what, const Mesh* shape) {
    RigidBodySpec spec;
    const int kinds = (shape != nullptr) + m.has("shape") + m.has("mass");
    if (kinds != 1)
      fail(c_, m.node(),
           what +
               ": a rigid body needs exactly one of mesh (with density), shape "
               "(with density) or mass (with inertia)");
    auto density = [&]() {
      const Real rho = m.positive_req("density");
      if (rho < kMinDensity || rho > kMaxDensity)
        fail(c_, m.node()["density"],
             what + ".density " + Map::fmt(rho) + " kg/m^3 is outside [" + Map::fmt(kMinDensity) +
                 ", " + Map::fmt(kMaxDensity) + "] kg/m^3 (SI units)");
      return rho;
    };
    if (shape) {
      if (shape->type != ElementType::T10 && shape->type != ElementType::Q27)
        fail(c_, m.node()["mesh"], what + ": a rigid body's mesh must be T10 or Q27");
      const Real rho = density();
      try {
        spec = rigid_body_from_mesh(*shape, rho);
      } catch (const Error& e) {
        fail(c_, m.node()["mesh"], what + ".mesh: " + e.what());
      }
    } else if (m.has("shape")) {
      Map sm(c_, m.get("shape"), what + ".shape");
      const std::string kind = sm.choice("type", {"box", "sphere", "cylinder"}, "");
      const Real rho = density();
      const Vec3 c = m.vec3("center", Vec3{{0, 0, 0}});
      if (kind == "box") {
        const Vec3 size = sm.vec3_req("size");
        for (int a = 0; a < 3; ++a)
          if (!(size[a] > 0)) fail(c_, sm.node()["size"], sm.key("size") + " must be positive");
        spec = rigid_box(c, size, rho);
      } else if (kind == "sphere") {
        spec = rigid_sphere(c, sm.positive_req("radius"), rho);
      } else {
        spec = rigid_cylinder(c, sm.positive_req("radius"), sm.positive_req("length"), rho);
      }
      sm.done();
    } else {
      spec.mass = m.positive_req("mass");
      spec.center = m.vec3("center", Vec3{{0, 0, 0}});
      const YAML::Node in = m.req("inertia");
      if (in.IsSequence() && in.size() == 3 && in[0].IsScalar()) {
        const Vec3 d = to_vec3(c_, in, m.key("inertia"));
        for (int a = 0; a < 3; ++a) spec.inertia(a, a) = d[a];
      } else if (in.IsSequence() && in.size() == 3) {
        for (int a = 0; a < 3; ++a) {
          const Vec3 row = to_vec3(c_, in[a], m.key("inertia"));
          for (int c = 0; c < 3; ++c) spec.inertia(a, c) = row[c];
        }
        for (int a = 0; a < 3; ++a)
          for (int c = 0; c < a; ++c)
            if (std::fabs(spec.inertia(a, c) - spec.inertia(c, a)) >
                1e-12 * (std::fabs(spec.inertia(a, c)) + std::fabs(spec.inertia(c, a))))
              fail(c_, in, m.key("inertia") + ": the inertia tensor must be symmetric");
      } else {
        fail(c_, in,
             m.key("inertia") +
                 ": expected 3 principal moments [Ixx, Iyy, Izz] or a 3 x 3 "
                 "matrix [[...], [...], [...]] (kg m^2)");
      }
      for (int a = 0; a < 3; ++a)
        if (!(spec.inertia(a, a) >= 0))
          fail(c_, in, m.key("inertia") + ": moments of inertia must be >= 0");
    }
    if (m.has("extent")) {
      spec.extent = m.vec3_req("extent");
      for (int a = 0; a < 3; ++a)
        if (!(spec.extent[a] > 0))
          fail(c_, m.node()["extent"], m.key("extent") + " must be positive");
    }
    spec.name = b.name;
    try {
      b.id = s_.model->add_rigid_body(spec);
    } catch (const Error& e) {
      fail(c_, m.node(), what + ": " + e.what());
    }
    b.mesh = s_.model->mesh(b.id);
    b.rigid = true;
    // Default joint fibre: the smallest dimension of the shape or box; for
    // mass properties only, the radius of gyration sqrt(tr(S) / m).
    Real ext = std::numeric_limits<Real>::max();
    for (int a = 0; a < 3; ++a)
      if (spec.extent[a] > 0) ext = std::min(ext, 2 * spec.extent[a]);
    if (shape) {
      Real lo[3], hi[3];
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::numeric_limits<Real>::max();
        hi[a] = -lo[a];
      }
      for (const auto& x : shape->coefficients)
        for (int a = 0; a < 3; ++a) {
          lo[a] = std::min(lo[a], x[a]);
          hi[a] = std::max(hi[a], x[a]);
        }
      ext = std::min({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
    }
    if (ext == std::numeric_limits<Real>::max()) {
      const Real tr = 0.5 * (spec.inertia(0, 0) + spec.inertia(1, 1) + spec.inertia(2, 2));
      ext = tr > 0 ? std::sqrt(tr / spec.mass) : 0.1;
    }
    b.min_size = ext;
    b.rigid_mass = spec.mass;
    // Initial velocity of the centre and angular velocity about it.
    const Vec3 v0 = m.vec3("velocity", Vec3{{0, 0, 0}});
    const Vec3 w = m.vec3("angular_velocity", Vec3{{0, 0, 0}});
    if (dot3(v0, v0) > 0 || dot3(w, w) > 0) init_v_.push_back({b.id, v0, w, spec.center});
    if (s_.settings.analysis == "static" && (dot3(v0, v0) > 0 || dot3(w, w) > 0))
      fail(c_, m.node()[dot3(v0, v0) > 0 ? "velocity" : "angular_velocity"],
           m.key(dot3(v0, v0) > 0 ? "velocity" : "angular_velocity") +
               ": a static analysis (analysis: static) has no initial velocity");
    bodies_.push_back(std::move(b));
  }

  // The Poisson's ratio implied by the moduli (mu, kappa) must lie in
  // (-1, 0.5); kappa -> 0 gives nu -> -1 (e.g. kappa = 1e-300: nu = -1 in
  // floating point), a material without resistance to volume change.
  void require_poisson_range(Map& mat, const char* key, Real nu) {
    if (!(nu > -1.0 && nu < 0.5))
      fail(c_, mat.node()[key], mat.key(key) + ": the implied Poisson's ratio " + Map::fmt(nu) +
                                    " is not in (-1, 0.5)");
  }

  int body_index(const YAML::Node& n, const std::string& what, bool allow_ground) {
    const std::string name = to_string(c_, n, what);
    if (allow_ground && name == "ground") return -1;
    for (size_t i = 0; i < bodies_.size(); ++i)
      if (bodies_[i].name == name) return static_cast<int>(i);
    std::vector<std::string> names;
    for (const auto& b : bodies_) names.push_back(b.name);
    if (allow_ground) names.push_back("ground");
    fail(c_, n, what + ": unknown body '" + name + "' (bodies: " + Map::join(names) + ")");
  }

  // Nodes of a body chosen by a selector (set / box / plane / nodes).
  std::vector<Ordinal> select(Map& m, const BodyData& b) {
    const std::string what = m.what();
    int kinds = m.has("set") + m.has("box") + m.has("plane") + m.has("nodes");
    if (kinds != 1)
      fail(c_, m.node(), what + ": give exactly one selector: set, box, plane or nodes");
    std::vector<Ordinal> nodes;
    if (m.has("set")) {
      const std::string set = m.str("set", "");
      auto it = b.mesh.node_sets.find(set);
      if (it == b.mesh.node_sets.end()) {
        std::vector<std::string> names;
        for (const auto& kv : b.mesh.node_sets) names.push_back(kv.first);
        fail(c_, m.node()["set"], what + ": unknown node set '" + set + "' of body '" + b.name +
                                      "' (sets: " + Map::join(names) + ")");
      }
      nodes = it->second;
    } else if (m.has("box")) {
      Map bm(c_, m.get("box"), what + ".box");
      const Vec3 lo = bm.vec3_req("min"), hi = bm.vec3_req("max");
      bm.done();
      for (Ordinal n = 0; n < b.mesh.num_nodes(); ++n) {
        const auto& x = b.mesh.node_position(n);
        bool in = true;
        for (int a = 0; a < 3; ++a) in = in && x[a] >= lo[a] && x[a] <= hi[a];
        if (in) nodes.push_back(n);
      }
    } else if (m.has("plane")) {
      Map pm(c_, m.get("plane"), what + ".plane");
      const Vec3 p = pm.vec3_req("point"), nrm = pm.vec3_req("normal");
      const Real tol = pm.num("tolerance", 1e-9);
      const Real len = std::sqrt(dot3(nrm, nrm));
      if (len == 0.0) fail(c_, pm.node()["normal"], what + ".plane.normal is zero");
      pm.done();
      for (Ordinal n = 0; n < b.mesh.num_nodes(); ++n) {
        const auto& x = b.mesh.node_position(n);
        const Real d = ((x[0] - p[0]) * nrm[0] + (x[1] - p[1]) * nrm[1] + (x[2] - p[2]) * nrm[2]) / len;
        if (std::fabs(d) <= tol) nodes.push_back(n);
      }
    } else {
      const YAML::Node l = m.get("nodes");
      if (!l.IsSequence()) fail(c_, l, what + ".nodes: expected a list of node ids");
      for (size_t i = 0; i < l.size(); ++i) {
        const long id = to_int(c_, l[i], what + ".nodes");
        if (id < 0 || id >= b.mesh.num_nodes())
          fail(c_, l[i], what + ".nodes: node " + std::to_string(id) + " out of range (body '" +
                             b.name + "' has " + std::to_string(b.mesh.num_nodes()) + " nodes)");
        nodes.push_back(static_cast<Ordinal>(id));
      }
    }
    if (nodes.empty()) fail(c_, m.node(), what + ": selects no node of body '" + b.name + "'");
    return nodes;
  }

  void body_conditions(Map& m, int index) {
    BodyData& b = bodies_[index];
    const std::string what = "body '" + b.name + "'";
    Model& model = *s_.model;
    if (m.has("clamp")) {
      const YAML::Node l = m.get("clamp");
      if (!l.IsSequence()) fail(c_, l, what + ".clamp: expected a list of selectors");
      for (size_t i = 0; i < l.size(); ++i) {
        Map cm(c_, l[i], what + ".clamp[" + std::to_string(i) + "]");
        const std::vector<Ordinal> nodes = select(cm, b);
        const bool grads = cm.boolean("gradients", true);
        cm.done();
        model.clamp_nodes(b.id, nodes, grads);
      }
    }
    if (m.has("prescribe")) {
      const YAML::Node l = m.get("prescribe");
      if (!l.IsSequence()) fail(c_, l, what + ".prescribe: expected a list");
      // Per node: 1 + the entry that prescribed it, 0 if none (one look-up
      // per node; Model::prescribe_coefficient would only say "twice").
      std::vector<int> by(static_cast<size_t>(b.mesh.num_nodes()), 0);
      for (size_t i = 0; i < l.size(); ++i) {
        Map pm(c_, l[i], what + ".prescribe[" + std::to_string(i) + "]");
        const std::vector<Ordinal> nodes = select(pm, b);
        for (Ordinal n : nodes) {
          if (by[n] == static_cast<int>(i) + 1)
            fail(c_, l[i], pm.what() + ": selects node " + std::to_string(n) + " twice");
          if (by[n] > 0)
            fail(c_, l[i], pm.what() + ": node " + std::to_string(n) + " is already prescribed by " +
                               what + ".prescribe[" + std::to_string(by[n] - 1) + "]");
          by[n] = static_cast<int>(i) + 1;
        }
        const Vec3 d = pm.vec3("displacement", Vec3{{0, 0, 0}});
        TimeFunctionSpec f;
        if (pm.has("function")) f = parse_function(c_, pm.get("function"), pm.key("function"));
        Vec3 axis{{0, 0, 1}}, point{{0, 0, 0}};
        TimeFunctionSpec angle;
        angle.value = 0.0;
        bool rot = false;
        if (pm.has("rotation")) {
          Map rm(c_, pm.get("rotation"), pm.key("rotation"));
          axis = rm.vec3_req("axis");
          if (dot3(axis, axis) == 0.0) fail(c_, rm.node()["axis"], rm.key("axis") + " is zero");
          point = rm.vec3("point", point);
          angle = parse_function(c_, rm.req("angle"), rm.key("angle"));
          rm.done();
          rot = true;
        }
        pm.done();
        const int cpn = b.mesh.coefficients_per_node();
        for (Ordinal n : nodes) {
          model.prescribe_coefficient(b.id, n, 0, [=](Real t, const Vec3& X) {
            const Real ft = f(t);
            Vec3 x = X;
            if (rot) {
              const Vec3 r{{X[0] - point[0], X[1] - point[1], X[2] - point[2]}};
              const Vec3 y = mul(rotation_matrix(axis, angle(t)), r);
              for (int a = 0; a < 3; ++a) x[a] = point[a] + y[a];
            }
            for (int a = 0; a < 3; ++a) x[a] += d[a] * ft;
            return x;
          });
          for (int k = 1; k < cpn; ++k)
            model.prescribe_coefficient(b.id, n, k, [=](Real t, const Vec3& G) {
              return rot ? mul(rotation_matrix(axis, angle(t)), G) : G;
            });
        }
      }
    }
    if (m.has("loads")) {
      const YAML::Node l = m.get("loads");
      if (!l.IsSequence()) fail(c_, l, what + ".loads: expected a list");
      for (size_t i = 0; i < l.size(); ++i) {
        Map lm(c_, l[i], what + ".loads[" + std::to_string(i) + "]");
        const std::string type =
            lm.choice("type", {"point_force", "nodal_force", "traction", "pressure", "torque"}, "");
        TimeFunction amp;
        if (lm.has("function")) {
          const TimeFunctionSpec f = parse_function(c_, lm.get("function"), lm.key("function"));
          amp = [f](Real t) { return f(t); };
        }
        if (type == "torque") {
          // A torque (world axes) on a rigid body (docs/theory.md §11.4).
          if (!b.rigid)
            fail(c_, lm.node()["type"], lm.key("type") + ": a torque acts on rigid bodies only");
          model.add_torque(b.id, lm.vec3_req("torque"), amp);
        } else if (type == "nodal_force") {
          // On the position coefficient of every selected node: `force` each,
          // or `total_force` split equally.
          const std::vector<Ordinal> nodes = select(lm, b);
          if (lm.has("force") == lm.has("total_force"))
            fail(c_, lm.node(), lm.what() + ": give either force (per node) or total_force");
          Vec3 F = lm.has("force") ? lm.vec3_req("force") : lm.vec3_req("total_force");
          if (lm.has("total_force"))
            for (int a = 0; a < 3; ++a) F[a] /= static_cast<Real>(nodes.size());
          for (Ordinal n : nodes) model.add_nodal_force(b.id, n, F, amp);
        } else if (type == "point_force") {
          const Vec3 X = lm.vec3_req("position"), F = lm.vec3_req("force");
          Ordinal e = -1;
          Real xi[3];
          if (!locate_material_point(model.block(b.id), q0_, X, e, xi))
            fail(c_, lm.node()["position"], lm.key("position") + ": point (" + Map::fmt(X[0]) + ", " +
                                                Map::fmt(X[1]) + ", " + Map::fmt(X[2]) +
                                                ") is outside body '" + b.name + "'");
          model.add_point_force(b.id, e, xi, F, amp);
        } else {
          const std::string set = lm.str_req("faces");
          if (!b.mesh.face_sets.count(set)) {
            std::vector<std::string> names;
            for (const auto& kv : b.mesh.face_sets) names.push_back(kv.first);
            fail(c_, lm.node()["faces"], lm.key("faces") + ": unknown face set '" + set + "' of body '" +
                                             b.name + "' (face sets: " + Map::join(names) + ")");
          }
          if (type == "traction")
            model.add_traction(b.id, set, lm.vec3_req("traction"), amp);
          else
            model.add_pressure(b.id, set, lm.num_req("pressure"), amp);
        }
        lm.done();
      }
    }
  }

  MaterialPoint point_on(int body, const YAML::Node& n, const std::string& what,
                         const std::string& joint) {
    const Vec3 X = to_vec3(c_, n, what);
    if (body < 0) return ground_point(X);
    try {
      return find_material_point(s_.model->block(bodies_[body].id), q0_, X);
    } catch (const Error&) {
      fail(c_, n, "joint '" + joint + "': point (" + Map::fmt(X[0]) + ", " + Map::fmt(X[1]) + ", " +
                      Map::fmt(X[2]) + ") is outside body '" + bodies_[body].name + "'");
    }
  }

  void add_joint(const YAML::Node& node, int index) {
    Map m(c_, node, "joints[" + std::to_string(index) + "]");
    const std::string name = m.str("name", "joint" + std::to_string(index));
    const std::string type = m.choice("type",
                                      {"spherical", "universal", "revolute", "fixed", "cylindrical",
                                       "prismatic", "dp1", "dp2", "dist", "cd"},
                                      "");
    const int bi = body_index(m.req("body_i"), m.key("body_i"), true);
    const int bj = m.has("body_j") ? body_index(m.get("body_j"), m.key("body_j"), true) : -1;
    if (bi == bj) fail(c_, m.node(), "joint '" + name + "': body_i and body_j are the same");
    ConstraintSet& cs = s_.model->constraints();
    RowRange rows;
    rows.first = cs.num_rows();
    const std::string jw = "joint '" + name + "'";
    try {
      if (type == "dp1" || type == "dp2" || type == "dist" || type == "cd") {
        auto pair = [&](const std::string& k, int body) {
          const YAML::Node p = m.req(k);
          if (!p.IsSequence() || p.size() != 2)
            fail(c_, p, m.key(k) + ": expected two points [[x, y, z], [x, y, z]]");
          return std::make_pair(point_on(body, p[0], m.key(k), name), point_on(body, p[1], m.key(k), name));
        };
        std::optional<TimeFunctionSpec> f;
        if (m.has("function")) f = parse_function(c_, m.get("function"), m.key("function"));
        auto drive = [&](Real ref) {
          if (!f) return DrivingFunction::constant(ref);
          const TimeFunctionSpec g = *f;
          return DrivingFunction::function([g](Real t) { return g(t); });
        };
        auto pos = [&](const MaterialPoint& p) { return cs.reference_position(p); };
        auto diff = [&](const MaterialPoint& a, const MaterialPoint& b) {
          const Vec3 x = pos(a), y = pos(b);
          return Vec3{{y[0] - x[0], y[1] - x[1], y[2] - x[2]}};
        };
        if (type == "dp1") {
          const auto a = pair("a", bi), b = pair("b", bj);
          cs.add_dp1(a.first, a.second, b.first, b.second,
                     drive(dot3(diff(a.first, a.second), diff(b.first, b.second))));
        } else if (type == "dp2") {
          const auto a = pair("a", bi);
          const MaterialPoint R = point_on(bi, m.req("point_i"), m.key("point_i"), name);
          const MaterialPoint S = point_on(bj, m.req("point_j"), m.key("point_j"), name);
          cs.add_dp2(a.first, a.second, R, S, drive(dot3(diff(a.first, a.second), diff(R, S))));
        } else {
          const MaterialPoint P = point_on(bi, m.req("point_i"), m.key("point_i"), name);
          const MaterialPoint Q = point_on(bj, m.req("point_j"), m.key("point_j"), name);
          if (type == "dist") {
            const Vec3 d = diff(P, Q);
            cs.add_dist(P, Q, drive(std::sqrt(dot3(d, d))));
          } else {
            const Vec3 dir = m.vec3_req("direction");
            const Real len = std::sqrt(dot3(dir, dir));
            if (len == 0.0) fail(c_, m.node()["direction"], m.key("direction") + " is zero");
            cs.add_cd(P, Q, dir, drive(dot3(dir, diff(P, Q)) / len));
          }
        }
      } else {
        const YAML::Node pn = m.req("point");
        const Vec3 X = to_vec3(c_, pn, m.key("point"));
        const bool needs_axis = type != "spherical";
        const Vec3 axis = needs_axis ? m.vec3_req("axis") : m.vec3("axis", Vec3{{0, 0, 1}});
        if (dot3(axis, axis) == 0.0) fail(c_, m.node()["axis"], m.key("axis") + " is zero");
        const Vec3 axis_j = m.vec3("axis_j", axis);
        if (type == "universal" && !m.has("axis_j"))
          fail(c_, m.node(), jw + ": a universal joint needs axis_j (the second cross-pin axis, "
                                  "normal to axis)");
        const bool has_cross = m.has("cross");
        const Vec3 cr = m.vec3("cross", Vec3{{0, 0, 0}});
        Real fiber = 0.0;
        for (int b : {bi, bj})
          if (b >= 0) fiber = fiber == 0.0 ? bodies_[b].min_size : std::min(fiber, bodies_[b].min_size);
        fiber = m.positive("fiber", fiber > 0 ? 0.25 * fiber : 0.01);
        std::optional<TimeFunctionSpec> drive;
        if (m.has("drive")) {
          if (type != "revolute" && type != "cylindrical" && type != "prismatic")
            fail(c_, m.node()["drive"], jw + ": only revolute, cylindrical (angle) and prismatic "
                                             "(displacement) joints take a drive");
          drive = parse_function(c_, m.get("drive"), m.key("drive"));
        }
        auto frame = [&](int b, const Vec3& ax) {
          if (b < 0) return has_cross ? ground_joint_frame(X, ax, cr, fiber) : ground_joint_frame(X, ax, fiber);
          try {
            const ElementBlockBase& blk = s_.model->block(bodies_[b].id);
            return has_cross ? body_joint_frame(blk, q0_, X, ax, cr, fiber)
                             : body_joint_frame(blk, q0_, X, ax, fiber);
          } catch (const Error& e) {
            fail(c_, pn, jw + ": point (" + Map::fmt(X[0]) + ", " + Map::fmt(X[1]) + ", " + Map::fmt(X[2]) +
                             ") with fibres of " + Map::fmt(fiber) + " m is outside body '" +
                             bodies_[b].name + "' (" + e.what() + ")");
          }
        };
        const JointFrame fi = frame(bi, axis), fj = frame(bj, axis_j);
        if (type == "spherical") cs.add_spherical(fi, fj);
        else if (type == "universal") cs.add_universal(fi, fj);
        else if (type == "revolute") cs.add_revolute(fi, fj);
        else if (type == "fixed") cs.add_fixed(fi, fj);
        else if (type == "cylindrical") cs.add_cylindrical(fi, fj);
        else cs.add_prismatic(fi, fj);
        if (drive) {
          const TimeFunctionSpec g = *drive;
          auto vec = [&](const MaterialPoint& a, const MaterialPoint& b) {
            const Vec3 x = cs.reference_position(a), y = cs.reference_position(b);
            return Vec3{{y[0] - x[0], y[1] - x[1], y[2] - x[2]}};
          };
          const Real n = std::sqrt(dot3(axis, axis));
          const Vec3 u{{axis[0] / n, axis[1] / n, axis[2] / n}};
          if (type == "prismatic") {
            // DP2: a = axis fibre of i, d = origin_j - origin_i: a . d = (a0 . u) s(t).
            const Real au = dot3(vec(fi.origin, fi.axis), u);
            cs.add_dp2(fi.origin, fi.axis, fi.origin, fj.origin,
                       DrivingFunction::function([g, au](Real t) { return au * g(t); }));
          } else {
            // Body j turned by theta(t) about u relative to i: the rotation
            // driver's two DP1 rows (cos and sin forms) keep full rank at every
            // angle, so the drive may turn through any number of revolutions.
            cs.add_rotation_driver(fi, fj, u, DrivingFunction::function([g](Real t) { return g(t); }));
          }
        }
      }
    } catch (const Error& e) {
      const std::string msg = e.what();
      if (msg.rfind(c_.file + ":", 0) == 0) throw;
      fail(c_, node, jw + ": " + msg);
    }
    m.done();
    rows.count = cs.num_rows() - rows.first;
    s_.joints.emplace_back(name, rows);
  }

  // Contact properties of a body's contact_material or an obstacle entry
  // (docs/scene.md, "contact"): keys absent leave cm unchanged. E > 0,
  // nu in (-1, 0.5) (elastic: a body's contact_material), restitution in
  // (0, 1], mu_s, mu_k in [0, kMaxFriction] with mu_k <= mu_s when both given.
  void read_contact_properties(Map& m, ContactMaterial& cm, bool elastic) {
    if (elastic && m.has("E")) {
      cm.E = m.num("E", 0.0);
      if (!(cm.E > 0.0))
        fail(c_, m.node()["E"], m.key("E") + " must be positive, got " + Map::fmt(cm.E));
    }
    if (elastic && m.has("nu")) {
      cm.nu = m.num("nu", 0.0);
      if (!(cm.nu > -1.0 && cm.nu < 0.5))
        fail(c_, m.node()["nu"], m.key("nu") + " must be in (-1, 0.5), got " + Map::fmt(cm.nu));
    }
    if (m.has("restitution")) {
      cm.restitution = m.num("restitution", 0.5);
      if (!(cm.restitution > 0.0 && cm.restitution <= 1.0))
        fail(c_, m.node()["restitution"],
             m.key("restitution") + " must be in (0, 1], got " + Map::fmt(cm.restitution));
    }
    for (const char* k : {"mu_s", "mu_k"}) {
      if (!m.has(k)) continue;
      const Real mu = m.num(k, 0.0);
      if (!(mu >= 0.0 && mu <= kMaxFriction))
        fail(c_, m.node()[k],
             m.key(k) + " must be in [0, " + Map::fmt(kMaxFriction) + "], got " + Map::fmt(mu));
      (std::string(k) == "mu_s" ? cm.mu_s : cm.mu_k) = mu;
    }
    if (m.has("mu_s") && m.has("mu_k") && cm.mu_k > cm.mu_s)
      fail(c_, m.node()["mu_k"],
           m.what() + ": mu_k = " + Map::fmt(cm.mu_k) + " exceeds mu_s = " + Map::fmt(cm.mu_s) +
               " (kinetic friction must not exceed static friction)");
  }

  // A body's contact_material: any subset of E, nu, restitution, mu_s, mu_k.
  ContactMaterial parse_contact_material(const YAML::Node& node, const std::string& owner) {
    Map m(c_, node, owner + ".contact_material");
    ContactMaterial cm{0.0, std::numeric_limits<Real>::quiet_NaN()};
    read_contact_properties(m, cm, true);
    m.done();
    return cm;
  }

  // An obstacle's motion table (docs/scene.md): rows [t, ux, uy, uz] or
  // [t, ux, uy, uz, angle] given inline (table:) or in a CSV file (file:,
  // relative to the scene file), times increasing, values finite; `axis`
  // (needed with the angle column) is the rotation axis.
  MotionTable parse_motion_table(const YAML::Node& node, const std::string& what) {
    Map mm(c_, node, what);
    MotionTable tab;
    const bool has_table = mm.has("table"), has_file = mm.has("file");
    if (has_table == has_file)
      fail(c_, node,
           what + ": give either table: [[t, x, y, z], ...] or file: (a CSV file), not " +
               (has_table ? "both" : "neither"));
    size_t cols = 0;
    auto add_row = [&](const std::vector<Real>& row,
                       const std::function<void(const std::string&)>& err) {
      if (row.size() != 4 && row.size() != 5)
        err("expected a row [t, x, y, z] or [t, x, y, z, angle], got " +
            std::to_string(row.size()) + " values");
      if (cols == 0) cols = row.size();
      if (row.size() != cols)
        err("every row needs the same number of values (" + std::to_string(cols) +
            " in the first row)");
      if (!tab.time.empty() && !(row[0] > tab.time.back()))
        err("times must increase (" + Map::fmt(row[0]) + " after " + Map::fmt(tab.time.back()) +
            ")");
      tab.time.push_back(row[0]);
      tab.displacement.push_back(Vec3{{row[1], row[2], row[3]}});
      if (cols == 5) tab.angle.push_back(row[4]);
    };
    if (has_table) {
      const YAML::Node t = mm.get("table");
      if (!t.IsSequence() || t.size() == 0)
        fail(c_, t, what + ".table: expected a non-empty list of rows [t, x, y, z(, angle)]");
      for (size_t i = 0; i < t.size(); ++i) {
        const YAML::Node r = t[i];
        if (!r.IsSequence()) fail(c_, r, what + ".table: expected a row [t, x, y, z(, angle)]");
        std::vector<Real> row;
        for (size_t j = 0; j < r.size(); ++j) row.push_back(to_real(c_, r[j], what + ".table"));
        add_row(row, [&](const std::string& msg) { fail(c_, r, what + ".table: " + msg); });
      }
    } else {
      const YAML::Node fn = mm.get("file");
      fs::path p(to_string(c_, fn, what + ".file"));
      if (p.is_relative()) p = fs::path(c_.base_dir) / p;
      const std::string ps = p.string();
      std::ifstream in(ps);
      if (!fs::is_regular_file(p) || !in)
        fail(c_, fn, what + ".file: motion file '" + ps + "' not found");
      // CSV: one row per line, values separated by commas; empty lines and
      // lines starting with '#' are skipped, and so is a header (a first
      // row whose first value is not a number).
      std::string line;
      for (long ln = 1; std::getline(in, line); ++ln) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        std::vector<Real> row;
        size_t start = 0;
        bool header = false;
        while (true) {
          const size_t end = line.find(',', start);
          const std::string field =
              line.substr(start, end == std::string::npos ? std::string::npos : end - start);
          const size_t b = field.find_first_not_of(" \t"), e = field.find_last_not_of(" \t");
          const std::string v = b == std::string::npos ? "" : field.substr(b, e - b + 1);
          const std::string at = ps + ":" + std::to_string(ln) + ":" +
                                 std::to_string(start + (b == std::string::npos ? 0 : b) + 1) +
                                 ": ";
          size_t pos = 0;
          double x = 0.0;
          bool ok = !v.empty();
          try {
            if (ok) x = std::stod(v, &pos);
          } catch (const std::logic_error&) {
            ok = false;
          }
          if (!ok || pos != v.size()) {
            if (row.empty() && tab.time.empty() && !header) {
              header = true;  // a header line
              break;
            }
            throw Error(at + what + ".file: expected a number, got '" + v + "'");
          }
          if (!std::isfinite(x))
            throw Error(at + what + ".file: expected a finite number, got '" + v + "'");
          row.push_back(x);
          if (end == std::string::npos) break;
          start = end + 1;
        }
        if (header) continue;
        const std::string at = ps + ":" + std::to_string(ln) + ":1: ";
        add_row(row, [&](const std::string& msg) { throw Error(at + what + ".file: " + msg); });
      }
      if (tab.time.empty()) fail(c_, fn, what + ".file: '" + ps + "' holds no rows");
    }
    if (mm.has("axis")) {
      tab.axis = mm.vec3("axis", tab.axis);
      if (dot3(tab.axis, tab.axis) == 0.0) fail(c_, mm.node()["axis"], mm.key("axis") + " is zero");
      if (cols != 5)
        fail(c_, mm.node()["axis"],
             mm.key("axis") + " needs rows with an angle [t, x, y, z, angle]");
    } else if (cols == 5) {
      fail(c_, node, what + ": rows with an angle need the rotation axis (axis: [x, y, z])");
    }
    mm.done();
    return tab;
  }

  // A body of contact.pairs: a contact body's model id.
  int pair_body(const YAML::Node& n, const std::string& what, const std::vector<int>& bodies) {
    const int b = body_index(n, what, false);
    if (std::find(bodies.begin(), bodies.end(), b) == bodies.end())
      fail(c_, n, what + ": body '" + bodies_[b].name + "' is not in contact.bodies");
    return bodies_[b].id;
  }

  void add_contact(const YAML::Node& node) {
    Map m(c_, node, "contact");
    Model& model = *s_.model;
    std::vector<int> bodies;
    if (m.has("bodies")) {
      const YAML::Node l = m.get("bodies");
      if (!l.IsSequence()) fail(c_, l, "contact.bodies: expected a list of body names");
      for (size_t i = 0; i < l.size(); ++i) {
        const int b = body_index(l[i], "contact.bodies", false);
        if (bodies_[b].rigid)
          fail(c_, l[i],
               "contact.bodies: body '" + bodies_[b].name +
                   "' is rigid; contact of rigid surfaces is not supported yet");
        if (std::find(bodies.begin(), bodies.end(), b) != bodies.end())
          fail(c_, l[i], "contact.bodies: body '" + bodies_[b].name + "' listed twice");
        bodies.push_back(b);
      }
    } else {
      // Every deformable body (rigid bodies have no contact surface yet).
      for (size_t i = 0; i < bodies_.size(); ++i)
        if (!bodies_[i].rigid) bodies.push_back(static_cast<int>(i));
    }
    ContactPairSettings pair;
    pair.restitution = m.num("restitution", pair.restitution);
    if (!(pair.restitution > 0.0 && pair.restitution <= 1.0))
      fail(c_, m.node()["restitution"], "contact.restitution must be in (0, 1]");
    pair.mu_s = m.num("mu_s", pair.mu_s);
    pair.mu_k = m.num("mu_k", pair.mu_k);
    for (const char* k : {"mu_s", "mu_k"}) {
      const Real mu = std::string(k) == "mu_s" ? pair.mu_s : pair.mu_k;
      if (!(mu >= 0.0 && mu <= kMaxFriction))
        fail(c_, m.has(k) ? m.node()[k] : m.node(),
             m.key(k) + " must be in [0, " + Map::fmt(kMaxFriction) + "], got " + Map::fmt(mu));
    }
    // Kinetic friction does not exceed static friction (Coulomb's law with
    // a static-kinetic transition).
    if (pair.mu_k > pair.mu_s)
      fail(c_, m.has("mu_k") ? m.node()["mu_k"] : m.node()["mu_s"],
           "contact: mu_k = " + Map::fmt(pair.mu_k) + " exceeds mu_s = " + Map::fmt(pair.mu_s) +
               " (kinetic friction must not exceed static friction)");
    // Slip-weakening distance D_c of the static-kinetic transition
    // (docs/theory.md §7.4).
    pair.slip_distance = m.num("slip_distance", pair.slip_distance);
    if (!(pair.slip_distance >= 0.0 && std::isfinite(pair.slip_distance)))
      fail(c_, m.node()["slip_distance"],
           "contact.slip_distance must be finite and >= 0 (0: mu_k as soon as a contact "
           "slips), got " + Map::fmt(pair.slip_distance));
    pair.radius = m.num("radius", 0.0);
    if (pair.radius < 0.0)
      fail(c_, m.node()["radius"], "contact.radius must be >= 0 (0: from the detection), got " +
                                       Map::fmt(pair.radius));
    pair.patch = m.choice("law", {"point", "patch"}, "point") == "patch";
    const bool body_mass = m.choice("damping_mass", {"nodes", "body"}, "nodes") == "body";
    const Real contact_radius = m.num("contact_radius", 0.0);
    if (contact_radius < 0.0)
      fail(c_, m.node()["contact_radius"],
           "contact.contact_radius must be >= 0 (0: the vertex patch radius), got " +
               Map::fmt(contact_radius));
    DetectionSettings ds;
    ds.max_depth = m.num("max_depth", 0.0);
    if (ds.max_depth < 0.0)
      fail(c_, m.node()["max_depth"],
           "contact.max_depth must be >= 0 (0: automatic), got " + Map::fmt(ds.max_depth));
    const long capacity = m.integer("capacity", 0);
    if (capacity < 0)
      fail(c_, m.node()["capacity"], "contact.capacity must be >= 0 (0: automatic), got " +
                                         std::to_string(capacity));
    if (capacity > 0)
      require_memory(c_, m.node()["capacity"], "contact.capacity", static_cast<double>(capacity),
                     static_cast<double>(kContactPointBytes), "contact points");
    ds.capacity = static_cast<Ordinal>(capacity);
    auto det = std::make_shared<ContactDetection>(ds);
    const Real self_radius = m.num("self_contact_radius", 0.0);
    if (self_radius < 0.0) fail(c_, m.node()["self_contact_radius"], "contact.self_contact_radius must be >= 0");
    for (int b : bodies) {
      det->add_body(bodies_[b].id, bodies_[b].mesh, model.coefficient_offset(bodies_[b].id), contact_radius);
      if (self_radius > 0.0) det->set_self_contact(bodies_[b].id, self_radius);
    }
    std::vector<ContactMaterial> obst;
    std::vector<std::string> obstacle_names;
    if (m.has("obstacles")) {
      const YAML::Node l = m.get("obstacles");
      if (!l.IsSequence()) fail(c_, l, "contact.obstacles: expected a list");
      for (size_t i = 0; i < l.size(); ++i) {
        Map om(c_, l[i], "contact.obstacles[" + std::to_string(i) + "]");
        const std::string type = om.choice("type", {"plane", "sphere", "box"}, "");
        Obstacle o;
        if (type == "plane") {
          const Vec3 nrm = om.vec3("normal", Vec3{{0, 0, 1}});
          if (dot3(nrm, nrm) == 0.0) fail(c_, om.node()["normal"], om.key("normal") + " is zero");
          o = Obstacle::plane(om.vec3("point", Vec3{{0, 0, 0}}), nrm);
        } else if (type == "sphere") {
          o = Obstacle::sphere(om.vec3_req("center"), om.positive_req("radius"));
        } else {
          const Vec3 hs = om.vec3_req("half_size");
          for (int a = 0; a < 3; ++a)
            if (!(hs[a] > 0)) fail(c_, om.node()["half_size"], om.key("half_size") + " must be positive");
          o = Obstacle::box(om.vec3_req("center"), hs);
        }
        if (om.has("name")) {
          const std::string nm = om.str("name", "");
          if (std::find(obstacle_names.begin(), obstacle_names.end(), nm) != obstacle_names.end())
            fail(c_, om.node()["name"], om.key("name") + ": obstacle name '" + nm + "' used twice");
          obstacle_names.push_back(nm);
        } else {
          obstacle_names.emplace_back();
        }
        // Motion (docs/scene.md): constant velocity and angular velocity
        // about rotation_center (default: the obstacle's point / centre),
        // or a table of displacements (and angles).
        const Vec3 vel = om.vec3("velocity", Vec3{{0, 0, 0}});
        const Vec3 omega = om.vec3("angular_velocity", Vec3{{0, 0, 0}});
        if (om.has("rotation_center") && !om.has("angular_velocity"))
          fail(c_, om.node()["rotation_center"],
               om.key("rotation_center") + " needs angular_velocity");
        const Vec3 c0 = om.vec3("rotation_center", o.point);
        if (om.has("motion") && (om.has("velocity") || om.has("angular_velocity")))
          fail(c_, om.node()["motion"],
               om.key("motion") + ": give either motion or velocity / angular_velocity, not both");
        const MotionTable tab = om.has("motion")
                                    ? parse_motion_table(om.get("motion"), om.key("motion"))
                                    : MotionTable{};
        try {
          if (om.has("motion"))
            o.with_motion(table_motion(o.point, tab));
          else if (dot3(omega, omega) > 0)
            o.with_motion(rigid_motion(o.point, c0, vel, omega));
          else if (dot3(vel, vel) > 0)
            o.with_motion(constant_velocity_motion(o.point, vel));
        } catch (const Error& e) {
          fail(c_, om.node(), om.what() + ": " + e.what());
        }
        ContactMaterial cm;
        cm.E = om.num("E", std::numeric_limits<Real>::infinity());
        cm.nu = om.num("nu", 0.0);
        if (om.has("E") && !(cm.E > 0.0))
          fail(c_, om.node()["E"], om.key("E") + " must be positive (leave it out for a rigid "
                                                 "obstacle), got " + Map::fmt(cm.E));
        if (!(cm.nu > -1.0 && cm.nu < 0.5))
          fail(c_, om.node()["nu"], om.key("nu") + " must be in (-1, 0.5), got " + Map::fmt(cm.nu));
        read_contact_properties(om, cm, false);
        om.done();
        det->add_obstacle(o);
        obst.push_back(cm);
      }
    }
    const bool has_pairs = m.has("pairs");
    const YAML::Node pairs = m.get("pairs");
    m.done();
    try {
      det->setup();
    } catch (const Error& e) {
      fail(c_, node, std::string("contact: ") + e.what());
    }
    auto cf = std::make_shared<ContactForces>();
    std::vector<ContactMaterial> mats(model.num_bodies());
    for (const auto& b : bodies_) {
      // contact_material: its E, nu where given, else the bulk material's.
      ContactMaterial cm = b.contact;
      if (!(cm.E > 0.0)) cm.E = b.E;
      if (std::isnan(cm.nu)) cm.nu = b.nu;
      mats[b.id] = cm;
    }
    cf->setup(row_sum_lumped_mass(model.pattern(), model.mass_values()), mats, obst, pair);
    if (has_pairs) add_contact_pairs(pairs, bodies, obstacle_names, *cf);
    if (body_mass)
      for (int b : bodies) cf->set_point_mass(bodies_[b].id, body_total_mass(model, bodies_[b].id));
    model.add_step_force([det, cf](Real t, const CoefView& q, const CoefView& v, Real h, const CoefView& f) {
      det->detect(q, t);
      cf->compute(det->points(), q, v, h, f, t);
    });
    s_.detection = det;
    s_.contact = cf;
  }

  // contact.pairs: per-pair overrides of the law's constants; keys absent
  // keep what the pair has (the contact section's defaults combined with
  // the partners' contact properties).
  void add_contact_pairs(const YAML::Node& l, const std::vector<int>& bodies,
                         const std::vector<std::string>& obstacle_names, ContactForces& cf) {
    if (!l.IsSequence()) fail(c_, l, "contact.pairs: expected a list of pairs");
    std::set<std::pair<int, int>> seen;
    for (size_t i = 0; i < l.size(); ++i) {
      Map pm(c_, l[i], "contact.pairs[" + std::to_string(i) + "]");
      int a = 0, b = 0;  // ContactPoints ids (obstacle k: -1 - k)
      if (pm.has("bodies")) {
        if (pm.has("body") || pm.has("obstacle"))
          fail(c_, pm.node(), pm.what() + ": give either bodies: [a, b] or body and obstacle");
        const YAML::Node bl = pm.get("bodies");
        if (!bl.IsSequence() || bl.size() != 2)
          fail(c_, bl, pm.key("bodies") + ": expected a list of two body names");
        a = pair_body(bl[0], pm.key("bodies"), bodies);
        b = pair_body(bl[1], pm.key("bodies"), bodies);
      } else {
        if (!pm.has("body") || !pm.has("obstacle"))
          fail(c_, pm.node(), pm.what() + ": give bodies: [a, b], or body and obstacle");
        a = pair_body(pm.get("body"), pm.key("body"), bodies);
        const YAML::Node on = pm.get("obstacle");
        const std::string name = to_string(c_, on, pm.key("obstacle"));
        int k = -1;
        for (size_t j = 0; j < obstacle_names.size(); ++j)
          if (!obstacle_names[j].empty() && obstacle_names[j] == name) k = static_cast<int>(j);
        if (k < 0) {
          const long idx =
              name.find_first_not_of("0123456789") == std::string::npos && !name.empty()
                  ? to_int(c_, on, pm.key("obstacle"))
                  : -1;
          if (idx < 0 || idx >= static_cast<long>(obstacle_names.size()))
            fail(c_, on,
                 pm.key("obstacle") + ": no obstacle '" + name +
                     "' (an obstacle's name, or its index 0.." +
                     std::to_string(static_cast<long>(obstacle_names.size()) - 1) +
                     " in contact.obstacles)");
          k = static_cast<int>(idx);
        }
        b = -1 - k;
      }
      if (!seen.insert({std::min(a, b), std::max(a, b)}).second)
        fail(c_, pm.node(), pm.what() + ": this pair is listed twice in contact.pairs");
      ContactPairSettings ps = cf.pair_settings(a, b);
      ContactMaterial given{0.0, 0.0};
      read_contact_properties(pm, given, false);
      if (pm.has("restitution")) ps.restitution = given.restitution;
      if (pm.has("mu_s")) ps.mu_s = given.mu_s;
      if (pm.has("mu_k")) ps.mu_k = given.mu_k;
      if (ps.mu_k > ps.mu_s)
        fail(c_, pm.has("mu_k") ? pm.node()["mu_k"] : pm.node()["mu_s"],
             pm.what() + ": mu_k = " + Map::fmt(ps.mu_k) + " exceeds mu_s = " + Map::fmt(ps.mu_s) +
                 (pm.has("mu_k") && pm.has("mu_s")
                      ? ""
                      : " (the other one is the pair's inherited value)") +
                 " (kinetic friction must not exceed static friction)");
      if (pm.has("slip_distance")) {
        ps.slip_distance = pm.num("slip_distance", 0.0);
        if (!(ps.slip_distance >= 0.0 && std::isfinite(ps.slip_distance)))
          fail(c_, pm.node()["slip_distance"],
               pm.key("slip_distance") + " must be finite and >= 0, got " +
                   Map::fmt(ps.slip_distance));
      }
      if (pm.has("E_star")) ps.E_star = pm.positive("E_star", 0.0);
      if (pm.has("G_star")) ps.G_star = pm.positive("G_star", 0.0);
      if (pm.has("radius")) {
        ps.radius = pm.num("radius", 0.0);
        if (ps.radius < 0.0)
          fail(c_, pm.node()["radius"],
               pm.key("radius") + " must be >= 0 (0: from the detection), got " +
                   Map::fmt(ps.radius));
      }
      if (pm.has("law")) ps.patch = pm.choice("law", {"point", "patch"}, "point") == "patch";
      pm.done();
      try {
        cf.set_pair(a, b, ps);
      } catch (const Error& e) {
        fail(c_, pm.node(), pm.what() + ": " + e.what());
      }
    }
  }

 public:
  void initial_velocities() {
    if (init_v_.empty()) return;
    Model& model = *s_.model;
    s_.initial_velocity.assign(model.num_coefficients(), Vec3{{0, 0, 0}});
    for (const auto& iv : init_v_) {
      const Mesh& mesh = model.mesh(iv.body);
      const int cpn = mesh.coefficients_per_node();
      const Ordinal off = model.coefficient_offset(iv.body);
      for (Ordinal k = 0; k < mesh.num_coefficients(); ++k) {
        const auto& c = mesh.coefficients[k];
        Vec3 v;
        if (k % cpn == 0) {
          const Vec3 r{{c[0] - iv.center[0], c[1] - iv.center[1], c[2] - iv.center[2]}};
          const Vec3 wr = cross3(iv.w, r);
          for (int a = 0; a < 3; ++a) v[a] = iv.v[a] + wr[a];
        } else {
          v = cross3(iv.w, Vec3{{c[0], c[1], c[2]}});
        }
        s_.initial_velocity[off + k] = v;
      }
    }
  }

 private:
  struct InitV {
    int body;
    Vec3 v, w, center;
  };
  const Ctx& c_;
  Scene& s_;
  std::vector<BodyData> bodies_;
  std::vector<InitV> init_v_;
  CoefViewHost q0_;
  YAML::Node samples_node_;  // output.samples, when given
};

void apply_override(YAML::Node& root, const std::string& ov) {
  const size_t eq = ov.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error("--set " + ov + ": expected key.path=value");
  const std::string path = ov.substr(0, eq), value = ov.substr(eq + 1);
  std::vector<std::string> parts;
  std::stringstream ss(path);
  std::string p;
  while (std::getline(ss, p, '.')) {
    if (p.empty()) throw Error("--set " + ov + ": empty key in '" + path + "'");
    parts.push_back(p);
  }
  YAML::Node cur = root;
  for (size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    if (cur.IsSequence()) {
      char* end = nullptr;
      const long idx = std::strtol(parts[i].c_str(), &end, 10);
      if (*end != '\0' || idx < 0 || idx >= static_cast<long>(cur.size()))
        throw Error("--set " + ov + ": '" + parts[i] + "' is not an index of the list (size " +
                    std::to_string(cur.size()) + ")");
      if (last) {
        cur[idx] = YAML::Load(value);
      } else {
        YAML::Node next = cur[idx];
        cur.reset(next);
      }
    } else if (cur.IsMap() || cur.IsNull() || !cur.IsDefined()) {
      if (last) {
        cur[parts[i]] = YAML::Load(value);
      } else {
        YAML::Node next = cur[parts[i]];
        cur.reset(next);
      }
    } else {
      throw Error("--set " + ov + ": '" + parts[i - 1] + "' is a scalar, not a mapping");
    }
  }
}

// yaml-cpp keeps every pair of a mapping and its lookups return the first, so
// a repeated key would silently lose its value (issue 12): refused at the
// second occurrence, naming the line of the first. Collections are visited
// once each (an alias shares its anchor's node and mark, and may refer to an
// enclosing node).
void check_duplicate_keys(const Ctx& c, const YAML::Node& n,
                          std::set<std::pair<int, int>>& visited) {
  if (!n.IsMap() && !n.IsSequence()) return;
  if (!visited.emplace(n.Mark().line, n.Mark().column).second) return;
  if (n.IsSequence()) {
    for (const auto& e : n) check_duplicate_keys(c, e, visited);
    return;
  }
  std::map<std::string, YAML::Mark> first;
  for (auto it = n.begin(); it != n.end(); ++it) {
    if (it->first.IsScalar()) {
      const auto [f, fresh] = first.emplace(it->first.Scalar(), it->first.Mark());
      if (!fresh)
        fail(c, it->first, "duplicate key '" + it->first.Scalar() + "' (first at line " +
                               std::to_string(f->second.line + 1) + ")");
    }
    check_duplicate_keys(c, it->first, visited);
    check_duplicate_keys(c, it->second, visited);
  }
}

Scene build_scene(YAML::Node root, const Ctx& c, const std::vector<std::string>& overrides,
                  const std::string& default_name) {
  std::set<std::pair<int, int>> visited;
  check_duplicate_keys(c, root, visited);
  for (const auto& ov : overrides) apply_override(root, ov);
  Scene s;
  s.file = c.file;
  s.name = default_name;
  Builder b(c, s);
  b.build(root);
  b.initial_velocities();
  return s;
}

}  // namespace

Ordinal Scene::unknowns() const {
  std::set<Ordinal> fixed(model->clamped_coefficients().begin(), model->clamped_coefficients().end());
  for (const auto& p : model->prescribed()) fixed.insert(p.coefficient);
  return 3 * (model->num_coefficients() - static_cast<Ordinal>(fixed.size()));
}

Ordinal Scene::constraint_rows() const {
  return model->has_constraints() ? model->constraints().num_rows() : 0;
}

void Scene::apply_initial_state(TimeStepper& stepper) const {
  if (initial_velocity.empty()) return;
  CoefView v("scene_v0", model->num_coefficients());
  auto h = Kokkos::create_mirror_view(v);
  for (Ordinal k = 0; k < model->num_coefficients(); ++k)
    for (int a = 0; a < 3; ++a) h(k, a) = initial_velocity[k][a];
  Kokkos::deep_copy(v, h);
  stepper.set_velocities(v);
}

Scene load_scene_text(const std::string& text, const std::string& file, const std::string& base_dir,
                      const std::vector<std::string>& overrides) {
  Ctx c{file, base_dir};
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    fail_at(c, e.mark, "YAML syntax error: " + e.msg);
  }
  std::string stem = fs::path(file).stem().string();
  if (stem.empty() || stem.front() == '<') stem = "scene";
  try {
    return build_scene(root, c, overrides, stem);
  } catch (const YAML::Exception& e) {
    fail_at(c, e.mark, e.msg);
  }
}

Scene load_scene(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) throw Error(path + ":1:1: cannot open the scene file");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string dir = fs::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  return load_scene_text(ss.str(), path, dir, overrides);
}

}  // namespace tlfea::scene
