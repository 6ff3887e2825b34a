// TLFEA: the one error type. Its message names the file, line or entity.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace tlfea {

// `s` with every control byte (below 0x20, and 0x7f) written as \xHH: a
// message that quotes input text (a key, a value, a file name) stays one
// printable line whatever bytes the input held.
inline std::string escape_control_bytes(const std::string& s) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

// Messages are escaped (escape_control_bytes) when the error is made.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(escape_control_bytes(what)) {}
};

// Builds a message from stream pieces: throw_error("mesh.ele:12: ", n, " nodes").
template <class... Args>
[[noreturn]] void throw_error(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  throw Error(os.str());
}

}  // namespace tlfea
