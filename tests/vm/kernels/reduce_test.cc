// Checks of the reduction reference kernels (vm/kernels/reduce.h) against a
// slow, literal transcription of the header's order (16 explicit lanes per
// chunk of 65536, the j+8/j+4/j+2/j+1 tree, chunks left to right), bit for
// bit, plus hand-made inputs on which the other plausible orders give a
// different sum, so a kernel with a different order cannot pass.
#include "vm/kernels/reduce.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vm/dtype.h"

namespace alea::vm::kernels {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float k2p24 = 16777216.0f;

uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }
// Bits with every NaN the same: NaN payloads of `+` are the hardware's.
uint32_t CanonicalBits(float x) { return std::isnan(x) ? 0x7fc00000u : Bits(x); }

float SpecAdd(float a, float b) { return a + b; }
float SpecMax(float a, float b) { return (a >= b || std::isnan(a)) ? a : b; }
float SpecMin(float a, float b) { return (a <= b || std::isnan(a)) ? a : b; }

// reduce.h's order, written out as plainly as possible. n == 0 gives `empty`.
template <typename T, typename Op>
T SpecReduce(const std::vector<T>& x, Op op, T identity, T empty) {
  T result = empty;
  for (size_t c = 0; c < x.size(); c += 65536) {
    const size_t end = std::min(x.size(), c + 65536);
    T lane[16];
    for (int j = 0; j < 16; ++j) lane[j] = identity;
    for (size_t i = c; i < end; ++i) {
      const size_t j = (i - c) % 16;
      lane[j] = op(lane[j], x[i]);
    }
    for (int j = 0; j < 8; ++j) lane[j] = op(lane[j], lane[j + 8]);
    for (int j = 0; j < 4; ++j) lane[j] = op(lane[j], lane[j + 4]);
    for (int j = 0; j < 2; ++j) lane[j] = op(lane[j], lane[j + 2]);
    lane[0] = op(lane[0], lane[1]);
    result = c == 0 ? lane[0] : op(result, lane[0]);
  }
  return result;
}

float SpecSum(const std::vector<float>& x) { return SpecReduce(x, SpecAdd, -0.0f, 0.0f); }
float SpecMaxOf(const std::vector<float>& x) { return SpecReduce(x, SpecMax, -kInf, kNaN); }
float SpecMinOf(const std::vector<float>& x) { return SpecReduce(x, SpecMin, kInf, kNaN); }

// np.argmax's rule, directly.
template <typename T>
int32_t SpecArgmax(const std::vector<T>& x) {
  if constexpr (std::is_same_v<T, float>) {
    for (size_t i = 0; i < x.size(); ++i) {
      if (std::isnan(x[i])) return static_cast<int32_t>(i);
    }
  }
  T best = x[0];
  for (T v : x) best = v > best ? v : best;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] == best) return static_cast<int32_t>(i);
  }
  return -1;
}

// Values of mixed magnitudes so that rounding depends on the order; built
// from raw mt19937 bits (the standard distributions differ between
// libraries).
std::vector<float> RandomFloats(std::mt19937& rng, size_t n, bool specials) {
  std::vector<float> v(n);
  for (float& x : v) {
    const float unit = static_cast<float>(rng() >> 8) * 0x1p-24f;  // [0, 1)
    x = std::ldexp(unit - 0.5f, static_cast<int>(rng() % 21) - 10);
    if (specials && rng() % 64 == 0) {
      const float kSpecial[] = {0.0f, -0.0f, kInf, -kInf, kNaN, 1e-45f};
      x = kSpecial[rng() % 6];
    }
  }
  return v;
}

float ReduceOne(ReduceOp op, const std::vector<float>& x) {
  float out = 12345.0f;
  EXPECT_EQ(Reduce(op, DType::kF32, 1, static_cast<int64_t>(x.size()), 1, x.data(), &out),
            ReduceStatus::kOk);
  return out;
}

const int64_t kSizes[] = {1, 2, 15, 16, 17, 31, 33, 1000, 65535, 65536, 65537, 200000};

