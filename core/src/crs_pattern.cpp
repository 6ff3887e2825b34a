#include "tlfea/core/crs_pattern.hpp"

#include <algorithm>
#include <limits>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea {
namespace {

// entries(row_map(r) + 3 i + s) = 3 block_columns(block_row_map(r / 3) + i) + s.
struct ExpandEntries {
  DeviceView<Offset*> rm, brm;
  DeviceView<Ordinal*> bc, entries;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal r) const {
    const Ordinal a = r / 3;
    Offset k = rm(r);
    for (Offset i = brm(a); i < brm(a + 1); ++i)
      for (int s = 0; s < 3; ++s) entries(k++) = 3 * bc(i) + s;
  }
};

}  // namespace

CrsPattern build_crs_pattern(Ordinal num_coefficients, const std::vector<CliqueSet>& cliques,
                             std::vector<DeviceView<Offset***>>& offsets, bool with_entries) {
  const Ordinal nb = num_coefficients;
  // Block adjacency: for each block row, the sorted unique block columns.
  std::vector<std::vector<Ordinal>> adj(nb);
  for (const auto& set : cliques) {
    const int k = set.size;
    for (Ordinal c = 0; c < set.count(); ++c) {
      const Ordinal* ids = set.ids.data() + static_cast<size_t>(c) * k;
      for (int i = 0; i < k; ++i) {
        if (ids[i] < 0) continue;
        if (ids[i] >= nb)
          throw_error("CRS pattern: coefficient ", ids[i], " out of range (", nb, " coefficients)");
        for (int j = 0; j < k; ++j)
          if (ids[j] >= 0) adj[ids[i]].push_back(ids[j]);
      }
    }
  }
  size_t blocks = 0;
  for (Ordinal a = 0; a < nb; ++a) {
    auto& row = adj[a];
    row.push_back(a);  // the diagonal block is always present (mass, regularisation)
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    blocks += row.size();
  }
  if (9 * blocks > static_cast<size_t>(std::numeric_limits<Offset>::max()))
    throw_error("CRS pattern: ", 9 * blocks, " nonzeros exceed the offset type's range");

  CrsPattern p;
  p.num_block_rows = nb;
  p.num_entries = static_cast<Offset>(9 * blocks);
  p.row_map = DeviceView<Offset*>("tlfea::core::row_map", 3 * static_cast<size_t>(nb) + 1);
  p.block_row_length = DeviceView<Offset*>("tlfea::core::block_row_length", nb);
  p.block_row_map = DeviceView<Offset*>("tlfea::core::block_row_map", static_cast<size_t>(nb) + 1);
  p.block_columns = DeviceView<Ordinal*>("tlfea::core::block_columns", blocks);
  {
    auto row_map = host_mirror(p.row_map);
    auto brl = host_mirror(p.block_row_length);
    auto brm = host_mirror(p.block_row_map);
    auto bc = host_mirror(p.block_columns);
    Offset pos = 0, at = 0;
    row_map(0) = 0;
    for (Ordinal a = 0; a < nb; ++a) {
      std::vector<Ordinal>& row = adj[a];
      const Offset len = static_cast<Offset>(3 * row.size());
      brl(a) = len;
      brm(a) = at;
      for (Ordinal b : row) bc(at++) = b;
      for (int r = 0; r < 3; ++r) {
        pos += len;
        row_map(3 * a + r + 1) = pos;
      }
      std::vector<Ordinal>().swap(row);  // the block columns hold it now
    }
    brm(nb) = at;
    copy_to_device(p.row_map, row_map);
    copy_to_device(p.block_row_length, brl);
    copy_to_device(p.block_row_map, brm);
    copy_to_device(p.block_columns, bc);
  }
  std::vector<std::vector<Ordinal>>().swap(adj);
  // Each clique's block offsets, found in the block structure.
  const HostBlockPattern hp(p);
  offsets.clear();
  for (const auto& set : cliques) {
    const int k = set.size;
    DeviceView<Offset***> off("tlfea::core::clique_offsets", set.count(), k, k);
    auto h = host_mirror(off);
    for (Ordinal c = 0; c < set.count(); ++c) {
      const Ordinal* ids = set.ids.data() + static_cast<size_t>(c) * k;
      for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j)
          h(c, i, j) = ids[i] < 0 || ids[j] < 0 ? -1 : hp.find(ids[i], ids[j]);
    }
    copy_to_device(off, h);
    offsets.push_back(off);
  }
  if (with_entries) build_entries(p);
  return p;
}

