// Checks of the elementwise reference kernels (vm/kernels/elementwise.h)
// against a naive index-by-index loop that follows elementwise_ops.def
// literally, plus constants printed by NumPy 1.24 (/usr/bin/python3, run
// offline) for IEEE results, integer wrap and casts.
#include "vm/kernels/elementwise.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "vm/dtype.h"
#include "vm/kernels/math_f32.h"

namespace alea::vm::kernels {
namespace {

using Shape = std::vector<int64_t>;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr int32_t kI32Min = std::numeric_limits<int32_t>::min();
constexpr int32_t kI32Max = std::numeric_limits<int32_t>::max();

uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }
float FromBits(uint32_t b) { return std::bit_cast<float>(b); }

const BinaryOp kAllBinary[] = {
#define ALEA_BINARY(name, opcode, spelling, semantics) BinaryOp::k##name,
#define ALEA_UNARY(name, opcode, spelling, semantics)
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
};

int64_t Count(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Shape Contiguous(const Shape& shape) {
  Shape s(shape.size());
  int64_t step = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = step;
    step *= shape[i];
  }
  return s;
}

// NumPy broadcasting of an operand of shape `of` against the output `shape`.
Shape BroadcastStrides(const Shape& of, const Shape& shape) {
  Shape own = Contiguous(of);
  Shape s(shape.size(), 0);
  const size_t lead = shape.size() - of.size();
  for (size_t i = 0; i < of.size(); ++i) s[lead + i] = of[i] == 1 ? 0 : own[i];
  return s;
}

// The offset, in elements, of output element `flat` in an operand.
int64_t OffsetOf(int64_t flat, const Shape& shape, const Shape& strides) {
  int64_t off = 0;
  for (size_t d = shape.size(); d-- > 0;) {
    off += (flat % shape[d]) * strides[d];
    flat /= shape[d];
  }
  return off;
}

// ---------------------------------------------------------------------------
// The semantics of elementwise_ops.def, one element at a time.

template <typename T>
T SpecArith(BinaryOp op, T a, T b) {
  if constexpr (std::is_same_v<T, float>) {
    switch (op) {
      case BinaryOp::kAdd:
        return a + b;
      case BinaryOp::kSub:
        return a - b;
      case BinaryOp::kMul:
        return a * b;
      case BinaryOp::kDiv:
        return a / b;
      case BinaryOp::kMax:
        return (a >= b || std::isnan(a)) ? a : b;
      case BinaryOp::kMin:
        return (a <= b || std::isnan(a)) ? a : b;
      case BinaryOp::kAtan2:
        return Atan2F32(a, b);
      case BinaryOp::kHypot:
        return HypotF32(a, b);
      case BinaryOp::kPow:
        return PowF32(a, b);
      case BinaryOp::kRem:
        return std::fmod(a, b);  // exact: C's fmod (NaN payloads are canonicalised)
      default:
        break;
    }
  } else {
    // Exact math in int64, reduced modulo 2^32.
    const int64_t x = a, y = b;
    int64_t r = 0;
    switch (op) {
      case BinaryOp::kAdd:
        r = x + y;
        break;
      case BinaryOp::kSub:
        r = x - y;
        break;
      case BinaryOp::kMul:
        r = static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
        break;
      case BinaryOp::kDiv:
        r = x / y;  // int64 truncates toward zero; INT32_MIN / -1 = 2^31 wraps below
        break;
      case BinaryOp::kRem:
        r = x % y;  // truncated: the dividend's sign; INT32_MIN % -1 is 0
        break;
      case BinaryOp::kMax:
        r = x > y ? x : y;
        break;
      case BinaryOp::kMin:
        r = x < y ? x : y;
        break;
      default:
        break;
    }
    return static_cast<T>(static_cast<uint32_t>(static_cast<uint64_t>(r)));
  }
  return T{};
}

template <typename T>
uint8_t SpecCompare(BinaryOp op, T a, T b) {
  switch (op) {
    case BinaryOp::kEq:
      return a == b;
    case BinaryOp::kNe:
      return a != b;
    case BinaryOp::kLt:
      return a < b;
    case BinaryOp::kLe:
      return a <= b;
    case BinaryOp::kGt:
      return a > b;
    case BinaryOp::kGe:
      return a >= b;
    default:
      return 0;
  }
}

// Bytes of the output, NaNs canonicalised (payloads of arithmetic on NaN are
// the hardware's business; the selections Max/Min are checked bitwise apart).
template <typename T>
std::vector<uint8_t> Canonical(const std::vector<T>& v) {
  std::vector<uint8_t> bytes(v.size() * sizeof(T));
  for (size_t i = 0; i < v.size(); ++i) {
    T x = v[i];
    if constexpr (std::is_same_v<T, float>) {
      if (std::isnan(x)) x = kNaN;
    }
    std::memcpy(bytes.data() + i * sizeof(T), &x, sizeof(T));
  }
  return bytes;
}

template <typename T>
std::vector<T> RandomValues(std::mt19937& rng, size_t n, bool nonzero) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, float>) {
      std::normal_distribution<float> normal(0.0f, 100.0f);
      const float kSpecial[] = {0.0f, -0.0f, kInf, -kInf, kNaN, 1.0f, -1.0f, 1e-40f};
      v[i] = rng() % 8 == 0 ? kSpecial[rng() % 8] : normal(rng);
    } else {
      const T kSpecial[] = {0, 1, static_cast<T>(-1), static_cast<T>(kI32Min),
                            static_cast<T>(kI32Max)};
      v[i] = rng() % 4 == 0 ? kSpecial[rng() % 5] : static_cast<T>(rng());
      if (rng() % 3 == 0) v[i] = static_cast<T>(static_cast<int32_t>(rng() % 201) - 100);
    }
    if (nonzero && v[i] == T{0}) v[i] = T{3};
  }
  return v;
}

// Whether i32 a op b is in i32 (the ops that are checked; the others always
// are).
bool FitsI32(BinaryOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
    case BinaryOp::kAdd:
      r = a + b;
      break;
    case BinaryOp::kSub:
      r = a - b;
      break;
    case BinaryOp::kMul:
      r = a * b;
      break;
    case BinaryOp::kDiv:
      r = b == 0 ? 0 : a / b;
      break;
    default:
      return true;
  }
  return r == static_cast<int32_t>(r);
}

struct Case {
  Shape shape, a_shape, b_shape;
};

const Case kCases[] = {
    {{2, 3}, {2, 3}, {3}},              // row broadcast
    {{2, 3}, {2, 1}, {1, 3}},           // outer product
    {{4, 5}, {4, 5}, {}},               // tensor op scalar
    {{4, 5}, {}, {4, 5}},               // scalar op tensor
    {{}, {}, {}},                       // rank 0: one element
    {{3, 0, 2}, {3, 0, 2}, {2}},        // empty
    {{2, 3, 4}, {2, 3, 4}, {2, 3, 4}},  // contiguous
    {{5, 1, 7}, {5, 1, 7}, {1, 1, 7}},  // size-1 axis
    {{5, 6, 7}, {5, 1, 7}, {1, 6, 1}},  // broadcast both ways
    {{1, 2, 1, 3, 1}, {1, 2, 1, 3, 1}, {3, 1}},
    {{3, 1000}, {3, 1000}, {1, 1000}},  // long rows
    {{70, 3}, {70, 1}, {3}},            // short rows, many of them
};

