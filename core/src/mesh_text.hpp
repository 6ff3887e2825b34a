// TLFEA (private to core/src): bounded, checked line-oriented reading of mesh
// text files, shared by the TetGen and Gmsh readers.
//
// A file is read whole (its size bounds every count taken from it), split
// into lines, and each line into whitespace-separated tokens. Every number is
// converted with std::from_chars and checked: a conversion that does not
// consume the whole token, overflows, or gives a non-finite or absurd value
// is an Error naming "file:line".
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/mesh.hpp"

namespace tlfea::mesh_text {

// Coordinates beyond this magnitude are rejected: products of three
// coordinate differences (volumes, Jacobians) must stay far from overflow.
inline constexpr Real kMaxCoordinate = 1e100;
// Elements whose vertex volume relative to (longest edge)^3 is at or below
// this are reported as inverted or degenerate. A regular tetrahedron has
// 6 V / h^3 = 0.71, a unit cube 1.
inline constexpr Real kMinRelativeVolume = 1e-10;

// A token for messages: at most 40 characters, non-printable bytes as '?'.
inline std::string printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 40)) {
    const unsigned char u = static_cast<unsigned char>(c);
    out.push_back(u >= 32 && u < 127 ? c : '?');
  }
  if (s.size() > 40) out += "...";
  return out;
}

struct Line {
  long number = 0;  // 1-based line number in the file
  std::string_view text;
  std::vector<std::string_view> tokens;
};

class TextFile {
 public:
  // comment: character that starts a comment to the end of the line, or 0.
  TextFile(const std::string& path, char comment) : path_(path), comment_(comment) {
    std::error_code ec;
    const std::filesystem::path p(path);
    if (!std::filesystem::exists(p, ec)) throw_error(path, ": cannot open mesh file: no such file");
    if (std::filesystem::is_directory(p, ec)) {
      throw_error(path, ": cannot read mesh file: it is a directory");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw_error(path, ": cannot open mesh file for reading");
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0) throw_error(path, ": cannot determine the size of the mesh file");
    // 16 GiB: far beyond any mesh whose indices fit an Ordinal (int).
    if (size > (std::streamoff(1) << 34)) throw_error(path, ": mesh file too large");
    in.seekg(0, std::ios::beg);
    data_.resize(static_cast<size_t>(size));
    if (size > 0 && !in.read(data_.data(), size)) throw_error(path, ": error reading mesh file");
    // Line starts.
    size_t begin = 0;
    while (begin < data_.size()) {
      size_t end = data_.find('\n', begin);
      if (end == std::string::npos) end = data_.size();
      lines_.push_back({begin, end});
      begin = end + 1;
    }
  }

  const std::string& path() const { return path_; }
  size_t size_bytes() const { return data_.size(); }
  // Lines not yet consumed (an upper bound on the records still to come).
  size_t remaining_lines() const { return lines_.size() - next_; }
  bool at_end() {
    skip_blank();
    return next_ >= lines_.size();
  }

  // Next non-blank (after comment removal) line; false at the end.
  bool next(Line& line) {
    skip_blank();
    if (next_ >= lines_.size()) return false;
    fill(next_, line);
    ++next_;
    return true;
  }
  // Next non-blank line or an Error "file:last-line: unexpected end of file
  // (while reading <what>)".
  void require(Line& line, const std::string& what) {
    if (!next(line)) {
      throw_error(path_, ":", lines_.size(), ": unexpected end of file while reading ", what);
    }
  }

  long last_line_number() const { return static_cast<long>(lines_.size()); }

 private:
  std::string_view text_of(size_t i) const {
    std::string_view t(data_.data() + lines_[i].first, lines_[i].second - lines_[i].first);
    if (comment_ != 0) {
      const size_t c = t.find(comment_);
      if (c != std::string_view::npos) t = t.substr(0, c);
    }
    return t;
  }
  static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
  }
  bool blank(size_t i) const {
    for (char c : text_of(i)) {
      if (!is_space(c)) return false;
    }
    return true;
  }
  void skip_blank() {
    while (next_ < lines_.size() && blank(next_)) ++next_;
  }
  void fill(size_t i, Line& line) const {
    line.number = static_cast<long>(i) + 1;
    line.text = text_of(i);
    line.tokens.clear();
    size_t k = 0;
    const std::string_view t = line.text;
    while (k < t.size()) {
      while (k < t.size() && is_space(t[k])) ++k;
      const size_t b = k;
      while (k < t.size() && !is_space(t[k])) ++k;
      if (k > b) line.tokens.push_back(t.substr(b, k - b));
    }
  }

  std::string path_;
  char comment_;
  std::string data_;
  std::vector<std::pair<size_t, size_t>> lines_;
  size_t next_ = 0;
};

// "file:line: " prefix.
inline std::string where(const TextFile& f, const Line& line) {
  return f.path() + ":" + std::to_string(line.number) + ": ";
}

inline void require_tokens(const TextFile& f, const Line& line, size_t min, size_t max,
                           const std::string& what) {
  if (line.tokens.size() < min || line.tokens.size() > max) {
    if (min == max) {
      throw_error(where(f, line), what, ": expected ", min, " values, found ", line.tokens.size());
    }
    throw_error(where(f, line), what, ": expected ", min, " to ", max, " values, found ",
                line.tokens.size());
  }
}

inline long long to_int(const TextFile& f, const Line& line, size_t i, const std::string& what) {
  if (i >= line.tokens.size()) throw_error(where(f, line), "missing ", what);
  std::string_view t = line.tokens[i];
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  long long v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || ptr != t.data() + t.size() || t.empty()) {
    throw_error(where(f, line), "expected an integer for ", what, ", found '",
                printable(line.tokens[i]), "'");
  }
  return v;
}

