// `alea build FILE [-o OUT]`: compiles a program into a module file that
// `alea run`, `alea dis` and hosts load without the compiler (docs/aleac.md).
#include <cstdio>
#include <fstream>

#include "lang/diagnostics.h"
#include "lang/front_end.h"
#include "repl/commands.h"
#include "vm/module_file.h"

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

  lang::SourceManager sources;
  vm::Module module;
  if (!CompileFile(file, sources, module, /*has_host=*/host, /*export_functions=*/true)) {
    return kExitProgramError;
  }
  std::vector<std::string> texts;
  for (size_t i = 0; i < module.files.size(); ++i) {
    texts.emplace_back(i < sources.size() ? sources.file(static_cast<lang::FileId>(i)).text() : "");
  }
  const std::string bytes = vm::EncodeModule(module, texts);
  // Written beside its final name and renamed, so that a failed build never
  // leaves half a module where a good one was.
  const std::string temporary = output + ".tmp";
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out || std::rename(temporary.c_str(), output.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    lang::Diagnostics diags;
    diags.Report(lang::DiagId::kCannotWriteFile, std::nullopt, output, why);
    std::fputs(lang::RenderAll(sources, diags).c_str(), stderr);
    return kExitProgramError;
  }
  return kExitOk;
}

}  // namespace alea::repl
