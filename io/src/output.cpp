// OutputWriter: HDF5 fields + XDMF index + CSV histories (see output.hpp).
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>

#include <KokkosBlas1_dot.hpp>

#include "h5util.hpp"
#include "stress.hpp"
#include "tlfea/io/output.hpp"

namespace tlfea::io {
namespace {

double wall() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void make_directories(const std::string& dir) {
  if (dir.empty()) throw_error("OutputWriter: empty output directory");
  std::string path;
  std::stringstream ss(dir);
  std::string part;
  if (dir[0] == '/') path = "/";
  while (std::getline(ss, part, '/')) {
    if (part.empty()) continue;
    path += part + "/";
    struct stat st;
    if (stat(path.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        throw_error("OutputWriter: '", path, "' exists and is not a directory");
      continue;
    }
    if (mkdir(path.c_str(), 0777) != 0)
      throw_error("OutputWriter: cannot create output directory '", path, "'");
  }
}

// Removes DIR/NNNNNN.h5 and DIR/NNNNNN.h5.tmp (an earlier run's step files).
void remove_step_files(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    const bool digits = n.size() >= 9 && std::all_of(n.begin(), n.begin() + 6, ::isdigit);
    if (digits && (n.substr(6) == ".h5" || n.substr(6) == ".h5.tmp")) names.push_back(n);
  }
  closedir(d);
  for (const auto& n : names) std::remove((dir + "/" + n).c_str());
}

// Number of values of dataset `name` under `loc` (0 when it does not exist),
// from its dataspace only (a step's fields are not read).
hssize_t dataset_size(hid_t loc, const std::string& name) {
  htri_t exists = -1;
  H5E_BEGIN_TRY { exists = H5Lexists(loc, name.c_str(), H5P_DEFAULT); }
  H5E_END_TRY;
  if (exists <= 0) return 0;
  hid_t d = H5Dopen2(loc, name.c_str(), H5P_DEFAULT);
  if (d < 0) return 0;
  hid_t space = H5Dget_space(d);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  H5Sclose(space);
  H5Dclose(d);
  return n;
}

// VTK_TRIQUADRATIC_HEXAHEDRON (= XDMF Hexahedron_27) node v at grid index
// (i, j, k) in {0,1,2}^3 (coordinates -1, 0, +1); our local index i + 3 j + 9 k.
constexpr int kHex27Grid[27][3] = {
    {0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}, {0, 0, 2}, {2, 0, 2}, {2, 2, 2},
    {0, 2, 2}, {1, 0, 0}, {2, 1, 0}, {1, 2, 0}, {0, 1, 0}, {1, 0, 2}, {2, 1, 2},
    {1, 2, 2}, {0, 1, 2}, {0, 0, 1}, {2, 0, 1}, {2, 2, 1}, {0, 2, 1}, {0, 1, 1},
    {2, 1, 1}, {1, 0, 1}, {1, 2, 1}, {1, 1, 0}, {1, 1, 2}, {1, 1, 1}};
// Linear hexahedron corners (VTK_HEXAHEDRON order) on a sample grid.
constexpr int kHex8[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                             {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};

enum Column {
  kStep, kTime, kKinetic, kStrain, kGravity, kTotal, kViolation, kNewton, kOuter,
  kFactorizations, kRetries, kWall, kNumColumns
};
const char* const kColumnNames[kNumColumns] = {
    "step", "time", "kinetic_energy", "strain_energy", "gravity_potential", "total_energy",
    "constraint_violation", "newton_iterations", "outer_iterations", "factorizations",
    "retries", "step_wall_time"};
// Per-body columns after those, per body b in order: "<name>." + these
// (io/output.hpp; Model::body_motion).
constexpr int kBodyColumns = 11;
const char* const kBodyColumnNames[kBodyColumns] = {
    "com_x", "com_y", "com_z", "momentum_x", "momentum_y", "momentum_z",
    "angular_momentum_x", "angular_momentum_y", "angular_momentum_z", "kinetic_energy",
    "gravity_potential"};

struct BodyOut {
  bool quadratic = true;
  std::string topology_type;
  int nodes_per_cell = 0;
  Ordinal num_points = 0, num_cells = 0;
  std::vector<int> topology;  // num_cells x nodes_per_cell, XDMF order
  // Point p = sum_{k in [start(p), start(p+1))} weight(k) q(id(k)).
  std::vector<Ordinal> start, id;
  std::vector<Real> weight;
  std::vector<Real> reference;  // num_points x 3
};

}  // namespace

std::vector<Vec3> joint_reaction_per_body(Model& model, const TimeStepper& stepper, RowRange rows) {
  const int nb = model.num_bodies();
  std::vector<Vec3> out(nb, Vec3{{0.0, 0.0, 0.0}});
  if (!model.has_constraints()) return out;
  ConstraintSet& cs = model.constraints();
  const Ordinal m = cs.num_rows();
  if (rows.first < 0 || rows.count < 0 || rows.first + rows.count > m)
    throw_error("joint_reaction_per_body: rows [", rows.first, ", ", rows.first + rows.count,
                ") outside the ", m, " constraint rows");
  auto lam = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.multipliers());
  DeviceView<Real*> y("tlfea::io::y", m);
  auto yh = Kokkos::create_mirror_view(y);
  const Real h = stepper.settings().dt;
  for (Ordinal i = 0; i < m; ++i)
    yh(i) = (i >= rows.first && i < rows.first + rows.count) ? -h * lam(i) : 0.0;
  Kokkos::deep_copy(y, yh);
  CoefView f("tlfea::io::reaction", model.num_coefficients());
  cs.apply_jacobian_transpose(stepper.positions(), stepper.time(), y, f);
  auto fh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
  for (int b = 0; b < nb; ++b) {
    const Ordinal off = model.coefficient_offset(b);
    const int cpn = model.mesh(b).coefficients_per_node();
    for (Ordinal c = 0; c < model.mesh(b).num_coefficients(); c += cpn)
      for (int a = 0; a < 3; ++a) out[b][a] += fh(off + c, a);
  }
  return out;
}

struct OutputWriter::Impl {
  Model& model;
  TimeStepper& stepper;
  OutputSettings s;
  std::string dir, h5path, xdmfpath, csvpath;
  bool open = false;
  std::FILE* csv = nullptr;
  const ContactForces* cforces = nullptr;
  const ContactPoints* cpoints = nullptr;
  std::vector<std::pair<std::string, RowRange>> joints;
  std::vector<BodyOut> bodies;
  // Mass matrix on the host (scalar CRS) for 1/2 v^T M v, and the gravity
  // load rho g int s dV per coefficient for the potential -f_g . q.
  // Gravity load on the reference configuration (dead load), flat: the
  // gravity potential is -f_g . q.
  DeviceView<Real*> fgrav;
  // History columns: kColumnNames, then kBodyColumns per body.
  std::vector<std::string> columns;
  // Histories: all rows (output.h5 is rewritten with all of them).
  std::vector<std::vector<Real>> history;
  struct StepEntry {
    int index;
    long step;
    Real time;
    Ordinal joints, contacts;
  };
  std::vector<StepEntry> steps;
  long last_written_step = -1;
  double last_end = 0.0;
  bool finished = false;

