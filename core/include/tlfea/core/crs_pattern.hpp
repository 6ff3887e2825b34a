// TLFEA: fixed sparsity pattern of the Newton matrix.
//
// The matrix has 3 scalar rows/columns per coefficient; its nonzero structure
// is the union of 3x3 blocks (a, b) over "cliques": every element's list of
// coefficients (and, later, every constraint's coupled coefficients). The
// pattern is built once per topology on the host. For each clique c and each
// local pair (i, j) the builder records the offset of the block's (0, 0)
// entry in the CRS values; entry (r, s) of that block is at
//   offset(c, i, j) + r * row_length(block_row) + s,
// because every block row holds its block columns in the same sorted order in
// each of its three scalar rows.
#pragma once

#include <algorithm>
#include <limits>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

struct CrsPattern {
  Ordinal num_block_rows = 0;            // = number of coefficients
  DeviceView<Offset*> row_map;           // size 3 * num_block_rows + 1
  DeviceView<Ordinal*> entries;          // scalar column indices, sorted per row (see below)
  DeviceView<Offset*> block_row_length;  // scalar entries per row of block row a (3 * blocks)
  // The block structure: block row a's block columns, ascending, are
  // block_columns(block_row_map(a) .. block_row_map(a + 1) - 1), and
  // block_row_map(a) = row_map(3 a) / 9. It determines the scalar entries:
  // scalar row 3 a + r holds, for the block column b in slot i of block row
  // a, the columns 3 b + s at row_map(3 a + r) + 3 i + s (s = 0, 1, 2). So
  // `entries` (4 bytes per matrix entry, 9 times the block columns) can be
  // absent (has_entries(): build_crs_pattern without them, made by
  // build_entries when a solver needs them), and code that only needs the
  // positions of entries reads the block structure (HostBlockPattern).
  DeviceView<Offset*> block_row_map;   // size num_block_rows + 1
  DeviceView<Ordinal*> block_columns;  // one per 3 x 3 block
  Offset num_entries = 0;              // scalar entries: 9 per block
  Offset nnz() const { return num_entries; }
  Ordinal num_rows() const { return 3 * num_block_rows; }
  bool has_entries() const { return static_cast<Offset>(entries.extent(0)) == num_entries; }
};

// pattern.entries made from its block structure (a device kernel, one
// thread per scalar row).
void build_entries(CrsPattern& pattern);

// The pattern's structure read on the host (in place on the CPU backends: no
// copy), for setup code that places values: block offsets and the entries of
// a row from the block structure, without the scalar column indices.
struct HostBlockPattern {
  decltype(host_view(DeviceView<Offset*>())) row_map, block_row_map;
  decltype(host_view(DeviceView<Ordinal*>())) block_columns;
  explicit HostBlockPattern(const CrsPattern& p)
      : row_map(host_view(p.row_map)),
        block_row_map(host_view(p.block_row_map)),
        block_columns(host_view(p.block_columns)) {}
  // The offset of block (a, b)'s (0, 0) entry (the first entry of column
  // 3 b in scalar row 3 a), -1 where the pattern has no such block.
  Offset find(Ordinal a, Ordinal b) const {
    const Ordinal* first = block_columns.data() + block_row_map(a);
    const Ordinal* last = block_columns.data() + block_row_map(a + 1);
    const Ordinal* it = std::lower_bound(first, last, b);
    if (it == last || *it != b) return -1;
    return row_map(3 * a) + 3 * static_cast<Offset>(it - first);
  }
  // find(a, b) where the block must exist (Error naming `who` otherwise);
  // -1 for a negative id (an eliminated slot of a clique).
  Offset offset(Ordinal a, Ordinal b, const char* who) const {
    if (a < 0 || b < 0) return -1;
    const Offset k = find(a, b);
    if (k < 0) throw_error(who, ": block (", a, ", ", b, ") is not in the Newton matrix pattern");
    return k;
  }
  // f(b) for the block columns b of block row a, ascending.
  template <class F>
  void for_each_block_column(Ordinal a, F&& f) const {
    for (Offset i = block_row_map(a); i < block_row_map(a + 1); ++i) f(block_columns(i));
  }
  // f(k, c) for the entries of scalar row r in the row's order: k the
  // entry's offset, c its scalar column (ascending).
  template <class F>
  void for_each_entry(Ordinal r, F&& f) const {
    const Ordinal a = r / 3;
    Offset k = row_map(r);
    for (Offset i = block_row_map(a); i < block_row_map(a + 1); ++i)
      for (int s = 0; s < 3; ++s) f(k++, 3 * block_columns(i) + s);
  }
};

