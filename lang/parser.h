// The parser: tokens to the AST of lang/ast.h, for the whole syntax of
// docs/language.md.
//
// It never stops at the first error: a syntax error is reported at the
// offending token, the parser skips to the next statement, match arm or item
// and goes on, so independent mistakes are all reported while one mistake
// yields one message. Nesting deeper than kMaxNesting levels is reported once
// and ends the parse, so no input can overflow the stack. With errors the
// returned AST is incomplete (missing parts are `()` placeholders) and is
// only good for tooling that tolerates that.
#ifndef ALEA_LANG_PARSER_H_
#define ALEA_LANG_PARSER_H_

#include "lang/ast.h"
#include "lang/diagnostics.h"
#include "lang/source.h"

namespace alea::lang {

// How deep expressions, patterns, types and blocks may nest. A chain of binary
// operators or postfix calls counts one level per 8 links, so a tree the
// parser builds is at most about 8 * kMaxNesting (2048) nodes deep: passes
// may recurse over it.
inline constexpr int kMaxNesting = 256;

// Parses a whole file.
Module Parse(const SourceManager& sources, FileId file, Diagnostics& diags);

// Parses a file holding exactly one expression (tests, the REPL). Never null.
ExprPtr ParseExpression(const SourceManager& sources, FileId file, Diagnostics& diags);

}  // namespace alea::lang

#endif  // ALEA_LANG_PARSER_H_