void build_entries(CrsPattern& pattern) {
  if (pattern.has_entries()) return;
  if (static_cast<Offset>(9 * pattern.block_columns.extent(0)) != pattern.num_entries)
    throw_error("build_entries: the pattern's block columns are ", pattern.block_columns.extent(0),
                " for ", pattern.num_entries, " entries (released?)");
  pattern.entries = DeviceView<Ordinal*>("tlfea::core::entries", pattern.num_entries);
  Kokkos::parallel_for("tlfea::core::build_entries",
                       Kokkos::RangePolicy<ExecSpace>(0, pattern.num_rows()),
                       ExpandEntries{pattern.row_map, pattern.block_row_map, pattern.block_columns,
                                     pattern.entries});
}

RowLayout make_row_layout(const CrsPattern& pattern, const std::vector<Ordinal>& rows) {
  return make_row_layout(pattern, rows, {});
}

RowLayout make_row_layout(const CrsPattern& pattern, const std::vector<Ordinal>& first,
                          const std::vector<Ordinal>& then) {
  auto rm = host_view(pattern.row_map);
  RowLayout layout;
  layout.shift = DeviceView<Offset*>("tlfea::core::row_layout_shift", pattern.num_rows());
  auto h = host_mirror(layout.shift);
  fill(h, RowLayout::kAbsent);
  Offset at = 0;
  for (const std::vector<Ordinal>* rows : {&first, &then}) {
    Ordinal last = -1;
    for (Ordinal r : *rows) {
      if (r <= last || r >= pattern.num_rows())
        throw_error("row layout: rows must ascend within the pattern's ", pattern.num_rows(),
                    " (row ", r, ")");
      if (h(r) != RowLayout::kAbsent)
        throw_error("row layout: row ", r, " is in both lists of rows");
      last = r;
      h(r) = at - rm(r);
      at += rm(r + 1) - rm(r);
    }
  }
  copy_to_device(layout.shift, h);
  layout.nnz = at;
  return layout;
}

DeviceView<Offset***> find_clique_offsets(const CrsPattern& pattern, const CliqueSet& cl) {
  const int k = cl.size;
  DeviceView<Offset***> offsets("tlfea::core::clique_offsets", cl.count(), k, k);
  const HostBlockPattern hp(pattern);
  auto h = host_mirror(offsets);
  for (Ordinal c = 0; c < cl.count(); ++c)
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < k; ++j) {
        const Ordinal a = cl.ids[static_cast<size_t>(c) * k + i];
        const Ordinal b = cl.ids[static_cast<size_t>(c) * k + j];
        h(c, i, j) = hp.offset(a, b, "find_clique_offsets");
      }
  copy_to_device(offsets, h);
  return offsets;
}

void convert_offsets(const CrsPattern& pattern, const CliqueSet& cl, const RowLayout& from,
                     const RowLayout& to, const DeviceView<Offset***>& offsets) {
  const int k = cl.size;
  const Ordinal n = cl.count();
  if (offsets.extent(0) != static_cast<size_t>(n) || offsets.extent(1) != static_cast<size_t>(k) ||
      offsets.extent(2) != static_cast<size_t>(k))
    throw_error("convert_offsets: offsets of ", offsets.extent(0), "x", offsets.extent(1), "x",
                offsets.extent(2), " for ", n, " cliques of ", k);
  if (n == 0) return;
  // The pattern and the layouts read in place on the CPU backends (no
  // pattern-sized copy while the model's offsets are converted).
  const HostBlockPattern hp(pattern);
  auto fs = host_view(from.shift);
  auto ts = host_view(to.shift);
  // The offsets edited in place on the CPU backends (host_mirror is the view
  // itself there, and the copies below then do nothing).
  auto h = host_mirror(offsets);
  copy_to_host(h, offsets);
  for (Ordinal c = 0; c < n; ++c)
    for (int i = 0; i < k; ++i) {
      const Ordinal a = cl.ids[static_cast<size_t>(c) * k + i];
      if (a < 0) continue;
      const Ordinal r = 3 * a;
      for (int j = 0; j < k; ++j) {
        const Ordinal b = cl.ids[static_cast<size_t>(c) * k + j];
        if (b < 0) continue;
        // The block's pattern offset.
        Offset g = h(c, i, j);
        if (!from.whole()) {
          if (g >= 0) {
            g -= fs(r);
          } else {
            g = hp.offset(a, b, "convert_offsets");
          }
        }
        h(c, i, j) = to.whole() ? g : ts(r) == RowLayout::kAbsent ? -1 : g + ts(r);
      }
    }
  copy_to_device(offsets, h);
}

}  // namespace tlfea
