// TLFEA io: the XDMF 3 index output.xdmf of the step files (output.hpp).
//
// The index is appended in place: each output step costs the same whatever
// the number of steps before it. The file keeps a block of free space, a
// processing instruction of blanks, between the last step and the closing
// tags:
//   <?xml ...?> <Xdmf> <Domain> <Grid temporal collection>
//     <Grid step 0> ... <Grid step n-1>
//     <?pad                  ...blanks...                  ?>
//   </Grid> </Domain> </Xdmf>
// Readers skip processing instructions (ParaView's XDMF 3 reader,
// XdmfCoreReader, reads only the element nodes libxml2 gives it; Python's
// ElementTree, used by meshio, drops them). A new step is added in two writes:
//   1. its <Grid> text, then blanks up to a new "<?pad" opener, written just
//      after the current opener "<?pad", i.e. inside the instruction, whose
//      content may be anything without "?>" (XML 1.0 §2.6); a step's text
//      has no '?'. Any part of this write that reaches the file lies inside
//      the instruction, so the file stays the complete n-step index;
//   2. five blanks over the current opener: the instruction now begins at
//      the new opener, the step's text is outside it, the file is the
//      complete (n+1)-step index.
// The second write is the only one that changes what the file says. A
// SIGKILL cannot split it: the kernel copies a write into the page cache one
// page at a time and checks for a fatal signal only between pages, and the
// opener never straddles a page boundary (it is moved to the next page when
// it would). Were it split anyway, each partial state (" ?pad", "  pad",
// "   ad", "    d") is character data in the temporal collection, which is
// well-formed and ignored by the readers. The closing tags are never
// rewritten.
//
// When the free space cannot take the next step, the whole index is
// written to output.xdmf.tmp with new free space of half its size (at least
// kMinFree bytes) and renamed into place: O(log n) rewrites over a run, each
// step's text written a constant number of times on average. finish()
// writes the index once more without the free space.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "output_impl.hpp"

namespace tlfea::io {

namespace {

constexpr const char* kOpener = "<?pad";
constexpr long long kOpenerSize = 5;
constexpr const char* kCloser = "?>\n";
constexpr long long kPage = 4096;  // the smallest page size of the targets
constexpr long long kMinFree = 64 * 1024;
const char* const kTrailer = "  </Grid>\n </Domain>\n</Xdmf>\n";

// The first offset >= `at` where the opener does not straddle a page.
long long opener_offset(long long at) {
  return at / kPage == (at + kOpenerSize - 1) / kPage ? at : (at / kPage + 1) * kPage;
}

void pwrite_all(int fd, const char* p, size_t n, long long at, const std::string& path) {
  while (n > 0) {
    const ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(at));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw_error("OutputWriter: cannot write '", path, "': ", std::strerror(errno));
    p += w;
    n -= static_cast<size_t>(w);
    at += w;
  }
}

}  // namespace

