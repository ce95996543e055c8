#include "vm/random/draw_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "vm/kernels/math_f32.h"
#include "vm/random/continuous.h"
#include "vm/random/samplers.h"
#include "vm/random/threefry.h"

namespace alea::vm::random {

void DrawKernels::Bits(Key k, uint64_t start, uint64_t n, uint32_t* out) const {
  random::Bits(k, start, n, out);
}

void DrawKernels::Uniform(Key k, uint64_t start, uint64_t n, float* out) const {
  random::Uniform(k, start, n, 0.0f, 1.0f, out);
}

void DrawKernels::Gumbel(Key k, uint64_t start, uint64_t n, float* out) const {
  random::Gumbel(k, start, n, out);
}

uint64_t DrawKernels::CategoricalRow(Key k, uint64_t start, const float* logits, uint64_t n) const {
  // The noise a chunk at a time, so that it stays in L1 between the kernel
  // that draws it and the scan.
  constexpr uint64_t kChunk = 1024;
  float gumbel[kChunk];
  uint64_t best = 0;
  float best_value = 0.0f;
  for (uint64_t base = 0; base < n; base += kChunk) {
    const uint64_t m = std::min(kChunk, n - base);
    Gumbel(k, start + base, m, gumbel);
    for (uint64_t j = 0; j < m; ++j) {
      const float value = gumbel[j] + logits[base + j];
      // First maximum wins; the first NaN beats any number (jnp.argmax).
      const bool better = (base == 0 && j == 0) ||
                          (!std::isnan(best_value) && (std::isnan(value) || value > best_value));
      if (better) {
        best = base + j;
        best_value = value;
      }
    }
  }
  return best;
}

void DrawKernels::Keyed(KeyedDraw what, const KeyedInput& in, uint32_t* y0, uint32_t* y1,
                        size_t n) const {
  for (size_t j = 0; j < n; ++j) {
    const auto [w0, w1] = Threefry2x32(in.k0[j], in.k1[j], in.c0[j], in.c1[j]);
    switch (what) {
      case KeyedDraw::kWords:
        y0[j] = w0;
        y1[j] = w1;
        break;
      case KeyedDraw::kBits:
        y0[j] = w0 ^ w1;
        break;
      case KeyedDraw::kNormal: {
        const float x = NormalOfBits(w0 ^ w1);
        std::memcpy(y0 + j, &x, sizeof x);
        break;
      }
    }
  }
}

void DrawKernels::Unary(kernels::UnaryOp op, const float* in, float* out, size_t n) const {
  kernels::Unary(op, DType::kF32, static_cast<int64_t>(n), in, out);
}

const DrawKernels& ReferenceKernels() {
  static const DrawKernels kernels;
  return kernels;
}

}  // namespace alea::vm::random
