// TLFEA io: OutputWriter (output.hpp): opening an output directory, the
// history columns and rows (history.csv), and when fields are written.
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "output_impl.hpp"

namespace tlfea::io {

namespace {

const char* const kColumnNames[kNumColumns] = {"step",
                                               "time",
                                               "kinetic_energy",
                                               "strain_energy",
                                               "gravity_potential",
                                               "total_energy",
                                               "constraint_violation",
                                               "newton_iterations",
                                               "outer_iterations",
                                               "factorizations",
                                               "retries",
                                               "step_wall_time"};
// Per-body columns after those, per body b in order: "<name>." + these
// (io/output.hpp; Model::body_motion).
const char* const kBodyColumnNames[kBodyColumns] = {"com_x",
                                                    "com_y",
                                                    "com_z",
                                                    "momentum_x",
                                                    "momentum_y",
                                                    "momentum_z",
                                                    "angular_momentum_x",
                                                    "angular_momentum_y",
                                                    "angular_momentum_z",
                                                    "kinetic_energy",
                                                    "gravity_potential"};
}  // namespace

std::vector<Vec3> joint_reaction_per_body(Model& model, const TimeStepper& stepper, RowRange rows) {
  return constraint_force_per_body(model, stepper, rows);
}

void OutputWriter::Impl::build_columns() {
  const int nb = model.num_bodies();
  if (!s.body_names.empty() && static_cast<int>(s.body_names.size()) != nb)
    throw_error("OutputWriter: ", s.body_names.size(), " body names for ", nb, " bodies");
  columns.assign(kColumnNames, kColumnNames + kNumColumns);
  std::vector<std::string> names;
  for (int b = 0; b < nb; ++b) {
    const std::string n = s.body_names.empty() ? "body" + std::to_string(b) : s.body_names[b];
    // The name is part of CSV column and HDF5 dataset names.
    if (n.empty() || !std::all_of(n.begin(), n.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
        }))
      throw_error("OutputWriter: body name '", n, "': use letters, digits, '_' and '-' only");
    if (std::find(names.begin(), names.end(), n) != names.end())
      throw_error("OutputWriter: body name '", n, "' used twice");
    names.push_back(n);
    for (int c = 0; c < kBodyColumns; ++c) columns.push_back(n + "." + kBodyColumnNames[c]);
  }
  // A model with force elements: their potential last (also in total_energy).
  if (model.has_force_elements()) columns.push_back("spring_energy");
}

std::string OutputWriter::Impl::header() const {
  std::string h;
  for (size_t c = 0; c < columns.size(); ++c) h += (c ? "," : "") + columns[c];
  return h;
}

Energies OutputWriter::Impl::measure() {
  const CoefView& q = stepper.positions();
  const CoefView& v = stepper.velocities();
  // Device reductions where q and v live (integrators/diagnostics.hpp); only
  // the sums reach the host.
  body_rows.resize(static_cast<size_t>(model.num_bodies()));
  for (int b = 0; b < model.num_bodies(); ++b)
    body_rows[b] = measures->body(b, q, v, stepper.time());
  return measures->energies(q, v, stepper.time());
}

void OutputWriter::Impl::histories_row(const StepReport* rep, double wall_s, const Energies& e) {
  std::vector<Real> row(columns.size(), 0.0);
  row[kStep] = static_cast<Real>(stepper.steps_taken());
  row[kTime] = stepper.time();
  row[kKinetic] = e.kinetic;
  row[kStrain] = e.strain;
  row[kGravity] = e.gravity;
  row[kTotal] = e.total;
  if (rep) {
    row[kViolation] = rep->constraint_violation;
    row[kNewton] = rep->newton_iterations;
    row[kOuter] = rep->outer_iterations;
    row[kFactorizations] = rep->factorizations;
    row[kRetries] = rep->retries;
  }
  row[kWall] = wall_s;
  // Per body: centre of mass, momentum, angular momentum about the origin,
  // kinetic energy and gravity potential (StateMeasures::body).
  for (int b = 0; b < model.num_bodies(); ++b) {
    const BodyMeasures& bm = body_rows.at(b);  // measure()
    Real* r = row.data() + kNumColumns + kBodyColumns * b;
    for (int a = 0; a < 3; ++a) {
      r[a] = bm.motion.center_of_mass[a];
      r[3 + a] = bm.motion.momentum[a];
      r[6 + a] = bm.motion.angular_momentum[a];
    }
    r[9] = bm.motion.kinetic_energy;
    r[10] = bm.gravity_potential;
  }
  if (model.has_force_elements()) row.back() = e.spring;
  // One write per row (a run killed mid-row leaves at most one partial line).
  std::string line;
  char buf[32];
  for (size_t c = 0; c < row.size(); ++c) {
    std::snprintf(buf, sizeof buf, "%.17g", row[c]);
    line += buf;
    line += c + 1 < row.size() ? ',' : '\n';
  }
  std::fputs(line.c_str(), csv);
  history.push_back(std::move(row));
  std::fflush(csv);
}

