#include "vm/compare.h"

#include <cmath>

#include "absl/container/inlined_vector.h"

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

struct Pending {
  const Object* a;
  const Object* b;
  uint32_t type;
  uint64_t next;
  uint64_t common;  // fields, or the shorter array's length
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
        // Not comparable in the language; identity keeps this total anyway.
        leaf = a == b ? Order::kEqual : Compare3(a, b);
        break;
      case TypeDesc::Kind::kTuple:
      case TypeDesc::Kind::kArray: {
        const Object* x = AsObject(a);
        const Object* y = AsObject(b);
        if (x != y) {
          uint64_t n = x->length < y->length ? x->length : y->length;
          stack.push_back({x, y, type, 0, n});
        }
        break;
      }
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
      type = pt.kind == TypeDesc::Kind::kTuple ? pt.children[p.next] : pt.children[0];
      ++p.next;
      break;
    }
  }
}

}  // namespace alea::vm
