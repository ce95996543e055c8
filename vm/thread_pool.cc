// The VM's thread pool (thread_pool.h).
//
// One job at a time, posted by the pool's owner thread (the caller). A job is
// a loop of R ranges, published through one 64-bit atomic word, `job`: a
// generation number, R, and the index of the next range to hand out. The
// caller and every worker claim ranges by compare-and-swap on that word
// (next + 1), run them, and count each finished range in `completed`; the
// caller returns once all R are counted. Nobody else waits for anybody: a
// worker that wakes too late finds no range left (or a newer generation, so
// its swap fails) and goes back to waiting, and the caller, which takes
// ranges too, never waits for a worker that has not claimed one. So a
// sleeping or descheduled worker (a machine with more runnable threads than
// cores) costs the caller nothing but the ranges it then runs itself.
//
// Race-freedom by construction: the plain fields `body` and `split` are
// written before the word is published (release) and read by a thread only
// after its swap on that same generation succeeded (acquire); the caller
// writes them again only after every claimed range was counted (acq_rel on
// `completed`), and a claim is only possible while ranges are left, so no
// thread can be reading them then. TSan sees only atomics, a mutex and
// condition variables.
//
// Waking: both sides spin first (pause, then yield: on a machine with fewer
// cores than threads, yielding lets the thread being waited for run) and only
// then sleep on a condition variable. Sleeping uses the usual Dekker pairing:
// the sleeper announces itself (seq_cst) before re-checking its condition
// under the mutex, and the waker changes the condition (seq_cst) before
// checking for sleepers, so one of the two always sees the other; a waker
// that sees a sleeper takes the mutex before notifying, so the notification
// cannot fall between the sleeper's check and its wait.
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
// also bounds the range count and index stored in the job word.
constexpr int kMaxThreads = 1024;
// The job word: generation << 24 | ranges << 12 | next range.
constexpr int kCountBits = 12;
constexpr uint64_t kCountMask = (uint64_t{1} << kCountBits) - 1;
constexpr int kGenerationShift = 2 * kCountBits;

int NextOf(uint64_t job) { return static_cast<int>(job & kCountMask); }
int RangesOf(uint64_t job) { return static_cast<int>((job >> kCountBits) & kCountMask); }
uint64_t GenerationOf(uint64_t job) { return job >> kGenerationShift; }

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

  std::atomic<uint64_t> job{0};
  // Written by the caller before `job` is published; read after a claim.
  const absl::FunctionRef<void(int, int64_t, int64_t)>* body = nullptr;
  Split split{};
  std::atomic<int> completed{0};  // ranges of the current job finished

  std::mutex mu;
  std::condition_variable job_cv;   // workers sleep here for a job (or stop)
  std::condition_variable done_cv;  // the caller sleeps here for `completed`
  std::atomic<int> sleeping_workers{0};
  std::atomic<bool> caller_sleeping{false};
  // Whether a job is running: a ParallelFor from inside a body (on any
  // thread) then runs its ranges in order on its own thread.
  std::atomic<bool> running{false};

  std::vector<std::unique_ptr<Worker>> workers;

  // Claims and runs ranges of the job whose word was `seen` until none is
  // left or a newer job replaced it. Nothing of the job is read before a
  // claim succeeds, and nothing after the range's count is added.
  void TakeRanges(uint64_t seen) {
    const uint64_t generation = GenerationOf(seen);
    uint64_t w = seen;
    while (GenerationOf(w) == generation && NextOf(w) < RangesOf(w)) {
      if (!job.compare_exchange_weak(w, w + 1, std::memory_order_acquire,
                                     std::memory_order_acquire)) {
        continue;  // w is the current word: another claim, or a new job
      }
      const int r = NextOf(w);
      const int ranges = RangesOf(w);
      (*body)(r, split.Begin(r), split.Begin(r + 1));
      // The last range counted wakes the caller if it sleeps (it may be
      // the caller itself, which then does not sleep).
      if (completed.fetch_add(1, std::memory_order_seq_cst) + 1 == ranges &&
          caller_sleeping.load(std::memory_order_seq_cst)) {
        std::lock_guard<std::mutex> lock(mu);
        done_cv.notify_one();
      }
      w = job.load(std::memory_order_acquire);
    }
  }

  // `seen`: the job word when the worker was created (on the caller's
  // thread, between jobs): a later generation is a job for it.
  void WorkerLoop(Worker* self, uint64_t seen) {
    for (;;) {
      auto changed = [&] {
        return GenerationOf(job.load(std::memory_order_acquire)) != GenerationOf(seen) ||
               self->stop.load(std::memory_order_relaxed);
      };
      if (!SpinUntil(changed)) {
        std::unique_lock<std::mutex> lock(mu);
        sleeping_workers.fetch_add(1, std::memory_order_seq_cst);
        while (GenerationOf(job.load(std::memory_order_seq_cst)) == GenerationOf(seen) &&
               !self->stop.load(std::memory_order_seq_cst)) {
          job_cv.wait(lock);
        }
        sleeping_workers.fetch_sub(1, std::memory_order_relaxed);
      }
      if (self->stop.load(std::memory_order_acquire)) return;
      seen = job.load(std::memory_order_acquire);
      TakeRanges(seen);
    }
  }

  // Starts workers until there are `count`.
  void Start(int count) {
    while (static_cast<int>(workers.size()) < count) {
      auto w = std::make_unique<Worker>();
      Worker* self = w.get();
      const uint64_t seen = job.load(std::memory_order_relaxed);
      w->thread = std::thread([this, self, seen] { WorkerLoop(self, seen); });
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
    body = &f;
    split = s;
    completed.store(0, std::memory_order_relaxed);
    const uint64_t generation = GenerationOf(job.load(std::memory_order_relaxed)) + 1;
    const uint64_t word = generation << kGenerationShift | static_cast<uint64_t>(s.ranges)
                                                               << kCountBits;
    job.store(word, std::memory_order_seq_cst);
    // Wake at most as many sleepers as there are ranges for them.
    const int sleepers = sleeping_workers.load(std::memory_order_seq_cst);
    if (sleepers > 0) {
      std::lock_guard<std::mutex> lock(mu);
      for (int i = 0; i < std::min(sleepers, s.ranges - 1); ++i) job_cv.notify_one();
    }
    TakeRanges(word);
    auto finished = [&] { return completed.load(std::memory_order_acquire) == s.ranges; };
    if (!SpinUntil(finished)) {
      std::unique_lock<std::mutex> lock(mu);
      caller_sleeping.store(true, std::memory_order_seq_cst);
      while (completed.load(std::memory_order_seq_cst) != s.ranges) done_cv.wait(lock);
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
