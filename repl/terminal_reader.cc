// Lines from a terminal through libedit (BSD licence): emacs-style editing,
// a history file, Tab completion of names and `:commands`, and Ctrl-C
// discarding the line being typed.
#include <errno.h>
#include <histedit.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "repl/interrupt.h"
#include "repl/line_reader.h"

namespace alea::repl {
namespace {

constexpr char kPrompt[] = "alea> ";
constexpr char kContinuationPrompt[] = "  ...> ";
constexpr int kHistorySize = 1000;

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

class TerminalReader : public LineReader {
 public:
  TerminalReader(const std::string& history_path, Candidates names, Candidates commands)
      : history_path_(history_path), names_(std::move(names)), commands_(std::move(commands)) {
    history_ = history_init();
    HistEvent event;
    history(history_, &event, H_SETSIZE, kHistorySize);
    history(history_, &event, H_SETUNIQUE, 1);
    if (!history_path_.empty()) {
      std::error_code error;
      std::filesystem::create_directories(std::filesystem::path(history_path_).parent_path(),
                                          error);
      history(history_, &event, H_LOAD, history_path_.c_str());
    }
    el_ = el_init("alea", stdin, stdout, stderr);
    el_set(el_, EL_CLIENTDATA, this);
    el_set(el_, EL_EDITOR, "emacs");
    el_set(el_, EL_PROMPT, &TerminalReader::Prompt);
    el_set(el_, EL_HIST, history, history_);
    el_set(el_, EL_GETCFN, &TerminalReader::GetChar);
    // The wide form: the narrow el_set(EL_ADDFN) copies both strings and
    // never frees them (libedit's eln.c says so), which LeakSanitizer
    // reports; el_wset keeps our static strings as they are.
    el_wset(el_, EL_ADDFN, L"alea-complete", L"complete a name or a command",
            &TerminalReader::Complete);
    el_set(el_, EL_BIND, "^I", "alea-complete", nullptr);
  }

  ~TerminalReader() override {
    el_end(el_);
    history_end(history_);
  }

  ReadStatus Read(bool continuation, std::string* line) override {
    continuation_ = continuation;
    int count = 0;
    const char* text = el_gets(el_, &count);
    if (text == nullptr) {
      if (count < 0 && TakePromptInterrupt()) {
        std::fputs("^C\n", stdout);
        std::fflush(stdout);
        return ReadStatus::kInterrupted;
      }
      std::fputc('\n', stdout);  // leave the prompt's line
      std::fflush(stdout);
      return ReadStatus::kEof;
    }
    line->assign(text, static_cast<size_t>(count));
    while (!line->empty() && (line->back() == '\n' || line->back() == '\r')) line->pop_back();
    if (!line->empty()) {
      HistEvent event;
      history(history_, &event, H_ENTER, line->c_str());
      // Saved at once, so that a session that is killed keeps its history.
      if (!history_path_.empty()) history(history_, &event, H_SAVE, history_path_.c_str());
    }
    return ReadStatus::kLine;
  }

 private:
  static TerminalReader* Self(EditLine* el) {
    void* self = nullptr;
    el_get(el, EL_CLIENTDATA, &self);
    return static_cast<TerminalReader*>(self);
  }

  static char* Prompt(EditLine* el) {
    return const_cast<char*>(Self(el)->continuation_ ? kContinuationPrompt : kPrompt);
  }

  // One character, UTF-8 decoded. A Ctrl-C at the prompt makes the read
  // fail with EINTR (the handler has no SA_RESTART), and so el_gets too.
  static int GetChar(EditLine*, wchar_t* c) {
    unsigned char bytes[4];
    size_t have = 0;
    size_t need = 1;
    while (have < need) {
      ssize_t n = read(STDIN_FILENO, &bytes[have], 1);
      if (n == 0) return 0;
      if (n < 0) {
        if (errno == EINTR && !PromptInterruptPending()) continue;
        return -1;
      }
      if (have == 0) {
        unsigned char b = bytes[0];
        need = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
      }
      ++have;
    }
    static constexpr unsigned char kLeadMask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    wchar_t value = bytes[0] & kLeadMask[need];
    for (size_t i = 1; i < need; ++i) value = (value << 6) | (bytes[i] & 0x3F);
    *c = value;
    return 1;
  }

  static unsigned char Complete(EditLine* el, int) {
    TerminalReader* self = Self(el);
    const LineInfo* info = el_line(el);
    absl::string_view before(info->buffer, static_cast<size_t>(info->cursor - info->buffer));
    size_t start = before.size();
    while (start > 0 && IsNameChar(before[start - 1])) --start;
    bool command = start == 1 && before[0] == ':' && !self->continuation_;
    if (command) start = 0;
    absl::string_view prefix = before.substr(start);
    if (prefix.empty()) return CC_ERROR;
    std::vector<std::string> matches;
    for (const std::string& word : command ? self->commands_() : self->names_()) {
      if (absl::StartsWith(word, prefix)) matches.push_back(word);
    }
    std::sort(matches.begin(), matches.end());
    matches.erase(std::unique(matches.begin(), matches.end()), matches.end());
    if (matches.empty()) return CC_ERROR;
    // The longest prefix every match shares.
    std::string common = matches[0];
    for (const std::string& m : matches) {
      size_t i = 0;
      while (i < common.size() && i < m.size() && common[i] == m[i]) ++i;
      common.resize(i);
    }
    if (common.size() > prefix.size()) {
      std::string rest = common.substr(prefix.size());
      if (matches.size() == 1 && command) rest += ' ';
      el_insertstr(el, rest.c_str());
      return CC_REFRESH;
    }
    if (matches.size() == 1) return CC_NORM;
    std::fprintf(stdout, "\n%s\n", absl::StrJoin(matches, "  ").c_str());
    return CC_REDISPLAY;
  }

  std::string history_path_;
  Candidates names_;
  Candidates commands_;
  History* history_ = nullptr;
  EditLine* el_ = nullptr;
  bool continuation_ = false;
};

}  // namespace

std::unique_ptr<LineReader> NewTerminalReader(const std::string& history_path, Candidates names,
                                              Candidates commands) {
  return std::make_unique<TerminalReader>(history_path, std::move(names), std::move(commands));
}

}  // namespace alea::repl
