// TLFEA: the output settings a scene file's `output` section asks for, as
// `tlfea run` and the Python OutputWriter both start from them. Header only:
// the io layer does not depend on the scene layer; code that includes this
// links both (docs/scene.md, "output").
#pragma once

#include "tlfea/io/output.hpp"
#include "tlfea/scene/scene.hpp"

namespace tlfea::io {

// The scene's output section (directory, every, fields, samples) and its
// body names for the per-body history columns; `resume` is left false.
inline OutputSettings output_settings(const scene::Scene& scene) {
  OutputSettings os;
  const scene::SceneOutput& so = scene.output;
  os.directory = so.directory;
  os.every = so.every;
  os.displacement = so.displacement;
  os.velocity = so.velocity;
  os.stress = so.stress;
  os.reactions = so.reactions;
  os.contact = so.contact;
  os.samples = so.samples;
  for (const auto& b : scene.bodies) os.body_names.push_back(b.name);
  return os;
}

}  // namespace tlfea::io
