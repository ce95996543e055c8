// `alea repl` (and `alea` alone): read inputs, evaluate them in one session,
// until :quit or end of input.
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "alea/alea.h"
#include "alea/tooling.h"
#include "repl/command_line.h"
#include "repl/commands.h"
#include "repl/history_path.h"
#include "repl/input_completeness.h"
#include "repl/interrupt.h"
#include "repl/line_reader.h"
#include "repl/repl_commands.h"

namespace alea::repl {
namespace {

// More threads than this is a typo, not a machine (as `alea run`).
constexpr int kMaxThreads = 1024;

// The words Tab completes a name to: the session's and the language's.
std::vector<std::string> NameCandidates(const tooling::Session& session) {
  std::vector<std::string> words = session.Names();
  for (std::string& word : tooling::LanguageWords()) words.push_back(std::move(word));
  return words;
}

std::vector<std::string> CommandCandidates() {
  std::vector<std::string> words;
  for (const ReplCommand& c : ReplCommands()) words.push_back(absl::StrCat(":", c.name));
  return words;
}

void Loop(tooling::Session& session, LineReader& reader) {
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
        Evaluating evaluating(session.vm());
        session.Eval(pending);
      }
      return;
    }
    if (pending.empty() && absl::StartsWith(absl::StripLeadingAsciiWhitespace(line), ":")) {
      Evaluating evaluating(session.vm());
      if (!RunReplCommand(session, line)) return;
      continue;
    }
    if (!pending.empty()) pending += '\n';
    pending += line;
    if (!IsCompleteInput(pending)) continue;
    {
      Evaluating evaluating(session.vm());
      session.Eval(pending);
    }
    pending.clear();
  }
}

}  // namespace

int RunRepl(const std::vector<std::string>& args) {
  alea_config config;
  alea_config_init(&config);
  config.threads = tooling::HardwareThreads();
  // As `alea run`: the session's programs may read and write any file.
  config.files = ALEA_FILES_FULL;
  int64_t seed = 0;
  bool history = true;
  std::string value;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--no-jit") {
      config.jit = 0;
    } else if (arg == "--no-history") {
      history = false;
    } else if (int parsed = ParseSeedOption("repl", args, &i, &seed); parsed != 0) {
      if (parsed < 0) return kExitUsage;
    } else if (int parsed = ParseOptionValue("repl", "--threads", args, &i, &value); parsed != 0) {
      if (parsed < 0) return kExitUsage;
      if (!absl::SimpleAtoi(value, &config.threads) || config.threads < 1 ||
          config.threads > kMaxThreads) {
        return UsageError("repl", absl::StrCat("`--threads` needs a number from 1 to ", kMaxThreads,
                                               ", not `", value, "`"));
      }
    } else if (!arg.empty() && arg[0] == '-') {
      return UsageError("repl", "unknown option `" + arg + "`");
    } else {
      return UsageError("repl", "unexpected argument `" + arg + "`");
    }
  }
  std::unique_ptr<alea_vm, void (*)(alea_vm*)> vm(alea_vm_new(&config), alea_vm_free);
  if (vm == nullptr) {
    std::fputs("alea: error: out of memory\n", stderr);
    return kExitProgramError;
  }
  tooling::Session session(vm.get(), seed);
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