OutputWriter::OutputWriter(Model& model, TimeStepper& stepper, const OutputSettings& s)
    : impl_(std::make_unique<Impl>(model, stepper, s)) {
  Impl& I = *impl_;
  if (s.every < 1) throw_error("OutputWriter: output every ", s.every, " steps (must be >= 1)");
  // Rank 0 makes the folders; the other ranks write nothing before the
  // collective wait below (after resume's checks, or rank 0's clearing), so
  // a folder that cannot be made is rank 0's error alone.
  const bool first = stepper.partition_rank() == 0;
  if (first) make_directories(s.directory);
  I.dir = s.directory;
  I.xdmfpath = s.directory + "/output.xdmf";
  I.csvpath = s.directory + "/history.csv";
  I.build_bodies();
  I.h5path = s.directory + "/output" + I.suffix + ".h5";
  I.build_columns();
  I.measures.emplace(model, &stepper);
  // steps/: one file per output step; files of an earlier run there go,
  // unless this run continues it (resume: kept up to the current step).
  if (first) make_directories(s.directory + "/steps");
  if (s.resume) {
    I.resume();
  } else {
    // Rank 0 clears an earlier run's files (every piece's), and every rank
    // waits for that before writing its own.
    if (I.piece == 0) {
      remove_step_files(s.directory + "/steps");
      remove_piece_files(s.directory, I.pieces);
      I.csv = std::fopen(I.csvpath.c_str(), "w");
      if (!I.csv) throw_error("OutputWriter: cannot create '", I.csvpath, "'");
      std::fprintf(I.csv, "%s\n", I.header().c_str());
    }
    I.any_rank(false);
  }
  I.open = true;
  I.write_main_file(false);
  // The current state's history row, unless the continued output has it.
  // (The energies on every rank: on several ranks a collective.)
  const bool row =
      I.piece == 0 &&
      (I.history.empty() || I.history.back()[kStep] != static_cast<Real>(I.stepper.steps_taken()));
  if (row || I.pieces > 1) {
    const Energies e = I.measure();
    if (row) I.histories_row(nullptr, 0.0, e);
  }
  I.write_step();
  I.last_end = wall();
}

OutputWriter::~OutputWriter() {
  try {
    finish();
  } catch (...) {
  }
}

void OutputWriter::set_contact(const ContactComponent* contact) {
  impl_->ccomponent = contact;
  impl_->cforces = nullptr;
  impl_->cpoints = nullptr;
}

void OutputWriter::set_contact(const ContactForces* forces, const ContactPoints* points) {
  impl_->ccomponent = nullptr;
  impl_->cforces = forces;
  impl_->cpoints = points;
}

void OutputWriter::add_joint(const std::string& name, RowRange rows) {
  impl_->joints.push_back({name, rows});
}

void OutputWriter::record(const StepReport& report) {
  Impl& I = *impl_;
  if (I.finished) throw_error("OutputWriter::record after finish()");
  const double wall_s = wall() - I.last_end;
  const Energies e = I.measure();
  if (I.piece == 0) I.histories_row(&report, wall_s, e);
  if (I.stepper.steps_taken() % I.s.every == 0) I.write_step();
  I.last_end = wall();
}

void OutputWriter::write_fields() {
  if (impl_->finished) throw_error("OutputWriter::write_fields after finish()");
  impl_->write_step();
}

void OutputWriter::finish() {
  Impl& I = *impl_;
  if (I.finished) return;
  I.finished = true;
  if (I.open) {
    // The last step's fields, then output.h5 with the histories, and the
    // index without its free space.
    I.open = false;
    if (I.last_written_step != I.stepper.steps_taken()) I.write_step();
    I.write_main_file(true);
    if (I.piece == 0) I.write_xdmf(false);
  }
  if (I.csv) {
    std::fclose(I.csv);
    I.csv = nullptr;
  }
}

std::string OutputWriter::hdf5_path() const { return impl_->h5path; }
std::string OutputWriter::xdmf_path() const { return impl_->xdmfpath; }
std::string OutputWriter::csv_path() const { return impl_->csvpath; }

}  // namespace tlfea::io
