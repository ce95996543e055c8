// The C API's errors, version and modules (include/alea/alea.h "Errors",
// "Modules"): modules as `.aleac` bytes (compiling is capi_compile.cc's, so
// that the VM part links no compiler).
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "embed/capi_internal.h"
#include "lang/diagnostics.h"
#include "vm/module_file.h"
#include "vm/verifier.h"

namespace alea::capi {

alea_error* NewError(alea_code code, std::string message) {
  auto* e = new alea_error;
  e->code = code;
  e->message = std::move(message);
  return e;
}

alea_code Fail(alea_error** error, alea_code code, std::string message) {
  if (error != nullptr) *error = NewError(code, std::move(message));
  return code;
}

alea_code CodeOf(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
      return ALEA_OK;
    case absl::StatusCode::kInvalidArgument:
      return ALEA_INVALID_ARGUMENT;
    case absl::StatusCode::kNotFound:
      return ALEA_NOT_FOUND;
    case absl::StatusCode::kFailedPrecondition:
      return ALEA_FAILED_PRECONDITION;
    case absl::StatusCode::kResourceExhausted:
      return ALEA_RESOURCE_EXHAUSTED;
    case absl::StatusCode::kCancelled:
      return ALEA_CANCELLED;
    case absl::StatusCode::kAborted:
      return ALEA_ABORTED;
    case absl::StatusCode::kOutOfRange:
      return ALEA_OUT_OF_RANGE;
    default:
      return ALEA_INTERNAL;
  }
}

alea_code FailWith(alea_error** error, const absl::Status& status) {
  return Fail(error, CodeOf(status), std::string(status.message()));
}

alea_code FailWithDiagnostics(alea_error** error, alea_code code,
                              const lang::SourceManager& sources, const lang::Diagnostics& diags) {
  if (error == nullptr) return code;
  alea_error* e = NewError(code, lang::RenderAll(sources, diags));
  for (const lang::Diagnostic& d : diags.all()) {
    if (!d.span || d.span->file >= sources.size()) continue;
    const lang::SourceFile& file = sources.file(d.span->file);
    const lang::LineCol at = file.Locate(d.span->begin);
    e->file = file.path();
    e->line = static_cast<int>(at.line);
    e->column = static_cast<int>(at.column);
    break;
  }
  *error = e;
  return code;
}

}  // namespace alea::capi

using alea::capi::Fail;

extern "C" {

int alea_version(void) { return ALEA_VERSION_NUMBER; }

const char* alea_version_string(void) {
#define ALEA_STR2(x) #x
#define ALEA_STR1(x) ALEA_STR2(x)
  return ALEA_STR1(ALEA_VERSION_MAJOR) "." ALEA_STR1(ALEA_VERSION_MINOR) "." ALEA_STR1(
      ALEA_VERSION_PATCH);
#undef ALEA_STR1
#undef ALEA_STR2
}

alea_code alea_error_code(const alea_error* error) {
  return error == nullptr ? ALEA_OK : error->code;
}
const char* alea_error_message(const alea_error* error) {
  return error == nullptr ? "" : error->message.c_str();
}
const char* alea_error_file(const alea_error* error) {
  return error == nullptr ? "" : error->file.c_str();
}
int alea_error_line(const alea_error* error) { return error == nullptr ? 0 : error->line; }
int alea_error_column(const alea_error* error) { return error == nullptr ? 0 : error->column; }
void alea_error_free(alea_error* error) { delete error; }

const char* alea_code_name(alea_code code) {
  switch (code) {
    case ALEA_OK:
      return "ALEA_OK";
    case ALEA_INVALID_ARGUMENT:
      return "ALEA_INVALID_ARGUMENT";
    case ALEA_NOT_FOUND:
      return "ALEA_NOT_FOUND";
    case ALEA_FAILED_PRECONDITION:
      return "ALEA_FAILED_PRECONDITION";
    case ALEA_RESOURCE_EXHAUSTED:
      return "ALEA_RESOURCE_EXHAUSTED";
    case ALEA_CANCELLED:
      return "ALEA_CANCELLED";
    case ALEA_ABORTED:
      return "ALEA_ABORTED";
    case ALEA_OUT_OF_RANGE:
      return "ALEA_OUT_OF_RANGE";
    case ALEA_INTERNAL:
      return "ALEA_INTERNAL";
    case ALEA_CODE_INT_RANGE_:
      break;
  }
  return "ALEA_UNKNOWN";
}

alea_code alea_module_from_bytes(const void* bytes, size_t length, alea_module** out,
                                 alea_error** error) {
  if (bytes == nullptr && length > 0) return Fail(error, ALEA_INVALID_ARGUMENT, "no bytes");
  absl::StatusOr<alea::vm::ModuleFile> decoded = alea::vm::DecodeModule(
      absl::string_view(static_cast<const char*>(bytes == nullptr ? "" : bytes), length));
  if (!decoded.ok()) return alea::capi::FailWith(error, decoded.status());
  // Verified now, where byte offsets can be named (loading checks again).
  alea::vm::VerifyOptions options;
  options.code_offsets = decoded->code_offsets;
  if (absl::Status s = alea::vm::VerifyModule(decoded->module, options); !s.ok()) {
    return alea::capi::FailWith(error, s);
  }
  auto* m = new alea_module;
  for (size_t i = 0; i < decoded->module.files.size(); ++i) {
    m->data.sources.Add(decoded->module.files[i], std::move(decoded->sources[i]));
  }
  m->data.module = std::move(decoded->module);
  *out = m;
  return ALEA_OK;
}

void* alea_module_to_bytes(const alea_module* module, size_t* length) {
  std::vector<std::string> texts;
  static const alea::capi::ModuleSources kEmpty;  // NULL: a module of nothing
  const alea::capi::ModuleSources& d = module == nullptr ? kEmpty : module->data;
  for (size_t i = 0; i < d.module.files.size(); ++i) {
    texts.emplace_back(
        i < d.sources.size() ? d.sources.file(static_cast<alea::lang::FileId>(i)).text() : "");
  }
  const std::string bytes = alea::vm::EncodeModule(d.module, texts);
  void* copy = std::malloc(bytes.empty() ? 1 : bytes.size());
  if (copy == nullptr) return nullptr;
  std::memcpy(copy, bytes.data(), bytes.size());
  if (length != nullptr) *length = bytes.size();
  return copy;
}

void alea_free(void* memory) { std::free(memory); }

alea_module* alea_module_retain(alea_module* module) {
  if (module != nullptr) module->refs.fetch_add(1, std::memory_order_relaxed);
  return module;
}

void alea_module_release(alea_module* module) {
  if (module != nullptr && module->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    delete module;
  }
}

int alea_module_has_main(const alea_module* module) {
  return module != nullptr && module->data.module.main >= 0 ? 1 : 0;
}

int alea_module_main_uses_rng(const alea_module* module) {
  return alea_module_has_main(module) != 0 && module->data.module.main_uses_rng ? 1 : 0;
}

size_t alea_module_function_count(const alea_module* module) {
  return module == nullptr ? 0 : module->data.module.exports.size();
}

const char* alea_module_function_name(const alea_module* module, size_t i) {
  if (module == nullptr || i >= module->data.module.exports.size()) return "";
  return module->data.module.exports[i].name.c_str();
}

}  // extern "C"