  Impl(Model& m, TimeStepper& st, const OutputSettings& set) : model(m), stepper(st), s(set) {}

  // Step file of output step `index`, relative to the directory.
  static std::string step_file(int index) {
    std::ostringstream f;
    f << "steps/" << std::setw(6) << std::setfill('0') << index << ".h5";
    return f.str();
  }

  void build_bodies();
  void build_columns();
  std::string header() const;
  void histories_row(const StepReport* rep, double wall_s);
  void write_step();
  void write_main_file(bool histories);
  void write_xdmf() const;
  void resume();
};

void OutputWriter::Impl::build_bodies() {
  const CoefView& q0 = model.reference();
  auto q0h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q0);
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Mesh& mesh = model.mesh(b);
    const ElementBlockBase& blk = model.block(b);
    const Ordinal off = model.coefficient_offset(b);
    BodyOut o;
    o.start.push_back(0);
    if (model.is_rigid(b)) {
      // A rigid body (docs/theory.md §11.1): its shape (or, without one, the
      // box of its extent, else the box of equal second moments, half-sides
      // sqrt(3 S_aa / m)) moved rigidly, point X at r + sum_k (X - c)_k r_k.
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
      o.num_points = mesh.num_nodes();
      o.num_cells = mesh.num_elements();
      for (Ordinal k = 0; k < o.num_points; ++k) {
        o.id.push_back(off + k);
        o.weight.push_back(1.0);
        o.start.push_back(static_cast<Ordinal>(o.id.size()));
      }
      for (Ordinal e = 0; e < o.num_cells; ++e)
        for (int v = 0; v < o.nodes_per_cell; ++v) {
          // T10: VTK_QUADRATIC_TETRA's order (vertices, then edges 01, 12,
          // 02, 03, 13, 23) is ours.
          const int local = tet ? v : kHex27Grid[v][0] + 3 * kHex27Grid[v][1] + 9 * kHex27Grid[v][2];
          o.topology.push_back(mesh.coefficient(e, local));
        }
    } else {
      o.quadratic = false;
      o.topology_type = "Hexahedron";
      o.nodes_per_cell = 8;
      const int ns = std::max(2, s.samples);
      const bool beam = mesh.type == ElementType::ANCF3243;
      const int n[3] = {ns, beam ? 2 : ns, 2};
      Ordinal p0 = 0;
      for (Ordinal e = 0; e < mesh.num_elements(); ++e) {
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
    o.reference.assign(3 * o.num_points, 0.0);
    for (Ordinal p = 0; p < o.num_points; ++p)
      for (Ordinal k = o.start[p]; k < o.start[p + 1]; ++k)
        for (int a = 0; a < 3; ++a) o.reference[3 * p + a] += o.weight[k] * q0h(o.id[k], a);
    bodies.push_back(std::move(o));
  }
}

void OutputWriter::Impl::build_columns() {
  const int nb = model.num_bodies();
  if (!s.body_names.empty() && static_cast<int>(s.body_names.size()) != nb)
    throw_error("OutputWriter: ", s.body_names.size(), " body names for ", nb, " bodies");
  columns.assign(kColumnNames, kColumnNames + kNumColumns);
  std::vector<std::string> names;
  for (int b = 0; b < nb; ++b) {
    const std::string n = s.body_names.empty() ? "body" + std::to_string(b) : s.body_names[b];
    // The name is part of CSV column and HDF5 dataset names.
    if (n.empty() || !std::all_of(n.begin(), n.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
        }))
      throw_error("OutputWriter: body name '", n, "': use letters, digits, '_' and '-' only");
    if (std::find(names.begin(), names.end(), n) != names.end())
      throw_error("OutputWriter: body name '", n, "' used twice");
    names.push_back(n);
    for (int c = 0; c < kBodyColumns; ++c) columns.push_back(n + "." + kBodyColumnNames[c]);
  }
}

