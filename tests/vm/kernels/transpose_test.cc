// kernels::TransposeReversed against the definition (every element moved to
// the reversed index, written out here as a loop over indices), for ranks 2
// to 5, sizes around the 32-element tiles, both element sizes, and split
// into ranges of the output's first axis.
#include "vm/kernels/transpose.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace alea::vm::kernels {
namespace {

// out[reversed index] = in[index], one element at a time.
template <typename T>
std::vector<T> Expected(const std::vector<int64_t>& shape, const std::vector<T>& in) {
  std::vector<T> out(in.size());
  const size_t rank = shape.size();
  std::vector<int64_t> index(rank, 0);
  for (size_t flat = 0; flat < in.size(); ++flat) {
    int64_t o = 0;
    for (size_t d = rank; d-- > 0;) o = o * shape[d] + index[d];
    out[static_cast<size_t>(o)] = in[flat];
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

template <typename T>
void Check(DType dtype, const std::vector<int64_t>& shape, std::mt19937& rng) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<T> in(static_cast<size_t>(n));
  for (T& x : in) x = static_cast<T>(rng());
  const std::vector<T> want = Expected(shape, in);
  const int64_t rows = shape.back();
  for (int64_t split : {rows, int64_t{32}, int64_t{1}}) {
    std::vector<T> out(in.size() + 8, static_cast<T>(0xa5));
    for (int64_t begin = 0; begin < rows; begin += split) {
      TransposeReversed(dtype, shape, in.data(), out.data(), begin, std::min(rows, begin + split));
    }
    EXPECT_TRUE(want.empty() || std::memcmp(out.data(), want.data(), want.size() * sizeof(T)) == 0)
        << "rank " << shape.size() << " last " << rows << " split " << split;
    for (size_t i = want.size(); i < out.size(); ++i) {
      ASSERT_EQ(out[i], static_cast<T>(0xa5)) << "wrote past the end";
    }
  }
}

TEST(TransposeKernel, ReversesTheAxes) {
  std::mt19937 rng(3);
  const std::vector<std::vector<int64_t>> shapes = {
      {1, 1},      {1, 7},       {7, 1},           {31, 33},  {32, 32},
      {65, 3},     {3, 65},      {100, 129},       {2, 3, 4}, {33, 5, 31},
      {40, 1, 70}, {3, 4, 5, 6}, {2, 3, 1, 4, 35}, {0, 5},    {5, 0, 3}};
  for (const auto& shape : shapes) {
    Check<uint32_t>(DType::kF32, shape, rng);
    Check<uint8_t>(DType::kBool, shape, rng);
  }
}

}  // namespace
}  // namespace alea::vm::kernels