TEST(ReduceF32, WholeSequenceMatchesSpecOrder) {
  std::mt19937 rng(2024);
  for (int64_t n : kSizes) {
    for (bool specials : {false, true}) {
      SCOPED_TRACE(absl::StrCat("n = ", n, specials ? " with specials" : ""));
      const std::vector<float> x = RandomFloats(rng, n, specials && n > 100);
      EXPECT_EQ(CanonicalBits(ReduceOne(ReduceOp::kSum, x)), CanonicalBits(SpecSum(x)));
      EXPECT_EQ(CanonicalBits(ReduceOne(ReduceOp::kMean, x)),
                CanonicalBits(SpecSum(x) / static_cast<float>(n)));
      EXPECT_EQ(Bits(ReduceOne(ReduceOp::kMax, x)), Bits(SpecMaxOf(x)));
      EXPECT_EQ(Bits(ReduceOne(ReduceOp::kMin, x)), Bits(SpecMinOf(x)));
      int32_t arg = -7;
      ASSERT_EQ(Reduce(ReduceOp::kArgmax, DType::kF32, 1, n, 1, x.data(), &arg), ReduceStatus::kOk);
      EXPECT_EQ(arg, SpecArgmax(x));
    }
  }
}

// The element (o, i, p) of an [outer, n, inner] view.
template <typename T>
std::vector<T> Column(const std::vector<T>& in, int64_t n, int64_t inner, int64_t o, int64_t p) {
  std::vector<T> seq(n);
  for (int64_t i = 0; i < n; ++i) seq[i] = in[(o * n + i) * inner + p];
  return seq;
}

struct View {
  int64_t outer, n, inner;
};
const View kViews[] = {{3, 1000, 5},  {2, 70000, 3}, {4, 17, 1},   {1, 5, 2000}, {2, 3, 300},
                       {1, 65537, 2}, {5, 1, 7},     {2, 16, 257}, {7, 33, 1}};

TEST(ReduceF32, AlongAnAxisMatchesSpecOrder) {
  std::mt19937 rng(77);
  for (const View& v : kViews) {
    SCOPED_TRACE(absl::StrCat("[", v.outer, ", ", v.n, ", ", v.inner, "]"));
    const std::vector<float> in = RandomFloats(rng, v.outer * v.n * v.inner, true);
    const int64_t outputs = v.outer * v.inner;
    std::vector<float> sum(outputs), mean(outputs), mx(outputs), mn(outputs);
    std::vector<int32_t> arg(outputs);
    ASSERT_EQ(Reduce(ReduceOp::kSum, DType::kF32, v.outer, v.n, v.inner, in.data(), sum.data()),
              ReduceStatus::kOk);
    ASSERT_EQ(Reduce(ReduceOp::kMean, DType::kF32, v.outer, v.n, v.inner, in.data(), mean.data()),
              ReduceStatus::kOk);
    ASSERT_EQ(Reduce(ReduceOp::kMax, DType::kF32, v.outer, v.n, v.inner, in.data(), mx.data()),
              ReduceStatus::kOk);
    ASSERT_EQ(Reduce(ReduceOp::kMin, DType::kF32, v.outer, v.n, v.inner, in.data(), mn.data()),
              ReduceStatus::kOk);
    ASSERT_EQ(Reduce(ReduceOp::kArgmax, DType::kF32, v.outer, v.n, v.inner, in.data(), arg.data()),
              ReduceStatus::kOk);
    for (int64_t o = 0; o < v.outer; ++o) {
      for (int64_t p = 0; p < v.inner; ++p) {
        const std::vector<float> seq = Column(in, v.n, v.inner, o, p);
        const int64_t k = o * v.inner + p;
        ASSERT_EQ(CanonicalBits(sum[k]), CanonicalBits(SpecSum(seq))) << o << "," << p;
        ASSERT_EQ(CanonicalBits(mean[k]), CanonicalBits(SpecSum(seq) / static_cast<float>(v.n)))
            << o << "," << p;
        ASSERT_EQ(Bits(mx[k]), Bits(SpecMaxOf(seq))) << o << "," << p;
        ASSERT_EQ(Bits(mn[k]), Bits(SpecMinOf(seq))) << o << "," << p;
        ASSERT_EQ(arg[k], SpecArgmax(seq)) << o << "," << p;
      }
    }
  }
}

