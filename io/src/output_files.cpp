// TLFEA io: the files and folders of an output directory: creating the
// folders, naming and removing step files, sizing a dataset, and HDF5 files
// written whole to NAME.tmp and renamed into place (output_impl.hpp).
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "h5util.hpp"
#include "output_impl.hpp"

namespace tlfea::io {

double wall() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void make_directories(const std::string& dir) {
  if (dir.empty()) throw_error("OutputWriter: empty output directory");
  std::string path;
  std::stringstream ss(dir);
  std::string part;
  if (dir[0] == '/') path = "/";
  while (std::getline(ss, part, '/')) {
    if (part.empty()) continue;
    path += part + "/";
    struct stat st;
    if (stat(path.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        throw_error("OutputWriter: '", path, "' exists and is not a directory");
      continue;
    }
    if (mkdir(path.c_str(), 0777) != 0)
      throw_error("OutputWriter: cannot create output directory '", path, "'");
  }
}

// Removes DIR/NNNNNN.h5 and DIR/NNNNNN.h5.tmp (an earlier run's step files).
void remove_step_files(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    const bool digits = n.size() >= 9 && std::all_of(n.begin(), n.begin() + 6, ::isdigit);
    if (digits && (n.substr(6) == ".h5" || n.substr(6) == ".h5.tmp")) names.push_back(n);
  }
  closedir(d);
  for (const auto& n : names) std::remove((dir + "/" + n).c_str());
}

// Number of values of dataset `name` under `loc` (0 when it does not exist),
// from its dataspace only (a step's fields are not read).
hssize_t dataset_size(hid_t loc, const std::string& name) {
  htri_t exists = -1;
  H5E_BEGIN_TRY { exists = H5Lexists(loc, name.c_str(), H5P_DEFAULT); }
  H5E_END_TRY;
  if (exists <= 0) return 0;
  hid_t d = H5Dopen2(loc, name.c_str(), H5P_DEFAULT);
  if (d < 0) return 0;
  hid_t space = H5Dget_space(d);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  H5Sclose(space);
  H5Dclose(d);
  return n;
}

std::string step_file(int index) {
  std::ostringstream f;
  f << "steps/" << std::setw(6) << std::setfill('0') << index << ".h5";
  return f.str();
}

TmpH5::TmpH5(const std::string& p) : path(p), tmp(p + ".tmp") {
  id = H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (id < 0) throw_error("OutputWriter: cannot create '", tmp, "'");
}

void TmpH5::commit() {
  const herr_t st = H5Fclose(id);
  id = -1;
  h5::check(st, tmp, "close");
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw_error("OutputWriter: cannot rename '", tmp, "' to '", path, "'");
  tmp.clear();
}

TmpH5::~TmpH5() {
  if (id >= 0) H5Fclose(id);
  if (!tmp.empty()) std::remove(tmp.c_str());
}

}  // namespace tlfea::io
