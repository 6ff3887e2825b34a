// TLFEA: a scene's output section as io::OutputSettings.
#include "tlfea/simulation/scene_output.hpp"

namespace tlfea {

io::OutputSettings output_settings(const scene::Scene& scene) {
  io::OutputSettings os;
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

}  // namespace tlfea