template <typename T>
void CheckBinaryCases(DType dtype) {
  std::mt19937 rng(1234);
  for (BinaryOp op : kAllBinary) {
    if (IsF32Only(op) && dtype != DType::kF32) continue;
    for (const Case& c : kCases) {
      SCOPED_TRACE(absl::StrCat(Spelling(op), " case of rank ", c.shape.size(), " with ",
                                Count(c.shape), " elements"));
      const std::vector<T> a = RandomValues<T>(rng, Count(c.a_shape), false);
      const std::vector<T> b =
          RandomValues<T>(rng, Count(c.b_shape), op == BinaryOp::kDiv || op == BinaryOp::kRem);
      const Shape sa = BroadcastStrides(c.a_shape, c.shape);
      const Shape sb = BroadcastStrides(c.b_shape, c.shape);
      const int64_t n = Count(c.shape);
      const bool cmp = IsComparison(op);
      std::vector<T> want(n);
      std::vector<uint8_t> want_bool(n);
      for (int64_t i = 0; i < n; ++i) {
        const T x = a[OffsetOf(i, c.shape, sa)];
        const T y = b[OffsetOf(i, c.shape, sb)];
        if (cmp) {
          want_bool[i] = SpecCompare<T>(op, x, y);
        } else {
          want[i] = SpecArith<T>(op, x, y);
        }
      }
      // i32 `+ - * /` stop at the first element whose exact value leaves i32.
      int64_t first_overflow = -1;
      if constexpr (std::is_same_v<T, int32_t>) {
        for (int64_t i = 0; i < n && first_overflow < 0; ++i) {
          if (!FitsI32(op, a[OffsetOf(i, c.shape, sa)], b[OffsetOf(i, c.shape, sb)])) {
            first_overflow = i;
          }
        }
      }
      std::vector<T> got(n);
      std::vector<uint8_t> got_bool(n);
      void* out = cmp ? static_cast<void*>(got_bool.data()) : static_cast<void*>(got.data());
      int64_t overflow_at = -2;
      const KernelStatus status =
          Binary(op, dtype, c.shape, {a.data(), sa}, {b.data(), sb}, out, &overflow_at);
      if (first_overflow >= 0) {
        ASSERT_EQ(status, KernelStatus::kOverflow);
        EXPECT_EQ(overflow_at, first_overflow);
        got.resize(first_overflow);
        want.resize(first_overflow);
      } else {
        ASSERT_EQ(status, KernelStatus::kOk);
      }
      if (cmp) {
        EXPECT_EQ(got_bool, want_bool);
      } else {
        EXPECT_EQ(Canonical(got), Canonical(want));
      }
    }
  }
}

TEST(ElementwiseBinary, F32MatchesSpecOnBroadcastShapes) { CheckBinaryCases<float>(DType::kF32); }
TEST(ElementwiseBinary, I32MatchesSpecOnBroadcastShapes) { CheckBinaryCases<int32_t>(DType::kI32); }
TEST(ElementwiseBinary, U32MatchesSpecOnBroadcastShapes) {
  CheckBinaryCases<uint32_t>(DType::kU32);
}

TEST(ElementwiseBinary, TransposedAndReversedOperands) {
  // a: a [3, 4] buffer read transposed as [4, 3]; b: a [4, 3] buffer read
  // with both axes reversed (negative strides from its last element).
  std::vector<float> a(12), b(12);
  for (int i = 0; i < 12; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(100 * i);
  }
  const Shape shape = {4, 3}, sa = {1, 4}, sb = {-3, -1};
  std::vector<float> got(12);
  ASSERT_EQ(
      Binary(BinaryOp::kAdd, DType::kF32, shape, {a.data(), sa}, {b.data() + 11, sb}, got.data()),
      KernelStatus::kOk);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(got[i * 3 + j], a[j * 4 + i] + b[11 - (i * 3 + j)]) << i << "," << j;
    }
  }
}

TEST(ElementwiseBinary, ExplicitBroadcastValues) {
  const std::vector<float> a = {1, 2, 3, 4, 5, 6}, b = {10, 20, 30};
  std::vector<float> got(6);
  ASSERT_EQ(Binary(BinaryOp::kAdd, DType::kF32, Shape{2, 3}, {a.data(), Shape{3, 1}},
                   {b.data(), Shape{0, 1}}, got.data()),
            KernelStatus::kOk);
  EXPECT_EQ(got, (std::vector<float>{11, 22, 33, 14, 25, 36}));
  const std::vector<int32_t> col = {1, 2}, row = {10, 20, 30};
  std::vector<int32_t> outer(6);
  ASSERT_EQ(Binary(BinaryOp::kMul, DType::kI32, Shape{2, 3}, {col.data(), Shape{1, 0}},
                   {row.data(), Shape{0, 1}}, outer.data()),
            KernelStatus::kOk);
  EXPECT_EQ(outer, (std::vector<int32_t>{10, 20, 30, 20, 40, 60}));
  const float s = 2.0f;
  std::vector<float> scaled(6);
  ASSERT_EQ(Binary(BinaryOp::kDiv, DType::kF32, Shape{2, 3}, {a.data(), Shape{3, 1}},
                   {&s, Shape{0, 0}}, scaled.data()),
            KernelStatus::kOk);
  EXPECT_EQ(scaled, (std::vector<float>{0.5f, 1, 1.5f, 2, 2.5f, 3}));
  float scalar_out = 0;
  ASSERT_EQ(
      Binary(BinaryOp::kSub, DType::kF32, Shape{}, {&a[4], Shape{}}, {&s, Shape{}}, &scalar_out),
      KernelStatus::kOk);
  EXPECT_EQ(scalar_out, 3.0f);
  // A zero-sized shape writes nothing.
  float untouched = 7.0f;
  ASSERT_EQ(Binary(BinaryOp::kDiv, DType::kI32, Shape{0, 3}, {a.data(), Shape{3, 1}},
                   {b.data(), Shape{0, 1}}, &untouched),
            KernelStatus::kOk);
  EXPECT_EQ(untouched, 7.0f);
}

