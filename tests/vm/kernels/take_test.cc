// The take reference kernel (vm/kernels/take.h): each layout path (single
// elements, short rows copied by a loop, long rows by memcpy, bool bytes)
// against a literal loop, and where the index check stops.
#include "vm/kernels/take.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace alea::vm::kernels {
namespace {

// out[o, j, k] = x[o, idx[j], k], written as plainly as possible.
template <typename E>
std::vector<E> SpecTake(int64_t outer, int64_t n, int64_t inner, const std::vector<E>& x,
                        const std::vector<int32_t>& idx) {
  std::vector<E> out;
  for (int64_t o = 0; o < outer; ++o) {
    for (int32_t i : idx) {
      for (int64_t k = 0; k < inner; ++k) out.push_back(x[(o * n + i) * inner + k]);
    }
  }
  return out;
}

TEST(Take, EveryRowLengthMatchesTheLiteralLoop) {
  std::mt19937 rng(5);
  for (int64_t inner : {1, 2, 3, 15, 16, 17, 100}) {
    for (int64_t outer : {1, 3}) {
      const int64_t n = 7;
      std::vector<uint32_t> x(outer * n * inner);
      std::iota(x.begin(), x.end(), 1000u);
      std::vector<int32_t> idx(11);
      for (int32_t& i : idx) i = static_cast<int32_t>(rng() % n);
      std::vector<uint32_t> out(outer * idx.size() * inner, 0xdeadbeef);
      EXPECT_EQ(Take(4, outer, n, inner, x.data(), idx.data(), idx.size(), out.data()), -1);
      EXPECT_EQ(out, SpecTake(outer, n, inner, x, idx)) << "inner " << inner << " outer " << outer;
    }
  }
}

TEST(Take, BoolElementsAreBytes) {
  const std::vector<uint8_t> x = {0, 1, 1, 0, 1, 0};  // [3, 2]
  const std::vector<int32_t> idx = {2, 2, 0};
  std::vector<uint8_t> rows(6), singles(9);
  EXPECT_EQ(Take(1, 1, 3, 2, x.data(), idx.data(), 3, rows.data()), -1);
  EXPECT_EQ(rows, (std::vector<uint8_t>{1, 0, 1, 0, 0, 1}));
  EXPECT_EQ(Take(1, 3, 2, 1, x.data(), std::vector<int32_t>{1, 1, 0}.data(), 3, singles.data()),
            -1);
  EXPECT_EQ(singles, (std::vector<uint8_t>{1, 1, 0, 0, 0, 1, 0, 0, 1}));
}

TEST(Take, ReportsTheFirstBadIndexNegativeOrTooLarge) {
  const std::vector<uint32_t> x = {10, 20, 30};
  std::vector<uint32_t> out(4);
  EXPECT_EQ(Take(4, 1, 3, 1, x.data(), std::vector<int32_t>{0, 2, 3, -1}.data(), 4, out.data()), 2);
  EXPECT_EQ(Take(4, 1, 3, 1, x.data(), std::vector<int32_t>{1, -1, 3}.data(), 3, out.data()), 1);
  // A negative index never wraps to a valid one, even against a huge axis.
  EXPECT_EQ(
      Take(4, 1, int64_t{1} << 40, 1, x.data(), std::vector<int32_t>{-1}.data(), 1, out.data()), 0);
  // Rows of no elements are still checked (np.take does), but no outer
  // block means no check at all.
  EXPECT_EQ(Take(4, 2, 3, 0, x.data(), std::vector<int32_t>{7}.data(), 1, out.data()), 0);
  EXPECT_EQ(Take(4, 0, 3, 5, x.data(), std::vector<int32_t>{7}.data(), 1, out.data()), -1);
}

TEST(Take, NoIndicesWritesNothing) {
  const std::vector<uint32_t> x = {1, 2};
  EXPECT_EQ(Take(4, 2, 1, 1, x.data(), nullptr, 0, nullptr), -1);
}

}  // namespace
}  // namespace alea::vm::kernels
