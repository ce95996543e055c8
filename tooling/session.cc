#include "tooling/session.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/compiler.h"
#include "embed/runtime_diagnostic.h"
#include "lang/ast_print.h"
#include "lang/ast_walk.h"
#include "lang/builtins.h"
#include "lang/desugar.h"
#include "lang/front_end.h"
#include "lang/parser.h"
#include "lang/types.h"
#include "tooling/session_lets.h"
#include "tooling/stream_state.h"
#include "tooling/value_text.h"
#include "vm/disassembler.h"
#include "vm/print.h"

namespace alea::tooling {
namespace {

using Clock = std::chrono::steady_clock;

double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Errors that mean "this draws from an ambient state and none is in scope":
// the input has random sites, so it runs under a state of the session stream.
bool NeedsAmbientState(const lang::Diagnostics& diags) {
  for (const lang::Diagnostic& d : diags.all()) {
    if (d.id == lang::DiagId::kNoAmbientState || d.id == lang::DiagId::kSamplerNoState ||
        d.id == lang::DiagId::kRngOutsideAmbient) {
      return true;
    }
  }
  return false;
}

const lang::FnDecl* FindFn(const lang::Program& program, std::string_view name) {
  for (const auto& fn : program.modules.back()->fns) {
    if (fn->name == name) return fn.get();
  }
  return nullptr;
}

const lang::TypeDecl* FindTypeDecl(const lang::Program& program, std::string_view name) {
  for (const auto& decl : program.modules.back()->type_decls) {
    if (decl->name == name) return decl.get();
  }
  return nullptr;
}

const vm::Export* FindExport(const vm::Module& module, std::string_view name) {
  for (const vm::Export& e : module.exports) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// A generic function shows what its open overloads require (`where ...`).
std::string FnType(const lang::FnDecl& fn) {
  return fn.scheme != nullptr ? lang::types::ToString(*fn.scheme) : lang::types::ToString(fn.type);
}

std::string FnSignature(const lang::FnDecl& fn) {
  return absl::StrCat("fn ", fn.name, " : ", FnType(fn), fn.uses_rng ? " uses rng" : "", "\n");
}

// What `:type` shows for an input that is just a name (through any braces):
// every overload of a builtin, or a function's scheme with its requirements.
// Empty for anything else, whose instantiated type says it all.
std::string NameTypeText(const lang::FnDecl& wrapper) {
  const lang::Expr* e = wrapper.body.get();
  while (e != nullptr && e->kind == lang::Expr::Kind::kBlock && e->stmts.empty()) {
    e = e->result.get();
  }
  if (e == nullptr || e->kind != lang::Expr::Kind::kName) return "";
  if (e->name_kind == lang::NameKind::kFunction && e->fn != nullptr && e->fn->scheme != nullptr &&
      !e->fn->scheme->constraints.empty()) {
    return absl::StrCat(e->name, " : ", FnType(*e->fn), "\n");
  }
  if (e->name_kind != lang::NameKind::kBuiltin || lang::BuiltinOverloads(e->name).size() < 2) {
    return "";
  }
  std::string out;
  for (lang::BuiltinId id : lang::BuiltinOverloads(e->name)) {
    const std::string_view signature = lang::GetBuiltin(id).signature;
    absl::StrAppend(&out, absl::string_view(e->name), " : ",
                    absl::string_view(signature.data(), signature.size()), "\n");
  }
  return out;
}

// The first word of the input (comments and blanks skipped): a definition
// starts with a keyword.
std::string_view FirstWord(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (absl::ascii_isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    } else {
      break;
    }
  }
  size_t end = i;
  while (end < text.size() &&
         (absl::ascii_isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
    ++end;
  }
  return text.substr(i, end - i);
}

// `type` with each type variable (`a`, `b`... as lang::types::Printer names
// them) replaced by `()`; nullopt when it has none.
std::optional<std::string> DefaultTypeVariables(const std::string& type) {
  std::string out;
  bool changed = false;
  size_t i = 0;
  while (i < type.size()) {
    if (!absl::ascii_isalpha(static_cast<unsigned char>(type[i]))) {
      out += type[i++];
      continue;
    }
    size_t end = i;
    while (end < type.size() &&
           (absl::ascii_isalnum(static_cast<unsigned char>(type[end])) || type[end] == '_')) {
      ++end;
    }
    std::string word = type.substr(i, end - i);
    bool variable = absl::ascii_islower(static_cast<unsigned char>(word[0])) && word != "f32" &&
                    word != "i32" && word != "u32" && word != "bool";
    out += variable ? "()" : word;
    changed = changed || variable;
    i = end;
  }
  if (!changed) return std::nullopt;
  return out;
}

}  // namespace

void SessionError(const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "error: %s\n", message.c_str());
  std::fflush(stderr);
}

SessionImpl::SessionImpl(vm::Vm& machine, int64_t seed) : machine_(machine), seed_(seed) {
  // `:stats` shows the time spent in JIT kernels; at the REPL's pace the two
  // clock reads per kernel call cost nothing anyone could notice.
  machine_.SetKernelTiming(true);
  // On a terminal, what an evaluation prints shows line by line as it runs.
  machine_.SetOutput(
      [this](absl::string_view text) {
        if (capture_ != nullptr) {
          capture_->append(text.data(), text.size());
        } else {
          std::fwrite(text.data(), 1, text.size(), stdout);
          std::fflush(stdout);
        }
      },
      isatty(STDOUT_FILENO) != 0);
}

SessionImpl::~SessionImpl() { ReleasePersisted(machine_, persisted_, {}); }

void SessionImpl::Write(absl::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

lang::FileId SessionImpl::AddInput(std::string_view text) {
  return inputs_.Add(absl::StrCat("<input ", inputs_.size() + 1, ">"), std::string(text));
}

std::unique_ptr<Build> SessionImpl::Compile(const std::vector<Item>& items, bool compile,
                                            bool all_functions) const {
  auto build = std::make_unique<Build>();
  build->sources = inputs_;
  for (const auto& [path, text] : files_) build->sources.Provide(path, text);
  for (const Item& item : items) build->text.Append(item.pieces);
  // Imports are relative to the session file's directory: the current one.
  build->session = build->sources.Add("<session>", build->text.text());
  build->program = lang::CheckProgramFrom(build->session, build->sources, build->diags,
                                          {.states_in_top_lets = true});
  if (build->program && compile) {
    absl::StatusOr<vm::Module> module =
        compiler::Compile(*build->program, build->sources, build->diags,
                          {.export_functions = true, .export_imported = all_functions});
    if (module.ok()) {
      build->module = *std::move(module);
    } else {
      build->program.reset();
    }
  }
  return build;
}

std::vector<Item> SessionImpl::Replace(
    const std::vector<Item>& fresh,
    std::vector<std::pair<std::string, std::string>>* forgotten) const {
  absl::flat_hash_set<std::string> names;
  for (const Item& item : fresh) names.insert(item.names.begin(), item.names.end());
  std::vector<std::string> redefined_types;
  std::vector<Item> out;
  for (const Item& item : items_) {
    bool replaced = std::any_of(item.names.begin(), item.names.end(),
                                [&](const std::string& n) { return names.contains(n); });
    if (!replaced) out.push_back(item);
    if (replaced && item.kind == Item::Kind::kType) redefined_types.push_back(item.names[0]);
  }
  // A kept value's declaration is `extern let NAME: TYPE`: look for the
  // redefined type's name as a word of TYPE.
  auto mentions = [](const Item& item, const std::string& type) {
    const std::string& text = item.pieces.empty() ? std::string() : item.pieces[0].text;
    size_t colon = text.find(':');
    for (size_t at = text.find(type, colon); colon != std::string::npos && at != std::string::npos;
         at = text.find(type, at + 1)) {
      auto word = [](char c) {
        return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_';
      };
      bool before = at > 0 && word(text[at - 1]);
      bool after = at + type.size() < text.size() && word(text[at + type.size()]);
      if (!before && !after) return true;
    }
    return false;
  };
  if (!redefined_types.empty()) {
    std::vector<Item> kept;
    for (Item& item : out) {
      const std::string* type = nullptr;
      for (const std::string& t : redefined_types) {
        if (item.persisted && mentions(item, t)) type = &t;
      }
      if (type == nullptr) {
        kept.push_back(std::move(item));
      } else if (forgotten != nullptr) {
        forgotten->emplace_back(item.names[0], *type);
      }
    }
    out = std::move(kept);
  }
  out.insert(out.end(), fresh.begin(), fresh.end());
  return out;
}

void SessionImpl::Report(const Build& build) const {
  std::fflush(stdout);
  lang::FileId current = static_cast<lang::FileId>(inputs_.size() - 1);
  std::fputs(build.text.Render(build.sources, build.session, build.diags, current).c_str(), stderr);
  std::fflush(stderr);
}

void SessionImpl::ReportRuntime(const Build& build) const {
  std::fflush(stdout);
  const vm::RuntimeError* error = machine_.last_error();
  if (error != nullptr && error->id == vm::RuntimeErrorId::kInterrupted) {
    std::fputs("interrupted\n", stderr);
    std::fflush(stderr);
    return;
  }
  lang::Diagnostics diags;
  if (error == nullptr) {
    diags.Report(lang::DiagId::kRuntimeError, std::nullopt, "the program failed", "");
  } else {
    embed::ReportRuntimeError(build.sources, *error, diags);
  }
  std::fputs(build.text.Render(build.sources, build.session, diags, build.session).c_str(), stderr);
  std::fflush(stderr);
}

bool SessionImpl::LoadAndInit(const Build& build, std::string* let_output) {
  absl::Status status = machine_.Load(*build.module);
  if (status.ok()) status = SetPersisted(*build.module, machine_, persisted_);
  if (!status.ok()) {
    std::fflush(stdout);
    std::fprintf(stderr, "alea: error: %s\n", std::string(status.message()).c_str());
    return false;
  }
  std::string captured;
  if (!RunLets(machine_, capture_, &captured).ok()) {
    ReportRuntime(build);
    return false;
  }
  if (let_output != nullptr) *let_output = std::move(captured);
  return true;
}

void SessionImpl::Eval(std::string_view input) {
  lang::FileId file = AddInput(input);
  std::string_view first = FirstWord(input);
  lang::Diagnostics diags;
  lang::Module parsed = lang::Parse(inputs_, file, diags);
  bool has_items = !parsed.fns.empty() || !parsed.lets.empty() || !parsed.imports.empty() ||
                   !parsed.type_decls.empty();
  if (!diags.has_errors() && !has_items) return;  // blanks and comments only
  bool is_definition =
      first == "fn" || first == "let" || first == "import" || first == "extern" || first == "type";
  if (!diags.has_errors()) {
    EvalDefinitions(file, parsed);
    return;
  }
  if (is_definition && first != "let") {
    std::fflush(stdout);
    std::fputs(lang::RenderAll(inputs_, diags).c_str(), stderr);
    return;
  }
  if (diags.has_errors() && first == "let") {
    // `let x = 1; x + 1` is a block, not a definition: try it as one, and
    // show the definition's syntax errors only when it is no block either.
    lang::SourceManager probe;
    lang::FileId block = probe.Add("<probe>", absl::StrCat("{\n", std::string(input), "\n}"));
    lang::Diagnostics block_diags;
    lang::ParseExpression(probe, block, block_diags);
    if (block_diags.has_errors()) {
      std::fflush(stdout);
      std::fputs(lang::RenderAll(inputs_, diags).c_str(), stderr);
      return;
    }
  }
  EvalExpression(input, file, nullptr, /*type_only=*/false);
}

void SessionImpl::EvalExpression(std::string_view input, lang::FileId file, Timing* timing,
                                 bool type_only) {
  Clock::time_point start = Clock::now();
  std::string name = absl::StrCat("__input_", next_wrapper_++);
  lang::Span blame{file, 0, static_cast<uint32_t>(input.size())};
  // The input as the body of a block, so that `print(1); print(2)` works
  // too; on its own lines, so that a trailing `//` comment ends in it.
  auto wrapper = [&](std::optional<int64_t> index, const std::string& result = "") {
    Item w;
    w.names = {name};
    w.pieces.push_back(Piece{absl::StrCat("fn ", name, "()", result.empty() ? "" : " -> ", result,
                                          " { ", index ? WithStreamState(seed_, *index) : "", "\n"),
                             false, blame});
    w.pieces.push_back(Piece{std::string(input), true, lang::Span{file, 0, 0}});
    w.pieces.push_back(Piece{index ? "\n} }\n" : "\n}\n", false, blame});
    std::vector<Item> items = items_;
    items.push_back(std::move(w));
    return items;
  };
  std::unique_ptr<Build> build = Compile(wrapper(std::nullopt), !type_only);
  bool draws = false;
  if (!build->ok() && NeedsAmbientState(build->diags)) {
    build = Compile(wrapper(stream_index_), !type_only);
    draws = true;
  }
  if (!build->ok()) {
    Report(*build);
    return;
  }
  Report(*build);  // warnings about this input
  const lang::FnDecl* fn = FindFn(*build->program, name);
  std::string type = fn != nullptr && fn->body != nullptr && fn->body->type != nullptr
                         ? lang::types::ToString(fn->body->type)
                         : std::string("?");
  if (type_only) {
    std::string named = fn != nullptr ? NameTypeText(*fn) : "";
    Write(named.empty() ? absl::StrCat("- : ", type, "\n") : named);
    return;
  }
  if (draws) ++stream_index_;  // the line runs: its state of the stream is taken
  const vm::Export* exported = FindExport(*build->module, name);
  if (exported == nullptr) {
    // Polymorphic (`[]`, `loop(0)`): compiled per use, so there is no one
    // function to run. Its type variables default to `()` (as GHCi's do),
    // which is enough to run it unless an overload needs more.
    std::optional<std::string> defaulted = DefaultTypeVariables(type);
    std::unique_ptr<Build> retry;
    if (defaulted) {
      retry = Compile(
          wrapper(draws ? std::optional<int64_t>(stream_index_ - 1) : std::nullopt, *defaulted),
          true);
    }
    if (retry == nullptr || !retry->ok() || FindExport(*retry->module, name) == nullptr) {
      Write(absl::StrCat("- : ", type, "\n"));  // its type is all there is to show
      return;
    }
    build = std::move(retry);
    exported = FindExport(*build->module, name);
  }
  if (!LoadAndInit(*build, nullptr)) return;
  double compile_ms = MillisSince(start);
  Clock::time_point run_start = Clock::now();
  vm::Value value = 0;
  bool is_ref = false;
  absl::Status status = machine_.Call(exported->function, {}, &value, &is_ref);
  machine_.FlushOutput();
  std::fflush(stdout);
  if (timing != nullptr) {
    timing->ran = true;
    timing->compile_ms = compile_ms;
    timing->run_ms = MillisSince(run_start);
  }
  if (!status.ok()) {
    ReportRuntime(*build);
    return;
  }
  Write(ResultText("-", type, value, exported->result, *build->module));
  if (is_ref) machine_.heap().ReleaseValue(value);
}

void SessionImpl::EvalDefinitions(lang::FileId file, lang::Module& parsed) {
  std::string_view input = inputs_.file(file).text();
  // The items in the order they were typed.
  struct Fresh {
    uint32_t begin;
    Item item;
    const lang::TopLet* let = nullptr;
  };
  std::vector<Fresh> fresh;
  auto user_item = [&](Item::Kind kind, std::vector<std::string> names, lang::Span span) {
    Item item;
    item.kind = kind;
    item.names = std::move(names);
    item.pieces.push_back(Piece{std::string(input.substr(span.begin, span.end - span.begin)), true,
                                lang::Span{file, span.begin, span.begin}});
    item.pieces.push_back(Piece{"\n", false, span});
    fresh.push_back(Fresh{span.begin, std::move(item)});
  };
  for (const auto& fn : parsed.fns) user_item(Item::Kind::kFn, {fn->name}, fn->span);
  for (const auto& decl : parsed.type_decls) {
    std::vector<std::string> names = {decl->name};
    for (const lang::CtorDecl& ctor : decl->ctors) names.push_back(ctor.name);
    user_item(Item::Kind::kType, std::move(names), decl->span);
  }
  for (const lang::Import& import : parsed.imports) {
    user_item(Item::Kind::kImport, {absl::StrCat("import ", import.path)}, import.span);
  }
  for (const auto& let : parsed.lets) {
    fresh.push_back(Fresh{let->span.begin, Item{}, let.get()});
  }
  const bool declares_extern = std::any_of(parsed.fns.begin(), parsed.fns.end(),
                                           [](const auto& f) { return f->is_extern; }) ||
                               std::any_of(parsed.lets.begin(), parsed.lets.end(),
                                           [](const auto& l) { return l->is_extern; });
  if (declares_extern) {
    SessionError("`extern` declares what a host application provides, and the REPL is no host");
    return;
  }
  std::sort(fresh.begin(), fresh.end(),
            [](const Fresh& a, const Fresh& b) { return a.begin < b.begin; });
  size_t let_count = parsed.lets.size();

  // Lets are tried without a state first; those that turn out to draw get
  // one each, in order (see session_lets.h).
  auto assemble = [&](const std::vector<bool>& draws) {
    std::vector<Item> items;
    int64_t index = stream_index_;
    size_t k = 0;
    for (const Fresh& f : fresh) {
      if (f.let == nullptr) {
        items.push_back(f.item);
        continue;
      }
      std::optional<int64_t> state;
      if (draws[k++]) state = index++;
      items.push_back(LetItem(input, file, *f.let, seed_, state));
    }
    return items;
  };
  std::vector<bool> draws(let_count, false);
  std::vector<Item> items = assemble(draws);
  std::vector<Item> lets;
  std::vector<std::string> wrappers;
  auto build_with = [&](const std::vector<Item>& candidate) {
    return BuildDefinitions(candidate, &lets, &wrappers);
  };
  std::unique_ptr<Build> build = build_with(items);
  if (!build->ok() && let_count > 0 && NeedsAmbientState(build->diags)) {
    std::vector<bool> all_draw(let_count, true);
    std::unique_ptr<Build> retry = build_with(assemble(all_draw));
    if (retry->ok()) {
      // Only the lets that have sites take a state of the stream.
      std::vector<bool> actual;
      for (const Fresh& f : fresh) {
        if (f.let == nullptr) continue;
        std::vector<std::string> names = LetItem(input, file, *f.let, seed_, std::nullopt).names;
        actual.push_back(names.empty() || LetDraws(*retry->program, names[0]));
      }
      draws = actual;
      items = assemble(draws);
      retry = build_with(items);
    } else {
      draws = all_draw;
      items = assemble(draws);
    }
    build = std::move(retry);
  }
  Commit(*build, items, lets, wrappers, std::count(draws.begin(), draws.end(), true));
}

std::unique_ptr<Build> SessionImpl::BuildDefinitions(const std::vector<Item>& fresh,
                                                     std::vector<Item>* lets,
                                                     std::vector<std::string>* wrappers) const {
  lets->clear();
  wrappers->clear();
  for (const Item& item : fresh) {
    if (item.kind == Item::Kind::kLet) lets->push_back(item);
  }
  std::vector<Item> all = Replace(fresh);
  AppendLetShowers(*lets, all, *wrappers);
  return Compile(all, true);
}

bool SessionImpl::Commit(const Build& build, const std::vector<Item>& fresh,
                         const std::vector<Item>& lets, const std::vector<std::string>& wrappers,
                         int64_t drawn) {
  Report(build);  // errors, or warnings about this input
  if (!build.ok()) return false;
  std::string let_output;
  if (!LoadAndInit(build, &let_output)) return false;
  Write(NewLetOutput(init_output_, let_output));
  std::string shown;
  for (const Item& item : fresh) {
    if (item.kind == Item::Kind::kType) {
      if (const lang::TypeDecl* decl = FindTypeDecl(*build.program, item.names[0])) {
        absl::StrAppend(&shown, lang::PrintTypeDecl(*decl), "\n");
      }
    }
    if (item.kind != Item::Kind::kFn) continue;
    if (const lang::FnDecl* fn = FindFn(*build.program, item.names[0])) shown += FnSignature(*fn);
  }
  shown += LetValuesText(build, machine_, lets, wrappers);
  Write(shown);
  std::vector<std::pair<std::string, std::string>> forgotten;
  items_ = Replace(fresh, &forgotten);
  if (!forgotten.empty()) {
    std::fflush(stdout);
    for (const auto& [name, type] : forgotten) {
      std::fprintf(stderr, "note: `%s` is forgotten: its type `%s` was redefined\n", name.c_str(),
                   type.c_str());
    }
    std::fflush(stderr);
  }
  // Every file after the session's own was read for its imports (Compile).
  files_.clear();
  for (lang::FileId id = build.session + 1; id < build.sources.size(); ++id) {
    const lang::SourceFile& file = build.sources.file(id);
    files_.emplace(file.path(), std::string(file.text()));
  }
  Persist(build, machine_, persisted_, items_);
  stream_index_ += drawn;
  init_output_ = std::move(let_output);
  return true;
}

}  // namespace alea::tooling
