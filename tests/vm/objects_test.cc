// Strings, tuples, arrays, closures, globals: the opcodes that own references,
// and unwinding after errors without leaks (LeakSanitizer checks the rest).
#include <gtest/gtest.h>

#include "tests/vm/test_util.h"

namespace alea::vm {
namespace {

using testing::I;
using testing::IsBx;
using testing::IsC;
using testing::ModuleBuilder;
using testing::RunModule;

TEST(Objects, Strings) {
  ModuleBuilder b;
  uint16_t s0 = b.S("ab"), s1 = b.S("c\"d");
  uint32_t ts = b.Str(), tb = b.Bool(), tt = b.Tuple({ts, ts});
  uint16_t main = b.Fn("main", {{}, b.Unit()}, 8,
                       {
                           I(Op::LOADS, 0, s0),    I(Op::LOADS, 1, s1),   I(Op::CONCAT_S, 2, 0, 1),
                           I(Op::PRINT, 2, ts),                            // abc"d
                           I(Op::EQ_V, 3, 0, ts),                          // "ab" == "c\"d"
                           I(Op::PRINT, 3, tb),    I(Op::LT_V, 3, 0, ts),  // "ab" < "c\"d"
                           I(Op::PRINT, 3, tb),    I(Op::LE_V, 3, 1, ts),  // "c\"d" <= "abc\"d"
                           I(Op::PRINT, 3, tb),    I(Op::COPY, 4, 0),     I(Op::MOVE, 5, 2, 0, 1),
                           I(Op::TUPLE, 4, 4, tt),  // ("ab", "abc\"d"), moves r4, r5
                           I(Op::PRINT, 4, tt),    I(Op::STR, 6, 4, tt),  I(Op::PRINT, 6, ts),
                           I(Op::RELEASE, 0),      I(Op::RELEASE, 1),     I(Op::RELEASE, 4),
                           I(Op::RELEASE, 6),      IsBx(Op::LOADI, 7, 0), I(Op::RET, 7),
                       },
                       {0, 1, 2, 4, 5, 6});
  auto r = RunModule(b.Build(main));
  ASSERT_TRUE(r.status.ok()) << r.status << " " << r.error.message;
  EXPECT_EQ(r.out, "abc\"d\nfalse\ntrue\nfalse\n(\"ab\", \"abc\\\"d\")\n(\"ab\", \"abc\\\"d\")\n");
  EXPECT_EQ(r.stats.heap_bytes_live, r.loaded_bytes);
}

TEST(Objects, TuplesAndArrays) {
  ModuleBuilder b;
  uint32_t ti = b.Int(), ts = b.Str(), tf = b.Float(), tb = b.Bool();
  uint32_t pair = b.Tuple({ti, ts});
  uint32_t arr = b.Array(pair);
  uint16_t s0 = b.S("x");
  uint16_t k = b.KF(2.5);
  uint16_t main = b.Fn("main", {{}, ti}, 12,
                       {
                           IsBx(Op::LOADI, 0, 1),
                           I(Op::LOADS, 1, s0),
                           I(Op::TUPLE, 2, 0, pair),  // (1, "x")
                           I(Op::FIELD, 3, 2, 1),     // "x", retained
                           I(Op::PRINT, 3, ts),
                           I(Op::FIELD, 4, 2, 0),
                           I(Op::PRINT, 4, ti),
                           I(Op::COPY, 5, 2),
                           I(Op::COPY, 6, 2),
                           I(Op::ARRAY, 5, 5, 2, 1),  // [(1,"x"), (1,"x")]: moves r5, r6
                           I(Op::LEN, 11, 5),
                           I(Op::PRINT, 11, ti),
                           IsBx(Op::LOADI, 11, 1),
                           I(Op::INDEX, 7, 5, 11),  // (1, "x")
                           I(Op::COPY, 8, 2),
                           I(Op::EQ_V, 9, 7, pair),  // r7 == r8
                           I(Op::PRINT, 9, tb),
                           I(Op::RELEASE, 8),
                           I(Op::PRINT, 5, arr),
                           I(Op::LOADK, 10, k),
                           I(Op::PRINT, 10, tf),
                           IsBx(Op::LOADI, 11, 2),
                           I(Op::INDEX, 8, 5, 11),  // out of bounds: unwinds r2 r3 r5 r7
                           I(Op::RET, 0),
                       },
                       {1, 2, 3, 5, 6, 7, 8});
  auto r = RunModule(b.Build(main));
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.out, "x\n1\n2\ntrue\n[(1, \"x\"), (1, \"x\")]\n2.5\n");
  EXPECT_EQ(r.error.message, "index 2 is out of bounds for an array of length 2");
  EXPECT_EQ(r.error.location.line, 23u);
  EXPECT_EQ(r.stats.heap_bytes_live, r.loaded_bytes);
}

TEST(Objects, NegativeIndex) {
  ModuleBuilder b;
  uint16_t main = b.Fn("main", {{}, b.Int()}, 4,
                       {IsBx(Op::LOADI, 0, 1), I(Op::ARRAY, 1, 0, 1), IsBx(Op::LOADI, 2, -1),
                        I(Op::INDEX, 3, 1, 2), I(Op::RET, 0)},
                       {1});
  auto r = RunModule(b.Build(main));
  EXPECT_EQ(r.error.message, "index -1 is out of bounds for an array of length 1");
  EXPECT_EQ(r.stats.heap_bytes_live, 0u);
}

TEST(Objects, EmptyArrayWindowJustPastTheRegisters) {
  // `[]` as the compiler emits it, ARRAY r0, r1, 0, in a frame of one
  // register: its empty window reads nothing, so it may start at r1.
  ModuleBuilder b;
  uint32_t tai = b.Array(b.Int());
  uint16_t main =
      b.Fn("main", {{}, tai}, 1, {I(Op::ARRAY, 0, 1, 0), I(Op::PRINT, 0, tai), I(Op::RET, 0)}, {0});
  auto r = RunModule(b.Build(main));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.out, "[]\n");
  // Any further is refused.
  b.module().functions[main].code[0].b = 2;
  EXPECT_EQ(std::string(RunModule(b.Build(main)).status.message()),
            "malformed module: function 0 `main` pc 0: ARRAY operand b = 2 is past the 1 "
            "registers");
}

