// A program named on the command line, as `alea run`, `build` and `dis` take
// it: source or a module `alea build` wrote, through the C API.
#include <cstdio>

#include "repl/commands.h"

namespace alea::repl {

alea_module* OpenProgramFile(const std::string& file, alea_compile_options options) {
  options.warnings = [](void*, const char* text, size_t length) {
    std::fwrite(text, 1, length, stderr);
  };
  alea_module* module = nullptr;
  alea_error* error = nullptr;
  if (alea_module_from_file(file.c_str(), &options, &module, &error) != ALEA_OK) {
    std::fputs(alea_error_message(error), stderr);
    alea_error_free(error);
    return nullptr;
  }
  return module;
}

}  // namespace alea::repl