std::string OutputWriter::Impl::header() const {
  std::string h;
  for (size_t c = 0; c < columns.size(); ++c) h += (c ? "," : "") + columns[c];
  return h;
}

void OutputWriter::Impl::histories_row(const StepReport* rep, double wall_s) {
  const CoefView& q = stepper.positions();
  const CoefView& v = stepper.velocities();
  // Device reductions where q and v live; only the sums reach the host.
  const Real ke = model.kinetic_energy(v);
  Real strain = 0.0;
  for (int b = 0; b < model.num_bodies(); ++b) strain += model.block(b).strain_energy(q);
  // Gravity g f(t): the potential of the dead load f(t) f_g is -f(t) f_g . q.
  const Real fg_t = model.gravity_factor(stepper.time());
  const Real vg = -fg_t * KokkosBlas::dot(fgrav, DeviceView<Real*>(q.data(), 3 * q.extent(0)));
  std::vector<Real> row(columns.size(), 0.0);
  row[kStep] = static_cast<Real>(stepper.steps_taken());
  row[kTime] = stepper.time();
  row[kKinetic] = ke;
  row[kStrain] = strain;
  row[kGravity] = vg;
  row[kTotal] = ke + strain + vg;
  if (rep) {
    row[kViolation] = rep->constraint_violation;
    row[kNewton] = rep->newton_iterations;
    row[kOuter] = rep->outer_iterations;
    row[kFactorizations] = rep->factorizations;
    row[kRetries] = rep->retries;
  }
  row[kWall] = wall_s;
  // Per body (Model::body_motion, one device reduction each): centre of
  // mass, momentum, angular momentum about the origin, kinetic energy, and
  // the gravity potential -f(t) m g . c (= -f(t) f_g . q over the body's
  // coefficients, since (f_g)_j = g int rho0 s_j dV0 = g (e^T M)_j).
  const Vec3& g = model.gravity();
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Model::BodyMotion bm = model.body_motion(b, q, v);
    Real* r = row.data() + kNumColumns + kBodyColumns * b;
    for (int a = 0; a < 3; ++a) {
      r[a] = bm.center_of_mass[a];
      r[3 + a] = bm.momentum[a];
      r[6 + a] = bm.angular_momentum[a];
    }
    r[9] = bm.kinetic_energy;
    const Vec3& c = bm.center_of_mass;
    r[10] = -fg_t * bm.mass * (g[0] * c[0] + g[1] * c[1] + g[2] * c[2]);
  }
  // One write per row (a run killed mid-row leaves at most one partial line).
  std::string line;
  char buf[32];
  for (size_t c = 0; c < row.size(); ++c) {
    std::snprintf(buf, sizeof buf, "%.17g", row[c]);
    line += buf;
    line += c + 1 < row.size() ? ',' : '\n';
  }
  std::fputs(line.c_str(), csv);
  history.push_back(std::move(row));
  std::fflush(csv);
}

