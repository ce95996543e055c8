#include "repl/repl_commands.h"

#include <cstdio>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "repl/print_stats.h"

namespace alea::repl {
namespace {

// An error of the session itself, not of a program: "error: MESSAGE" on
// stderr after what was printed so far (the session's own are the same).
void SessionError(const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "error: %s\n", message.c_str());
  std::fflush(stderr);
}

// Whether a command that needs an argument got one (else says so).
bool HasArgument(absl::string_view name, absl::string_view arg) {
  if (!arg.empty()) return true;
  const char* synopsis = "";
  for (const ReplCommand& c : ReplCommands()) {
    if (name == c.name) synopsis = c.synopsis;
  }
  SessionError(absl::StrCat("`:", std::string(name), "` needs an argument: `:", std::string(name),
                            " ", synopsis, "`"));
  return false;
}

// `:doc NAME` and `:help NAME`: the builtin's reference (tooling::LookUpDoc).
bool Doc(tooling::Session&, absl::string_view arg) {
  tooling::DocLookup doc = tooling::LookUpDoc(std::string_view(arg.data(), arg.size()));
  if (!doc.found) {
    SessionError(doc.text);
    std::fputs("help: `:doc` with no name lists every builtin\n", stderr);
    return true;
  }
  std::fputs(doc.text.c_str(), stdout);
  std::fflush(stdout);
  return true;
}

bool Help(tooling::Session& session, absl::string_view arg) {
  if (!arg.empty()) return Doc(session, arg);
  std::string out =
      "Type an expression to evaluate it, or a `fn`, `let` or `import` to add it\n"
      "to the session. An unfinished line continues on the next. Commands:\n";
  for (const ReplCommand& c : ReplCommands()) {
    std::string usage = absl::StrCat(":", c.name, *c.synopsis ? " " : "", c.synopsis);
    absl::StrAppend(&out, "  ", usage, std::string(usage.size() < 16 ? 16 - usage.size() : 1, ' '),
                    c.help, "\n");
  }
  absl::StrAppend(&out,
                  "`:doc NAME` (or `:help NAME`) shows the reference of a builtin, `:doc` lists\n"
                  "them all; docs/tutorial.md is a first hour with Alea.\n");
  std::fputs(out.c_str(), stdout);
  std::fflush(stdout);
  return true;
}

bool Type(tooling::Session& session, absl::string_view arg) {
  if (HasArgument("type", arg)) session.PrintType(std::string(arg));
  return true;
}

bool Dis(tooling::Session& session, absl::string_view arg) {
  if (HasArgument("dis", arg)) session.Disassemble(std::string(arg));
  return true;
}

bool Desugar(tooling::Session& session, absl::string_view arg) {
  if (HasArgument("desugar", arg)) session.Desugar(std::string(arg));
  return true;
}

bool Load(tooling::Session& session, absl::string_view arg) {
  if (HasArgument("load", arg)) session.Load(std::string(arg));
  return true;
}

bool Reload(tooling::Session& session, absl::string_view) {
  session.Reload();
  return true;
}

bool Time(tooling::Session& session, absl::string_view arg) {
  if (HasArgument("time", arg)) session.Time(std::string(arg));
  return true;
}

bool Stats(tooling::Session& session, absl::string_view) {
  PrintStats(tooling::Stats(session.vm()));
  return true;
}

bool Seed(tooling::Session& session, absl::string_view arg) {
  int64_t seed = 0;
  if (!HasArgument("seed", arg)) return true;
  if (!absl::SimpleAtoi(arg, &seed)) {
    SessionError(absl::StrCat("`:seed` needs an integer, not `", std::string(arg), "`"));
    return true;
  }
  session.SetSeed(seed);
  return true;
}

bool Quit(tooling::Session&, absl::string_view) { return false; }

}  // namespace

const std::vector<ReplCommand>& ReplCommands() {
  static const std::vector<ReplCommand> kAll = {
      {"help", "[NAME]", "show this help, or the reference of the builtin NAME", Help},
      {"doc", "[NAME]", "show the reference of the builtin NAME (none: list them all)", Doc},
      {"type", "EXPR", "show the type of EXPR without running it", Type},
      {"dis", "NAME", "show the bytecode of the session function NAME", Dis},
      {"desugar", "NAME", "show NAME with its implicit random states explicit", Desugar},
      {"load", "FILE", "add FILE's definitions to the session (as `import`; a module too)", Load},
      {"reload", "", "read the loaded files again", Reload},
      {"time", "EXPR", "evaluate EXPR and show the wall time it took", Time},
      {"stats", "", "show the VM's counters (as `alea run --stats`)", Stats},
      {"seed", "N", "restart the session random stream at key(N)", Seed},
      {"quit", "", "end the session (also Ctrl-D)", Quit},
  };
  return kAll;
}

bool RunReplCommand(tooling::Session& session, absl::string_view line) {
  absl::string_view text = absl::StripAsciiWhitespace(line);
  text.remove_prefix(1);  // the colon
  size_t space = text.find_first_of(" \t");
  absl::string_view name = text.substr(0, space);
  absl::string_view arg =
      space == absl::string_view::npos ? "" : absl::StripAsciiWhitespace(text.substr(space));
  for (const ReplCommand& c : ReplCommands()) {
    if (name == c.name) return c.run(session, arg);
  }
  std::string known;
  for (const ReplCommand& c : ReplCommands())
    absl::StrAppend(&known, known.empty() ? "" : " ", ":", c.name);
  SessionError(
      absl::StrCat("unknown command `:", std::string(name), "`; the commands are ", known));
  return true;
}

}  // namespace alea::repl