TEST(ElementwiseBinary, InPlaceOverEitherOperand) {
  std::mt19937 rng(7);
  const Shape shape = {37, 53};
  const Shape full = Contiguous(shape);
  const std::vector<float> a = RandomValues<float>(rng, 37 * 53, false);
  const std::vector<float> row = RandomValues<float>(rng, 53, false);
  for (BinaryOp op : {BinaryOp::kSub, BinaryOp::kDiv, BinaryOp::kMax}) {
    std::vector<float> want(a.size());
    ASSERT_EQ(
        Binary(op, DType::kF32, shape, {a.data(), full}, {row.data(), Shape{0, 1}}, want.data()),
        KernelStatus::kOk);
    std::vector<float> in_place = a;  // out is the first operand
    ASSERT_EQ(Binary(op, DType::kF32, shape, {in_place.data(), full}, {row.data(), Shape{0, 1}},
                     in_place.data()),
              KernelStatus::kOk);
    EXPECT_EQ(Canonical(in_place), Canonical(want)) << Spelling(op);

    std::vector<float> want_rev(a.size());
    ASSERT_EQ(Binary(op, DType::kF32, shape, {row.data(), Shape{0, 1}}, {a.data(), full},
                     want_rev.data()),
              KernelStatus::kOk);
    std::vector<float> second = a;  // out is the second operand
    ASSERT_EQ(Binary(op, DType::kF32, shape, {row.data(), Shape{0, 1}}, {second.data(), full},
                     second.data()),
              KernelStatus::kOk);
    EXPECT_EQ(Canonical(second), Canonical(want_rev)) << Spelling(op);
  }
  // x op x with out == both operands.
  std::vector<int32_t> x = {1, -2, 46340, -46340};
  ASSERT_EQ(Binary(BinaryOp::kMul, DType::kI32, Shape{4}, {x.data(), Shape{1}},
                   {x.data(), Shape{1}}, x.data()),
            KernelStatus::kOk);
  EXPECT_EQ(x, (std::vector<int32_t>{1, 4, 2147395600, 2147395600}));
}

TEST(ElementwiseBinary, I32OverflowLeavesItsOperandInPlace) {
  // 600 elements (past one checked block of 256): the one at 300 overflows.
  std::vector<int32_t> x(600, 7);
  x[300] = 2000000000;
  x[450] = 2000000000;
  int64_t at = -1;
  ASSERT_EQ(Binary(BinaryOp::kAdd, DType::kI32, Shape{600}, {x.data(), Shape{1}},
                   {x.data(), Shape{1}}, x.data(), &at),
            KernelStatus::kOverflow);
  EXPECT_EQ(at, 300);
  EXPECT_EQ(x[299], 14);
  EXPECT_EQ(x[300], 2000000000);  // not written: the message can show it
  EXPECT_EQ(x[301], 7);
}

// ---------------------------------------------------------------------------
// Values cross-checked with NumPy 1.24.

template <typename T>
std::vector<T> Run1d(BinaryOp op, DType dtype, const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<T> out(a.size());
  const Shape shape = {static_cast<int64_t>(a.size())};
  EXPECT_EQ(Binary(op, dtype, shape, {a.data(), Shape{1}}, {b.data(), Shape{1}}, out.data()),
            KernelStatus::kOk);
  return out;
}

std::vector<uint32_t> BitsOf(const std::vector<float>& v) {
  std::vector<uint32_t> out;
  for (float x : v) out.push_back(Bits(x));
  return out;
}
std::vector<float> FloatsOf(const std::vector<uint32_t>& v) {
  std::vector<float> out;
  for (uint32_t x : v) out.push_back(FromBits(x));
  return out;
}

TEST(ElementwiseNumPy, F32ArithmeticBits) {
  // np.float32 arrays [0.1, 1, 3, -7.5, 1e30, 1e-30, 16777216, 0.3] and
  // [0.2, 3, 7, 2.25, 1e10, 3e-10, 1, -0.1]; results' .view(np.uint32).
  const std::vector<float> a = FloatsOf({0x3dcccccd, 0x3f800000, 0x40400000, 0xc0f00000, 0x7149f2ca,
                                         0x0da24260, 0x4b800000, 0x3e99999a});
  const std::vector<float> b = FloatsOf({0x3e4ccccd, 0x40400000, 0x40e00000, 0x40100000, 0x501502f9,
                                         0x2fa4ed3f, 0x3f800000, 0xbdcccccd});
  EXPECT_EQ(BitsOf(Run1d(BinaryOp::kAdd, DType::kF32, a, b)),
            (std::vector<uint32_t>{0x3e99999a, 0x40800000, 0x41200000, 0xc0a80000, 0x7149f2ca,
                                   0x2fa4ed3f, 0x4b800000, 0x3e4cccce}));
  EXPECT_EQ(BitsOf(Run1d(BinaryOp::kSub, DType::kF32, a, b)),
            (std::vector<uint32_t>{0xbdcccccd, 0xc0000000, 0xc0800000, 0xc11c0000, 0x7149f2ca,
                                   0xafa4ed3f, 0x4b7fffff, 0x3ecccccd}));
  EXPECT_EQ(BitsOf(Run1d(BinaryOp::kMul, DType::kF32, a, b)),
            (std::vector<uint32_t>{0x3ca3d70b, 0x40400000, 0x41a80000, 0xc1870000, 0x7f800000,
                                   0x00034447, 0x4b800000, 0xbcf5c290}));
  EXPECT_EQ(BitsOf(Run1d(BinaryOp::kDiv, DType::kF32, a, b)),
            (std::vector<uint32_t>{0x3f000000, 0x3eaaaaab, 0x3edb6db7, 0xc0555555, 0x60ad78ec,
                                   0x1d7bdc0b, 0x4b800000, 0xc0400000}));
}

TEST(ElementwiseNumPy, IntegerArithmetic) {
  // NumPy's results where they fit in i32; one step past is an overflow.
  const std::vector<int32_t> i = {kI32Max - 1, kI32Min + 1, -7, 7, 65535, 46340, kI32Min + 1};
  const std::vector<int32_t> j = {1, -1, 2, -2, 32768, 46340, 1};
  EXPECT_EQ(Run1d(BinaryOp::kAdd, DType::kI32, i, j),
            (std::vector<int32_t>{kI32Max, kI32Min, -5, 5, 98303, 92680, -2147483646}));
  EXPECT_EQ(Run1d(BinaryOp::kSub, DType::kI32, i, j),
            (std::vector<int32_t>{2147483645, -2147483646, -9, 9, 32767, 0, kI32Min}));
  EXPECT_EQ(
      Run1d(BinaryOp::kMul, DType::kI32, i, j),
      (std::vector<int32_t>{kI32Max - 1, kI32Max, -14, -14, 2147450880, 2147395600, kI32Min + 1}));
  // Truncating division (not NumPy's floor `//`).
  EXPECT_EQ(Run1d(BinaryOp::kDiv, DType::kI32, i, j),
            (std::vector<int32_t>{kI32Max - 1, kI32Max, -3, -3, 1, 1, kI32Min + 1}));
  EXPECT_EQ(Run1d(BinaryOp::kDiv, DType::kI32, std::vector<int32_t>{-7, 7, -7, kI32Min, 0},
                  std::vector<int32_t>{-2, 2, 7, 2, -5}),
            (std::vector<int32_t>{3, 3, -1, -1073741824, 0}));
  EXPECT_EQ(Run1d(BinaryOp::kRem, DType::kI32, std::vector<int32_t>{kI32Min, -7},
                  std::vector<int32_t>{-1, -1}),
            (std::vector<int32_t>{0, 0}));

  const std::vector<uint32_t> u = {0, 4294967295u, 123456789, 3000000000u};
  const std::vector<uint32_t> v = {1, 1, 987654321, 7};
  EXPECT_EQ(Run1d(BinaryOp::kAdd, DType::kU32, u, v),
            (std::vector<uint32_t>{1, 0, 1111111110, 3000000007u}));
  EXPECT_EQ(Run1d(BinaryOp::kSub, DType::kU32, u, v),
            (std::vector<uint32_t>{4294967295u, 4294967294u, 3430769764u, 2999999993u}));
  EXPECT_EQ(Run1d(BinaryOp::kMul, DType::kU32, u, v),
            (std::vector<uint32_t>{0, 4294967295u, 4227814277u, 3820130816u}));
  EXPECT_EQ(Run1d(BinaryOp::kDiv, DType::kU32, u, v),
            (std::vector<uint32_t>{0, 4294967295u, 0, 428571428}));
}

