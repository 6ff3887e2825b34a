// TLFEA io: the XDMF 3 index output.xdmf of the step files (output.hpp),
// rewritten whole through output.xdmf.tmp after every output step.
#include <fstream>
#include <iomanip>
#include <sstream>

#include "output_impl.hpp"

namespace tlfea::io {

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
      if (s.displacement)
        attribute("displacement", "Vector", "Node", np + " 3", bp + "displacement");
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
        attribute(f, comps == 3 ? "Vector" : "Scalar", "Node", comps == 3 ? ns + " 3" : ns, p + f);
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

}  // namespace tlfea::io
