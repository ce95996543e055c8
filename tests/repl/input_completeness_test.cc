#include "repl/input_completeness.h"

#include "gtest/gtest.h"

namespace alea::repl {
namespace {

TEST(InputCompleteness, WholeExpressionsAndDefinitionsAreComplete) {
  EXPECT_TRUE(IsCompleteInput(""));
  EXPECT_TRUE(IsCompleteInput("1 + 2"));
  EXPECT_TRUE(IsCompleteInput("fn sq(x) = x * x"));
  EXPECT_TRUE(IsCompleteInput("let (a, b) = (1, [2, 3])"));
  EXPECT_TRUE(IsCompleteInput("fn f(x) {\n  x + 1\n}"));
  EXPECT_TRUE(IsCompleteInput("|x| x"));
  EXPECT_TRUE(IsCompleteInput("print(1);"));
}

TEST(InputCompleteness, OpenBracketsContinue) {
  EXPECT_FALSE(IsCompleteInput("fn f(x) {"));
  EXPECT_FALSE(IsCompleteInput("f(1,\n  2"));
  EXPECT_FALSE(IsCompleteInput("[[1, 2],"));
  EXPECT_FALSE(IsCompleteInput("{ { 1 }"));
  EXPECT_TRUE(IsCompleteInput("{ { 1 } }"));
}

TEST(InputCompleteness, TooManyClosingBracketsAreLeftToTheParser) {
  EXPECT_TRUE(IsCompleteInput("1 + 2)"));
  EXPECT_TRUE(IsCompleteInput("}"));
}

TEST(InputCompleteness, BracketsInStringsAndCommentsDoNotCount) {
  EXPECT_TRUE(IsCompleteInput("\"{ (\""));
  EXPECT_TRUE(IsCompleteInput("1 // {"));
  EXPECT_TRUE(IsCompleteInput("\"a \\\" {\""));
}

TEST(InputCompleteness, UnterminatedStringsContinue) {
  EXPECT_FALSE(IsCompleteInput("\"abc"));
  EXPECT_FALSE(IsCompleteInput("print(\"a\\\""));
  EXPECT_TRUE(IsCompleteInput("\"a\\\\\""));
}

TEST(InputCompleteness, TrailingBinaryOperatorsContinue) {
  EXPECT_FALSE(IsCompleteInput("1 +"));
  EXPECT_FALSE(IsCompleteInput("1 *\n"));
  EXPECT_FALSE(IsCompleteInput("a &&"));
  EXPECT_FALSE(IsCompleteInput("a == // compare\n"));
  EXPECT_FALSE(IsCompleteInput("fn f(x) ="));
  EXPECT_FALSE(IsCompleteInput("fn f(x) ->"));
  EXPECT_FALSE(IsCompleteInput("x @"));
  EXPECT_FALSE(IsCompleteInput("let x ="));
  EXPECT_TRUE(IsCompleteInput("-1"));
  EXPECT_TRUE(IsCompleteInput("1 + -2"));
}

}  // namespace
}  // namespace alea::repl
