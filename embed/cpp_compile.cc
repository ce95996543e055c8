// alea::Compile (include/alea/compiler.h) over the C API's alea_compile: apart
// from the rest of the C++ API, so that a host of the VM alone links no
// compiler.
#include <string>

#include "alea/alea.h"
#include "alea/compiler.h"
#include "embed/cpp_api.h"

namespace alea {

using embed_internal::Access;
using embed_internal::Failed;

StatusOr<Module> Compile(std::string_view source, std::string_view file_name) {
  alea_module* m = nullptr;
  alea_error* e = nullptr;
  const std::string name(file_name);
  if (alea_code c = alea_compile(source.data(), source.size(), name.c_str(), nullptr, &m, &e);
      c != ALEA_OK) {
    return Failed(c, e);
  }
  return Access::MakeModule(m);
}

}  // namespace alea