std::string OutputWriter::Impl::xdmf_grid(const StepEntry& e) const {
  std::ostringstream x;
  x << std::setprecision(17);
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
  const std::string sf = step_file(e.index);
  x << "   <Grid Name=\"step_" << sf.substr(6, 6) << "\" GridType=\"Collection\" "
    << "CollectionType=\"Spatial\">\n    <Time Value=\"" << e.time << "\"/>\n";
  // Piece k's bodies (its step file and mesh file; those with no cells in
  // the piece left out on several ranks).
  auto body_grids = [&](int k) {
    const std::string sfx = piece_suffix(k);
    const std::string g = step_file(e.index, sfx) + ":";  // its datasets: sf:/body0/x, ...
    for (size_t b = 0; b < bodies.size(); ++b) {
      const BodyOut& o = bodies[b];
      const Ordinal npts = piece_counts[k][b].first, ncells = piece_counts[k][b].second;
      if (pieces > 1 && ncells == 0) continue;
      const std::string bp = g + "/body" + std::to_string(b) + "/";
      const std::string np = std::to_string(npts), nc = std::to_string(ncells);
      x << "    <Grid Name=\"body" << b << "\" GridType=\"Uniform\">\n"
        << "     <Topology TopologyType=\"" << o.topology_type << "\" NumberOfElements=\"" << nc
        << "\">\n";
      item(nc + " " + std::to_string(o.nodes_per_cell), "Int", 4,
           "output" + sfx + ".h5:/mesh/body" + std::to_string(b) + "/topology");
      x << "     </Topology>\n     <Geometry GeometryType=\"XYZ\">\n";
      item(np + " 3", "Float", 8, bp + "x");
      x << "     </Geometry>\n";
      if (s.displacement)
        attribute("displacement", "Vector", "Node", np + " 3", bp + "displacement");
      if (s.velocity) attribute("velocity", "Vector", "Node", np + " 3", bp + "velocity");
      if (s.stress && o.quadratic) {
        attribute("stress", "Tensor6", "Cell", nc + " 6", bp + "stress");
        attribute("von_mises", "Scalar", "Cell", nc, bp + "von_mises");
      }
      x << "    </Grid>\n";
    }
  };
  const std::string g = sf + ":";  // piece 0's datasets (joints, contact)
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
      attribute(f, comps == 3 ? "Vector" : "Scalar", "Node", comps == 3 ? ns + " 3" : ns, p + f);
    x << "    </Grid>\n";
  };
  auto joints_contact = [&]() {
    if (e.joints > 0) points("joints", e.joints, g + "/joints/", {{"reaction", 3}});
    if (e.contacts > 0)
      points("contact", e.contacts, g + "/contact/",
             {{"normal", 3}, {"normal_force", 1}, {"tangential_force", 3}, {"force", 3}});
  };
  if (pieces == 1) {
    body_grids(0);
    joints_contact();
  } else {
    // Several ranks: the step is a spatial collection of the pieces.
    for (int k = 0; k < pieces; ++k) {
      x << "    <Grid Name=\"piece" << k << "\" GridType=\"Collection\" "
        << "CollectionType=\"Spatial\">\n";
      body_grids(k);
      if (k == 0) joints_contact();
      x << "    </Grid>\n";
    }
  }
  x << "   </Grid>\n";
  return x.str();
}

void OutputWriter::Impl::write_xdmf(bool free_space) {
  close_xdmf();
  std::string x =
      "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n <Domain>\n"
      "  <Grid Name=\"TimeSeries\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const StepEntry& e : steps) x += xdmf_grid(e);
  long long opener = -1, closer = -1;
  if (free_space) {
    const long long at = static_cast<long long>(x.size());
    opener = opener_offset(at);
    const long long blanks = std::max<long long>(kMinFree, at / 2);
    closer = opener + kOpenerSize + blanks;
    x.append(static_cast<size_t>(opener - at), ' ');
    x += kOpener;
    x.append(static_cast<size_t>(blanks), ' ');
    x += kCloser;
  }
  x += kTrailer;
  const std::string tmp = xdmfpath + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc | std::ios::binary);
    out << x;
    out.flush();
    if (!out) throw_error("OutputWriter: cannot write '", tmp, "'");
  }
  if (std::rename(tmp.c_str(), xdmfpath.c_str()) != 0)
    throw_error("OutputWriter: cannot rename '", tmp, "' to '", xdmfpath, "'");
  if (!free_space) return;
  xdmf_fd = ::open(xdmfpath.c_str(), O_WRONLY | O_CLOEXEC);
  if (xdmf_fd < 0)
    throw_error("OutputWriter: cannot open '", xdmfpath, "': ", std::strerror(errno));
  xdmf_opener = opener;
  xdmf_closer = closer;
}

void OutputWriter::Impl::append_xdmf() {
  const std::string grid = xdmf_grid(steps.back());
  const long long text = xdmf_opener + kOpenerSize;  // the instruction's content
  const long long next = opener_offset(text + static_cast<long long>(grid.size()));
  // The new opener must end before the closer ("<?pad?>" is a whole
  // instruction; one blank is kept for readability).
  if (xdmf_fd < 0 || next + kOpenerSize + 1 > xdmf_closer) {
    write_xdmf(true);
    return;
  }
  std::string w = grid;
  w.append(static_cast<size_t>(next - text - static_cast<long long>(grid.size())), ' ');
  w += kOpener;
  pwrite_all(xdmf_fd, w.data(), w.size(), text, xdmfpath);           // 1: inside the instruction
  pwrite_all(xdmf_fd, "     ", kOpenerSize, xdmf_opener, xdmfpath);  // 2: the step is in
  xdmf_opener = next;
}

void OutputWriter::Impl::close_xdmf() {
  if (xdmf_fd >= 0) ::close(xdmf_fd);
  xdmf_fd = -1;
}

OutputWriter::Impl::~Impl() { close_xdmf(); }

}  // namespace tlfea::io
