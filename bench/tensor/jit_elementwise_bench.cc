// The JIT's elementwise kernels (vm/jit/jit.h) against the reference kernels
// (vm/kernels/elementwise.h) on 10^7 contiguous f32: `a + b` and `a * b`,
// single-threaded. Both read 80 MB and write 40 MB per call, so the numbers
// are bounded by memory bandwidth once the loop is vectorised.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "vm/dtype.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"

namespace alea::vm {
namespace {

constexpr int64_t kN = 10'000'000;

struct Buffers {
  Buffers() : a(kN), b(kN), out(kN) {
    std::mt19937 rng(1);
    std::normal_distribution<float> normal;
    for (int64_t i = 0; i < kN; ++i) {
      a[i] = normal(rng);
      b[i] = normal(rng);
    }
  }
  std::vector<float> a, b, out;
};

Buffers& Data() {
  static Buffers* buffers = new Buffers();
  return *buffers;
}

void SetCounters(benchmark::State& state) {
  state.SetBytesProcessed(state.iterations() * kN * 3 * static_cast<int64_t>(sizeof(float)));
  state.SetItemsProcessed(state.iterations() * kN);
}

void Reference(benchmark::State& state, kernels::BinaryOp op) {
  Buffers& d = Data();
  const int64_t shape[] = {kN};
  const int64_t stride[] = {1};
  for (auto _ : state) {
    kernels::Binary(op, DType::kF32, shape, {d.a.data(), stride}, {d.b.data(), stride},
                    d.out.data());
    benchmark::DoNotOptimize(d.out.data());
  }
  SetCounters(state);
}

void Jitted(benchmark::State& state, kernels::BinaryOp op, jit::Isa isa) {
  Buffers& d = Data();
  jit::Jit jit;
  jit::BinaryF32Fn fn = jit.BinaryF32(op, jit::Layout::kVectorVector, isa);
  if (fn == nullptr) {
    state.SkipWithError("no JIT kernel on this CPU");
    return;
  }
  for (auto _ : state) {
    fn(d.a.data(), d.b.data(), d.out.data(), kN);
    benchmark::DoNotOptimize(d.out.data());
  }
  SetCounters(state);
}

BENCHMARK_CAPTURE(Reference, add, kernels::BinaryOp::kAdd)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, add_avx2, kernels::BinaryOp::kAdd, jit::Isa::kAvx2)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, add_avx512, kernels::BinaryOp::kAdd, jit::Isa::kAvx512)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Reference, mul, kernels::BinaryOp::kMul)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, mul_avx2, kernels::BinaryOp::kMul, jit::Isa::kAvx2)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, mul_avx512, kernels::BinaryOp::kMul, jit::Isa::kAvx512)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace alea::vm

BENCHMARK_MAIN();
