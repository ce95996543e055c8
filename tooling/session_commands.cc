// The session side of the REPL's commands (the table is repl/repl_commands.cc).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "lang/builtins.h"
#include "lang/desugar.h"
#include "lang/types.h"
#include "tooling/session.h"
#include "vm/disassembler.h"
#include "vm/module_file.h"
#include "vm/print.h"
#include "vm/verifier.h"

namespace alea::tooling {
namespace {

// Moves `module`'s line tables off the synthesized session file onto the
// inputs the code was typed in, so that `:dis` shows `<input 3>` and its
// lines, as diagnostics do.
void PlaceOnInputs(const Build& build, vm::Module& module) {
  const lang::SourceFile& session = build.sources.file(build.session);
  for (vm::Function& function : module.functions) {
    for (vm::LineEntry& entry : function.lines) {
      vm::SourceLocation& at = entry.location;
      if (at.file != build.session || at.line == 0) continue;
      uint32_t begin = session.Offset({at.line, at.column});
      lang::Span span =
          build.text.Remap(build.session, {build.session, begin, begin + std::max(at.length, 1u)});
      lang::LineCol input = build.sources.file(span.file).Locate(span.begin);
      at = {span.file, input.line, input.column, span.end - span.begin};
    }
  }
}

// Whether `line` starts the top-level item named `name` in printed source:
// `fn name(`, `let name =`, `let name:`.
bool StartsItem(absl::string_view line, absl::string_view name) {
  for (absl::string_view keyword : {"fn ", "let ", "extern fn ", "extern let "}) {
    if (!absl::ConsumePrefix(&line, keyword)) continue;
    if (!absl::ConsumePrefix(&line, name)) return false;
    return line.empty() || line[0] == '(' || line[0] == ' ' || line[0] == ':';
  }
  return false;
}

bool StartsAnyItem(absl::string_view line) {
  for (absl::string_view keyword : {"fn ", "let ", "import ", "extern ", "//"}) {
    if (absl::StartsWith(line, keyword)) return true;
  }
  return false;
}

}  // namespace

void SessionImpl::PrintType(const std::string& expr) {
  // `grad` and `value_and_grad` are no values: their signature says it.
  const std::string name(absl::StripAsciiWhitespace(expr));
  absl::Span<const lang::BuiltinId> overloads = lang::BuiltinOverloads(name);
  if (overloads.size() == 1 &&
      (lang::GetBuiltin(overloads[0]).flags & lang::kBuiltinOwnRule) != 0) {
    AddInput(expr);
    const std::string_view signature = lang::GetBuiltin(overloads[0]).signature;
    Write(absl::StrCat(name, " : ", absl::string_view(signature.data(), signature.size()), "\n"));
    return;
  }
  lang::FileId file = AddInput(expr);
  EvalExpression(expr, file, nullptr, /*type_only=*/true);
}

void SessionImpl::Time(const std::string& expr) {
  auto start = std::chrono::steady_clock::now();
  lang::FileId file = AddInput(expr);
  Timing timing;
  EvalExpression(expr, file, &timing, /*type_only=*/false);
  if (!timing.ran) return;  // its errors say why
  double total =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::fflush(stdout);
  std::fprintf(stderr, "time: %.3f ms (run %.3f ms, check and compile %.3f ms)\n", total,
               timing.run_ms, timing.compile_ms);
  std::fflush(stderr);
}

void SessionImpl::Disassemble(const std::string& name) {
  std::unique_ptr<Build> build = Compile(items_, true, /*all_functions=*/true);
  if (!build->ok()) {
    Report(*build);
    return;
  }
  vm::Module module = *std::move(build->module);
  PlaceOnInputs(*build, module);
  std::string out;
  for (absl::string_view block : absl::StrSplit(vm::Disassemble(module), "\n\n")) {
    absl::string_view header = block.substr(0, block.find('\n'));
    size_t fn = header.find(": fn ");
    if (header.empty() || header[0] != 'F' || fn == absl::string_view::npos) continue;
    absl::string_view rest = header.substr(fn + 5);
    if (!absl::ConsumePrefix(&rest, name) || !(rest.empty() || rest[0] == ' ')) continue;
    absl::StrAppend(&out, block, "\n\n");
  }
  if (out.empty()) {
    SessionError(
        absl::StrCat("no compiled function `", name,
                     "` in the session (a polymorphic function is compiled only for the types "
                     "it is used at: use it in a definition first)"));
    return;
  }
  out.pop_back();
  Write(out);
}

void SessionImpl::Desugar(const std::string& name) {
  std::unique_ptr<Build> build = Compile(items_, false);
  if (!build->ok()) {
    Report(*build);
    return;
  }
  std::string text = lang::DesugarProgram(*build->program, {.seed = seed_});
  std::string out;
  bool inside = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (inside && (line.empty() || StartsAnyItem(line))) inside = false;
    if (!inside && StartsItem(line, name)) inside = true;
    if (inside) absl::StrAppend(&out, line, "\n");
  }
  if (out.empty()) {
    SessionError(absl::StrCat("no function or let `", name, "` in the session"));
    return;
  }
  Write(out);
}

