// Internal to the verifier (verifier.cc, verifier_rules.cc): what a register
// holds at an instruction, and the walkers over a module and a function.
#ifndef ALEA_VM_VERIFIER_INTERNAL_H_
#define ALEA_VM_VERIFIER_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "vm/bytecode.h"
#include "vm/native_signature.h"
#include "vm/verifier.h"
#include "vm/verifier_shapes.h"

namespace alea::vm::verifier {

// What a register holds. Plain registers: a plain value (a known constant,
// for `type` arguments), a closure lent uncounted from a reference register
// (`owner`; valid while the owner is not written), or an owned reference
// left in a plain register (CLOSURE's result before its MOVE), which is
// usable but leaks if dropped. Reference registers: null, a reference of
// `shape` (a variant's possible constructors in `tags`, bit i for tag i),
// maybe null, or an unknown reference (releasable, nothing else).
struct Val {
  // kDirty: a plain value in a reference register, which a call whose
  // window starts in one leaves for the next instructions to take out.
  enum class Kind : uint8_t { kPlain, kConst, kLent, kLoose, kNull, kRef, kMaybe, kTop, kDirty };
  Kind kind = Kind::kPlain;
  uint32_t shape = 0;
  uint64_t tags = ~uint64_t{0};
  int64_t value = 0;
  uint16_t owner = 0;
  // A value read by FIELD (perhaps through fields of fields) from register
  // `origin`, unchanged since: its path of field numbers from there, each
  // number + 1 in 16 bits, the first in the lowest (values are immutable,
  // so the same path from an unchanged register reads the same object).
  int32_t origin = -1;
  uint64_t path = 0;
  // What tag tests told about the values at some paths from this one: a
  // match tests a nested constructor, then reads the fields again.
  static constexpr int kMaxRefined = 4;
  uint8_t refined = 0;
  uint64_t paths[kMaxRefined] = {};
  uint64_t path_tags[kMaxRefined] = {};

  // `path` extended by field `field`; 0 when it would be deeper than 4.
  static uint64_t Extend(uint64_t path, uint16_t field) {
    for (int level = 0; level < 4; ++level) {
      if (((path >> (16 * level)) & 0xffff) == 0) {
        return field == 0xffff ? 0 : path | (uint64_t{field} + 1) << (16 * level);
      }
    }
    return 0;
  }
  static Val Make(Kind kind, uint32_t shape = 0, uint64_t tags = ~uint64_t{0}, int64_t value = 0,
                  uint16_t owner = 0) {
    Val v;
    v.kind = kind;
    v.shape = shape;
    v.tags = tags;
    v.value = value;
    v.owner = owner;
    return v;
  }
  static Val Plain() { return {}; }
  static Val Const(int64_t v) { return Make(Kind::kConst, 0, ~uint64_t{0}, v); }
  static Val Lent(uint32_t shape, uint16_t owner) {
    return Make(Kind::kLent, shape, ~uint64_t{0}, 0, owner);
  }
  static Val Loose(uint32_t shape) { return Make(Kind::kLoose, shape); }
  static Val Null() { return Make(Kind::kNull); }
  static Val Ref(uint32_t shape, uint64_t tags) { return Make(Kind::kRef, shape, tags); }
  static Val Maybe(uint32_t shape, uint64_t tags) { return Make(Kind::kMaybe, shape, tags); }
  static Val Top() { return Make(Kind::kTop); }
  static Val Dirty() { return Make(Kind::kDirty); }
  bool operator==(const Val& o) const {
    if (!(kind == o.kind && shape == o.shape && tags == o.tags && value == o.value &&
          owner == o.owner && origin == o.origin && path == o.path && refined == o.refined)) {
      return false;
    }
    for (int i = 0; i < refined; ++i) {
      if (paths[i] != o.paths[i] || path_tags[i] != o.path_tags[i]) return false;
    }
    return true;
  }
  // The tags the value at `at` may have, as far as tests told.
  uint64_t TagsAt(uint64_t at) const {
    for (int i = 0; i < refined; ++i) {
      if (paths[i] == at) return path_tags[i];
    }
    return ~uint64_t{0};
  }
  void RefineAt(uint64_t at, uint64_t tags) {
    if (at == 0) return;
    for (int i = 0; i < refined; ++i) {
      if (paths[i] == at) {
        path_tags[i] &= tags;
        return;
      }
    }
    if (refined < kMaxRefined) {
      paths[refined] = at;
      path_tags[refined++] = tags;
    }
  }
};

struct NativeInfo {
  const NativeSignature* sig = nullptr;  // a native of natives.def or the host's
  bool is_extern = false;                // else an `extern fn`: these shapes
  std::vector<uint32_t> params;
  uint32_t result = 0;
};

struct FunctionInfo {
  std::vector<uint8_t> is_ref;
  std::vector<uint8_t> capture_is_ref;
  uint32_t shape = 0;  // fn(params) -> result
};

class Verifier {
 public:
  Verifier(const Module& m, const VerifyOptions& options) : m_(m), options_(options), shapes_(m) {}
  absl::Status Run();

