// TLFEA scene: contact obstacles (planes, spheres, boxes), their names,
// motion (constant velocities or a table, inline or CSV) and contact
// properties (docs/scene.md, "contact").
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <stdexcept>

#include "builder.hpp"

namespace tlfea::scene::detail {

namespace fs = std::filesystem;

// contact.obstacles: each added to `det`, with its contact properties
// (obst) and name (empty when unnamed).
void Builder::add_obstacles(Map& m, ContactDetection& det, std::vector<ContactMaterial>& obst,
                            std::vector<std::string>& obstacle_names) {
  if (m.has("obstacles")) {
    const YAML::Node l = m.get("obstacles");
    if (!l.IsSequence()) fail(c_, l, "contact.obstacles: expected a list");
    for (size_t i = 0; i < l.size(); ++i) {
      Map om(c_, l[i], "contact.obstacles[" + std::to_string(i) + "]");
      const std::string type = om.choice("type", {"plane", "sphere", "box"}, "");
      Obstacle o;
      if (type == "plane") {
        const Vec3 nrm = om.vec3("normal", Vec3{{0, 0, 1}});
        if (dot(nrm, nrm) == 0.0) fail(c_, om.node()["normal"], om.key("normal") + " is zero");
        o = Obstacle::plane(om.vec3("point", Vec3{{0, 0, 0}}), nrm);
      } else if (type == "sphere") {
        o = Obstacle::sphere(om.vec3_req("center"), om.positive_req("radius"));
      } else {
        const Vec3 hs = om.vec3_req("half_size");
        for (int a = 0; a < 3; ++a)
          if (!(hs[a] > 0))
            fail(c_, om.node()["half_size"], om.key("half_size") + " must be positive");
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
      const MotionTable tab =
          om.has("motion") ? parse_motion_table(om.get("motion"), om.key("motion")) : MotionTable{};
      try {
        if (om.has("motion"))
          o.with_motion(table_motion(o.point, tab));
        else if (dot(omega, omega) > 0)
          o.with_motion(rigid_motion(o.point, c0, vel, omega));
        else if (dot(vel, vel) > 0)
          o.with_motion(constant_velocity_motion(o.point, vel));
      } catch (const Error& e) {
        fail(c_, om.node(), om.what() + ": " + e.what());
      }
      ContactMaterial cm;
      cm.E = om.num("E", std::numeric_limits<Real>::infinity());
      cm.nu = om.num("nu", 0.0);
      if (om.has("E") && !(cm.E > 0.0))
        fail(c_, om.node()["E"],
             om.key("E") +
                 " must be positive (leave it out for a rigid "
                 "obstacle), got " +
                 Map::fmt(cm.E));
      if (!(cm.nu > -1.0 && cm.nu < 0.5))
        fail(c_, om.node()["nu"], om.key("nu") + " must be in (-1, 0.5), got " + Map::fmt(cm.nu));
      read_contact_properties(om, cm, false);
      om.done();
      det.add_obstacle(o);
      obst.push_back(cm);
    }
  }
}

// An obstacle's motion table (docs/scene.md): rows [t, ux, uy, uz] or
// [t, ux, uy, uz, angle] given inline (table:) or in a CSV file (file:,
// relative to the scene file), times increasing, values finite; `axis`
// (needed with the angle column) is the rotation axis.
MotionTable Builder::parse_motion_table(const YAML::Node& node, const std::string& what) {
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
      err("expected a row [t, x, y, z] or [t, x, y, z, angle], got " + std::to_string(row.size()) +
          " values");
    if (cols == 0) cols = row.size();
    if (row.size() != cols)
      err("every row needs the same number of values (" + std::to_string(cols) +
          " in the first row)");
    if (!tab.time.empty() && !(row[0] > tab.time.back()))
      err("times must increase (" + Map::fmt(row[0]) + " after " + Map::fmt(tab.time.back()) + ")");
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
                               std::to_string(start + (b == std::string::npos ? 0 : b) + 1) + ": ";
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
    if (dot(tab.axis, tab.axis) == 0.0) fail(c_, mm.node()["axis"], mm.key("axis") + " is zero");
    if (cols != 5)
      fail(c_, mm.node()["axis"], mm.key("axis") + " needs rows with an angle [t, x, y, z, angle]");
  } else if (cols == 5) {
    fail(c_, node, what + ": rows with an angle need the rotation axis (axis: [x, y, z])");
  }
  mm.done();
  return tab;
}

}  // namespace tlfea::scene::detail
