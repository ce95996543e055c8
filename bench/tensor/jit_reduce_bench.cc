// The JIT's whole-sequence f32 reductions (vm/jit/jit.h ReduceF32) against
// the reference kernel (vm/kernels/reduce.h) on 10^7 contiguous f32: sum and
// max, single-threaded. Each call reads 40 MB. Within a chunk of 65536 each
// of the 16 lanes is one dependent chain (the fixed order), so a single
// chunk runs at the add's latency; the JIT gets its speed from reducing four
// independent chunks side by side (and, for max, from a NaN-free vmaxps
// pass), the reference from the compiler's vectorisation of the lanes.
// `_unaligned` starts one float past a 64-byte boundary (a view).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <random>

#include "vm/dtype.h"
#include "vm/jit/jit.h"
#include "vm/kernels/reduce.h"

namespace alea::vm {
namespace {

constexpr int64_t kN = 10'000'000;

// 64-byte aligned, as the VM's tensors are, with one element of slack so
// that the unaligned variants can start one float in (a view's alignment).
const float* Data() {
  static const float* data = [] {
    auto* p = static_cast<float*>(std::aligned_alloc(64, (kN + 16) * sizeof(float)));
    std::mt19937 rng(1);
    std::normal_distribution<float> normal;
    for (int64_t i = 0; i < kN + 16; ++i) p[i] = normal(rng);
    return p;
  }();
  return data;
}

void SetCounters(benchmark::State& state) {
  state.SetBytesProcessed(state.iterations() * kN * static_cast<int64_t>(sizeof(float)));
  state.SetItemsProcessed(state.iterations() * kN);
}

void Reference(benchmark::State& state, kernels::ReduceOp op) {
  const float* in = Data();
  float out = 0;
  for (auto _ : state) {
    kernels::Reduce(op, DType::kF32, 1, kN, 1, in, &out);
    benchmark::DoNotOptimize(out);
  }
  SetCounters(state);
}

void Jitted(benchmark::State& state, kernels::ReduceOp op, jit::Isa isa, int offset = 0) {
  const float* in = Data() + offset;
  jit::Jit jit;
  jit::ReduceF32Fn fn = jit.ReduceF32(op, isa);
  if (fn == nullptr) {
    state.SkipWithError("no JIT kernel on this CPU");
    return;
  }
  for (auto _ : state) {
    float out = fn(in, kN);
    benchmark::DoNotOptimize(out);
  }
  SetCounters(state);
}

BENCHMARK_CAPTURE(Reference, sum, kernels::ReduceOp::kSum)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, sum_avx2, kernels::ReduceOp::kSum, jit::Isa::kAvx2)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, sum_avx512, kernels::ReduceOp::kSum, jit::Isa::kAvx512)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, sum_avx2_unaligned, kernels::ReduceOp::kSum, jit::Isa::kAvx2, 1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, sum_avx512_unaligned, kernels::ReduceOp::kSum, jit::Isa::kAvx512, 1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Reference, max, kernels::ReduceOp::kMax)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, max_avx2, kernels::ReduceOp::kMax, jit::Isa::kAvx2)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, max_avx512, kernels::ReduceOp::kMax, jit::Isa::kAvx512)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, max_avx512_unaligned, kernels::ReduceOp::kMax, jit::Isa::kAvx512, 1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace alea::vm

BENCHMARK_MAIN();
