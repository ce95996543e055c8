#include "vm/random/keys.h"

#include "vm/random/threefry.h"

namespace alea::vm::random {

RandState KeyFromSeed(int64_t seed) {
  // Conversion to unsigned is modular, so the high word of a negative seed is
  // its sign extension, exactly as JAX's shift of the 64-bit seed.
  const uint64_t bits = static_cast<uint64_t>(seed);
  return RandState{Key{static_cast<uint32_t>(bits >> 32), static_cast<uint32_t>(bits)}, 0};
}

Key SplitKey(Key k, uint64_t i) {
  const auto [a, b] =
      Threefry2x32(k.k0, k.k1, static_cast<uint32_t>(i >> 32), static_cast<uint32_t>(i));
  return Key{a, b};
}

Key FoldInKey(Key k, uint32_t data) {
  const auto [a, b] = Threefry2x32(k.k0, k.k1, 0, data);
  return Key{a, b};
}

RandState FoldIn(const RandState& s, uint32_t data) {
  return RandState{FoldInKey(EffectiveKey(s), data), 0};
}

std::pair<RandState, RandState> Split(const RandState& s) {
  const Key k = EffectiveKey(s);
  return {RandState{SplitKey(k, 0), 0}, RandState{SplitKey(k, 1), 0}};
}

std::vector<RandState> SplitN(const RandState& s, uint64_t n) {
  const Key k = EffectiveKey(s);
  std::vector<RandState> out;
  out.reserve(n);
  for (uint64_t i = 0; i < n; ++i) out.push_back(RandState{SplitKey(k, i), 0});
  return out;
}

std::pair<RandState, RandState> Next(const RandState& s) {
  return {RandState{FoldInKey(s.key, s.n), 0}, RandState{s.key, s.n + 1}};
}

}  // namespace alea::vm::random