TEST(Objects, Closures) {
  ModuleBuilder b;
  uint32_t ti = b.Int(), ts = b.Str();
  uint32_t tfn = b.FnType({ti}, ti), tshow = b.FnType({ti}, ts);
  // adder(x) with capture #0 an Int: x + k
  uint16_t adder = b.Fn("adder", {.params = {ti}, .result = ti, .captures = {ti}}, 2,
                        {I(Op::GETCAP, 1, 0), I(Op::ADD_I, 0, 0, 1), I(Op::RET, 0)});
  // greet(x) with capture #0 a Str: capture + str(x)
  uint16_t greet = b.Fn("greet", {.params = {ti}, .result = ts, .captures = {ts}}, 4,
                        {I(Op::GETCAP, 1, 0), I(Op::STR, 2, 0, ti), I(Op::CONCAT_S, 3, 1, 2),
                         I(Op::RELEASE, 1), I(Op::RELEASE, 2), I(Op::RET, 3)},
                        {1, 2, 3});
  // twice(x) = x + x, a function without captures
  uint16_t twice = b.Fn("twice", {{ti}, ti}, 1, {I(Op::ADD_I, 0, 0, 0), I(Op::RET, 0)});
  // apply(f, x) = f(x), a tail call through a closure
  uint16_t apply =
      b.Fn("apply", {{tshow, ti}, ts}, 3, {I(Op::MOVE, 2, 1), I(Op::TAILCALLC, 2, 0, 1)}, {0});
  uint16_t s = b.S("n=");
  uint16_t main = b.Fn(
      "main", {{}, b.Unit()}, 7,
      {
          // r0 = adder[10]: the Int capture sits in a plain register, where
          // CLOSURE leaves the closure for a MOVE into a reference one.
          IsBx(Op::LOADI, 1, 10),   I(Op::CLOSURE, 1, adder, 1),
          I(Op::MOVE, 0, 1, 0, 1),  IsBx(Op::LOADI, 1, 5),
          I(Op::CALLC, 1, 0, 1),  // r1 = 15
          I(Op::PRINT, 1, ti),      I(Op::PRINT, 0, tfn),
          I(Op::LOADS, 2, s),       I(Op::CLOSURE, 2, greet, 1),  // r2 = greet["n="], moves the Str
          I(Op::MOVE, 3, 2, 0, 1),  IsBx(Op::LOADI, 4, 7),
          I(Op::CALL, 3, apply, 2),  // r3 = "n=7"
          I(Op::PRINT, 3, ts),      I(Op::LOADFN, 6, twice),
          I(Op::PRINT, 6, tfn),     I(Op::RELEASE, 6),
          I(Op::RELEASE, 3),        I(Op::RELEASE, 0),
          IsBx(Op::LOADI, 5, 0),    I(Op::RET, 5),
      },
      {0, 2, 3, 6});
  auto r = RunModule(b.Build(main));
  ASSERT_TRUE(r.status.ok()) << r.status << " " << r.error.message;
  EXPECT_EQ(r.out, "15\n<fn adder>\nn=7\n<fn twice>\n");
  EXPECT_EQ(r.stats.heap_bytes_live, r.loaded_bytes + sizeof(Object));  // LOADFN's cached closure
}

