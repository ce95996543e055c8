// The builtins' reference comes from the one table: every name has exactly
// one entry, every entry names a builtin, and the renderings hold together.
#include "lang/builtin_docs.h"

#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "lang/builtins.h"
#include "lang/prelude.h"

namespace alea::lang {
namespace {

TEST(BuiltinDocs, EveryBuiltinNameHasExactlyOneEntry) {
  std::set<std::string> documented;
  for (const BuiltinDoc& doc : BuiltinDocs()) {
    EXPECT_TRUE(documented.insert(std::string(doc.name)).second)
        << "two entries for `" << doc.name << "`";
    EXPECT_FALSE(BuiltinOverloads(doc.name).empty())
        << "an entry for `" << doc.name << "`, which is no builtin";
  }
  for (int i = 0; i < kBuiltinCount; ++i) {
    const Builtin& b = GetBuiltin(static_cast<BuiltinId>(i));
    EXPECT_EQ(documented.count(std::string(b.name)), 1u) << "`" << b.name << "` has no entry";
  }
}

TEST(BuiltinDocs, EntriesHaveASectionASentenceAndATranscript) {
  std::set<std::string> sections;
  for (const BuiltinSection& s : BuiltinSections()) sections.insert(std::string(s.title));
  std::set<std::string> used;
  for (const BuiltinDoc& doc : BuiltinDocs()) {
    EXPECT_EQ(sections.count(std::string(doc.section)), 1u) << doc.name;
    used.insert(std::string(doc.section));
    EXPECT_FALSE(doc.summary.empty()) << doc.name;
    EXPECT_EQ(doc.summary.back(), '.') << doc.name << ": a summary is one sentence";
    EXPECT_EQ(doc.example.rfind("alea> ", 0), 0u) << doc.name << ": the example is typed input";
    EXPECT_NE(doc.example.back(), '\n') << doc.name;
  }
  EXPECT_EQ(used, sections) << "a section without entries";
}

TEST(BuiltinDocs, SignatureLinesShowEachOverloadAsWritten) {
  EXPECT_EQ(BuiltinSignatureLines("len"),
            (std::vector<std::string>{"len(xs: [a]) -> Int", "len(s: Str) -> Int",
                                      "len(x: Tensor(d)) -> Int"}));
  EXPECT_EQ(BuiltinSignatureLines("f32"), (std::vector<std::string>{"f32 : DType(f32)"}));
  EXPECT_EQ(BuiltinSignatureLines("!"), (std::vector<std::string>{"(!) : (Bool) -> Bool"}));
  EXPECT_EQ(BuiltinSignatureLines("u-").front(), "-x : (Int) -> Int");
  EXPECT_EQ(BuiltinSignatureLines("[]").front(), "x[i] : (xs: [a], i: Int) -> a");
  EXPECT_EQ(BuiltinSignatureLines("max").back(), "max(xs: [a]) -> a");
  EXPECT_THAT(BuiltinSignatureLines("max"),
              ::testing::Contains("max(x: Tensor(n), *axis: Int = none) -> Tensor(n)"));
}

TEST(BuiltinDocs, UsersFindOperatorsAsTheyWriteThem) {
  ASSERT_EQ(FindBuiltinDocs("-").size(), 2u);  // binary and unary minus
  EXPECT_EQ(FindBuiltinDocs("-")[1]->name, "u-");
  ASSERT_EQ(FindBuiltinDocs("uniform").size(), 1u);
  EXPECT_TRUE(FindBuiltinDocs("unifrom").empty());
}

TEST(BuiltinDocs, TheTextShowsSignaturesSummaryAndExample) {
  const BuiltinDoc& doc = *FindBuiltinDocs("reverse")[0];
  EXPECT_EQ(BuiltinDocText(doc),
            "reverse(xs: [a]) -> [a]\n\nThe elements in reverse order.\n\n"
            "alea> reverse([1, 2, 3])\n- : [Int] = [3, 2, 1]\n");
}

TEST(BuiltinDocs, TheMarkdownHasEverySectionAndName) {
  std::string md = BuiltinReferenceMarkdown();
  for (const BuiltinSection& s : BuiltinSections()) {
    EXPECT_NE(md.find("\n## " + std::string(s.title) + "\n"), std::string::npos) << s.title;
  }
  for (const BuiltinDoc& doc : BuiltinDocs()) {
    EXPECT_NE(md.find("\n### `" + std::string(BuiltinDisplayName(doc.name)) + "`"),
              std::string::npos)
        << doc.name;
  }
  EXPECT_NE(md.find("- [Random states](#random-states): `key` `split`"), std::string::npos);
}

TEST(PreludeDocs, TheTableDeclaresAndDocumentsOptionAndResult) {
  const PreludeType* option = FindPreludeType("Some");
  ASSERT_NE(option, nullptr);
  EXPECT_EQ(option, FindPreludeType("Option"));
  EXPECT_EQ(PreludeDeclaration(*option), "type Option(a) = None | Some(a)");
  std::vector<PreludeCtor> ctors = PreludeCtors(*option);
  ASSERT_EQ(ctors.size(), 2u);
  EXPECT_EQ(ctors[0].name, "None");
  EXPECT_EQ(ctors[0].field, -1);
  EXPECT_EQ(ctors[1].name, "Some");
  EXPECT_EQ(ctors[1].field, 0);
  const PreludeType* result = FindPreludeType("Err");
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(PreludeCtors(*result)[1].field, 1);  // `e`, the second parameter
  EXPECT_EQ(FindPreludeType("Maybe"), nullptr);
  EXPECT_EQ(PreludeDocText(*result).rfind("type Result(a, e) = Ok(a) | Err(e)\n\n", 0), 0u);
  std::string md = BuiltinReferenceMarkdown();
  EXPECT_NE(md.find("\n## Prelude types\n"), std::string::npos);
  EXPECT_NE(md.find("\n### `Option`\n"), std::string::npos);
}

}  // namespace
}  // namespace alea::lang
