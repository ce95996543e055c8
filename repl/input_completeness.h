// Whether the lines typed so far form a whole input, or the REPL should ask
// for more with its continuation prompt. Deliberately not the parser: it must
// answer for text that does not parse yet, and err towards "complete" so that
// a real syntax error is reported rather than waited on.
#ifndef ALEA_REPL_INPUT_COMPLETENESS_H_
#define ALEA_REPL_INPUT_COMPLETENESS_H_

#include <string_view>

namespace alea::repl {

// True unless `text` has an open `(`, `[` or `{`, an unterminated string
// literal, or ends (comments and blanks aside) with a binary operator, `=`,
// `->`, `=>` or `,` that needs a right-hand side. A closing bracket too many
// counts as complete: the front end reports it.
bool IsCompleteInput(std::string_view text);

}  // namespace alea::repl

#endif  // ALEA_REPL_INPUT_COMPLETENESS_H_
