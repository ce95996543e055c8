// `alea repl` (and `alea` alone): read inputs, evaluate them in one session,
// until :quit or end of input.
#include <unistd.h>

#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "lang/builtins.h"
#include "lang/prelude.h"
#include "repl/command_line.h"
#include "repl/commands.h"
#include "repl/history_path.h"
#include "repl/input_completeness.h"
#include "repl/interrupt.h"
#include "repl/line_reader.h"
#include "repl/repl_commands.h"
#include "repl/session.h"

namespace alea::repl {
namespace {

// More threads than this is a typo, not a machine (as `alea run`).
constexpr int kMaxThreads = 1024;

// The words Tab completes a name to: the session's, the builtins' (the
// standard library included), the prelude's types and constructors, and the
// keywords.
std::vector<std::string> NameCandidates(const Session& session) {
  std::vector<std::string> words = session.Names();
  for (std::string_view name : lang::BuiltinNames()) words.emplace_back(name);
  for (const lang::PreludeType& type : lang::PreludeTypes()) {
    words.emplace_back(type.name);
    for (const lang::PreludeCtor& c : lang::PreludeCtors(type)) words.push_back(c.name);
  }
  for (const char* keyword : {"fn", "let", "type", "import", "extern", "if", "else", "match",
                              "with", "uses", "rng", "true", "false"}) {
    words.emplace_back(keyword);
  }
  return words;
}

std::vector<std::string> CommandCandidates() {
  std::vector<std::string> words;
  for (const ReplCommand& c : ReplCommands()) words.push_back(absl::StrCat(":", c.name));
  return words;
}

void Loop(Session& session, LineReader& reader) {
  std::string pending;  // an unfinished input's lines so far
  std::string line;
  while (true) {
    ReadStatus status = reader.Read(!pending.empty(), &line);
    if (status == ReadStatus::kInterrupted) {
      pending.clear();
      continue;
    }
    if (status == ReadStatus::kEof) {
      // An unfinished input at the end is evaluated, so that its error shows.
      if (!pending.empty()) {
        Evaluating evaluating(session.machine());
        session.Eval(pending);
      }
      return;
    }
    if (pending.empty() && absl::StartsWith(absl::StripLeadingAsciiWhitespace(line), ":")) {
      Evaluating evaluating(session.machine());
      if (!RunReplCommand(session, line)) return;
      continue;
    }
    if (!pending.empty()) pending += '\n';
    pending += line;
    if (!IsCompleteInput(pending)) continue;
    {
      Evaluating evaluating(session.machine());
      session.Eval(pending);
    }
    pending.clear();
  }
}

}  // namespace

int RunRepl(const std::vector<std::string>& args) {
  SessionOptions options;
  options.threads = vm::ThreadPool::HardwareThreads();
  bool history = true;
  std::string value;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--no-jit") {
      options.jit = false;
    } else if (arg == "--no-history") {
      history = false;
    } else if (int parsed = ParseSeedOption("repl", args, &i, &options.seed); parsed != 0) {
      if (parsed < 0) return kExitUsage;
    } else if (int parsed = ParseOptionValue("repl", "--threads", args, &i, &value); parsed != 0) {
      if (parsed < 0) return kExitUsage;
      if (!absl::SimpleAtoi(value, &options.threads) || options.threads < 1 ||
          options.threads > kMaxThreads) {
        return UsageError("repl", absl::StrCat("`--threads` needs a number from 1 to ", kMaxThreads,
                                               ", not `", value, "`"));
      }
    } else if (!arg.empty() && arg[0] == '-') {
      return UsageError("repl", "unknown option `" + arg + "`");
    } else {
      return UsageError("repl", "unexpected argument `" + arg + "`");
    }
  }
  Session session(options);
  InstallInterruptHandler();
  std::unique_ptr<LineReader> reader;
  if (isatty(STDIN_FILENO)) {
    std::printf("Alea REPL: `:help` lists the commands, `:quit` or Ctrl-D ends.\n");
    std::fflush(stdout);
    reader = NewTerminalReader(
        history ? HistoryPath() : "", [&session] { return NameCandidates(session); },
        CommandCandidates);
  } else {
    reader = NewPlainReader();
  }
  Loop(session, *reader);
  // Like a shell: the session's errors were shown as they happened.
  return kExitOk;
}

}  // namespace alea::repl