// Other orders a kernel might plausibly use.
float NaiveSum(const std::vector<float>& x) {
  float s = 0.0f;
  for (float v : x) s += v;
  return s;
}
// 16 lanes over the whole sequence (no chunks), combined lane 0, 1, 2... in turn.
float LinearLanesNoChunks(const std::vector<float>& x, bool pairwise_adjacent) {
  float lane[16];
  for (float& l : lane) l = -0.0f;
  for (size_t i = 0; i < x.size(); ++i) lane[i % 16] += x[i];
  if (pairwise_adjacent) {  // a tree pairing neighbours: (0,1), (2,3)...
    for (int w = 1; w < 16; w *= 2) {
      for (int j = 0; j < 16; j += 2 * w) lane[j] += lane[j + w];
    }
    return lane[0];
  }
  float s = lane[0];
  for (int j = 1; j < 16; ++j) s += lane[j];
  return s;
}

TEST(ReduceF32, OrderIsObservable) {
  // 2^24 in lane 0, 1.0 in lanes 1..15: left to right every 1.0 is lost
  // (2^24 + 1 rounds back to 2^24); the tree adds 1, 2, 4, 8 -> 2^24 + 14.
  std::vector<float> lanes(16, 1.0f);
  lanes[0] = k2p24;
  EXPECT_EQ(ReduceOne(ReduceOp::kSum, lanes), 16777230.0f);
  EXPECT_EQ(SpecSum(lanes), 16777230.0f);
  EXPECT_EQ(NaiveSum(lanes), k2p24);
  EXPECT_EQ(LinearLanesNoChunks(lanes, false), k2p24);

  // The tree pairs lane j with j + 8 first: 2^24 + 2 is exact, then + 1
  // (lane 1) gives 2^24 + 3 -> 2^24 + 4. Pairing neighbours first loses the 1.
  std::vector<float> tree(16, 0.0f);
  tree[0] = k2p24;
  tree[1] = 1.0f;
  tree[8] = 2.0f;
  EXPECT_EQ(ReduceOne(ReduceOp::kSum, tree), 16777220.0f);
  EXPECT_EQ(SpecSum(tree), 16777220.0f);
  EXPECT_EQ(LinearLanesNoChunks(tree, true), 16777218.0f);
  EXPECT_EQ(NaiveSum(tree), 16777218.0f);

  // Chunks: 2^24 alone in chunk 0; three 1.0s in lane 0 of chunk 1 sum to 3
  // first, and 2^24 + 3 -> 2^24 + 4. Without chunks each 1.0 meets 2^24 alone.
  std::vector<float> chunks(65536 + 33, 0.0f);
  chunks[0] = k2p24;
  chunks[65536] = chunks[65536 + 16] = chunks[65536 + 32] = 1.0f;
  EXPECT_EQ(ReduceOne(ReduceOp::kSum, chunks), 16777220.0f);
  EXPECT_EQ(SpecSum(chunks), 16777220.0f);
  EXPECT_EQ(LinearLanesNoChunks(chunks, false), k2p24);
  EXPECT_EQ(LinearLanesNoChunks(chunks, true), k2p24);
  EXPECT_EQ(NaiveSum(chunks), k2p24);
  // The same along a non-last axis (the blocked path).
  std::vector<float> strided(chunks.size() * 3, 0.0f);
  for (size_t i = 0; i < chunks.size(); ++i) strided[i * 3 + 1] = chunks[i];
  std::vector<float> out(3);
  ASSERT_EQ(Reduce(ReduceOp::kSum, DType::kF32, 1, static_cast<int64_t>(chunks.size()), 3,
                   strided.data(), out.data()),
            ReduceStatus::kOk);
  EXPECT_EQ(out, (std::vector<float>{0.0f, 16777220.0f, 0.0f}));

  // On ordinary random data the orders disagree too.
  std::mt19937 rng(5);
  const std::vector<float> x = RandomFloats(rng, 200000, false);
  const float spec = SpecSum(x);
  EXPECT_EQ(Bits(ReduceOne(ReduceOp::kSum, x)), Bits(spec));
  EXPECT_NE(Bits(NaiveSum(x)), Bits(spec));
  EXPECT_NE(Bits(LinearLanesNoChunks(x, false)), Bits(spec));
}

