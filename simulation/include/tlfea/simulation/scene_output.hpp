// TLFEA: the output settings a scene file's `output` section asks for, as
// tlfea::Simulation (the tlfea program, the Python OutputWriter) starts from
// them (docs/scene.md, "output"). In the simulation layer, which depends on
// both the scene and the io layer.
#pragma once

#include "tlfea/io/output.hpp"
#include "tlfea/scene/scene.hpp"

namespace tlfea {

// The scene's output section (directory, every, fields, samples) and its
// body names for the per-body history columns; `resume` is left false.
io::OutputSettings output_settings(const scene::Scene& scene);

}  // namespace tlfea
