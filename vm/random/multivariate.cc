#include "vm/random/multivariate.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vm/dtype.h"
#include "vm/kernels/matmul.h"
#include "vm/kernels/qr.h"
#include "vm/random/samplers.h"

namespace alea::vm::random {

kernels::BadPivot CovarianceFactor(int64_t n, const float* cov, float* lt) {
  const auto nn = static_cast<size_t>(n * n);
  std::vector<float> l(nn);
  const kernels::BadPivot bad =
      kernels::Cholesky(n, cov, l.data(),
                        [](int64_t m, int64_t k, int64_t cols, const float* a, const float* b,
                           float* out) { kernels::MatMul(DType::kF32, m, k, cols, a, b, out); });
  if (bad.index >= 0) return bad;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) lt[j * n + i] = l[static_cast<size_t>(i * n + j)];
  }
  return bad;
}

void MultivariateNormal(Key k, const float* mean, const float* lt, int64_t n, uint64_t start_row,
                        uint64_t rows, float* out) {
  const auto width = static_cast<uint64_t>(n);
  std::vector<float> z(static_cast<size_t>(rows * width));
  Normal(k, start_row * width, rows * width, z.data());
  kernels::MatMul(DType::kF32, static_cast<int64_t>(rows), n, n, z.data(), lt, out);
  for (uint64_t b = 0; b < rows; ++b) {
    for (uint64_t i = 0; i < width; ++i) out[b * width + i] = mean[i] + out[b * width + i];
  }
}

void Orthogonal(Key k, int64_t n, uint64_t start, uint64_t count, float* out) {
  const auto nn = static_cast<uint64_t>(n * n);
  std::vector<float> z(static_cast<size_t>(nn)), r(static_cast<size_t>(nn));
  for (uint64_t b = 0; b < count; ++b) {
    float* q = out + b * nn;
    Normal(k, (start + b) * nn, nn, z.data());
    kernels::HouseholderQr(n, n, z.data(), q, r.data());
    for (int64_t j = 0; j < n; ++j) {
      const float d = r[static_cast<size_t>(j * n + j)];
      const float sign = d / std::fabs(d);
      for (int64_t i = 0; i < n; ++i) q[i * n + j] = q[i * n + j] * sign;
    }
  }
}

}  // namespace alea::vm::random
