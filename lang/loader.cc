#include "lang/loader.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "lang/parser.h"

namespace alea::lang {
namespace {

namespace fs = std::filesystem;

class Loader {
 public:
  Loader(SourceManager& sources, Diagnostics& diags) : sources_(sources), diags_(diags) {}

  Program Run(FileId root) {
    Visit(root);
    ReportDuplicateNames();
    return std::move(program_);
  }

 private:
  // The identity of a file on disk, so that `a.alea` and `./lib/../a.alea` are
  // one module. Files that are not on disk (REPL input) use their display path.
  static std::string KeyOf(const std::string& path) {
    std::error_code error;
    fs::path canonical = fs::weakly_canonical(path, error);
    return error ? path : canonical.string();
  }

  // Parses `file` and its imports depth first; returns the module's index.
  int Visit(FileId file) {
    std::string key = KeyOf(sources_.file(file).path());
    state_[key] = kLoading;
    auto module = std::make_unique<Module>(Parse(sources_, file, diags_));
    std::vector<int> visible;
    stack_.push_back(Frame{key, sources_.file(file).path(), nullptr});
    for (const Import& import : module->imports) {
      stack_.back().import = &import;
      int index = VisitImport(sources_.file(file).path(), import);
      if (index >= 0) visible.push_back(index);
    }
    stack_.pop_back();
    int index = static_cast<int>(program_.modules.size());
    visible.insert(visible.begin(), index);
    program_.modules.push_back(std::move(module));
    program_.visible.push_back(std::move(visible));
    state_[key] = kLoaded;
    index_[key] = index;
    return index;
  }

  int VisitImport(const std::string& importer, const Import& import) {
    std::string path = (fs::path(importer).parent_path() / import.path).lexically_normal().string();
    std::string key = KeyOf(path);
    auto state = state_.find(key);
    if (state != state_.end() && state->second == kLoaded) return index_[key];
    if (state != state_.end()) {
      ReportCycle(key, import);
      return -1;
    }
    std::error_code error;
    if (fs::is_directory(path, error)) {
      diags_.Report(DiagId::kCannotImport, import.path_span, path, "it is a directory");
      return -1;
    }
    absl::StatusOr<FileId> file = sources_.Load(path);
    if (!file.ok()) {
      diags_.Report(DiagId::kCannotImport, import.path_span, path, file.status().message());
      return -1;
    }
    return Visit(*file);
  }

  // `key` is being loaded further up the stack: name each file of the cycle.
  void ReportCycle(const std::string& key, const Import& closing) {
    size_t first = 0;
    while (first < stack_.size() && stack_[first].key != key) ++first;
    std::string chain;
    for (size_t i = first; i < stack_.size(); ++i) {
      absl::StrAppend(&chain, "`", stack_[i].path, "` imports ");
    }
    absl::StrAppend(&chain, "`", stack_[first].path, "`");
    Diagnostic& d = diags_.Report(DiagId::kImportCycle, closing.path_span, chain);
    for (size_t i = first; i + 1 < stack_.size(); ++i) {
      d.Note(stack_[i].import->path_span, DiagId::kNoteImportedHere, stack_[i + 1].path);
    }
  }

  void ReportDuplicateNames() {
    // Types have their own names; constructors are values like functions.
    // Within a file, names are defined in source order, so "first defined"
    // is the earlier one.
    absl::flat_hash_map<std::string, Span> first_value, first_type;
    auto define_in = [&](absl::flat_hash_map<std::string, Span>& first, const std::string& name,
                         Span at) {
      auto [it, inserted] = first.emplace(name, at);
      if (inserted) return;
      diags_.Report(DiagId::kDefinedTwice, at, name)
          .Note(it->second, DiagId::kNoteFirstDefinedHere, name);
    };
    for (const auto& module : program_.modules) {
      struct Name {
        std::string name;
        Span at;
        bool type;
      };
      std::vector<Name> names;
      auto collect = [&](const std::string& name, Span at) { names.push_back({name, at, false}); };
      for (const auto& fn : module->fns) collect(fn->name, fn->name_span);
      for (const auto& let : module->lets) DefinePattern(*let->pattern, collect);
      for (const auto& decl : module->type_decls) {
        names.push_back({decl->name, decl->name_span, true});
        for (const CtorDecl& ctor : decl->ctors) collect(ctor.name, ctor.span);
      }
      std::stable_sort(names.begin(), names.end(),
                       [](const Name& a, const Name& b) { return a.at.begin < b.at.begin; });
      for (const Name& n : names) define_in(n.type ? first_type : first_value, n.name, n.at);
    }
  }

  template <typename F>
  static void DefinePattern(const Pattern& pattern, F& define) {
    if (pattern.kind == Pattern::Kind::kVar) define(pattern.name, pattern.span);
    for (const PatternPtr& element : pattern.elements) DefinePattern(*element, define);
  }

  enum State { kLoading, kLoaded };
  struct Frame {
    std::string key;
    std::string path;
    const Import* import;  // the import being followed from this file
  };

  SourceManager& sources_;
  Diagnostics& diags_;
  Program program_;
  absl::flat_hash_map<std::string, State> state_;
  absl::flat_hash_map<std::string, int> index_;
  std::vector<Frame> stack_;
};

}  // namespace

std::optional<Program> LoadProgram(const std::string& root_path, SourceManager& sources,
                                   Diagnostics& diags) {
  std::error_code error;
  if (fs::is_directory(root_path, error)) {
    diags.Report(DiagId::kCannotOpenFile, std::nullopt, root_path, "it is a directory");
    return std::nullopt;
  }
  absl::StatusOr<FileId> root = sources.Load(root_path);
  if (!root.ok()) {
    diags.Report(DiagId::kCannotOpenFile, std::nullopt, root_path, root.status().message());
    return std::nullopt;
  }
  return LoadProgramFrom(*root, sources, diags);
}

Program LoadProgramFrom(FileId root, SourceManager& sources, Diagnostics& diags) {
  return Loader(sources, diags).Run(root);
}

}  // namespace alea::lang
