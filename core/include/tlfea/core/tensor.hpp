// TLFEA: small fixed-size tensor math usable on the device (no Eigen inside
// kernels). Mat3 is row-major: m[3*i + j] = A_ij.
#pragma once

#include <Kokkos_Core.hpp>

namespace tlfea {

struct Vec3 {
  double v[3];
  KOKKOS_INLINE_FUNCTION double& operator[](int i) { return v[i]; }
  KOKKOS_INLINE_FUNCTION const double& operator[](int i) const { return v[i]; }
};

struct Mat3 {
  double m[9];
  KOKKOS_INLINE_FUNCTION double& operator()(int i, int j) { return m[3 * i + j]; }
  KOKKOS_INLINE_FUNCTION const double& operator()(int i, int j) const { return m[3 * i + j]; }
};

// Fourth-order tangent A_{iJkL} = dP_iJ / dF_kL stored as a[3i+J][3k+L].
struct Tangent {
  double a[9][9];
};

KOKKOS_INLINE_FUNCTION Mat3 zero3() {
  Mat3 A;
  for (int k = 0; k < 9; ++k) A.m[k] = 0.0;
  return A;
}
KOKKOS_INLINE_FUNCTION Mat3 identity3() {
  Mat3 A = zero3();
  A.m[0] = A.m[4] = A.m[8] = 1.0;
  return A;
}
KOKKOS_INLINE_FUNCTION Mat3 transpose(const Mat3& A) {
  Mat3 B;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) B(i, j) = A(j, i);
  return B;
}
KOKKOS_INLINE_FUNCTION Mat3 operator+(const Mat3& A, const Mat3& B) {
  Mat3 C;
  for (int k = 0; k < 9; ++k) C.m[k] = A.m[k] + B.m[k];
  return C;
}
KOKKOS_INLINE_FUNCTION Mat3 operator-(const Mat3& A, const Mat3& B) {
  Mat3 C;
  for (int k = 0; k < 9; ++k) C.m[k] = A.m[k] - B.m[k];
  return C;
}
KOKKOS_INLINE_FUNCTION Mat3 operator*(double s, const Mat3& A) {
  Mat3 C;
  for (int k = 0; k < 9; ++k) C.m[k] = s * A.m[k];
  return C;
}
// C = A B
KOKKOS_INLINE_FUNCTION Mat3 operator*(const Mat3& A, const Mat3& B) {
  Mat3 C;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C(i, j) = A(i, 0) * B(0, j) + A(i, 1) * B(1, j) + A(i, 2) * B(2, j);
  return C;
}
// C = A^T B
KOKKOS_INLINE_FUNCTION Mat3 mul_tn(const Mat3& A, const Mat3& B) {
  Mat3 C;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C(i, j) = A(0, i) * B(0, j) + A(1, i) * B(1, j) + A(2, i) * B(2, j);
  return C;
}
// C = A B^T
KOKKOS_INLINE_FUNCTION Mat3 mul_nt(const Mat3& A, const Mat3& B) {
  Mat3 C;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C(i, j) = A(i, 0) * B(j, 0) + A(i, 1) * B(j, 1) + A(i, 2) * B(j, 2);
  return C;
}
KOKKOS_INLINE_FUNCTION Vec3 operator*(const Mat3& A, const Vec3& x) {
  Vec3 y;
  for (int i = 0; i < 3; ++i) y[i] = A(i, 0) * x[0] + A(i, 1) * x[1] + A(i, 2) * x[2];
  return y;
}
KOKKOS_INLINE_FUNCTION double trace(const Mat3& A) { return A.m[0] + A.m[4] + A.m[8]; }
// A : B
KOKKOS_INLINE_FUNCTION double ddot(const Mat3& A, const Mat3& B) {
  double s = 0.0;
  for (int k = 0; k < 9; ++k) s += A.m[k] * B.m[k];
  return s;
}
KOKKOS_INLINE_FUNCTION double det(const Mat3& A) {
  return A(0, 0) * (A(1, 1) * A(2, 2) - A(1, 2) * A(2, 1)) -
         A(0, 1) * (A(1, 0) * A(2, 2) - A(1, 2) * A(2, 0)) +
         A(0, 2) * (A(1, 0) * A(2, 1) - A(1, 1) * A(2, 0));
}
// Cofactor matrix: cof(A) = det(A) A^-T (defined for singular A too).
KOKKOS_INLINE_FUNCTION Mat3 cofactor(const Mat3& A) {
  Mat3 C;
  C(0, 0) = A(1, 1) * A(2, 2) - A(1, 2) * A(2, 1);
  C(0, 1) = A(1, 2) * A(2, 0) - A(1, 0) * A(2, 2);
  C(0, 2) = A(1, 0) * A(2, 1) - A(1, 1) * A(2, 0);
  C(1, 0) = A(0, 2) * A(2, 1) - A(0, 1) * A(2, 2);
  C(1, 1) = A(0, 0) * A(2, 2) - A(0, 2) * A(2, 0);
  C(1, 2) = A(0, 1) * A(2, 0) - A(0, 0) * A(2, 1);
  C(2, 0) = A(0, 1) * A(1, 2) - A(0, 2) * A(1, 1);
  C(2, 1) = A(0, 2) * A(1, 0) - A(0, 0) * A(1, 2);
  C(2, 2) = A(0, 0) * A(1, 1) - A(0, 1) * A(1, 0);
  return C;
}
KOKKOS_INLINE_FUNCTION Mat3 inverse(const Mat3& A) {
  const Mat3 C = cofactor(A);
  const double d = A(0, 0) * C(0, 0) + A(0, 1) * C(0, 1) + A(0, 2) * C(0, 2);
  return (1.0 / d) * transpose(C);
}
// A^-T
KOKKOS_INLINE_FUNCTION Mat3 inverse_transpose(const Mat3& A) {
  const Mat3 C = cofactor(A);
  const double d = A(0, 0) * C(0, 0) + A(0, 1) * C(0, 1) + A(0, 2) * C(0, 2);
  return (1.0 / d) * C;
}
KOKKOS_INLINE_FUNCTION Vec3 cross(const Vec3& a, const Vec3& b) {
  return Vec3{{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}};
}
KOKKOS_INLINE_FUNCTION double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

}  // namespace tlfea
