#include "vm/print.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tests/vm/test_util.h"
#include "vm/compare.h"
#include "vm/heap.h"

namespace alea::vm {
namespace {

// Expected strings are Python 3's repr() of the same doubles.
TEST(Print, FloatsAsPythonRepr) {
  struct Case {
    double value;
    const char* text;
  } cases[] = {
      {0.1, "0.1"},
      {1.0, "1.0"},
      {0.30000000000000004, "0.30000000000000004"},
      {1e16, "1e+16"},
      {1e-5, "1e-05"},
      {123456789012345.0, "123456789012345.0"},
      {1234567890123456.0, "1234567890123456.0"},
      {12345678901234567.0, "1.2345678901234568e+16"},
      {INFINITY, "inf"},
      {-INFINITY, "-inf"},
      {NAN, "nan"},
      {-NAN, "nan"},
      {-0.0, "-0.0"},
      {0.0, "0.0"},
      {5e-324, "5e-324"},
      {1.7976931348623157e308, "1.7976931348623157e+308"},
      {0.0001, "0.0001"},
      {0.00001234, "1.234e-05"},
      {1e22, "1e+22"},
      {1.5e-7, "1.5e-07"},
      {100.0, "100.0"},
      {2.5, "2.5"},
      {1.0 / 3, "0.3333333333333333"},
      {2.0 / 3, "0.6666666666666666"},
      {-1.5e300, "-1.5e+300"},
      {9007199254740993.0, "9007199254740992.0"},
      {1e15, "1000000000000000.0"},
      {123.456, "123.456"},
      {0.001, "0.001"},
      {6.02214076e23, "6.02214076e+23"},
      {1.4142135623730951, "1.4142135623730951"},
      {1e100, "1e+100"},
      {-2.5e-10, "-2.5e-10"},
      {999999999999999.9, "999999999999999.9"},
      {9999999999999998.0, "9999999999999998.0"},
      {-7.0, "-7.0"},
  };
  for (const Case& c : cases) EXPECT_EQ(FormatFloat(c.value), c.text) << c.text;
}

class PrintValues : public ::testing::Test {
 protected:
  Value Str(absl::string_view s) { return FromObject(heap_.NewStr(s)); }
  Value Tuple(std::vector<Value> fields, std::vector<uint8_t> refs) {
    Object* t = heap_.NewTuple(fields.size());
    for (size_t i = 0; i < fields.size(); ++i) {
      Slots(t)[i] = fields[i];
      Mask(t)[i] = refs[i];
    }
    return FromObject(t);
  }
  Value Array(std::vector<Value> elems, bool refs) {
    Object* a = heap_.NewArray(elems.size(), refs);
    for (size_t i = 0; i < elems.size(); ++i) Slots(a)[i] = elems[i];
    return FromObject(a);
  }
  std::string Text(Value v, uint32_t type) {
    std::string s;
    AppendValue(&s, v, type, b_.module());
    return s;
  }

