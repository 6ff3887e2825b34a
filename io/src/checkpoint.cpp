// Checkpoint / restart: one HDF5 file, written to PATH.tmp and renamed.
#include <algorithm>
#include <cstdio>

#include "h5util.hpp"
#include "tlfea/io/output.hpp"

namespace tlfea::io {

namespace {
// 2: the contact history carries the slip distance of the slip-weakening
// friction law (contact/slip). 3: integrator/ (generalized alpha's a_n, abar_n).
constexpr int kCheckpointVersion = 3;
}  // namespace

void save_checkpoint(const std::string& path, const TimeStepper& stepper) {
  const ContactComponent* contact = find_contact(stepper);
  const StepperState st = stepper.state();
  const std::string tmp = path + ".tmp";
  hid_t f = H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) throw_error("save_checkpoint: cannot create '", tmp, "'");
  try {
    h5::write_string_attribute(f, "format", "tlfea-checkpoint", path);
    h5::write_scalar(f, "version", kCheckpointVersion, path);
    h5::write_scalar(f, "t", st.t, path);
    h5::write_scalar<long long>(f, "steps", st.steps, path);
    h5::write_scalar(f, "dt", stepper.settings().dt, path);
    h5::write_scalar(f, "penalty", st.penalty, path);
    h5::write(f, "q", st.q, 3, path);
    h5::write(f, "v", st.v, 3, path);
    h5::write(f, "dv", st.dv, 3, path);
    h5::write(f, "lambda", st.lambda, 0, path);
    h5::write(f, "prescribed_last", st.prescribed_last, 3, path);
    h5::write_scalar(f, "reuse_next", st.reuse_next ? 1 : 0, path);
    h5::write_scalar(f, "factor/have", st.have_factor ? 1 : 0, path);
    h5::write_scalar(f, "factor/h", st.factor_h, path);
    h5::write_scalar(f, "factor/t", st.factor_t, path);
    h5::write(f, "factor/q", st.factor_q, 3, path);
    h5::write(f, "factor/v", st.factor_v, 3, path);
    h5::write(f, "factor/lambda", st.factor_lambda, 0, path);
    // Generalized alpha's a_n and abar_n (empty unless accel_valid).
    h5::write_scalar(f, "integrator/accel_valid", st.accel_valid ? 1 : 0, path);
    h5::write(f, "integrator/a", st.a, 3, path);
    h5::write(f, "integrator/abar", st.abar, 3, path);
    h5::write_scalar(f, "contact/present", contact ? 1 : 0, path);
    if (contact) {
      std::vector<unsigned long long> keys;
      std::vector<ContactHistory> values;
      contact->save_history(keys, values);
      std::vector<Real> dt(3 * values.size());
      std::vector<int> sliding(values.size());
      std::vector<Real> slip(values.size());
      for (size_t k = 0; k < values.size(); ++k) {
        for (int a = 0; a < 3; ++a) dt[3 * k + a] = values[k].delta_t[a];
        sliding[k] = values[k].sliding;
        slip[k] = values[k].slip;
      }
      h5::write(f, "contact/keys", keys, 0, path);
      h5::write(f, "contact/delta_t", dt, 3, path);
      h5::write(f, "contact/sliding", sliding, 0, path);
      h5::write(f, "contact/slip", slip, 0, path);
      // The time of the last contact call: the start of the last step (any
      // value other than the next step's start time means "new step").
      h5::write_scalar(f, "contact/t_last", st.t - stepper.settings().dt, path);
    }
  } catch (...) {
    H5Fclose(f);
    std::remove(tmp.c_str());
    throw;
  }
  h5::check(H5Fclose(f), path, "closing");
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw_error("save_checkpoint: cannot rename '", tmp, "' to '", path, "'");
}

