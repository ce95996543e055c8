// The JIT's math functions (vm/jit/math_f32*.cc) against the reference
// kernels (vm/kernels/math_f32*.cc), bit for bit over f32 bit patterns
// (NaN payloads, infinities, zeros, subnormals and every overflow/underflow
// boundary included), on the AVX2 path and, where the CPU has it, the
// AVX-512 path. Work is split over the machine's cores in blocks of
// consecutive patterns; the reference runs once per block and both paths
// are compared with its output. As math_f32_exhaustive_test.cc, by default
// each 2^22 patterns contribute their first 2^18 (every binade of both signs,
// long runs of adjacent inputs) to keep CI within its budget;
// ALEA_EXHAUSTIVE=1 checks all 2^32.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "vm/dtype.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"

namespace alea::vm::jit {
namespace {

using kernels::UnaryOp;

struct Mismatch {
  uint64_t count = 0;
  uint32_t first_input = 0;
  uint32_t got = 0;
  uint32_t want = 0;
};

void CheckAll(UnaryOp op) {
  Jit jit;
  if (!jit.available()) GTEST_SKIP() << "this CPU lacks AVX2+FMA: the JIT is off";
  std::vector<UnaryF32Fn> paths = {jit.UnaryF32(op, Isa::kAvx2)};
  ASSERT_NE(paths[0], nullptr);
  if (jit.has_avx512()) {
    paths.push_back(jit.UnaryF32(op, Isa::kAvx512));
    ASSERT_NE(paths[1], nullptr);
  }

  constexpr uint64_t kBlock = uint64_t{1} << 18;
  constexpr uint64_t kTotal = uint64_t{1} << 32;
  const char* exhaustive = std::getenv("ALEA_EXHAUSTIVE");
  const uint64_t step =
      exhaustive != nullptr && std::string(exhaustive) == "1" ? kBlock : kBlock * 16;
  std::atomic<uint64_t> next{0};
  std::mutex mu;
  std::vector<Mismatch> total(paths.size());
  auto worker = [&] {
    std::vector<float> in(kBlock);
    std::vector<float> want(kBlock);
    std::vector<float> got(kBlock);
    std::vector<Mismatch> local(paths.size());
    for (;;) {
      const uint64_t begin = next.fetch_add(step);
      if (begin >= kTotal) break;
      for (uint64_t i = 0; i < kBlock; ++i) {
        in[i] = std::bit_cast<float>(static_cast<uint32_t>(begin + i));
      }
      kernels::Unary(op, DType::kF32, kBlock, in.data(), want.data());
      for (size_t p = 0; p < paths.size(); ++p) {
        paths[p](in.data(), got.data(), kBlock);
        if (std::memcmp(got.data(), want.data(), kBlock * sizeof(float)) == 0) continue;
        for (uint64_t i = 0; i < kBlock; ++i) {
          const uint32_t g = std::bit_cast<uint32_t>(got[i]);
          const uint32_t w = std::bit_cast<uint32_t>(want[i]);
          if (g == w) continue;
          if (local[p].count++ == 0) {
            local[p].first_input = static_cast<uint32_t>(begin + i);
            local[p].got = g;
            local[p].want = w;
          }
        }
      }
    }
    std::lock_guard<std::mutex> lock(mu);
    for (size_t p = 0; p < paths.size(); ++p) {
      if (local[p].count > 0 &&
          (total[p].count == 0 || local[p].first_input < total[p].first_input)) {
        const uint64_t count = total[p].count;
        total[p] = local[p];
        total[p].count += count;
      } else {
        total[p].count += local[p].count;
      }
    }
  };
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  const unsigned n = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < n; ++i) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ jit sweep ] %-8s %zu path(s), %.1f s\n", kernels::Spelling(op), paths.size(),
              secs);
  for (size_t p = 0; p < paths.size(); ++p) {
    EXPECT_EQ(total[p].count, 0u) << kernels::Spelling(op) << (p == 0 ? " avx2" : " avx512")
                                  << ": first at input 0x" << std::hex << total[p].first_input
                                  << ": got 0x" << total[p].got << ", want 0x" << total[p].want;
  }
}

TEST(JitMathExhaustiveTest, Exp) { CheckAll(UnaryOp::kExp); }
TEST(JitMathExhaustiveTest, Log) { CheckAll(UnaryOp::kLog); }
TEST(JitMathExhaustiveTest, Tanh) { CheckAll(UnaryOp::kTanh); }
TEST(JitMathExhaustiveTest, Sigmoid) { CheckAll(UnaryOp::kSigmoid); }
TEST(JitMathExhaustiveTest, Floor) { CheckAll(UnaryOp::kFloor); }
TEST(JitMathExhaustiveTest, Ceil) { CheckAll(UnaryOp::kCeil); }
TEST(JitMathExhaustiveTest, Round) { CheckAll(UnaryOp::kRound); }
TEST(JitMathExhaustiveTest, Trunc) { CheckAll(UnaryOp::kTrunc); }
TEST(JitMathExhaustiveTest, Sign) { CheckAll(UnaryOp::kSign); }
TEST(JitMathExhaustiveTest, Expm1) { CheckAll(UnaryOp::kExpm1); }
TEST(JitMathExhaustiveTest, Log1p) { CheckAll(UnaryOp::kLog1p); }
TEST(JitMathExhaustiveTest, Sinh) { CheckAll(UnaryOp::kSinh); }
TEST(JitMathExhaustiveTest, Cosh) { CheckAll(UnaryOp::kCosh); }
TEST(JitMathExhaustiveTest, Erf) { CheckAll(UnaryOp::kErf); }
TEST(JitMathExhaustiveTest, Sin) { CheckAll(UnaryOp::kSin); }
TEST(JitMathExhaustiveTest, Cos) { CheckAll(UnaryOp::kCos); }
TEST(JitMathExhaustiveTest, Tan) { CheckAll(UnaryOp::kTan); }
TEST(JitMathExhaustiveTest, Atan) { CheckAll(UnaryOp::kAtan); }
TEST(JitMathExhaustiveTest, Asin) { CheckAll(UnaryOp::kAsin); }
TEST(JitMathExhaustiveTest, Acos) { CheckAll(UnaryOp::kAcos); }
TEST(JitMathExhaustiveTest, Erfc) { CheckAll(UnaryOp::kErfc); }
TEST(JitMathExhaustiveTest, Lgamma) { CheckAll(UnaryOp::kLgamma); }

}  // namespace
}  // namespace alea::vm::jit
