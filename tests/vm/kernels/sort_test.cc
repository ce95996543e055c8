// The sort-order kernels (vm/kernels/sort.h): argsort and sort against
// std::stable_sort with NumPy's comparison written out, NaN last, -0.0 equal
// to 0.0 with ties kept in input order, every axis layout; searchsorted
// against a linear scan.
#include "vm/kernels/sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "vm/dtype.h"

namespace alea::vm::kernels {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// NumPy's float `<` for sorting: NaN after everything.
bool Less(float a, float b) { return a < b || (std::isnan(b) && !std::isnan(a)); }

std::vector<int32_t> SpecArgSort(const std::vector<float>& x) {
  std::vector<int32_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return Less(x[a], x[b]); });
  return order;
}

TEST(ArgSort, NaNLastZerosEqualTiesInInputOrder) {
  const std::vector<float> x = {0.0f, -0.0f, kNaN, -1.0f, 0.0f, kNaN, kInf, -kInf, -0.0f};
  std::vector<int32_t> out(x.size());
  ArgSort(DType::kF32, 1, x.size(), 1, x.data(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{7, 3, 0, 1, 4, 8, 6, 2, 5}));
  EXPECT_EQ(out, SpecArgSort(x));
}

TEST(ArgSort, RandomF32WithManyTiesMatchesStableSort) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<float> x(1 + rng() % 300);
    for (float& v : x) {
      const uint32_t r = rng() % 10;
      v = r == 0 ? kNaN : r == 1 ? -0.0f : static_cast<float>(static_cast<int>(rng() % 7) - 3);
    }
    std::vector<int32_t> out(x.size());
    ArgSort(DType::kF32, 1, x.size(), 1, x.data(), out.data());
    EXPECT_EQ(out, SpecArgSort(x));
  }
}

TEST(ArgSort, NegativeNaNsAndExtremesOfEachDType) {
  const std::vector<float> f = {std::bit_cast<float>(0xffc00001u), -kInf, 1e-45f, -1e-45f};
  std::vector<int32_t> out(4);
  ArgSort(DType::kF32, 1, 4, 1, f.data(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{1, 3, 2, 0}));
  const std::vector<int32_t> i = {0, std::numeric_limits<int32_t>::min(), -1,
                                  std::numeric_limits<int32_t>::max()};
  ArgSort(DType::kI32, 1, 4, 1, i.data(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{1, 2, 0, 3}));
  const std::vector<uint32_t> u = {0x80000000u, 0, 0xffffffffu, 1};
  ArgSort(DType::kU32, 1, 4, 1, u.data(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{1, 3, 0, 2}));
  const std::vector<uint8_t> b = {1, 0, 1, 0};
  ArgSort(DType::kBool, 1, 4, 1, b.data(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{1, 3, 0, 2}));
}

TEST(ArgSort, AlongTheMiddleAxisOfA3dTensor) {
  // [2, 3, 2]: each (o, k) sequence of 3, elements 2 apart.
  const std::vector<int32_t> x = {5, 1, 4, 1, 3, 1, 0, 9, 0, 8, 0, 7};
  std::vector<int32_t> out(12);
  ArgSort(DType::kI32, 2, 3, 2, x.data(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{2, 0, 1, 1, 0, 2, 0, 2, 1, 1, 2, 0}));
}

TEST(Sort, KeepsTheBitsOfEqualElements) {
  const std::vector<float> x = {0.0f, -0.0f, std::bit_cast<float>(0x7fc00123u), -1.0f,
                                std::bit_cast<float>(0xffc00001u)};
  std::vector<float> out(5);
  Sort(DType::kF32, 1, 5, 1, x.data(), out.data());
  std::vector<uint32_t> bits;
  for (float v : out) bits.push_back(std::bit_cast<uint32_t>(v));
  EXPECT_EQ(bits, (std::vector<uint32_t>{0xbf800000u, 0x00000000u, 0x80000000u, 0x7fc00123u,
                                         0xffc00001u}));
}

