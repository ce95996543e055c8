// The RandState heap object (docs/language.md "Random states";
// docs/decisions.md "Random states"): a Threefry key and stream counter, a
// consumed flag, and where the state was created and first consumed, so that
// a second consumption the compiler could not see (an element of a `split_n`
// array taken twice, a state from the host) is reported with both places.
//
// Sites are stored as (function index, pc, opcode): three integers per state
// instead of a SourceLocation each. They are resolved through Function::lines
// only when an error is reported, which is rare, while states are made in hot
// loops.
#ifndef ALEA_VM_RANDSTATE_H_
#define ALEA_VM_RANDSTATE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "vm/bytecode.h"
#include "vm/random/keys.h"
#include "vm/value.h"

namespace alea::vm {

// An instruction: where a state was created or consumed. A state the host
// made has no creating instruction: function == kNoFunction. `module` is the
// Vm's count of loads when the site's code ran: a state can outlive the module
// that made it (a REPL session loads one per input and keeps its values), and
// a function and pc of an earlier module mean nothing in the current one.
struct RandSite {
  static constexpr uint32_t kNoFunction = UINT32_MAX;
  uint32_t function = kNoFunction;
  uint32_t pc = 0;
  Op op = Op::NOP;
  uint32_t module = 0;
};

// Follows the Object header of a kRandState (Object::length is 0). It has no
// children, so releasing it is a plain free.
struct RandStateBody {
  random::RandState state;  // key words and counter
  uint8_t consumed;         // 1 once an operation has consumed the state
  Op created_op;
  Op consumed_op;
  uint8_t unused;
  uint32_t created_function;  // RandSite::kNoFunction: made by the host
  uint32_t created_pc;
  uint32_t consumed_function;
  uint32_t consumed_pc;
  uint32_t created_module;  // RandSite::module
  uint32_t consumed_module;
};
static_assert(sizeof(RandStateBody) == 40);

inline RandStateBody* BodyOf(Object* o) { return reinterpret_cast<RandStateBody*>(o + 1); }
inline const RandStateBody* BodyOf(const Object* o) {
  return reinterpret_cast<const RandStateBody*>(o + 1);
}
inline const random::RandState& StateOf(const Object* o) { return BodyOf(o)->state; }
inline bool IsConsumed(const Object* o) { return BodyOf(o)->consumed != 0; }

inline RandSite CreatedAt(const Object* o) {
  const RandStateBody* b = BodyOf(o);
  return RandSite{b->created_function, b->created_pc, b->created_op, b->created_module};
}
inline RandSite ConsumedAt(const Object* o) {
  const RandStateBody* b = BodyOf(o);
  return RandSite{b->consumed_function, b->consumed_pc, b->consumed_op, b->consumed_module};
}
inline void SetCreatedAt(Object* o, const RandSite& site) {
  RandStateBody* b = BodyOf(o);
  b->created_function = site.function;
  b->created_pc = site.pc;
  b->created_op = site.op;
  b->created_module = site.module;
}
// Marks the state consumed by the operation at `site` (the first one: a
// second consumption is an error before it gets here).
inline void MarkConsumed(Object* o, const RandSite& site) {
  RandStateBody* b = BodyOf(o);
  b->consumed = 1;
  b->consumed_function = site.function;
  b->consumed_pc = site.pc;
  b->consumed_op = site.op;
  b->consumed_module = site.module;
}

// The builtin an opcode implements, as the language spells it (`split_n`,
// `uniform`; CONSUME is `with`), or nullptr for an opcode that is none.
const char* RandOpName(Op op);

// The note texts of the "used twice" error: "the state was created here by
// `split_n`" (SITE: "... by the ambient random stream"), "first consumed here
// by `uniform`". nullopt for a site that has no note (made by the host).
// `loaded`: whether the site is in the loaded module (its note then points at
// it); otherwise the note says the code ran in an earlier module.
std::optional<std::string> CreatedNote(const RandSite& site, bool loaded);
// `native`: the builtin name of the sampler native a CALLN site called, or
// null.
std::string ConsumedNote(const RandSite& site, bool loaded, const char* native = nullptr);

// The source location of `site` in `module` (Function::lines), or nullopt
// when it names no instruction there (host-made, or another module's).
std::optional<SourceLocation> LocationOf(const Module& module, const RandSite& site);

// "RandState(k0, k1, n)", the words in unsigned decimal (print and str).
void AppendRandState(std::string* out, const random::RandState& s);

}  // namespace alea::vm

#endif  // ALEA_VM_RANDSTATE_H_
