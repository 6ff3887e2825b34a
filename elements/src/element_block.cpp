#include "tlfea/elements/element_block.hpp"

#include "tlfea/core/error.hpp"

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

FaceList make_face_list(const std::vector<FaceRef>& faces) {
  FaceList l;
  l.element = DeviceView<Ordinal*>("tlfea::elements::face_element", faces.size());
  l.face = DeviceView<int*>("tlfea::elements::face_index", faces.size());
  auto he = Kokkos::create_mirror_view(l.element);
  auto hf = Kokkos::create_mirror_view(l.face);
  for (size_t k = 0; k < faces.size(); ++k) {
    he(k) = faces[k].element;
    hf(k) = faces[k].face;
  }
  Kokkos::deep_copy(l.element, he);
  Kokkos::deep_copy(l.face, hf);
  return l;
}

void copy_reference_coefficients(const Mesh& mesh, Ordinal offset, const CoefView& q0) {
  const Ordinal n = mesh.num_coefficients();
  if (offset < 0 || static_cast<size_t>(offset + n) > q0.extent(0))
    throw_error(mesh.source, ": coefficients [", offset, ", ", offset + n,
                ") do not fit a vector of ", q0.extent(0));
  auto h = Kokkos::create_mirror_view(q0);
  Kokkos::deep_copy(h, q0);
  for (Ordinal c = 0; c < n; ++c)
    for (int a = 0; a < 3; ++a) h(offset + c, a) = mesh.coefficients[c][a];
  Kokkos::deep_copy(q0, h);
}

}  // namespace tlfea