TEST(ReduceF32, SignedZerosAndNaN) {
  // Sums: -0.0 is the lane identity, so an all -0.0 input keeps its sign.
  EXPECT_EQ(Bits(ReduceOne(ReduceOp::kSum, {-0.0f})), Bits(-0.0f));
  EXPECT_EQ(Bits(ReduceOne(ReduceOp::kSum, std::vector<float>(40, -0.0f))), Bits(-0.0f));
  EXPECT_EQ(Bits(ReduceOne(ReduceOp::kSum, {0.0f, -0.0f})), Bits(0.0f));
  // max/min by the Max/Min rules: lane 0 (first element) wins ties with lane 1.
  // (NumPy 1.24's np.max([-0.0, 0.0]) is +0.0; reduce.h is the definition.)
  EXPECT_EQ(Bits(ReduceOne(ReduceOp::kMax, {-0.0f, 0.0f})), Bits(-0.0f));
  EXPECT_EQ(Bits(ReduceOne(ReduceOp::kMax, {0.0f, -0.0f})), Bits(0.0f));
  EXPECT_EQ(Bits(ReduceOne(ReduceOp::kMin, {0.0f, -0.0f})), Bits(0.0f));
  EXPECT_EQ(Bits(ReduceOne(ReduceOp::kMin, {-0.0f, 0.0f})), Bits(-0.0f));
  // A NaN anywhere, in any chunk, wins max and min; argmax finds the first.
  for (size_t at : {size_t{0}, size_t{7}, size_t{65536}, size_t{70000}}) {
    std::vector<float> x(70001, 1.0f);
    x[at] = kNaN;
    x[70000 - (at == 70000)] = kNaN;  // a second, later NaN
    EXPECT_TRUE(std::isnan(ReduceOne(ReduceOp::kMax, x))) << at;
    EXPECT_TRUE(std::isnan(ReduceOne(ReduceOp::kMin, x))) << at;
    EXPECT_TRUE(std::isnan(ReduceOne(ReduceOp::kSum, x))) << at;
    int32_t arg = -1;
    ASSERT_EQ(Reduce(ReduceOp::kArgmax, DType::kF32, 1, 70001, 1, x.data(), &arg),
              ReduceStatus::kOk);
    EXPECT_EQ(arg, static_cast<int32_t>(std::min<size_t>(at, 69999))) << at;
  }
  EXPECT_EQ(ReduceOne(ReduceOp::kMax, {-kInf, -kInf}), -kInf);
  EXPECT_EQ(ReduceOne(ReduceOp::kMin, {kInf}), kInf);
  EXPECT_EQ(ReduceOne(ReduceOp::kMean, {1.0f, 2.0f, 3.0f, 4.0f}), 2.5f);
}

