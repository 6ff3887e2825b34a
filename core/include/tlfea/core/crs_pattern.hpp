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

#include <vector>

#include "tlfea/core/types.hpp"

namespace tlfea {

struct CrsPattern {
  Ordinal num_block_rows = 0;            // = number of coefficients
  DeviceView<Offset*> row_map;           // size 3 * num_block_rows + 1
  DeviceView<Ordinal*> entries;          // scalar column indices, sorted per row
  DeviceView<Offset*> block_row_length;  // scalar entries per row of block row a (3 * blocks)
  Offset nnz() const { return static_cast<Offset>(entries.extent(0)); }
  Ordinal num_rows() const { return 3 * num_block_rows; }
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
CrsPattern build_crs_pattern(Ordinal num_coefficients, const std::vector<CliqueSet>& cliques,
                             std::vector<DeviceView<Offset***>>& offsets);

}  // namespace tlfea
