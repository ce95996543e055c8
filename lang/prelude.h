// The prelude's types (lang/prelude.def): the one table the type checker
// declares them from and the builtins reference documents them from.
#ifndef ALEA_LANG_PRELUDE_H_
#define ALEA_LANG_PRELUDE_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"

namespace alea::lang {

namespace types {
struct TypeDef;  // lang/types.h
}

struct PreludeType {
  std::string_view name;
  std::string_view params;        // "a, e"
  std::string_view constructors;  // "Ok(a) | Err(e)"
  std::string_view summary;
  std::string_view example;
};

struct PreludeCtor {
  std::string name;
  int field = -1;  // the parameter its one field is, or -1 for none
};

absl::Span<const PreludeType> PreludeTypes();
std::vector<std::string> PreludeParams(const PreludeType& type);
std::vector<PreludeCtor> PreludeCtors(const PreludeType& type);
// `type Option(a) = None | Some(a)`.
std::string PreludeDeclaration(const PreludeType& type);
// The prelude type named `name` or having a constructor of that name; null
// when there is none.
const PreludeType* FindPreludeType(std::string_view name);

// The prelude's types as the checker knows them, one TypeDef each for every
// program (so that a builtin's signature, `parse_int(s: Str) ->
// Option(Int)`, names the same `Option` as the program): made on first use,
// immutable after, shared by threads. In table order.
absl::Span<const types::TypeDef* const> PreludeDefs();
// The prelude TypeDef named `name`, or null.
const types::TypeDef* PreludeDef(std::string_view name);

}  // namespace alea::lang

#endif  // ALEA_LANG_PRELUDE_H_
