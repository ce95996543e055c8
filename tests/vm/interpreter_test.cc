#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "tests/vm/test_util.h"

namespace alea::vm {
namespace {

using testing::I;
using testing::IsBx;
using testing::IsC;
using testing::ModuleBuilder;
using testing::RunModule;

// main(): evaluates `body` (which leaves its result in r0, of type `type`),
// prints it and returns unit.
Module PrintOne(ModuleBuilder& b, std::vector<Instr> body, uint32_t type, uint16_t registers,
                std::vector<uint16_t> refs = {}) {
  body.push_back(I(Op::PRINT, 0, type));
  body.push_back(IsBx(Op::LOADI, registers, 0));
  body.push_back(I(Op::RET, registers));
  uint16_t main = b.Fn("main", {{}, b.Unit()}, registers + 1, std::move(body), std::move(refs));
  return b.Build(main);
}

std::string Eval(std::vector<Instr> body, uint32_t (ModuleBuilder::*type)(),
                 uint16_t registers = 8) {
  ModuleBuilder b;
  uint32_t t = (b.*type)();
  auto r = RunModule(PrintOne(b, std::move(body), t, registers));
  if (!r.status.ok()) return "error: " + r.error.message;
  return r.out;
}

TEST(Interpreter, IntArithmetic) {
  using B = ModuleBuilder;
  auto binop = [](Op op, int32_t x, int32_t y) {
    return Eval({IsBx(Op::LOADI, 1, x), IsBx(Op::LOADI, 2, y), I(op, 0, 1, 2)}, &B::Int);
  };
  EXPECT_EQ(binop(Op::ADD_I, 2, 3), "5\n");
  EXPECT_EQ(binop(Op::SUB_I, 2, 3), "-1\n");
  EXPECT_EQ(binop(Op::MUL_I, -4, 3), "-12\n");
  EXPECT_EQ(binop(Op::DIV_I, -7, 2), "-3\n");
  EXPECT_EQ(binop(Op::REM_I, -7, 2), "-1\n");
  EXPECT_EQ(binop(Op::REM_I, 7, -2), "1\n");
  EXPECT_EQ(binop(Op::DIV_I, 7, 0), "error: division by zero");
  EXPECT_EQ(binop(Op::REM_I, 7, 0), "error: division by zero");
  EXPECT_EQ(binop(Op::EQ_I, 3, 3), "1\n");
  EXPECT_EQ(binop(Op::NE_I, 3, 3), "0\n");
  EXPECT_EQ(binop(Op::LT_I, 2, 3), "1\n");
  EXPECT_EQ(binop(Op::LE_I, 3, 3), "1\n");
  EXPECT_EQ(binop(Op::LT_I, 3, 3), "0\n");
  EXPECT_EQ(Eval({IsBx(Op::LOADI, 1, 5), IsC(Op::ADDK_I, 0, 1, -7)}, &B::Int), "-2\n");
  EXPECT_EQ(Eval({IsBx(Op::LOADI, 1, -4), IsC(Op::MULK_I, 0, 1, 3)}, &B::Int), "-12\n");
  EXPECT_EQ(Eval({IsBx(Op::LOADI, 1, -7), IsC(Op::DIVK_I, 0, 1, 2)}, &B::Int), "-3\n");
  EXPECT_EQ(Eval({IsBx(Op::LOADI, 1, -7), IsC(Op::REMK_I, 0, 1, 2)}, &B::Int), "-1\n");
  EXPECT_EQ(Eval({IsBx(Op::LOADI, 1, 7), IsC(Op::REMK_I, 0, 1, -2)}, &B::Int), "1\n");
  EXPECT_EQ(Eval({IsBx(Op::LOADI, 1, 7), IsC(Op::DIVK_I, 0, 1, -32768)}, &B::Int), "0\n");
  EXPECT_EQ(Eval({IsBx(Op::LOADI, 1, 5), I(Op::NEG_I, 0, 1)}, &B::Int), "-5\n");
  EXPECT_EQ(Eval({IsBx(Op::LOADI, 1, 5), I(Op::MOVE, 0, 1)}, &B::Int), "5\n");
  EXPECT_EQ(Eval({IsBx(Op::LOADI, 0, 5), I(Op::NOP)}, &B::Int), "5\n");
}

TEST(Interpreter, BranchesOnAConstant) {
  // R(0) = 1 when `R(1) OP sB` holds (the branch skips the LOADI 0).
  using B = ModuleBuilder;
  auto test = [](Op op, int32_t x, int16_t k) {
    return Eval({IsBx(Op::LOADI, 1, x), IsBx(Op::LOADI, 0, 1),
                 I(op, 1, static_cast<uint16_t>(k), 1), IsBx(Op::LOADI, 0, 0)},
                &B::Int);
  };
  EXPECT_EQ(test(Op::JLTK_I, -3, -2), "1\n");
  EXPECT_EQ(test(Op::JLTK_I, -2, -2), "0\n");
  EXPECT_EQ(test(Op::JLEK_I, -2, -2), "1\n");
  EXPECT_EQ(test(Op::JGTK_I, 32767, 32766), "1\n");
  EXPECT_EQ(test(Op::JGTK_I, -32768, -32768), "0\n");
  EXPECT_EQ(test(Op::JGEK_I, -32768, -32768), "1\n");
  EXPECT_EQ(test(Op::JEQK_I, -1, -1), "1\n");
  EXPECT_EQ(test(Op::JEQK_I, 65535, -1), "0\n");  // b's bits are a signed -1
  EXPECT_EQ(test(Op::JNEK_I, 5, 5), "0\n");
  EXPECT_EQ(test(Op::JNEK_I, 5, 6), "1\n");
}

TEST(Interpreter, IntOverflowErrors) {
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  struct Case {
    Op op;
    int64_t x, y;
    const char* message;
  } cases[] = {
      {Op::ADD_I, kMax, 1, "integer overflow in `+` (9223372036854775807 + 1)"},
      {Op::SUB_I, kMin, 1, "integer overflow in `-` (-9223372036854775808 - 1)"},
      {Op::MUL_I, kMax, 2, "integer overflow in `*` (9223372036854775807 * 2)"},
      {Op::DIV_I, kMin, -1, "integer overflow: INT64_MIN / -1"},
  };
  for (const Case& c : cases) {
    ModuleBuilder b;
    uint16_t kx = b.K(c.x), ky = b.K(c.y);
    Module m =
        PrintOne(b, {I(Op::LOADK, 1, kx), I(Op::LOADK, 2, ky), I(c.op, 0, 1, 2)}, b.Int(), 4);
    auto r = RunModule(m);
    ASSERT_FALSE(r.status.ok());
    EXPECT_EQ(r.error.message, c.message);
    EXPECT_EQ(r.error.location.column, 3u);  // the third instruction
    EXPECT_EQ(r.error.location.line, 3u);
  }
  {
    ModuleBuilder b;
    uint16_t kx = b.K(kMin);
    auto r = RunModule(PrintOne(b, {I(Op::LOADK, 1, kx), I(Op::NEG_I, 0, 1)}, b.Int(), 4));
    EXPECT_EQ(r.error.message, "integer overflow in `-` (-(-9223372036854775808))");
  }
  {
    ModuleBuilder b;
    uint16_t kx = b.K(kMax);
    auto r = RunModule(PrintOne(b, {I(Op::LOADK, 1, kx), IsC(Op::ADDK_I, 0, 1, 1)}, b.Int(), 4));
    EXPECT_EQ(r.error.message, "integer overflow in `+` (9223372036854775807 + 1)");
    EXPECT_FALSE(r.error.help.empty());
  }
  {
    ModuleBuilder b;
    uint16_t kx = b.K(kMax);
    auto r = RunModule(PrintOne(b, {I(Op::LOADK, 1, kx), IsC(Op::MULK_I, 0, 1, -2)}, b.Int(), 4));
    EXPECT_EQ(r.error.message, "integer overflow in `*` (9223372036854775807 * -2)");
  }
  {
    ModuleBuilder b;
    uint16_t kx = b.K(kMin);
    auto r = RunModule(PrintOne(b, {I(Op::LOADK, 1, kx), IsC(Op::DIVK_I, 0, 1, -1)}, b.Int(), 4));
    EXPECT_EQ(r.error.message, "integer overflow: INT64_MIN / -1");
    auto r2 = RunModule(PrintOne(b, {I(Op::LOADK, 1, kx), IsC(Op::REMK_I, 0, 1, -1)}, b.Int(), 4));
    EXPECT_TRUE(r2.status.ok());
    EXPECT_EQ(r2.out, "0\n");
  }
  {  // INT64_MIN % -1 is 0, not a trap.
    ModuleBuilder b;
    uint16_t kx = b.K(kMin);
    auto r = RunModule(PrintOne(
        b, {I(Op::LOADK, 1, kx), IsBx(Op::LOADI, 2, -1), I(Op::REM_I, 0, 1, 2)}, b.Int(), 4));
    EXPECT_EQ(r.out, "0\n");
  }
}

TEST(Interpreter, FloatArithmeticAndConversions) {
  auto f = [](Op op, double x, double y) {
    ModuleBuilder b;
    uint16_t kx = b.KF(x), ky = b.KF(y);
    auto r = RunModule(PrintOne(b, {I(Op::LOADK, 1, kx), I(Op::LOADK, 2, ky), I(op, 0, 1, 2)},
                                op >= Op::EQ_F && op <= Op::LE_F ? b.Bool() : b.Float(), 4));
    return r.status.ok() ? r.out : r.error.message;
  };
  EXPECT_EQ(f(Op::ADD_F, 0.1, 0.2), "0.30000000000000004\n");
  EXPECT_EQ(f(Op::SUB_F, 1, 0.5), "0.5\n");
  EXPECT_EQ(f(Op::MUL_F, 1e200, 1e200), "inf\n");
  EXPECT_EQ(f(Op::DIV_F, 1, 0), "inf\n");
  EXPECT_EQ(f(Op::DIV_F, 0, 0), "nan\n");
  EXPECT_EQ(f(Op::REM_F, -7.5, 2), "-1.5\n");
  EXPECT_EQ(f(Op::EQ_F, NAN, NAN), "false\n");
  EXPECT_EQ(f(Op::NE_F, NAN, NAN), "true\n");
  EXPECT_EQ(f(Op::LT_F, 1, 2), "true\n");
  EXPECT_EQ(f(Op::LE_F, 2, 2), "true\n");
  auto unary = [](Op op, double x, bool to_int) {
    ModuleBuilder b;
    uint16_t kx = b.KF(x);
    auto r =
        RunModule(PrintOne(b, {I(Op::LOADK, 1, kx), I(op, 0, 1)}, to_int ? b.Int() : b.Float(), 4));
    return r.status.ok() ? r.out : r.error.message;
  };
  EXPECT_EQ(unary(Op::NEG_F, 0.0, false), "-0.0\n");
  EXPECT_EQ(unary(Op::F2I, -2.9, true), "-2\n");
  EXPECT_EQ(unary(Op::F2I, NAN, true), "`int` of NaN");
  EXPECT_EQ(unary(Op::F2I, 1e19, true), "`int` of 1e+19 is out of range");
  EXPECT_EQ(unary(Op::F2I, -INFINITY, true), "`int` of -inf is out of range");
  EXPECT_EQ(unary(Op::F2I, -9223372036854775808.0, true), "-9223372036854775808\n");
  EXPECT_EQ(unary(Op::F2I, 9223372036854775808.0, true),
            "`int` of 9.223372036854776e+18 is out of range");
  ModuleBuilder b;
  auto r = RunModule(PrintOne(b, {IsBx(Op::LOADI, 1, 7), I(Op::I2F, 0, 1)}, b.Float(), 4));
  EXPECT_EQ(r.out, "7.0\n");
  ModuleBuilder b2;
  r = RunModule(PrintOne(b2, {IsBx(Op::LOADI, 1, 1), I(Op::NOT, 0, 1)}, b2.Bool(), 4));
  EXPECT_EQ(r.out, "false\n");
}

TEST(Interpreter, Jumps) {
  // r0 = 0; loop: r0 += 1; if r0 < 5 goto loop; also every conditional jump.
  ModuleBuilder b;
  uint32_t t = b.Int();
  Module m = PrintOne(b,
                      {
                          IsBx(Op::LOADI, 0, 0),       // 0
                          IsBx(Op::LOADI, 1, 5),       // 1
                          IsC(Op::ADDK_I, 0, 0, 1),    // 2
                          IsC(Op::JLT_I, 0, 1, -2),    // 3 -> 2
                          IsC(Op::JLE_I, 1, 0, 1),     // 4 -> 6 (5 <= 5)
                          IsC(Op::ADDK_I, 0, 0, 100),  // 5 skipped
                          IsC(Op::JEQ_I, 0, 1, 1),     // 6 -> 8
                          IsC(Op::ADDK_I, 0, 0, 100),  // 7 skipped
                          IsC(Op::JNE_I, 0, 1, 1),     // 8 not taken
                          IsC(Op::ADDK_I, 0, 0, 10),   // 9 -> 15
                          IsBx(Op::LOADI, 2, 1),       // 10
                          IsBx(Op::JMPIF, 2, 1),       // 11 -> 13
                          IsC(Op::ADDK_I, 0, 0, 100),  // 12 skipped
                          IsBx(Op::JMPIFNOT, 2, 1),    // 13 not taken
                          IsBx(Op::JMP, 0, 1),         // 14 -> 16
                          IsC(Op::ADDK_I, 0, 0, 100),  // 15 skipped
                      },
                      t, 4);
  auto r = RunModule(m);
  ASSERT_TRUE(r.status.ok()) << r.status << " " << r.error.message;
  EXPECT_EQ(r.out, "15\n");
  EXPECT_GT(r.stats.instructions, 20u);
}

// fib(n) as the compiler emits it.
uint16_t AddFib(ModuleBuilder& b) {
  const uint32_t ti = b.Int();
  return b.Fn("fib", {{ti}, ti}, 4,
              {
                  IsBx(Op::LOADI, 1, 2),      // 0
                  IsC(Op::JLT_I, 0, 1, 6),    // 1 -> 8
                  IsC(Op::ADDK_I, 2, 0, -1),  // 2
                  I(Op::CALL, 2, 0, 1),       // 3
                  IsC(Op::ADDK_I, 3, 0, -2),  // 4
                  I(Op::CALL, 3, 0, 1),       // 5
                  I(Op::ADD_I, 0, 2, 3),      // 6
                  I(Op::RET, 0),              // 7
                  I(Op::RET, 0),              // 8
              });
}

TEST(Interpreter, Fib30) {
  ModuleBuilder b;
  uint16_t fib = AddFib(b);
  uint32_t t = b.Int();
  uint16_t main = b.Fn("main", {{}, b.Unit()}, 2,
                       {IsBx(Op::LOADI, 0, 30), I(Op::CALL, 0, fib, 1), I(Op::PRINT, 0, t),
                        IsBx(Op::LOADI, 0, 0), I(Op::RET, 0)});
  Module m = b.Build(main);
  double best = 1e9;
  for (int i = 0; i < 3; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto r = RunModule(m);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, ms);
    ASSERT_TRUE(r.status.ok()) << r.status << " " << r.error.message;
    EXPECT_EQ(r.out, "832040\n");
    EXPECT_EQ(r.stats.calls, 2692538u);  // fib calls + main
  }
  std::printf("fib(30): %.1f ms\n", best);
}

TEST(Interpreter, TailCallsRunInConstantSpace) {
  // loop(i, acc) = if i == 0 { acc } else { loop(i - 1, acc + i) }
  ModuleBuilder b;
  const uint32_t ti = b.Int();
  uint16_t loop = b.Fn("loop", {{ti, ti}, ti}, 4,
                       {
                           IsBx(Op::LOADI, 2, 0),      // 0
                           IsC(Op::JEQ_I, 0, 2, 3),    // 1 -> 5
                           IsC(Op::ADDK_I, 2, 0, -1),  // 2
                           I(Op::ADD_I, 3, 1, 0),      // 3
                           I(Op::TAILCALL, 2, 0, 2),   // 4
                           I(Op::RET, 1),              // 5
                       });
  uint32_t t = b.Int();
  uint16_t k = b.K(10'000'000);
  uint16_t main = b.Fn("main", {{}, b.Unit()}, 3,
                       {I(Op::LOADK, 0, k), IsBx(Op::LOADI, 1, 0), I(Op::CALL, 0, loop, 2),
                        I(Op::PRINT, 0, t), IsBx(Op::LOADI, 0, 0), I(Op::RET, 0)});
  Limits limits;
  limits.max_call_depth = 3;  // main + loop: tail calls must not count
  auto r = RunModule(b.Build(main), limits);
  ASSERT_TRUE(r.status.ok()) << r.status << " " << r.error.message;
  EXPECT_EQ(r.out, "50000005000000\n");
}

// down(n) = if n == 0 { 0 } else { down(n - 1) + 1 }, not a tail call.
Module Down(int64_t n) {
  ModuleBuilder b;
  const uint32_t ti = b.Int();
  uint16_t down = b.Fn("down", {{ti}, ti}, 2,
                       {
                           IsBx(Op::LOADI, 1, 0),      // 0
                           IsC(Op::JEQ_I, 0, 1, 4),    // 1 -> 6
                           IsC(Op::ADDK_I, 1, 0, -1),  // 2
                           I(Op::CALL, 1, 0, 1),       // 3
                           IsC(Op::ADDK_I, 0, 1, 1),   // 4
                           I(Op::RET, 0),              // 5
                           I(Op::RET, 0),              // 6
                       });
  uint32_t t = b.Int();
  uint16_t k = b.K(n);
  uint16_t main = b.Fn("main", {{}, b.Unit()}, 2,
                       {I(Op::LOADK, 0, k), I(Op::CALL, 0, down, 1), I(Op::PRINT, 0, t),
                        IsBx(Op::LOADI, 0, 0), I(Op::RET, 0)});
  return b.Build(main);
}

TEST(Interpreter, DeepRecursionUpToTheLimit) {
  // main + down(999998) ... down(0): exactly 1,000,000 frames.
  auto r = RunModule(Down(999'998));
  ASSERT_TRUE(r.status.ok()) << r.status << " " << r.error.message;
  EXPECT_EQ(r.out, "999998\n");
}

TEST(Interpreter, StackOverflowIsACleanError) {
  auto r = RunModule(Down(999'999));  // 1,000,001 frames
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(r.error.message, "stack overflow: more than 1000000 nested calls");
  EXPECT_NE(r.error.help.find("tail"), std::string::npos);
  EXPECT_EQ(r.error.location.line, 4u);  // down's CALL
  Limits small;
  small.max_call_depth = 100;
  r = RunModule(Down(1000), small);
  EXPECT_EQ(r.error.message, "stack overflow: more than 100 nested calls");
}

TEST(Interpreter, VmIsReusableAfterAnError) {
  Vm vm;
  vm.AddNatives(stdlib::Natives());
  std::string out;
  vm.SetOutput([&](absl::string_view s) { out.append(s.data(), s.size()); });
  Limits limits;
  ASSERT_TRUE(vm.Load(Down(2'000'000)).ok());
  EXPECT_FALSE(vm.RunMain({}).ok());
  ASSERT_NE(vm.last_error(), nullptr);
  ASSERT_TRUE(vm.Load(Down(10)).ok());
  EXPECT_TRUE(vm.RunMain({}).ok());
  EXPECT_EQ(vm.last_error(), nullptr);
  EXPECT_EQ(out, "10\n");
  EXPECT_EQ(vm.stats().heap_bytes_live, 0u);
}

TEST(Interpreter, OutputBeforeAnErrorIsKept) {
  ModuleBuilder b;
  uint32_t t = b.Int();
  uint16_t main = b.Fn("main", {{}, b.Unit()}, 3,
                       {IsBx(Op::LOADI, 0, 1), I(Op::PRINT, 0, t), IsBx(Op::LOADI, 1, 0),
                        I(Op::DIV_I, 2, 0, 1), I(Op::PRINT, 2, t), I(Op::RET, 1)});
  auto r = RunModule(b.Build(main));
  EXPECT_EQ(r.out, "1\n");
  EXPECT_EQ(r.error.message, "division by zero");
  EXPECT_EQ(r.error.location.line, 4u);
  EXPECT_EQ(r.error.location.column, 4u);
}

TEST(Interpreter, Interrupt) {
  // An infinite loop stops at its next backward jump once interrupted.
  ModuleBuilder b;
  uint16_t main = b.Fn("main", {{}, b.Unit()}, 1, {IsBx(Op::JMP, 0, -1), I(Op::RET, 0)});
  Vm vm;
  ASSERT_TRUE(vm.Load(b.Build(main)).ok());
  vm.Interrupt();
  absl::Status s = vm.RunMain({});
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(vm.last_error()->message, "interrupted");
}

TEST(Interpreter, LoadErrors) {
  // What Vm::Load refuses (vm/verifier.h), with the message it gives.
  auto load = [](ModuleBuilder& b, std::vector<Instr> code, int32_t main = 0) {
    b.Fn("main", {{}, b.Unit()}, 1, std::move(code));
    return RunModule(b.Build(main)).status;
  };
  {
    ModuleBuilder b;
    b.N("no_such_native");
    absl::Status s = load(b, {IsBx(Op::LOADI, 0, 0), I(Op::RET, 0)});
    EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(std::string(s.message()), "unknown native function `no_such_native`");
  }
  {
    ModuleBuilder b;
    absl::Status s = load(b, {I(Op::CALL, 0, 7, 0), I(Op::RET, 0)});
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(
        std::string(s.message()),
        "malformed module: function 0 `main` pc 0: CALL operand b = 7 is past the 1 functions");
  }
  {
    ModuleBuilder b;
    absl::Status s = load(b, {IsBx(Op::JMP, 0, 5), I(Op::RET, 0)});
    EXPECT_EQ(
        std::string(s.message()),
        "malformed module: function 0 `main` pc 0: JMP jumps to pc 6, outside its 2 instructions");
  }
  {
    ModuleBuilder b;
    absl::Status s = load(b, {IsBx(Op::LOADI, 0, 0), I(Op::RET, 0)}, 3);
    EXPECT_EQ(std::string(s.message()), "malformed module: main is not a function");
  }
  {
    ModuleBuilder b;
    absl::Status s = load(b, {IsBx(Op::LOADI, 0, 0)});  // falls off the end
    EXPECT_EQ(std::string(s.message()),
              "malformed module: function 0 `main` pc 0: LOADI runs past the end of its code");
  }
  {  // A function without its signature (bytecode.h Function::param_types).
    ModuleBuilder b;
    b.Fn("main", {{}, b.Unit()}, 1, {IsBx(Op::LOADI, 0, 0), I(Op::RET, 0)});
    b.module().functions[0].num_params = 1;
    EXPECT_EQ(std::string(RunModule(b.Build(-1)).status.message()),
              "malformed module: function 0 `main`: a parameter count unlike its types'");
  }
}

// An owned reference returned from a plain register (LOADS into one, then
// RET: the verifier's "loose" value) is the host's to release: whether a
// result is a reference follows the function's result type, not the
// register. (Taken from the register, init's Str leaked: module_fuzzer.)
TEST(Interpreter, ALooseResultIsOwnedByTheHost) {
  ModuleBuilder b;
  const uint32_t str = b.Str();
  const uint16_t s = b.S("kept");
  const uint16_t f = b.Fn("name", {{}, str}, 1, {I(Op::LOADS, 0, s), I(Op::RET, 0)});
  const uint16_t init = b.Fn("<init>", {{}, str}, 1, {I(Op::LOADS, 0, s), I(Op::RET, 0)});
  Module m = b.Build(-1, init);
  Vm vm;
  vm.AddNatives(stdlib::Natives());
  ASSERT_TRUE(vm.Load(m).ok());
  const uint64_t loaded = vm.stats().heap_bytes_live;
  ASSERT_TRUE(vm.RunInit().ok());
  Value result = 0;
  bool is_ref = false;
  ASSERT_TRUE(vm.Call(f, {}, &result, &is_ref).ok());
  EXPECT_TRUE(is_ref);
  EXPECT_EQ(StrView(AsObject(result)), "kept");
  vm.heap().ReleaseValue(result);
  // The string constant alone: init's result was released, and so was f's.
  EXPECT_EQ(AsObject(result)->refcount, 1u);
  EXPECT_EQ(vm.stats().heap_bytes_live, loaded);
}

}  // namespace
}  // namespace alea::vm