// An HDF5 file written to PATH.tmp: commit() closes it and renames it to
// PATH; on an exception before that the destructor closes it and removes
// the temporary file, so nothing partial is left and the handle is free.
struct TmpH5 {
  std::string path, tmp;
  hid_t id = -1;
  explicit TmpH5(const std::string& p) : path(p), tmp(p + ".tmp") {
    id = H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (id < 0) throw_error("OutputWriter: cannot create '", tmp, "'");
  }
  void commit() {
    const herr_t st = H5Fclose(id);
    id = -1;
    h5::check(st, tmp, "close");
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
      throw_error("OutputWriter: cannot rename '", tmp, "' to '", path, "'");
    tmp.clear();
  }
  ~TmpH5() {
    if (id >= 0) H5Fclose(id);
    if (!tmp.empty()) std::remove(tmp.c_str());
  }
  TmpH5(const TmpH5&) = delete;
  TmpH5& operator=(const TmpH5&) = delete;
};

// output.h5: the meshes, and with `histories` every history row, written
// whole to output.h5.tmp and renamed over the previous one (at the start,
// and at finish() with the histories): the file is always complete.
void OutputWriter::Impl::write_main_file(bool histories) {
  TmpH5 file(h5path);
  const std::string& tmp = file.tmp;
  const hid_t f = file.id;
  h5::write_string_attribute(f, "format", "tlfea-output", tmp);
  for (size_t b = 0; b < bodies.size(); ++b) {
    const BodyOut& o = bodies[b];
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
  if (histories) {
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
  TmpH5 file(dir + "/" + step_file(index));
  const hid_t grp = file.id;
  const std::string h5path = file.tmp;  // for the messages below
  h5::write_scalar(grp, "time", stepper.time(), h5path);
  h5::write_scalar<long long>(grp, "step", step, h5path);
  const CoefView& q = stepper.positions();
  const CoefView& v = stepper.velocities();
  auto qh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  auto vh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (size_t b = 0; b < bodies.size(); ++b) {
    const BodyOut& o = bodies[b];
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
      // Pose of a rigid body (docs/theory.md §11.5): centre of mass,
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
      const auto sig = element_cauchy_stress(model.block(static_cast<int>(b)),
                                             model.material(static_cast<int>(b)), q);
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
  // Joint reactions: F = -h C_q^T lambda over each joint's rows.
  if (s.reactions && model.has_constraints()) {
    ConstraintSet& cs = model.constraints();
    std::vector<std::pair<std::string, RowRange>> groups = joints;
    if (groups.empty()) groups.push_back({"constraints", RowRange{0, cs.num_rows()}});
    const ConstraintData& cd = cs.data();
    auto pt = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cd.point);
    auto pnum = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cd.point_num);
    auto pid = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cd.point_id);
    auto pw = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cd.point_weight);
    auto poff = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cd.point_offset);
    const int nb = model.num_bodies();
    std::vector<Real> pos, force, per_body;
    std::vector<int> conn;
    std::string names;
    for (const auto& [name, rows] : groups) {
      const std::vector<Vec3> fbv = joint_reaction_per_body(model, stepper, rows);
      std::vector<Real> fb(3 * nb, 0.0);
      for (int b = 0; b < nb; ++b)
        for (int a = 0; a < 3; ++a) fb[3 * b + a] = fbv[b][a];
      // Location and body: the first row's first material point.
      Vec3 x{{0.0, 0.0, 0.0}};
      int body = -1;
      if (rows.count > 0) {
        const Ordinal P = pt(rows.first, 0);
        if (P >= 0) {
          for (int a = 0; a < 3; ++a) x[a] = poff(P, a);
          for (int l = 0; l < pnum(P); ++l)
            for (int a = 0; a < 3; ++a) x[a] += pw(P, l) * qh(pid(P, l), a);
          if (pnum(P) > 0)
            for (int b = 0; b < nb; ++b)
              if (pid(P, 0) >= model.coefficient_offset(b) &&
                  pid(P, 0) < model.coefficient_offset(b) + model.mesh(b).num_coefficients())
                body = b;
        }
      }
      if (body < 0) {  // the first point is on the ground: the body with the largest force
        Real best = -1.0;
        for (int b = 0; b < nb; ++b) {
          const Real n2 = fb[3 * b] * fb[3 * b] + fb[3 * b + 1] * fb[3 * b + 1] +
                          fb[3 * b + 2] * fb[3 * b + 2];
          if (n2 > best) best = n2, body = b;
        }
      }
      for (int a = 0; a < 3; ++a) {
        pos.push_back(x[a]);
        force.push_back(fb[3 * body + a]);
      }
      per_body.insert(per_body.end(), fb.begin(), fb.end());
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
  if (s.contact && cforces && cpoints && cpoints->capacity > 0) {
    auto cnt = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cpoints->count);
    const Ordinal n = std::min<Ordinal>(cnt(0), cpoints->capacity);
    auto xc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cpoints->x);
    auto nc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cpoints->normal);
    auto fn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cforces->normal_force());
    auto ft = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cforces->tangential_force());
    std::vector<Real> x(3 * n), nn(3 * n), fnv(n), ftv(3 * n), fv(3 * n);
    std::vector<int> conn(n);
    for (Ordinal k = 0; k < n; ++k) {
      const bool valid = k < static_cast<Ordinal>(fn.extent(0));
      fnv[k] = valid ? fn(k) : 0.0;
      for (int a = 0; a < 3; ++a) {
        x[3 * k + a] = xc(k, a);
        nn[3 * k + a] = nc(k, a);
        ftv[3 * k + a] = valid ? ft(k, a) : 0.0;
        fv[3 * k + a] = fnv[k] * nn[3 * k + a] + ftv[3 * k + a];
      }
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
  write_xdmf();
}

