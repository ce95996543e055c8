// Small helpers shared by the subcommands of `alea`: the exit codes and the
// option scanning that every subcommand does the same way.
#ifndef ALEA_REPL_COMMAND_LINE_H_
#define ALEA_REPL_COMMAND_LINE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace alea::repl {

// Exit statuses of every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitProgramError = 1;  // diagnostics: the program is wrong
inline constexpr int kExitUsage = 2;         // the command line is wrong

struct Subcommand {
  const char* name;
  const char* summary;                               // one line for `alea --help`
  const char* help;                                  // the whole text of `alea NAME --help`
  int (*run)(const std::vector<std::string>& args);  // args after the subcommand's name
};

// Prints "alea: error: MESSAGE" and a pointer to --help on stderr; returns kExitUsage.
int UsageError(const std::string& command, const std::string& message);

// The one FILE operand of a subcommand that takes nothing else (`check`,
// `dis`); after `--` a name starting with `-` is a file too. Returns kExitOk
// with *file set, or prints a usage error and returns kExitUsage.
int SingleFileOperand(const std::string& command, const std::vector<std::string>& args,
                      std::string* file);

// `NAME VALUE` or `NAME=VALUE` at args[*i] (name with its dashes, e.g.
// "--threads"): returns 1 after setting *value and moving *i to the
// option's last word, 0 when args[*i] is not that option, or prints a usage
// error for `command` (no value) and returns -1.
int ParseOptionValue(const std::string& command, const std::string& name,
                     const std::vector<std::string>& args, size_t* i, std::string* value);

// `--seed N` or `--seed=N` at args[*i] (a 64-bit Int, as `key` takes):
// returns 1 after setting *seed and moving *i to the option's last word, 0
// when args[*i] is no seed option, or prints a usage error for `command`
// and returns -1.
int ParseSeedOption(const std::string& command, const std::vector<std::string>& args, size_t* i,
                    int64_t* seed);

// True when args hold -h or --help before any `--`.
bool WantsHelp(const std::vector<std::string>& args);

}  // namespace alea::repl

#endif  // ALEA_REPL_COMMAND_LINE_H_
