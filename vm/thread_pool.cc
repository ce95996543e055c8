// Placeholder until the pool lands: every loop runs on the caller.
#include "vm/thread_pool.h"

#include <algorithm>
#include <thread>

namespace alea::vm {

struct ThreadPool::Workers {};

ThreadPool::ThreadPool(int threads) : threads_(std::max(1, threads)) {}
ThreadPool::~ThreadPool() = default;
void ThreadPool::SetThreads(int threads) { threads_ = std::max(1, threads); }
int ThreadPool::HardwareThreads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}
int ThreadPool::RangesFor(int64_t n, int64_t /*align*/, int64_t /*min_range*/) const {
  return n > 0 ? 1 : 0;
}
void ThreadPool::ParallelFor(int64_t n, int64_t /*align*/, int64_t /*min_range*/,
                             absl::FunctionRef<void(int, int64_t, int64_t)> body) {
  if (n > 0) body(0, 0, n);
}

}  // namespace alea::vm
