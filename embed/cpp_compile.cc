// alea::Compile (include/alea/compiler.h) over the C API's alea_compile: apart
// from the rest of the C++ API, so that a host of the VM alone links no
// compiler.
#include <cerrno>
#include <optional>
#include <string>
#include <utility>

#include "alea/alea.h"
#include "alea/compiler.h"
#include "embed/cpp_api.h"

namespace alea {

using embed_internal::Access;
using embed_internal::Failed;

StatusOr<Module> Compile(std::string_view source, std::string_view file_name) {
  return Compile(source, file_name, nullptr);
}

StatusOr<Module> Compile(std::string_view source, std::string_view file_name,
                         ImportReader imports) {
  alea_compile_options options;
  alea_compile_options_init(&options);
  struct Reader {
    ImportReader read;
    std::string text;  // the last file read, alive until alea_compile copies it
  } reader{std::move(imports), {}};
  if (reader.read) {
    options.import_user = &reader;
    options.import = [](void* user, const char* path, alea_import* out) -> int {
      auto* r = static_cast<Reader*>(user);
      std::optional<std::string> text = r->read(path);
      if (!text) return ENOENT;
      r->text = *std::move(text);
      out->text = r->text.data();
      out->length = r->text.size();
      return 0;
    };
  }
  alea_module* m = nullptr;
  alea_error* e = nullptr;
  const std::string name(file_name);
  if (alea_code c = alea_compile(source.data(), source.size(), name.c_str(), &options, &m, &e);
      c != ALEA_OK) {
    return Failed(c, e);
  }
  return Access::MakeModule(m);
}

}  // namespace alea