TEST(ElementwiseBinary, I32OverflowStopsAtTheFirst) {
  const struct {
    BinaryOp op;
    std::vector<int32_t> a, b;
    int64_t at;
  } kCases[] = {
      {BinaryOp::kAdd, {1, kI32Max, kI32Max}, {1, 1, 1}, 1},
      {BinaryOp::kSub, {0, 0, kI32Min}, {5, kI32Min, 1}, 1},
      {BinaryOp::kMul, {3, 65536, 46341}, {3, 32768, 46341}, 1},
      {BinaryOp::kDiv, {9, kI32Min}, {3, -1}, 1},
  };
  for (const auto& c : kCases) {
    std::vector<int32_t> out(c.a.size(), -99);
    int64_t at = -1;
    const Shape shape = {static_cast<int64_t>(c.a.size())};
    EXPECT_EQ(Binary(c.op, DType::kI32, shape, {c.a.data(), Shape{1}}, {c.b.data(), Shape{1}},
                     out.data(), &at),
              KernelStatus::kOverflow)
        << Spelling(c.op);
    EXPECT_EQ(at, c.at) << Spelling(c.op);
    EXPECT_EQ(out[c.at], -99) << Spelling(c.op);
  }
  // u32 wraps.
  const std::vector<uint32_t> u = {4294967295u}, one = {1};
  EXPECT_EQ(Run1d(BinaryOp::kAdd, DType::kU32, u, one), (std::vector<uint32_t>{0}));
}

TEST(ElementwiseBinary, DivisionByZero) {
  const std::vector<int32_t> a = {6, 7, 8, 9}, b = {2, 0, 1, 1};
  std::vector<int32_t> out = {-1, -1, -1, -1};
  EXPECT_EQ(Binary(BinaryOp::kDiv, DType::kI32, Shape{4}, {a.data(), Shape{1}},
                   {b.data(), Shape{1}}, out.data()),
            KernelStatus::kDivisionByZero);
  EXPECT_EQ(out[0], 3);  // written before the zero was met

  const std::vector<uint32_t> u = {6, 7}, zero = {0};
  std::vector<uint32_t> uout(2);
  EXPECT_EQ(Binary(BinaryOp::kDiv, DType::kU32, Shape{2}, {u.data(), Shape{1}},
                   {zero.data(), Shape{0}}, uout.data()),
            KernelStatus::kDivisionByZero);
  // A zero dividend is fine; a zero divisor in a broadcast scalar is not.
  const int32_t izero = 0, one = 1;
  int32_t iout = 5;
  EXPECT_EQ(Binary(BinaryOp::kDiv, DType::kI32, Shape{}, {&izero, Shape{}}, {&one, Shape{}}, &iout),
            KernelStatus::kOk);
  EXPECT_EQ(iout, 0);
  EXPECT_EQ(Binary(BinaryOp::kDiv, DType::kI32, Shape{}, {&one, Shape{}}, {&izero, Shape{}}, &iout),
            KernelStatus::kDivisionByZero);

  // f32 division by zero is IEEE, not an error.
  const std::vector<float> f =
      Run1d(BinaryOp::kDiv, DType::kF32, std::vector<float>{1, -1, 0, -0.0f},
            std::vector<float>{0, 0, 0, -0.0f});
  EXPECT_EQ(f[0], kInf);
  EXPECT_EQ(f[1], -kInf);
  EXPECT_TRUE(std::isnan(f[2]));
  EXPECT_TRUE(std::isnan(f[3]));
}

TEST(ElementwiseBinary, RemainderHasTheDividendsSign) {
  // NumPy 1.24's np.fmod bits: exact remainders, signed zeros kept, a NaN
  // operand's payload (a's first, quieted), the default NaN when invalid.
  const std::vector<float> a = {7.5f,
                                -7.5f,
                                7.5f,
                                -0.0f,
                                1e-45f,
                                3.0f,
                                kInf,
                                1.0f,
                                FromBits(0x7fc00001),
                                1.0f,
                                FromBits(0x7fc00001),
                                -4.0f,
                                1e30f};
  const std::vector<float> b = {2.0f,
                                2.0f,
                                -2.0f,
                                2.0f,
                                2.0f,
                                kInf,
                                1.0f,
                                0.0f,
                                1.0f,
                                FromBits(0x7f800002),
                                FromBits(0xffc00003),
                                2.0f,
                                7.0f};
  EXPECT_EQ(BitsOf(Run1d(BinaryOp::kRem, DType::kF32, a, b)),
            (std::vector<uint32_t>{Bits(1.5f), Bits(-1.5f), Bits(1.5f), 0x80000000u, 1u, Bits(3.0f),
                                   0xffc00000u, 0xffc00000u, 0x7fc00001u, 0x7fc00002u, 0x7fc00001u,
                                   0x80000000u, Bits(std::fmod(1e30f, 7.0f))}));
  EXPECT_EQ(Run1d(BinaryOp::kRem, DType::kI32, std::vector<int32_t>{-7, 7, -7, INT32_MIN, 5},
                  std::vector<int32_t>{3, -3, -3, -1, 7}),
            (std::vector<int32_t>{-1, 1, -1, 0, 5}));
  EXPECT_EQ(Run1d(BinaryOp::kRem, DType::kU32, std::vector<uint32_t>{4294967295u, 5},
                  std::vector<uint32_t>{10, 4294967295u}),
            (std::vector<uint32_t>{5, 5}));
  const std::vector<int32_t> x = {6, 7}, zero = {1, 0};
  std::vector<int32_t> out(2);
  EXPECT_EQ(Binary(BinaryOp::kRem, DType::kI32, Shape{2}, {x.data(), Shape{1}},
                   {zero.data(), Shape{1}}, out.data()),
            KernelStatus::kDivisionByZero);
  EXPECT_EQ(out[0], 0);  // written before the zero was met
}

