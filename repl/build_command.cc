// `alea build FILE [-o OUT]`: compiles a program into a module file that
// `alea run`, `alea dis` and hosts load without the compiler (docs/aleac.md).
// A host of the C API.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "alea/alea.h"
#include "alea/tooling.h"
#include "repl/commands.h"

namespace alea::repl {
namespace {

// x.alea -> x.aleac; any other name gets .aleac appended.
std::string DefaultOutput(const std::string& file) {
  constexpr std::string_view kSuffix = ".alea";
  if (file.size() > kSuffix.size() && file.ends_with(kSuffix)) return file + "c";
  return file + ".aleac";
}

}  // namespace

int RunBuild(const std::vector<std::string>& args) {
  std::string output;
  bool host = false;
  std::vector<std::string> operands;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      operands.insert(operands.end(), args.begin() + static_cast<ptrdiff_t>(i), args.end());
      break;
    }
    if (arg == "--host") {
      host = true;
      continue;
    }
    std::string value;
    int parsed = ParseOptionValue("build", "--output", args, &i, &value);
    if (parsed == 0) parsed = ParseOptionValue("build", "-o", args, &i, &value);
    if (parsed < 0) return kExitUsage;
    if (parsed > 0) {
      if (value.empty()) return UsageError("build", "`-o` needs a file name");
      output = value;
    } else {
      operands.push_back(arg);
    }
  }
  std::string file;
  if (int status = SingleFileOperand("build", operands, &file); status != kExitOk) return status;
  if (output.empty()) output = DefaultOutput(file);

  // A library for hosts as well as a program: every function exported.
  alea_compile_options options;
  alea_compile_options_init(&options);
  options.no_host = host ? 0 : 1;
  alea_module* module = OpenProgramFile(file, options);
  if (module == nullptr) return kExitProgramError;
  size_t length = 0;
  void* encoded = alea_module_to_bytes(module, &length);
  alea_module_release(module);
  const std::string bytes(static_cast<const char*>(encoded), encoded == nullptr ? 0 : length);
  alea_free(encoded);
  // Written beside its final name and renamed, so that a failed build never
  // leaves half a module where a good one was.
  const std::string temporary = output + ".tmp";
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out || std::rename(temporary.c_str(), output.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    std::fputs(tooling::CannotWriteError(output, why).c_str(), stderr);
    return kExitProgramError;
  }
  return kExitOk;
}

}  // namespace alea::repl
