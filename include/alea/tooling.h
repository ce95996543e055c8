// What Alea's own tools need beyond the C API (alea/alea.h), as Lua's `lua.c`
// needs a little beyond `lua.h`: choices and counters of the VM that a host
// has no use for, and the diagnostics a command line prints itself. Not a
// stable interface for hosts: it changes with the tools.
#ifndef ALEA_TOOLING_H_
#define ALEA_TOOLING_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "alea/alea.h"

namespace alea::tooling {

// The widest vectors the JIT may use: AVX-512 where the machine has it (the
// default) or AVX2 (`alea run --isa`). Results are the same either way.
void SetAvx512(alea_vm* vm, bool enabled);

// Whether runs time themselves and their JIT kernels (`--stats`): a clock
// read per kernel.
void SetKernelTiming(alea_vm* vm, bool enabled);

// The counters `--stats` prints.
struct RunStats {
  uint64_t instructions = 0;
  uint64_t calls = 0;
  uint64_t allocations = 0;
  uint64_t peak_heap_bytes = 0;
  uint64_t jit_kernels = 0;
  uint64_t jit_compile_nanos = 0;
  uint64_t jit_kernel_nanos = 0;
  uint64_t run_nanos = 0;
  uint64_t bytes_copied = 0;
};
RunStats Stats(const alea_vm* vm);

// What a tool shows of a program, with the diagnostics met on the way
// (rendered, warnings included) and whether it could be shown.
struct Shown {
  bool ok = false;
  std::string text;         // for stdout
  std::string diagnostics;  // for stderr
};
// `alea check FILE`: the front end alone (parse, types, use-once).
Shown Check(std::string_view file);
// `alea dis --desugar`: FILE with its implicit random states made explicit,
// as Alea source, the session stream seeded with `seed`.
Shown Desugar(std::string_view file, int64_t seed);
// `alea dis`: the bytecode of a module.
std::string Disassemble(const alea_module* module);

// The threads of this machine: `--threads`' default.
int HardwareThreads();

// Diagnostics of the command line, rendered: FILE has no `main`; `--seed N` given
// to a main that draws from no ambient stream.
std::string NoMainError(std::string_view file);
// `alea build`'s: FILE cannot be written, for a reason (strerror's).
std::string CannotWriteError(std::string_view file, std::string_view why);
std::string SeedUnusedWarning(int64_t seed);

// What `alea doc [NAME]` and the REPL's `:doc NAME` print, from the
// builtins' reference: NAME's entry (`-` gives both minuses), a prelude
// type's, or with an empty NAME the index of every builtin. Not found: the
// error message, with the nearest name if there is one.
struct DocLookup {
  bool found = false;
  std::string text;
};
DocLookup LookUpDoc(std::string_view name);
// docs/builtins.md (`alea doc --markdown`).
std::string BuiltinReferenceMarkdown();

// The words of the language a name may complete to: the builtins' (the
// standard library's included), the prelude's types and constructors, and
// the keywords.
std::vector<std::string> LanguageWords();

// The REPL's session (`alea repl`; docs/repl.md): the definitions typed so
// far, checked and compiled again as one program with each input, and run in
// one VM. A definition joins the session, replacing what it redefines; an
// expression is evaluated and its value printed as `- : T = v`; an input that
// fails changes nothing. Results go to standard output and diagnostics to
// standard error, as the REPL shows them; the programs' `print`s go through
// the VM's output, which the session takes over.
class SessionImpl;
class Session {
 public:
  // `vm` (alea_vm_new: limits, threads, JIT) runs every input and must
  // outlive the session; `seed` seeds the session random stream.
  Session(alea_vm* vm, int64_t seed);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // One complete input (whole by the REPL's reckoning: balanced brackets).
  void Eval(std::string_view input);
  // The commands: `:type EXPR`, `:time EXPR`, `:dis NAME`, `:desugar NAME`,
  // `:load FILE` (source or `.aleac`), `:reload`, `:seed N`.
  void PrintType(std::string_view expr);
  void Time(std::string_view expr);
  void Disassemble(std::string_view name);
  void Desugar(std::string_view name);
  void Load(std::string_view path);
  void Reload();
  void SetSeed(int64_t seed);
  // Every name the session defines, for completion.
  std::vector<std::string> Names() const;
  alea_vm* vm() const { return vm_; }

 private:
  alea_vm* vm_;
  std::unique_ptr<SessionImpl> impl_;
};

}  // namespace alea::tooling

#endif  // ALEA_TOOLING_H_
