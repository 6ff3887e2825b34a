// NVIDIA cuDSS backend ("cudss"): sparse direct solve on the GPU, built when
// Kokkos has CUDA and cuDSS is found (TLFEA_ENABLE_CUDSS; see
// docs/guide/gpu.md). The matrix, right-hand side and solution stay in device memory:
//   analyze(pattern)  reordering + symbolic factorisation (CUDSS_PHASE_ANALYSIS)
//                     of the pattern, once;
//   factorize(values) numeric factorisation (CUDSS_PHASE_FACTORIZATION):
//                     LDL^T for symmetric matrices (indefinite allowed),
//                     Cholesky when positive_definite, LU when symmetric is
//                     false; a singular matrix (CUDSS_DATA_INFO != 0) throws;
//   solve(b, x)       forward/backward substitution (CUDSS_PHASE_SOLVE) on
//                     the device views themselves, then a device reduction
//                     that counts non-finite entries of x.
// All cuDSS work is queued on the Kokkos CUDA stream.
#include <cudss.h>

#include <string>

#include "backends.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea::detail {
namespace {

static_assert(std::is_same<ExecSpace, Kokkos::Cuda>::value,
              "the cuDSS backend needs Kokkos' CUDA execution space");
static_assert(sizeof(Offset) == 4 && sizeof(Ordinal) == 4, "cuDSS is given 32-bit indices");

const char* status_name(cudssStatus_t s) {
  switch (s) {
    case CUDSS_STATUS_SUCCESS:
      return "success";
    case CUDSS_STATUS_NOT_INITIALIZED:
      return "not initialized";
    case CUDSS_STATUS_ALLOC_FAILED:
      return "device allocation failed (out of GPU memory)";
    case CUDSS_STATUS_INVALID_VALUE:
      return "invalid value";
    case CUDSS_STATUS_NOT_SUPPORTED:
      return "not supported";
    case CUDSS_STATUS_EXECUTION_FAILED:
      return "execution failed";
    case CUDSS_STATUS_INTERNAL_ERROR:
      return "internal error";
    default:
      return "unknown status";
  }
}

void check(cudssStatus_t s, const char* what) {
  if (s != CUDSS_STATUS_SUCCESS)
    throw_error("cudss: ", what, " failed: ", status_name(s), " (status ", static_cast<int>(s),
                ")");
}

class CudssSolver final : public LinearSolver {
 public:
  explicit CudssSolver(const LinearSolverOptions& options) : options_(options) {
    check(cudssCreate(&handle_), "cudssCreate");
    check(cudssSetStream(handle_, ExecSpace().cuda_stream()), "cudssSetStream");
    check(cudssConfigCreate(&config_), "cudssConfigCreate");
  }

  ~CudssSolver() override {
    release_matrices();
    if (data_) cudssDataDestroy(handle_, data_);
    if (config_) cudssConfigDestroy(config_);
    if (handle_) cudssDestroy(handle_);
  }

  CudssSolver(const CudssSolver&) = delete;
  CudssSolver& operator=(const CudssSolver&) = delete;

  std::string name() const override { return "cudss"; }

