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

}  // namespace alea::stdlib
