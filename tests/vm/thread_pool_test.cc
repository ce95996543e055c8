// vm/thread_pool.h: every index of a loop is visited exactly once, by
// consecutive aligned ranges that RangesFor predicts, on up to threads()
// threads; small loops stay on the caller; nested loops, thread count
// changes, destruction in every state and many back-to-back loops.
#include "vm/thread_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"

namespace alea::vm {
namespace {

struct Range {
  int range;
  int64_t begin, end;
};

// Runs one loop and checks its ranges: numbered 0..R-1 with R ==
// RangesFor, consecutive, non-empty, covering [0, n), aligned, each index
// visited once.
void CheckLoop(ThreadPool& pool, int64_t n, int64_t align, int64_t min_range) {
  const std::string what = absl::StrCat("n=", n, " align=", align, " min_range=", min_range,
                                        " threads=", pool.threads());
  std::mutex mu;
  std::vector<Range> ranges;
  std::vector<std::atomic<int>> visits(static_cast<size_t>(std::max<int64_t>(n, 0)));
  pool.ParallelFor(n, align, min_range, [&](int r, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) visits[static_cast<size_t>(i)].fetch_add(1);
    std::lock_guard<std::mutex> lock(mu);
    ranges.push_back({r, begin, end});
  });
  const int expected = pool.RangesFor(n, align, min_range);
  ASSERT_EQ(static_cast<int>(ranges.size()), expected) << what;
  if (n <= 0) {
    EXPECT_EQ(expected, 0) << what;
    return;
  }
  EXPECT_GE(expected, 1) << what;
  EXPECT_LE(expected, pool.threads()) << what;
  std::sort(ranges.begin(), ranges.end(),
            [](const Range& a, const Range& b) { return a.range < b.range; });
  int64_t at = 0;
  for (int r = 0; r < expected; ++r) {
    ASSERT_EQ(ranges[r].range, r) << what;
    EXPECT_EQ(ranges[r].begin, at) << what;
    EXPECT_LT(ranges[r].begin, ranges[r].end) << what << " range " << r;
    if (r > 0 && align > 0) {
      EXPECT_EQ(ranges[r].begin % align, 0) << what << " range " << r;
    }
    at = ranges[r].end;
  }
  EXPECT_EQ(at, n) << what;
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(visits[static_cast<size_t>(i)].load(), 1) << what;
}

TEST(ThreadPool, CoversEveryIndexOnce) {
  for (int threads : {1, 2, 3, 4, 7, 16}) {
    ThreadPool pool(threads);
    for (int64_t n : {0, 1, 2, 3, 7, 15, 16, 17, 63, 64, 65, 100, 1000, 4097, 65536, 100003}) {
      for (int64_t align : {1, 3, 16, 64, 1000}) {
        for (int64_t min_range : {1, 2, 10, 64, 1000, 40000}) CheckLoop(pool, n, align, min_range);
      }
    }
  }
}

TEST(ThreadPool, RangesForFollowsTheLimits) {
  ThreadPool pool(4);
  EXPECT_EQ(pool.RangesFor(0, 1, 1), 0);
  EXPECT_EQ(pool.RangesFor(-5, 1, 1), 0);
  EXPECT_EQ(pool.RangesFor(1, 1, 1), 1);
  EXPECT_EQ(pool.RangesFor(100, 1, 1), 4);       // at most threads()
  EXPECT_EQ(pool.RangesFor(100, 1, 50), 2);      // each at least min_range
  EXPECT_EQ(pool.RangesFor(100, 1, 101), 1);     // too small to split
  EXPECT_EQ(pool.RangesFor(100, 64, 1), 2);      // two aligned blocks
  EXPECT_EQ(pool.RangesFor(1 << 20, 64, 1), 4);  // plenty
  EXPECT_EQ(pool.RangesFor(100, 0, 0), 4);       // align and min_range below 1 act as 1
  ThreadPool one(1);
  EXPECT_EQ(one.RangesFor(1 << 20, 1, 1), 1);
}

TEST(ThreadPool, MinRangeOfFreeItemsIsNeverSplit) {
  // An empty row costs 0 ns: the range is finite and large, not the cast of
  // an infinity (undefined; UBSan's float-cast-overflow found it).
  EXPECT_EQ(ThreadPool::MinRange(0.0), int64_t{1} << 50);
  EXPECT_EQ(ThreadPool::MinRange(1e-300), int64_t{1} << 50);
  EXPECT_EQ(ThreadPool::MinRange(ThreadPool::kMinRangeNs), 1);
  EXPECT_EQ(ThreadPool(2).RangesFor(1000, 64, ThreadPool::MinRange(0.0)), 1);
}

TEST(ThreadPool, SmallLoopsRunOnTheCaller) {
  ThreadPool pool(4);
  const std::thread::id caller = std::this_thread::get_id();
  int calls = 0;
  pool.ParallelFor(1000, 1, 1000, [&](int r, int64_t begin, int64_t end) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    EXPECT_EQ(r, 0);
    EXPECT_EQ(begin, 0);
    EXPECT_EQ(end, 1000);
    ++calls;
  });
  EXPECT_EQ(calls, 1);
}

