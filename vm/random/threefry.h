// Threefry-2x32 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
// SC'11; Random123), the counter-based hash under every RandState. It is a pure
// function of (key, counter), which is what makes Alea's random tensors
// partitionable: any element can be computed without the others.
#ifndef ALEA_VM_RANDOM_THREEFRY_H_
#define ALEA_VM_RANDOM_THREEFRY_H_

#include <cstddef>
#include <cstdint>
#include <utility>

namespace alea::vm::random {

// Skein's key-schedule parity constant: the third key word is k0 ^ k1 ^ this.
inline constexpr uint32_t kThreefryParity = 0x1BD11BDA;
// Rotation amounts, one per round, cycling every 8 rounds.
inline constexpr int kThreefryRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};

// The hash with 20 rounds (Random123's and JAX's default): key (k0, k1),
// counter (x0, x1) -> two output words. Word order is array order, as in
// Random123's kat_vectors and JAX's threefry2x32_p.
inline std::pair<uint32_t, uint32_t> Threefry2x32(uint32_t k0, uint32_t k1, uint32_t x0,
                                                  uint32_t x1);

// The same hash with any number of rounds (the key is injected after every
// fourth). Only 20 is used by Alea; the others exist so that the reduced- and
// extended-round known-answer vectors check the round structure too.
std::pair<uint32_t, uint32_t> Threefry2x32Rounds(int rounds, uint32_t k0, uint32_t k1, uint32_t x0,
                                                 uint32_t x1);

// Block form: hashes n counters (x0[i], x1[i]) under one key into (y0[i], y1[i]).
// The outputs may alias the inputs element for element.
void Threefry2x32Block(uint32_t k0, uint32_t k1, const uint32_t* x0, const uint32_t* x1,
                       uint32_t* y0, uint32_t* y1, size_t n);

// The 20-round hash inline and unrolled: scalar draws and key derivations
// call it once or twice per operation, where a call and a loop would cost
// as much as the rounds (each round is a 3-cycle dependency chain; two
// independent blocks side by side take the time of one).
inline std::pair<uint32_t, uint32_t> Threefry2x32(uint32_t k0, uint32_t k1, uint32_t x0,
                                                  uint32_t x1) {
  const uint32_t ks[3] = {k0, k1, k0 ^ k1 ^ kThreefryParity};
  x0 += ks[0];
  x1 += ks[1];
#pragma GCC unroll 20
  for (int r = 0; r < 20; ++r) {
    x0 += x1;
    x1 = (x1 << kThreefryRotations[r % 8]) | (x1 >> (32 - kThreefryRotations[r % 8]));
    x1 ^= x0;
    if (r % 4 == 3) {
      const uint32_t s = static_cast<uint32_t>((r + 1) / 4);
      x0 += ks[s % 3];
      x1 += ks[(s + 1) % 3] + s;
    }
  }
  return {x0, x1};
}

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_THREEFRY_H_
