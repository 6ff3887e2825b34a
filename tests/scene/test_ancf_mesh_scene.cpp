// ANCF bodies from mesh files in scenes (docs/scene.md, docs/ancf_mesh.md):
// Gmsh line meshes with per-group sections, quadrangle meshes with a
// thickness, the .ancf text format, and their errors at FILE:LINE:COLUMN.
#include <gtest/gtest.h>

#include <string>

#include "tlfea/core/error.hpp"
#include "tlfea/scene/scene.hpp"

namespace tlfea {
namespace {

using scene::Scene;

Scene load(const std::string& text) {
  return scene::load_scene_text(text, "ancf.yaml", TLFEA_TEST_DATA_DIR);
}

// Reads and expects an Error starting with `where` and containing `says`.
void expect_error(const std::string& text, const std::string& where, const std::string& says) {
  try {
    load(text);
    ADD_FAILURE() << "no error for " << text;
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(where, 0), 0u) << msg;
    EXPECT_NE(msg.find(says), std::string::npos) << msg;
  }
}

const char* kNet = R"(bodies:
  - name: net
    element: ANCF3243
    mesh:
      file: beam_net.msh
      sections: [{group: beams, width: 0.05, height: 0.02, up: [0, 0, 1]}]
    material: {model: svk, E: 7.0e9, nu: 0.3}
    density: 2700
    clamp: [{set: corners}]
output: {enabled: false}
)";

// 16 nodes (4 clamped with their gradients), 24 elements.
TEST(SceneAncfMesh, BeamNetFromGmshLines) {
  Scene s = load(kNet);
  EXPECT_EQ(s.bodies[0].element, ElementType::ANCF3243);
  EXPECT_EQ(s.bodies[0].elements, 24);
  EXPECT_EQ(s.unknowns(), 12 * 4 * 3);
}

TEST(SceneAncfMesh, ShellFromGmshQuadranglesAndBeamFromAncfText) {
  Scene shell = load(R"(bodies:
  - name: shell
    element: ANCF3443
    mesh: {file: half_cylinder_quads.msh, thickness: 0.01}
    material: {model: svk, E: 1.0e7, nu: 0.3}
    density: 1000
    clamp: [{set: edge0}]
output: {enabled: false}
)");
  EXPECT_EQ(shell.bodies[0].element, ElementType::ANCF3443);
  EXPECT_EQ(shell.bodies[0].elements, 32);
  EXPECT_EQ(shell.unknowns(), (45 - 9) * 4 * 3);
  Scene text = load(R"(bodies:
  - name: beam
    mesh: {file: two_beams.ancf}
    material: {model: svk, E: 1.0e7, nu: 0.3}
    density: 1000
    clamp: [{set: clamp}]
output: {enabled: false}
)");
  EXPECT_EQ(text.bodies[0].element, ElementType::ANCF3243);
  EXPECT_EQ(text.bodies[0].elements, 2);
}

TEST(SceneAncfMesh, MissingOrBadSectionsAndBadFilesNameTheirPlace) {
  const std::string net = kNet;
  auto replace = [](std::string s, const std::string& a, const std::string& b) {
    const size_t p = s.find(a);
    EXPECT_NE(p, std::string::npos) << a;
    return s.replace(p, a.size(), b);
  };
  const std::string sections =
      "      sections: [{group: beams, width: 0.05, height: 0.02, up: [0, 0, 1]}]\n";
  expect_error(replace(net, sections, ""), "ancf.yaml:5:7:", "needs sections");
  expect_error(replace(net, "width: 0.05", "width: -1"),
               "ancf.yaml:6:40:", "width must be positive");
  expect_error(replace(net, "up: [0, 0, 1]", "up: [0, 0, 0]"), "ancf.yaml:6:64:", "zero vector");
  expect_error(replace(net, "height: 0.02", "height: 0.02, colour: red"),
               "ancf.yaml:6:", "unknown key 'colour'");
  // A group the file does not have: the reader names the element.
  expect_error(replace(net, "group: beams", "group: cables"), "ancf.yaml:5:13:", "beam_net.msh:");
  // thickness is a shell key.
  expect_error(replace(net, sections, "      thickness: 0.01\n" + sections),
               "ancf.yaml:", "unknown key 'thickness'");
  // Sections without an ANCF element: the .msh file would be read as a
  // volume mesh.
  expect_error(replace(net, "    element: ANCF3243\n", ""),
               "ancf.yaml:4:7:", "give element: ANCF3243 or ANCF3443");
  // An ANCF3443 Gmsh mesh needs a thickness.
  expect_error(R"(bodies:
  - name: shell
    element: ANCF3443
    mesh: {file: half_cylinder_quads.msh}
    material: {model: svk, E: 1.0e7, nu: 0.3}
    density: 1000
)",
               "ancf.yaml:4:11:", "needs thickness");
}

}  // namespace
}  // namespace tlfea
