// The JIT's f32 matrix product (vm/jit/jit.h MatMulF32) against the reference
// kernel (vm/kernels/matmul.h) on square N x N operands, N = 256, 512, 1024,
// single-threaded, in GFLOP/s (2 N^3 flops per product). The reference calls
// libm's fmaf once per multiply-add, so it is two orders of magnitude slower;
// its 1024 row takes seconds per iteration.
//
// Rates are per CPU second of the benchmark thread (Google Benchmark's
// default), which stays close to an idle machine's figure when other jobs
// compete for the cores; the "Time" column is wall-clock.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "vm/dtype.h"
#include "vm/jit/jit.h"
#include "vm/kernels/matmul.h"

namespace alea::vm {
namespace {

struct Operands {
  explicit Operands(int64_t n) : a(static_cast<size_t>(n * n)), b(a.size()), out(a.size()) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (float& x : a) x = uniform(rng);
    for (float& x : b) x = uniform(rng);
  }
  std::vector<float> a, b, out;
};

// Reported as "GFLOP/s=<rate>/s": the counter is in units of 10^9 flops.
void SetCounters(benchmark::State& state, int64_t n) {
  const double gflop =
      2e-9 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  state.counters["GFLOP/s"] = benchmark::Counter(gflop * static_cast<double>(state.iterations()),
                                                 benchmark::Counter::kIsRate);
}

void Reference(benchmark::State& state) {
  const int64_t n = state.range(0);
  Operands d(n);
  for (auto _ : state) {
    kernels::MatMul(DType::kF32, n, n, n, d.a.data(), d.b.data(), d.out.data());
    benchmark::DoNotOptimize(d.out.data());
  }
  SetCounters(state, n);
}

void Jitted(benchmark::State& state, jit::Isa isa) {
  const int64_t n = state.range(0);
  Operands d(n);
  jit::Jit jit;
  // The first call compiles the kernel and sizes the packing buffers.
  if (!jit.MatMulF32(n, n, n, d.a.data(), d.b.data(), d.out.data(), nullptr, isa)) {
    state.SkipWithError("no JIT kernel on this CPU");
    return;
  }
  for (auto _ : state) {
    jit.MatMulF32(n, n, n, d.a.data(), d.b.data(), d.out.data(), nullptr, isa);
    benchmark::DoNotOptimize(d.out.data());
  }
  SetCounters(state, n);
}

BENCHMARK(Reference)->Arg(256)->Arg(512)->Arg(1024)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, avx2, jit::Isa::kAvx2)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Jitted, avx512, jit::Isa::kAvx512)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace alea::vm

BENCHMARK_MAIN();