// Continues the output in `dir` at the stepper's step S (OutputSettings::
// resume): everything is read and checked first, and only then are the step
// files beyond S removed and history.csv rewritten with its rows up to S
// (through NAME.tmp and a rename, like every file here).
void OutputWriter::Impl::resume() {
  const long S = stepper.steps_taken();
  const std::string sdir = dir + "/steps";
  auto refuse = [&](const std::string& why) {
    throw_error("OutputWriter: cannot continue the output in '", dir, "' at step ", S, ": ", why,
                "; nothing was changed (give another --output directory, or remove it)");
  };
  std::vector<int> indices;
  std::vector<std::string> stale;  // *.h5.tmp: a write cut short
  if (DIR* d = opendir(sdir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      const bool digits = n.size() >= 9 && std::all_of(n.begin(), n.begin() + 6, ::isdigit);
      if (digits && n.substr(6) == ".h5") indices.push_back(std::stoi(n.substr(0, 6)));
      if (digits && n.substr(6) == ".h5.tmp") stale.push_back(sdir + "/" + n);
    }
    closedir(d);
  }
  std::sort(indices.begin(), indices.end());
  for (size_t i = 0; i < indices.size(); ++i)
    if (indices[i] != static_cast<int>(i))
      refuse("steps/ has no file " + step_file(static_cast<int>(i)).substr(6) +
             " (step files are numbered 0, 1, ...)");
  std::vector<StepEntry> kept;
  for (int index : indices) {
    const std::string path = dir + "/" + step_file(index);
    hid_t f = -1;
    H5E_BEGIN_TRY { f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT); }
    H5E_END_TRY;
    if (f < 0) refuse("cannot read '" + path + "'");
    StepEntry e{index, 0, 0.0, 0, 0};
    bool same_points = true;
    try {
      e.step = static_cast<long>(h5::read_scalar<long long>(f, "step", path));
      e.time = h5::read_scalar<double>(f, "time", path);
      for (size_t b = 0; b < bodies.size(); ++b)
        same_points = same_points && dataset_size(f, "body" + std::to_string(b) + "/x") ==
                                         3 * static_cast<hssize_t>(bodies[b].num_points);
      e.joints = static_cast<Ordinal>(dataset_size(f, "joints/connectivity"));
      e.contacts = static_cast<Ordinal>(dataset_size(f, "contact/connectivity"));
    } catch (...) {
      H5Fclose(f);
      throw;
    }
    H5Fclose(f);
    if (e.step > S) break;  // this one and the later ones: the abandoned continuation
    if (!kept.empty() && e.step <= kept.back().step)
      refuse("'" + path + "' holds step " + std::to_string(e.step) + ", not after step " +
             std::to_string(kept.back().step));
    if (!same_points)
      refuse("'" + path + "' has other visualisation point counts than this model (another run)");
    if (e.step == S && e.time != stepper.time()) {
      std::ostringstream os;
      os << std::setprecision(17) << "'" << path << "' has step " << S << " at t = " << e.time
         << ", the checkpoint at t = " << stepper.time() << " (another run)";
      refuse(os.str());
    }
    kept.push_back(e);
  }
  std::vector<std::vector<Real>> rows;
  const int ncol = static_cast<int>(columns.size());
  {
    std::ifstream in(csvpath);
    std::string line;
    if (in && std::getline(in, line)) {
      const std::string head = header();
      if (line != head) refuse("'" + csvpath + "' has another header than '" + head + "'");
      long lineno = 1;
      while (std::getline(in, line)) {
        ++lineno;
        std::vector<Real> row(ncol, 0.0);
        const char* p = line.c_str();
        for (int c = 0; c < ncol; ++c) {
          char* end = nullptr;
          row[c] = std::strtod(p, &end);
          if (end == p || *end != (c + 1 < ncol ? ',' : '\0'))
            refuse("'" + csvpath + "' line " + std::to_string(lineno) + " is not " +
                   std::to_string(ncol) + " numbers");
          p = end + 1;
        }
        if (row[kStep] > static_cast<Real>(S)) break;  // the abandoned continuation
        if (!rows.empty() && row[kStep] <= rows.back()[kStep])
          refuse("'" + csvpath + "' line " + std::to_string(lineno) + " is not after step " +
                 std::to_string(static_cast<long>(rows.back()[kStep])));
        rows.push_back(row);
      }
    }
  }
  // Checked: now the directory is changed.
  for (size_t i = kept.size(); i < indices.size(); ++i)
    std::remove((dir + "/" + step_file(indices[i])).c_str());
  for (const auto& n : stale) std::remove(n.c_str());
  const std::string tmp = csvpath + ".tmp";
  std::FILE* out = std::fopen(tmp.c_str(), "w");
  if (!out) throw_error("OutputWriter: cannot create '", tmp, "'");
  std::fprintf(out, "%s\n", header().c_str());
  for (const auto& row : rows)
    for (int c = 0; c < ncol; ++c)
      std::fprintf(out, c + 1 < ncol ? "%.17g," : "%.17g\n", row[c]);
  const bool ok = std::fflush(out) == 0;
  std::fclose(out);
  if (!ok || std::rename(tmp.c_str(), csvpath.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw_error("OutputWriter: cannot write '", csvpath, "'");
  }
  csv = std::fopen(csvpath.c_str(), "a");
  if (!csv) throw_error("OutputWriter: cannot append to '", csvpath, "'");
  history = std::move(rows);
  steps = std::move(kept);
  if (!steps.empty() && steps.back().step == S) last_written_step = S;
  write_xdmf();
}