// A module (`alea build`) given to `:load`: its definitions enter the
// session from the sources it carries (the session needs their types), so
// its root file is what is imported, read from the module, not the disk.
// Returns the root's path, or "" after reporting why the module cannot be.
std::string SessionImpl::SourcesOfModule(const std::string& path, const std::string& bytes) {
  absl::StatusOr<vm::ModuleFile> m = vm::DecodeModule(bytes);
  absl::Status status = m.ok() ? vm::VerifyModule(m->module) : m.status();
  if (!status.ok()) {
    SessionError(absl::StrCat("`", path, "` is not a valid module: ",
                              absl::StripPrefix(status.message(), "malformed module: ")));
    return "";
  }
  if (m->module.files.empty() || m->sources[0].empty()) {
    SessionError(absl::StrCat("`", path, "` carries no source to load its definitions from"));
    return "";
  }
  for (size_t i = 0; i < m->module.files.size(); ++i) {
    files_[m->module.files[i]] = std::move(m->sources[i]);
  }
  return m->module.files[0];
}

void SessionImpl::Load(const std::string& typed) {
  std::string path = typed;
  if (std::ifstream in(typed, std::ios::binary); in) {
    std::string head(vm::kModuleMagicSize, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    if (in && vm::LooksLikeModule(head)) {
      absl::StatusOr<std::string> bytes = lang::ReadProgramFile(typed);
      if (!bytes.ok()) {
        SessionError(absl::StrCat("cannot read `", typed, "`: ", bytes.status().message()));
        return;
      }
      path = SourcesOfModule(typed, *bytes);
      if (path.empty()) return;
    }
  }
  // As typed (normalized): imports are relative to the session file, whose
  // directory is the current one, and messages show the path the user wrote.
  std::string full = std::filesystem::path(path).lexically_normal().string();
  std::string command = absl::StrCat(":load ", path);
  lang::FileId file = AddInput(command);
  Item item;
  item.kind = Item::Kind::kImport;
  item.names = {absl::StrCat("import ", full)};
  std::string quoted;
  vm::AppendQuoted(&quoted, full);
  item.pieces.push_back(Piece{absl::StrCat("import ", quoted, "\n"), false,
                              lang::Span{file, 6, static_cast<uint32_t>(command.size())}});
  std::vector<Item> lets;
  std::vector<std::string> wrappers;
  std::unique_ptr<Build> build = BuildDefinitions({item}, &lets, &wrappers);
  if (!Commit(*build, {item}, lets, wrappers, 0)) return;
  std::string shown = absl::StrCat("loaded ", full, "\n");
  for (const auto& module : build->program->modules) {
    if (build->sources.file(module->file).path() != full) continue;
    for (const auto& fn : module->fns) {
      absl::StrAppend(&shown, "fn ", fn->name, " : ", lang::types::ToString(fn->type),
                      fn->uses_rng ? " uses rng" : "", "\n");
    }
  }
  Write(shown);
}

void SessionImpl::Reload() {
  std::vector<Item> lets;
  std::vector<std::string> wrappers;
  // Read from disk this time; a failed reload keeps the files as they were.
  std::map<std::string, std::string> kept = std::exchange(files_, {});
  std::unique_ptr<Build> build = BuildDefinitions({}, &lets, &wrappers);
  if (!Commit(*build, {}, lets, wrappers, 0)) {
    files_ = std::move(kept);
    return;
  }
  std::string shown;
  for (const Item& item : items_) {
    if (item.kind != Item::Kind::kImport) continue;
    absl::StrAppend(&shown, "reloaded ", absl::StripPrefix(item.names[0], "import "), "\n");
  }
  Write(shown.empty() ? "no files loaded\n" : shown);
}

void SessionImpl::SetSeed(int64_t seed) {
  seed_ = seed;
  stream_index_ = 0;
}

std::vector<std::string> SessionImpl::Names() const {
  std::vector<std::string> names;
  for (const Item& item : items_) {
    if (item.kind == Item::Kind::kImport) continue;
    names.insert(names.end(), item.names.begin(), item.names.end());
  }
  return names;
}

}  // namespace alea::tooling