// Max/Min keep their left operand on equal zeros, so a signed zero shows
// which lane, tree position and chunk each value passed through (`+` is
// commutative and cannot). Checked on both paths: the last axis and a middle
// one.
TEST(ReduceF32, SignedZerosShowOperandOrder) {
  auto reduce_both = [](ReduceOp op, const std::vector<float>& x) {
    const int64_t n = static_cast<int64_t>(x.size());
    float whole = 1.0f;
    EXPECT_EQ(Reduce(op, DType::kF32, 1, n, 1, x.data(), &whole), ReduceStatus::kOk);
    std::vector<float> strided(x.size() * 2, 5.0f);
    for (size_t i = 0; i < x.size(); ++i) strided[2 * i] = x[i];
    std::vector<float> out(2);
    EXPECT_EQ(Reduce(op, DType::kF32, 1, n, 2, strided.data(), out.data()), ReduceStatus::kOk);
    EXPECT_EQ(out[1], 5.0f);
    EXPECT_EQ(Bits(out[0]), Bits(whole));
    return Bits(whole);
  };
  for (size_t size : {2, 16, 17, 32, 33, 65537, 65536 + 16, 65536 + 32}) {
    for (size_t at : {1, 8, 15, 16, 32, 65536, 65536 + 16}) {
      if (at >= size) continue;
      // -0.0 everywhere but one +0.0 (and the reverse): lane/chunk 0 wins
      // when it is compared directly; vm/kernels/reduce.h says what happens otherwise.
      for (float fill : {-0.0f, 0.0f}) {
        std::vector<float> x(size, fill);
        x[at] = -fill;
        SCOPED_TRACE(absl::StrCat("size ", size, ", other zero at ", at, ", fill ", fill));
        EXPECT_EQ(reduce_both(ReduceOp::kMax, x), Bits(SpecMaxOf(x)));
        EXPECT_EQ(reduce_both(ReduceOp::kMin, x), Bits(SpecMinOf(x)));
      }
    }
  }
  // Two values: lane 0 against lane 1 at the last tree step.
  EXPECT_EQ(reduce_both(ReduceOp::kMax, {-0.0f, 0.0f}), Bits(-0.0f));
  EXPECT_EQ(reduce_both(ReduceOp::kMax, {0.0f, -0.0f}), Bits(0.0f));
  // Chunk 0 against chunk 1: ((c0 op c1)), c0 kept on equal zeros.
  std::vector<float> chunks(65537, -0.0f);
  chunks[65536] = 0.0f;
  EXPECT_EQ(reduce_both(ReduceOp::kMax, chunks), Bits(-0.0f));
  EXPECT_EQ(reduce_both(ReduceOp::kMin, chunks), Bits(-0.0f));
  chunks.assign(65537, 0.0f);
  chunks[65536] = -0.0f;
  EXPECT_EQ(reduce_both(ReduceOp::kMin, chunks), Bits(0.0f));
}

TEST(ReduceArgmax, NumPyCases) {
  // np.argmax of float32 [1, nan, nan] -> 1, [-0.0, 0.0] -> 0,
  // [1, 5, inf, 5] -> 2; int32 [3, 1, 3] -> 0.
  auto arg_f32 = [](const std::vector<float>& x) {
    int32_t out = -1;
    EXPECT_EQ(Reduce(ReduceOp::kArgmax, DType::kF32, 1, static_cast<int64_t>(x.size()), 1, x.data(),
                     &out),
              ReduceStatus::kOk);
    return out;
  };
  EXPECT_EQ(arg_f32({1.0f, kNaN, kNaN}), 1);
  EXPECT_EQ(arg_f32({-0.0f, 0.0f}), 0);
  EXPECT_EQ(arg_f32({0.0f, -0.0f}), 0);
  EXPECT_EQ(arg_f32({1.0f, 5.0f, kInf, 5.0f}), 2);
  EXPECT_EQ(arg_f32({kNaN, 9.0f}), 0);
  EXPECT_EQ(arg_f32({-kInf, -kInf}), 0);
  EXPECT_EQ(arg_f32({4.0f}), 0);
  const int32_t i[] = {3, 1, 3};
  int32_t out = -1;
  ASSERT_EQ(Reduce(ReduceOp::kArgmax, DType::kI32, 1, 3, 1, i, &out), ReduceStatus::kOk);
  EXPECT_EQ(out, 0);
  const uint32_t u[] = {1, 0xFFFFFFFFu, 0x80000000u};  // unsigned order
  ASSERT_EQ(Reduce(ReduceOp::kArgmax, DType::kU32, 1, 3, 1, u, &out), ReduceStatus::kOk);
  EXPECT_EQ(out, 1);
  // [2, 3, 2] along axis 1, per (o, p) the first maximum: columns (5, 5, 7),
  // (1, 9, 9), (0, 0, 2), (9, 9, 2).
  const int32_t m[] = {5, 1, 5, 9, 7, 9, 0, 9, 0, 9, 2, 2};
  std::vector<int32_t> args(4);
  ASSERT_EQ(Reduce(ReduceOp::kArgmax, DType::kI32, 2, 3, 2, m, args.data()), ReduceStatus::kOk);
  EXPECT_EQ(args, (std::vector<int32_t>{2, 1, 2, 0}));
}

