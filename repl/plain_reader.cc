// Lines from a stdin that is no terminal: no prompt, no editing, no history.
#include <errno.h>
#include <unistd.h>

#include "repl/interrupt.h"
#include "repl/line_reader.h"

namespace alea::repl {
namespace {

class PlainReader : public LineReader {
 public:
  ReadStatus Read(bool, std::string* line) override {
    line->clear();
    while (true) {
      size_t newline = buffer_.find('\n', scanned_);
      if (newline != std::string::npos) {
        line->assign(buffer_, 0, newline);
        buffer_.erase(0, newline + 1);
        scanned_ = 0;
        return ReadStatus::kLine;
      }
      scanned_ = buffer_.size();
      if (eof_) {
        if (buffer_.empty()) return ReadStatus::kEof;
        line->swap(buffer_);  // a last line without a newline
        buffer_.clear();
        scanned_ = 0;
        return ReadStatus::kLine;
      }
      char chunk[4096];
      ssize_t n = read(STDIN_FILENO, chunk, sizeof chunk);
      if (n > 0) {
        buffer_.append(chunk, static_cast<size_t>(n));
      } else if (n == 0) {
        eof_ = true;
      } else if (errno == EINTR) {
        // Ctrl-C while waiting for a pipe ends the session, as it ends a
        // shell reading a script.
        if (TakePromptInterrupt()) return ReadStatus::kEof;
      } else {
        eof_ = true;  // an unreadable stdin ends the session like EOF
      }
    }
  }

 private:
  std::string buffer_;
  size_t scanned_ = 0;  // buffer_[0, scanned_) holds no newline
  bool eof_ = false;
};

}  // namespace

std::unique_ptr<LineReader> NewPlainReader() { return std::make_unique<PlainReader>(); }

}  // namespace alea::repl
