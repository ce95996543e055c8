#include "lang/diagnostics.h"

#include <gtest/gtest.h>

namespace alea::lang {
namespace {

TEST(DiagnosticsTest, RendersGccLayoutWithCaretNoteAndHelp) {
  SourceManager sources;
  FileId file = sources.Add("model.alea", "fn main() {\n  let b = uniform(s, [2]);\n}\n");
  Diagnostics diags;
  diags.Report(DiagId::kNestingTooDeep, Span{file, 22, 23}, 256)
      .Note(Span{file, 0, 2}, DiagId::kNestingTooDeep, 3);
  ASSERT_EQ(diags.error_count(), 1);
  EXPECT_EQ(Render(sources, diags.all()[0]),
            "model.alea:2:11: error: nesting is too deep (more than 256 levels)\n"
            "    2 |   let b = uniform(s, [2]);\n"
            "      |           ^\n"
            "model.alea:1:1: note: nesting is too deep (more than 3 levels)\n"
            "help: split the expression into smaller functions or `let`s\n");
}

TEST(DiagnosticsTest, UnderlinesMultiByteSpansAndKeepsTabs) {
  SourceManager sources;
  FileId file = sources.Add("t.alea", "\tlet x = \"abc");
  Diagnostics diags;
  diags.Report(DiagId::kUnterminatedString, Span{file, 9, 13});
  EXPECT_EQ(Render(sources, diags.all()[0]),
            "t.alea:1:10: error: unterminated string literal\n"
            "    1 | \tlet x = \"abc\n"
            "      | \t        ^~~~\n"
            "help: close it with `\"`\n");
}

TEST(DiagnosticsTest, ErrorWithoutSpanNamesTheTool) {
  SourceManager sources;
  Diagnostics diags;
  diags.Report(DiagId::kCannotOpenFile, std::nullopt, "x.alea", "No such file or directory");
  EXPECT_EQ(RenderAll(sources, diags),
            "alea: error: cannot open `x.alea`: No such file or directory\n");
}

TEST(DiagnosticsTest, RenderAllStopsAfterTheLimit) {
  SourceManager sources;
  FileId file = sources.Add("t.alea", "x");
  Diagnostics diags;
  for (int i = 0; i < 5; ++i) diags.Report(DiagId::kUnexpectedCharacter, Span{file, 0, 1}, "x");
  std::string text = RenderAll(sources, diags, 2);
  EXPECT_NE(text.find("alea: error: 3 more errors not shown\n"), std::string::npos);
}

}  // namespace
}  // namespace alea::lang
