// alea_compile (include/alea/alea.h "Modules"): the front end and the
// compiler on source text, imports read through the host's hook, every
// monomorphic root function exported, diagnostics rendered as `alea run`
// prints them.
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "compiler/compiler.h"
#include "embed/capi_internal.h"
#include "lang/diagnostics.h"
#include "lang/front_end.h"

extern "C" {

void alea_compile_options_init(alea_compile_options* options) {
  *options = alea_compile_options{};
  options->size = sizeof(alea_compile_options);
}

alea_code alea_compile(const char* source, size_t length, const char* file_name,
                       const alea_compile_options* options, alea_module** out, alea_error** error) {
  if (source == nullptr && length > 0)
    return alea::capi::Fail(error, ALEA_INVALID_ARGUMENT, "no source");
  auto* m = new alea_module;
  alea::lang::SourceManager& sources = m->data.sources;
  // Options from an older, smaller struct have only the fields it had.
  if (options != nullptr && options->size >= sizeof(alea_compile_options) &&
      options->import != nullptr) {
    sources.SetReader([import = options->import, user = options->import_user](
                          const std::string& path) -> absl::StatusOr<std::string> {
      alea_import got{};
      const int errno_value = import(user, path.c_str(), &got);
      if (errno_value != 0) return absl::NotFoundError(std::strerror(errno_value));
      std::string text(got.text == nullptr ? "" : got.text, got.text == nullptr ? 0 : got.length);
      if (got.release != nullptr) got.release(got.text, got.context);
      return text;
    });
  }
  const alea::lang::FileId root = sources.Add(file_name == nullptr ? "<source>" : file_name,
                                              std::string(source == nullptr ? "" : source, length));
  alea::lang::Diagnostics diags;
  std::optional<alea::lang::Program> program = alea::lang::CheckProgramFrom(root, sources, diags);
  if (program) {
    alea::compiler::CompileOptions compile;
    compile.export_functions = true;
    absl::StatusOr<alea::vm::Module> module =
        alea::compiler::Compile(*program, sources, diags, compile);
    if (module.ok()) {
      m->data.module = *std::move(module);
      sources.SetReader(nullptr);  // the host's hook is not kept past the call
      *out = m;
      return ALEA_OK;
    }
  }
  const alea_code code =
      alea::capi::FailWithDiagnostics(error, ALEA_INVALID_ARGUMENT, sources, diags);
  delete m;
  return code;
}

}  // extern "C"
