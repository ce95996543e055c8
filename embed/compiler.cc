// alea::Compile (include/alea/compiler.h): the front end and the compiler on
// source text, with every monomorphic root function exported; diagnostics
// rendered exactly as `alea run` prints them.
#include "alea/compiler.h"

#include <memory>
#include <string>
#include <utility>

#include "compiler/compiler.h"
#include "embed/internal.h"
#include "lang/diagnostics.h"
#include "lang/front_end.h"

namespace alea {

StatusOr<Module> Compile(std::string_view source, std::string_view file_name) {
  auto data = std::make_shared<embed_internal::ModuleData>();
  lang::FileId root = data->sources.Add(std::string(file_name), std::string(source));
  lang::Diagnostics diags;
  std::optional<lang::Program> program = lang::CheckProgramFrom(root, data->sources, diags);
  bool ok = program.has_value();
  if (ok) {
    compiler::CompileOptions options;
    options.export_functions = true;
    absl::StatusOr<vm::Module> module = compiler::Compile(*program, data->sources, diags, options);
    ok = module.ok();
    if (ok) data->module = *std::move(module);
  }
  if (!ok) return Status(StatusCode::kInvalidArgument, lang::RenderAll(data->sources, diags));
  return Module(std::move(data));
}

}  // namespace alea
