// Prints an AST back as Alea source: valid input to the parser, which parses
// back to the same tree (binary and unary operations fully parenthesized,
// blocks indented two spaces, literals written so they re-read exactly).
// Tests use it for parse-print round trips; `alea dis --desugar` shows
// rewritten programs with it.
#ifndef ALEA_LANG_AST_PRINT_H_
#define ALEA_LANG_AST_PRINT_H_

#include <string>

#include "lang/ast.h"

namespace alea::lang {

// Imports, then top-level `let`s, then functions; ends with a newline.
std::string PrintModule(const Module& module);
std::string PrintFn(const FnDecl& fn);
std::string PrintTypeDecl(const TypeDecl& decl);
// `indent` is the indentation of the line the expression starts on; nested
// blocks indent two spaces more. No trailing newline.
std::string PrintExpr(const Expr& expr, int indent = 0);
std::string PrintPattern(const Pattern& pattern);
std::string PrintType(const TypeAnn& type);
// A Float literal that re-reads as the same double (`1.0`, `0.1`, `1e+16`);
// negative values, infinities and NaN come out as parenthesized expressions.
std::string PrintFloat(double value);
// A Str literal with `\n \t \" \\` escaped, in double quotes.
std::string QuoteString(const std::string& value);

}  // namespace alea::lang

#endif  // ALEA_LANG_AST_PRINT_H_