  void analyze(const CrsPattern& pattern) override {
    const Stopwatch clock;
    factored_ = false;
    release_matrices();
    if (data_) cudssDataDestroy(handle_, data_);
    data_ = nullptr;
    check(cudssDataCreate(handle_, &data_), "cudssDataCreate");
    pattern_ = pattern;
    n_ = pattern.num_rows();
    check_length("cudss", "pattern row map", pattern.row_map.extent(0),
                 static_cast<size_t>(n_) + 1);
    values_ = DeviceView<Real*>("tlfea::linalg::cudss::values", pattern.nnz());
    b_ = DeviceView<Real*>("tlfea::linalg::cudss::b", n_);
    x_ = DeviceView<Real*>("tlfea::linalg::cudss::x", n_);
    const cudssMatrixType_t type = !options_.symmetric          ? CUDSS_MTYPE_GENERAL
                                   : options_.positive_definite ? CUDSS_MTYPE_SPD
                                                                : CUDSS_MTYPE_SYMMETRIC;
    check(cudssMatrixCreateCsr(&a_, n_, n_, pattern.nnz(), pattern_.row_map.data(), nullptr,
                               pattern_.entries.data(), values_.data(), CUDA_R_32I, CUDA_R_32I,
                               CUDA_R_64F, type, CUDSS_MVIEW_FULL, CUDSS_BASE_ZERO),
          "cudssMatrixCreateCsr");
    check(cudssMatrixCreateDn(&b_mat_, n_, 1, n_, b_.data(), CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR),
          "cudssMatrixCreateDn (b)");
    check(cudssMatrixCreateDn(&x_mat_, n_, 1, n_, x_.data(), CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR),
          "cudssMatrixCreateDn (x)");
    check(cudssExecute(handle_, CUDSS_PHASE_ANALYSIS, config_, data_, a_, x_mat_, b_mat_),
          "analysis");
    fence("tlfea::linalg::cudss::analysis");
    ++stats_.analyses;
    stats_.analyze_seconds += clock.seconds();
  }

  void factorize(const DeviceView<Real*>& values) override {
    if (!a_) throw_error("cudss: factorize() before analyze()");
    check_length("cudss", "values", values.extent(0), static_cast<size_t>(pattern_.nnz()));
    const Stopwatch clock;
    factored_ = false;
    device_copy(values_, values);
    check(cudssExecute(handle_, CUDSS_PHASE_FACTORIZATION, config_, data_, a_, x_mat_, b_mat_),
          "factorization");
    int info = 0;
    size_t written = 0;
    check(cudssDataGet(handle_, data_, CUDSS_DATA_INFO, &info, sizeof(info), &written),
          "cudssDataGet (info)");
    if (info != 0)
      throw_error("cudss: the matrix is singular (zero pivot, CUDSS_DATA_INFO = ", info, ")");
    factored_ = true;
    ++stats_.factorizations;
    stats_.factorize_seconds += clock.seconds();
  }

  void solve(const DeviceView<Real*>& b, const DeviceView<Real*>& x) override {
    if (!factored_) throw_error("cudss: solve() before factorize()");
    check_length("cudss", "right-hand side", b.extent(0), static_cast<size_t>(n_));
    check_length("cudss", "solution", x.extent(0), static_cast<size_t>(n_));
    const Stopwatch clock;
    // The caller's views, in place: no staging copies.
    check(cudssMatrixSetValues(b_mat_, b.data()), "cudssMatrixSetValues (b)");
    check(cudssMatrixSetValues(x_mat_, x.data()), "cudssMatrixSetValues (x)");
    check(cudssExecute(handle_, CUDSS_PHASE_SOLVE, config_, data_, a_, x_mat_, b_mat_), "solve");
    ++stats_.solves;
    stats_.solve_seconds += clock.seconds();
    if (solution_check_) check_solution_device("cudss", x);
  }

 private:
  void release_matrices() {
    if (a_) cudssMatrixDestroy(a_);
    if (b_mat_) cudssMatrixDestroy(b_mat_);
    if (x_mat_) cudssMatrixDestroy(x_mat_);
    a_ = b_mat_ = x_mat_ = nullptr;
  }

  LinearSolverOptions options_;
  cudssHandle_t handle_ = nullptr;
  cudssConfig_t config_ = nullptr;
  cudssData_t data_ = nullptr;
  cudssMatrix_t a_ = nullptr, b_mat_ = nullptr, x_mat_ = nullptr;
  CrsPattern pattern_;
  Ordinal n_ = 0;
  bool factored_ = false;
  DeviceView<Real*> values_, b_, x_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_cudss(const LinearSolverOptions& options) {
  return std::make_unique<CudssSolver>(options);
}

}  // namespace tlfea::detail