void load_checkpoint(const std::string& path, TimeStepper& stepper) {
  ContactComponent* contact = find_contact(stepper);
  hid_t f = -1;
  H5E_BEGIN_TRY { f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT); }
  H5E_END_TRY;
  if (f < 0) throw_error("load_checkpoint: cannot open '", path, "' as an HDF5 checkpoint");
  try {
    // Version 2 (no integrator/) restarts a generalized-alpha run with its
    // start-up step, a backward-Euler one exactly.
    const int version = h5::read_scalar<int>(f, "version", path);
    if (version != kCheckpointVersion && version != 2)
      throw_error("load_checkpoint: '", path, "' has an unsupported version");
    const Real dt = h5::read_scalar<Real>(f, "dt", path);
    if (dt != stepper.settings().dt)
      throw_error("load_checkpoint: '", path, "' was written with dt = ", dt,
                  ", this stepper has dt = ", stepper.settings().dt);
    StepperState st;
    st.t = h5::read_scalar<Real>(f, "t", path);
    st.steps = static_cast<long>(h5::read_scalar<long long>(f, "steps", path));
    st.penalty = h5::read_scalar<Real>(f, "penalty", path);
    st.q = h5::read<Real>(f, "q", path);
    st.v = h5::read<Real>(f, "v", path);
    st.dv = h5::read<Real>(f, "dv", path);
    st.lambda = h5::read<Real>(f, "lambda", path);
    st.prescribed_last = h5::read<Real>(f, "prescribed_last", path);
    st.reuse_next = h5::read_scalar<int>(f, "reuse_next", path) != 0;
    st.have_factor = h5::read_scalar<int>(f, "factor/have", path) != 0;
    st.factor_h = h5::read_scalar<Real>(f, "factor/h", path);
    st.factor_t = h5::read_scalar<Real>(f, "factor/t", path);
    st.factor_q = h5::read<Real>(f, "factor/q", path);
    st.factor_v = h5::read<Real>(f, "factor/v", path);
    st.factor_lambda = h5::read<Real>(f, "factor/lambda", path);
    st.accel_valid = version >= 3 && h5::read_scalar<int>(f, "integrator/accel_valid", path) != 0;
    if (st.accel_valid) {
      st.a = h5::read<Real>(f, "integrator/a", path);
      st.abar = h5::read<Real>(f, "integrator/abar", path);
    }
    const bool has_contact = h5::read_scalar<int>(f, "contact/present", path) != 0;
    // A model that requires contact (a scene's) gets its history only
    // through its stepper's contact component: added after the load, it
    // would continue from none.
    const auto& required = stepper.model().required_step_forces();
    if (!contact && has_contact &&
        std::find(required.begin(), required.end(), ContactComponent::component_name()) !=
            required.end())
      throw_error("load_checkpoint: '", path,
                  "' holds a contact history, but the stepper has no contact component yet (add "
                  "it first: Scene::attach_contact(stepper))");
    if (contact && !has_contact)
      throw_error("load_checkpoint: '", path,
                  "' holds no contact history, but the stepper has contact");
    if (contact) {
      const auto keys = h5::read<unsigned long long>(f, "contact/keys", path);
      const auto dts = h5::read<Real>(f, "contact/delta_t", path);
      const auto sliding = h5::read<int>(f, "contact/sliding", path);
      const auto slip = h5::read<Real>(f, "contact/slip", path);
      if (dts.size() != 3 * keys.size() || sliding.size() != keys.size() ||
          slip.size() != keys.size())
        throw_error("load_checkpoint: '", path, "' has inconsistent contact history sizes");
      std::vector<ContactHistory> values(keys.size());
      for (size_t k = 0; k < keys.size(); ++k) {
        for (int a = 0; a < 3; ++a) values[k].delta_t[a] = dts[3 * k + a];
        values[k].sliding = sliding[k];
        values[k].slip = slip[k];
      }
      contact->restore_history(keys, values, h5::read_scalar<Real>(f, "contact/t_last", path));
    }
    stepper.restore(st);
  } catch (...) {
    H5Fclose(f);
    throw;
  }
  H5Fclose(f);
}

}  // namespace tlfea::io
