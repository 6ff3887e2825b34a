// RowLayout (core/crs_pattern.hpp): a rank's rows of the Newton matrix
// packed in row order, and block offsets converted between layouts. The
// expected positions are computed here from the pattern's row map alone
// (row r held at the sum of the lengths of the held rows before it).
#include <gtest/gtest.h>

#include <vector>

#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/error.hpp"

namespace tlfea {
namespace {

struct Fixture {
  std::vector<CliqueSet> cliques;
  CrsPattern pattern;
  std::vector<DeviceView<Offset***>> offsets;
  Fixture() {
    // Five coefficients: two "elements" of three and a two-point "joint"
    // (with an eliminated slot, -1).
    cliques.push_back(CliqueSet{3, {0, 1, 2, 2, 3, 4}});
    cliques.push_back(CliqueSet{2, {1, 4, 3, -1}});
    pattern = build_crs_pattern(5, cliques, offsets);
  }
};

// The rows of coefficients 1 and 3 (scalar rows 3-5 and 9-11).
const std::vector<Ordinal> kHeld = {3, 4, 5, 9, 10, 11};

TEST(RowLayout, PacksTheHeldRowsInOrder) {
  Fixture f;
  auto rm = Kokkos::create_mirror_view_and_copy(HostSpace(), f.pattern.row_map);
  const RowLayout layout = make_row_layout(f.pattern, kHeld);
  auto shift = Kokkos::create_mirror_view_and_copy(HostSpace(), layout.shift);
  Offset at = 0;
  for (Ordinal r = 0; r < f.pattern.num_rows(); ++r) {
    const bool held = (r >= 3 && r <= 5) || (r >= 9 && r <= 11);
    if (!held) {
      EXPECT_EQ(shift(r), RowLayout::kAbsent) << "row " << r;
      continue;
    }
    EXPECT_EQ(rm(r) + shift(r), at) << "row " << r;
    at += rm(r + 1) - rm(r);
  }
  EXPECT_EQ(layout.nnz, at);
  EXPECT_EQ(layout.size(f.pattern), at);
  EXPECT_EQ(RowLayout().size(f.pattern), f.pattern.nnz());
}

// Two lists (a rank's owned rows, then its shared rows): the rows of
// coefficient 3 packed first, then those of coefficient 1 after them.
TEST(RowLayout, PacksTheFirstRowsThenTheOthers) {
  Fixture f;
  auto rm = Kokkos::create_mirror_view_and_copy(HostSpace(), f.pattern.row_map);
  const std::vector<Ordinal> first = {9, 10, 11}, then = {3, 4, 5};
  const RowLayout layout = make_row_layout(f.pattern, first, then);
  auto shift = Kokkos::create_mirror_view_and_copy(HostSpace(), layout.shift);
  Offset at = 0;
  for (const std::vector<Ordinal>* rows : {&first, &then})
    for (Ordinal r : *rows) {
      EXPECT_EQ(rm(r) + shift(r), at) << "row " << r;
      at += rm(r + 1) - rm(r);
    }
  EXPECT_EQ(layout.nnz, at);
  for (Ordinal r : {0, 1, 2, 6, 7, 8, 12, 13, 14}) EXPECT_EQ(shift(r), RowLayout::kAbsent);
  EXPECT_THROW(make_row_layout(f.pattern, {3, 4, 5}, {4}), Error);  // a row in both
  EXPECT_THROW(make_row_layout(f.pattern, {3, 4, 5}, {10, 9}), Error);
}

TEST(RowLayout, ConvertsBlockOffsetsAndBack) {
  Fixture f;
  auto rm = Kokkos::create_mirror_view_and_copy(HostSpace(), f.pattern.row_map);
  auto en = Kokkos::create_mirror_view_and_copy(HostSpace(), f.pattern.entries);
  // Packed start of each held row, from the row map alone.
  std::vector<Offset> start(f.pattern.num_rows(), -1);
  Offset at = 0;
  for (Ordinal r : kHeld) {
    start[r] = at;
    at += rm(r + 1) - rm(r);
  }
  const RowLayout layout = make_row_layout(f.pattern, kHeld);
  for (size_t s = 0; s < f.cliques.size(); ++s) {
    const CliqueSet& cl = f.cliques[s];
    // A copy (on a host build a mirror view would be the converted array).
    auto global = Kokkos::create_mirror(f.offsets[s]);
    Kokkos::deep_copy(global, f.offsets[s]);
    convert_offsets(f.pattern, cl, RowLayout(), layout, f.offsets[s]);
    auto local = Kokkos::create_mirror_view_and_copy(HostSpace(), f.offsets[s]);
    for (Ordinal c = 0; c < cl.count(); ++c)
      for (int i = 0; i < cl.size; ++i)
        for (int j = 0; j < cl.size; ++j) {
          const Ordinal a = cl.ids[c * cl.size + i], b = cl.ids[c * cl.size + j];
          if (a < 0 || b < 0 || start[3 * a] < 0) {
            EXPECT_EQ(local(c, i, j), -1) << "set " << s << " block (" << a << ", " << b << ")";
            continue;
          }
          // Entry (r, q) of the block: column 3 b + q of row 3 a + r, both
          // in the pattern and at the packed position of that row.
          for (int r = 0; r < 3; ++r)
            for (int q = 0; q < 3; ++q) {
              const Offset len = rm(3 * a + 1) - rm(3 * a);
              const Offset g = global(c, i, j) + r * len + q;
              ASSERT_EQ(en(g), 3 * b + q);
              EXPECT_EQ(local(c, i, j) + r * len + q, start[3 * a + r] + (g - rm(3 * a + r)));
            }
        }
    // Back to the whole pattern: the blocks of rows not held are found again.
    convert_offsets(f.pattern, cl, layout, RowLayout(), f.offsets[s]);
    auto back = Kokkos::create_mirror_view_and_copy(HostSpace(), f.offsets[s]);
    for (size_t k = 0; k < back.size(); ++k) EXPECT_EQ(back.data()[k], global.data()[k]);
  }
}

TEST(RowLayout, RejectsUnorderedRowsAndMisshapenOffsets) {
  Fixture f;
  EXPECT_THROW(make_row_layout(f.pattern, {4, 3}), Error);
  EXPECT_THROW(make_row_layout(f.pattern, {3, f.pattern.num_rows()}), Error);
  EXPECT_THROW(convert_offsets(f.pattern, f.cliques[1], RowLayout(), RowLayout(), f.offsets[0]),
               Error);
}

}  // namespace
}  // namespace tlfea