 private:
  friend class FunctionVerifier;
  absl::Status CheckTables();
  std::string Where(uint32_t function, uint32_t pc) const;

  const Module& m_;
  const VerifyOptions& options_;
  Shapes shapes_;
  std::vector<NativeInfo> natives_;
  std::vector<FunctionInfo> funcs_;
};

class FunctionVerifier {
 public:
  FunctionVerifier(Verifier& v, uint32_t index);
  absl::Status Run();

 private:
  // verifier.cc
  bool CheckOperands();
  std::vector<Val> EntryState();
  bool Merge(uint32_t to, const std::vector<Val>& state);
  Val Join(const Val& a, const Val& b);
  uint64_t AllTags(uint32_t shape) const;
  absl::Status Fail(absl::string_view why);

  // verifier_rules.cc: the instruction at pc_ on state_; successors_ gets
  // the states after it. False (with error_) when it does not verify.
  bool Step();
  bool Error(absl::string_view why) {
    (void)Fail(why);
    return false;
  }
  // Reading operands.
  bool Plain(uint16_t r, const char* what);
  bool Object(uint16_t r, const char* what, Val* out);
  bool Fits(uint16_t r, uint32_t shape, const char* what);
  bool Window(uint32_t first, uint32_t count, const char* what);
  // Writing results.
  bool Write(uint16_t r, Val v);
  bool WriteShape(uint16_t r, uint32_t shape, uint64_t tags = ~uint64_t{0});
  void Clear(uint16_t r);
  // The instruction continues at pc + 1 with state_ (no copy: most do).
  void Next() { falls_through_ = true; }
  bool Call(uint16_t a, uint32_t count, const std::vector<uint32_t>& params, const char* what);
  bool CallNative(const Instr& in);
  bool CheckDirty(uint16_t r);
  bool CheckLoose(uint16_t r);
  bool Dropped(uint32_t from, uint32_t to);
  bool Random(const Instr& in);
  std::optional<int> KnownTag(const Val& v) const;
  // A tag test's outcome for R(r), and for the field it was read from.
  void Refine(std::vector<Val>& state, uint16_t r, uint64_t tags);

  Verifier& v_;
  const Module& m_;
  const Function& f_;
  uint32_t index_;
  const FunctionInfo& info_;
  uint32_t pc_ = 0;
  std::vector<Val> state_;
  // Where states are kept and joined: pc 0 and every jump's target (a
  // fallthrough alone continues in place).
  std::vector<uint8_t> is_target_;
  std::vector<std::optional<std::vector<Val>>> in_;
  // Bytes of the states kept at join points, and their bound (about 2.5
  // million register states: a compiled function keeps far fewer).
  uint64_t stored_bytes_ = 0;
  static constexpr uint64_t kMaxStateBytes = uint64_t{256} << 20;
  std::vector<std::pair<uint32_t, std::vector<Val>>> successors_;  // jumps
  bool falls_through_ = false;
  // The instruction releases what its result register held (the random
  // opcodes: Vm::PutReference), so writing over a reference leaks nothing.
  bool releasing_write_ = false;
  // Whether some register of state_ is lent from or was read from another
  // (kLent, origin): only then must a write look for them.
  bool links_ = false;
  absl::Status error_;
};

}  // namespace alea::vm::verifier

#endif  // ALEA_VM_VERIFIER_INTERNAL_H_