TEST(ReduceEmpty, ZeroLengthAxis) {
  const float none[1] = {0.0f};
  std::vector<float> out(4, 5.0f);
  EXPECT_EQ(Reduce(ReduceOp::kSum, DType::kF32, 2, 0, 2, none, out.data()), ReduceStatus::kOk);
  for (float v : out) EXPECT_EQ(Bits(v), Bits(0.0f));  // +0, as np.sum([])
  EXPECT_EQ(Reduce(ReduceOp::kMean, DType::kF32, 2, 0, 2, none, out.data()), ReduceStatus::kOk);
  for (float v : out) EXPECT_TRUE(std::isnan(v));
  for (ReduceOp op : {ReduceOp::kMax, ReduceOp::kMin, ReduceOp::kArgmax}) {
    std::vector<float> untouched(4, 5.0f);
    EXPECT_EQ(Reduce(op, DType::kF32, 2, 0, 2, none, untouched.data()), ReduceStatus::kEmpty);
    EXPECT_EQ(untouched, std::vector<float>(4, 5.0f));
    EXPECT_EQ(Reduce(op, DType::kI32, 1, 0, 1, none, untouched.data()), ReduceStatus::kEmpty);
    // No outputs at all: nothing to complain about.
    EXPECT_EQ(Reduce(op, DType::kF32, 0, 0, 2, none, untouched.data()), ReduceStatus::kOk);
    EXPECT_EQ(Reduce(op, DType::kF32, 3, 0, 0, none, untouched.data()), ReduceStatus::kOk);
  }
  std::vector<int32_t> isum(3, 7);
  EXPECT_EQ(Reduce(ReduceOp::kSum, DType::kI32, 3, 0, 1, none, isum.data()), ReduceStatus::kOk);
  EXPECT_EQ(isum, std::vector<int32_t>(3, 0));
}

template <typename T>
void CheckIntegerReductions(DType dtype) {
  std::mt19937 rng(11);
  for (const View& v : kViews) {
    SCOPED_TRACE(absl::StrCat("[", v.outer, ", ", v.n, ", ", v.inner, "]"));
    std::vector<T> in(v.outer * v.n * v.inner);
    // i32: values whose running sums stay in range (its sums are checked).
    for (T& x : in) {
      x = static_cast<T>(rng() % 8 == 0 ? rng() % 5 : rng());
      if (dtype == DType::kI32) x = static_cast<T>(static_cast<int32_t>(x) / 65536);
    }
    const int64_t outputs = v.outer * v.inner;
    std::vector<T> sum(outputs), mx(outputs), mn(outputs);
    std::vector<int32_t> arg(outputs);
    ASSERT_EQ(Reduce(ReduceOp::kSum, dtype, v.outer, v.n, v.inner, in.data(), sum.data()),
              ReduceStatus::kOk);
    ASSERT_EQ(Reduce(ReduceOp::kMax, dtype, v.outer, v.n, v.inner, in.data(), mx.data()),
              ReduceStatus::kOk);
    ASSERT_EQ(Reduce(ReduceOp::kMin, dtype, v.outer, v.n, v.inner, in.data(), mn.data()),
              ReduceStatus::kOk);
    ASSERT_EQ(Reduce(ReduceOp::kArgmax, dtype, v.outer, v.n, v.inner, in.data(), arg.data()),
              ReduceStatus::kOk);
    for (int64_t o = 0; o < v.outer; ++o) {
      for (int64_t p = 0; p < v.inner; ++p) {
        const std::vector<T> seq = Column(in, v.n, v.inner, o, p);
        uint64_t s = 0;
        T hi = seq[0], lo = seq[0];
        for (T x : seq) {
          s += static_cast<uint64_t>(static_cast<int64_t>(x));  // mod 2^64, then 2^32
          hi = x > hi ? x : hi;
          lo = x < lo ? x : lo;
        }
        const int64_t k = o * v.inner + p;
        ASSERT_EQ(sum[k], static_cast<T>(static_cast<uint32_t>(s))) << o << "," << p;
        ASSERT_EQ(mx[k], hi) << o << "," << p;
        ASSERT_EQ(mn[k], lo) << o << "," << p;
        ASSERT_EQ(arg[k], SpecArgmax(seq)) << o << "," << p;
      }
    }
  }
}

