// TLFEA: the Newton matrix as a Kokkos Kernels sparse matrix.
//
// The matrix of core/crs_pattern.hpp (3 scalar rows per coefficient, fixed
// pattern, values filled on the device by the element and constraint
// kernels) viewed as a KokkosSparse::CrsMatrix without copying: the matrix
// shares the pattern's row map and column indices and the given values view,
// so spmv and the other Kokkos Kernels sparse routines run on it where the
// values live (host or device memory).
#pragma once

#include <KokkosSparse_CrsMatrix.hpp>

#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

using SparseMatrix = KokkosSparse::CrsMatrix<Real, Ordinal, DeviceType, void, Offset>;

// A = (pattern, values); values has pattern.nnz() entries. No copies.
inline SparseMatrix make_sparse_matrix(const CrsPattern& pattern, const DeviceView<Real*>& values,
                                       const char* label = "tlfea::newton_matrix") {
  const Ordinal n = pattern.num_rows();
  // Rank-1 views convert between layouts, so the pattern's and the values'
  // views are shared (reference counted) as they are.
  return SparseMatrix(label, n, n, pattern.nnz(), SparseMatrix::values_type(values),
                      SparseMatrix::row_map_type(pattern.row_map),
                      SparseMatrix::index_type(pattern.entries));
}

}  // namespace tlfea
