#include <gtest/gtest.h>

#include <cmath>

#include "tests/vm/test_util.h"

namespace alea::vm {
namespace {

using testing::I;
using testing::IsBx;
using testing::IsC;
using testing::ModuleBuilder;
using testing::RunModule;

// Calls native `name` on the Int values loaded into its argument registers
// and prints the result of type `result`.
std::string CallInts(const char* name, std::vector<int32_t> args, bool float_args = false) {
  ModuleBuilder b;
  uint16_t n = b.N(name);
  uint32_t t = float_args ? b.Float() : b.Int();
  std::vector<Instr> code;
  for (size_t i = 0; i < args.size(); ++i) {
    if (float_args) {
      code.push_back(I(Op::LOADK, 1 + i, b.KF(args[i])));
    } else {
      code.push_back(IsBx(Op::LOADI, 1 + i, args[i]));
    }
  }
  code.push_back(I(Op::CALLN, 0, n, args.size()));
  code.push_back(I(Op::PRINT, 0, t));
  code.push_back(I(Op::RET, 0));
  auto r = RunModule(b.Build(b.Fn("main", {{}, t}, 6, code)));
  return r.status.ok() ? r.out : r.error.message;
}

TEST(Natives, Numbers) {
  EXPECT_EQ(CallInts("abs_i", {-5}), "5\n");
  EXPECT_EQ(CallInts("min_i", {3, -2}), "-2\n");
  EXPECT_EQ(CallInts("max_i", {3, -2}), "3\n");
  EXPECT_EQ(CallInts("abs_f", {-5}, true), "5.0\n");
  EXPECT_EQ(CallInts("sqrt", {2}, true), "1.4142135623730951\n");
  EXPECT_EQ(CallInts("exp", {1}, true), "2.718281828459045\n");
  EXPECT_EQ(CallInts("log", {1}, true), "0.0\n");
  EXPECT_EQ(CallInts("floor", {-3}, true), "-3.0\n");
  EXPECT_EQ(CallInts("ceil", {3}, true), "3.0\n");
  EXPECT_EQ(CallInts("min_f", {3, 2}, true), "2.0\n");
  EXPECT_EQ(CallInts("max_f", {3, 2}, true), "3.0\n");
  ModuleBuilder b;
  uint16_t k = b.K(INT64_MIN);
  uint16_t n = b.N("abs_i");
  auto r = RunModule(b.Build(
      b.Fn("main", {{}, b.Int()}, 3, {I(Op::LOADK, 1, k), I(Op::CALLN, 0, n, 1), I(Op::RET, 0)})));
  EXPECT_EQ(r.error.message, "integer overflow in `abs` (abs(-9223372036854775808))");
  EXPECT_EQ(r.error.location.line, 2u);
}

TEST(Natives, MinMaxNaN) {
  ModuleBuilder b;
  uint16_t nan = b.KF(NAN), one = b.KF(1.0);
  uint16_t mn = b.N("min_f"), mx = b.N("max_f"), clock = b.N("clock");
  uint32_t tf = b.Float();
  auto r = RunModule(b.Build(
      b.Fn("main", {{}, b.Unit()}, 4,
           {I(Op::LOADK, 1, one), I(Op::LOADK, 2, nan), I(Op::CALLN, 0, mn, 2), I(Op::PRINT, 0, tf),
            I(Op::LOADK, 1, nan), I(Op::LOADK, 2, one), I(Op::CALLN, 0, mx, 2), I(Op::PRINT, 0, tf),
            I(Op::CALLN, 0, clock, 0), I(Op::RET, 3)})));
  EXPECT_EQ(r.out, "nan\nnan\n");
}

// A module whose main builds xs = range(a, b) into r1 and runs `body`, which
// uses registers below `regs` (r0 plain, r1 the array).
class ArrayNatives : public ::testing::Test {
 protected:
  std::string Run(std::vector<Instr> body, std::vector<uint16_t> refs, uint16_t regs = 12) {
    // range's window is three registers past the body's (plain ones): its
    // result moves into r1.
    std::vector<Instr> code = {IsBx(Op::LOADI, regs + 1, -3), IsBx(Op::LOADI, regs + 2, 4),
                               I(Op::CALLN, regs, b_.N("range2"), 2), I(Op::MOVE, 1, regs, 0, 1)};
    code.insert(code.end(), body.begin(), body.end());
    code.push_back(IsBx(Op::LOADI, 0, 0));
    code.push_back(I(Op::RET, 0));
    refs.push_back(1);
    auto r = RunModule(b_.Build(b_.Fn("main", {{}, b_.Unit()}, regs + 3, code, refs)));
    if (!r.status.ok()) {
      return r.out + "error: " + r.error.message + " @" + std::to_string(r.error.location.line);
    }
    EXPECT_EQ(r.stats.heap_bytes_live, r.loaded_bytes + sizeof(Object) * lambdas_);
    return r.out;
  }
  uint16_t Lambda(std::string name, ModuleBuilder::Sig sig, uint16_t regs, std::vector<Instr> code,
                  std::vector<uint16_t> refs = {}) {
    ++lambdas_;  // LOADFN caches one closure per function for the VM's lifetime
    return b_.Fn(std::move(name), std::move(sig), regs, std::move(code), std::move(refs));
  }
  ModuleBuilder b_;
  int lambdas_ = 0;
};

TEST_F(ArrayNatives, MapFilterFoldAnyAll) {
  uint32_t ti = b_.Int(), tai = b_.Array(ti), ts = b_.Str(), tas = b_.Array(ts), tb = b_.Bool();
  uint16_t sq = Lambda("sq", {{ti}, ti}, 1, {I(Op::MUL_I, 0, 0, 0), I(Op::RET, 0)});
  uint16_t pos =
      Lambda("pos", {{ti}, tb}, 2, {IsBx(Op::LOADI, 1, 0), I(Op::LT_I, 0, 1, 0), I(Op::RET, 0)});
  uint16_t add = Lambda("add", {{ti, ti}, ti}, 2, {I(Op::ADD_I, 0, 0, 1), I(Op::RET, 0)});
  uint16_t show = Lambda("show", {{ti}, ts}, 2, {I(Op::STR, 1, 0, ti), I(Op::RET, 1)}, {1});
  std::string out = Run(
      {
          I(Op::PRINT, 1, tai),
          I(Op::COPY, 3, 1),
          I(Op::LOADFN, 4, sq),
          IsBx(Op::LOADI, 5, static_cast<int32_t>(ti)),
          I(Op::CALLN, 2, b_.N("map"), 3),
          I(Op::PRINT, 2, tai),
          I(Op::RELEASE, 2),
          I(Op::RELEASE, 3),
          I(Op::RELEASE, 4),
          I(Op::COPY, 3, 1),
          I(Op::LOADFN, 4, pos),
          IsBx(Op::LOADI, 5, static_cast<int32_t>(ti)),
          I(Op::CALLN, 2, b_.N("filter"), 3),
          I(Op::PRINT, 2, tai),
          I(Op::RELEASE, 2),
          I(Op::RELEASE, 3),
          I(Op::RELEASE, 4),
          I(Op::COPY, 6, 1),
          IsBx(Op::LOADI, 7, 100),
          I(Op::LOADFN, 8, add),
          I(Op::CALLN, 5, b_.N("fold"), 3),
          I(Op::PRINT, 5, ti),
          I(Op::RELEASE, 6),
          I(Op::RELEASE, 8),
          I(Op::COPY, 10, 1),
          I(Op::LOADFN, 11, pos),
          I(Op::CALLN, 9, b_.N("any"), 2),
          I(Op::PRINT, 9, tb),
          I(Op::CALLN, 9, b_.N("all"), 2),
          I(Op::PRINT, 9, tb),
          I(Op::RELEASE, 10),
          I(Op::RELEASE, 11),
          I(Op::COPY, 3, 1),
          I(Op::LOADFN, 4, show),
          IsBx(Op::LOADI, 5, static_cast<int32_t>(ts)),
          I(Op::CALLN, 2, b_.N("map"), 3),
          I(Op::PRINT, 2, tas),
          I(Op::RELEASE, 2),
          I(Op::RELEASE, 3),
          I(Op::RELEASE, 4),
      },
      {2, 3, 4, 6, 8, 10, 11});
  EXPECT_EQ(out,
            "[-3, -2, -1, 0, 1, 2, 3]\n[9, 4, 1, 0, 1, 4, 9]\n[1, 2, 3]\n100\ntrue\nfalse\n"
            "[\"-3\", \"-2\", \"-1\", \"0\", \"1\", \"2\", \"3\"]\n");
}

TEST_F(ArrayNatives, FoldWithStrings) {
  uint32_t ti = b_.Int(), ts = b_.Str();
  uint16_t s = b_.S(">");
  // cat(acc, x) = acc + str(x)
  uint16_t cat = Lambda("cat", {{ts, ti}, ts}, 4,
                        {I(Op::STR, 2, 1, ti), I(Op::CONCAT_S, 3, 0, 2), I(Op::RELEASE, 0),
                         I(Op::RELEASE, 2), I(Op::RET, 3)},
                        {0, 2, 3});
  std::string out = Run({I(Op::COPY, 3, 1), I(Op::LOADS, 4, s), I(Op::LOADFN, 5, cat),
                         I(Op::CALLN, 2, b_.N("fold"), 3), I(Op::PRINT, 2, ts), I(Op::RELEASE, 2),
                         I(Op::RELEASE, 3), I(Op::RELEASE, 4), I(Op::RELEASE, 5)},
                        {2, 3, 4, 5});
  EXPECT_EQ(out, ">-3-2-10123\n");
}

TEST_F(ArrayNatives, ErrorInsideACallbackUnwindsEverything) {
  uint32_t ti = b_.Int(), ts = b_.Str();
  // boom(x) = str(x) ... then 1 / x
  uint16_t boom =
      Lambda("boom", {{ti}, ti}, 3,
             {I(Op::STR, 1, 0, ti), I(Op::DIV_I, 2, 2, 0), I(Op::RELEASE, 1), I(Op::RET, 2)}, {1});
  (void)ts;
  std::string out =
      Run({I(Op::COPY, 3, 1), I(Op::LOADFN, 4, boom), IsBx(Op::LOADI, 5, static_cast<int32_t>(ti)),
           I(Op::CALLN, 2, b_.N("map"), 3), I(Op::RET, 0)},
          {2, 3, 4});
  EXPECT_EQ(out, "error: division by zero @2");  // boom is F0; its pc 1
}

TEST_F(ArrayNatives, ZipAppendReverseSortSums) {
  uint32_t ti = b_.Int(), ts = b_.Str(), tf = b_.Float();
  uint32_t tai = b_.Array(ti), taf = b_.Array(tf), tas = b_.Array(ts);
  uint32_t tp = b_.Tuple({ti, ts}), tap = b_.Array(tp);
  uint16_t sa = b_.S("b"), sb = b_.S("a"), sc = b_.S("ab");
  uint16_t nan = b_.KF(NAN), f1 = b_.KF(2.5), f2 = b_.KF(-1.0);
  // Each call has its own window: an array argument sits in a reference
  // register, a type argument in a plain one.
  std::string out = Run(
      {
          // reverse, append, sort of ints
          I(Op::COPY, 3, 1),
          IsBx(Op::LOADI, 4, static_cast<int32_t>(ti)),
          I(Op::CALLN, 2, b_.N("reverse"), 2),
          I(Op::PRINT, 2, tai),
          I(Op::RELEASE, 3),
          I(Op::MOVE, 6, 2, 0, 1),
          I(Op::COPY, 7, 1),
          IsBx(Op::LOADI, 8, static_cast<int32_t>(ti)),
          I(Op::CALLN, 5, b_.N("append"), 3),  // owns r6
          I(Op::RELEASE, 7),
          I(Op::MOVE, 3, 5, 0, 1),
          IsBx(Op::LOADI, 4, static_cast<int32_t>(ti)),
          I(Op::CALLN, 2, b_.N("sort"), 2),
          I(Op::PRINT, 2, tai),
          I(Op::RELEASE, 3),
          I(Op::MOVE, 10, 2, 0, 1),
          I(Op::CALLN, 9, b_.N("sum_i"), 1),
          I(Op::PRINT, 9, ti),
          I(Op::RELEASE, 10),
          // sort of strings
          I(Op::LOADS, 11, sa),
          I(Op::LOADS, 12, sb),
          I(Op::LOADS, 13, sc),
          I(Op::ARRAY, 3, 11, 3, 1),
          IsBx(Op::LOADI, 4, static_cast<int32_t>(ts)),
          I(Op::CALLN, 2, b_.N("sort"), 2),
          I(Op::PRINT, 2, tas),
          I(Op::RELEASE, 2),
          // zip ints with strings; sort the pairs
          I(Op::COPY, 15, 1),
          I(Op::MOVE, 16, 3, 0, 1),
          IsBx(Op::LOADI, 17, static_cast<int32_t>(ti)),
          IsBx(Op::LOADI, 18, static_cast<int32_t>(ts)),
          I(Op::CALLN, 14, b_.N("zip"), 4),
          I(Op::PRINT, 14, tap),
          I(Op::RELEASE, 15),
          I(Op::RELEASE, 16),
          I(Op::MOVE, 3, 14, 0, 1),
          IsBx(Op::LOADI, 4, static_cast<int32_t>(tp)),
          I(Op::CALLN, 2, b_.N("sort"), 2),
          I(Op::PRINT, 2, tap),
          I(Op::RELEASE, 2),
          I(Op::RELEASE, 3),
          // floats with NaN last
          I(Op::LOADK, 19, nan),
          I(Op::LOADK, 20, f1),
          I(Op::LOADK, 21, f2),
          I(Op::ARRAY, 3, 19, 3),
          IsBx(Op::LOADI, 4, static_cast<int32_t>(tf)),
          I(Op::CALLN, 2, b_.N("sort"), 2),
          I(Op::PRINT, 2, taf),
          I(Op::RELEASE, 2),
          I(Op::MOVE, 10, 3, 0, 1),
          I(Op::CALLN, 9, b_.N("sum_f"), 1),
          I(Op::PRINT, 9, tf),
          I(Op::RELEASE, 10),
      },
      {2, 3, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16}, 22);
  EXPECT_EQ(out,
            "[3, 2, 1, 0, -1, -2, -3]\n[-3, -3, -2, -2, -1, -1, 0, 0, 1, 1, 2, 2, 3, 3]\n0\n"
            "[\"a\", \"ab\", \"b\"]\n[(-3, \"b\"), (-2, \"a\"), (-1, \"ab\")]\n"
            "[(-3, \"b\"), (-2, \"a\"), (-1, \"ab\")]\n[-1.0, 2.5, nan]\nnan\n");
}

TEST_F(ArrayNatives, SumOverflowAndEmptyRange) {
  uint32_t tai = b_.Array(b_.Int());
  uint16_t big = b_.K(INT64_MAX);
  std::string out =
      Run({IsBx(Op::LOADI, 3, 5), IsBx(Op::LOADI, 4, 2), I(Op::CALLN, 2, b_.N("range2"), 2),
           I(Op::PRINT, 2, tai), I(Op::RELEASE, 2), I(Op::LOADK, 6, big), I(Op::LOADK, 7, big),
           I(Op::ARRAY, 9, 6, 2), I(Op::CALLN, 8, b_.N("sum_i"), 1)},
          {2, 9});
  EXPECT_EQ(out.substr(0, 3), "[]\n");
  EXPECT_NE(out.find("error: integer overflow in `sum`"), std::string::npos);
}

TEST(Natives, NestingThroughNativesIsBounded) {
  // f(n) = if n == 0 { 0 } else { sum(map([n], g)) } with g(x) = f(x - 1):
  // each level re-enters the interpreter from `map`.
  ModuleBuilder b;
  uint32_t ti = b.Int();
  uint16_t f = b.Reserve();
  uint16_t g =
      b.Fn("g", {{ti}, ti}, 2, {IsC(Op::ADDK_I, 1, 0, -1), I(Op::CALL, 1, f, 1), I(Op::RET, 1)});
  // map's array result lands in the plain r1 and moves at once into the
  // reference r5 (a reference in a plain register must not linger), then r2.
  b.Fill(f, "f", {{ti}, ti}, 6,
         {IsBx(Op::LOADI, 1, 0), IsC(Op::JNE_I, 0, 1, 1), I(Op::RET, 0), I(Op::ARRAY, 2, 0, 1),
          I(Op::LOADFN, 3, g), IsBx(Op::LOADI, 4, static_cast<int32_t>(ti)),
          I(Op::CALLN, 1, b.N("map"), 3), I(Op::MOVE, 5, 1, 0, 1), I(Op::RELEASE, 2),
          I(Op::RELEASE, 3), I(Op::MOVE, 2, 5, 0, 1), I(Op::CALLN, 1, b.N("sum_i"), 1),
          I(Op::RELEASE, 2), I(Op::RET, 1)},
         {2, 3, 5});
  auto run = [&](int32_t n) {
    ModuleBuilder copy = b;
    uint16_t main =
        copy.Fn("main", {{}, ti}, 2,
                {IsBx(Op::LOADI, 0, n), I(Op::CALL, 0, f, 1), I(Op::PRINT, 0, ti), I(Op::RET, 0)});
    return RunModule(copy.Build(main));
  };
  auto r = run(500);
  ASSERT_TRUE(r.status.ok()) << r.status << " " << r.error.message;
  EXPECT_EQ(r.out, "0\n");
  r = run(5000);
  EXPECT_EQ(r.status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(r.error.message.substr(0, 40), "stack overflow: more than 1000 nested ca");
}

}  // namespace
}  // namespace alea::vm
