// TLFEA Python module (private to python/src): the wrapped objects (Model,
// ConstraintSet, Scene, Stepper, OutputWriter), each a Resource that drops
// its C++ contents when the runtime is finalized.
#pragma once

#include <memory>
#include <string>

#include "py_runtime.hpp"
#include "tlfea/constraints/constraint_set.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/io/output.hpp"
#include "tlfea/model/model.hpp"
#include "tlfea/scene/scene.hpp"
#include "tlfea/simulation/simulation.hpp"

namespace tlfea_py {

class PyModel;

// The Model and the stepper-independent extras of a scene (contact), shared by
// every Python object that refers to them. For a scene, the model is an
// aliasing pointer that keeps the whole tlfea::scene::Scene alive.
struct ModelHandle {
  std::shared_ptr<tlfea::Model> model;
  std::shared_ptr<tlfea::scene::Scene> scene;  // null for models built in code
};

inline tlfea::CoefViewHost host_reference(tlfea::Model& m) { return tlfea::to_host(m.reference()); }

inline void check_body(const tlfea::Model& m, int body) {
  if (body < 0 || body >= m.num_bodies())
    fail("body " + std::to_string(body) + " out of range (" + std::to_string(m.num_bodies()) +
         " bodies)");
}

// A Resource holding a ModelHandle; finalize drops it, after which handle()
// (and every get() of the subclasses) raises tlfea.Error.
class ModelResource : public Resource {
 public:
  ModelResource(int rank, ModelHandle h) : Resource(rank), h_(std::move(h)) {}
  void release() override { h_ = ModelHandle{}; }
  const ModelHandle& handle() const {
    if (!h_.model) fail(kFinalizedMessage);
    return h_;
  }

 protected:
  ModelHandle h_;
};

class PyModel : public ModelResource {
 public:
  PyModel() : ModelResource(3, ModelHandle{}) {
    ensure_initialized();
    h_.model = std::make_shared<tlfea::Model>();
  }
  explicit PyModel(ModelHandle h) : ModelResource(3, std::move(h)) {}
  tlfea::Model& get() const { return *handle().model; }
};

class PyConstraints : public ModelResource {
 public:
  explicit PyConstraints(ModelHandle h) : ModelResource(2, std::move(h)) {}
  tlfea::ConstraintSet& get() const { return handle().model->constraints(); }
};

// For a scene, the model is an aliasing pointer that keeps the whole
// tlfea::scene::Scene alive (both are set and dropped together).
class PyScene : public ModelResource {
 public:
  explicit PyScene(tlfea::scene::Scene s) : ModelResource(2, ModelHandle{}) {
    h_.scene = std::make_shared<tlfea::scene::Scene>(std::move(s));
    h_.model = std::shared_ptr<tlfea::Model>(h_.scene, h_.scene->model.get());
  }
  tlfea::scene::Scene& get() const { return *handle().scene; }
};

// A Stepper: a scene's run (tlfea::Simulation, made by Scene.stepper: its
// stepper, contact, output wiring and checkpoint), or a TimeStepper on a
// model built in code (Stepper(model)).
class PyStepper : public Resource {
 public:
  // Stepper(model): a scene's model steps with the scene's contact.
  PyStepper(ModelHandle h, const tlfea::StepperSettings& s) : Resource(1), h_(std::move(h)) {
    ensure_initialized();
    py::gil_scoped_release nogil;  // finalize / analysis may take a while
    stepper_ = std::make_shared<tlfea::TimeStepper>(*h_.model, s);
    if (h_.scene) h_.scene->attach_contact(*stepper_);
  }
  // Scene.stepper(): the run of h.scene with options `ro`, started (settled
  // when asked, with the initial velocities).
  PyStepper(ModelHandle h, const tlfea::RunOptions& ro) : Resource(1), h_(std::move(h)) {
    ensure_initialized();
    {
      py::gil_scoped_release nogil;
      sim_ = std::make_shared<tlfea::Simulation>(h_.scene, ro);
    }
    stepper_ = std::shared_ptr<tlfea::TimeStepper>(sim_, &sim_->stepper());
    Busy busy(*this);
    py::gil_scoped_release nogil;
    sim_->start();
  }
  void release() override {
    stepper_.reset();
    sim_.reset();
    h_ = ModelHandle{};
  }
  // The scene's run (null for Stepper(model)).
  tlfea::Simulation* simulation() const {
    get();
    return sim_.get();
  }
  tlfea::TimeStepper& get() const {
    if (!stepper_) fail(kFinalizedMessage);
    return *stepper_;
  }
  const ModelHandle& handle() const {
    get();
    return h_;
  }
  const std::shared_ptr<tlfea::TimeStepper>& shared() const {
    get();
    return stepper_;
  }

  tlfea::StepReport step() {
    tlfea::TimeStepper& s = mutable_stepper("step");
    Busy busy(*this);
    py::gil_scoped_release nogil;
    return sim_ ? sim_->step() : s.step();
  }
  tlfea::SettleReport settle(const tlfea::SettleSettings& ss) {
    tlfea::TimeStepper& s = mutable_stepper("settle");
    Busy busy(*this);
    py::gil_scoped_release nogil;
    return s.settle(ss);
  }
  // For calls that change the state: refused while this stepper is inside
  // step() (a Python callback called from the step, or another thread).
  tlfea::TimeStepper& mutable_stepper(const char* what) {
    tlfea::TimeStepper& s = get();
    if (busy_)
      fail(std::string("Stepper.") + what +
           ": this stepper is inside step() (called from a load function or another thread)");
    return s;
  }

 private:
  struct Busy {  // constructed and destroyed with the GIL held
    PyStepper& p;
    explicit Busy(PyStepper& ps) : p(ps) {
      p.busy_ = true;
      ++rt().stepping;
    }
    ~Busy() {
      p.busy_ = false;
      --rt().stepping;
    }
  };
  bool busy_ = false;
  ModelHandle h_;
  std::shared_ptr<tlfea::Simulation> sim_;
  std::shared_ptr<tlfea::TimeStepper> stepper_;  // sim_'s (aliasing), or its own
};

class PyOutputWriter : public Resource {
 public:
  PyOutputWriter(const PyStepper& st, const tlfea::io::OutputSettings& os) : Resource(0) {
    h_ = st.handle();
    stepper_ = st.shared();
    // The run's writer (contact, joints), as a scene's run makes it.
    if (tlfea::Simulation* sim = st.simulation())
      writer_ = sim->make_output(os);
    else
      writer_ = tlfea::make_output_writer(*h_.model, *stepper_, h_.scene.get(), os);
    directory_ = os.directory;
  }
  void release() override {
    writer_.reset();
    stepper_.reset();
    h_ = ModelHandle{};
  }
  tlfea::io::OutputWriter& get() const {
    if (!writer_)
      fail(finished_ ? "OutputWriter: finish() was called; the writer is closed"
                     : kFinalizedMessage);
    return *writer_;
  }
  void finish() {
    if (finished_) return;
    get().finish();
    finished_ = true;
    writer_.reset();
  }
  bool finished() const { return finished_; }
  const std::string& directory() const { return directory_; }
  const tlfea::TimeStepper* stepper() const { return stepper_.get(); }

 private:
  ModelHandle h_;
  std::shared_ptr<tlfea::TimeStepper> stepper_;
  std::unique_ptr<tlfea::io::OutputWriter> writer_;
  std::string directory_;
  bool finished_ = false;
};

}  // namespace tlfea_py