  Heap heap_{0};
  testing::ModuleBuilder b_;
};

TEST_F(PrintValues, ScalarsAndContainers) {
  EXPECT_EQ(Text(FromInt(-42), b_.Int()), "-42");
  EXPECT_EQ(Text(FromBool(true), b_.Bool()), "true");
  EXPECT_EQ(Text(0, b_.Unit()), "()");
  Value s = Str("a \"q\" \\ \n\tb");
  EXPECT_EQ(Text(s, b_.Str()), "a \"q\" \\ \n\tb");  // raw at top level
  uint32_t pair = b_.Tuple({b_.Int(), b_.Str()});
  Retain(s);
  Value t = Tuple({FromInt(1), s}, {0, 1});
  EXPECT_EQ(Text(t, pair), "(1, \"a \\\"q\\\" \\\\ \\n\\tb\")");
  uint32_t arr = b_.Array(pair);
  Value a = Array({t}, true);
  EXPECT_EQ(Text(a, arr), "[(1, \"a \\\"q\\\" \\\\ \\n\\tb\")]");
  Value empty = Array({}, false);
  EXPECT_EQ(Text(empty, b_.Array(b_.Int())), "[]");
  Value floats = Array({FromFloat(1.0), FromFloat(0.5)}, false);
  EXPECT_EQ(Text(floats, b_.Array(b_.Float())), "[1.0, 0.5]");
  b_.Fn("sq", {{b_.Int()}, b_.Int()}, 1, {testing::I(Op::RET, 0)});
  Object* c = heap_.NewClosure(0, 0);
  EXPECT_EQ(Text(FromObject(c), b_.FnType({b_.Int()}, b_.Int())), "<fn sq>");
  heap_.Release(c);
  heap_.ReleaseValue(a);
  heap_.ReleaseValue(s);
  heap_.ReleaseValue(empty);
  heap_.ReleaseValue(floats);
  EXPECT_EQ(heap_.bytes_live(), 0u);
}

TEST_F(PrintValues, DeeplyNestedValueAndIterativeRelease) {
  // [[[...[7]...]]], 100,000 levels: printing, comparing and releasing it
  // must not recurse on the C stack.
  constexpr int kDepth = 100'000;
  uint32_t type = b_.Int();
  Value v = FromInt(7);
  for (int i = 0; i < kDepth; ++i) {
    type = b_.Array(type);
    v = Array({v}, i > 0);
  }
  std::string text = Text(v, type);
  EXPECT_EQ(text.size(), 2u * kDepth + 1);
  EXPECT_EQ(text.substr(kDepth - 2, 5), "[[7]]");
  EXPECT_TRUE(ValuesEqual(v, v, type, b_.module()));
  heap_.ReleaseValue(v);
  EXPECT_EQ(heap_.bytes_live(), 0u);
}

TEST_F(PrintValues, MillionDeepChainReleases) {
  Value v = Array({}, false);
  for (int i = 0; i < 1'000'000; ++i) v = Array({v}, true);
  heap_.ReleaseValue(v);
  EXPECT_EQ(heap_.bytes_live(), 0u);
  // Closures capturing closures.
  Object* c = heap_.NewClosure(0, 0);
  for (int i = 0; i < 1'000'000; ++i) {
    Object* next = heap_.NewClosure(0, 1);
    Slots(next)[0] = FromObject(c);
    Mask(next)[0] = 1;
    c = next;
  }
  heap_.Release(c);
  EXPECT_EQ(heap_.bytes_live(), 0u);
}

TEST_F(PrintValues, StructuralComparison) {
  const Module& m = b_.module();
  uint32_t ti = b_.Int(), tf = b_.Float(), ts = b_.Str();
  uint32_t pair = b_.Tuple({ti, ts});
  auto mk = [&](int64_t i, absl::string_view s) { return Tuple({FromInt(i), Str(s)}, {0, 1}); };
  Value a = mk(1, "b"), b = mk(1, "c"), c = mk(0, "z"), d = mk(1, "b");
  EXPECT_EQ(Compare(a, b, pair, m, false), Order::kLess);
  EXPECT_EQ(Compare(a, c, pair, m, false), Order::kGreater);
  EXPECT_EQ(Compare(a, d, pair, m, false), Order::kEqual);
  Value n1 = FromFloat(NAN), one = FromFloat(1.0);
  EXPECT_EQ(Compare(n1, n1, tf, m, false), Order::kUnordered);
  EXPECT_EQ(Compare(n1, n1, tf, m, true), Order::kEqual);
  EXPECT_EQ(Compare(n1, one, tf, m, true), Order::kGreater);
  EXPECT_EQ(Compare(FromFloat(-0.0), FromFloat(0.0), tf, m, false), Order::kEqual);
  uint32_t arr = b_.Array(ti);
  Value x = Array({1, 2}, false), y = Array({1, 2, 3}, false), z = Array({1, 2}, false);
  EXPECT_EQ(Compare(x, y, arr, m, false), Order::kLess);
  EXPECT_TRUE(ValuesEqual(x, z, arr, m));
  Value sab = Str("ab"), sb = Str("b");
  EXPECT_EQ(Compare(sab, sb, ts, m, false), Order::kLess);
  heap_.ReleaseValue(sab);
  heap_.ReleaseValue(sb);
  for (Value v : {a, b, c, d, x, y, z}) heap_.ReleaseValue(v);
}

}  // namespace
}  // namespace alea::vm
