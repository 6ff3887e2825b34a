// TLFEA scene: the memory check of size_limits.hpp.
#include "size_limits.hpp"

#include <unistd.h>

#include <sstream>

namespace tlfea::scene::detail {

double memory_limit_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) return static_cast<double>(pages) * static_cast<double>(page);
  return 64.0 * (1ull << 30);
}
std::string gigabytes(double bytes) {
  std::ostringstream os;
  if (bytes < 1e15) {
    os.setf(std::ios::fixed);
    os.precision(1);
  } else {
    os.precision(3);
  }
  os << bytes / 1e9 << " GB";
  return os.str();
}
void require_memory(const Ctx& c, const YAML::Node& n, const std::string& what, double entries,
                    double bytes_each, const std::string& of) {
  const double need = entries * bytes_each, limit = memory_limit_bytes();
  if (need > limit) {
    std::ostringstream os;
    os.precision(3);
    os << what << " needs at least " << gigabytes(need) << " (" << of << ": " << entries << " x "
       << bytes_each << " bytes), more than the " << gigabytes(limit)
       << " of memory of this machine; refused";
    fail(c, n, os.str());
  }
}

}  // namespace tlfea::scene::detail
