// Keys and RandStates (docs/language.md, "Random states"): JAX's Threefry key
// semantics in its partitionable mode, plus Alea's stream counter.
#ifndef ALEA_VM_RANDOM_KEYS_H_
#define ALEA_VM_RANDOM_KEYS_H_

#include <cstdint>
#include <utility>
#include <vector>

namespace alea::vm::random {

// A Threefry-2x32 key: JAX's key_data [k0, k1].
struct Key {
  uint32_t k0 = 0;
  uint32_t k1 = 0;
  friend bool operator==(const Key&, const Key&) = default;
};

// A RandState: a key and the stream counter n. A state with n > 0 stands for
// the counter-0 state fold_in(key, n) in every operation except Next, which
// is what makes the i-th Next of a stream equal fold_in(key, i).
struct RandState {
  Key key;
  uint32_t n = 0;
  friend bool operator==(const RandState&, const RandState&) = default;
};

// JAX's PRNGKey(seed) on a 64-bit seed: [seed >> 32, seed & 0xffffffff] of its
// two's-complement bits, so key(-1) is [0xffffffff, 0xffffffff] (JAX x64 mode).
RandState KeyFromSeed(int64_t seed);

// JAX's fold_in on raw keys: threefry(k, (0, data)). JAX converts the data to
// uint32 first; callers decide what an out-of-range Int means.
Key FoldInKey(Key k, uint32_t data);

// The key a sampler or a derivation acts on: the key itself for n == 0, else
// fold_in(key, n). Inline: every scalar draw asks.
inline Key EffectiveKey(const RandState& s) { return s.n == 0 ? s.key : FoldInKey(s.key, s.n); }

// The i-th key of JAX's partitionable split: threefry(k, (i >> 32, i & ~0u)).
// For i < 2^32 this is FoldInKey(k, i).
Key SplitKey(Key k, uint64_t i);

// fold_in(s, data), counter 0.
RandState FoldIn(const RandState& s, uint32_t data);

// split(s): (SplitKey(k, 0), SplitKey(k, 1)) of the effective key, counters 0.
std::pair<RandState, RandState> Split(const RandState& s);

// split_n(s, n): n states, the i-th is SplitKey(k, i) of the effective key.
std::vector<RandState> SplitN(const RandState& s, uint64_t n);

// next((k, n)) = ((fold_in(k, n), 0), (k, n + 1)): the next state of the stream
// and the advanced stream. The counter wraps at 2^32 (the caller may treat
// n == 0xffffffff as exhausted; no program gets near it in practice).
std::pair<RandState, RandState> Next(const RandState& s);

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_KEYS_H_