void OutputWriter::Impl::write_xdmf() const {
  std::ostringstream x;
  x << std::setprecision(17);
  x << "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n <Domain>\n"
    << "  <Grid Name=\"TimeSeries\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  // p: "FILE:/path" (FILE relative to the directory).
  auto item = [&](const std::string& dims, const char* type, int prec, const std::string& p) {
    x << "      <DataItem Dimensions=\"" << dims << "\" NumberType=\"" << type << "\" Precision=\""
      << prec << "\" Format=\"HDF\">" << p << "</DataItem>\n";
  };
  auto attribute = [&](const std::string& name, const char* atype, const char* center,
                       const std::string& dims, const std::string& p) {
    x << "     <Attribute Name=\"" << name << "\" AttributeType=\"" << atype << "\" Center=\""
      << center << "\">\n";
    item(dims, "Float", 8, p);
    x << "     </Attribute>\n";
  };
  for (const StepEntry& e : steps) {
    const std::string sf = step_file(e.index);
    const std::string g = sf + ":";  // its datasets: sf:/body0/x, ...
    x << "   <Grid Name=\"step_" << sf.substr(6, 6) << "\" GridType=\"Collection\" "
      << "CollectionType=\"Spatial\">\n    <Time Value=\"" << e.time << "\"/>\n";
    for (size_t b = 0; b < bodies.size(); ++b) {
      const BodyOut& o = bodies[b];
      const std::string bp = g + "/body" + std::to_string(b) + "/";
      const std::string np = std::to_string(o.num_points), nc = std::to_string(o.num_cells);
      x << "    <Grid Name=\"body" << b << "\" GridType=\"Uniform\">\n"
        << "     <Topology TopologyType=\"" << o.topology_type << "\" NumberOfElements=\"" << nc
        << "\">\n";
      item(nc + " " + std::to_string(o.nodes_per_cell), "Int", 4,
           "output.h5:/mesh/body" + std::to_string(b) + "/topology");
      x << "     </Topology>\n     <Geometry GeometryType=\"XYZ\">\n";
      item(np + " 3", "Float", 8, bp + "x");
      x << "     </Geometry>\n";
      if (s.displacement) attribute("displacement", "Vector", "Node", np + " 3", bp + "displacement");
      if (s.velocity) attribute("velocity", "Vector", "Node", np + " 3", bp + "velocity");
      if (s.stress && o.quadratic) {
        attribute("stress", "Tensor6", "Cell", nc + " 6", bp + "stress");
        attribute("von_mises", "Scalar", "Cell", nc, bp + "von_mises");
      }
      x << "    </Grid>\n";
    }
    auto points = [&](const char* name, Ordinal n, const std::string& p,
                      const std::vector<std::pair<std::string, int>>& fields) {
      const std::string ns = std::to_string(n);
      x << "    <Grid Name=\"" << name << "\" GridType=\"Uniform\">\n"
        << "     <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << ns
        << "\" NodesPerElement=\"1\">\n";
      item(ns + " 1", "Int", 4, p + "connectivity");
      x << "     </Topology>\n     <Geometry GeometryType=\"XYZ\">\n";
      item(ns + " 3", "Float", 8, p + "x");
      x << "     </Geometry>\n";
      for (const auto& [f, comps] : fields)
        attribute(f, comps == 3 ? "Vector" : "Scalar", "Node", comps == 3 ? ns + " 3" : ns,
                  p + f);
      x << "    </Grid>\n";
    };
    if (e.joints > 0) points("joints", e.joints, g + "/joints/", {{"reaction", 3}});
    if (e.contacts > 0)
      points("contact", e.contacts, g + "/contact/",
             {{"normal", 3}, {"normal_force", 1}, {"tangential_force", 3}, {"force", 3}});
    x << "   </Grid>\n";
  }
  x << "  </Grid>\n </Domain>\n</Xdmf>\n";
  const std::string tmp = xdmfpath + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << x.str();
    out.flush();
    if (!out) throw_error("OutputWriter: cannot write '", tmp, "'");
  }
  if (std::rename(tmp.c_str(), xdmfpath.c_str()) != 0)
    throw_error("OutputWriter: cannot rename '", tmp, "' to '", xdmfpath, "'");
}

