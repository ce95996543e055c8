// The counting kernels (vm/kernels/count.h): bincount's counts and its
// double-precision weighted sums, and histogram's bins against NumPy 1.24's
// np.histogram on the cases where its precision rules decide a bin (the
// expected counts were computed with NumPy 1.24), and against a plain
// search of the edges on random data.
#include "vm/kernels/count.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "vm/kernels/linspace.h"

namespace alea::vm::kernels {
namespace {

std::vector<int32_t> Hist(const std::vector<float>& x, int64_t bins, double lo, double hi) {
  std::vector<double> edges(bins + 1);
  std::vector<int32_t> counts(bins, 0);
  Histogram(PlanHistogram(lo, hi, bins), x.data(), static_cast<int64_t>(x.size()), edges.data(),
            counts.data());
  return counts;
}

TEST(BinCount, CountsEachIndex) {
  const std::vector<int32_t> idx = {3, 0, 3, 1, 3};
  std::vector<int32_t> counts(5, 0);
  BinCount(idx.data(), 5, counts.data());
  EXPECT_EQ(counts, (std::vector<int32_t>{1, 1, 0, 3, 0}));
  EXPECT_EQ(MaxIndex(idx.data(), 5), 3);
  EXPECT_EQ(MaxIndex(idx.data(), 0), -1);
  EXPECT_EQ(FirstNegative(idx.data(), 5), -1);
  const std::vector<int32_t> bad = {2, -1, 0, -5};
  EXPECT_EQ(FirstNegative(bad.data(), 4), 1);
}

TEST(BinCount, WeightsAddInDoubleThenRoundOnce) {
  // In f32, 1e8 + 1 is 1e8 and the sum would be 0; NumPy sums in float64.
  const std::vector<int32_t> idx = {0, 0, 0, 2};
  const std::vector<float> w = {1e8f, 1.0f, -1e8f, 0.1f};
  std::vector<double> sums(3, 0.0);
  std::vector<float> out(3);
  BinCountWeighted(idx.data(), w.data(), 4, 3, sums.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{1.0f, 0.0f, 0.1f}));
}

TEST(BinCount, ANaNSumKeepsItsNaNAsNumPy) {
  // inf + -inf is x86's default NaN (negative); adding a positive NaN then
  // keeps the sum's, as NumPy's `sum += w` does.
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<int32_t> idx = {0, 0, 0};
  const std::vector<float> w = {inf, -inf, std::bit_cast<float>(0x7fc00000u)};
  std::vector<double> sums(1, 0.0);
  std::vector<float> out(1);
  BinCountWeighted(idx.data(), w.data(), 3, 1, sums.data(), out.data());
  EXPECT_EQ(std::bit_cast<uint32_t>(out[0]), 0xffc00000u);
}

TEST(Histogram, EdgesAndOutsideValuesAsNumPy) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // lo and hi themselves count (the last bin is closed); NaN, infinities and
  // values outside are dropped; -0.0 is lo.
  EXPECT_EQ(Hist({0.5f, 1.5f, 2.5f, 0.0f, 3.0f, -0.0f, nan, inf, -inf, -0.5f, 3.5f}, 3, 0.0, 3.0),
            (std::vector<int32_t>{3, 1, 2}));
  // np.histogram(np.arange(11, dtype=np.float32) * np.float32(0.1), 10, (0, 1))
  std::vector<float> tenths;
  for (int i = 0; i <= 10; ++i) tenths.push_back(static_cast<float>(i) * 0.1f);
  EXPECT_EQ(Hist(tenths, 10, 0.0, 1.0), (std::vector<int32_t>{1, 1, 1, 1, 1, 1, 1, 1, 1, 2}));
}

TEST(Histogram, EstimateInFloat32AsNumPy) {
  // A range narrower than the f32 spacing: every edge is 54.671299. NumPy's
  // float32 estimate (x - f32(lo)) * f32(norm) is 0, then bumped to bin 1;
  // a float64 estimate would give 7, bumped to 8.
  std::vector<int32_t> want(37, 0);
  want[1] = 1;
  EXPECT_EQ(Hist({54.671295166015625f, 54.67129898071289f, 54.671302795410156f}, 37,
                 54.67129866124469, 54.67130029034417),
            want);
}

TEST(Histogram, WideScalarsComputeInDoubleAsNumPy) {
  // |lo|, |hi| >= 3.4e38: NumPy compares and subtracts in float64, and the
  // outer f32 edges are infinite.
  const std::vector<float> x = {-3e38f, -1.0f, 0.0f, 1.0f, 3e38f, 3.4028235e38f};
  EXPECT_EQ(Hist(x, 4, -1e39, 1e39), (std::vector<int32_t>{0, 2, 4, 0}));
  EXPECT_EQ(Hist(x, 3, -3.5e38, 3.5e38), (std::vector<int32_t>{1, 3, 2}));
  // A norm of 1e41 (>= 3.4e38): the product in float64, on f32 subnormals.
  const std::vector<float> tiny = {0.0f, 1e-41f, 2e-41f, 5e-41f, 7e-41f, 1e-40f, 1.1e-40f, -1e-45f};
  EXPECT_EQ(Hist(tiny, 10, 0.0, 1e-40), (std::vector<int32_t>{1, 1, 1, 0, 0, 1, 0, 1, 0, 1}));
}

TEST(Histogram, RandomDataLandsBetweenItsEdges) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1000.0, 1000.0);
  for (int round = 0; round < 200; ++round) {
    const int64_t bins = 1 + static_cast<int64_t>(rng() % 300);
    double lo = u(rng), hi = u(rng);
    if (lo > hi) std::swap(lo, hi);
    if (hi - lo < 1.0) continue;  // so that the f32 edges strictly increase
    std::vector<float> edges(bins + 1);
    Linspace(lo, hi, bins + 1, 0, bins + 1, edges.data());
    std::vector<float> x(500);
    for (float& v : x) v = static_cast<float>(u(rng));
    for (int64_t i = 0; i <= bins; i += 7) x.push_back(edges[i]);  // exactly on edges
    // The bin of x: edges[i] <= x < edges[i + 1], the last closed (edges are
    // strictly increasing here).
    std::vector<int32_t> want(bins, 0);
    for (float v : x) {
      if (!(v >= static_cast<float>(lo) && v <= static_cast<float>(hi))) continue;
      int64_t i = std::upper_bound(edges.begin(), edges.end(), v) - edges.begin() - 1;
      ++want[std::min(i, bins - 1)];
    }
    EXPECT_EQ(Hist(x, bins, lo, hi), want) << "bins " << bins << " lo " << lo << " hi " << hi;
  }
}

}  // namespace
}  // namespace alea::vm::kernels
