// Dense checks of Alea's f32 math (vm/kernels/math_f32.h) against the
// references of tests/vm/kernels/math_f32_reference.h, split over the
// machine's cores. By default each block of 2^22 consecutive bit patterns
// contributes its first 2^18 (a sixteenth of all inputs, every binade of both
// signs visited with long runs of adjacent inputs), which keeps CI within its
// budget; ALEA_EXHAUSTIVE=1 checks all 2^32 inputs (about 25 minutes on two
// cores).
// Asserts the 2-ulp bound (with exact overflow/underflow/NaN behaviour) and
// prints the maximum error found, the worst input and the number of places
// where the result steps the wrong way between adjacent inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/vm/kernels/math_f32_reference.h"
#include "vm/kernels/math_f32.h"

namespace alea::vm::kernels {
namespace {

using testing::ErrorOf;
using testing::Eval;
using testing::FloatFromBits;
using testing::Fn;
using testing::FnName;
using testing::Reference;
using testing::Symmetry;
using testing::TraitsOf;

struct Stats {
  double max_err = 0.0;
  uint32_t worst = 0;
  uint64_t over_bound = 0;
  uint32_t first_over = 0;
  uint64_t non_monotone = 0;
  uint32_t first_non_monotone = 0;

  void Merge(const Stats& o) {
    if (o.max_err > max_err) {
      max_err = o.max_err;
      worst = o.worst;
    }
    if (o.over_bound > 0 && (over_bound == 0 || o.first_over < first_over)) {
      first_over = o.first_over;
    }
    over_bound += o.over_bound;
    if (o.non_monotone > 0 && (non_monotone == 0 || o.first_non_monotone < first_non_monotone)) {
      first_non_monotone = o.first_non_monotone;
    }
    non_monotone += o.non_monotone;
  }
};

// Bit patterns b - 1 and b are adjacent floats of one sign: b - 1 < b in
// value for positive patterns, b - 1 > b for negative ones. A monotone
// function (testing::FnTraits) must not move against the input; an even one
// must move with |x|.
bool StepsWrongWay(Fn fn, uint32_t b, float prev_f, float f) {
  const testing::FnTraits traits = TraitsOf(fn);
  if (traits.direction == 0) return false;
  if (b == 0 || b == 0x80000000u) return false;
  if (std::isnan(prev_f) || std::isnan(f)) return false;
  // +1 when f must not decrease from pattern b - 1 to b.
  int want = (b & 0x80000000u) == 0 ? traits.direction : -traits.direction;
  if ((b & 0x80000000u) != 0 && traits.symmetry == Symmetry::kEven) want = traits.direction;
  return want > 0 ? f < prev_f : f > prev_f;
}

// Odd and even functions are checked for x >= 0 against the reference and
// for x < 0 bitwise by their symmetry, which halves the cost of the long
// double erfinv sweep.
Stats Sweep(Fn fn) {
  const Symmetry symmetry = TraitsOf(fn).symmetry;
  constexpr uint64_t kChunk = uint64_t{1} << 22;
  const char* exhaustive = std::getenv("ALEA_EXHAUSTIVE");
  const uint64_t per_chunk =
      exhaustive != nullptr && std::string(exhaustive) == "1" ? kChunk : kChunk / 16;
  constexpr uint64_t kTotal = uint64_t{1} << 32;
  std::atomic<uint64_t> next{0};
  std::mutex mu;
  Stats total;
  auto worker = [&] {
    Stats local;
    for (;;) {
      uint64_t begin = next.fetch_add(kChunk);
      if (begin >= kTotal) break;
      uint32_t first = static_cast<uint32_t>(begin);
      float prev_f = first == 0 ? 0.0f : Eval(fn, FloatFromBits(first - 1));
      for (uint64_t i = begin; i < begin + per_chunk; ++i) {
        uint32_t b = static_cast<uint32_t>(i);
        float x = FloatFromBits(b);
        float got = Eval(fn, x);
        double err;
        if (symmetry != Symmetry::kNone && (b & 0x80000000u)) {
          float pos = Eval(fn, -x);
          float want = symmetry == Symmetry::kOdd ? -pos : pos;
          err = (std::isnan(got) && std::isnan(pos)) ||
                        std::bit_cast<uint32_t>(got) == std::bit_cast<uint32_t>(want)
                    ? 0.0
                    : std::numeric_limits<double>::infinity();
        } else {
          err = ErrorOf(fn, x, got, Reference(fn, x, got));
        }
        if (!(err <= 2.0)) {
          if (local.over_bound++ == 0) local.first_over = b;
        }
        if (err > local.max_err) {
          local.max_err = err;
          local.worst = b;
        }
        if (StepsWrongWay(fn, b, prev_f, got)) {
          if (local.non_monotone++ == 0) local.first_non_monotone = b;
        }
        prev_f = got;
      }
    }
    std::lock_guard<std::mutex> lock(mu);
    total.Merge(local);
  };
  unsigned n = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < n; ++i) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  return total;
}

void CheckAll(Fn fn) {
  auto start = std::chrono::steady_clock::now();
  Stats s = Sweep(fn);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "[ f32 sweep ] %-8s max %.3f ulp at %a; %llu over 2 ulp; %llu non-monotone steps"
      " (first at %a); %.1f s\n",
      FnName(fn), s.max_err, FloatFromBits(s.worst), static_cast<unsigned long long>(s.over_bound),
      static_cast<unsigned long long>(s.non_monotone), FloatFromBits(s.first_non_monotone), secs);
  EXPECT_EQ(s.over_bound, 0u) << FnName(fn) << ": first input over 2 ulp: " << std::hexfloat
                              << FloatFromBits(s.first_over);
}

