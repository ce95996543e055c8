// Array natives. Arguments are borrowed, so every element a result shares
// with an argument is retained; closures take their arguments owned, so an
// element is retained before it is passed. On an error, whatever the native
// built so far is released before it returns.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "stdlib/natives.h"
#include "vm/compare.h"

namespace alea::stdlib {

using vm::AsInt;
using vm::AsObject;
using vm::FromInt;
using vm::FromObject;
using vm::Object;
using vm::Slots;
using vm::Value;

namespace {

absl::StatusOr<Value> Range(vm::NativeContext& ctx, int64_t from, int64_t to) {
  const uint64_t n = to > from ? static_cast<uint64_t>(to) - static_cast<uint64_t>(from) : 0;
  absl::StatusOr<Object*> arr = ctx.NewArray(n, false);
  if (!arr.ok()) return arr.status();
  Value* slots = Slots(*arr);
  for (uint64_t i = 0; i < n; ++i) slots[i] = static_cast<Value>(from) + i;
  return FromObject(*arr);
}

// A new array of `length` elements copied (and retained) from `src`.
absl::StatusOr<Object*> CopyOf(vm::NativeContext& ctx, const Object* src, uint64_t length,
                               bool refs) {
  absl::StatusOr<Object*> arr = ctx.NewArray(length, refs);
  if (!arr.ok()) return arr.status();
  if (length) std::memcpy(Slots(*arr), Slots(src), length * sizeof(Value));
  if (refs) {
    for (uint64_t i = 0; i < length; ++i) vm::Retain(Slots(*arr)[i]);
  }
  return arr;
}

void ReleaseAll(vm::NativeContext& ctx, const std::vector<Value>& values) {
  for (Value v : values) ctx.heap().ReleaseValue(v);
}

// Calls predicate `f` on each element until one answers `stop_on`.
absl::StatusOr<Value> Quantify(vm::NativeContext& ctx, const Value* args, bool stop_on) {
  const Object* xs = AsObject(args[0]);
  for (uint64_t i = 0; i < xs->length; ++i) {
    Value x = Slots(xs)[i];
    if (xs->elements_are_refs) vm::Retain(x);
    absl::StatusOr<Value> b = ctx.Call(args[1], {&x, 1});
    if (!b.ok()) return b.status();
    if ((*b != 0) == stop_on) return vm::FromBool(stop_on);
  }
  return vm::FromBool(!stop_on);
}

}  // namespace

absl::StatusOr<Value> Native_range1(vm::NativeContext& ctx, const Value* args) {
  return Range(ctx, 0, AsInt(args[0]));
}

absl::StatusOr<Value> Native_range2(vm::NativeContext& ctx, const Value* args) {
  return Range(ctx, AsInt(args[0]), AsInt(args[1]));
}

absl::StatusOr<Value> Native_map(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  absl::StatusOr<Object*> out = ctx.NewArray(xs->length, ctx.type(args[2]).is_reference());
  if (!out.ok()) return out.status();
  for (uint64_t i = 0; i < xs->length; ++i) {
    Value x = Slots(xs)[i];
    if (xs->elements_are_refs) vm::Retain(x);
    absl::StatusOr<Value> y = ctx.Call(args[1], {&x, 1});
    if (!y.ok()) {
      ctx.heap().Release(*out);  // unfilled slots are null
      return y.status();
    }
    Slots(*out)[i] = *y;
  }
  return FromObject(*out);
}

absl::StatusOr<Value> Native_filter(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const bool refs = xs->elements_are_refs;
  std::vector<Value> kept;
  for (uint64_t i = 0; i < xs->length; ++i) {
    Value x = Slots(xs)[i];
    if (refs) vm::Retain(x);
    absl::StatusOr<Value> keep = ctx.Call(args[1], {&x, 1});
    if (!keep.ok()) {
      if (refs) ReleaseAll(ctx, kept);
      return keep.status();
    }
    if (*keep) {
      if (refs) vm::Retain(x);
      kept.push_back(x);
    }
  }
  absl::StatusOr<Object*> out = ctx.NewArray(kept.size(), refs);
  if (!out.ok()) {
    if (refs) ReleaseAll(ctx, kept);
    return out.status();
  }
  if (!kept.empty()) std::memcpy(Slots(*out), kept.data(), kept.size() * sizeof(Value));
  return FromObject(*out);
}

absl::StatusOr<Value> Native_fold(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  Value acc = args[1];
  if (ctx.arg_is_reference(1)) vm::Retain(acc);
  for (uint64_t i = 0; i < xs->length; ++i) {
    Value x = Slots(xs)[i];
    if (xs->elements_are_refs) vm::Retain(x);
    const Value call_args[2] = {acc, x};
    absl::StatusOr<Value> next = ctx.Call(args[2], call_args);
    if (!next.ok()) return next.status();  // the callee released acc and x
    acc = *next;
  }
  return acc;
}

absl::StatusOr<Value> Native_zip(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const Object* ys = AsObject(args[1]);
  const bool xrefs = ctx.type(args[2]).is_reference();
  const bool yrefs = ctx.type(args[3]).is_reference();
  const uint64_t n = std::min(xs->length, ys->length);
  absl::StatusOr<Object*> out = ctx.NewArray(n, true);
  if (!out.ok()) return out.status();
  for (uint64_t i = 0; i < n; ++i) {
    absl::StatusOr<Object*> pair = ctx.NewTuple(2);
    if (!pair.ok()) {
      ctx.heap().Release(*out);
      return pair.status();
    }
    Value x = Slots(xs)[i], y = Slots(ys)[i];
    if (xrefs) vm::Retain(x);
    if (yrefs) vm::Retain(y);
    Slots(*pair)[0] = x;
    Slots(*pair)[1] = y;
    vm::Mask(*pair)[0] = xrefs;
    vm::Mask(*pair)[1] = yrefs;
    Slots(*out)[i] = FromObject(*pair);
  }
  return FromObject(*out);
}

absl::StatusOr<Value> Native_append(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const Object* ys = AsObject(args[1]);
  const bool refs = ctx.type(args[2]).is_reference();
  absl::StatusOr<Object*> out = ctx.NewArray(xs->length + ys->length, refs);
  if (!out.ok()) return out.status();
  Value* slots = Slots(*out);
  if (xs->length) std::memcpy(slots, Slots(xs), xs->length * sizeof(Value));
  if (ys->length) std::memcpy(slots + xs->length, Slots(ys), ys->length * sizeof(Value));
  if (refs) {
    for (uint64_t i = 0; i < (*out)->length; ++i) vm::Retain(slots[i]);
  }
  return FromObject(*out);
}

absl::StatusOr<Value> Native_reverse(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  absl::StatusOr<Object*> out = CopyOf(ctx, xs, xs->length, ctx.type(args[1]).is_reference());
  if (!out.ok()) return out.status();
  std::reverse(Slots(*out), Slots(*out) + xs->length);
  return FromObject(*out);
}

absl::StatusOr<Value> Native_slice(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const int64_t lo = AsInt(args[1]), hi = AsInt(args[2]);
  if (lo < 0) return ctx.Fail(vm::RuntimeErrorId::kNegativeSliceBound, lo);
  if (hi < 0) return ctx.Fail(vm::RuntimeErrorId::kNegativeSliceBound, hi);
  const uint64_t length = xs->length;
  const uint64_t from = std::min<uint64_t>(static_cast<uint64_t>(lo), length);
  const uint64_t to = std::max(from, std::min<uint64_t>(static_cast<uint64_t>(hi), length));
  const bool refs = ctx.type(args[3]).is_reference();
  absl::StatusOr<Object*> out = ctx.NewArray(to - from, refs);
  if (!out.ok()) return out.status();
  Value* slots = Slots(*out);
  for (uint64_t i = from; i < to; ++i) {
    slots[i - from] = Slots(xs)[i];
    if (refs) vm::Retain(slots[i - from]);
  }
  return FromObject(*out);
}

absl::StatusOr<Value> Native_sort(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const uint32_t elem = ctx.type_index(args[1]);
  const vm::TypeDesc& t = ctx.type(args[1]);
  absl::StatusOr<Object*> out = CopyOf(ctx, xs, xs->length, t.is_reference());
  if (!out.ok()) return out.status();
  Value* first = Slots(*out);
  Value* last = first + xs->length;
  switch (t.kind) {
    case vm::TypeDesc::Kind::kInt:
      std::stable_sort(first, last, [](Value a, Value b) { return AsInt(a) < AsInt(b); });
      break;
    case vm::TypeDesc::Kind::kFloat:
      // NaN last: a NaN is never less than anything, and anything else is
      // less than a NaN.
      std::stable_sort(first, last, [](Value a, Value b) {
        const double x = vm::AsFloat(a), y = vm::AsFloat(b);
        return x < y || (!std::isnan(x) && std::isnan(y));
      });
      break;
    default: {
      const vm::Module& m = ctx.module();
      std::stable_sort(first, last, [&](Value a, Value b) {
        return vm::Compare(a, b, elem, m, /*total=*/true) == vm::Order::kLess;
      });
    }
  }
  return FromObject(*out);
}

absl::StatusOr<Value> Native_any(vm::NativeContext& ctx, const Value* args) {
  return Quantify(ctx, args, true);
}

absl::StatusOr<Value> Native_all(vm::NativeContext& ctx, const Value* args) {
  return Quantify(ctx, args, false);
}

absl::StatusOr<Value> Native_sum_i(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  int64_t sum = 0;
  for (uint64_t i = 0; i < xs->length; ++i) {
    if (__builtin_add_overflow(sum, AsInt(Slots(xs)[i]), &sum)) {
      return ctx.Fail(vm::RuntimeErrorId::kOverflowSum);
    }
  }
  return FromInt(sum);
}

absl::StatusOr<Value> Native_sum_f(vm::NativeContext&, const Value* args) {
  const Object* xs = AsObject(args[0]);
  double sum = 0.0;
  for (uint64_t i = 0; i < xs->length; ++i) sum += vm::AsFloat(Slots(xs)[i]);
  return vm::FromFloat(sum);
}

absl::StatusOr<Value> Native_len_s(vm::NativeContext&, const Value* args) {
  return FromInt(static_cast<int64_t>(AsObject(args[0])->length));
}

}  // namespace alea::stdlib
