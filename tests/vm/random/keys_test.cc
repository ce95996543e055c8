#include "vm/random/keys.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/vm/random/vectors.h"
#include "vm/random/samplers.h"
#include "vm/random/threefry.h"

namespace alea::vm::random {
namespace {

using testing::AsKeys;
using testing::Numbers;
using testing::RoundedLike;

constexpr char kPublished[] = "jax_published.txt";
constexpr char kDerived[] = "jax_derived.txt";

Key Expect1(const std::vector<std::string>& v) {
  const std::vector<Key> keys = AsKeys(v);
  EXPECT_EQ(keys.size(), 1u);
  return keys.empty() ? Key{} : keys[0];
}

// C1: PRNGKey(seed). Alea's Int is 64-bit, so the rows for Python ints and
// np.int64 apply in their x64 form; np.int32/np.uint32 rows apply where the
// seed is non-negative (every mode agrees there).
TEST(Keys, SeedsPublished) {
  struct Case {
    int64_t seed;
    const char* line;
    const char* after;
  } cases[] = {
      {0, "seed=0 type=int", " -> "},
      {1, "seed=1 type=np.int32", " -> "},
      {2, "seed=2 type=np.uint32", " -> "},
      {3, "seed=3 type=np.int64", " -> "},
      {-1, "seed=-1 type=int", "x64:"},
      {-3, "seed=-3 type=np.int64", "x64:"},
      {2147483747, "seed=2147483747 (int32max+100)", " -> "},
      {2147483748, "seed=2147483748 (int32max+101)", " -> "},
      {-2147483748, "seed=-2147483748 (int32min-100)", "x64:"},
      {-2147483749, "seed=-2147483749 (int32min-101)", "x64:"},
  };
  for (const Case& c : cases) {
    const RandState s = KeyFromSeed(c.seed);
    EXPECT_EQ(s.key, Expect1(Numbers(kPublished, c.line, c.after))) << c.seed;
    EXPECT_EQ(s.n, 0u);
  }
}

// The np.int32 row for -2 ([0, 4294967294]) is a 32-bit seed, which Alea has
// not: on the 64-bit Int the high word is the sign extension, as in the
// published x64 rows for -1 and -3.
TEST(Keys, SeedsNegativeAndWide) {
  EXPECT_EQ(KeyFromSeed(-2).key, (Key{0xffffffffu, 0xfffffffeu}));
  EXPECT_EQ(KeyFromSeed(INT64_MIN).key, (Key{0x80000000u, 0u}));
  EXPECT_EQ(KeyFromSeed(INT64_MAX).key, (Key{0x7fffffffu, 0xffffffffu}));
  EXPECT_EQ(KeyFromSeed(int64_t{1} << 32).key, (Key{1u, 0u}));
  EXPECT_EQ(KeyFromSeed((int64_t{5} << 32) + 7).key, (Key{5u, 7u}));
  EXPECT_EQ(KeyFromSeed(4294967295).key, (Key{0u, 0xffffffffu}));
}

// C2: fold_in is the same function in every mode.
TEST(Keys, FoldInPublished) {
  EXPECT_EQ(FoldIn(KeyFromSeed(0), 4).key,
            Expect1(Numbers(kPublished, "key_data(fold_in(PRNGKey(0), 4))")));
}

TEST(Keys, FoldInDerived) {
  const std::vector<Key> want = AsKeys(Numbers(kDerived, "fold_in(PRNGKey(42), 0..2)"));
  ASSERT_EQ(want.size(), 3u);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(FoldIn(KeyFromSeed(42), i).key, want[i]) << i;
}

std::vector<Key> KeysOf(const std::vector<RandState>& states) {
  std::vector<Key> out;
  for (const RandState& s : states) {
    EXPECT_EQ(s.n, 0u);
    out.push_back(s.key);
  }
  return out;
}

TEST(Keys, SplitDerived) {
  EXPECT_EQ(KeysOf(SplitN(KeyFromSeed(0), 2)),
            AsKeys(Numbers(kDerived, "P=True  split(PRNGKey(0), 2)")));
  EXPECT_EQ(KeysOf(SplitN(KeyFromSeed(0), 3)),
            AsKeys(Numbers(kDerived, "P=True  split(PRNGKey(0), 3)")));
  EXPECT_EQ(KeysOf(SplitN(KeyFromSeed(42), 2)),
            AsKeys(Numbers(kDerived, "P=True  split(PRNGKey(42), 2)")));
  const auto [a, b] = Split(KeyFromSeed(42));
  EXPECT_EQ(KeysOf({a, b}), KeysOf(SplitN(KeyFromSeed(42), 2)));
  EXPECT_TRUE(SplitN(KeyFromSeed(42), 0).empty());
}

// Partitionable split is fold_in by index, and indices past 2^32 use the high
// counter word.
TEST(Keys, SplitIsFoldLike) {
  const RandState s = KeyFromSeed(7);
  const std::vector<RandState> many = SplitN(s, 100);
  for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(many[i], FoldIn(s, i));
  const auto [a, b] = Threefry2x32(0, 7, 1, 3);
  EXPECT_EQ(SplitKey(s.key, (uint64_t{1} << 32) + 3), (Key{a, b}));
}

// C5: the module docstring's `key, subkey = split(key(0)); uniform(subkey)`.
TEST(Keys, SplitThenUniformPublished) {
  const auto [key, subkey] = Split(KeyFromSeed(0));
  float u;
  Uniform(EffectiveKey(subkey), 0, 1, 0.0f, 1.0f, &u);
  const std::vector<std::string> want =
      Numbers(kPublished, "key, subkey = split(key(0)); uniform(subkey)");
  ASSERT_EQ(want.size(), 1u);
  EXPECT_EQ(RoundedLike(u, want[0]), want[0]);
}

// C5: stateful_rng's i-th draw uses fold_in(key, i), which is Alea's i-th next.
TEST(Keys, NextIsStatefulRngPublished) {
  RandState stream = KeyFromSeed(0);
  std::vector<Key> got;
  for (int i = 0; i < 2; ++i) {
    const auto [sub, advanced] = Next(stream);
    EXPECT_EQ(sub.n, 0u);
    EXPECT_EQ(advanced.n, static_cast<uint32_t>(i + 1));
    got.push_back(sub.key);
    stream = advanced;
  }
  EXPECT_EQ(got, AsKeys(Numbers(kPublished, "stateful_rng(0).key() x2", " -> ")));
}

TEST(Keys, StatefulRng42Published) {
  RandState stream = KeyFromSeed(42);
  std::vector<float> uniforms;
  std::vector<Key> keys;
  for (int i = 0; i < 6; ++i) {
    const auto [sub, advanced] = Next(stream);
    stream = advanced;
    if (i < 4) {
      float u;
      Uniform(EffectiveKey(sub), 0, 1, 0.0f, 1.0f, &u);
      uniforms.push_back(u);
    } else {
      keys.push_back(sub.key);
    }
  }
  std::vector<std::string> want = Numbers(kPublished, "stateful_rng(42): uniform() x2");
  const std::vector<std::string> jit =
      Numbers(kPublished, "stateful_rng(42): uniform() x2", "jit_uniform() x2 = ");
  want.insert(want.end(), jit.begin(), jit.end());
  ASSERT_EQ(want.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(RoundedLike(uniforms[i], want[i]), want[i]) << i;
  EXPECT_EQ(keys, AsKeys(Numbers(kPublished, "then key() x2")));
}

// A state with n > 0 stands for fold_in(k, n) in everything but next.
TEST(Keys, CounterRule) {
  const RandState base = KeyFromSeed(1234);
  const RandState s{base.key, 3};
  const RandState folded{FoldInKey(base.key, 3), 0};
  EXPECT_EQ(EffectiveKey(s), folded.key);
  EXPECT_EQ(EffectiveKey(base), base.key);
  EXPECT_EQ(FoldIn(s, 9), FoldIn(folded, 9));
  EXPECT_EQ(Split(s), Split(folded));
  EXPECT_EQ(SplitN(s, 5), SplitN(folded, 5));
  const auto [sub, advanced] = Next(s);
  EXPECT_EQ(sub, folded);
  EXPECT_EQ(advanced, (RandState{base.key, 4}));
  // The i-th next of a stream is fold_in(key, i).
  RandState stream = base;
  for (uint32_t i = 0; i < 5; ++i) {
    const auto [sub_i, next_stream] = Next(stream);
    EXPECT_EQ(sub_i, FoldIn(base, i));
    stream = next_stream;
  }
}

}  // namespace
}  // namespace alea::vm::random
