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
#include "stdlib/prelude_values.h"
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

// The order of `sort`: Ints, Floats with NaN after everything, any other
// ordered type by vm::Compare.
bool LessByType(Value a, Value b, vm::TypeDesc::Kind kind, uint32_t type, const vm::Module& m) {
  switch (kind) {
    case vm::TypeDesc::Kind::kInt:
      return AsInt(a) < AsInt(b);
    case vm::TypeDesc::Kind::kFloat: {
      const double x = vm::AsFloat(a), y = vm::AsFloat(b);
      return x < y || (!std::isnan(x) && std::isnan(y));
    }
    default:
      return vm::Compare(a, b, type, m, /*total=*/true) == vm::Order::kLess;
  }
}

// `min`/`max` of an array: the first of the least (`want` kLess) or greatest
// elements; of Floats, NaN when there is one (as NumPy's min and max).
absl::StatusOr<Value> Extreme(vm::NativeContext& ctx, const Value* args, const char* name,
                              vm::Order want) {
  const Object* xs = AsObject(args[0]);
  if (xs->length == 0) return ctx.Fail(vm::RuntimeErrorId::kEmptyArrayExtreme, name);
  const uint32_t type = ctx.type_index(args[1]);
  const vm::TypeDesc& t = ctx.type(args[1]);
  const vm::Module& m = ctx.module();
  Value best = Slots(xs)[0];
  for (uint64_t i = 1; i < xs->length; ++i) {
    Value x = Slots(xs)[i];
    if (t.kind == vm::TypeDesc::Kind::kFloat) {
      if (std::isnan(vm::AsFloat(best))) break;
      if (std::isnan(vm::AsFloat(x))) {
        best = x;
        break;
      }
    }
    const bool better = want == vm::Order::kLess ? LessByType(x, best, t.kind, type, m)
                                                 : LessByType(best, x, t.kind, type, m);
    if (better) best = x;
  }
  if (t.is_reference()) vm::Retain(best);
  if (ctx.recording() && t.kind == vm::TypeDesc::Kind::kFloat) {
    // The elements equal to the result share its gradient evenly, as a
    // tensor's `min` and `max` do.
    std::vector<uint32_t> ties;
    for (uint64_t i = 0; i < xs->length; ++i) {
      if (vm::AsFloat(Slots(xs)[i]) == vm::AsFloat(best)) ties.push_back(ctx.SlotNode(xs, i));
    }
    uint32_t node = 0;
    for (uint32_t tie : ties) {
      node = ctx.SumNode(node, ctx.ScaledNode(tie, 1.0 / static_cast<double>(ties.size())));
    }
    ctx.SetResultNode(node);
  }
  return best;
}

// Calls predicate `f` on each element until one answers `stop_on`.
absl::StatusOr<Value> Quantify(vm::NativeContext& ctx, const Value* args, bool stop_on) {
  const Object* xs = AsObject(args[0]);
  for (uint64_t i = 0; i < xs->length; ++i) {
    Value x = Slots(xs)[i];
    if (xs->elements_are_refs) vm::Retain(x);
    const uint32_t node = ctx.SlotNode(xs, i);
    absl::StatusOr<Value> b = ctx.Call(args[1], {&x, 1}, {&node, 1});
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
    const uint32_t node = ctx.SlotNode(xs, i);
    absl::StatusOr<Value> y = ctx.Call(args[1], {&x, 1}, {&node, 1});
    if (!y.ok()) {
      ctx.heap().Release(*out);  // unfilled slots are null
      return y.status();
    }
    Slots(*out)[i] = *y;
    ctx.SetSlotNode(*out, i, ctx.CallResultNode());
  }
  return FromObject(*out);
}

