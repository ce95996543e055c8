#include "vm/kernels/qr.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace alea::vm::kernels {

void HouseholderQr(int64_t m, int64_t n, const float* a, float* q, float* r) {
  const auto at = [n](int64_t i, int64_t j) { return static_cast<size_t>(i * n + j); };
  // The reflectors overwrite work below its diagonal (their first element,
  // 1, is implicit), R on and above it.
  std::vector<double> work(static_cast<size_t>(m * n));
  for (size_t i = 0; i < work.size(); ++i) work[i] = a[i];
  std::vector<double> tau(static_cast<size_t>(n), 0.0);
  for (int64_t j = 0; j < n; ++j) {
    double below = 0.0;
    for (int64_t i = j + 1; i < m; ++i) below += work[at(i, j)] * work[at(i, j)];
    if (below == 0.0) continue;  // H_j = I: nothing below the diagonal to remove
    const double alpha = work[at(j, j)];
    const double beta = -std::copysign(std::sqrt(alpha * alpha + below), alpha);
    tau[j] = (beta - alpha) / beta;
    for (int64_t i = j + 1; i < m; ++i) work[at(i, j)] /= alpha - beta;
    work[at(j, j)] = beta;
    // The columns to the right get H_j = I - tau v v^T, v = (1, work[j+1:, j]).
    for (int64_t c = j + 1; c < n; ++c) {
      double w = work[at(j, c)];
      for (int64_t i = j + 1; i < m; ++i) w += work[at(i, j)] * work[at(i, c)];
      w *= tau[j];
      work[at(j, c)] -= w;
      for (int64_t i = j + 1; i < m; ++i) work[at(i, c)] -= w * work[at(i, j)];
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j)
      r[at(i, j)] = j >= i ? static_cast<float>(work[at(i, j)]) : 0.0f;
  }
  // Q = H_0 H_1 ... H_{n-1} applied to the first n columns of the identity,
  // the last reflector first (org2r's order).
  std::vector<double> qd(static_cast<size_t>(m * n), 0.0);
  for (int64_t j = 0; j < n; ++j) qd[at(j, j)] = 1.0;
  for (int64_t j = n - 1; j >= 0; --j) {
    if (tau[j] == 0.0) continue;
    for (int64_t c = j; c < n; ++c) {
      double w = qd[at(j, c)];
      for (int64_t i = j + 1; i < m; ++i) w += work[at(i, j)] * qd[at(i, c)];
      w *= tau[j];
      qd[at(j, c)] -= w;
      for (int64_t i = j + 1; i < m; ++i) qd[at(i, c)] -= w * work[at(i, j)];
    }
  }
  for (size_t i = 0; i < qd.size(); ++i) q[i] = static_cast<float>(qd[i]);
}

}  // namespace alea::vm::kernels