// Integer in [lo, hi].
inline long long to_int_in(const TextFile& f, const Line& line, size_t i, const std::string& what,
                           long long lo, long long hi) {
  const long long v = to_int(f, line, i, what);
  if (v < lo || v > hi) {
    throw_error(where(f, line), what, " ", v, " out of range [", lo, ", ", hi, "]");
  }
  return v;
}

inline Real to_real(const TextFile& f, const Line& line, size_t i, const std::string& what) {
  if (i >= line.tokens.size()) throw_error(where(f, line), "missing ", what);
  std::string_view t = line.tokens[i];
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  double v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || ptr != t.data() + t.size() || t.empty()) {
    throw_error(where(f, line), "expected a number for ", what, ", found '",
                printable(line.tokens[i]), "'");
  }
  if (!std::isfinite(v)) {
    throw_error(where(f, line), what, " is not finite ('", printable(line.tokens[i]), "')");
  }
  if (std::fabs(v) > kMaxCoordinate) {
    throw_error(where(f, line), what, " ", v, " exceeds the supported magnitude ", kMaxCoordinate);
  }
  return v;
}

// A count read from a header, bounded by what the rest of the file could
// hold (`lines_per_record` lines per record) so that no absurd count is
// ever allocated.
inline long long to_count(const TextFile& f, const Line& line, size_t i, const std::string& what,
                          long long lines_per_record, long long min = 0) {
  const long long v = to_int(f, line, i, what);
  if (v < min) throw_error(where(f, line), what, " ", v, " is invalid (at least ", min, ")");
  const long long room = static_cast<long long>(f.remaining_lines());
  if (lines_per_record > 0 && v > room / lines_per_record) {
    throw_error(
        where(f, line), "header says ", v, " ", what,
        lines_per_record > 1 ? " (" + std::to_string(lines_per_record) + " lines each)" : "",
        " but only ", room, " lines follow (truncated file or wrong count)");
  }
  if (v > std::numeric_limits<Ordinal>::max() / 32) {
    throw_error(where(f, line), what, " ", v, " exceeds the supported size");
  }
  return v;
}

using Vec3 = std::array<Real, 3>;

inline Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Real det3(const Vec3& a, const Vec3& b, const Vec3& c) {
  return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
}
inline Real norm(const Vec3& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

// Corner positions of TLFEA Q27 corners in trilinear order (i, j, k) in {0,2}^3.
inline constexpr int kQ27Corners[8] = {0, 2, 6, 8, 18, 20, 24, 26};

// Orientation measure of element e of a T10 / Q27 mesh: (signed vertex
// volume measure, longest corner edge). T10: 6 V of the vertex tetrahedron.
// Q27: 8 det J at the centre of the trilinear corner map (the volume of a
// parallelepiped cell).
inline std::pair<Real, Real> orientation(const Mesh& m, Ordinal e) {
  if (m.type == ElementType::T10) {
    Vec3 v[4];
    for (int a = 0; a < 4; ++a) v[a] = m.coefficients[m.coefficient(e, a)];
    Real h = 0;
    for (int a = 0; a < 4; ++a) {
      for (int b = a + 1; b < 4; ++b) h = std::max(h, norm(sub(v[b], v[a])));
    }
    return {det3(sub(v[1], v[0]), sub(v[2], v[0]), sub(v[3], v[0])), h};
  }
  // Q27: dX/dxi at xi = 0 is (1/8) sum_a xi_a X_a over the 8 corners.
  Vec3 c[8];
  for (int a = 0; a < 8; ++a) c[a] = m.coefficients[m.coefficient(e, kQ27Corners[a])];
  Vec3 g[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  for (int a = 0; a < 8; ++a) {
    const Real s[3] = {(a & 1) ? 1.0 : -1.0, (a & 2) ? 1.0 : -1.0, (a & 4) ? 1.0 : -1.0};
    for (int d = 0; d < 3; ++d) {
      for (int x = 0; x < 3; ++x) g[d][x] += 0.25 * s[d] * c[a][x];  // 2 dX/dxi_d
    }
  }
  // Longest of the 12 cube edges.
  Real h = 0;
  for (int a = 0; a < 8; ++a) {
    for (int bit = 1; bit < 8; bit <<= 1) {
      if (!(a & bit)) h = std::max(h, norm(sub(c[a | bit], c[a])));
    }
  }
  return {det3(g[0], g[1], g[2]), h};
}

inline bool badly_oriented(const std::pair<Real, Real>& o) {
  const Real h3 = o.second * o.second * o.second;
  return !(o.first > kMinRelativeVolume * h3);
}

// Keeps only the nodes the connectivity uses, in their original order;
// renumbers the connectivity. Returns old -> new (-1 for a dropped node).
inline std::vector<Ordinal> compact_nodes(std::vector<Vec3>& positions,
                                          std::vector<Ordinal>& connectivity) {
  std::vector<Ordinal> map(positions.size(), -1);
  for (Ordinal c : connectivity) map[c] = 0;
  Ordinal next = 0;
  for (size_t i = 0; i < map.size(); ++i) {
    if (map[i] == 0) {
      positions[next] = positions[i];
      map[i] = next++;
    }
  }
  positions.resize(next);
  for (Ordinal& c : connectivity) c = map[c];
  return map;
}

inline std::vector<Ordinal> iota_set(Ordinal n) {
  std::vector<Ordinal> v(n);
  for (Ordinal i = 0; i < n; ++i) v[i] = i;
  return v;
}

}  // namespace tlfea::mesh_text
