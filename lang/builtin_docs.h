// The reference of every builtin, from the documentation entries of the one
// builtins table (lang/builtins.def): `alea doc`, the REPL's `:doc` and `:type`
// of an overloaded name, and docs/builtins.md all render from here.
#ifndef ALEA_LANG_BUILTIN_DOCS_H_
#define ALEA_LANG_BUILTIN_DOCS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"

namespace alea::lang {

struct BuiltinDoc {
  std::string_view name;     // as in builtins.def: `len`, `+`, `u-`, `[]`
  std::string_view section;  // the ALEA_BUILTIN_SECTION it belongs to
  std::string_view summary;  // one sentence
  std::string_view example;  // a REPL transcript: `alea> ` lines typed, the others printed
};

struct BuiltinSection {
  std::string_view title;
  std::string_view intro;
};

// In table order.
absl::Span<const BuiltinDoc> BuiltinDocs();
absl::Span<const BuiltinSection> BuiltinSections();

// How users write a table name: `-` for unary minus (`u-`), the name itself
// otherwise.
std::string_view BuiltinDisplayName(std::string_view name);

// The entries a user means by `name` as written (`-` finds both minuses);
// empty when there is none.
std::vector<const BuiltinDoc*> FindBuiltinDocs(std::string_view name);

// One line per overload: `len(xs: [a]) -> Int` for a function with a name,
// `(+) : (Int, Int) -> Int` for an operator (`-x`, `x[i]`, `x[lo:hi]` for
// unary minus, indexing, slicing), `f32 : DType(f32)` for a value.
std::vector<std::string> BuiltinSignatureLines(std::string_view name);

// The text of `alea doc NAME` and `:doc NAME`: signatures, summary, example.
std::string BuiltinDocText(const BuiltinDoc& doc);

// The text of `alea doc NAME` for a prelude type or one of its
// constructors (lang/prelude.h): the declaration, summary, example.
struct PreludeType;
std::string PreludeDocText(const PreludeType& type);

// `alea doc` with no name: every name with its summary, by section.
std::string BuiltinIndexText();

// docs/builtins.md.
std::string BuiltinReferenceMarkdown();

}  // namespace alea::lang

#endif  // ALEA_LANG_BUILTIN_DOCS_H_
