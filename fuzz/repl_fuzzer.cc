// REPL input, line by line, as `alea repl` reads it: a line starting with
// `:` is a command, other lines gather until the input is complete, then the
// session evaluates it (definitions replace earlier ones, lets persist, each
// expression runs under RunLimits). `:load` and `:reload` are left out (they
// read the machine's files, not the input) and `:quit` ends the input.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "alea/tooling.h"
#include "embed/capi_internal.h"
#include "fuzz/limits.h"
#include "repl/input_completeness.h"
#include "repl/repl_commands.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alea;
  // Declared first, so freed after the session, which releases its values into it.
  std::unique_ptr<alea_vm, void (*)(alea_vm*)> vm(capi::NewVm(fuzz::RunLimits()), alea_vm_free);
  tooling::Session session(vm.get(), 0);
  std::string pending;
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(reinterpret_cast<const char*>(data), size), '\n')) {
    const absl::string_view command = absl::StripLeadingAsciiWhitespace(line);
    if (pending.empty() && absl::StartsWith(command, ":")) {
      if (absl::StartsWith(command, ":load") || absl::StartsWith(command, ":reload")) continue;
      if (!repl::RunReplCommand(session, line)) return 0;
      continue;
    }
    if (!pending.empty()) pending += '\n';
    pending.append(line.data(), line.size());
    if (!repl::IsCompleteInput(pending)) continue;
    session.Eval(pending);
    pending.clear();
  }
  if (!pending.empty()) session.Eval(pending);
  return 0;
}