TEST(ThreadPool, UsesSeveralThreads) {
  // Each range waits (bounded) until another range has started, so a pool
  // that ran the ranges one after another on one thread is caught.
  ThreadPool pool(4);
  std::atomic<int> started{0};
  std::mutex mu;
  std::set<std::thread::id> ids;
  bool overlapped = false;
  for (int attempt = 0; attempt < 20 && !overlapped; ++attempt) {
    started = 0;
    std::atomic<bool> saw_other{false};
    pool.ParallelFor(4, 1, 1, [&](int, int64_t, int64_t) {
      started.fetch_add(1);
      for (int i = 0; i < 200000 && started.load() < 2; ++i) std::this_thread::yield();
      if (started.load() >= 2) saw_other = true;
      std::lock_guard<std::mutex> lock(mu);
      ids.insert(std::this_thread::get_id());
    });
    overlapped = saw_other.load() && ids.size() > 1;
  }
  EXPECT_TRUE(overlapped);
}

TEST(ThreadPool, NestedLoops) {
  ThreadPool pool(3);
  std::vector<std::atomic<int>> visits(64 * 100);
  pool.ParallelFor(64, 1, 1, [&](int, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      // Small (one range, on this thread) and large (split, so it runs its
      // ranges in order on this thread) inner loops.
      pool.ParallelFor(50, 1, 1000, [&](int, int64_t b, int64_t e) {
        for (int64_t j = b; j < e; ++j) visits[static_cast<size_t>(i * 100 + j)].fetch_add(1);
      });
      pool.ParallelFor(50, 1, 1, [&](int, int64_t b, int64_t e) {
        for (int64_t j = b; j < e; ++j) {
          visits[static_cast<size_t>(i * 100 + 50 + j)].fetch_add(1);
        }
      });
    }
  });
  for (auto& v : visits) ASSERT_EQ(v.load(), 1);
  CheckLoop(pool, 1000, 1, 1);  // the pool still works afterwards
}

TEST(ThreadPool, SetThreadsUpAndDown) {
  ThreadPool pool(2);
  CheckLoop(pool, 1000, 8, 1);
  for (int threads : {5, 1, 3, 8, 2, 0, 4, -3, 7, 1}) {
    pool.SetThreads(threads);
    EXPECT_EQ(pool.threads(), std::max(1, threads));
    CheckLoop(pool, 1000, 8, 1);
    CheckLoop(pool, 77, 1, 1);
  }
}

TEST(ThreadPool, DestructionInEveryState) {
  { ThreadPool never_started(8); }
  {
    ThreadPool small_only(8);
    small_only.ParallelFor(10, 1, 100, [](int, int64_t, int64_t) {});
  }
  {
    ThreadPool started(8);
    CheckLoop(started, 1000, 1, 1);
  }
  {
    ThreadPool lowered(8);
    CheckLoop(lowered, 1000, 1, 1);
    lowered.SetThreads(1);
  }
  {
    // Workers asleep by now (the spin budget is long past).
    ThreadPool sleeping(4);
    CheckLoop(sleeping, 1000, 1, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

TEST(ThreadPool, ManyBackToBackLoops) {
  ThreadPool pool(4);
  std::vector<int64_t> data(256, 0);
  for (int loop = 0; loop < 10000; ++loop) {
    pool.ParallelFor(256, 16, 1, [&](int, int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) data[static_cast<size_t>(i)] += 1;
    });
    if (loop % 2500 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  for (int64_t v : data) ASSERT_EQ(v, 10000);
}

TEST(ThreadPool, TwoRangesOnAWidePool) {
  // Only one worker takes part; the others must ignore the job (and later
  // ones too) without touching its state.
  ThreadPool pool(7);
  std::vector<int> data(2, 0);
  for (int loop = 0; loop < 2000; ++loop) {
    pool.ParallelFor(2, 1, 1, [&](int, int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) data[static_cast<size_t>(i)] += 1;
    });
    CheckLoop(pool, 7 * (loop % 3) + 1, 1, 1);
  }
  EXPECT_EQ(data[0], 2000);
  EXPECT_EQ(data[1], 2000);
}

TEST(ThreadPool, HardwareThreads) { EXPECT_GE(ThreadPool::HardwareThreads(), 1); }

}  // namespace
}  // namespace alea::vm