TEST(Objects, GlobalsAndArgs) {
  ModuleBuilder b;
  uint32_t ts = b.Str(), targs = b.Array(ts), ti = b.Int();
  uint16_t g_name = b.G("greeting", ts);
  uint16_t g_n = b.G("n", ti);
  uint16_t s = b.S("hello");
  uint16_t init = b.Fn("<init>", {{}, b.Unit()}, 3,
                       {I(Op::LOADS, 0, s), I(Op::STOREG, 0, g_name), IsBx(Op::LOADI, 1, 3),
                        I(Op::STOREG, 1, g_n), IsBx(Op::LOADI, 2, 0), I(Op::RET, 2)},
                       {0});
  uint16_t main = b.Fn("main", {{targs}, b.Unit()}, 4,
                       {I(Op::LOADG, 1, g_name, 0, 1), I(Op::PRINT, 1, ts), I(Op::RELEASE, 1),
                        I(Op::LOADG, 2, g_n), I(Op::PRINT, 2, ti), I(Op::PRINT, 0, targs),
                        I(Op::RELEASE, 0), IsBx(Op::LOADI, 3, 0), I(Op::RET, 3)},
                       {0, 1});
  auto r = RunModule(b.Build(main, init, true), {}, {"a", "b c"});
  ASSERT_TRUE(r.status.ok()) << r.status << " " << r.error.message;
  EXPECT_EQ(r.out, "hello\n3\n[\"a\", \"b c\"]\n");
}

TEST(Objects, UnwindingReleasesEveryFrame) {
  // main holds a Str and calls f(array), which holds a tuple and calls
  // g, which divides by zero: every reference of every frame is released.
  ModuleBuilder b;
  uint32_t ts = b.Str(), ti = b.Int();
  uint32_t pair = b.Tuple({ts, ti}), tas = b.Array(ts);
  uint16_t s = b.S("live");
  uint16_t g =
      b.Fn("g", {{ti}, ti}, 3, {IsBx(Op::LOADI, 1, 0), I(Op::DIV_I, 2, 0, 1), I(Op::RET, 2)});
  uint16_t f = b.Fn("f", {{tas}, ti}, 5,
                    {I(Op::LOADS, 1, s), IsBx(Op::LOADI, 2, 1), I(Op::TUPLE, 1, 1, pair),
                     IsBx(Op::LOADI, 3, 4), I(Op::CALL, 3, g, 1), I(Op::RET, 3)},
                    {0, 1});
  uint16_t main = b.Fn("main", {{}, ti}, 4,
                       {I(Op::LOADS, 0, s), I(Op::LOADS, 1, s), I(Op::ARRAY, 1, 1, 1, 1),
                        I(Op::CALL, 1, f, 1), I(Op::RET, 1)},
                       {0, 1});
  auto r = RunModule(b.Build(main));
  EXPECT_EQ(r.error.message, "division by zero");
  EXPECT_EQ(r.error.location.line, 2u);  // g is F0: line 100 * 0 + pc 1 + 1
  EXPECT_EQ(r.stats.heap_bytes_live, r.loaded_bytes);
}

TEST(Objects, HeapBudget) {
  ModuleBuilder b;
  uint16_t n = b.N("range1");
  uint16_t k = b.K(1'000'000);
  uint16_t main = b.Fn("main", {{}, b.Array(b.Int())}, 3,
                       {I(Op::LOADK, 1, k), I(Op::CALLN, 0, n, 1), I(Op::RET, 0)}, {0});
  Limits limits;
  limits.max_heap_bytes = 1 << 20;
  auto r = RunModule(b.Build(main), limits);
  EXPECT_EQ(r.status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(r.error.message, "out of memory budget");
  EXPECT_EQ(r.error.location.line, 2u);
  limits.max_heap_bytes = 1 << 24;
  r = RunModule(b.Build(main), limits);
  EXPECT_TRUE(r.status.ok());
}

// The growth under `push`: elements kept, capacity doubled (so few
// reallocations), every byte accounted and given back, and a refusal by the
// budget leaves the array as it was.
TEST(Objects, ResizeArrayGrowsGeometricallyWithinTheBudget) {
  Heap heap(1 << 16);
  Object* a = heap.NewArray(0, false);
  ASSERT_NE(a, nullptr);
  const uint64_t first = heap.allocations();
  for (uint64_t n = 1; n <= 1000; ++n) {
    a = heap.ResizeArray(a, n);
    ASSERT_NE(a, nullptr);
    ASSERT_EQ(Slots(a)[n - 1], 0u);  // new slots are null
    Slots(a)[n - 1] = n;
    EXPECT_EQ(heap.bytes_live(), Heap::SizeOf(a));
  }
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_EQ(Slots(a)[i], i + 1);
  EXPECT_LE(heap.allocations() - first, 10u);  // 8, 16, ..., 1024 slots
  EXPECT_EQ(a->length + a->spare, 1024u);
  EXPECT_EQ(heap.ResizeArray(a, 100'000), nullptr);  // 800 kB > the 64 kB budget
  EXPECT_TRUE(heap.last_failure_was_budget());
  EXPECT_EQ(a->length, 1000u);
  EXPECT_EQ(Slots(a)[999], 1000u);
  heap.Release(a);
  EXPECT_EQ(heap.bytes_live(), 0u);
}

}  // namespace
}  // namespace alea::vm
