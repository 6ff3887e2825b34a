// TLFEA fuzz targets: shared helpers. The readers take paths, so each input is
// written to files in a private temporary folder (made once per process,
// removed at exit) and read back from there.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace tlfea_fuzz {

inline const std::filesystem::path& work_dir() {
  static const std::filesystem::path dir = [] {
    std::string tmpl = (std::filesystem::temp_directory_path() / "tlfea-fuzz.XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) std::abort();
    std::atexit([] { std::error_code ec; std::filesystem::remove_all(work_dir(), ec); });
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

}  // namespace tlfea_fuzz
