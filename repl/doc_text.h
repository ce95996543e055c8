// What `alea doc [NAME]` and the REPL's `:doc [NAME]` / `:help NAME` print,
// from the builtins' reference (lang/builtin_docs.h): one text for both.
#ifndef ALEA_REPL_DOC_TEXT_H_
#define ALEA_REPL_DOC_TEXT_H_

#include <string>
#include <string_view>

namespace alea::repl {

struct DocLookup {
  bool found = false;
  std::string text;  // found: the reference text; else: the error message
};

// NAME's reference (`-` gives both minuses); an empty NAME gives the index of
// every builtin. Not found: the error message, with the nearest name if any.
DocLookup LookUpDoc(std::string_view name);

}  // namespace alea::repl

#endif  // ALEA_REPL_DOC_TEXT_H_
