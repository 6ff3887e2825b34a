// TLFEA io: the visualisation mesh of each body (output.hpp, "Fields per
// body"): T10 / Q27 meshes as they are, ANCF bodies sampled through their
// shape functions, rigid bodies as their shape (or box) moved rigidly; each
// point a weighted sum of coefficients.
#include <algorithm>
#include <array>
#include <cmath>

#include "output_impl.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/model/rigid_body.hpp"

namespace tlfea::io {

namespace {

// VTK_TRIQUADRATIC_HEXAHEDRON (= XDMF Hexahedron_27) node v at grid index
// (i, j, k) in {0,1,2}^3 (coordinates -1, 0, +1); our local index i + 3 j + 9 k.
constexpr int kHex27Grid[27][3] = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}, {0, 0, 2}, {2, 0, 2},
                                   {2, 2, 2}, {0, 2, 2}, {1, 0, 0}, {2, 1, 0}, {1, 2, 0}, {0, 1, 0},
                                   {1, 0, 2}, {2, 1, 2}, {1, 2, 2}, {0, 1, 2}, {0, 0, 1}, {2, 0, 1},
                                   {2, 2, 1}, {0, 2, 1}, {0, 1, 1}, {2, 1, 1}, {1, 0, 1}, {1, 2, 1},
                                   {1, 1, 0}, {1, 1, 2}, {1, 1, 1}};
// Linear hexahedron corners (VTK_HEXAHEDRON order) on a sample grid.
constexpr int kHex8[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                             {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};

}  // namespace

void OutputWriter::Impl::build_bodies() {
  piece = stepper.partition_rank();
  pieces = stepper.partition_size();
  suffix = piece_suffix(piece);
  if (pieces > 1 && !s.any_rank)
    throw_error("OutputWriter: ", pieces, " ranks, but no OutputSettings::any_rank");
  bodies = build_piece(piece);
  if (piece != 0) return;
  // Piece 0 indexes every piece: their counts (the partition is the same on
  // every rank).
  for (int k = 0; k < pieces; ++k) {
    const std::vector<BodyOut> other = k == piece ? std::vector<BodyOut>() : build_piece(k);
    const std::vector<BodyOut>& p = k == piece ? bodies : other;
    piece_counts.emplace_back();
    for (const BodyOut& o : p) piece_counts.back().push_back({o.num_points, o.num_cells});
  }
}