TEST(MathF32ExhaustiveTest, Exp) { CheckAll(Fn::kExp); }
TEST(MathF32ExhaustiveTest, Log) { CheckAll(Fn::kLog); }
TEST(MathF32ExhaustiveTest, Log1p) { CheckAll(Fn::kLog1p); }
TEST(MathF32ExhaustiveTest, Tanh) { CheckAll(Fn::kTanh); }
TEST(MathF32ExhaustiveTest, Sigmoid) { CheckAll(Fn::kSigmoid); }
TEST(MathF32ExhaustiveTest, Erfinv) { CheckAll(Fn::kErfinv); }
TEST(MathF32ExhaustiveTest, Floor) { CheckAll(Fn::kFloor); }
TEST(MathF32ExhaustiveTest, Ceil) { CheckAll(Fn::kCeil); }
TEST(MathF32ExhaustiveTest, Round) { CheckAll(Fn::kRound); }
TEST(MathF32ExhaustiveTest, Trunc) { CheckAll(Fn::kTrunc); }
TEST(MathF32ExhaustiveTest, Sign) { CheckAll(Fn::kSign); }
TEST(MathF32ExhaustiveTest, Expm1) { CheckAll(Fn::kExpm1); }
TEST(MathF32ExhaustiveTest, Sinh) { CheckAll(Fn::kSinh); }
TEST(MathF32ExhaustiveTest, Cosh) { CheckAll(Fn::kCosh); }
TEST(MathF32ExhaustiveTest, Erf) { CheckAll(Fn::kErf); }
TEST(MathF32ExhaustiveTest, Sin) { CheckAll(Fn::kSin); }
TEST(MathF32ExhaustiveTest, Cos) { CheckAll(Fn::kCos); }
TEST(MathF32ExhaustiveTest, Tan) { CheckAll(Fn::kTan); }
TEST(MathF32ExhaustiveTest, Atan) { CheckAll(Fn::kAtan); }
TEST(MathF32ExhaustiveTest, Asin) { CheckAll(Fn::kAsin); }
TEST(MathF32ExhaustiveTest, Acos) { CheckAll(Fn::kAcos); }
TEST(MathF32ExhaustiveTest, Erfc) { CheckAll(Fn::kErfc); }
TEST(MathF32ExhaustiveTest, Lgamma) { CheckAll(Fn::kLgamma); }

}  // namespace
}  // namespace alea::vm::kernels
