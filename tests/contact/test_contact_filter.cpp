// Joint-based contact filter (ContactDetection::exclude_near_point): two
// boxes overlapping 1 mm across a face, as if joined by a hinge at one corner
// of the interface. Without the filter every overlapping face vertex of both
// boxes is in contact (the reference set); with it exactly the contacts
// whose vertex lies within the radius of the joint point (counted here from
// the reference positions) disappear, from both bodies, and the others are
// unchanged; the same pair still collides with a third body near that point.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "tlfea/contact/detection.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/elements/element_block.hpp"

namespace tlfea {
namespace {

struct Boxes {
  Mesh a, b, c;
  Boxes() {
    a = generate_box(ElementType::Q27, {0.1, 0.1, 0.1}, {2, 2, 2}, {0.0, 0.0, 0.0});
    b = generate_box(ElementType::Q27, {0.1, 0.1, 0.1}, {2, 2, 2}, {0.0, 0.0, 0.099});
    // A third box beside a, overlapping a's face x = 0 by 1 mm near the point.
    c = generate_box(ElementType::T10, {0.05, 0.05, 0.05}, {1, 1, 1}, {-0.049, 0.0, 0.05});
  }
  CoefView q() const {
    CoefView q("q", a.num_coefficients() + b.num_coefficients() + c.num_coefficients());
    copy_reference_coefficients(a, 0, q);
    copy_reference_coefficients(b, a.num_coefficients(), q);
    copy_reference_coefficients(c, a.num_coefficients() + b.num_coefficients(), q);
    return q;
  }
};

// key -> (body A, body B) of every contact.
std::map<unsigned long long, std::pair<int, int>> contacts(ContactDetection& det,
                                                           const CoefView& q) {
  det.detect(q, 0.0);
  const ContactPoints& cp = det.points();
  auto n = Kokkos::create_mirror_view_and_copy(HostSpace(), cp.count);
  auto key = Kokkos::create_mirror_view_and_copy(HostSpace(), cp.key);
  auto body = Kokkos::create_mirror_view_and_copy(HostSpace(), cp.body);
  std::map<unsigned long long, std::pair<int, int>> m;
  for (Ordinal k = 0; k < n(0); ++k) m[key(k)] = {body(k, 0), body(k, 1)};
  return m;
}

TEST(ContactFilter, JointedBodiesDoNotCollideNearTheJoint) {
  Boxes bx;
  const CoefView q = bx.q();
  const Vec3 joint{{0.0, 0.0, 0.0995}};
  const Real radius = 0.03;
  auto build = [&](bool filter) {
    auto det = std::make_unique<ContactDetection>();
    det->add_body(0, bx.a, 0);
    det->add_body(1, bx.b, bx.a.num_coefficients());
    det->add_body(2, bx.c, bx.a.num_coefficients() + bx.b.num_coefficients());
    if (filter) det->exclude_near_point(0, 1, joint, radius);
    det->setup();
    return det;
  };
  auto plain = build(false), filtered = build(true);
  const auto all = contacts(*plain, q), kept = contacts(*filtered, q);
  const SurfaceHost& s = filtered->surface().host();
  int removed_expected = 0, kept_ab = 0, near_c = 0;
  for (const auto& [k, bodies] : all) {
    Ordinal v;
    int partner;
    plain->decode_key(k, v, partner);
    const auto& X = s.vertex_reference[v];
    const Real d =
        std::sqrt((X[0] - joint[0]) * (X[0] - joint[0]) + (X[1] - joint[1]) * (X[1] - joint[1]) +
                  (X[2] - joint[2]) * (X[2] - joint[2]));
    const bool ab =
        (bodies.first == 0 && bodies.second == 1) || (bodies.first == 1 && bodies.second == 0);
    const bool excluded = ab && d <= radius;
    if (excluded) {
      ++removed_expected;
      EXPECT_EQ(kept.count(k), 0u) << "vertex " << v << " at distance " << d;
    } else {
      ASSERT_EQ(kept.count(k), 1u) << "vertex " << v << " at distance " << d;
      EXPECT_EQ(kept.at(k), bodies);
      if (ab) ++kept_ab;
      if (!ab && d <= radius) ++near_c;
    }
  }
  // Both sides of the interface lose contacts near the joint (a 0.03 m
  // radius covers the corner vertex and its neighbours 0.025 m away on each
  // face), the far part of the interface keeps its contacts, and the third
  // body still touches a near the joint point.
  std::set<int> sides;
  for (const auto& [k, bodies] : all)
    if (!kept.count(k)) sides.insert(bodies.first);
  EXPECT_EQ(sides, (std::set<int>{0, 1}));
  EXPECT_GE(removed_expected, 6);
  EXPECT_GT(kept_ab, 0);
  EXPECT_GT(near_c, 0);
  EXPECT_EQ(all.size() - kept.size(), static_cast<size_t>(removed_expected));
}

TEST(ContactFilter, BadJointExclusionIsRejected) {
  Boxes bx;
  ContactDetection det;
  det.add_body(0, bx.a, 0);
  EXPECT_THROW(det.exclude_near_point(0, 0, Vec3{{0, 0, 0}}, 0.1), Error);
  EXPECT_THROW(det.exclude_near_point(0, 1, Vec3{{0, 0, 0}}, 0.0), Error);
  det.exclude_near_point(0, 5, Vec3{{0, 0, 0}}, 0.1);
  EXPECT_THROW(det.setup(), Error);  // body 5 was never added
}

}  // namespace
}  // namespace tlfea
