// TLFEA scene: a body's mesh, read from a file (mesh.file; Gmsh files as
// ANCF beams or shells with their sections) or made by a generator (box,
// ball, beam, plate), refused when its matrix would not fit in memory.
#include <array>
#include <filesystem>
#include <new>
#include <stdexcept>

#include "builder.hpp"
#include "tlfea/core/generators.hpp"

namespace tlfea::scene::detail {

namespace fs = std::filesystem;

namespace {

// The list of N divisions of a generated mesh, each >= 1; after reading
// division a, check(a) (a check of the same axis of another key).
template <int N, class Check>
std::array<int, N> divisions(const Ctx& c, const YAML::Node& dn, const std::string& what,
                             const char* form, Check check) {
  if (!dn.IsSequence() || dn.size() != N)
    fail(c, dn, what + ".mesh.divisions: expected a list of " + form);
  std::array<int, N> d;
  for (int a = 0; a < N; ++a) {
    d[a] = static_cast<int>(to_int(c, dn[a], what + ".mesh.divisions"));
    if (d[a] < 1) fail(c, dn[a], what + ".mesh.divisions must be >= 1");
    check(a);
  }
  return d;
}

}  // namespace

// The mesh of body `what` (its key element, when given, names the type).
Mesh Builder::body_mesh(Map& m, const std::string& what) {
  Mesh mesh;
  const std::vector<std::string> elems = {"T10", "Q27", "ANCF3243", "ANCF3443"};
  std::string elem;
  if (m.has("element")) elem = m.choice("element", elems, "");
  Map mm(c_, m.req("mesh"), what + ".mesh");
  if (mm.has("file") && mm.has("generator"))
    fail(c_, mm.node(), what + ".mesh: give either file or generator, not both");
  if (mm.has("file")) {
    mesh = read_mesh_node(mm, what + ".mesh", elem);
    if (!elem.empty() && elem != tlfea::to_string(mesh.type))
      fail(c_, m.node()["element"],
           what + ": element " + elem + " does not match the mesh file's " +
               tlfea::to_string(mesh.type));
  } else {
    const std::string g = mm.choice("generator", {"box", "ball", "beam", "plate"}, "");
    try {
      if (g == "box" || g == "ball") {
        if (elem.empty())
          fail(c_, m.node(), what + ": missing required key 'element' (T10 or Q27)");
        if (elem != "T10" && elem != "Q27")
          fail(c_, m.node()["element"],
               what + ": generator " + g + " makes T10 or Q27, not " + elem);
        const ElementType t = element_type_from_string(elem);
        if (g == "box") {
          const Vec3 L = mm.vec3_req("lengths");
          const YAML::Node dn = mm.req("divisions");
          const std::array<int, 3> d = divisions<3>(c_, dn, what, "3 integers", [&](int a) {
            if (!(L[a] > 0))
              fail(c_, mm.node()["lengths"], what + ".mesh.lengths must be positive");
          });
          const Vec3 o = mm.vec3("origin", Vec3{{0, 0, 0}});
          require_memory(
              c_, dn, what + ".mesh.divisions",
              9.0 * box_pairs_per_axis(d[0]) * box_pairs_per_axis(d[1]) * box_pairs_per_axis(d[2]),
              kMatrixEntryBytes, "matrix entries");
          mesh = generate_box(t, {L[0], L[1], L[2]}, d, {o[0], o[1], o[2]});
        } else {
          const Real r = mm.positive_req("radius");
          const int d = static_cast<int>(mm.positive_int("divisions", 2));
          const Vec3 ctr = mm.vec3("center", Vec3{{0, 0, 0}});
          const double pairs = box_pairs_per_axis(d);
          require_memory(c_, mm.has("divisions") ? mm.node()["divisions"] : mm.node(),
                         what + ".mesh.divisions", 9.0 * pairs * pairs * pairs, kMatrixEntryBytes,
                         "matrix entries");
          mesh = generate_ball(t, r, d, {ctr[0], ctr[1], ctr[2]});
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
        mesh = generate_beam_ancf3243(L, W, H, n);
      } else {
        if (!elem.empty() && elem != "ANCF3443")
          fail(c_, m.node()["element"], what + ": generator plate makes ANCF3443, not " + elem);
        const Real lx = mm.positive_req("lx"), ly = mm.positive_req("ly"),
                   th = mm.positive_req("thickness");
        const YAML::Node dn = mm.req("divisions");
        const std::array<int, 2> d = divisions<2>(c_, dn, what, "2 integers [nx, ny]", [](int) {});
        require_memory(c_, dn, what + ".mesh.divisions",
                       9.0 * 16.0 * ancf_pairs_per_axis(d[0]) * ancf_pairs_per_axis(d[1]),
                       kMatrixEntryBytes, "matrix entries");
        mesh = generate_plate_ancf3443(lx, ly, th, d);
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
  return mesh;
}

// ANCF options of a Gmsh mesh file (docs/ancf_mesh.md): beams need
// sections: [{group, width, height, up}], shells thickness (or sections:
// [{group, thickness}]); smooth_angle (degrees) for beams.
AncfGmshOptions Builder::ancf_options(Map& mm, const std::string& what, const std::string& elem) {
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
        if (dot(up, up) == 0.0) fail(c_, sm.node()["up"], sm.key("up") + ": zero vector");
        o.beams.push_back(
            {group, sm.positive_req("width"), sm.positive_req("height"), {up[0], up[1], up[2]}});
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

Mesh Builder::read_mesh_node(Map& mm, const std::string& what, const std::string& elem) {
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
         what +
             ": sections, thickness and smooth_angle are for a Gmsh (.msh) file read as ANCF "
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

}  // namespace tlfea::scene::detail
