// TLFEA io: writing the HDF5 files: output.h5 (meshes, histories) and one
// step file per output step (fields, joint reactions, contact points).
#include <algorithm>

#include "h5util.hpp"
#include "output_impl.hpp"
#include "stress.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea::io {

// output.h5: the meshes, and with `histories` every history row, written
// whole to output.h5.tmp and renamed over the previous one (at the start,
// and at finish() with the histories): the file is always complete.
void OutputWriter::Impl::write_main_file(bool histories) {
  TmpH5 file(h5path);
  const std::string& tmp = file.tmp;
  const hid_t f = file.id;
  h5::write_string_attribute(f, "format", "tlfea-output", tmp);
  // Several ranks: which piece of how many (a restart checks the count).
  if (pieces > 1) {
    h5::write_scalar<int>(f, "piece", piece, tmp);
    h5::write_scalar<int>(f, "pieces", pieces, tmp);
  }
  for (size_t b = 0; b < bodies.size(); ++b) {
    const BodyOut& o = bodies[b];
    if (pieces > 1 && o.num_cells == 0) continue;  // none of this body in the piece
    const std::string g = "/mesh/body" + std::to_string(b) + "/";
    h5::write(f, g + "topology", o.topology, o.nodes_per_cell, tmp);
    h5::write(f, g + "reference", o.reference, 3, tmp);
    hid_t bg = H5Gopen2(f, g.c_str(), H5P_DEFAULT);
    h5::write_string_attribute(bg, "element_type",
                               model.is_rigid(static_cast<int>(b))
                                   ? "rigid"
                                   : to_string(model.mesh(static_cast<int>(b)).type),
                               tmp);
    h5::write_string_attribute(bg, "cell_type", o.topology_type, tmp);
    h5::write_string_attribute(bg, "material",
                               model.is_rigid(static_cast<int>(b))
                                   ? std::string("rigid")
                                   : model.material(static_cast<int>(b)).name(),
                               tmp);
    H5Gclose(bg);
  }
  if (histories && piece == 0) {
    std::vector<Real> col(history.size());
    for (size_t c = 0; c < columns.size(); ++c) {
      for (size_t i = 0; i < history.size(); ++i) col[i] = history[i][c];
      h5::write(f, "/history/" + columns[c], col, 0, tmp);
    }
  }
  file.commit();
}