TEST(ElementwiseBinary, MaxMinNaNAndSignedZero) {
  const float nan_a = FromBits(0x7fc00001), nan_b = FromBits(0xffc00002);
  const std::vector<float> a = {kNaN, 1.0f, nan_a, -0.0f, 0.0f, -kInf, 2.0f};
  const std::vector<float> b = {1.0f, kNaN, nan_b, 0.0f, -0.0f, kNaN, -3.0f};
  const std::vector<float> mx = Run1d(BinaryOp::kMax, DType::kF32, a, b);
  const std::vector<float> mn = Run1d(BinaryOp::kMin, DType::kF32, a, b);
  // NaN wins from either side, as np.maximum / np.minimum.
  EXPECT_TRUE(std::isnan(mx[0]) && std::isnan(mx[1]) && std::isnan(mx[5]));
  EXPECT_TRUE(std::isnan(mn[0]) && std::isnan(mn[1]) && std::isnan(mn[5]));
  // Two NaNs: the rule selects a, payload and all.
  EXPECT_EQ(Bits(mx[2]), 0x7fc00001u);
  EXPECT_EQ(Bits(mn[2]), 0x7fc00001u);
  // Equal zeros: a >= b holds, so a is kept. (NumPy 1.24's SIMD loops return
  // b here, np.maximum(-0.0, 0.0) == +0.0; the .def rule is the definition.)
  EXPECT_EQ(Bits(mx[3]), Bits(-0.0f));
  EXPECT_EQ(Bits(mx[4]), Bits(0.0f));
  EXPECT_EQ(Bits(mn[3]), Bits(-0.0f));
  EXPECT_EQ(Bits(mn[4]), Bits(0.0f));
  EXPECT_EQ(mx[6], 2.0f);
  EXPECT_EQ(mn[6], -3.0f);

  EXPECT_EQ(Run1d(BinaryOp::kMax, DType::kI32, std::vector<int32_t>{-1, kI32Min, 5},
                  std::vector<int32_t>{1, kI32Max, 5}),
            (std::vector<int32_t>{1, kI32Max, 5}));
  EXPECT_EQ(Run1d(BinaryOp::kMin, DType::kI32, std::vector<int32_t>{-1, kI32Min},
                  std::vector<int32_t>{1, kI32Max}),
            (std::vector<int32_t>{-1, kI32Min}));
  // u32 compares unsigned: 0xFFFFFFFF is the largest.
  EXPECT_EQ(Run1d(BinaryOp::kMax, DType::kU32, std::vector<uint32_t>{0xFFFFFFFFu, 0},
                  std::vector<uint32_t>{1, 0x80000000u}),
            (std::vector<uint32_t>{0xFFFFFFFFu, 0x80000000u}));
  EXPECT_EQ(Run1d(BinaryOp::kMin, DType::kU32, std::vector<uint32_t>{0xFFFFFFFFu, 0},
                  std::vector<uint32_t>{1, 0x80000000u}),
            (std::vector<uint32_t>{1, 0}));
}

std::vector<uint8_t> Compare(BinaryOp op, DType dtype, const void* a, const void* b, int64_t n) {
  std::vector<uint8_t> out(n, 0xAA);
  EXPECT_EQ(Binary(op, dtype, Shape{n}, {a, Shape{1}}, {b, Shape{1}}, out.data()),
            KernelStatus::kOk);
  return out;
}

