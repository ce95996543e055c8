#include "lang/front_end.h"

#include <utility>

#include "lang/grad.h"
#include "lang/loader.h"
#include "lang/match_check.h"
#include "lang/typecheck.h"
#include "lang/use_once.h"

namespace alea::lang {
namespace {

// Everything after loading: types, `match`es, the use-once check.
std::optional<Program> CheckLoaded(Program program, SourceManager& sources, Diagnostics& diags,
                                   const CheckOptions& options) {
  // The parser recovers and reports every syntax error it can; types are
  // checked only on a program that parsed, so no type error is a phantom of
  // a syntax error's guessed repair.
  if (diags.has_errors()) return std::nullopt;
  bool typed = TypeCheck(program, sources, diags, options.states_in_top_lets);
  for (const auto& module : program.modules) CheckMatches(*module, diags);
  if (typed) {
    for (const auto& module : program.modules) CheckGrads(*module, diags);
  }
  // The use-once check reads the inferred types, so it needs a program that
  // type-checked; `match` errors do not disturb it.
  if (typed) {
    for (const auto& module : program.modules) CheckUseOnce(*module, diags);
  }
  if (diags.has_errors()) return std::nullopt;
  return program;
}

}  // namespace

std::optional<Program> CheckProgram(const std::string& root_path, SourceManager& sources,
                                    Diagnostics& diags) {
  std::optional<Program> program = LoadProgram(root_path, sources, diags);
  if (!program) return std::nullopt;
  return CheckLoaded(std::move(*program), sources, diags, {});
}

std::optional<Program> CheckProgramFrom(FileId root, SourceManager& sources, Diagnostics& diags,
                                        const CheckOptions& options) {
  return CheckLoaded(LoadProgramFrom(root, sources, diags), sources, diags, options);
}

}  // namespace alea::lang
