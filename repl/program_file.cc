// A program named on the command line, as source or as a module that
// `alea build` wrote: `alea run` and `alea dis` take either, told apart by
// the module's magic bytes (as Lua tells a binary chunk by its signature).
#include <cstdio>

#include "absl/strings/match.h"
#include "absl/strings/strip.h"
#include "lang/diagnostics.h"
#include "repl/commands.h"
#include "vm/module_file.h"
#include "vm/verifier.h"

namespace alea::repl {
namespace {

void Report(lang::SourceManager& sources, lang::DiagId id, const std::string& file,
            absl::string_view why) {
  // The diagnostic says the module is not valid already.
  constexpr absl::string_view kPrefix = "malformed module: ";
  absl::ConsumePrefix(&why, kPrefix);
  lang::Diagnostics diags;
  diags.Report(id, std::nullopt, file, std::string(why));
  std::fputs(lang::RenderAll(sources, diags).c_str(), stderr);
}

}  // namespace

bool LoadProgramFile(const std::string& file, lang::SourceManager& sources, vm::Module& module,
                     bool has_host, std::vector<uint64_t>* code_offsets) {
  absl::StatusOr<std::string> read = lang::ReadProgramFile(file);
  if (!read.ok()) {
    Report(sources, lang::DiagId::kCannotOpenFile, file, read.status().message());
    return false;
  }
  std::string bytes = *std::move(read);
  if (!vm::LooksLikeModule(bytes)) {
    sources.Provide(file, std::move(bytes));  // read once: the front end takes it from here
    return CompileFile(file, sources, module, has_host);
  }
  absl::StatusOr<vm::ModuleFile> decoded = vm::DecodeModule(bytes);
  if (!decoded.ok()) {
    Report(sources, lang::DiagId::kInvalidModule, file, decoded.status().message());
    return false;
  }
  if (code_offsets != nullptr) {
    *code_offsets = decoded->code_offsets;  // the caller's Vm::Load verifies
  } else {
    vm::VerifyOptions options;
    options.code_offsets = decoded->code_offsets;
    if (absl::Status s = vm::VerifyModule(decoded->module, options); !s.ok()) {
      Report(sources, lang::DiagId::kInvalidModule, file, s.message());
      return false;
    }
  }
  // Run-time errors quote the sources stored in the module, at the same
  // file indexes as its locations.
  for (size_t i = 0; i < decoded->module.files.size(); ++i) {
    sources.Add(decoded->module.files[i], std::move(decoded->sources[i]));
  }
  module = std::move(decoded->module);
  return true;
}

void ReportLoadError(const std::string& file, absl::string_view message) {
  // A module that does not verify is not valid, whichever way it came; any
  // other refusal (an unknown native, an unbound extern) is said as it is.
  lang::SourceManager scratch;
  if (absl::StartsWith(message, "malformed module: ")) {
    Report(scratch, lang::DiagId::kInvalidModule, file, message);
  } else {
    std::fprintf(stderr, "alea: error: %s\n", std::string(message).c_str());
  }
}

}  // namespace alea::repl
