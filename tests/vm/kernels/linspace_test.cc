// The linspace reference kernel (vm/kernels/linspace.h): NumPy's float64
// steps, the endpoint set exactly, n = 1, the subnormal-step branch, and
// ranges written independently (as threads would), against NumPy 1.24's bits.
#include "vm/kernels/linspace.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

namespace alea::vm::kernels {
namespace {

std::vector<uint32_t> Bits(double a, double b, int64_t n) {
  std::vector<float> out(static_cast<size_t>(n));
  Linspace(a, b, n, 0, n, out.data());
  std::vector<uint32_t> bits;
  for (float f : out) bits.push_back(std::bit_cast<uint32_t>(f));
  return bits;
}

TEST(Linspace, NumPysBits) {
  // np.linspace(0.0, 1.0, 10, dtype=np.float32).view(np.uint32)
  EXPECT_EQ(
      Bits(0.0, 1.0, 10),
      (std::vector<uint32_t>{0x00000000u, 0x3de38e39u, 0x3e638e39u, 0x3eaaaaabu, 0x3ee38e39u,
                             0x3f0e38e4u, 0x3f2aaaabu, 0x3f471c72u, 0x3f638e39u, 0x3f800000u}));
  // np.linspace(0.1, 0.7, 7, dtype=np.float32): 0.1 + 6 * 0.1 is not 0.7 in
  // double, but the last element is b itself.
  EXPECT_EQ(Bits(0.1, 0.7, 7),
            (std::vector<uint32_t>{0x3dcccccdu, 0x3e4ccccdu, 0x3e99999au, 0x3ecccccdu, 0x3f000000u,
                                   0x3f19999au, 0x3f333333u}));
  // Beyond f32's range on the way: infinities after the cast, as astype.
  EXPECT_EQ(Bits(1e300, -1e300, 3), (std::vector<uint32_t>{0x7f800000u, 0u, 0xff800000u}));
}

TEST(Linspace, OneElementIsZeroTimesDeltaPlusA) {
  EXPECT_EQ(Bits(3.0, 1.0, 1), (std::vector<uint32_t>{0x40400000u}));
  // 0.0 * 1.0 + -0.0 is +0.0, as NumPy's.
  EXPECT_EQ(Bits(-0.0, 1.0, 1), (std::vector<uint32_t>{0u}));
  // 0 * inf is the default NaN (x86: 0xffc00000), as NumPy's.
  const float nan = std::bit_cast<float>(Bits(0.0, std::numeric_limits<double>::infinity(), 1)[0]);
  EXPECT_TRUE(nan != nan);
  EXPECT_TRUE(Bits(0.0, 1.0, 0).empty());
}

TEST(Linspace, SubnormalStepDividesFirst) {
  // delta / 3 rounds to 0: NumPy computes i / 3 * delta instead of i * 0.
  std::vector<float> out(4);
  const double tiny = std::numeric_limits<double>::denorm_min();
  Linspace(-0.0, -tiny, 4, 0, 4, out.data());
  EXPECT_EQ(std::bit_cast<uint32_t>(out[0]), 0x80000000u);  // -0.0 * tiny... + -0.0
  EXPECT_EQ(std::bit_cast<uint32_t>(out[3]), 0x80000000u);  // b rounds to -0.0f
}

TEST(Linspace, RangesAreIndependent) {
  std::vector<float> whole(1000), parts(1000);
  Linspace(-3.5, 17.25, 1000, 0, 1000, whole.data());
  for (int64_t begin : {0, 64, 640}) {
    const int64_t end = begin == 0 ? 64 : begin == 64 ? 640 : 1000;
    Linspace(-3.5, 17.25, 1000, begin, end, parts.data());
  }
  for (size_t i = 0; i < whole.size(); ++i) {
    EXPECT_EQ(std::bit_cast<uint32_t>(whole[i]), std::bit_cast<uint32_t>(parts[i])) << i;
  }
  EXPECT_EQ(whole.back(), 17.25f);
}

}  // namespace
}  // namespace alea::vm::kernels