TEST(ReduceIntegers, I32MatchesNaive) { CheckIntegerReductions<int32_t>(DType::kI32); }
TEST(ReduceIntegers, U32MatchesNaive) { CheckIntegerReductions<uint32_t>(DType::kU32); }

TEST(ReduceIntegers, I32ChecksU32Wraps) {
  // i32: the running sum in index order must stay in range (2^31 - 1 + 1
  // fails at element 1), even where the total would fit again.
  const int32_t i[] = {2147483647, 1, -5};
  int32_t isum = 0;
  int64_t at = -1;
  ASSERT_EQ(Reduce(ReduceOp::kSum, DType::kI32, 1, 3, 1, i, &isum, 0, &at),
            ReduceStatus::kOverflow);
  EXPECT_EQ(at, 1);
  const int32_t fits[] = {2147483647, -1, 1};
  ASSERT_EQ(Reduce(ReduceOp::kSum, DType::kI32, 1, 3, 1, fits, &isum), ReduceStatus::kOk);
  EXPECT_EQ(isum, 2147483647);
  // Along axis 0 of [[1, 2^31 - 1], [2^31 - 1, 1]]: both columns fail, at
  // (1, 0) and (1, 1): the first in row-major order is reported.
  const int32_t m[] = {1, 2147483647, 2147483647, 1};
  int32_t cols[2];
  ASSERT_EQ(Reduce(ReduceOp::kSum, DType::kI32, 1, 2, 2, m, cols, 0, &at), ReduceStatus::kOverflow);
  EXPECT_EQ(at, 2);
  // Products: 65536 * 32768 = 2^31 fails; -65536 * 32768 = -2^31 fits; a 0
  // after an overflow does not undo it.
  const int32_t p1[] = {65536, 32768};
  ASSERT_EQ(Reduce(ReduceOp::kProd, DType::kI32, 1, 2, 1, p1, &isum, 0, &at),
            ReduceStatus::kOverflow);
  EXPECT_EQ(at, 1);
  const int32_t p2[] = {-65536, 32768};
  ASSERT_EQ(Reduce(ReduceOp::kProd, DType::kI32, 1, 2, 1, p2, &isum), ReduceStatus::kOk);
  EXPECT_EQ(isum, std::numeric_limits<int32_t>::min());
  const int32_t p3[] = {65536, 65536, 0};
  ASSERT_EQ(Reduce(ReduceOp::kProd, DType::kI32, 1, 3, 1, p3, &isum, 0, &at),
            ReduceStatus::kOverflow);
  EXPECT_EQ(at, 1);
  // NumPy: np.array([2**32 - 1, 2], np.uint32).sum(dtype=np.uint32) == 1.
  const uint32_t u[] = {4294967295u, 2};
  uint32_t usum = 0;
  ASSERT_EQ(Reduce(ReduceOp::kSum, DType::kU32, 1, 2, 1, u, &usum), ReduceStatus::kOk);
  EXPECT_EQ(usum, 1u);
  const uint32_t up[] = {65536, 65537, 3};
  ASSERT_EQ(Reduce(ReduceOp::kProd, DType::kU32, 1, 3, 1, up, &usum), ReduceStatus::kOk);
  EXPECT_EQ(usum, static_cast<uint32_t>(65536ull * 65537ull * 3ull));
  const int32_t neg[] = {-5, std::numeric_limits<int32_t>::min(), 3};
  int32_t v = 0;
  ASSERT_EQ(Reduce(ReduceOp::kMin, DType::kI32, 1, 3, 1, neg, &v), ReduceStatus::kOk);
  EXPECT_EQ(v, std::numeric_limits<int32_t>::min());
  ASSERT_EQ(Reduce(ReduceOp::kMax, DType::kI32, 1, 3, 1, neg, &v), ReduceStatus::kOk);
  EXPECT_EQ(v, 3);
}

}  // namespace
}  // namespace alea::vm::kernels