// Cliques of equal size k: clique c owns coefficient ids ids[c*k .. c*k+k).
// Negative ids are skipped (used for eliminated coefficients).
struct CliqueSet {
  int size = 0;
  std::vector<Ordinal> ids;
  Ordinal count() const { return size == 0 ? 0 : static_cast<Ordinal>(ids.size() / size); }
};

// Builds the pattern from several clique sets and returns, for each set s,
// the block offsets offsets[s](c, i, j) (-1 where either id is negative).
// with_entries = false leaves out the scalar column indices (build_entries
// adds them).
CrsPattern build_crs_pattern(Ordinal num_coefficients, const std::vector<CliqueSet>& cliques,
                             std::vector<DeviceView<Offset***>>& offsets, bool with_entries = true);

// Where the entries of the pattern's rows sit in a values array that holds
// only some of the rows (one MPI rank's rows: integrators/src/distribution.hpp).
// Row r's entries, in the pattern's order, are at row_map(r) + shift(r) ..
// row_map(r + 1) + shift(r) - 1; shift(r) = kAbsent for a row not held.
// Rows keep their lengths, so the three scalar rows of a block row stay
// consecutive and entry (r, s) of a block stays at offset + r * row_length +
// s. An empty shift (the default) is the whole pattern at its own offsets.
struct RowLayout {
  static constexpr Offset kAbsent = std::numeric_limits<Offset>::min();
  DeviceView<Offset*> shift;  // per scalar row; empty: every row, unshifted
  Offset nnz = 0;             // values held (unused when whole)
  bool whole() const { return shift.extent(0) == 0; }
  // The number of values a layout of `pattern` needs.
  Offset size(const CrsPattern& pattern) const { return whole() ? pattern.nnz() : nnz; }
};

// The layout holding the scalar rows `rows` (ascending) of `pattern`, packed
// in that order.
RowLayout make_row_layout(const CrsPattern& pattern, const std::vector<Ordinal>& rows);
// The rows `first` packed, then the rows `then` packed after them (each list
// ascending, no row in both; the three rows of a block row in one list, so
// that they stay consecutive): several MPI ranks' layout, the rows a rank owns
// first and its shared rows after, the order of the distributed solver's
// matrices (linalg/src/linear_solver_distributed.cpp), which keep their
// values in the array assembled in this layout.
RowLayout make_row_layout(const CrsPattern& pattern, const std::vector<Ordinal>& first,
                          const std::vector<Ordinal>& then);

// The whole-pattern block offsets of the clique set `cl` in an existing
// pattern (as build_crs_pattern gives them: -1 where either id is negative),
// each block found by binary search in its block row; Error for a block the
// pattern lacks.
DeviceView<Offset***> find_clique_offsets(const CrsPattern& pattern, const CliqueSet& cl);

// Re-expresses in place block offsets made for the clique set `cl` (as by
// build_crs_pattern) in layout `from` as offsets in layout `to`: -1 for a
// block whose row `to` does not hold (its writers skip negative offsets); a
// block absent from `from` is found again in the pattern.
void convert_offsets(const CrsPattern& pattern, const CliqueSet& cl, const RowLayout& from,
                     const RowLayout& to, const DeviceView<Offset***>& offsets);

}  // namespace tlfea
