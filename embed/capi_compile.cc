// alea_compile and alea_module_from_file (include/alea/alea.h "Modules"): the
// front end and the compiler on source text, imports read through the host's
// hook, functions exported unless only `main` is wanted; a file is a module
// or source by its magic bytes (as Lua tells a binary chunk by its
// signature). Diagnostics are rendered as `alea run` prints them.
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/strip.h"
#include "compiler/compiler.h"
#include "embed/capi_internal.h"
#include "lang/diagnostics.h"
#include "lang/front_end.h"
#include "vm/module_file.h"
#include "vm/verifier.h"

namespace alea::capi {
namespace {

// Compiles the root file `root` of `m`'s sources into `m`; on failure
// reports and frees `m`.
alea_code CompileInto(alea_module* m, lang::FileId root, const alea_compile_options& o,
                      alea_module** out, alea_error** error) {
  lang::SourceManager& sources = m->data.sources;
  if (o.import != nullptr) {
    sources.SetReader([import = o.import, user = o.import_user](
                          const std::string& path) -> absl::StatusOr<std::string> {
      alea_import got{};
      const int errno_value = import(user, path.c_str(), &got);
      if (errno_value != 0) return absl::NotFoundError(std::strerror(errno_value));
      std::string text(got.text == nullptr ? "" : got.text, got.text == nullptr ? 0 : got.length);
      if (got.release != nullptr) got.release(got.text, got.context);
      return text;
    });
  }
  lang::Diagnostics diags;
  std::optional<lang::Program> program = lang::CheckProgramFrom(root, sources, diags);
  if (program) {
    compiler::CompileOptions compile;
    compile.export_functions = o.main_only == 0;
    compile.has_host = o.no_host == 0;
    absl::StatusOr<vm::Module> module = compiler::Compile(*program, sources, diags, compile);
    if (module.ok()) {
      m->data.module = *std::move(module);
      sources.SetReader(nullptr);  // the host's hook is not kept past the call
      if (o.warnings != nullptr && !diags.all().empty()) {
        const std::string text = lang::RenderAll(sources, diags);
        o.warnings(o.warnings_user, text.data(), text.size());
      }
      *out = m;
      return ALEA_OK;
    }
  }
  const alea_code code = FailWithDiagnostics(error, ALEA_INVALID_ARGUMENT, sources, diags);
  delete m;
  return code;
}

// A diagnostic about the file itself (no source line to show).
alea_code FailWithFileDiagnostic(alea_error** error, alea_code code, lang::DiagId id,
                                 const std::string& path, absl::string_view why) {
  lang::SourceManager none;
  lang::Diagnostics diags;
  // "malformed module: byte N: ..." says "not valid" already.
  absl::ConsumePrefix(&why, "malformed module: ");
  diags.Report(id, std::nullopt, path, std::string(why));
  return FailWithDiagnostics(error, code, none, diags);
}

}  // namespace
}  // namespace alea::capi

extern "C" {

void alea_compile_options_init(alea_compile_options* options) {
  *options = alea_compile_options{};
  options->size = sizeof(alea_compile_options);
}

alea_code alea_compile(const char* source, size_t length, const char* file_name,
                       const alea_compile_options* options, alea_module** out, alea_error** error) {
  if (source == nullptr && length > 0) {
    return alea::capi::Fail(error, ALEA_INVALID_ARGUMENT, "no source");
  }
  auto* m = new alea_module;
  const alea::lang::FileId root =
      m->data.sources.Add(file_name == nullptr ? "<source>" : file_name,
                          std::string(source == nullptr ? "" : source, length));
  return alea::capi::CompileInto(m, root, alea::capi::FromHost(options, alea_compile_options_init),
                                 out, error);
}

alea_code alea_module_from_file(const char* path, const alea_compile_options* options,
                                alea_module** out, alea_error** error) {
  using alea::lang::DiagId;
  const std::string file = path == nullptr ? "" : path;
  absl::StatusOr<std::string> read = alea::lang::ReadProgramFile(file);
  if (!read.ok()) {
    return alea::capi::FailWithFileDiagnostic(error, ALEA_NOT_FOUND, DiagId::kCannotOpenFile, file,
                                              read.status().message());
  }
  if (!alea::vm::LooksLikeModule(*read)) {
    auto* m = new alea_module;
    const alea::lang::FileId root = m->data.sources.Add(file, *std::move(read));
    return alea::capi::CompileInto(
        m, root, alea::capi::FromHost(options, alea_compile_options_init), out, error);
  }
  alea_module* m = nullptr;
  alea_error* e = nullptr;
  if (alea_module_from_bytes(read->data(), read->size(), &m, &e) != ALEA_OK) {
    const std::string why = alea_error_message(e);
    alea_error_free(e);
    return alea::capi::FailWithFileDiagnostic(error, ALEA_INVALID_ARGUMENT, DiagId::kInvalidModule,
                                              file, why);
  }
  *out = m;
  return ALEA_OK;
}

}  // extern "C"
