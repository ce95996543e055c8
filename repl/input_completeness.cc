#include "repl/input_completeness.h"

#include <cstddef>

namespace alea::repl {
namespace {

// Operators after which an expression cannot end. `|` is not among them: a
// lambda's parameter list `|x|` ends with one and is followed by its body,
// but `|x| x` alone is complete, and `||` is both "or" and an empty lambda's
// parameters, so neither decides.
bool IsTrailingOperator(std::string_view op) {
  static constexpr std::string_view kOps[] = {"+",  "-", "*",  "/",  "%", "@",  "==", "!=", "<",
                                              "<=", ">", ">=", "&&", "=", "->", "=>", ",",  "!"};
  for (std::string_view candidate : kOps) {
    if (op == candidate) return true;
  }
  return false;
}

bool IsOperatorChar(char c) {
  switch (c) {
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case '@':
    case '=':
    case '!':
    case '<':
    case '>':
    case '&':
    case '|':
    case ',':
      return true;
    default:
      return false;
  }
}

}  // namespace

bool IsCompleteInput(std::string_view text) {
  int depth = 0;
  std::string_view last_op;  // the last token when it was an operator run
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;  // a comment is blank
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    if (c == '"') {
      ++i;
      bool closed = false;
      while (i < text.size()) {
        if (text[i] == '\\') {
          i += 2;
        } else if (text[i] == '"') {
          ++i;
          closed = true;
          break;
        } else {
          ++i;
        }
      }
      if (!closed) return false;
      last_op = {};
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    }
    if (IsOperatorChar(c)) {
      size_t start = i;
      while (i < text.size() && IsOperatorChar(text[i]) &&
             !(text[i] == '/' && i + 1 < text.size() && text[i + 1] == '/')) {
        ++i;
      }
      last_op = text.substr(start, i - start);
      continue;
    }
    last_op = {};
    ++i;
  }
  if (depth > 0) return false;
  return !IsTrailingOperator(last_op);
}

}  // namespace alea::repl
