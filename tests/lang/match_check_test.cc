#include "lang/match_check.h"

#include <gtest/gtest.h>

#include "lang/parser.h"

namespace alea::lang {
namespace {

// Parses `source` as a file and returns what the match checks report.
std::string CheckMatchesIn(const std::string& source) {
  SourceManager sources;
  FileId file = sources.Add("m.alea", source);
  Diagnostics diags;
  Module module = Parse(sources, file, diags);
  EXPECT_FALSE(diags.has_errors()) << RenderAll(sources, diags);
  diags.Clear();
  CheckMatches(module, diags);
  return RenderAll(sources, diags);
}

TEST(MatchCheckTest, CompleteMatchesAreSilent) {
  EXPECT_EQ(CheckMatchesIn("fn f(b) = match b { true => 1, false => 0 }"), "");
  EXPECT_EQ(CheckMatchesIn("fn f(n) = match n { 0 => 1, _ => 0 }"), "");
  EXPECT_EQ(CheckMatchesIn("fn f(p) = match p { (true, x) => x, (false, _) => 0 }"), "");
  EXPECT_EQ(CheckMatchesIn("fn f(u) = match u { () => 1 }"), "");
  EXPECT_EQ(CheckMatchesIn("fn f(p) = match p { (a, b) => a }"), "");
}

TEST(MatchCheckTest, MissingBoolIsNamed) {
  EXPECT_EQ(CheckMatchesIn("fn f(b) = match b { true => 1 }"),
            "m.alea:1:17: error: non-exhaustive match: `false` is not covered\n"
            "    1 | fn f(b) = match b { true => 1 }\n"
            "      |                 ^\n"
            "help: add an arm for `false`, or a `_ =>` arm for everything else\n");
}

TEST(MatchCheckTest, MissingIntPicksAnUnusedValue) {
  std::string out = CheckMatchesIn("fn f(n) = match n { 0 => 1, 1 => 2 }");
  EXPECT_NE(out.find("`2` is not covered"), std::string::npos) << out;
}

TEST(MatchCheckTest, MissingTupleWitnessIsNested) {
  std::string out = CheckMatchesIn("fn f(p) = match p { (true, true) => 1, (false, _) => 2 }");
  EXPECT_NE(out.find("`(true, false)` is not covered"), std::string::npos) << out;
}

TEST(MatchCheckTest, GuardedArmsDoNotCount) {
  std::string out = CheckMatchesIn("fn f(n) = match n { k if k > 0 => 1, 0 => 2 }");
  EXPECT_NE(out.find("`1` is not covered"), std::string::npos) << out;
  EXPECT_NE(out.find("note: arms with an `if` guard do not count"), std::string::npos) << out;
}

TEST(MatchCheckTest, UnreachableArmIsAWarning) {
  SourceManager sources;
  FileId file = sources.Add("m.alea", "fn f(n) = match n { _ => 0, 1 => 1 }");
  Diagnostics diags;
  Module module = Parse(sources, file, diags);
  CheckMatches(module, diags);
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_EQ(diags.all()[0].severity, Severity::Warning);
  EXPECT_FALSE(diags.has_errors());
  EXPECT_NE(RenderAll(sources, diags).find("m.alea:1:29: warning: unreachable match arm"),
            std::string::npos);
}

TEST(MatchCheckTest, NestedMatchesInsideLambdasAreChecked) {
  std::string out = CheckMatchesIn("fn f(xs) = map(xs, |b| match b { false => 0 })");
  EXPECT_NE(out.find("`true` is not covered"), std::string::npos) << out;
}

}  // namespace
}  // namespace alea::lang
