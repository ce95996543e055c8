// Elementwise reference kernels. Each op's semantics is its line in
// elementwise_ops.def; this file only decides how the index space is walked.
//
// Walking: size-1 axes are dropped and adjacent axes that every operand (and
// the contiguous output) steps through as one are merged, so a contiguous
// operand or a broadcast scalar becomes one long row whatever the rank. The
// remaining outer axes are an odometer; the innermost is a tight loop with
// stride-specialised forms for the common cases (both contiguous, one a
// scalar). Every form reads element i's operands before writing out[i] and
// writes outputs in ascending order, which is what in-place reuse of an
// operand with the output's own layout needs.
#include "vm/kernels/elementwise.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "vm/dtype.h"
#include "vm/kernels/math_f32.h"
#include "vm/kernels/pin_nan.h"

namespace alea::vm::kernels {
namespace {

// ---------------------------------------------------------------------------
// The walk over a strided index space.

// Calls row(offsets, out_offset, length, steps) for each innermost row of
// `shape`, in row-major order; offsets/steps are per operand, in elements,
// and the output is contiguous. Stops early (returning false) when `row`
// returns false.
template <size_t K, typename RowFn>
bool ForEachRow(absl::Span<const int64_t> shape,
                const std::array<absl::Span<const int64_t>, K>& strides, RowFn&& row) {
  for (int64_t d : shape) {
    if (d == 0) return true;
  }
  for (size_t k = 0; k < K; ++k) assert(strides[k].size() == shape.size());
  // Coalesced axes, innermost first.
  absl::InlinedVector<int64_t, 8> dims;
  std::array<absl::InlinedVector<int64_t, 8>, K> st;
  for (size_t axis = shape.size(); axis-- > 0;) {
    if (shape[axis] == 1) continue;  // its stride never matters
    bool merge = !dims.empty();
    for (size_t k = 0; k < K && merge; ++k) {
      merge = strides[k][axis] == st[k].back() * dims.back();
    }
    if (merge) {
      dims.back() *= shape[axis];
    } else {
      dims.push_back(shape[axis]);
      for (size_t k = 0; k < K; ++k) st[k].push_back(strides[k][axis]);
    }
  }
  if (dims.empty()) {  // rank 0, or all axes of size 1: one element
    dims.push_back(1);
    for (size_t k = 0; k < K; ++k) st[k].push_back(0);
  }
  const size_t rank = dims.size();
  const int64_t len = dims[0];
  std::array<int64_t, K> step;
  for (size_t k = 0; k < K; ++k) step[k] = st[k][0];
  std::array<int64_t, K> offset{};
  absl::InlinedVector<int64_t, 8> index(rank, 0);
  int64_t out_offset = 0;
  while (true) {
    if (!row(offset, out_offset, len, step)) return false;
    out_offset += len;
    size_t axis = 1;
    for (; axis < rank; ++axis) {
      for (size_t k = 0; k < K; ++k) offset[k] += st[k][axis];
      if (++index[axis] < dims[axis]) break;
      for (size_t k = 0; k < K; ++k) offset[k] -= st[k][axis] * dims[axis];
      index[axis] = 0;
    }
    if (axis >= rank) return true;
  }
}

// ---------------------------------------------------------------------------
// Binary ops.

constexpr bool IsComparisonOp(BinaryOp op) {
  switch (op) {
    case BinaryOp::kEq:
    case BinaryOp::kNe:
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe:
      return true;
    default:
      return false;
  }
}

constexpr bool IsF32OnlyOp(BinaryOp op) {
  return op == BinaryOp::kAtan2 || op == BinaryOp::kHypot || op == BinaryOp::kPow;
}

// i32 arithmetic wraps, so it is done on the unsigned representation (C++20
// converts back modulo 2^32); signed overflow never happens.
inline int32_t WrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t WrapSub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
inline int32_t WrapMul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

// f32 `%`: the C library's fmod is exact (the result is representable), so
// only its NaNs are pinned here: a NaN operand as `+` does (a's, else b's,
// quieted), an invalid operation (x % 0, inf % y) the CPU's default NaN,
// computed as an invalid operation is, as NumPy's fmod gives.
inline float RemF32(float a, float b) {
  if (std::isnan(a)) return a + a;  // quiets a signalling NaN, keeps the payload
  if (std::isnan(b)) return b + b;
  // inf - inf, or 0 / 0 for a finite a: an invalid operation's NaN.
  if (b == 0.0f || std::isinf(a)) return (a - a) / (b - b);
  return std::fmod(a, b);
}

// a op b for every op but integer `/` and `%` (IntDivRow handles the zero
// check).
template <BinaryOp kOp, typename T>
inline auto Apply(T a, T b) {
  if constexpr (kOp == BinaryOp::kEq) {
    return static_cast<uint8_t>(a == b);
  } else if constexpr (kOp == BinaryOp::kNe) {
    return static_cast<uint8_t>(a != b);
  } else if constexpr (kOp == BinaryOp::kLt) {
    return static_cast<uint8_t>(a < b);
  } else if constexpr (kOp == BinaryOp::kLe) {
    return static_cast<uint8_t>(a <= b);
  } else if constexpr (kOp == BinaryOp::kGt) {
    return static_cast<uint8_t>(a > b);
  } else if constexpr (kOp == BinaryOp::kGe) {
    return static_cast<uint8_t>(a >= b);
  } else if constexpr (kOp == BinaryOp::kAtan2) {
    return Atan2F32(a, b);
  } else if constexpr (kOp == BinaryOp::kHypot) {
    return HypotF32(a, b);
  } else if constexpr (kOp == BinaryOp::kPow) {
    return PowF32(a, b);
  } else if constexpr (kOp == BinaryOp::kRem) {
    return RemF32(a, b);  // f32 only: integers take IntDivRow
  } else if constexpr (kOp == BinaryOp::kMax) {
    if constexpr (std::is_same_v<T, float>) {
      return (a >= b || std::isnan(a)) ? a : b;
    } else {
      return a >= b ? a : b;
    }
  } else if constexpr (kOp == BinaryOp::kMin) {
    if constexpr (std::is_same_v<T, float>) {
      return (a <= b || std::isnan(a)) ? a : b;
    } else {
      return a <= b ? a : b;
    }
  } else if constexpr (std::is_same_v<T, int32_t>) {
    if constexpr (kOp == BinaryOp::kAdd) return WrapAdd(a, b);
    if constexpr (kOp == BinaryOp::kSub) return WrapSub(a, b);
    if constexpr (kOp == BinaryOp::kMul) return WrapMul(a, b);
  } else {
    // f32 (IEEE, one rounding each: the build has -ffp-contract=off) or u32
    // (unsigned arithmetic wraps by definition).
    if constexpr (kOp == BinaryOp::kAdd) return PinNaN<T>(a, static_cast<T>(a + b));
    if constexpr (kOp == BinaryOp::kSub) return static_cast<T>(a - b);
    if constexpr (kOp == BinaryOp::kMul) return PinNaN<T>(a, static_cast<T>(a * b));
    if constexpr (kOp == BinaryOp::kDiv) return static_cast<T>(a / b);
  }
}

// One row: out[i] = a[i * sa] op b[i * sb]. The specialised strides let the
// compiler vectorise the common cases.
template <BinaryOp kOp, typename T, typename Out>
void Row(int64_t len, const T* a, int64_t sa, const T* b, int64_t sb, Out* out) {
  if (sa == 1 && sb == 1) {
    for (int64_t i = 0; i < len; ++i) out[i] = Apply<kOp, T>(a[i], b[i]);
  } else if (sa == 1 && sb == 0) {
    const T y = b[0];
    for (int64_t i = 0; i < len; ++i) out[i] = Apply<kOp, T>(a[i], y);
  } else if (sa == 0 && sb == 1) {
    const T x = a[0];
    for (int64_t i = 0; i < len; ++i) out[i] = Apply<kOp, T>(x, b[i]);
  } else {
    for (int64_t i = 0; i < len; ++i) out[i] = Apply<kOp, T>(a[i * sa], b[i * sb]);
  }
}

// Integer `/` and `%`: truncating; INT32_MIN % -1 is 0 (it would trap in
// hardware). Stops at the first zero divisor (kDivisionByZero) or i32
// INT32_MIN / -1 (kOverflow, the one quotient out of range), before writing
// it, with *stop its index.
template <BinaryOp kOp, typename T>
KernelStatus IntDivRow(int64_t len, const T* a, int64_t sa, const T* b, int64_t sb, T* out,
                       int64_t* stop) {
  for (int64_t i = 0; i < len; ++i) {
    const T x = a[i * sa];
    const T y = b[i * sb];
    KernelStatus bad = KernelStatus::kOk;
    if (y == 0) {
      bad = KernelStatus::kDivisionByZero;
    } else if constexpr (std::is_same_v<T, int32_t>) {
      if (y == -1) {
        if (kOp == BinaryOp::kDiv && x == INT32_MIN) {
          bad = KernelStatus::kOverflow;
        } else {
          out[i] = kOp == BinaryOp::kRem ? 0 : -x;
          continue;
        }
      }
    }
    if (bad != KernelStatus::kOk) {
      *stop = i;
      return bad;
    }
    out[i] = kOp == BinaryOp::kRem ? static_cast<T>(x % y) : static_cast<T>(x / y);
  }
  return KernelStatus::kOk;
}

constexpr bool IsCheckedI32Op(BinaryOp op) {
  return op == BinaryOp::kAdd || op == BinaryOp::kSub || op == BinaryOp::kMul;
}

// One checked i32 `+ - *`: false when the exact result is outside i32 (*r is
// then the wrapped one).
template <BinaryOp kOp>
inline bool CheckedI32(int32_t a, int32_t b, int32_t* r) {
  if constexpr (kOp == BinaryOp::kAdd) return !__builtin_add_overflow(a, b, r);
  if constexpr (kOp == BinaryOp::kSub) return !__builtin_sub_overflow(a, b, r);
  return !__builtin_mul_overflow(a, b, r);
}

// A row of checked i32 `+ - *`: the index of the first element whose result
// overflows, or -1. That element and the ones after it are not written, so
// an operand the output overwrites in place still holds the value the error
// message shows. Each block is checked before it is written; both loops are
// branch-free, so the compiler vectorises them.
template <BinaryOp kOp>
int64_t CheckedI32Row(int64_t len, const int32_t* a, int64_t sa, const int32_t* b, int64_t sb,
                      int32_t* out) {
  constexpr int64_t kBlock = 256;
  for (int64_t i0 = 0; i0 < len; i0 += kBlock) {
    const int64_t i1 = std::min(len, i0 + kBlock);
    bool overflow = false;
    for (int64_t i = i0; i < i1; ++i) {
      int32_t r;
      overflow |= !CheckedI32<kOp>(a[i * sa], b[i * sb], &r);
    }
    for (int64_t i = i0; i < i1; ++i) {
      int32_t r;
      if (overflow && !CheckedI32<kOp>(a[i * sa], b[i * sb], &r)) return i;
      CheckedI32<kOp>(a[i * sa], b[i * sb], &r);
      out[i] = r;
    }
  }
  return -1;
}

template <BinaryOp kOp, typename T>
KernelStatus BinaryTyped(absl::Span<const int64_t> shape, Strided a, Strided b, void* out,
                         int64_t* stopped_at) {
  using Out = std::conditional_t<IsComparisonOp(kOp), uint8_t, T>;
  const T* pa = static_cast<const T*>(a.data);
  const T* pb = static_cast<const T*>(b.data);
  Out* po = static_cast<Out*>(out);
  KernelStatus status = KernelStatus::kOk;
  ForEachRow<2>(shape, {a.strides, b.strides},
                [&](const std::array<int64_t, 2>& off, int64_t out_off, int64_t len,
                    const std::array<int64_t, 2>& step) {
                  if constexpr ((kOp == BinaryOp::kDiv || kOp == BinaryOp::kRem) &&
                                !std::is_same_v<T, float>) {
                    int64_t at = -1;
                    status = IntDivRow<kOp, T>(len, pa + off[0], step[0], pb + off[1], step[1],
                                               po + out_off, &at);
                    if (status == KernelStatus::kOk) return true;
                    if (stopped_at != nullptr) *stopped_at = out_off + at;
                    return false;
                  } else if constexpr (IsCheckedI32Op(kOp) && std::is_same_v<T, int32_t>) {
                    const int64_t at = CheckedI32Row<kOp>(len, pa + off[0], step[0], pb + off[1],
                                                          step[1], po + out_off);
                    if (at < 0) return true;
                    status = KernelStatus::kOverflow;
                    if (stopped_at != nullptr) *stopped_at = out_off + at;
                    return false;
                  } else {
                    Row<kOp, T, Out>(len, pa + off[0], step[0], pb + off[1], step[1], po + out_off);
                    return true;
                  }
                });
  return status;
}

template <BinaryOp kOp>
KernelStatus BinaryOfDType(DType dtype, absl::Span<const int64_t> shape, Strided a, Strided b,
                           void* out, int64_t* stopped_at) {
  if constexpr (IsF32OnlyOp(kOp)) {
    assert(dtype == DType::kF32 && "Binary: an f32-only op of another dtype");
    return BinaryTyped<kOp, float>(shape, a, b, out, stopped_at);
  }
  switch (dtype) {
    case DType::kF32:
      return BinaryTyped<kOp, float>(shape, a, b, out, stopped_at);
    case DType::kI32:
      return BinaryTyped<kOp, int32_t>(shape, a, b, out, stopped_at);
    case DType::kU32:
      return BinaryTyped<kOp, uint32_t>(shape, a, b, out, stopped_at);
    case DType::kBool:
      // Only comparisons are defined on bool (the header allows kEq and kNe;
      // the ordered ones compare 0 < 1 and cost nothing to allow).
      if constexpr (IsComparisonOp(kOp)) {
        return BinaryTyped<kOp, uint8_t>(shape, a, b, out, stopped_at);
      }
      break;
  }
  assert(false && "Binary: unsupported dtype for this op");
  return KernelStatus::kOk;
}

// ---------------------------------------------------------------------------
// Unary ops.

inline float FlipSign(float x) {
  return std::bit_cast<float>(std::bit_cast<uint32_t>(x) ^ 0x80000000u);
}
inline float ClearSign(float x) {
  return std::bit_cast<float>(std::bit_cast<uint32_t>(x) & 0x7fffffffu);
}

void UnaryF32(UnaryOp op, int64_t count, const float* in, float* out) {
  const size_t n = static_cast<size_t>(count);
  switch (op) {
    case UnaryOp::kNeg:
      for (int64_t i = 0; i < count; ++i) out[i] = FlipSign(in[i]);
      return;
    case UnaryOp::kExp:
      ExpF32(in, out, n);
      return;
    case UnaryOp::kLog:
      LogF32(in, out, n);
      return;
    case UnaryOp::kTanh:
      TanhF32(in, out, n);
      return;
    case UnaryOp::kSqrt:
      for (int64_t i = 0; i < count; ++i) out[i] = std::sqrt(in[i]);
      return;
    case UnaryOp::kAbs:
      for (int64_t i = 0; i < count; ++i) out[i] = ClearSign(in[i]);
      return;
    case UnaryOp::kSigmoid:
      SigmoidF32(in, out, n);
      return;
    case UnaryOp::kFloor:
      FloorF32(in, out, n);
      return;
    case UnaryOp::kCeil:
      CeilF32(in, out, n);
      return;
    case UnaryOp::kRound:
      RoundF32(in, out, n);
      return;
    case UnaryOp::kTrunc:
      TruncF32(in, out, n);
      return;
    case UnaryOp::kSign:
      SignF32(in, out, n);
      return;
    case UnaryOp::kExpm1:
      Expm1F32(in, out, n);
      return;
    case UnaryOp::kLog1p:
      Log1pF32(in, out, n);
      return;
    case UnaryOp::kSinh:
      SinhF32(in, out, n);
      return;
    case UnaryOp::kCosh:
      CoshF32(in, out, n);
      return;
    case UnaryOp::kErf:
      ErfF32(in, out, n);
      return;
    case UnaryOp::kErfc:
      ErfcF32(in, out, n);
      return;
    case UnaryOp::kSin:
      SinF32(in, out, n);
      return;
    case UnaryOp::kCos:
      CosF32(in, out, n);
      return;
    case UnaryOp::kTan:
      TanF32(in, out, n);
      return;
    case UnaryOp::kAtan:
      AtanF32(in, out, n);
      return;
    case UnaryOp::kAsin:
      AsinF32(in, out, n);
      return;
    case UnaryOp::kAcos:
      AcosF32(in, out, n);
      return;
    case UnaryOp::kLgamma:
      LgammaF32(in, out, n);
      return;
    case UnaryOp::kRelu:
      // The Max rule with b = 0.0f: NaN and -0.0 pass through unchanged.
      for (int64_t i = 0; i < count; ++i) {
        const float x = in[i];
        out[i] = (x >= 0.0f || std::isnan(x)) ? x : 0.0f;
      }
      return;
  }
}

// ---------------------------------------------------------------------------
// Cast.

// The element as it is stored, for the integer and bool dtypes.
template <typename T>
inline T Load(const void* p, int64_t i) {
  T v;
  std::memcpy(&v, static_cast<const unsigned char*>(p) + i * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return v;
}
template <typename T>
inline void Store(void* p, int64_t i, T v) {
  std::memcpy(static_cast<unsigned char*>(p) + i * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
}

// f32 to an integer dtype: truncation toward zero, with NaN and out-of-range
// values rejected before the conversion (which would be UB). The bounds are
// exclusive and exact in double: any float strictly between them truncates
// into the target range.
template <typename To>
CastStatus CastF32ToInt(int64_t count, const void* in, void* out, int64_t* bad_index) {
  constexpr double kLo = std::is_same_v<To, int32_t> ? -2147483649.0 : -1.0;
  constexpr double kHi = std::is_same_v<To, int32_t> ? 2147483648.0 : 4294967296.0;
  for (int64_t i = 0; i < count; ++i) {
    const float x = Load<float>(in, i);
    CastStatus bad = CastStatus::kOk;
    if (std::isnan(x)) {
      bad = CastStatus::kNaN;
    } else if (!(static_cast<double>(x) > kLo && static_cast<double>(x) < kHi)) {
      bad = CastStatus::kOutOfRange;
    }
    if (bad != CastStatus::kOk) {
      if (bad_index != nullptr) *bad_index = i;
      return bad;
    }
    Store<To>(out, i, static_cast<To>(x));
  }
  return CastStatus::kOk;
}

// Bool elements are bytes holding 0 or 1; any nonzero byte reads as true.
template <typename T>
inline auto LoadElement(const void* p, int64_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    return Load<uint8_t>(p, i) != 0;
  } else {
    return Load<T>(p, i);
  }
}

template <typename From, typename To>
void CastConvert(int64_t count, const void* in, void* out) {
  for (int64_t i = 0; i < count; ++i) {
    const From x = LoadElement<From>(in, i);
    if constexpr (std::is_same_v<To, bool>) {
      Store<uint8_t>(out, i, x != 0 ? 1 : 0);  // f32: NaN != 0 is true, -0.0 != 0 false
    } else {
      // bool gives 0 or 1; int -> f32 rounds to nearest even (the default
      // rounding mode); i32 <-> u32 is modulo 2^32 (defined since C++20).
      Store<To>(out, i, static_cast<To>(x));
    }
  }
}

template <typename From>
CastStatus CastFrom(DType to, int64_t count, const void* in, void* out, int64_t* bad_index) {
  switch (to) {
    case DType::kF32:
      CastConvert<From, float>(count, in, out);
      return CastStatus::kOk;
    case DType::kI32:
      if constexpr (std::is_same_v<From, float>) {
        return CastF32ToInt<int32_t>(count, in, out, bad_index);
      } else {
        CastConvert<From, int32_t>(count, in, out);
        return CastStatus::kOk;
      }
    case DType::kU32:
      if constexpr (std::is_same_v<From, float>) {
        return CastF32ToInt<uint32_t>(count, in, out, bad_index);
      } else {
        CastConvert<From, uint32_t>(count, in, out);
        return CastStatus::kOk;
      }
    case DType::kBool:
      CastConvert<From, bool>(count, in, out);
      return CastStatus::kOk;
  }
  return CastStatus::kOk;
}

}  // namespace

const char* Spelling(BinaryOp op) {
  switch (op) {
#define ALEA_BINARY(name, opcode, spelling, semantics) \
  case BinaryOp::k##name:                              \
    return spelling;
#define ALEA_UNARY(name, opcode, spelling, semantics)
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
  }
  return "?";
}

const char* Spelling(UnaryOp op) {
  switch (op) {
#define ALEA_BINARY(name, opcode, spelling, semantics)
#define ALEA_UNARY(name, opcode, spelling, semantics) \
  case UnaryOp::k##name:                              \
    return spelling;
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
  }
  return "?";
}

bool IsComparison(BinaryOp op) { return IsComparisonOp(op); }
bool IsF32Only(BinaryOp op) { return IsF32OnlyOp(op); }

int ElementSize(DType dtype) { return dtype == DType::kBool ? 1 : 4; }

KernelStatus Binary(BinaryOp op, DType dtype, absl::Span<const int64_t> shape, Strided a, Strided b,
                    void* out, int64_t* stopped_at) {
  switch (op) {
#define ALEA_BINARY(name, opcode, spelling, semantics) \
  case BinaryOp::k##name:                              \
    return BinaryOfDType<BinaryOp::k##name>(dtype, shape, a, b, out, stopped_at);
#define ALEA_UNARY(name, opcode, spelling, semantics)
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
  }
  return KernelStatus::kOk;
}

KernelStatus Unary(UnaryOp op, DType dtype, int64_t count, const void* in, void* out,
                   int64_t* stopped_at) {
  if (count <= 0) return KernelStatus::kOk;
  switch (dtype) {
    case DType::kF32:
      UnaryF32(op, count, static_cast<const float*>(in), static_cast<float*>(out));
      return KernelStatus::kOk;
    case DType::kI32: {
      if (op != UnaryOp::kNeg && op != UnaryOp::kAbs) break;
      const int32_t* x = static_cast<const int32_t*>(in);
      int32_t* y = static_cast<int32_t*>(out);
      // Only INT32_MIN has no i32 negation; find it before writing anything,
      // so that an in-place operand still holds it.
      bool overflow = false;
      for (int64_t i = 0; i < count; ++i) overflow |= x[i] == INT32_MIN;
      if (overflow) {
        const int64_t at = std::find(x, x + count, INT32_MIN) - x;
        if (stopped_at != nullptr) *stopped_at = at;
        count = at;
      }
      if (op == UnaryOp::kNeg) {
        for (int64_t i = 0; i < count; ++i) y[i] = WrapSub(0, x[i]);
      } else {
        for (int64_t i = 0; i < count; ++i) y[i] = x[i] < 0 ? WrapSub(0, x[i]) : x[i];
      }
      return overflow ? KernelStatus::kOverflow : KernelStatus::kOk;
    }
    case DType::kU32:
      if (op == UnaryOp::kNeg) {
        const uint32_t* x = static_cast<const uint32_t*>(in);
        uint32_t* y = static_cast<uint32_t*>(out);
        for (int64_t i = 0; i < count; ++i) y[i] = 0u - x[i];
        return KernelStatus::kOk;
      }
      break;
    case DType::kBool:
      break;
  }
  assert(false && "Unary: unsupported dtype for this op");
  return KernelStatus::kOk;
}

namespace {

template <typename T>
void WhereTyped(absl::Span<const int64_t> shape, Strided mask, Strided a, Strided b, void* out) {
  const uint8_t* pm = static_cast<const uint8_t*>(mask.data);
  const T* pa = static_cast<const T*>(a.data);
  const T* pb = static_cast<const T*>(b.data);
  T* po = static_cast<T*>(out);
  ForEachRow<3>(shape, {mask.strides, a.strides, b.strides},
                [&](const std::array<int64_t, 3>& off, int64_t out_off, int64_t len,
                    const std::array<int64_t, 3>& step) {
                  const uint8_t* m = pm + off[0];
                  const T* x = pa + off[1];
                  const T* y = pb + off[2];
                  T* o = po + out_off;
                  for (int64_t i = 0; i < len; ++i) {
                    o[i] = m[i * step[0]] != 0 ? x[i * step[1]] : y[i * step[2]];
                  }
                  return true;
                });
}

template <typename T>
void GatherTyped(absl::Span<const int64_t> shape, Strided in, void* out) {
  const T* pi = static_cast<const T*>(in.data);
  T* po = static_cast<T*>(out);
  ForEachRow<1>(shape, {in.strides},
                [&](const std::array<int64_t, 1>& off, int64_t out_off, int64_t len,
                    const std::array<int64_t, 1>& step) {
                  const T* x = pi + off[0];
                  T* o = po + out_off;
                  if (step[0] == 1) {
                    std::memmove(o, x, static_cast<size_t>(len) * sizeof(T));
                  } else {
                    for (int64_t i = 0; i < len; ++i) o[i] = x[i * step[0]];
                  }
                  return true;
                });
}

}  // namespace

// Where and Gather only move elements, so they work on the bit patterns
// (uint32_t for the 4-byte dtypes, bytes for bool): no float compare or
// conversion can touch a NaN payload or a signed zero.
void Where(DType dtype, absl::Span<const int64_t> shape, Strided mask, Strided a, Strided b,
           void* out) {
  if (ElementSize(dtype) == 4) {
    WhereTyped<uint32_t>(shape, mask, a, b, out);
  } else {
    WhereTyped<uint8_t>(shape, mask, a, b, out);
  }
}

void Gather(DType dtype, absl::Span<const int64_t> shape, Strided in, void* out) {
  if (ElementSize(dtype) == 4) {
    GatherTyped<uint32_t>(shape, in, out);
  } else {
    GatherTyped<uint8_t>(shape, in, out);
  }
}

CastStatus Cast(DType from, DType to, int64_t count, const void* in, void* out,
                int64_t* bad_index) {
  if (count <= 0) return CastStatus::kOk;
  if (from == to && from != DType::kBool) {
    if (in != out) std::memmove(out, in, static_cast<size_t>(count) * 4);
    return CastStatus::kOk;
  }
  switch (from) {
    case DType::kF32:
      return CastFrom<float>(to, count, in, out, bad_index);
    case DType::kI32:
      return CastFrom<int32_t>(to, count, in, out, bad_index);
    case DType::kU32:
      return CastFrom<uint32_t>(to, count, in, out, bad_index);
    case DType::kBool:
      return CastFrom<bool>(to, count, in, out, bad_index);
  }
  return CastStatus::kOk;
}

}  // namespace alea::vm::kernels
