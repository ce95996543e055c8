#include "repl/doc_text.h"

#include "absl/strings/str_cat.h"
#include "lang/builtin_docs.h"
#include "lang/prelude.h"
#include "lang/suggest.h"

namespace alea::repl {

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

}  // namespace alea::repl
