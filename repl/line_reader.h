// Where the REPL's lines come from: a terminal (libedit: line editing,
// history, completion, prompts) or anything else (plain lines from stdin, no
// prompts, for pipes and golden tests).
#ifndef ALEA_REPL_LINE_READER_H_
#define ALEA_REPL_LINE_READER_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace alea::repl {

enum class ReadStatus { kLine, kEof, kInterrupted };

class LineReader {
 public:
  virtual ~LineReader() = default;
  // The next line, without its newline. `continuation`: the line continues
  // an unfinished input (the terminal shows `  ...> ` instead of `alea> `).
  virtual ReadStatus Read(bool continuation, std::string* line) = 0;
};

// Lines of stdin as they come.
std::unique_ptr<LineReader> NewPlainReader();

// Tab completion's candidates: the words a name may complete to.
using Candidates = std::function<std::vector<std::string>()>;

// The terminal on stdin/stdout. `history_path` empty: no history file.
std::unique_ptr<LineReader> NewTerminalReader(const std::string& history_path, Candidates names,
                                              Candidates commands);

}  // namespace alea::repl

#endif  // ALEA_REPL_LINE_READER_H_
