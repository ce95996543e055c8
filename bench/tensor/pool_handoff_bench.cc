// What handing work to the VM's threads costs (vm/thread_pool.h): the
// constants that decide when an op splits (ThreadPool::kHandOffNs) come from
// here. Each benchmark times ParallelFor over 2 ranges whose bodies do a
// fixed amount of work (`work` ns of arithmetic per range, calibrated on one
// thread first), on a pool of 1 thread (the ranges run one after the other
// on the caller) and of 2 (the second range goes to a worker):
//   - Awake: calls back to back, so the worker is still spinning for the
//     next job (a loop of small tensor ops);
//   - Asleep: 2 ms between calls, so the worker has gone to sleep on its
//     condition variable and must be woken (the first op after a pause).
// hand-off = time(2 threads) - time(1 thread) / 2 at work 0: the wall time a
// split adds beyond the halved work. Times are wall clock (the Asleep rows
// time only the call, not the pause). Run it with repetitions and read the
// `_min` rows:
//   pool_handoff_bench --benchmark_repetitions=20 --benchmark_min_time=0.02
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "vm/thread_pool.h"

namespace alea::vm {
namespace {

// About 1 ns per step on a current core: a dependent multiply-add chain the
// compiler cannot remove or vectorise.
uint64_t Spin(int64_t steps, uint64_t x) {
  for (int64_t i = 0; i < steps; ++i) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    benchmark::DoNotOptimize(x);
  }
  return x;
}

void Run(ThreadPool& pool, int64_t steps) {
  pool.ParallelFor(2, 1, 1, [&](int, int64_t begin, int64_t) {
    benchmark::DoNotOptimize(Spin(steps, static_cast<uint64_t>(begin)));
  });
}

void Awake(benchmark::State& state) {
  ThreadPool pool(static_cast<int>(state.range(0)));
  const int64_t steps = state.range(1);
  Run(pool, steps);  // starts the worker
  for (auto _ : state) Run(pool, steps);
}

void Asleep(benchmark::State& state) {
  ThreadPool pool(static_cast<int>(state.range(0)));
  const int64_t steps = state.range(1);
  Run(pool, steps);
  for (auto _ : state) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const auto start = std::chrono::steady_clock::now();
    Run(pool, steps);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
}

// Arguments: threads, steps of work per range.
// The fastest of the repetitions (--benchmark_repetitions=N): on a machine
// other jobs share, the runs during which the worker had a core of its own.
double Fastest(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

BENCHMARK(Awake)
    ->ArgsProduct({{1, 2}, {0, 1000, 4000, 16000}})
    ->UseRealTime()
    ->ComputeStatistics("min", Fastest);
BENCHMARK(Asleep)
    ->ArgsProduct({{1, 2}, {0, 1000, 4000, 16000}})
    ->UseManualTime()
    ->Iterations(300)  // 2 ms of sleep each: a fixed count keeps it short
    ->ComputeStatistics("min", Fastest);

}  // namespace
}  // namespace alea::vm

BENCHMARK_MAIN();