// Piece k's meshes: of each deformable body the elements that rank k
// evaluates (TimeStepper::element_ranks; all on one rank) with the nodes
// they use, in the body's order; rigid bodies whole in piece 0 and empty
// (no points, no cells) in the others.
std::vector<BodyOut> OutputWriter::Impl::build_piece(int pk) const {
  std::vector<BodyOut> out;
  const CoefView& q0 = model.reference();
  auto q0h = to_host(q0);
  for (int b = 0; b < model.num_bodies(); ++b) {
    const std::vector<int> parts = stepper.element_ranks(b);
    auto mine = [&](Ordinal e) { return parts.empty() || parts[e] == pk; };
    const Mesh& mesh = model.mesh(b);
    const Ordinal off = model.coefficient_offset(b);
    BodyOut o;
    o.start.push_back(0);
    if (model.is_rigid(b)) {
      // A rigid body (docs/theory.md §10.1): its shape mesh, else its
      // surface triangulation (a primitive shape), else the box of its
      // extent, else the box of equal second moments (half-sides
      // sqrt(3 S_aa / m)), moved rigidly: point X at r + sum_k (X - c)_k r_k.
      const RigidBodySpec& rs = model.rigid_spec(b);
      o.quadratic = false;  // no stress
      auto add_point = [&](const std::array<Real, 3>& X) {
        o.id.push_back(off);
        o.weight.push_back(1.0);
        for (int k = 0; k < 3; ++k) {
          o.id.push_back(off + 1 + k);
          o.weight.push_back(X[k] - rs.center[k]);
        }
        o.start.push_back(static_cast<Ordinal>(o.id.size()));
      };
      if (!rs.shape.connectivity.empty()) {
        const bool tet = rs.shape.type == ElementType::T10;
        o.topology_type = tet ? "Tetrahedron_10" : "Hexahedron_27";
        o.nodes_per_cell = tet ? 10 : 27;
        o.num_points = rs.shape.num_nodes();
        o.num_cells = rs.shape.num_elements();
        for (Ordinal k = 0; k < o.num_points; ++k) add_point(rs.shape.coefficients[k]);
        for (Ordinal e = 0; e < o.num_cells; ++e)
          for (int v = 0; v < o.nodes_per_cell; ++v) {
            const int local =
                tet ? v : kHex27Grid[v][0] + 3 * kHex27Grid[v][1] + 9 * kHex27Grid[v][2];
            o.topology.push_back(rs.shape.coefficient(e, local));
          }
      } else if (!rs.surface_triangles.empty()) {
        o.topology_type = "Triangle";
        o.nodes_per_cell = 3;
        o.num_points = static_cast<Ordinal>(rs.surface_points.size());
        o.num_cells = static_cast<Ordinal>(rs.surface_triangles.size());
        for (const Vec3& X : rs.surface_points)
          add_point({X[0] + rs.center[0], X[1] + rs.center[1], X[2] + rs.center[2]});
        for (const auto& t : rs.surface_triangles)
          for (int v = 0; v < 3; ++v) o.topology.push_back(t[v]);
      } else {
        Real M[16];
        rigid_mass_matrix(rs, M);
        Real hs[3];
        for (int a = 0; a < 3; ++a) {
          hs[a] = rs.extent[a] > 0 ? rs.extent[a] : std::sqrt(3.0 * M[5 * (a + 1)] / rs.mass);
          if (!(hs[a] > 0)) hs[a] = 1e-3;
        }
        o.topology_type = "Hexahedron";
        o.nodes_per_cell = 8;
        o.num_points = 8;
        o.num_cells = 1;
        for (int c = 0; c < 8; ++c) {
          std::array<Real, 3> X;
          for (int a = 0; a < 3; ++a) X[a] = rs.center[a] + (kHex8[c][a] ? hs[a] : -hs[a]);
          add_point(X);
          o.topology.push_back(c);
        }
      }
    } else if (mesh.type == ElementType::T10 || mesh.type == ElementType::Q27) {
      const bool tet = mesh.type == ElementType::T10;
      o.topology_type = tet ? "Tetrahedron_10" : "Hexahedron_27";
      o.nodes_per_cell = tet ? 10 : 27;
      // The nodes the piece's elements use, in the body's order (all of
      // them on one rank): point[node] (-1: unused).
      std::vector<Ordinal> point(mesh.num_nodes(), parts.empty() ? 0 : -1);
      for (Ordinal e = 0; e < mesh.num_elements(); ++e)
        if (!parts.empty() && mine(e))
          for (int v = 0; v < o.nodes_per_cell; ++v) point[mesh.coefficient(e, v)] = 0;
      for (Ordinal n = 0; n < mesh.num_nodes(); ++n) {
        if (point[n] < 0) continue;
        point[n] = o.num_points++;
        o.id.push_back(off + n);
        o.weight.push_back(1.0);
        o.start.push_back(static_cast<Ordinal>(o.id.size()));
      }
      for (Ordinal e = 0; e < mesh.num_elements(); ++e) {
        if (!mine(e)) continue;
        ++o.num_cells;
        for (int v = 0; v < o.nodes_per_cell; ++v) {
          // T10: VTK_QUADRATIC_TETRA's order (vertices, then edges 01, 12,
          // 02, 03, 13, 23) is ours.
          const int local =
              tet ? v : kHex27Grid[v][0] + 3 * kHex27Grid[v][1] + 9 * kHex27Grid[v][2];
          o.topology.push_back(point[mesh.coefficient(e, local)]);
        }
      }
    } else {
      o.quadratic = false;
      o.topology_type = "Hexahedron";
      o.nodes_per_cell = 8;
      const int ns = std::max(2, s.samples);
      const bool beam = mesh.type == ElementType::ANCF3243;
      // An ANCF body's whole block (only T10 / Q27 blocks are freed on
      // several ranks: Model::can_release_block).
      const ElementBlockBase& blk = model.block(b);
      const int n[3] = {ns, beam ? 2 : ns, 2};
      Ordinal p0 = 0;
      for (Ordinal e = 0; e < mesh.num_elements(); ++e) {
        if (!mine(e)) continue;
        const std::vector<Ordinal> ids = blk.element_coefficients(e);
        for (int k = 0; k < n[2]; ++k)
          for (int j = 0; j < n[1]; ++j)
            for (int i = 0; i < n[0]; ++i) {
              const Real xi[3] = {-1.0 + 2.0 * i / (n[0] - 1), -1.0 + 2.0 * j / (n[1] - 1),
                                  -1.0 + 2.0 * k / (n[2] - 1)};
              const std::vector<Real> sh = blk.shape_at(e, xi);
              for (size_t l = 0; l < sh.size(); ++l) {
                o.id.push_back(ids[l]);
                o.weight.push_back(sh[l]);
              }
              o.start.push_back(static_cast<Ordinal>(o.id.size()));
            }
        for (int k = 0; k + 1 < n[2]; ++k)
          for (int j = 0; j + 1 < n[1]; ++j)
            for (int i = 0; i + 1 < n[0]; ++i) {
              for (int c = 0; c < 8; ++c)
                o.topology.push_back(p0 + (i + kHex8[c][0]) + n[0] * (j + kHex8[c][1]) +
                                     n[0] * n[1] * (k + kHex8[c][2]));
              ++o.num_cells;
            }
        p0 += n[0] * n[1] * n[2];
      }
      o.num_points = p0;
    }
    if (model.is_rigid(b) && pk != 0) {  // piece 0's
      o.num_points = o.num_cells = 0;
      o.topology.clear();
      o.start.assign(1, 0);
      o.id.clear();
      o.weight.clear();
    }
    o.reference.assign(3 * o.num_points, 0.0);
    for (Ordinal p = 0; p < o.num_points; ++p)
      for (Ordinal k = o.start[p]; k < o.start[p + 1]; ++k)
        for (int a = 0; a < 3; ++a) o.reference[3 * p + a] += o.weight[k] * q0h(o.id[k], a);
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace tlfea::io
