// TLFEA fuzz targets: shared helpers. The readers take paths, so each input is
// written to files in a private temporary folder (made once per process,
// removed at exit) and read back from there.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>

namespace tlfea_fuzz {

inline const std::filesystem::path& work_dir() {
  static const std::filesystem::path dir = [] {
    std::string tmpl = (std::filesystem::temp_directory_path() / "tlfea-fuzz.XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) std::abort();
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(work_dir(), ec);
    });
    return std::filesystem::path(tmpl);
  }();
  return dir;
}

inline std::string write_file(const std::string& name, const char* data, std::size_t size) {
  const std::string path = (work_dir() / name).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data, static_cast<std::streamsize>(size));
  if (!out) std::abort();
  return path;
}

// A reader's error must say where the problem is: the message names the file
// it read (the mesh readers add ":LINE" where a line is at fault). An error
// naming none of `names` is a finding: printed, then abort().
inline void expect_location(const char* what, std::initializer_list<std::string> names) {
  const std::string m = what;
  for (const std::string& n : names)
    if (m.find(n) != std::string::npos) return;
  std::fprintf(stderr, "fuzz: an error that names no input file: %s\n", what);
  std::abort();
}

}  // namespace tlfea_fuzz
