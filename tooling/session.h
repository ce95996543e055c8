// Inside tooling::Session (include/alea/tooling.h), the REPL's session: the
// definitions typed so far, the VM, the session random stream, and the
// evaluation of one input at a time.
//
// The session is kept as source, not as compiled state: each input is added
// to the session's items (or wrapped as a function, for an expression), the
// whole session is checked and compiled again as one program
// (session_text.h), loaded into the one VM and run. An input that fails at
// any stage leaves the items as they were, so an error never costs a
// definition. Output goes to stdout, diagnostics to stderr.
#ifndef ALEA_TOOLING_SESSION_H_
#define ALEA_TOOLING_SESSION_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/diagnostics.h"
#include "lang/program.h"
#include "lang/source.h"
#include "tooling/session_text.h"
#include "vm/bytecode.h"
#include "vm/vm.h"

namespace alea::tooling {

// One top-level definition of the session, as the pieces of its text.
struct Item {
  enum class Kind { kFn, kLet, kImport, kType };
  Kind kind = Kind::kFn;
  // The top-level names it defines (an import: "import " and its path; a
  // type: its name, then its constructors'), so that a later definition of
  // one of them replaces it.
  std::vector<std::string> names;
  std::vector<Piece> pieces;
  // A let computed once and kept as `extern let NAME: T` (session_lets.h).
  bool persisted = false;
};

// The value of a persisted session `let`, owned by the session.
struct PersistedValue {
  vm::Value value = 0;
  bool is_ref = false;
};

// The session program checked, and compiled when asked.
struct Build {
  lang::SourceManager sources;
  lang::FileId session = 0;
  SessionText text;
  lang::Diagnostics diags;
  std::optional<lang::Program> program;
  std::optional<vm::Module> module;
  bool ok() const { return program.has_value() && !diags.has_errors(); }
};

// An error of the session itself (not of the program): "error: MESSAGE" on
// stderr, after what was printed so far.
void SessionError(const std::string& message);

class SessionImpl {
 public:
  // `machine` (the one inside a host's alea_vm) must outlive the session.
  SessionImpl(vm::Vm& machine, int64_t seed);
  ~SessionImpl();
  SessionImpl(const SessionImpl&) = delete;
  SessionImpl& operator=(const SessionImpl&) = delete;

  // Evaluates one complete input: definitions (`fn`, `let`, `import`) join
  // the session; anything else is an expression whose value is printed.
  void Eval(std::string_view input);

  // The REPL's commands (repl/repl_commands.cc).
  void PrintType(const std::string& expr);
  void Time(const std::string& expr);
  void Disassemble(const std::string& name);
  void Desugar(const std::string& name);
  void Load(const std::string& path);
  void Reload();
  void SetSeed(int64_t seed);

  // Every name the session defines, for completion.
  std::vector<std::string> Names() const;

 private:
  // The result of evaluating an expression input, for Time.
  struct Timing {
    bool ran = false;  // false when the input did not check or compile
    double compile_ms = 0;
    double run_ms = 0;
  };

  lang::FileId AddInput(std::string_view text);
  // Checks `items` as the session program, and compiles it when `compile`
  // (`all_functions`: the loaded files' functions too, for `:dis`).
  std::unique_ptr<Build> Compile(const std::vector<Item>& items, bool compile,
                                 bool all_functions = false) const;
  // Items with those that `fresh` redefines removed, then `fresh` appended.
  // A kept `let` whose type names a type `fresh` redefines goes too (its
  // value has the old type's layout); `forgotten` receives such names with
  // the type.
  std::vector<Item> Replace(
      const std::vector<Item>& fresh,
      std::vector<std::pair<std::string, std::string>>* forgotten = nullptr) const;
  void Report(const Build& build) const;
  void ReportRuntime(const Build& build) const;
  // Loads `build` and runs its top-level lets, keeping what they printed in
  // *let_output when given; false after reporting an error.
  bool LoadAndInit(const Build& build, std::string* let_output);
  // An expression input: run (timed when `timing`), or only typed.
  void EvalExpression(std::string_view input, lang::FileId file, Timing* timing, bool type_only);
  // The session with `fresh` (one input's definitions) added, replacing what
  // they redefine, plus the glue that shows the values of its `lets`
  // (session_lets.h), checked and compiled.
  std::unique_ptr<Build> BuildDefinitions(const std::vector<Item>& fresh, std::vector<Item>* lets,
                                          std::vector<std::string>* wrappers) const;
  // Makes `build` (of BuildDefinitions) the session when it checked,
  // compiled and initializes, printing what `fresh` defines and taking
  // `drawn` states of the session stream; otherwise reports why and changes
  // nothing.
  bool Commit(const Build& build, const std::vector<Item>& fresh, const std::vector<Item>& lets,
              const std::vector<std::string>& wrappers, int64_t drawn);
  void EvalDefinitions(lang::FileId file, lang::Module& parsed);
  void Write(absl::string_view text);

  vm::Vm& machine_;
  lang::SourceManager inputs_;  // `<input N>`: every input, as typed
  std::vector<Item> items_;
  int64_t seed_ = 0;
  int64_t stream_index_ = 0;  // how many lines have drawn from the session stream
  int next_wrapper_ = 0;
  std::string init_output_;         // what the session's lets printed when last run
  std::string* capture_ = nullptr;  // where PRINT goes while non-null
  // The text of every file the session imports, as read when last committed:
  // later inputs are checked against it, not the disk, until `:reload`.
  // :load of a module: its sources become files_; the root's path, or "".
  std::string SourcesOfModule(const std::string& path, const std::string& bytes);
  std::map<std::string, std::string> files_;
  // Values of the persisted lets, by name (session_lets.h).
  std::map<std::string, PersistedValue> persisted_;
};

}  // namespace alea::tooling

#endif  // ALEA_TOOLING_SESSION_H_