TEST(Sort, AlongTheFirstAxis) {
  const std::vector<uint32_t> x = {3, 0, 1, 2, 2, 1};  // [3, 2], sorted down each column
  std::vector<uint32_t> out(6);
  Sort(DType::kU32, 1, 3, 2, x.data(), out.data());
  EXPECT_EQ(out, (std::vector<uint32_t>{1, 0, 2, 1, 3, 2}));
}

TEST(Sort, EmptySequencesWriteNothing) {
  Sort(DType::kF32, 3, 0, 2, nullptr, nullptr);
  ArgSort(DType::kF32, 0, 4, 1, nullptr, nullptr);
}

// The first i with !Less(sorted[i], v), by a scan.
int32_t SpecSearch(const std::vector<float>& sorted, float v) {
  int32_t i = 0;
  while (i < static_cast<int32_t>(sorted.size()) && Less(sorted[i], v)) ++i;
  return i;
}

TEST(SearchSorted, LeftSideWithNaNAndSignedZeros) {
  const std::vector<float> sorted = {-kInf, -1.0f, -0.0f, 0.0f, 0.0f, 2.0f, kInf, kNaN, kNaN};
  const std::vector<float> values = {kNaN, -kInf, -2.0f, 0.0f, -0.0f, 1.0f, 2.0f, kInf, 3.0f};
  std::vector<int32_t> out(values.size());
  SearchSorted(DType::kF32, sorted.data(), sorted.size(), values.data(), values.size(), out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{7, 0, 1, 2, 2, 5, 5, 6, 6}));
  for (size_t c = 0; c < values.size(); ++c) EXPECT_EQ(out[c], SpecSearch(sorted, values[c]));
}

TEST(SearchSorted, AscendingAndShuffledValuesAgreeWithAScan) {
  // Ascending values take the galloping path, the others bisect; both must
  // give the scan's answer at every gap size.
  std::mt19937 rng(17);
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<float> sorted(rng() % 200);
    for (float& x : sorted) x = static_cast<float>(static_cast<int>(rng() % 50) - 10);
    if (trial % 3 == 0) sorted.insert(sorted.end(), rng() % 4, kNaN);
    std::sort(sorted.begin(), sorted.end(), Less);
    std::vector<float> values(1 + rng() % 300);
    for (float& x : values) {
      const uint32_t r = rng() % 20;
      x = r == 0 ? kNaN : r == 1 ? kInf : static_cast<float>(static_cast<int>(rng() % 70) - 20);
    }
    if (trial % 2 == 0) std::sort(values.begin(), values.end(), Less);
    std::vector<int32_t> out(values.size());
    SearchSorted(DType::kF32, sorted.data(), sorted.size(), values.data(), values.size(),
                 out.data());
    for (size_t c = 0; c < values.size(); ++c) {
      ASSERT_EQ(out[c], SpecSearch(sorted, values[c])) << "trial " << trial << " value " << c;
    }
  }
}

TEST(SearchSorted, IntegersAndAnEmptySortedTensor) {
  const std::vector<int32_t> s = {-5, 0, 0, 7};
  const std::vector<int32_t> v = {std::numeric_limits<int32_t>::min(), 0, 1, 8};
  std::vector<int32_t> out(4);
  SearchSorted(DType::kI32, s.data(), 4, v.data(), 4, out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{0, 1, 3, 4}));
  const std::vector<uint32_t> us = {1, 0x80000000u};
  const std::vector<uint32_t> uv = {0x7fffffffu, 0xffffffffu};
  SearchSorted(DType::kU32, us.data(), 2, uv.data(), 2, out.data());
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 2);
  SearchSorted(DType::kF32, nullptr, 0, std::vector<float>{1.0f}.data(), 1, out.data());
  EXPECT_EQ(out[0], 0);
}

}  // namespace
}  // namespace alea::vm::kernels
