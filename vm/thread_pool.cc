// The VM's thread pool (thread_pool.h).
//
// One job at a time, posted by the pool's owner thread (the caller). A job is
// a loop of R ranges; the caller and up to R - 1 workers take range indices
// from one atomic counter until none is left. The job is published through
// one 64-bit atomic word, `job`: a generation number and the count of
// workers that take part (workers 0..participants-1). A worker acts on a job
// only after reading that word, and the caller returns only once every
// participant has said it is done, so no worker can still be inside a job
// (or about to read its description) when the caller writes the next one:
// the plain fields below are ordered by the word's release/acquire and by
// `done`'s, which is what makes the pool race-free by construction (TSan
// sees only atomics, a mutex and condition variables). Workers past the
// participant count read the word and nothing else, so a loop of 2 ranges
// on an 8-thread pool waits for one worker, not seven.
//
// Waking: a loop over 64K floats takes 10-30 us, about what a futex wake-up
// costs, so both sides spin first (pause, then yield: on a machine with
// fewer cores than threads, yielding lets the thread being waited for run)
// and only then sleep on a condition variable. Sleeping uses the usual
// Dekker pairing: the sleeper announces itself (seq_cst) before re-checking
// its condition under the mutex, and the waker changes the condition
// (seq_cst) before checking for sleepers, so one of the two always sees the
// other; a waker that sees a sleeper takes the mutex before notifying, so
// the notification cannot fall between the sleeper's check and its wait.
#include "vm/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace alea::vm {
namespace {

// More threads than this would be a configuration error, not a speed-up; it
// also bounds the participant count stored in the low bits of the job word.
constexpr int kMaxThreads = 1024;
constexpr int kParticipantBits = 16;
constexpr uint64_t kParticipantMask = (uint64_t{1} << kParticipantBits) - 1;

// Spin budget before sleeping: ~kPauseSpins pause instructions (a few tens of
// microseconds), then a few yields.
constexpr int kPauseSpins = 4000;
constexpr int kYieldSpins = 50;

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

// Spins until pred() holds or the budget is spent; returns pred().
template <typename Pred>
bool SpinUntil(Pred pred) {
  for (int i = 0; i < kPauseSpins; ++i) {
    if (pred()) return true;
    CpuRelax();
  }
  for (int i = 0; i < kYieldSpins; ++i) {
    if (pred()) return true;
    std::this_thread::yield();
  }
  return pred();
}

int Clamp(int threads) { return std::clamp(threads, 1, kMaxThreads); }

// Range boundaries: the index space is cut into `units` blocks of `align`
// (the last may be short), and range r starts at block floor(units * r / R).
// With units >= R every range gets at least one block, so none is empty.
struct Split {
  int64_t n, align, units;
  int ranges;
  int64_t Begin(int r) const {
    if (r >= ranges) return n;
    return std::min(n, align * (units * r / ranges));
  }
};

Split MakeSplit(int threads, int64_t n, int64_t align, int64_t min_range) {
  Split s{n, std::max<int64_t>(1, align), 0, 0};
  if (n <= 0) return s;
  min_range = std::max<int64_t>(1, min_range);
  s.units = (n - 1) / s.align + 1;
  const int64_t by_size = std::max<int64_t>(1, n / min_range);
  s.ranges = static_cast<int>(std::min({int64_t{threads}, by_size, s.units}));
  return s;
}

}  // namespace

struct ThreadPool::Workers {
  struct Worker {
    std::thread thread;
    std::atomic<bool> stop{false};
  };

  // The job: generation << kParticipantBits | participants.
  std::atomic<uint64_t> job{0};
  // Written by the caller before `job` is published, read by participants.
  const absl::FunctionRef<void(int, int64_t, int64_t)>* body = nullptr;
  Split split{};
  std::atomic<int> next{0};  // the next range index to hand out
  std::atomic<int> done{0};  // participants finished with the current job

  std::mutex mu;
  std::condition_variable job_cv;   // workers sleep here for a job (or stop)
  std::condition_variable done_cv;  // the caller sleeps here for `done`
  std::atomic<int> sleeping_workers{0};
  std::atomic<bool> caller_sleeping{false};
  // Whether a job is running: a ParallelFor from inside a body (on any
  // thread) then runs its ranges in order on its own thread.
  std::atomic<bool> running{false};

  std::vector<std::unique_ptr<Worker>> workers;

  // Runs ranges of the current job until none is left.
  void TakeRanges() {
    const Split s = split;
    for (int r = next.fetch_add(1, std::memory_order_relaxed); r < s.ranges;
         r = next.fetch_add(1, std::memory_order_relaxed)) {
      (*body)(r, s.Begin(r), s.Begin(r + 1));
    }
  }

