#include "lang/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace alea::lang {
namespace {

struct Lexed {
  SourceManager sources;
  Diagnostics diags;
  std::vector<Token> tokens;
  std::string rendered;
};

Lexed LexText(const std::string& text) {
  Lexed out;
  FileId file = out.sources.Add("t.alea", text);
  out.tokens = Lex(out.sources, file, out.diags);
  out.rendered = RenderAll(out.sources, out.diags);
  return out;
}

std::vector<std::string> Kinds(const std::vector<Token>& tokens) {
  std::vector<std::string> kinds;
  for (const Token& token : tokens) kinds.push_back(KindName(token.kind));
  return kinds;
}

using Names = std::vector<std::string>;

TEST(LexerTest, EveryPunctuationToken) {
  Lexed l = LexText("( ) [ ] { } , ; : -> => = | || && ! + - * / % @ == != < <= > >= _");
  EXPECT_EQ(l.rendered, "");
  EXPECT_EQ(Kinds(l.tokens),
            (Names{"kLParen", "kRParen",    "kLBracket", "kRBracket", "kLBrace",     "kRBrace",
                   "kComma",  "kSemicolon", "kColon",    "kArrow",    "kFatArrow",   "kAssign",
                   "kPipe",   "kPipePipe",  "kAmpAmp",   "kBang",     "kPlus",       "kMinus",
                   "kStar",   "kSlash",     "kPercent",  "kAt",       "kEqEq",       "kNotEq",
                   "kLt",     "kLe",        "kGt",       "kGe",       "kUnderscore", "kEof"}));
}

TEST(LexerTest, OperatorsWithoutSpaces) {
  Lexed l = LexText("a->b=>c==d!=e<=f>=g||h&&!i|j|-k");
  EXPECT_EQ(l.rendered, "");
  EXPECT_EQ(
      Kinds(l.tokens),
      (Names{"kIdent", "kArrow", "kIdent", "kFatArrow", "kIdent", "kEqEq",     "kIdent", "kNotEq",
             "kIdent", "kLe",    "kIdent", "kGe",       "kIdent", "kPipePipe", "kIdent", "kAmpAmp",
             "kBang",  "kIdent", "kPipe",  "kIdent",    "kPipe",  "kMinus",    "kIdent", "kEof"}));
}

TEST(LexerTest, KeywordsAndIdentifiers) {
  Lexed l = LexText("fn let if else match with uses import true false rng _x x_1 Fn _");
  EXPECT_EQ(l.rendered, "");
  EXPECT_EQ(Kinds(l.tokens),
            (Names{"kFn", "kLet", "kIf", "kElse", "kMatch", "kWith", "kUses", "kImport", "kTrue",
                   "kFalse", "kIdent", "kIdent", "kIdent", "kIdent", "kUnderscore", "kEof"}));
  EXPECT_EQ(l.tokens[10].text, "rng");  // `rng` is an ordinary name
  EXPECT_EQ(l.tokens[11].text, "_x");
  EXPECT_EQ(l.tokens[13].text, "Fn");
}

TEST(LexerTest, SpansCommentsAndLineStarts) {
  Lexed l = LexText("fn f // comment ( ) \n  = 1 // more\n\n  x");
  ASSERT_EQ(Kinds(l.tokens), (Names{"kFn", "kIdent", "kAssign", "kInt", "kIdent", "kEof"}));
  EXPECT_EQ(l.tokens[0].span.begin, 0u);
  EXPECT_EQ(l.tokens[0].span.end, 2u);
  EXPECT_EQ(l.tokens[2].span.begin, 23u);
  EXPECT_TRUE(l.tokens[0].at_line_start);
  EXPECT_FALSE(l.tokens[1].at_line_start);
  EXPECT_TRUE(l.tokens[2].at_line_start);
  EXPECT_FALSE(l.tokens[3].at_line_start);
  EXPECT_TRUE(l.tokens[4].at_line_start);
  // End of file sits right after the last token.
  EXPECT_EQ(l.tokens[5].span.begin, l.tokens[4].span.end);
}

TEST(LexerTest, IntLiterals) {
  Lexed l = LexText("0 7 0042 9223372036854775807");
  EXPECT_EQ(l.rendered, "");
  ASSERT_EQ(l.tokens.size(), 5u);
  EXPECT_EQ(l.tokens[0].int_value, 0);
  EXPECT_EQ(l.tokens[1].int_value, 7);
  EXPECT_EQ(l.tokens[2].int_value, 42);
  EXPECT_EQ(l.tokens[3].int_value, INT64_MAX);
}

TEST(LexerTest, IntLiteralTooLarge) {
  Lexed l = LexText("x = 9223372036854775808 + 1");
  EXPECT_EQ(l.rendered,
            "t.alea:1:5: error: integer literal `9223372036854775808` is larger than 2^63 - 1\n"
            "    1 | x = 9223372036854775808 + 1\n"
            "      |     ^~~~~~~~~~~~~~~~~~~\n");
  // Lexing goes on, with a stand-in value.
  EXPECT_EQ(Kinds(l.tokens), (Names{"kIdent", "kAssign", "kInt", "kPlus", "kInt", "kEof"}));
}

TEST(LexerTest, FloatLiteralsAreCorrectlyRounded) {
  Lexed l = LexText("1.5 1.0 0.1 1e16 2.5e-3 1E+5 3e0 0.30000000000000004 1e-400 4.9e-324");
  EXPECT_EQ(l.rendered, "");
  ASSERT_EQ(l.tokens.size(), 11u);
  for (size_t i = 0; i < 10; ++i) EXPECT_EQ(l.tokens[i].kind, TokenKind::kFloat) << i;
  EXPECT_EQ(l.tokens[0].float_value, 1.5);
  EXPECT_EQ(l.tokens[1].float_value, 1.0);
  EXPECT_EQ(l.tokens[2].float_value, 0.1);
  EXPECT_EQ(l.tokens[3].float_value, 1e16);
  EXPECT_EQ(l.tokens[4].float_value, 2.5e-3);
  EXPECT_EQ(l.tokens[5].float_value, 1e5);
  EXPECT_EQ(l.tokens[6].float_value, 3.0);
  EXPECT_EQ(l.tokens[7].float_value, 0.1 + 0.2);
  EXPECT_EQ(l.tokens[8].float_value, 0.0);  // underflow rounds to zero, as in Python
  EXPECT_EQ(l.tokens[9].float_value, 4.9e-324);
}

TEST(LexerTest, MalformedNumbers) {
  Lexed l = LexText("1. 1e 2e+ 3x 1e999");
  EXPECT_EQ(l.rendered,
            "t.alea:1:1: error: malformed number `1.`\n"
            "    1 | 1. 1e 2e+ 3x 1e999\n"
            "      | ^~\n"
            "help: write the fraction too, as in `1.0`\n"
            "t.alea:1:4: error: malformed number `1e`\n"
            "    1 | 1. 1e 2e+ 3x 1e999\n"
            "      |    ^~\n"
            "help: an exponent needs digits, as in `1e5` or `2.5e-3`\n"
            "t.alea:1:7: error: malformed number `2e+`\n"
            "    1 | 1. 1e 2e+ 3x 1e999\n"
            "      |       ^~~\n"
            "help: an exponent needs digits, as in `1e5` or `2.5e-3`\n"
            "t.alea:1:11: error: malformed number `3x`\n"
            "    1 | 1. 1e 2e+ 3x 1e999\n"
            "      |           ^~\n"
            "help: a number cannot run into a name: separate them with a space or operator\n"
            "t.alea:1:14: error: float literal `1e999` is too large for a Float\n"
            "    1 | 1. 1e 2e+ 3x 1e999\n"
            "      |              ^~~~~\n"
            "help: the largest Float is about 1.8e308\n");
  EXPECT_EQ(Kinds(l.tokens), (Names{"kFloat", "kFloat", "kFloat", "kInt", "kFloat", "kEof"}));
}

TEST(LexerTest, StringsAndEscapes) {
  Lexed l = LexText(R"("" "a b" "x\ny\t\"q\"\\" "é")");
  EXPECT_EQ(l.rendered, "");
  ASSERT_EQ(l.tokens.size(), 5u);
  EXPECT_EQ(l.tokens[0].text, "");
  EXPECT_EQ(l.tokens[1].text, "a b");
  EXPECT_EQ(l.tokens[2].text, "x\ny\t\"q\"\\");
  EXPECT_EQ(l.tokens[3].text, "é");
}

TEST(LexerTest, UnknownEscapeIsReportedAndLexingGoesOn) {
  Lexed l = LexText(R"(f("a\qb\0", $))");
  EXPECT_EQ(l.rendered,
            "t.alea:1:5: error: unknown escape `\\q` in string literal\n"
            "    1 | f(\"a\\qb\\0\", $)\n"
            "      |     ^~\n"
            "help: the escapes are `\\n`, `\\t`, `\\\"` and `\\\\`\n"
            "t.alea:1:8: error: unknown escape `\\0` in string literal\n"
            "    1 | f(\"a\\qb\\0\", $)\n"
            "      |        ^~\n"
            "help: the escapes are `\\n`, `\\t`, `\\\"` and `\\\\`\n"
            "t.alea:1:13: error: unexpected character `$`\n"
            "    1 | f(\"a\\qb\\0\", $)\n"
            "      |             ^\n");
  EXPECT_EQ(l.tokens[2].text, "aqb0");
}

TEST(LexerTest, UnterminatedStrings) {
  Lexed l = LexText("let s = \"abc\nlet t = \"x\\");
  EXPECT_EQ(l.rendered,
            "t.alea:1:9: error: unterminated string literal\n"
            "    1 | let s = \"abc\n"
            "      |         ^~~~\n"
            "help: close it with `\"`\n"
            "t.alea:2:9: error: unterminated string literal\n"
            "    2 | let t = \"x\\\n"
            "      |         ^~~\n"
            "help: close it with `\"`\n");
  EXPECT_EQ(Kinds(l.tokens), (Names{"kLet", "kIdent", "kAssign", "kStr", "kLet", "kIdent",
                                    "kAssign", "kStr", "kEof"}));
  EXPECT_EQ(l.tokens[3].text, "abc");
  EXPECT_TRUE(l.tokens[3].unterminated);
}

TEST(LexerTest, UnexpectedCharactersArePrintable) {
  Lexed l = LexText("a # b \x01 c → d \xff e & f $ g");
  EXPECT_EQ(l.rendered,
            "t.alea:1:3: error: unexpected character `#`\n"
            "    1 | a # b \x01 c → d \xff e & f $ g\n"
            "      |   ^\n"
            "t.alea:1:7: error: unexpected character `\\x01`\n"
            "    1 | a # b \x01 c → d \xff e & f $ g\n"
            "      |       ^\n"
            "t.alea:1:11: error: unexpected character `→`\n"
            "    1 | a # b \x01 c → d \xff e & f $ g\n"
            "      |           ^~~\n"
            "t.alea:1:17: error: unexpected character `\\xFF`\n"
            "    1 | a # b \x01 c → d \xff e & f $ g\n"
            "      |                 ^\n"
            "t.alea:1:21: error: unexpected character `&`\n"
            "    1 | a # b \x01 c → d \xff e & f $ g\n"
            "      |                     ^\n"
            "t.alea:1:25: error: unexpected character `$`\n"
            "    1 | a # b \x01 c → d \xff e & f $ g\n"
            "      |                         ^\n");
  EXPECT_EQ(l.diags.error_count(), 6);
  // Each bad character leaves an error token, so the parser can stay quiet.
  EXPECT_EQ(Kinds(l.tokens),
            (Names{"kIdent", "kError", "kIdent", "kError", "kIdent", "kError", "kIdent", "kError",
                   "kIdent", "kError", "kIdent", "kError", "kIdent", "kEof"}));
}

TEST(LexerTest, TruncatedUtf8IsShownAsBytes) {
  Lexed l = LexText("\xe2\x86");
  EXPECT_EQ(l.diags.error_count(), 2);
  EXPECT_NE(l.rendered.find("unexpected character `\\xE2`"), std::string::npos);
  EXPECT_NE(l.rendered.find("unexpected character `\\x86`"), std::string::npos);
}

TEST(LexerTest, EmptyAndBlankInput) {
  EXPECT_EQ(Kinds(LexText("").tokens), (Names{"kEof"}));
  EXPECT_EQ(Kinds(LexText(" \t\r\n// only a comment").tokens), (Names{"kEof"}));
}

TEST(LexerTest, SpellingsNameTokensForMessages) {
  EXPECT_STREQ(Spelling(TokenKind::kRParen), "`)`");
  EXPECT_STREQ(Spelling(TokenKind::kEof), "end of file");
  EXPECT_STREQ(Spelling(TokenKind::kFatArrow), "`=>`");
  EXPECT_STREQ(Spelling(TokenKind::kIdent), "identifier");
}

}  // namespace
}  // namespace alea::lang