void OutputWriter::Impl::write_step() {
  const long step = stepper.steps_taken();
  if (step == last_written_step) return;
  const int index = static_cast<int>(steps.size());
  // The step's own file, written to .tmp and renamed when complete.
  TmpH5 file(dir + "/" + step_file(index, suffix));
  const hid_t grp = file.id;
  const std::string h5path = file.tmp;  // for the messages below
  h5::write_scalar(grp, "time", stepper.time(), h5path);
  h5::write_scalar<long long>(grp, "step", step, h5path);
  const CoefView& q = stepper.positions();
  const CoefView& v = stepper.velocities();
  auto qh = to_host(q);
  auto vh = to_host(v);
  for (size_t b = 0; b < bodies.size(); ++b) {
    const BodyOut& o = bodies[b];
    if (pieces > 1 && o.num_cells == 0) continue;  // none of this body in the piece
    const std::string bg = "body" + std::to_string(b) + "/";
    std::vector<Real> x(3 * o.num_points, 0.0), u(3 * o.num_points), vel(3 * o.num_points, 0.0);
    for (Ordinal p = 0; p < o.num_points; ++p)
      for (Ordinal k = o.start[p]; k < o.start[p + 1]; ++k)
        for (int a = 0; a < 3; ++a) {
          x[3 * p + a] += o.weight[k] * qh(o.id[k], a);
          vel[3 * p + a] += o.weight[k] * vh(o.id[k], a);
        }
    for (size_t i = 0; i < u.size(); ++i) u[i] = x[i] - o.reference[i];
    h5::write(grp, bg + "x", x, 3, h5path);
    if (model.is_rigid(static_cast<int>(b))) {
      // Pose of a rigid body (docs/theory.md §10.5): centre of mass,
      // rotation R = [r_1 r_2 r_3] (row-major 3 x 3), centre velocity and
      // angular velocity omega = 1/2 sum_k r_k x dr_k/dt (world axes).
      const Model::RigidPose p = model.rigid_pose(static_cast<int>(b), qh, vh);
      const std::vector<Real> c(p.center.v, p.center.v + 3), R(p.rotation.m, p.rotation.m + 9);
      const std::vector<Real> vc(p.velocity.v, p.velocity.v + 3),
          w(p.angular_velocity.v, p.angular_velocity.v + 3);
      h5::write(grp, bg + "center", c, 0, h5path);
      h5::write(grp, bg + "rotation", R, 3, h5path);
      h5::write(grp, bg + "center_velocity", vc, 0, h5path);
      h5::write(grp, bg + "angular_velocity", w, 0, h5path);
    }
    if (s.displacement) h5::write(grp, bg + "displacement", u, 3, h5path);
    if (s.velocity) h5::write(grp, bg + "velocity", vel, 3, h5path);
    if (s.stress && o.quadratic) {
      // The piece's elements (all of them on one rank), in its order.
      const ElementBlockBase* blk = pieces > 1 ? stepper.own_elements(static_cast<int>(b))
                                               : &model.block(static_cast<int>(b));
      if (!blk || blk->num_elements() != o.num_cells)
        throw_error("OutputWriter: body ", b, ": the rank's elements are not its piece's");
      const auto sig = element_cauchy_stress(*blk, model.material(static_cast<int>(b)), q);
      std::vector<Real> t6(6 * o.num_cells), vm(o.num_cells);
      // XDMF Tensor6 order: xx, xy, xz, yy, yz, zz.
      const int order[6] = {0, 5, 4, 1, 3, 2};
      for (Ordinal e = 0; e < o.num_cells; ++e) {
        for (int c = 0; c < 6; ++c) t6[6 * e + c] = sig(e, order[c]);
        vm[e] = sig(e, 6);
      }
      h5::write(grp, bg + "stress", t6, 6, h5path);
      h5::write(grp, bg + "von_mises", vm, 0, h5path);
    }
  }
  StepEntry entry{index, step, stepper.time(), 0, 0};
  // Joints and contact: piece 0's.
  if (piece == 0 && s.reactions && model.has_constraints()) {
    // Joint reactions F = -h C_q^T lambda over each joint's rows, at its
    // location (integrators/diagnostics.hpp, joint_reaction).
    std::vector<std::pair<std::string, RowRange>> groups = joints;
    if (groups.empty())
      groups.push_back({"constraints", RowRange{0, model.constraints().num_rows()}});
    const int nb = model.num_bodies();
    std::vector<Real> pos, force, per_body;
    std::vector<int> conn;
    std::string names;
    for (const auto& [name, rows] : groups) {
      const JointReaction r = joint_reaction(model, stepper, rows);
      for (int a = 0; a < 3; ++a) {
        pos.push_back(r.location[a]);
        force.push_back(r.per_body[r.body][a]);
      }
      for (int b = 0; b < nb; ++b)
        for (int a = 0; a < 3; ++a) per_body.push_back(r.per_body[b][a]);
      conn.push_back(static_cast<int>(conn.size()));
      names += name + "\n";
    }
    h5::write(grp, "joints/x", pos, 3, h5path);
    h5::write(grp, "joints/reaction", force, 3, h5path);
    h5::write(grp, "joints/reaction_per_body", per_body.data(), groups.size(),
              static_cast<hsize_t>(3 * nb), h5path);
    h5::write(grp, "joints/connectivity", conn, 0, h5path);
    hid_t jg = H5Gopen2(grp, "joints", H5P_DEFAULT);
    h5::write_string_attribute(jg, "names", names, h5path);
    H5Gclose(jg);
    entry.joints = static_cast<Ordinal>(groups.size());
  }
  // Contact points: every rank's, gathered to piece 0 where the contacts
  // are split between the ranks (a collective call on every rank).
  std::vector<Real> x, nn, fnv, ftv;
  bool have_contact = false;
  if (s.contact && ccomponent && ccomponent->points().capacity > 0) {
    ccomponent->gather_output(x, nn, fnv, ftv);
    have_contact = true;
  } else if (piece == 0 && s.contact && cforces && cpoints && cpoints->capacity > 0) {
    auto cnt = to_host(cpoints->count);
    const Ordinal n = std::min<Ordinal>(cnt(0), cpoints->capacity);
    auto xc = to_host(cpoints->x);
    auto nc = to_host(cpoints->normal);
    auto fn = to_host(cforces->normal_force());
    auto ft = to_host(cforces->tangential_force());
    x.resize(3 * n);
    nn.resize(3 * n);
    fnv.resize(n);
    ftv.resize(3 * n);
    for (Ordinal k = 0; k < n; ++k) {
      const bool valid = k < static_cast<Ordinal>(fn.extent(0));
      fnv[k] = valid ? fn(k) : 0.0;
      for (int a = 0; a < 3; ++a) {
        x[3 * k + a] = xc(k, a);
        nn[3 * k + a] = nc(k, a);
        ftv[3 * k + a] = valid ? ft(k, a) : 0.0;
      }
    }
    have_contact = true;
  }
  if (piece == 0 && have_contact) {
    const Ordinal n = static_cast<Ordinal>(fnv.size());
    std::vector<Real> fv(3 * n);
    std::vector<int> conn(n);
    for (Ordinal k = 0; k < n; ++k) {
      for (int a = 0; a < 3; ++a) fv[3 * k + a] = fnv[k] * nn[3 * k + a] + ftv[3 * k + a];
      conn[k] = k;
    }
    h5::write(grp, "contact/x", x, 3, h5path);
    h5::write(grp, "contact/normal", nn, 3, h5path);
    h5::write(grp, "contact/normal_force", fnv, 0, h5path);
    h5::write(grp, "contact/tangential_force", ftv, 3, h5path);
    h5::write(grp, "contact/force", fv, 3, h5path);
    h5::write(grp, "contact/connectivity", conn, 0, h5path);
    entry.contacts = n;
  }
  file.commit();
  steps.push_back(entry);
  last_written_step = step;
  // Several ranks: every piece's file is in place before the index names it.
  any_rank(false);
  if (piece == 0) append_xdmf();
}

}  // namespace tlfea::io
