// RowLayout (core/crs_pattern.hpp): a rank's rows of the Newton matrix
// packed in row order, and block offsets converted between layouts. The
// expected positions are computed here from the pattern's row map alone
// (row r held at the sum of the lengths of the held rows before it). The
// pattern's block structure and the scalar entries it gives are checked
// against a pattern worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
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

// The block structure of the fixture's pattern, by hand from its cliques
// {0, 1, 2}, {2, 3, 4}, {1, 4}, {3, -1} (each coefficient coupled to itself
// and its clique partners), and the scalar entries it gives: row 3 a + r
// holds the columns 3 b + s for each block column b of block row a.
TEST(CrsPattern, BlockStructureGivesTheScalarEntries) {
  const std::vector<std::vector<Ordinal>> blocks = {
      {0, 1, 2}, {0, 1, 2, 4}, {0, 1, 2, 3, 4}, {2, 3, 4}, {1, 2, 3, 4}};
  const Offset nnz = 9 * (3 + 4 + 5 + 3 + 4);
  Fixture f;
  std::vector<DeviceView<Offset***>> offsets;
  CrsPattern p = build_crs_pattern(5, f.cliques, offsets, false);
  EXPECT_FALSE(p.has_entries());
  EXPECT_EQ(p.nnz(), nnz);
  EXPECT_EQ(f.pattern.nnz(), nnz);
  EXPECT_TRUE(f.pattern.has_entries());
  auto brm = Kokkos::create_mirror_view_and_copy(HostSpace(), p.block_row_map);
  auto bc = Kokkos::create_mirror_view_and_copy(HostSpace(), p.block_columns);
  auto rm = Kokkos::create_mirror_view_and_copy(HostSpace(), p.row_map);
  ASSERT_EQ(bc.extent(0), static_cast<size_t>(nnz / 9));
  for (Ordinal a = 0; a < 5; ++a) {
    ASSERT_EQ(brm(a + 1) - brm(a), static_cast<Offset>(blocks[a].size())) << "block row " << a;
    EXPECT_EQ(brm(a), rm(3 * a) / 9);
    for (size_t i = 0; i < blocks[a].size(); ++i) EXPECT_EQ(bc(brm(a) + i), blocks[a][i]);
  }
  build_entries(p);
  ASSERT_TRUE(p.has_entries());
  auto en = Kokkos::create_mirror_view_and_copy(HostSpace(), p.entries);
  auto en_whole = Kokkos::create_mirror_view_and_copy(HostSpace(), f.pattern.entries);
  const HostBlockPattern hp(p);
  for (Ordinal r = 0; r < p.num_rows(); ++r) {
    Offset k = rm(r);
    for (Ordinal b : blocks[r / 3])
      for (int s = 0; s < 3; ++s, ++k) {
        EXPECT_EQ(en(k), 3 * b + s) << "row " << r;
        EXPECT_EQ(en_whole(k), 3 * b + s) << "row " << r;
      }
    EXPECT_EQ(k, rm(r + 1));
    Offset seen = rm(r);
    hp.for_each_entry(r, [&](Offset at, Ordinal c) {
      EXPECT_EQ(at, seen++);
      EXPECT_EQ(c, en(at));
    });
    EXPECT_EQ(seen, rm(r + 1));
  }
  // Block offsets: the first entry of column 3 b in row 3 a; -1 for a block
  // the pattern lacks.
  for (Ordinal a = 0; a < 5; ++a)
    for (Ordinal b = 0; b < 5; ++b) {
      const auto& row = blocks[a];
      const auto it = std::find(row.begin(), row.end(), b);
      if (it == row.end()) {
        EXPECT_EQ(hp.find(a, b), -1) << "block (" << a << ", " << b << ")";
        continue;
      }
      EXPECT_EQ(hp.find(a, b), rm(3 * a) + 3 * (it - row.begin()));
      EXPECT_EQ(en(hp.find(a, b)), 3 * b);
    }
  // The clique offsets do not depend on whether the entries were built.
  for (size_t s = 0; s < offsets.size(); ++s) {
    auto o1 = Kokkos::create_mirror_view_and_copy(HostSpace(), offsets[s]);
    auto o2 = Kokkos::create_mirror_view_and_copy(HostSpace(), f.offsets[s]);
    for (size_t k = 0; k < o1.size(); ++k) EXPECT_EQ(o1.data()[k], o2.data()[k]);
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
