// TLFEA: the one error type. Its message names the file, line or entity.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace tlfea {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// Builds a message from stream pieces: throw_error("mesh.ele:12: ", n, " nodes").
template <class... Args>
[[noreturn]] void throw_error(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  throw Error(os.str());
}

}  // namespace tlfea
