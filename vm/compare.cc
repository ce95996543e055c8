#include "vm/compare.h"

#include <cmath>

#include "absl/container/inlined_vector.h"
#include "vm/randstate.h"
#include "vm/tensor.h"

namespace alea::vm {
namespace {

Order CompareFloats(double x, double y, bool total) {
  if (x < y) return Order::kLess;
  if (x > y) return Order::kGreater;
  if (x == y) return Order::kEqual;
  if (!total) return Order::kUnordered;
  bool xn = std::isnan(x), yn = std::isnan(y);
  if (xn && yn) return Order::kEqual;
  return xn ? Order::kGreater : Order::kLess;
}

template <typename T>
Order Compare3(T x, T y) {
  return x < y ? Order::kLess : (y < x ? Order::kGreater : Order::kEqual);
}

// Tensors are only tested for equality (the language orders none): equal
// dtypes and shapes and elementwise equal, so a NaN element is unordered. The
// order between unequal shapes is arbitrary but consistent.
Order CompareTensors(const Object* x, const Object* y) {
  if (x == y && DTypeOf(x) != DType::kF32) return Order::kEqual;
  Order o = Compare3(static_cast<int>(DTypeOf(x)), static_cast<int>(DTypeOf(y)));
  if (o == Order::kEqual) o = Compare3(RankOf(x), RankOf(y));
  for (int i = 0; o == Order::kEqual && i < RankOf(x); ++i) {
    o = Compare3(ShapeOf(x)[i], ShapeOf(y)[i]);
  }
  const int64_t n = SizeOf(x);
  for (int64_t i = 0; o == Order::kEqual && i < n; ++i) {
    switch (DTypeOf(x)) {
      case DType::kF32:
        o = CompareFloats(ElementsOf<float>(x)[i], ElementsOf<float>(y)[i], false);
        break;
      case DType::kI32:
        o = Compare3(ElementsOf<int32_t>(x)[i], ElementsOf<int32_t>(y)[i]);
        break;
      case DType::kU32:
        o = Compare3(ElementsOf<uint32_t>(x)[i], ElementsOf<uint32_t>(y)[i]);
        break;
      case DType::kBool:
        o = Compare3(ElementsOf<uint8_t>(x)[i], ElementsOf<uint8_t>(y)[i]);
        break;
    }
  }
  return o;
}

struct Pending {
  const Object* a;
  const Object* b;
  uint32_t type;
  uint64_t next;
  uint64_t common;                      // fields, or the shorter array's length
  const std::vector<uint32_t>* fields;  // the field types; null for an array
};

}  // namespace

Order Compare(Value a, Value b, uint32_t type, const Module& module, bool total) {
  absl::InlinedVector<Pending, 8> stack;
  for (;;) {
    const TypeDesc& t = module.types[type];
    Order leaf = Order::kEqual;
    switch (t.kind) {
      case TypeDesc::Kind::kInt:
        leaf = Compare3(AsInt(a), AsInt(b));
        break;
      case TypeDesc::Kind::kBool:
      case TypeDesc::Kind::kUnit:
      case TypeDesc::Kind::kDType:
        leaf = Compare3(a, b);
        break;
      case TypeDesc::Kind::kFloat:
        leaf = CompareFloats(AsFloat(a), AsFloat(b), total);
        break;
      case TypeDesc::Kind::kStr: {
        int c = StrView(AsObject(a)).compare(StrView(AsObject(b)));
        leaf = c < 0 ? Order::kLess : (c > 0 ? Order::kGreater : Order::kEqual);
        break;
      }
      case TypeDesc::Kind::kFunction:
      case TypeDesc::Kind::kPlot:
        // Not comparable in the language; identity keeps this total anyway.
        leaf = a == b ? Order::kEqual : Compare3(a, b);
        break;
      case TypeDesc::Kind::kTensor:
        leaf = CompareTensors(AsObject(a), AsObject(b));
        break;
      case TypeDesc::Kind::kRandState: {
        // Not comparable in the language; by the words (not the flag), so
        // the order stays total and never depends on addresses.
        const random::RandState& x = StateOf(AsObject(a));
        const random::RandState& y = StateOf(AsObject(b));
        leaf = Compare3(x.key.k0, y.key.k0);
        if (leaf == Order::kEqual) leaf = Compare3(x.key.k1, y.key.k1);
        if (leaf == Order::kEqual) leaf = Compare3(x.n, y.n);
        break;
      }
      case TypeDesc::Kind::kTuple:
      case TypeDesc::Kind::kRecord:
      case TypeDesc::Kind::kArray: {
        const Object* x = AsObject(a);
        const Object* y = AsObject(b);
        if (x != y) {
          uint64_t n = x->length < y->length ? x->length : y->length;
          stack.push_back(
              {x, y, type, 0, n, t.kind == TypeDesc::Kind::kArray ? nullptr : &t.children});
        }
        break;
      }
      case TypeDesc::Kind::kVariant: {
        // By constructor (declaration order), then field by field.
        const Object* x = AsObject(a);
        const Object* y = AsObject(b);
        leaf = Compare3(x->tag, y->tag);
        if (leaf == Order::kEqual && x != y && x->length > 0 && x->tag < t.cases.size()) {
          stack.push_back({x, y, type, 0, x->length, &t.cases[x->tag]});
        }
        break;
      }
      case TypeDesc::Kind::kCase:
        break;  // only TUPLE names one
    }
    if (leaf != Order::kEqual) return leaf;
    for (;;) {
      if (stack.empty()) return Order::kEqual;
      Pending& p = stack.back();
      if (p.next == p.common) {
        Order o = Compare3(p.a->length, p.b->length);
        if (o != Order::kEqual) return o;
        stack.pop_back();
        continue;
      }
      const TypeDesc& pt = module.types[p.type];
      a = Slots(p.a)[p.next];
      b = Slots(p.b)[p.next];
      type = p.fields != nullptr ? (*p.fields)[p.next] : pt.children[0];
      ++p.next;
      break;
    }
  }
}

}  // namespace alea::vm
