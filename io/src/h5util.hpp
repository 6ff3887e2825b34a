// TLFEA io (internal): small helpers over the HDF5 C API. Every failure
// throws tlfea::Error naming the file and the object.
#pragma once

#include <hdf5.h>

#include <string>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea::io::h5 {

inline void check(long long status, const std::string& file, const std::string& what) {
  if (status < 0) throw_error("HDF5: ", what, " failed in '", file, "'");
}

// Creates (or opens) the group path g (parents included).
inline hid_t group(hid_t file, const std::string& path, const std::string& fname) {
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  htri_t exists = 0;
  H5E_BEGIN_TRY { exists = H5Lexists(file, path.c_str(), H5P_DEFAULT); }  // parents may be missing
  H5E_END_TRY;
  hid_t g = exists > 0 ? H5Gopen2(file, path.c_str(), H5P_DEFAULT)
                       : H5Gcreate2(file, path.c_str(), lcpl, H5P_DEFAULT, H5P_DEFAULT);
  H5Pclose(lcpl);
  check(g, fname, "group " + path);
  return g;
}

// A dataset of `rows` x `cols` values (cols = 0: one-dimensional).
template <class T>
hid_t native();
template <>
inline hid_t native<double>() {
  return H5T_NATIVE_DOUBLE;
}
template <>
inline hid_t native<int>() {
  return H5T_NATIVE_INT;
}
template <>
inline hid_t native<long long>() {
  return H5T_NATIVE_LLONG;
}
template <>
inline hid_t native<unsigned long long>() {
  return H5T_NATIVE_ULLONG;
}

template <class T>
void write(hid_t loc, const std::string& name, const T* data, hsize_t rows, hsize_t cols,
           const std::string& fname) {
  hsize_t dims[2] = {rows, cols};
  hid_t space = H5Screate_simple(cols ? 2 : 1, dims, nullptr);
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  hid_t d = H5Dcreate2(loc, name.c_str(), native<T>(), space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  H5Pclose(lcpl);
  H5Sclose(space);
  check(d, fname, "creating dataset " + name);
  herr_t st = rows * (cols ? cols : 1) > 0
                  ? H5Dwrite(d, native<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data)
                  : 0;
  H5Dclose(d);
  check(st, fname, "writing dataset " + name);
}
template <class T>
void write(hid_t loc, const std::string& name, const std::vector<T>& v, hsize_t cols,
           const std::string& fname) {
  const hsize_t rows = cols ? v.size() / cols : v.size();
  write(loc, name, v.data(), rows, cols, fname);
}
template <class T>
void write_scalar(hid_t loc, const std::string& name, T value, const std::string& fname) {
  write(loc, name, &value, 1, 0, fname);
}

template <class T>
std::vector<T> read(hid_t loc, const std::string& name, const std::string& fname) {
  htri_t exists = -1;
  H5E_BEGIN_TRY { exists = H5Lexists(loc, name.c_str(), H5P_DEFAULT); }  // parents may be missing
  H5E_END_TRY;
  if (exists <= 0) throw_error("HDF5: '", fname, "' has no dataset '", name, "'");
  hid_t d = H5Dopen2(loc, name.c_str(), H5P_DEFAULT);
  check(d, fname, "opening dataset " + name);
  hid_t space = H5Dget_space(d);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  H5Sclose(space);
  std::vector<T> v(static_cast<size_t>(n));
  herr_t st = n > 0 ? H5Dread(d, native<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) : 0;
  H5Dclose(d);
  check(st, fname, "reading dataset " + name);
  return v;
}
template <class T>
T read_scalar(hid_t loc, const std::string& name, const std::string& fname) {
  const std::vector<T> v = read<T>(loc, name, fname);
  if (v.size() != 1) throw_error("HDF5: '", fname, "' dataset '", name, "' is not a scalar");
  return v[0];
}

inline void write_string_attribute(hid_t loc, const std::string& name, const std::string& value,
                                   const std::string& fname) {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, value.size() + 1);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(loc, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
  herr_t st = a < 0 ? -1 : H5Awrite(a, type, value.c_str());
  if (a >= 0) H5Aclose(a);
  H5Sclose(space);
  H5Tclose(type);
  check(st, fname, "attribute " + name);
}

}  // namespace tlfea::io::h5