absl::StatusOr<Value> Native_filter(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const bool refs = xs->elements_are_refs;
  std::vector<Value> kept;
  std::vector<uint32_t> kept_nodes;  // while `grad` records
  for (uint64_t i = 0; i < xs->length; ++i) {
    Value x = Slots(xs)[i];
    if (refs) vm::Retain(x);
    const uint32_t node = ctx.SlotNode(xs, i);
    absl::StatusOr<Value> keep = ctx.Call(args[1], {&x, 1}, {&node, 1});
    if (!keep.ok()) {
      if (refs) ReleaseAll(ctx, kept);
      return keep.status();
    }
    if (*keep) {
      if (refs) vm::Retain(x);
      kept.push_back(x);
      if (ctx.recording()) kept_nodes.push_back(node);
    }
  }
  absl::StatusOr<Object*> out = ctx.NewArray(kept.size(), refs);
  if (!out.ok()) {
    if (refs) ReleaseAll(ctx, kept);
    return out.status();
  }
  if (!kept.empty()) std::memcpy(Slots(*out), kept.data(), kept.size() * sizeof(Value));
  for (size_t i = 0; i < kept_nodes.size(); ++i) ctx.SetSlotNode(*out, i, kept_nodes[i]);
  return FromObject(*out);
}

absl::StatusOr<Value> Native_fold(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  Value acc = args[1];
  uint32_t acc_node = ctx.ArgNode(1);
  if (ctx.arg_is_reference(1)) vm::Retain(acc);
  for (uint64_t i = 0; i < xs->length; ++i) {
    Value x = Slots(xs)[i];
    if (xs->elements_are_refs) vm::Retain(x);
    const Value call_args[2] = {acc, x};
    const uint32_t nodes[2] = {acc_node, ctx.SlotNode(xs, i)};
    absl::StatusOr<Value> next = ctx.Call(args[2], call_args, nodes);
    if (!next.ok()) return next.status();  // the callee released acc and x
    acc = *next;
    acc_node = ctx.CallResultNode();
  }
  ctx.SetResultNode(acc_node);
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
    ctx.SetSlotNode(*pair, 0, ctx.SlotNode(xs, i));
    ctx.SetSlotNode(*pair, 1, ctx.SlotNode(ys, i));
    Slots(*out)[i] = FromObject(*pair);
  }
  return FromObject(*out);
}

