// The builtins' reference and the language's words, for `alea doc`, `:doc`
// and completion (include/alea/tooling.h).
#include "absl/strings/str_cat.h"
#include "alea/tooling.h"
#include "lang/builtin_docs.h"
#include "lang/builtins.h"
#include "lang/prelude.h"
#include "lang/suggest.h"

namespace alea::tooling {

DocLookup LookUpDoc(std::string_view name) {
  if (name.empty()) return {true, lang::BuiltinIndexText()};
  std::vector<const lang::BuiltinDoc*> docs = lang::FindBuiltinDocs(name);
  if (docs.empty()) {
    if (const lang::PreludeType* type = lang::FindPreludeType(name)) {
      return {true, lang::PreludeDocText(*type)};
    }
    std::string message =
        absl::StrCat("no builtin is named `", absl::string_view(name.data(), name.size()), "`");
    lang::NearestName nearest(name);
    for (const lang::BuiltinDoc& doc : lang::BuiltinDocs()) {
      nearest.Consider(lang::BuiltinDisplayName(doc.name));
    }
    for (const lang::PreludeType& type : lang::PreludeTypes()) nearest.Consider(type.name);
    const std::string& best = nearest.best();
    if (!best.empty())
      absl::StrAppend(&message, "; did you mean `", absl::string_view(best.data(), best.size()),
                      "`?");
    return {false, message};
  }
  std::string text;
  for (const lang::BuiltinDoc* doc : docs) {
    absl::StrAppend(&text, text.empty() ? "" : "\n", lang::BuiltinDocText(*doc));
  }
  return {true, text};
}

std::string BuiltinReferenceMarkdown() { return lang::BuiltinReferenceMarkdown(); }

std::vector<std::string> LanguageWords() {
  std::vector<std::string> words;
  for (std::string_view name : lang::BuiltinNames()) words.emplace_back(name);
  for (const lang::PreludeType& type : lang::PreludeTypes()) {
    words.emplace_back(type.name);
    for (const lang::PreludeCtor& c : lang::PreludeCtors(type)) words.push_back(c.name);
  }
  for (const char* keyword : {"fn", "let", "type", "import", "extern", "if", "else", "match",
                              "with", "uses", "rng", "true", "false"}) {
    words.emplace_back(keyword);
  }
  return words;
}

}  // namespace alea::tooling
