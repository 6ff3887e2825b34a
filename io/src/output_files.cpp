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
    // Another rank may have made it since the stat.
    if (mkdir(path.c_str(), 0777) != 0 && !(stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)))
      throw_error("OutputWriter: cannot create output directory '", path, "'");
  }
}

namespace {
// Whether `t` is "<suffix>.h5" or "<suffix>.h5.tmp" with suffix "" or
// ".r<digits>", and those digits (0 for "").
bool piece_tail(const std::string& t, int& k) {
  std::string rest = t;
  k = 0;
  if (rest.size() > 2 && rest.compare(0, 2, ".r") == 0) {
    size_t i = 2;
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i]))) ++i;
    if (i == 2 || i - 2 > 6) return false;
    k = std::stoi(rest.substr(2, i - 2));
    rest = rest.substr(i);
  }
  return rest == ".h5" || rest == ".h5.tmp";
}

void remove_matching(const std::string& dir, size_t head, const std::string& prefix, int first) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    int k = 0;
    const bool lead =
        prefix.empty() ? n.size() >= head + 3 && std::all_of(n.begin(), n.begin() + head, ::isdigit)
                       : n.compare(0, head, prefix) == 0;
    if (lead && piece_tail(n.substr(head), k) && k >= first) names.push_back(n);
  }
  closedir(d);
  for (const auto& n : names) std::remove((dir + "/" + n).c_str());
}
}  // namespace

void remove_step_files(const std::string& dir) { remove_matching(dir, 6, "", 0); }

void remove_piece_files(const std::string& dir, int first) {
  remove_matching(dir, 6, "output", std::max(first, 1));
}

std::string piece_suffix(int k) { return k == 0 ? std::string() : ".r" + std::to_string(k); }

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

std::string step_file(int index, const std::string& suffix) {
  std::ostringstream f;
  f << "steps/" << std::setw(6) << std::setfill('0') << index << suffix << ".h5";
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
