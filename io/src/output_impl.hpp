// TLFEA io (internal): the state of an OutputWriter (output.hpp) shared by
// the files that write its parts, and the file helpers they use.
#pragma once

#include <hdf5.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tlfea/integrators/diagnostics.hpp"
#include "tlfea/io/output.hpp"

namespace tlfea::io {

// History columns (output.hpp): these, then kBodyColumns per body.
enum Column {
  kStep,
  kTime,
  kKinetic,
  kStrain,
  kGravity,
  kTotal,
  kViolation,
  kNewton,
  kOuter,
  kFactorizations,
  kRetries,
  kWall,
  kNumColumns
};
constexpr int kBodyColumns = 11;

// A body's visualisation mesh (visualisation_mesh.cpp).
struct BodyOut {
  bool quadratic = true;
  std::string topology_type;
  int nodes_per_cell = 0;
  Ordinal num_points = 0, num_cells = 0;
  std::vector<int> topology;  // num_cells x nodes_per_cell, XDMF order
  // Point p = sum_{k in [start(p), start(p+1))} weight(k) q(id(k)).
  std::vector<Ordinal> start, id;
  std::vector<Real> weight;
  std::vector<Real> reference;  // num_points x 3
};

// Seconds of a monotonic clock.
double wall();
// Creates the folders of `dir` that are missing (Error when one cannot be made).
void make_directories(const std::string& dir);
// Removes DIR/NNNNNN.h5, DIR/NNNNNN.r<k>.h5 and their .tmp (an earlier
// run's step files, of every piece).
void remove_step_files(const std::string& dir);
// Removes DIR/output.r<k>.h5 (and .tmp) for k >= first (an earlier run's
// pieces).
void remove_piece_files(const std::string& dir, int first);
// The file-name suffix of piece k: "" for 0, ".r<k>" otherwise.
std::string piece_suffix(int k);
// Number of values of dataset `name` under `loc` (0 when it does not exist),
// from its dataspace only (a step's fields are not read).
hssize_t dataset_size(hid_t loc, const std::string& name);
// Step file of output step `index` of the piece with file-name suffix
// `suffix`, relative to the directory: steps/NNNNNN<suffix>.h5.
std::string step_file(int index, const std::string& suffix = "");

// An HDF5 file written to PATH.tmp: commit() closes it and renames it to
// PATH; on an exception before that the destructor closes it and removes
// the temporary file, so nothing partial is left and the handle is free.
struct TmpH5 {
  std::string path, tmp;
  hid_t id = -1;
  explicit TmpH5(const std::string& p);
  void commit();
  ~TmpH5();
  TmpH5(const TmpH5&) = delete;
  TmpH5& operator=(const TmpH5&) = delete;
};

struct OutputWriter::Impl {
  Model& model;
  TimeStepper& stepper;
  OutputSettings s;
  std::string dir, h5path, xdmfpath, csvpath;
  bool open = false;
  std::FILE* csv = nullptr;
  const ContactForces* cforces = nullptr;
  const ContactPoints* cpoints = nullptr;
  const ContactComponent* ccomponent = nullptr;  // set_contact(component): in place of the two
  std::vector<std::pair<std::string, RowRange>> joints;
  std::vector<BodyOut> bodies;  // this rank's piece
  // Several ranks: this rank's piece, their number, its file-name suffix.
  int piece = 0, pieces = 1;
  std::string suffix;
  // Piece 0: the point and cell counts of every piece's bodies, [k][b].
  std::vector<std::vector<std::pair<Ordinal, Ordinal>>> piece_counts;
  // Several ranks: waits for every rank (OutputSettings::any_rank); true
  // when `flag` is on any rank.
  bool any_rank(bool flag) const { return pieces > 1 ? s.any_rank(flag) : flag; }
  // Energies and per-body measures of the histories (made once the
  // directory is ready; on several ranks on every rank, whose energies()
  // sum the ranks' element terms: every rank calls it for each row).
  std::optional<StateMeasures> measures;
  // The energies and the bodies' measures (body_rows) of the current state,
  // for a history row: on several ranks every rank calls it (both sum the
  // ranks' parts), piece 0 writes the row.
  Energies measure();
  std::vector<BodyMeasures> body_rows;
  // History columns: kColumnNames, then kBodyColumns per body.
  std::vector<std::string> columns;
  // Histories: all rows (output.h5 is rewritten with all of them).
  std::vector<std::vector<Real>> history;
  struct StepEntry {
    int index;
    long step;
    Real time;
    Ordinal joints, contacts;
  };
  std::vector<StepEntry> steps;
  long last_written_step = -1;
  double last_end = 0.0;
  bool finished = false;

  Impl(Model& m, TimeStepper& st, const OutputSettings& set) : model(m), stepper(st), s(set) {}
  ~Impl();
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  void build_bodies();  // visualisation_mesh.cpp
  std::vector<BodyOut> build_piece(int k) const;
  void build_columns();  // output_writer.cpp
  std::string header() const;
  void histories_row(const StepReport* rep, double wall_s, const Energies& e);
  void write_step();  // step_files.cpp
  void write_main_file(bool histories);
  // output.xdmf (xdmf_index.cpp): written whole (with free space for the
  // steps to come, or without it at the end), or the last entry of `steps`
  // appended in place.
  int xdmf_fd = -1;                              // open on output.xdmf while it has free space
  long long xdmf_opener = -1, xdmf_closer = -1;  // offsets of "<?pad" and "?>"
  std::string xdmf_grid(const StepEntry& e) const;
  void write_xdmf(bool free_space);
  void append_xdmf();
  void close_xdmf();
  void resume();  // output_resume.cpp
  void resume_check(long S, const std::string& sdir, bool fresh_fields, std::vector<int>& indices,
                    std::vector<std::string>& stale, std::vector<StepEntry>& kept,
                    std::vector<std::vector<Real>>& rows,
                    const std::function<void(const std::string&)>& refuse);
};

}  // namespace tlfea::io
