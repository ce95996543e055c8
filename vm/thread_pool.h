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

 private:
  struct Workers;  // threads, the job being run, and their synchronisation
  int threads_;
  std::unique_ptr<Workers> workers_;
};

}  // namespace alea::vm

#endif  // ALEA_VM_THREAD_POOL_H_