OutputWriter::OutputWriter(Model& model, TimeStepper& stepper, const OutputSettings& s)
    : impl_(std::make_unique<Impl>(model, stepper, s)) {
  Impl& I = *impl_;
  if (s.every < 1) throw_error("OutputWriter: output every ", s.every, " steps (must be >= 1)");
  make_directories(s.directory);
  I.dir = s.directory;
  I.h5path = s.directory + "/output.h5";
  I.xdmfpath = s.directory + "/output.xdmf";
  I.csvpath = s.directory + "/history.csv";
  I.build_bodies();
  I.build_columns();
  {
    CoefView fg("tlfea::io::gravity_load", model.num_coefficients());
    for (int b = 0; b < model.num_bodies(); ++b)
      model.block(b).body_force(model.reference(), model.gravity(), fg);
    I.fgrav = DeviceView<Real*>("tlfea::io::gravity_load_flat", 3 * fg.extent(0));
    Kokkos::deep_copy(I.fgrav, DeviceView<Real*>(fg.data(), 3 * fg.extent(0)));
  }
  // steps/: one file per output step; files of an earlier run there go,
  // unless this run continues it (resume: kept up to the current step).
  make_directories(s.directory + "/steps");
  if (s.resume) {
    I.resume();
  } else {
    remove_step_files(s.directory + "/steps");
    I.csv = std::fopen(I.csvpath.c_str(), "w");
    if (!I.csv) throw_error("OutputWriter: cannot create '", I.csvpath, "'");
    std::fprintf(I.csv, "%s\n", I.header().c_str());
  }
  I.open = true;
  I.write_main_file(false);
  // The current state's history row, unless the continued output has it.
  if (I.history.empty() || I.history.back()[kStep] != static_cast<Real>(I.stepper.steps_taken()))
    I.histories_row(nullptr, 0.0);
  I.write_step();
  I.last_end = wall();
}

