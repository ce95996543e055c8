// Scalar math natives. Float functions are the C library's, as
// docs/language.md "Numbers" says; NaN handling of min/max is explicit
// because std::min is not.
#include <chrono>
#include <cmath>
#include <cstdint>

#include "stdlib/natives.h"

namespace alea::stdlib {

using vm::AsFloat;
using vm::AsInt;
using vm::FromFloat;
using vm::FromInt;
using vm::Value;

absl::StatusOr<Value> Native_abs_i(vm::NativeContext& ctx, const Value* args) {
  const int64_t x = AsInt(args[0]);
  if (x == INT64_MIN) return ctx.Fail(vm::RuntimeErrorId::kOverflowAbs, x);
  return FromInt(x < 0 ? -x : x);
}

absl::StatusOr<Value> Native_abs_f(vm::NativeContext&, const Value* args) {
  return FromFloat(std::fabs(AsFloat(args[0])));
}

absl::StatusOr<Value> Native_min_i(vm::NativeContext&, const Value* args) {
  return FromInt(AsInt(args[1]) < AsInt(args[0]) ? AsInt(args[1]) : AsInt(args[0]));
}

absl::StatusOr<Value> Native_max_i(vm::NativeContext&, const Value* args) {
  return FromInt(AsInt(args[1]) > AsInt(args[0]) ? AsInt(args[1]) : AsInt(args[0]));
}

absl::StatusOr<Value> Native_min_f(vm::NativeContext&, const Value* args) {
  const double x = AsFloat(args[0]), y = AsFloat(args[1]);
  if (std::isnan(x) || std::isnan(y)) return FromFloat(std::nan(""));
  return FromFloat(y < x ? y : x);
}

absl::StatusOr<Value> Native_max_f(vm::NativeContext&, const Value* args) {
  const double x = AsFloat(args[0]), y = AsFloat(args[1]);
  if (std::isnan(x) || std::isnan(y)) return FromFloat(std::nan(""));
  return FromFloat(y > x ? y : x);
}

absl::StatusOr<Value> Native_sqrt(vm::NativeContext&, const Value* args) {
  return FromFloat(std::sqrt(AsFloat(args[0])));
}

absl::StatusOr<Value> Native_exp(vm::NativeContext&, const Value* args) {
  return FromFloat(std::exp(AsFloat(args[0])));
}

absl::StatusOr<Value> Native_log(vm::NativeContext&, const Value* args) {
  return FromFloat(std::log(AsFloat(args[0])));
}

absl::StatusOr<Value> Native_floor(vm::NativeContext&, const Value* args) {
  return FromFloat(std::floor(AsFloat(args[0])));
}

absl::StatusOr<Value> Native_ceil(vm::NativeContext&, const Value* args) {
  return FromFloat(std::ceil(AsFloat(args[0])));
}

absl::StatusOr<Value> Native_clock(vm::NativeContext&, const Value*) {
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  return FromFloat(std::chrono::duration<double>(now).count());
}

// ---- Float functions ----

#define ALEA_FLOAT_UNARY(name, expression)                                       \
  absl::StatusOr<Value> Native_f_##name(vm::NativeContext&, const Value* args) { \
    const double x = AsFloat(args[0]);                                           \
    return FromFloat(expression);                                                \
  }
ALEA_FLOAT_UNARY(sin, std::sin(x))
ALEA_FLOAT_UNARY(cos, std::cos(x))
ALEA_FLOAT_UNARY(tan, std::tan(x))
ALEA_FLOAT_UNARY(asin, std::asin(x))
ALEA_FLOAT_UNARY(acos, std::acos(x))
ALEA_FLOAT_UNARY(atan, std::atan(x))
ALEA_FLOAT_UNARY(sinh, std::sinh(x))
ALEA_FLOAT_UNARY(cosh, std::cosh(x))
ALEA_FLOAT_UNARY(erf, std::erf(x))
ALEA_FLOAT_UNARY(erfc, std::erfc(x))
ALEA_FLOAT_UNARY(log1p, std::log1p(x))
ALEA_FLOAT_UNARY(expm1, std::expm1(x))
ALEA_FLOAT_UNARY(lgamma, std::lgamma(x))
ALEA_FLOAT_UNARY(round, std::nearbyint(x))
ALEA_FLOAT_UNARY(trunc, std::trunc(x))
ALEA_FLOAT_UNARY(sign, std::isnan(x) ? x : (x > 0 ? 1.0 : x < 0 ? -1.0 : x))
ALEA_FLOAT_UNARY(tanh, std::tanh(x))
ALEA_FLOAT_UNARY(sigmoid, 1.0 / (1.0 + std::exp(-x)))
ALEA_FLOAT_UNARY(relu, std::isnan(x) ? x : (x > 0.0 ? x : 0.0))
#undef ALEA_FLOAT_UNARY

absl::StatusOr<Value> Native_f_atan2(vm::NativeContext&, const Value* args) {
  return FromFloat(std::atan2(AsFloat(args[0]), AsFloat(args[1])));
}

absl::StatusOr<Value> Native_f_hypot(vm::NativeContext&, const Value* args) {
  return FromFloat(std::hypot(AsFloat(args[0]), AsFloat(args[1])));
}

absl::StatusOr<Value> Native_f_pow(vm::NativeContext&, const Value* args) {
  return FromFloat(std::pow(AsFloat(args[0]), AsFloat(args[1])));
}

absl::StatusOr<Value> Native_is_nan(vm::NativeContext&, const Value* args) {
  return vm::FromBool(std::isnan(AsFloat(args[0])));
}

absl::StatusOr<Value> Native_is_inf(vm::NativeContext&, const Value* args) {
  return vm::FromBool(std::isinf(AsFloat(args[0])));
}

absl::StatusOr<Value> Native_pow_i(vm::NativeContext& ctx, const Value* args) {
  int64_t base = vm::AsInt(args[0]);
  int64_t k = vm::AsInt(args[1]);
  if (k < 0) return ctx.Fail(vm::RuntimeErrorId::kNegativePower, base, k);
  int64_t out = 1;
  // Square and multiply, each step checked: an overflow anywhere is one in
  // the result too (a squared base is only used while bits of k remain).
  while (k > 0) {
    if ((k & 1) != 0 && __builtin_mul_overflow(out, base, &out)) {
      return ctx.Fail(vm::RuntimeErrorId::kOverflowPow, vm::AsInt(args[0]), vm::AsInt(args[1]));
    }
    k >>= 1;
    if (k > 0 && __builtin_mul_overflow(base, base, &base)) {
      return ctx.Fail(vm::RuntimeErrorId::kOverflowPow, vm::AsInt(args[0]), vm::AsInt(args[1]));
    }
  }
  return vm::FromInt(out);
}

absl::StatusOr<Value> Native_gcd(vm::NativeContext& ctx, const Value* args) {
  // On magnitudes as unsigned: |INT64_MIN| fits, and only a result of 2^63
  // does not fit an Int.
  auto magnitude = [](int64_t v) {
    return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  };
  uint64_t a = magnitude(vm::AsInt(args[0]));
  uint64_t b = magnitude(vm::AsInt(args[1]));
  while (b != 0) {
    const uint64_t r = a % b;
    a = b;
    b = r;
  }
  if (a > static_cast<uint64_t>(INT64_MAX)) {
    return ctx.Fail(vm::RuntimeErrorId::kOverflowGcd, vm::AsInt(args[0]), vm::AsInt(args[1]));
  }
  return vm::FromInt(static_cast<int64_t>(a));
}

}  // namespace alea::stdlib