absl::StatusOr<Value> Native_reverse(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  absl::StatusOr<Object*> out = CopyOf(ctx, xs, xs->length, ctx.type(args[1]).is_reference());
  if (!out.ok()) return out.status();
  std::reverse(Slots(*out), Slots(*out) + xs->length);
  if (ctx.recording()) {
    for (uint64_t i = 0; i < xs->length; ++i) {
      ctx.SetSlotNode(*out, xs->length - 1 - i, ctx.SlotNode(xs, i));
    }
  }
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
  ctx.CarrySlots(xs, from, *out, 0, to - from);
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
  const vm::Module& m = ctx.module();
  auto less = [&](Value a, Value b) { return LessByType(a, b, t.kind, elem, m); };
  if (!ctx.recording()) {
    std::stable_sort(first, last, less);
    return FromObject(*out);
  }
  // While `grad` records, the order as positions, so that each Float's node
  // follows it (the same stable order).
  std::vector<uint64_t> order(xs->length);
  for (uint64_t i = 0; i < xs->length; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint64_t a, uint64_t b) { return less(Slots(xs)[a], Slots(xs)[b]); });
  for (uint64_t k = 0; k < xs->length; ++k) {
    first[k] = Slots(xs)[order[k]];
    ctx.CarrySlots(xs, order[k], *out, k, 1);
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

absl::StatusOr<Value> Native_sum_f(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  double sum = 0.0;
  for (uint64_t i = 0; i < xs->length; ++i) sum += vm::AsFloat(Slots(xs)[i]);
  if (ctx.recording()) {
    uint32_t node = 0;
    for (uint64_t i = 0; i < xs->length; ++i) node = ctx.SumNode(node, ctx.SlotNode(xs, i));
    ctx.SetResultNode(node);
  }
  return vm::FromFloat(sum);
}

absl::StatusOr<Value> Native_product_i(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  int64_t product = 1;
  for (uint64_t i = 0; i < xs->length; ++i) {
    if (__builtin_mul_overflow(product, AsInt(Slots(xs)[i]), &product)) {
      return ctx.Fail(vm::RuntimeErrorId::kOverflowProduct);
    }
  }
  return FromInt(product);
}

absl::StatusOr<Value> Native_product_f(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  double product = 1.0;
  uint32_t node = 0;  // while `grad` records: the running product's
  for (uint64_t i = 0; i < xs->length; ++i) {
    const double x = vm::AsFloat(Slots(xs)[i]);
    node = ctx.ProductNode(node, ctx.SlotNode(xs, i), product, x);
    product *= x;
  }
  ctx.SetResultNode(node);
  return vm::FromFloat(product);
}

absl::StatusOr<Value> Native_min_of(vm::NativeContext& ctx, const Value* args) {
  return Extreme(ctx, args, "min", vm::Order::kLess);
}

absl::StatusOr<Value> Native_max_of(vm::NativeContext& ctx, const Value* args) {
  return Extreme(ctx, args, "max", vm::Order::kGreater);
}

absl::StatusOr<Value> Native_get(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const int64_t i = AsInt(args[1]);
  if (i < 0 || static_cast<uint64_t>(i) >= xs->length) return MakeNone(ctx);
  const bool refs = ctx.type(args[2]).is_reference();
  Value x = Slots(xs)[i];
  if (refs) vm::Retain(x);
  absl::StatusOr<Value> some = MakeSome(ctx, x, refs);
  if (some.ok()) ctx.CarrySlots(xs, i, AsObject(*some), 0, 1);
  return some;
}

absl::StatusOr<Value> Native_find(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const bool refs = ctx.type(args[2]).is_reference();
  for (uint64_t i = 0; i < xs->length; ++i) {
    Value x = Slots(xs)[i];
    if (refs) vm::Retain(x);
    const uint32_t node = ctx.SlotNode(xs, i);
    absl::StatusOr<Value> hit = ctx.Call(args[1], {&x, 1}, {&node, 1});
    if (!hit.ok()) return hit.status();
    if (*hit) {
      if (refs) vm::Retain(x);
      absl::StatusOr<Value> some = MakeSome(ctx, x, refs);
      if (some.ok()) ctx.CarrySlots(xs, i, AsObject(*some), 0, 1);
      return some;
    }
  }
  return MakeNone(ctx);
}

absl::StatusOr<Value> Native_enumerate(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const bool refs = ctx.type(args[1]).is_reference();
  absl::StatusOr<Object*> out = ctx.NewArray(xs->length, true);
  if (!out.ok()) return out.status();
  for (uint64_t i = 0; i < xs->length; ++i) {
    absl::StatusOr<Object*> pair = ctx.NewTuple(2);
    if (!pair.ok()) {
      ctx.heap().Release(*out);  // unfilled slots are null
      return pair.status();
    }
    Value x = Slots(xs)[i];
    if (refs) vm::Retain(x);
    Slots(*pair)[0] = FromInt(static_cast<int64_t>(i));
    Slots(*pair)[1] = x;
    vm::Mask(*pair)[1] = refs;
    ctx.CarrySlots(xs, i, *pair, 1, 1);
    Slots(*out)[i] = FromObject(*pair);
  }
  return FromObject(*out);
}

absl::StatusOr<Value> Native_flat_map(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const bool refs = ctx.type(args[2]).is_reference();
  std::vector<Value> parts;  // owned arrays
  uint64_t total = 0;
  for (uint64_t i = 0; i < xs->length; ++i) {
    Value x = Slots(xs)[i];
    if (xs->elements_are_refs) vm::Retain(x);
    const uint32_t node = ctx.SlotNode(xs, i);
    absl::StatusOr<Value> part = ctx.Call(args[1], {&x, 1}, {&node, 1});
    if (!part.ok()) {
      ReleaseAll(ctx, parts);
      return part.status();
    }
    parts.push_back(*part);
    total += AsObject(*part)->length;
  }
  absl::StatusOr<Object*> out = ctx.NewArray(total, refs);
  if (!out.ok()) {
    ReleaseAll(ctx, parts);
    return out.status();
  }
  uint64_t at = 0;
  for (Value part : parts) {
    const Object* p = AsObject(part);
    ctx.CarrySlots(p, 0, *out, at, p->length);
    for (uint64_t j = 0; j < p->length; ++j) {
      Value y = Slots(p)[j];
      if (refs) vm::Retain(y);
      Slots(*out)[at++] = y;
    }
  }
  ReleaseAll(ctx, parts);
  return FromObject(*out);
}

absl::StatusOr<Value> Native_take(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const int64_t n = AsInt(args[1]);
  if (n < 0) return ctx.Fail(vm::RuntimeErrorId::kNegativeCount, "take", n);
  const uint64_t count = std::min<uint64_t>(static_cast<uint64_t>(n), xs->length);
  absl::StatusOr<Object*> out = CopyOf(ctx, xs, count, ctx.type(args[2]).is_reference());
  if (!out.ok()) return out.status();
  ctx.CarrySlots(xs, 0, *out, 0, count);
  return FromObject(*out);
}

absl::StatusOr<Value> Native_drop(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const int64_t n = AsInt(args[1]);
  if (n < 0) return ctx.Fail(vm::RuntimeErrorId::kNegativeCount, "drop", n);
  const uint64_t from = std::min<uint64_t>(static_cast<uint64_t>(n), xs->length);
  const bool refs = ctx.type(args[2]).is_reference();
  absl::StatusOr<Object*> out = ctx.NewArray(xs->length - from, refs);
  if (!out.ok()) return out.status();
  for (uint64_t i = from; i < xs->length; ++i) {
    Value x = Slots(xs)[i];
    if (refs) vm::Retain(x);
    Slots(*out)[i - from] = x;
  }
  ctx.CarrySlots(xs, from, *out, 0, xs->length - from);
  return FromObject(*out);
}

absl::StatusOr<Value> Native_sort_by(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  const uint32_t key_type = ctx.type_index(args[2]);
  const vm::TypeDesc& kt = ctx.type(args[2]);
  const bool key_refs = kt.is_reference();
  std::vector<Value> keys;  // owned
  auto release_keys = [&] {
    if (key_refs) ReleaseAll(ctx, keys);
  };
  for (uint64_t i = 0; i < xs->length; ++i) {
    Value x = Slots(xs)[i];
    if (xs->elements_are_refs) vm::Retain(x);
    absl::StatusOr<Value> key = ctx.Call(args[1], {&x, 1});
    if (!key.ok()) {
      release_keys();
      return key.status();
    }
    keys.push_back(*key);
  }
  std::vector<uint64_t> order(xs->length);
  for (uint64_t i = 0; i < order.size(); ++i) order[i] = i;
  const vm::Module& m = ctx.module();
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
    return LessByType(keys[a], keys[b], kt.kind, key_type, m);
  });
  release_keys();
  absl::StatusOr<Object*> out = ctx.NewArray(xs->length, xs->elements_are_refs);
  if (!out.ok()) return out.status();
  for (uint64_t i = 0; i < order.size(); ++i) {
    Value x = Slots(xs)[order[i]];
    if (xs->elements_are_refs) vm::Retain(x);
    Slots(*out)[i] = x;
  }
  return FromObject(*out);
}

absl::StatusOr<Value> Native_len_s(vm::NativeContext&, const Value* args) {
  return FromInt(static_cast<int64_t>(AsObject(args[0])->length));
}

}  // namespace alea::stdlib
