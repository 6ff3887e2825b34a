// TLFEA io: continuing an output directory at a checkpoint's step
// (OutputSettings::resume): checking its step files and history.csv, then
// dropping what lies beyond the step.
#include <dirent.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "h5util.hpp"
#include "output_impl.hpp"

namespace tlfea::io {

// Continues the output in `dir` at the stepper's step S (OutputSettings::
// resume): everything is read and checked first, and only then are the step
// files beyond S removed and history.csv rewritten with its rows up to S
// (through NAME.tmp and a rename, like every file here).
void OutputWriter::Impl::resume() {
  const long S = stepper.steps_taken();
  const std::string sdir = dir + "/steps";
  auto refuse = [&](const std::string& why) {
    throw_error("OutputWriter: cannot continue the output in '", dir, "' at step ", S, ": ", why,
                "; nothing was changed (give another --output directory, or remove it)");
  };
  // The rank count that wrote the fields (output.h5's "pieces", 1 without
  // it; this run's when there is no output.h5 yet). Another count: the
  // fields start anew at step S (every piece's step files removed) and
  // history.csv continues; read by every rank before any changes a file.
  int written_pieces = pieces;
  {
    const std::string main = dir + "/output.h5";
    hid_t f = -1;
    if (std::FILE* probe = std::fopen(main.c_str(), "rb")) {
      std::fclose(probe);
      H5E_BEGIN_TRY { f = H5Fopen(main.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT); }
      H5E_END_TRY;
    }
    if (f >= 0) {
      written_pieces = dataset_size(f, "pieces") > 0 ? h5::read_scalar<int>(f, "pieces", main) : 1;
      H5Fclose(f);
    }
  }
  const bool fresh_fields = written_pieces != pieces;
  // Every rank checks its part (its step files; rank 0 history.csv), then
  // all refuse alike when one part cannot be continued.
  std::string failure;
  std::vector<int> indices;
  std::vector<std::string> stale;  // *.h5.tmp: a write cut short
  std::vector<StepEntry> kept;
  std::vector<std::vector<Real>> rows;
  try {
    resume_check(S, sdir, fresh_fields, indices, stale, kept, rows, refuse);
  } catch (const Error& e) {
    failure = e.what();
  }
  if (any_rank(!failure.empty())) {
    if (!failure.empty()) throw Error(failure);
    refuse("another rank's piece of it cannot be continued");
  }
  // Checked: now the directory is changed.
  if (fresh_fields) {
    if (piece == 0) {
      remove_step_files(sdir);
      remove_piece_files(dir, pieces);
    }
  } else {
    for (size_t i = kept.size(); i < indices.size(); ++i)
      std::remove((dir + "/" + step_file(indices[i], suffix)).c_str());
    for (const auto& n : stale) std::remove(n.c_str());
  }
  if (piece == 0) {
    const int ncol = static_cast<int>(columns.size());
    const std::string tmp = csvpath + ".tmp";
    std::FILE* out = std::fopen(tmp.c_str(), "w");
    if (!out) throw_error("OutputWriter: cannot create '", tmp, "'");
    std::fprintf(out, "%s\n", header().c_str());
    for (const auto& row : rows)
      for (int c = 0; c < ncol; ++c) std::fprintf(out, c + 1 < ncol ? "%.17g," : "%.17g\n", row[c]);
    const bool ok = std::fflush(out) == 0;
    std::fclose(out);
    if (!ok || std::rename(tmp.c_str(), csvpath.c_str()) != 0) {
      std::remove(tmp.c_str());
      throw_error("OutputWriter: cannot write '", csvpath, "'");
    }
    csv = std::fopen(csvpath.c_str(), "a");
    if (!csv) throw_error("OutputWriter: cannot append to '", csvpath, "'");
  }
  history = std::move(rows);
  steps = std::move(kept);
  if (!steps.empty() && steps.back().step == S) last_written_step = S;
  any_rank(false);  // rank 0's removals done before any rank writes
  if (piece == 0) write_xdmf(true);
}

void OutputWriter::Impl::resume_check(long S, const std::string& sdir, bool fresh_fields,
                                      std::vector<int>& indices, std::vector<std::string>& stale,
                                      std::vector<StepEntry>& kept,
                                      std::vector<std::vector<Real>>& rows,
                                      const std::function<void(const std::string&)>& refuse) {
  if (!fresh_fields)
    if (DIR* d = opendir(sdir.c_str())) {
      while (dirent* e = readdir(d)) {
        const std::string n = e->d_name;
        const bool digits = n.size() >= 9 && std::all_of(n.begin(), n.begin() + 6, ::isdigit);
        if (digits && n.substr(6) == suffix + ".h5") indices.push_back(std::stoi(n.substr(0, 6)));
        if (digits && n.substr(6) == suffix + ".h5.tmp") stale.push_back(sdir + "/" + n);
      }
      closedir(d);
    }
  std::sort(indices.begin(), indices.end());
  for (size_t i = 0; i < indices.size(); ++i)
    if (indices[i] != static_cast<int>(i))
      refuse("steps/ has no file " + step_file(static_cast<int>(i), suffix).substr(6) +
             " (step files are numbered 0, 1, ...)");
  for (int index : indices) {
    const std::string path = dir + "/" + step_file(index, suffix);
    hid_t f = -1;
    H5E_BEGIN_TRY { f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT); }
    H5E_END_TRY;
    if (f < 0) refuse("cannot read '" + path + "'");
    StepEntry e{index, 0, 0.0, 0, 0};
    bool same_points = true;
    try {
      e.step = static_cast<long>(h5::read_scalar<long long>(f, "step", path));
      e.time = h5::read_scalar<double>(f, "time", path);
      for (size_t b = 0; b < bodies.size(); ++b)
        same_points = same_points && dataset_size(f, "body" + std::to_string(b) + "/x") ==
                                         3 * static_cast<hssize_t>(bodies[b].num_points);
      e.joints = static_cast<Ordinal>(dataset_size(f, "joints/connectivity"));
      e.contacts = static_cast<Ordinal>(dataset_size(f, "contact/connectivity"));
    } catch (...) {
      H5Fclose(f);
      throw;
    }
    H5Fclose(f);
    if (e.step > S) break;  // this one and the later ones: the abandoned continuation
    if (!kept.empty() && e.step <= kept.back().step)
      refuse("'" + path + "' holds step " + std::to_string(e.step) + ", not after step " +
             std::to_string(kept.back().step));
    if (!same_points)
      refuse("'" + path + "' has other visualisation point counts than this model (another run)");
    if (e.step == S && e.time != stepper.time()) {
      std::ostringstream os;
      os << std::setprecision(17) << "'" << path << "' has step " << S << " at t = " << e.time
         << ", the checkpoint at t = " << stepper.time() << " (another run)";
      refuse(os.str());
    }
    kept.push_back(e);
  }
  const int ncol = static_cast<int>(columns.size());
  if (piece == 0) {
    std::ifstream in(csvpath);
    std::string line;
    if (in && std::getline(in, line)) {
      const std::string head = header();
      if (line != head) refuse("'" + csvpath + "' has another header than '" + head + "'");
      long lineno = 1;
      while (std::getline(in, line)) {
        ++lineno;
        std::vector<Real> row(ncol, 0.0);
        const char* p = line.c_str();
        for (int c = 0; c < ncol; ++c) {
          char* end = nullptr;
          row[c] = std::strtod(p, &end);
          if (end == p || *end != (c + 1 < ncol ? ',' : '\0'))
            refuse("'" + csvpath + "' line " + std::to_string(lineno) + " is not " +
                   std::to_string(ncol) + " numbers");
          p = end + 1;
        }
        if (row[kStep] > static_cast<Real>(S)) break;  // the abandoned continuation
        if (!rows.empty() && row[kStep] <= rows.back()[kStep])
          refuse("'" + csvpath + "' line " + std::to_string(lineno) + " is not after step " +
                 std::to_string(static_cast<long>(rows.back()[kStep])));
        rows.push_back(row);
      }
    }
  }
}

}  // namespace tlfea::io