  // `seen`: the job word when the worker was created (on the caller's
  // thread, between jobs): any later word is a job for it.
  void WorkerLoop(int index, Worker* self, uint64_t seen) {
    for (;;) {
      auto changed = [&] {
        return job.load(std::memory_order_acquire) != seen ||
               self->stop.load(std::memory_order_relaxed);
      };
      if (!SpinUntil(changed)) {
        std::unique_lock<std::mutex> lock(mu);
        sleeping_workers.fetch_add(1, std::memory_order_seq_cst);
        while (job.load(std::memory_order_seq_cst) == seen &&
               !self->stop.load(std::memory_order_seq_cst)) {
          job_cv.wait(lock);
        }
        sleeping_workers.fetch_sub(1, std::memory_order_relaxed);
      }
      if (self->stop.load(std::memory_order_acquire)) return;
      seen = job.load(std::memory_order_acquire);
      const int participants = static_cast<int>(seen & kParticipantMask);
      if (index >= participants) continue;
      TakeRanges();
      // The last participant to finish wakes the caller if it sleeps.
      if (done.fetch_add(1, std::memory_order_seq_cst) + 1 == participants &&
          caller_sleeping.load(std::memory_order_seq_cst)) {
        std::lock_guard<std::mutex> lock(mu);
        done_cv.notify_one();
      }
    }
  }

  // Starts workers until there are `count`.
  void Start(int count) {
    while (static_cast<int>(workers.size()) < count) {
      auto w = std::make_unique<Worker>();
      Worker* self = w.get();
      const int index = static_cast<int>(workers.size());
      const uint64_t seen = job.load(std::memory_order_relaxed);
      w->thread = std::thread([this, index, self, seen] { WorkerLoop(index, self, seen); });
      workers.push_back(std::move(w));
    }
  }

  // Stops and joins the workers past the first `count`.
  void StopPast(int count) {
    if (static_cast<int>(workers.size()) <= count) return;
    for (size_t i = static_cast<size_t>(count); i < workers.size(); ++i) {
      workers[i]->stop.store(true, std::memory_order_seq_cst);
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      job_cv.notify_all();
    }
    for (size_t i = static_cast<size_t>(count); i < workers.size(); ++i) {
      workers[i]->thread.join();
    }
    workers.resize(static_cast<size_t>(count));
  }

  void Run(const absl::FunctionRef<void(int, int64_t, int64_t)>& f, const Split& s) {
    const int participants = std::min(s.ranges - 1, static_cast<int>(workers.size()));
    body = &f;
    split = s;
    next.store(0, std::memory_order_relaxed);
    done.store(0, std::memory_order_relaxed);
    const uint64_t generation = (job.load(std::memory_order_relaxed) >> kParticipantBits) + 1;
    job.store(generation << kParticipantBits | static_cast<uint64_t>(participants),
              std::memory_order_seq_cst);
    if (sleeping_workers.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(mu);
      job_cv.notify_all();
    }
    TakeRanges();
    auto finished = [&] { return done.load(std::memory_order_acquire) == participants; };
    if (!SpinUntil(finished)) {
      std::unique_lock<std::mutex> lock(mu);
      caller_sleeping.store(true, std::memory_order_seq_cst);
      while (done.load(std::memory_order_seq_cst) != participants) done_cv.wait(lock);
      caller_sleeping.store(false, std::memory_order_relaxed);
    }
    body = nullptr;
  }
};

ThreadPool::ThreadPool(int threads)
    : threads_(Clamp(threads)), workers_(std::make_unique<Workers>()) {}

ThreadPool::~ThreadPool() { workers_->StopPast(0); }

void ThreadPool::SetThreads(int threads) {
  threads_ = Clamp(threads);
  workers_->StopPast(threads_ - 1);  // raising: started by the next loop that needs them
}

int ThreadPool::HardwareThreads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

int ThreadPool::RangesFor(int64_t n, int64_t align, int64_t min_range) const {
  return MakeSplit(threads_, n, align, min_range).ranges;
}

void ThreadPool::ParallelFor(int64_t n, int64_t align, int64_t min_range,
                             absl::FunctionRef<void(int range, int64_t begin, int64_t end)> body) {
  const Split s = MakeSplit(threads_, n, align, min_range);
  if (s.ranges == 0) return;
  if (s.ranges == 1) {
    body(0, 0, n);
    return;
  }
  Workers& w = *workers_;
  if (w.running.exchange(true, std::memory_order_acquire)) {
    // Nested in a running loop (from the caller's body or a worker's): the
    // same ranges, in order, on this thread.
    for (int r = 0; r < s.ranges; ++r) body(r, s.Begin(r), s.Begin(r + 1));
    return;
  }
  w.Start(threads_ - 1);
  w.Run(body, s);
  w.running.store(false, std::memory_order_release);
}

}  // namespace alea::vm
