// The JIT's random kernels (vm/jit/jit.h, Jit::Random) against the reference
// samplers (vm/random/samplers.h), single-threaded, for every kernel on both
// ISA paths. Args: the number of values per call (10^6 fits in L2/L3 on most
// machines, 10^7 does not). The items/s counter gives values per second;
// ns/value = 1e9 / items_per_second.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "vm/jit/jit.h"
#include "vm/random/continuous.h"
#include "vm/random/keys.h"
#include "vm/random/samplers.h"

namespace alea::vm {
namespace {

using jit::RandomKernel;

constexpr random::Key kKey{0x12345678u, 0x9abcdef0u};
constexpr uint64_t kStart = (uint64_t{3} << 32) + 17;
constexpr float kLo = -2.0f, kHi = 3.0f, kP = 0.3f, kKeep = 0.9f;

struct Buffers {
  explicit Buffers(int64_t n) : x(n, 1.5f), out(n) {}
  std::vector<float> x;
  std::vector<float> out;  // also the bool bytes and the u32 bits
};

void SetCounters(benchmark::State& state, int64_t n) {
  state.SetItemsProcessed(state.iterations() * n);
}

void Reference(benchmark::State& state, RandomKernel kernel) {
  const int64_t n = state.range(0);
  Buffers b(n);
  const uint64_t count = static_cast<uint64_t>(n);
  for (auto _ : state) {
    switch (kernel) {
      case RandomKernel::kBits:
        random::Bits(kKey, kStart, count, reinterpret_cast<uint32_t*>(b.out.data()));
        break;
      case RandomKernel::kUniform:
        random::Uniform(kKey, kStart, count, kLo, kHi, b.out.data());
        break;
      case RandomKernel::kNormal:
        random::Normal(kKey, kStart, count, b.out.data());
        break;
      case RandomKernel::kExponential:
        random::Exponential(kKey, kStart, count, b.out.data());
        break;
      case RandomKernel::kBernoulli:
        random::Bernoulli(kKey, kP, kStart, count, reinterpret_cast<uint8_t*>(b.out.data()));
        break;
      case RandomKernel::kDropout:
        random::Dropout(kKey, 1.0 - kKeep, b.x.data(), kStart, count, b.out.data());
        break;
      case RandomKernel::kGumbel:
        random::Gumbel(kKey, kStart, count, b.out.data());
        break;
      case RandomKernel::kCategorical:  // a reduction, not a fill: not timed here
        break;
    }
    benchmark::DoNotOptimize(b.out.data());
    benchmark::ClobberMemory();
  }
  SetCounters(state, n);
}

void Jitted(benchmark::State& state, RandomKernel kernel, jit::Isa isa) {
  const int64_t n = state.range(0);
  Buffers b(n);
  jit::Jit jit;
  jit::RandomFn fn = jit.Random(kernel, isa);
  if (fn == nullptr) {
    state.SkipWithError("no JIT kernel on this CPU");
    return;
  }
  jit::RandomParams params;
  params.k0 = kKey.k0;
  params.k1 = kKey.k1;
  params.hi = static_cast<uint32_t>(kStart >> 32);
  params.lo = static_cast<uint32_t>(kStart);
  params.lo_bound = kLo;
  params.scale = kHi - kLo;
  params.p = kernel == RandomKernel::kDropout ? kKeep : kP;
  params.x = b.x.data();
  for (auto _ : state) {
    fn(&params, b.out.data(), n);
    benchmark::DoNotOptimize(b.out.data());
    benchmark::ClobberMemory();
  }
  SetCounters(state, n);
}

#define ALEA_RANDOM_BENCH(name, kernel)                                                      \
  BENCHMARK_CAPTURE(Reference, name, kernel)->Arg(1'000'000)->Unit(benchmark::kMillisecond); \
  BENCHMARK_CAPTURE(Jitted, name##_avx2, kernel, jit::Isa::kAvx2)                            \
      ->Arg(1'000'000)                                                                       \
      ->Arg(10'000'000)                                                                      \
      ->Unit(benchmark::kMillisecond);                                                       \
  BENCHMARK_CAPTURE(Jitted, name##_avx512, kernel, jit::Isa::kAvx512)                        \
      ->Arg(1'000'000)                                                                       \
      ->Arg(10'000'000)                                                                      \
      ->Unit(benchmark::kMillisecond)

ALEA_RANDOM_BENCH(bits, RandomKernel::kBits);
ALEA_RANDOM_BENCH(uniform, RandomKernel::kUniform);
ALEA_RANDOM_BENCH(normal, RandomKernel::kNormal);
ALEA_RANDOM_BENCH(exponential, RandomKernel::kExponential);
ALEA_RANDOM_BENCH(bernoulli, RandomKernel::kBernoulli);
ALEA_RANDOM_BENCH(dropout, RandomKernel::kDropout);
ALEA_RANDOM_BENCH(gumbel, RandomKernel::kGumbel);

// A keyed kernel (Jit::Keyed): a key and a counter per element, the gamma
// family's hashes. Element j's key is (j, j * 3), its counter (0, 1).
void Keyed(benchmark::State& state, jit::KeyedKernel kernel, jit::Isa isa) {
  const int64_t n = state.range(0);
  jit::Jit jit;
  jit::KeyedFn fn = jit.Keyed(kernel, isa);
  if (fn == nullptr) {
    state.SkipWithError("no JIT kernel on this CPU");
    return;
  }
  std::vector<uint32_t> k0(n), k1(n), c0(n, 0), c1(n, 1), y0(n), y1(n);
  for (int64_t j = 0; j < n; ++j) {
    k0[j] = static_cast<uint32_t>(j);
    k1[j] = static_cast<uint32_t>(j * 3);
  }
  jit::KeyedParams p;
  p.k0 = k0.data();
  p.k1 = k1.data();
  p.c0 = c0.data();
  p.c1 = c1.data();
  p.y0 = y0.data();
  p.y1 = y1.data();
  for (auto _ : state) {
    fn(&p, n);
    benchmark::DoNotOptimize(y0.data());
    benchmark::ClobberMemory();
  }
  SetCounters(state, n);
}

BENCHMARK_CAPTURE(Keyed, words_avx2, jit::KeyedKernel::kWords, jit::Isa::kAvx2)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Keyed, words_avx512, jit::KeyedKernel::kWords, jit::Isa::kAvx512)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Keyed, normal_avx512, jit::KeyedKernel::kNormal, jit::Isa::kAvx512)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace alea::vm

BENCHMARK_MAIN();