OutputWriter::~OutputWriter() {
  try {
    finish();
  } catch (...) {
  }
}

void OutputWriter::set_contact(const ContactForces* forces, const ContactPoints* points) {
  impl_->cforces = forces;
  impl_->cpoints = points;
}

void OutputWriter::add_joint(const std::string& name, RowRange rows) {
  impl_->joints.push_back({name, rows});
}

void OutputWriter::record(const StepReport& report) {
  Impl& I = *impl_;
  if (I.finished) throw_error("OutputWriter::record after finish()");
  I.histories_row(&report, wall() - I.last_end);
  if (I.stepper.steps_taken() % I.s.every == 0) I.write_step();
  I.last_end = wall();
}

void OutputWriter::write_fields() {
  if (impl_->finished) throw_error("OutputWriter::write_fields after finish()");
  impl_->write_step();
}

void OutputWriter::finish() {
  Impl& I = *impl_;
  if (I.finished) return;
  I.finished = true;
  if (I.open) {
    // The last step's fields, then output.h5 with the histories.
    I.open = false;
    if (I.last_written_step != I.stepper.steps_taken()) I.write_step();
    I.write_main_file(true);
  }
  if (I.csv) {
    std::fclose(I.csv);
    I.csv = nullptr;
  }
}

std::string OutputWriter::hdf5_path() const { return impl_->h5path; }
std::string OutputWriter::xdmf_path() const { return impl_->xdmfpath; }
std::string OutputWriter::csv_path() const { return impl_->csvpath; }

}  // namespace tlfea::io
