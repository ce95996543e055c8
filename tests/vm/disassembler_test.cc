#include "vm/disassembler.h"

#include <gtest/gtest.h>

#include "tests/vm/test_util.h"

namespace alea::vm {
namespace {

using testing::I;
using testing::IsBx;
using testing::IsC;

TEST(Disassembler, ResolvesNamesAndLocations) {
  testing::ModuleBuilder b;
  uint32_t ti = b.Int();
  uint32_t pair = b.Tuple({ti, b.Str()});
  uint16_t s = b.S("hi\n");
  uint16_t k = b.K(7);
  uint16_t n = b.N("sqrt");
  b.G("answer", ti);
  uint16_t fib =
      b.Fn("fib", {{ti}, ti}, 4,
           {IsBx(Op::LOADI, 1, 2), IsC(Op::JLT_I, 0, 1, 1), I(Op::CALL, 0, 0, 1), I(Op::RET, 0)});
  b.module().functions[fib].specialization = "[Int]";
  uint16_t main = b.Fn("main", {{}, ti}, 4,
                       {I(Op::LOADS, 0, s), I(Op::LOADK, 1, k), I(Op::CALLN, 1, n, 1),
                        I(Op::TUPLE, 2, 1, pair), I(Op::MOVE, 3, 2, 0, 1), I(Op::RET, 1)},
                       {0, 2, 3});
  std::string text = Disassemble(b.Build(main));
  EXPECT_NE(text.find("F0: fn fib [Int]\n  params 1, registers 4, references none\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("F1: fn main (main)\n  params 0, registers 4, references r0 r2 r3\n"),
            std::string::npos);
  EXPECT_NE(text.find("      1  JLT_I      r0, r1, +1"), std::string::npos);
  EXPECT_NE(text.find("; -> 3"), std::string::npos);
  EXPECT_NE(text.find("CALL       r0, F0, 1"), std::string::npos);
  EXPECT_NE(text.find("; fib [Int]"), std::string::npos);
  EXPECT_NE(text.find("; \"hi\\n\""), std::string::npos);
  EXPECT_NE(text.find("; sqrt"), std::string::npos);
  EXPECT_NE(text.find("; (Int, Str)"), std::string::npos);
  EXPECT_NE(text.find("MOVE       r3, r2, x=1"), std::string::npos);
  EXPECT_NE(text.find("@3:3"), std::string::npos);  // fib's pc 2
  EXPECT_NE(text.find("  K0 = 7 / "), std::string::npos);
  EXPECT_NE(text.find("  G0 = answer: Int\n"), std::string::npos);
  EXPECT_NE(text.find("  T1 = Str\n"), std::string::npos);
}

}  // namespace
}  // namespace alea::vm
