// Everything the REPL does with top-level `let`s, in one place.
//
// A session `let` is computed once: the input that defines it is built with
// the let as a source-level top-level `let` (so its errors point at the
// input and a `with` of the session stream wraps a value that draws), and
// Vm::RunInit computes it. Its value is then kept by the session
// (PersistedValue) and the let becomes `extern let NAME: T` in every later
// build, set from the kept value after each load (Vm::SetGlobal). So a let
// is not recomputed, its printing and draws happen once, and it may hold a
// RandState (use-once is then checked when it is consumed).
//
// A let whose type has type variables (`let e = []`) or a dtype value has no
// one value or no annotation to declare, and one that holds a function has
// a value that names code of its own build: each stays source and is
// computed again with each build (with the same state of the stream, if it
// draws).
#ifndef ALEA_TOOLING_SESSION_LETS_H_
#define ALEA_TOOLING_SESSION_LETS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/ast.h"
#include "tooling/session.h"
#include "vm/vm.h"

namespace alea::tooling {

// The item for `let` in `input` (the text of input file `file`): its text,
// with its value wrapped in `with fold_in(key(seed), index) { ... }` when
// `stream_index` is set (the value has random sites).
Item LetItem(std::string_view input, lang::FileId file, const lang::TopLet& let, int64_t seed,
             std::optional<int64_t> stream_index);

// Whether the value of the session-file `let` binding `name` has random
// sites (so it needs a state of the stream).
bool LetDraws(const lang::Program& program, const std::string& name);

// Glue functions `fn __val_K_<name>() = <name>`, one per name the items
// bind, so that the host can call them to show the values; appended to the
// items being built. `wrappers` receives the function names, parallel to
// the items' names.
void AppendLetShowers(const std::vector<Item>& lets, std::vector<Item>& build_items,
                      std::vector<std::string>& wrappers);

// Runs the loaded session's `let`s (Vm::RunInit) with their printing
// captured in *captured.
absl::Status RunLets(vm::Vm& machine, std::string*& capture, std::string* captured);

// What of the lets' printing `now` is new since `before` (the lets that
// were already there print the same again): the text after their common
// prefix.
std::string NewLetOutput(const std::string& before, const std::string& now);

// `val x : T = v` for each name of each let (a polymorphic one has no
// exported wrapper and shows `val x : T`).
std::string LetValuesText(const Build& build, vm::Vm& machine, const std::vector<Item>& lets,
                          const std::vector<std::string>& wrappers);

// Turns each let of `items` that is not persisted yet (the lets `build` has
// just computed) into one persisted item per name, keeping its value in
// `values`; values of names no longer defined are released.
void Persist(const Build& build, vm::Vm& machine, std::map<std::string, PersistedValue>& values,
             std::vector<Item>& items);

// Sets every `extern let` of the loaded `module` from `values`.
absl::Status SetPersisted(const vm::Module& module, vm::Vm& machine,
                          const std::map<std::string, PersistedValue>& values);

// Releases the values of names not in `keep` (all of them when empty).
void ReleasePersisted(vm::Vm& machine, std::map<std::string, PersistedValue>& values,
                      const std::vector<Item>& keep);

}  // namespace alea::tooling

#endif  // ALEA_TOOLING_SESSION_LETS_H_