TEST(ElementwiseBinary, ComparisonsGiveBoolBytes) {
  const float a[] = {kNaN, 1.0f, -0.0f, 1.0f, 2.0f, kNaN};
  const float b[] = {kNaN, kNaN, 0.0f, 2.0f, 1.0f, 1.0f};
  using V = std::vector<uint8_t>;
  EXPECT_EQ(Compare(BinaryOp::kEq, DType::kF32, a, b, 6), (V{0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(Compare(BinaryOp::kNe, DType::kF32, a, b, 6), (V{1, 1, 0, 1, 1, 1}));
  EXPECT_EQ(Compare(BinaryOp::kLt, DType::kF32, a, b, 6), (V{0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(Compare(BinaryOp::kLe, DType::kF32, a, b, 6), (V{0, 0, 1, 1, 0, 0}));
  EXPECT_EQ(Compare(BinaryOp::kGt, DType::kF32, a, b, 6), (V{0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(Compare(BinaryOp::kGe, DType::kF32, a, b, 6), (V{0, 0, 1, 0, 1, 0}));
  const int32_t i[] = {-1, 5, kI32Min}, j[] = {1, 5, kI32Max};
  EXPECT_EQ(Compare(BinaryOp::kLt, DType::kI32, i, j, 3), (V{1, 0, 1}));
  const uint32_t u[] = {0xFFFFFFFFu, 5, 0}, w[] = {1, 5, 0x80000000u};
  EXPECT_EQ(Compare(BinaryOp::kLt, DType::kU32, u, w, 3), (V{0, 0, 1}));
  EXPECT_EQ(Compare(BinaryOp::kGe, DType::kU32, u, w, 3), (V{1, 1, 0}));
  const uint8_t p[] = {0, 0, 1, 1}, q[] = {0, 1, 0, 1};
  EXPECT_EQ(Compare(BinaryOp::kEq, DType::kBool, p, q, 4), (V{1, 0, 0, 1}));
  EXPECT_EQ(Compare(BinaryOp::kNe, DType::kBool, p, q, 4), (V{0, 1, 1, 0}));
}

// ---------------------------------------------------------------------------
// Unary.

std::vector<float> UnaryF32(UnaryOp op, const std::vector<float>& in) {
  std::vector<float> out(in.size());
  Unary(op, DType::kF32, static_cast<int64_t>(in.size()), in.data(), out.data());
  return out;
}

TEST(ElementwiseUnary, F32MatchesSpec) {
  std::mt19937 rng(99);
  std::vector<float> in = RandomValues<float>(rng, 5000, false);
  for (float x : {0.5f, 2.0f, 1e-30f, 88.0f, -88.0f, 1e-45f}) in.push_back(x);
  const UnaryOp kOps[] = {
#define ALEA_BINARY(name, opcode, spelling, semantics)
#define ALEA_UNARY(name, opcode, spelling, semantics) UnaryOp::k##name,
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
  };
  for (float x : {2.5f, -2.5f, 3.5f, -0.5f, 0.5f, -0.0f, 0x1p23f, -0x1.fffffep22f}) in.push_back(x);
  for (UnaryOp op : kOps) {
    std::vector<float> want(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
      const float x = in[i];
      switch (op) {
        case UnaryOp::kNeg:
          want[i] = FromBits(Bits(x) ^ 0x80000000u);
          break;
        case UnaryOp::kExp:
          want[i] = ExpF32(x);
          break;
        case UnaryOp::kLog:
          want[i] = LogF32(x);
          break;
        case UnaryOp::kTanh:
          want[i] = TanhF32(x);
          break;
        case UnaryOp::kSqrt:
          want[i] = std::sqrt(x);
          break;
        case UnaryOp::kAbs:
          want[i] = FromBits(Bits(x) & 0x7fffffffu);
          break;
        case UnaryOp::kSigmoid:
          want[i] = SigmoidF32(x);
          break;
        case UnaryOp::kRelu:
          want[i] = (x >= 0.0f || std::isnan(x)) ? x : 0.0f;
          break;
        case UnaryOp::kFloor:
          want[i] = std::floor(x);
          break;
        case UnaryOp::kCeil:
          want[i] = std::ceil(x);
          break;
        case UnaryOp::kRound:
          want[i] = std::nearbyint(x);
          break;
        case UnaryOp::kTrunc:
          want[i] = std::trunc(x);
          break;
        case UnaryOp::kSign:
          want[i] = std::isnan(x) || x == 0.0f ? x : std::copysign(1.0f, x);
          break;
        case UnaryOp::kExpm1:
          want[i] = Expm1F32(x);
          break;
        case UnaryOp::kLog1p:
          want[i] = Log1pF32(x);
          break;
        case UnaryOp::kSinh:
          want[i] = SinhF32(x);
          break;
        case UnaryOp::kCosh:
          want[i] = CoshF32(x);
          break;
        case UnaryOp::kErf:
          want[i] = ErfF32(x);
          break;
        case UnaryOp::kSin:
          want[i] = SinF32(x);
          break;
        case UnaryOp::kCos:
          want[i] = CosF32(x);
          break;
        case UnaryOp::kTan:
          want[i] = TanF32(x);
          break;
        case UnaryOp::kAtan:
          want[i] = AtanF32(x);
          break;
        case UnaryOp::kAsin:
          want[i] = AsinF32(x);
          break;
        case UnaryOp::kAcos:
          want[i] = AcosF32(x);
          break;
        case UnaryOp::kErfc:
          want[i] = ErfcF32(x);
          break;
        case UnaryOp::kLgamma:
          want[i] = LgammaF32(x);
          break;
      }
    }
    EXPECT_EQ(Canonical(UnaryF32(op, in)), Canonical(want)) << Spelling(op);
    std::vector<float> in_place = in;
    Unary(op, DType::kF32, static_cast<int64_t>(in.size()), in_place.data(), in_place.data());
    EXPECT_EQ(Canonical(in_place), Canonical(want)) << Spelling(op) << " in place";
  }
}

TEST(ElementwiseUnary, F32SignBitsAndSpecialValues) {
  const float neg_nan = FromBits(0xffc00000);
  // neg and abs act on the sign bit alone, NaN included.
  EXPECT_EQ(
      BitsOf(UnaryF32(UnaryOp::kNeg, {0.0f, -0.0f, kNaN, 1.5f, -kInf})),
      (std::vector<uint32_t>{0x80000000u, 0x00000000u, 0xffc00000u, Bits(-1.5f), Bits(kInf)}));
  EXPECT_EQ(BitsOf(UnaryF32(UnaryOp::kAbs, {-0.0f, neg_nan, -1.5f, -kInf})),
            (std::vector<uint32_t>{0u, 0x7fc00000u, Bits(1.5f), Bits(kInf)}));
  // relu by the Max rule: NaN and -0.0 pass through; negatives give +0.
  EXPECT_EQ(BitsOf(UnaryF32(UnaryOp::kRelu, {neg_nan, -0.0f, -1.0f, -kInf, 3.0f, 1e-45f})),
            (std::vector<uint32_t>{0xffc00000u, 0x80000000u, 0u, 0u, Bits(3.0f), 1u}));
  // sqrt: NumPy's np.sqrt bits for [2, 0.5, 1e-40, 3, -0.0]; sqrt(-1) is NaN.
  EXPECT_EQ(BitsOf(UnaryF32(UnaryOp::kSqrt, {2.0f, 0.5f, 1e-40f, 3.0f, -0.0f})),
            (std::vector<uint32_t>{0x3fb504f3, 0x3f3504f3, 0x1e3ce4e7, 0x3fddb3d7, 0x80000000}));
  EXPECT_TRUE(std::isnan(UnaryF32(UnaryOp::kSqrt, {-1.0f})[0]));
  EXPECT_EQ(UnaryF32(UnaryOp::kExp, {0.0f})[0], 1.0f);
  // The rounding functions keep -0.0 and give it for negatives rounding to
  // zero; round is half to even (np.round); sign is +-1 by the sign bit.
  EXPECT_EQ(BitsOf(UnaryF32(UnaryOp::kFloor, {-0.0f, 0.5f, -0.5f, -kInf})),
            (std::vector<uint32_t>{0x80000000u, 0u, Bits(-1.0f), Bits(-kInf)}));
  EXPECT_EQ(BitsOf(UnaryF32(UnaryOp::kCeil, {-0.5f, 0.5f, 1e-45f})),
            (std::vector<uint32_t>{0x80000000u, Bits(1.0f), Bits(1.0f)}));
  EXPECT_EQ(
      BitsOf(UnaryF32(UnaryOp::kRound, {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 0x1.fffffep22f})),
      (std::vector<uint32_t>{0u, Bits(2.0f), Bits(2.0f), 0x80000000u, Bits(-2.0f), Bits(0x1p23f)}));
  EXPECT_EQ(BitsOf(UnaryF32(UnaryOp::kTrunc, {-0.7f, 1.7f, -1.7f})),
            (std::vector<uint32_t>{0x80000000u, Bits(1.0f), Bits(-1.0f)}));
  EXPECT_EQ(
      BitsOf(UnaryF32(UnaryOp::kSign, {neg_nan, -0.0f, 0.0f, -1e-45f, 7.0f, -kInf})),
      (std::vector<uint32_t>{0xffc00000u, 0x80000000u, 0u, Bits(-1.0f), Bits(1.0f), Bits(-1.0f)}));
  EXPECT_EQ(UnaryF32(UnaryOp::kLog, {1.0f})[0], 0.0f);
}

TEST(ElementwiseUnary, IntegersChecked) {
  std::vector<int32_t> i = {0, 5, -5, kI32Max, kI32Min + 1};
  std::vector<int32_t> out(i.size());
  EXPECT_EQ(Unary(UnaryOp::kNeg, DType::kI32, 5, i.data(), out.data()), KernelStatus::kOk);
  EXPECT_EQ(out, (std::vector<int32_t>{0, -5, 5, -kI32Max, kI32Max}));
  EXPECT_EQ(Unary(UnaryOp::kAbs, DType::kI32, 5, i.data(), i.data()), KernelStatus::kOk);
  EXPECT_EQ(i, (std::vector<int32_t>{0, 5, 5, kI32Max, kI32Max}));
  // INT32_MIN has no i32 negation: nothing from it on is written.
  std::vector<int32_t> m = {-1, kI32Min, -2, kI32Min};
  int64_t at = -1;
  EXPECT_EQ(Unary(UnaryOp::kAbs, DType::kI32, 4, m.data(), m.data(), &at), KernelStatus::kOverflow);
  EXPECT_EQ(at, 1);
  EXPECT_EQ(m, (std::vector<int32_t>{1, kI32Min, -2, kI32Min}));
  std::vector<uint32_t> u = {0, 1, 0x80000000u, 0xFFFFFFFFu};
  Unary(UnaryOp::kNeg, DType::kU32, 4, u.data(), u.data());
  EXPECT_EQ(u, (std::vector<uint32_t>{0, 0xFFFFFFFFu, 0x80000000u, 1}));
}

// ---------------------------------------------------------------------------
// Where and Gather.

TEST(ElementwiseWhere, BroadcastsAllThree) {
  // mask [2, 1], a [1, 3], b scalar -> [2, 3]; a NaN payload survives.
  const uint8_t mask[] = {1, 0};
  const float a[] = {1.0f, FromBits(0x7fc00123), -0.0f};
  const float b = 9.0f;
  std::vector<float> out(6);
  Where(DType::kF32, Shape{2, 3}, {mask, Shape{1, 0}}, {a, Shape{0, 1}}, {&b, Shape{0, 0}},
        out.data());
  EXPECT_EQ(BitsOf(out), (std::vector<uint32_t>{Bits(1.0f), 0x7fc00123u, 0x80000000u, Bits(9.0f),
                                                Bits(9.0f), Bits(9.0f)}));
  // Elementwise mask, bool data, rank 0.
  const uint8_t m2[] = {0, 1, 1, 0}, x[] = {1, 1, 0, 0}, y[] = {0, 0, 1, 1};
  std::vector<uint8_t> bout(4);
  Where(DType::kBool, Shape{4}, {m2, Shape{1}}, {x, Shape{1}}, {y, Shape{1}}, bout.data());
  EXPECT_EQ(bout, (std::vector<uint8_t>{0, 1, 0, 1}));
  const int32_t i = 4, j = -4;
  int32_t iout = 0;
  Where(DType::kI32, Shape{}, {&m2[0], Shape{}}, {&i, Shape{}}, {&j, Shape{}}, &iout);
  EXPECT_EQ(iout, -4);
}

TEST(ElementwiseWhere, InPlaceOverAContiguousOperand) {
  std::mt19937 rng(3);
  const Shape shape = {19, 23};
  std::vector<uint8_t> mask(19 * 23);
  for (auto& m : mask) m = rng() % 2;
  std::vector<int32_t> a = RandomValues<int32_t>(rng, mask.size(), false);
  const std::vector<int32_t> b = RandomValues<int32_t>(rng, 23, false);
  std::vector<int32_t> want(a.size());
  for (size_t i = 0; i < a.size(); ++i) want[i] = mask[i] ? a[i] : b[i % 23];
  Where(DType::kI32, shape, {mask.data(), Contiguous(shape)}, {a.data(), Contiguous(shape)},
        {b.data(), Shape{0, 1}}, a.data());
  EXPECT_EQ(a, want);
}

TEST(ElementwiseGather, StridedCopies) {
  const int32_t m[] = {0, 1, 2, 3, 4, 5};  // [2, 3]
  std::vector<int32_t> t(6);
  Gather(DType::kI32, Shape{3, 2}, {m, Shape{1, 3}}, t.data());  // transpose
  EXPECT_EQ(t, (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));
  Gather(DType::kI32, Shape{2, 3}, {m, Shape{0, 1}}, t.data());  // broadcast row 0
  EXPECT_EQ(t, (std::vector<int32_t>{0, 1, 2, 0, 1, 2}));
  Gather(DType::kI32, Shape{2, 3}, {m + 5, Shape{-3, -1}}, t.data());  // reversed
  EXPECT_EQ(t, (std::vector<int32_t>{5, 4, 3, 2, 1, 0}));
  Gather(DType::kI32, Shape{2, 3}, {m, Shape{3, 1}}, t.data());  // contiguous
  EXPECT_EQ(t, (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
  const uint8_t bits[] = {1, 0, 0, 1, 1, 0};
  std::vector<uint8_t> bt(6);
  Gather(DType::kBool, Shape{3, 2}, {bits, Shape{1, 3}}, bt.data());
  EXPECT_EQ(bt, (std::vector<uint8_t>{1, 1, 0, 1, 0, 0}));
  float f = -0.0f, fout = 1.0f;
  Gather(DType::kF32, Shape{}, {&f, Shape{}}, &fout);
  EXPECT_EQ(Bits(fout), 0x80000000u);
  Gather(DType::kF32, Shape{2, 0}, {&f, Shape{0, 1}}, nullptr);  // nothing to do

  // A 4-d transpose against the index formula.
  const Shape shape = {3, 4, 5, 6};
  std::vector<float> src(360);
  for (int i = 0; i < 360; ++i) src[i] = static_cast<float>(i);
  // Output axes (2, 0, 3, 1) of the source: out[c, a, d, b] = src[a, b, c, d].
  const Shape src_strides = Contiguous(shape);
  const Shape out_shape = {5, 3, 6, 4};
  const Shape perm = {src_strides[2], src_strides[0], src_strides[3], src_strides[1]};
  std::vector<float> out(360);
  Gather(DType::kF32, out_shape, {src.data(), perm}, out.data());
  for (int64_t i = 0; i < 360; ++i) {
    ASSERT_EQ(out[i], src[OffsetOf(i, out_shape, perm)]) << i;
  }
}

// ---------------------------------------------------------------------------
// Cast.

template <typename To, typename From>
std::vector<To> CastOk(DType from, DType to, const std::vector<From>& in) {
  std::vector<To> out(in.size());
  int64_t bad = -1;
  EXPECT_EQ(Cast(from, to, static_cast<int64_t>(in.size()), in.data(), out.data(), &bad),
            CastStatus::kOk);
  return out;
}

template <typename To>
std::pair<CastStatus, int64_t> CastBad(DType to, const std::vector<float>& in) {
  std::vector<To> out(in.size());
  int64_t bad = -1;
  const CastStatus s =
      Cast(DType::kF32, to, static_cast<int64_t>(in.size()), in.data(), out.data(), &bad);
  return {s, bad};
}

TEST(ElementwiseCast, F32ToI32) {
  // NumPy: [-1.5, 2.9, -0.9, 2147483520, -2147483648] -> [-1, 2, 0, 2147483520, INT32_MIN].
  EXPECT_EQ((CastOk<int32_t, float>(DType::kF32, DType::kI32,
                                    {-1.5f, 2.9f, -0.9f, 2147483520.0f, -2147483648.0f, -0.0f})),
            (std::vector<int32_t>{-1, 2, 0, 2147483520, kI32Min, 0}));
  using R = std::pair<CastStatus, int64_t>;
  EXPECT_EQ(CastBad<int32_t>(DType::kI32, {1.0f, 2147483648.0f}), (R{CastStatus::kOutOfRange, 1}));
  // The next f32 below INT32_MIN.
  EXPECT_EQ(CastBad<int32_t>(DType::kI32, {-2147483904.0f}), (R{CastStatus::kOutOfRange, 0}));
  EXPECT_EQ(CastBad<int32_t>(DType::kI32, {0.0f, 3.0f, kInf}), (R{CastStatus::kOutOfRange, 2}));
  EXPECT_EQ(CastBad<int32_t>(DType::kI32, {-kInf}), (R{CastStatus::kOutOfRange, 0}));
  // The first bad element decides, whichever kind it is.
  EXPECT_EQ(CastBad<int32_t>(DType::kI32, {1.0f, 2.0f, kNaN, 1e10f}), (R{CastStatus::kNaN, 2}));
  EXPECT_EQ(CastBad<int32_t>(DType::kI32, {1.0f, 1e10f, kNaN}), (R{CastStatus::kOutOfRange, 1}));
}

TEST(ElementwiseCast, F32ToU32AndBool) {
  EXPECT_EQ((CastOk<uint32_t, float>(DType::kF32, DType::kU32,
                                     {-0.9f, -0.0f, 4294967040.0f, 2147483648.0f, 7.99f})),
            (std::vector<uint32_t>{0, 0, 4294967040u, 2147483648u, 7}));
  using R = std::pair<CastStatus, int64_t>;
  EXPECT_EQ(CastBad<uint32_t>(DType::kU32, {0.0f, -1.0f}), (R{CastStatus::kOutOfRange, 1}));
  EXPECT_EQ(CastBad<uint32_t>(DType::kU32, {4294967296.0f}), (R{CastStatus::kOutOfRange, 0}));
  EXPECT_EQ(CastBad<uint32_t>(DType::kU32, {kNaN}), (R{CastStatus::kNaN, 0}));
  // NumPy: [0, -0, nan, 0.5, -inf, 1e-45] -> [F, F, T, T, T, T].
  EXPECT_EQ(
      (CastOk<uint8_t, float>(DType::kF32, DType::kBool, {0.0f, -0.0f, kNaN, 0.5f, -kInf, 1e-45f})),
      (std::vector<uint8_t>{0, 0, 1, 1, 1, 1}));
}

TEST(ElementwiseCast, IntegerConversions) {
  // NumPy: int32 [16777217, 16777219, INT32_MIN, INT32_MAX, -16777217] as
  // float32 -> [16777216, 16777220, -2^31, 2^31, -16777216] (nearest even).
  EXPECT_EQ(
      (CastOk<float, int32_t>(DType::kI32, DType::kF32,
                              {16777217, 16777219, kI32Min, kI32Max, -16777217})),
      (std::vector<float>{16777216.0f, 16777220.0f, -2147483648.0f, 2147483648.0f, -16777216.0f}));
  EXPECT_EQ(
      (CastOk<float, uint32_t>(DType::kU32, DType::kF32, {4294967295u, 16777217u, 2147483649u})),
      (std::vector<float>{4294967296.0f, 16777216.0f, 2147483648.0f}));
  EXPECT_EQ((CastOk<uint32_t, int32_t>(DType::kI32, DType::kU32, {-1, kI32Min, 5})),
            (std::vector<uint32_t>{4294967295u, 2147483648u, 5}));
  EXPECT_EQ((CastOk<int32_t, uint32_t>(DType::kU32, DType::kI32, {4294967295u, 2147483648u, 5})),
            (std::vector<int32_t>{-1, kI32Min, 5}));
  EXPECT_EQ((CastOk<uint8_t, int32_t>(DType::kI32, DType::kBool, {0, -1, kI32Min, 2})),
            (std::vector<uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ((CastOk<uint8_t, uint32_t>(DType::kU32, DType::kBool, {0, 0x80000000u})),
            (std::vector<uint8_t>{0, 1}));
  const std::vector<uint8_t> flags = {0, 1, 1, 0};
  EXPECT_EQ((CastOk<float, uint8_t>(DType::kBool, DType::kF32, flags)),
            (std::vector<float>{0, 1, 1, 0}));
  EXPECT_EQ((CastOk<int32_t, uint8_t>(DType::kBool, DType::kI32, flags)),
            (std::vector<int32_t>{0, 1, 1, 0}));
  EXPECT_EQ((CastOk<uint32_t, uint8_t>(DType::kBool, DType::kU32, flags)),
            (std::vector<uint32_t>{0, 1, 1, 0}));
  EXPECT_EQ((CastOk<uint8_t, uint8_t>(DType::kBool, DType::kBool, flags)), flags);
  const std::vector<float> same = {kNaN, -0.0f, 1.5f};
  EXPECT_EQ(BitsOf(CastOk<float, float>(DType::kF32, DType::kF32, same)), BitsOf(same));
}

TEST(ElementwiseCast, InPlace) {
  std::vector<float> f = {1.9f, -2.9f, 3.0f};
  std::vector<uint32_t> words(3);
  std::memcpy(words.data(), f.data(), 12);
  int64_t bad = -1;
  ASSERT_EQ(Cast(DType::kF32, DType::kI32, 3, words.data(), words.data(), &bad), CastStatus::kOk);
  EXPECT_EQ(words, (std::vector<uint32_t>{1, static_cast<uint32_t>(-2), 3}));
  ASSERT_EQ(Cast(DType::kI32, DType::kF32, 3, words.data(), words.data(), &bad), CastStatus::kOk);
  EXPECT_EQ(words, (std::vector<uint32_t>{Bits(1.0f), Bits(-2.0f), Bits(3.0f)}));
  ASSERT_EQ(Cast(DType::kF32, DType::kF32, 3, words.data(), words.data(), &bad), CastStatus::kOk);
  EXPECT_EQ(words, (std::vector<uint32_t>{Bits(1.0f), Bits(-2.0f), Bits(3.0f)}));
}

TEST(ElementwiseTables, SpellingsAndSizes) {
  EXPECT_STREQ(Spelling(BinaryOp::kAdd), "+");
  EXPECT_STREQ(Spelling(BinaryOp::kMax), "max");
  EXPECT_STREQ(Spelling(BinaryOp::kGe), ">=");
  EXPECT_STREQ(Spelling(UnaryOp::kNeg), "-");
  EXPECT_STREQ(Spelling(UnaryOp::kRelu), "relu");
  int comparisons = 0;
  for (BinaryOp op : kAllBinary) comparisons += IsComparison(op) ? 1 : 0;
  EXPECT_EQ(comparisons, 6);
  EXPECT_FALSE(IsComparison(BinaryOp::kMax));
  EXPECT_TRUE(IsComparison(BinaryOp::kNe));
  EXPECT_EQ(ElementSize(DType::kF32), 4);
  EXPECT_EQ(ElementSize(DType::kI32), 4);
  EXPECT_EQ(ElementSize(DType::kU32), 4);
  EXPECT_EQ(ElementSize(DType::kBool), 1);
}

}  // namespace
}  // namespace alea::vm::kernels
