// The threads a VM lends to its large tensor and random operations
// (`alea run --threads N`, Vm::SetThreads). Work is split into ranges of an
// index space; every caller splits only where the result cannot depend on
// the split (independent elements, whole reduction chunks, matmul rows and
// columns), so the thread count changes speed and never a bit of the output
// (docs/decisions.md "Random kernels and threads"; docs/language.md
// "Evaluation order and determinism").
//
// One pool per Vm, used from the thread running that Vm only. The workers
// start on the first loop that wants more than one thread, so a program that
// never runs a large op never creates a thread.
#ifndef ALEA_VM_THREAD_POOL_H_
#define ALEA_VM_THREAD_POOL_H_

#include <cstdint>
#include <memory>

#include "absl/functional/function_ref.h"

namespace alea::vm {

class ThreadPool {
 public:
  // `threads`: how many threads run a loop, the caller's included (at least
  // 1; 1 runs everything on the caller).
  explicit ThreadPool(int threads = 1);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return threads_; }
  // Changes the thread count for later loops (workers already started past
  // the new count are stopped).
  void SetThreads(int threads);

  // The number of hardware threads (std::thread::hardware_concurrency, at
  // least 1): the default of `alea run`.
  static int HardwareThreads();

  // Calls body(range, begin, end) for ranges 0..RangesFor(...)-1, which are
  // consecutive and cover [0, n) exactly once, on up to threads() threads at
  // once (the caller is one of them), and returns when every call has
  // returned. Each range but the first starts at a multiple of `align`
  // (>= 1), and no more ranges are made than leave each at least
  // `min_range` elements (and none empty), so small loops run as one call
  // on the caller. Ranges run in no particular order. `body` must not touch
  // the VM's heap or its JIT (it may call kernels obtained beforehand).
  void ParallelFor(int64_t n, int64_t align, int64_t min_range,
                   absl::FunctionRef<void(int range, int64_t begin, int64_t end)> body);

  // How many ranges ParallelFor(n, align, min_range, ...) makes (0 for
  // n <= 0, at most threads()): for callers that keep per-range scratch
  // space or partial results.
  int RangesFor(int64_t n, int64_t align, int64_t min_range) const;

  // When splitting pays (docs/decisions.md "Random kernels and threads"): a
  // range must hold several times the work that handing it to another
  // thread costs. kHandOffNs is that cost, from post to the worker running
  // its range, as bench/tensor/pool_handoff_bench and a 2-range loop timed
  // with the worker's share counted showed on the 2-vCPU Xeon VM this was
  // tuned on (best of 10 repetitions): a worker still spinning from the last
  // loop adds ~1 us when both vCPUs are free, but with ranges of 3.9 us it
  // claimed almost none (the caller had finished both first) and with ranges
  // of 7.8 us it started ~4.5 us late; waking a sleeping worker (a futex)
  // costs the caller ~1-3 us. So 5 us.
  static constexpr double kHandOffNs = 5000;
  // Each range holds at least this many ns of one thread's work, so that the
  // hand-off costs at most a quarter of the time a split saves; a worker
  // that is late or off its core costs the caller only the ranges it then
  // runs itself (thread_pool.cc).
  static constexpr double kMinRangeNs = 4 * kHandOffNs;
  // The `min_range` for ParallelFor over items that each cost `ns_per_item`
  // of one thread's time (the callers' constants say how they were
  // measured): at least 1.
  // Items that cost nothing (an empty row: ns_per_item 0, so `items` is
  // infinite) are never split; the cast of an infinity would be undefined.
  static constexpr int64_t MinRange(double ns_per_item) {
    const double items = kMinRangeNs / ns_per_item;
    if (!(items < 0x1p50)) return int64_t{1} << 50;
    return items < 1 ? 1 : static_cast<int64_t>(items + 0.999999);
  }

 private:
  struct Workers;  // threads, the job being run, and their synchronisation
  int threads_;
  std::unique_ptr<Workers> workers_;
};

}  // namespace alea::vm

#endif  // ALEA_VM_THREAD_POOL_H_
