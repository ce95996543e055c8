#include "vm/random/threefry.h"

namespace alea::vm::random {
namespace {

inline uint32_t RotateLeft(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

}  // namespace

std::pair<uint32_t, uint32_t> Threefry2x32Rounds(int rounds, uint32_t k0, uint32_t k1, uint32_t x0,
                                                 uint32_t x1) {
  const uint32_t ks[3] = {k0, k1, k0 ^ k1 ^ kThreefryParity};
  x0 += ks[0];
  x1 += ks[1];
  for (int r = 0; r < rounds; ++r) {
    x0 += x1;
    x1 = RotateLeft(x1, kThreefryRotations[r % 8]);
    x1 ^= x0;
    if (r % 4 == 3) {
      // The s-th key injection adds the schedule rotated by s, plus s itself so
      // that identical key words cannot cancel between injections.
      const uint32_t s = static_cast<uint32_t>((r + 1) / 4);
      x0 += ks[s % 3];
      x1 += ks[(s + 1) % 3] + s;
    }
  }
  return {x0, x1};
}

void Threefry2x32Block(uint32_t k0, uint32_t k1, const uint32_t* x0, const uint32_t* x1,
                       uint32_t* y0, uint32_t* y1, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const auto [a, b] = Threefry2x32(k0, k1, x0[i], x1[i]);
    y0[i] = a;
    y1[i] = b;
  }
}

}  // namespace alea::vm::random
