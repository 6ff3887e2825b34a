#include "tlfea/elements/element_block.hpp"

#include <algorithm>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea {

std::unique_ptr<ElementBlockBase> make_block_t10(const Mesh&, Ordinal, const MaterialSpec&, Real);
std::unique_ptr<ElementBlockBase> make_block_q27(const Mesh&, Ordinal, const MaterialSpec&, Real);
std::unique_ptr<ElementBlockBase> make_block_ancf3243(const Mesh&, Ordinal, const MaterialSpec&,
                                                      Real);
std::unique_ptr<ElementBlockBase> make_block_ancf3443(const Mesh&, Ordinal, const MaterialSpec&,
                                                      Real);

std::unique_ptr<ElementBlockBase> make_element_block(const Mesh& mesh, Ordinal coef_offset,
                                                     const MaterialSpec& material, Real density) {
  if (!(density > 0)) throw_error(mesh.source, ": density must be positive, got ", density);
  switch (mesh.type) {
    case ElementType::T10:
      return make_block_t10(mesh, coef_offset, material, density);
    case ElementType::Q27:
      return make_block_q27(mesh, coef_offset, material, density);
    case ElementType::ANCF3243:
      return make_block_ancf3243(mesh, coef_offset, material, density);
    case ElementType::ANCF3443:
      return make_block_ancf3443(mesh, coef_offset, material, density);
  }
  throw_error(mesh.source, ": unknown element type");
}

ElementColouring colour_elements(const std::vector<Ordinal>& ids, int per_element,
                                 Ordinal num_elements) {
  if (per_element <= 0 || num_elements < 0 ||
      ids.size() != static_cast<size_t>(num_elements) * static_cast<size_t>(per_element))
    throw_error("element colouring: ", ids.size(), " coefficient ids for ", num_elements,
                " elements of ", per_element);
  Ordinal max_id = -1;
  for (size_t k = 0; k < ids.size(); ++k) {
    if (ids[k] < 0)
      throw_error("element colouring: element ", k / per_element, " has coefficient id ", ids[k]);
    max_id = std::max(max_id, ids[k]);
  }
  // coefficient -> elements (CRS)
  std::vector<Ordinal> start(static_cast<size_t>(max_id) + 2, 0), adj(ids.size());
  for (Ordinal c : ids) ++start[c + 1];
  for (size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
  {
    std::vector<Ordinal> fill(start.begin(), start.end() - 1);
    for (Ordinal e = 0; e < num_elements; ++e)
      for (int i = 0; i < per_element; ++i)
        adj[fill[ids[static_cast<size_t>(e) * per_element + i]]++] = e;
  }
  // First fit: the smallest colour not used by an already coloured element
  // sharing a coefficient. stamp[c] == e: colour c is taken for element e.
  std::vector<int> colour(num_elements, -1);
  std::vector<Ordinal> stamp;
  int ncol = 0;
  for (Ordinal e = 0; e < num_elements; ++e) {
    for (int i = 0; i < per_element; ++i) {
      const Ordinal c = ids[static_cast<size_t>(e) * per_element + i];
      for (Ordinal k = start[c]; k < start[c + 1]; ++k) {
        const int col = colour[adj[k]];
        if (col >= 0) stamp[col] = e;
      }
    }
    int col = 0;
    while (col < ncol && stamp[col] == e) ++col;
    if (col == ncol) {
      ++ncol;
      stamp.push_back(-1);
    }
    colour[e] = col;
  }
  ElementColouring out;
  out.offsets.assign(static_cast<size_t>(ncol) + 1, 0);
  for (Ordinal e = 0; e < num_elements; ++e) ++out.offsets[colour[e] + 1];
  for (int c = 0; c < ncol; ++c) out.offsets[c + 1] += out.offsets[c];
  out.elements = DeviceView<Ordinal*>("tlfea::elements::colour_elements", num_elements);
  auto h = host_mirror(out.elements);
  std::vector<Ordinal> fill(out.offsets.begin(), out.offsets.end() - 1);
  for (Ordinal e = 0; e < num_elements; ++e) h(fill[colour[e]]++) = e;
  copy_to_device(out.elements, h);
  return out;
}

FaceList make_face_list(const std::vector<FaceRef>& faces) {
  FaceList l;
  l.element = DeviceView<Ordinal*>("tlfea::elements::face_element", faces.size());
  l.face = DeviceView<int*>("tlfea::elements::face_index", faces.size());
  auto he = host_mirror(l.element);
  auto hf = host_mirror(l.face);
  for (size_t k = 0; k < faces.size(); ++k) {
    he(k) = faces[k].element;
    hf(k) = faces[k].face;
  }
  copy_to_device(l.element, he);
  copy_to_device(l.face, hf);
  return l;
}

void copy_reference_coefficients(const Mesh& mesh, Ordinal offset, const CoefView& q0) {
  const Ordinal n = mesh.num_coefficients();
  if (offset < 0 || static_cast<size_t>(offset + n) > q0.extent(0))
    throw_error(mesh.source, ": coefficients [", offset, ", ", offset + n,
                ") do not fit a vector of ", q0.extent(0));
  auto h = host_mirror(q0);
  copy_to_host(h, q0);
  for (Ordinal c = 0; c < n; ++c)
    for (int a = 0; a < 3; ++a) h(offset + c, a) = mesh.coefficients[c][a];
  copy_to_device(q0, h);
}

}  // namespace tlfea
