// What each instruction requires of its registers and what it leaves in
// them (vm/verifier.h), from opcodes.def's semantics and the interpreter's
// bodies: which operands it dereferences as what, which it moves (the
// register is null after), which it only reads.
#include <bit>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "vm/verifier_internal.h"

namespace alea::vm::verifier {
namespace {

std::string Describe(const Shapes& shapes, const Val& v) {
  switch (v.kind) {
    case Val::Kind::kPlain:
    case Val::Kind::kConst:
      return "a plain value";
    case Val::Kind::kLent:
      return absl::StrCat("a lent ", shapes.Name(v.shape));
    case Val::Kind::kLoose:
      return absl::StrCat("a ", shapes.Name(v.shape), " in a plain register");
    case Val::Kind::kNull:
      return "null";
    case Val::Kind::kRef:
      return shapes.Name(v.shape);
    case Val::Kind::kMaybe:
      return absl::StrCat("maybe null (", shapes.Name(v.shape), ")");
    case Val::Kind::kTop:
      return "a reference of unknown shape";
    case Val::Kind::kDirty:
      return "a plain value in a reference register";
  }
  return "?";
}

// The samplers' operands (opcodes.def "Random states"), in the language of
// natives' signatures.
const NativeSignature* SamplerSignature(Op op) {
  static const auto* const kTable = [] {
    auto* t = new absl::flat_hash_map<int, NativeSignature>;
    auto add = [&](Op o, const char* text) {
      (*t)[static_cast<int>(o)] = *ParseNativeSignature(text);
    };
    add(Op::BITS, "(RandState, [Int]) -> Tensor(u32)");
    add(Op::UNIFORM, "(RandState, [Int], Float, Float) -> Tensor(f32)");
    add(Op::NORMAL, "(RandState, [Int]) -> Tensor(f32)");
    add(Op::BERNOULLI, "(RandState, Float, [Int]) -> Tensor(bool)");
    add(Op::RANDINT, "(RandState, [Int], Int, Int) -> Tensor(i32)");
    add(Op::EXPONENTIAL, "(RandState, [Int]) -> Tensor(f32)");
    add(Op::CATEGORICAL, "(RandState, Tensor(f32)) -> Tensor(i32)");
    add(Op::PERMUTATION, "(RandState, Int) -> Tensor(i32)");
    add(Op::DROPOUT, "(RandState, Tensor(f32), Float) -> Tensor(f32)");
    return t;
  }();
  auto it = kTable->find(static_cast<int>(op));
  return it == kTable->end() ? nullptr : &it->second;
}

// Plain registers a scalar draw reads (the unboxed state's two and its
// parameters): opcodes.def.
int ScalarDrawRegisters(Op op) {
  switch (op) {
    case Op::NORMAL_S:
    case Op::EXPONENTIAL_S:
      return 2;
    case Op::BERNOULLI_S:
      return 3;
    case Op::UNIFORM_S:
    case Op::RANDINT_S:
      return 4;
    default:
      return -1;
  }
}

}  // namespace

// ---- Operands ----

bool FunctionVerifier::Window(uint32_t first, uint32_t count, const char* what) {
  if (uint64_t{first} + count > f_.num_registers) {
    return Error(absl::StrCat("has ", what, " R(", first, ")..R(", uint64_t{first} + count - 1,
                              ") past its ", f_.num_registers, " registers"));
  }
  return true;
}

bool FunctionVerifier::Plain(uint16_t r, const char* what) {
  if (info_.is_ref[r] && state_[r].kind != Val::Kind::kDirty) {
    return Error(absl::StrCat("needs ", what, " R(", r, ") to be a plain register"));
  }
  return true;
}

bool FunctionVerifier::Object(uint16_t r, const char* what, Val* out) {
  const Val& v = state_[r];
  if (!info_.is_ref[r] || v.kind != Val::Kind::kRef) {
    return Error(absl::StrCat("needs ", what, " R(", r, ") to hold a reference; it holds ",
                              Describe(v_.shapes_, v)));
  }
  *out = v;
  return true;
}

bool FunctionVerifier::Fits(uint16_t r, uint32_t shape, const char* what) {
  if (!v_.shapes_.IsReference(shape)) return Plain(r, what);
  Val v;
  if (!Object(r, what, &v)) return false;
  if (!v_.shapes_.Leq(v.shape, shape)) {
    return Error(absl::StrCat("needs ", what, " R(", r, ") to be ", v_.shapes_.Name(shape),
                              "; it is ", v_.shapes_.Name(v.shape)));
  }
  return true;
}

// ---- Results ----

bool FunctionVerifier::Write(uint16_t r, Val v) {
  using K = Val::Kind;
  const bool ref_value = v.kind >= K::kNull;
  // No reference is ever dropped: a write over one would leak it (random
  // opcodes release what they overwrite: Vm::PutReference).
  const Val& old = state_[r];
  const bool live =
      old.kind == K::kRef || old.kind == K::kMaybe || old.kind == K::kTop || old.kind == K::kLoose;
  if (live && !(releasing_write_ && info_.is_ref[r])) {
    return Error(absl::StrCat("overwrites R(", r, "), which holds ", Describe(v_.shapes_, old),
                              ": the reference would leak"));
  }
  // Closures lent from this register are gone with what it held, and what
  // was read from it says nothing of what it holds now.
  if (links_) {
    for (Val& x : state_) {
      if (x.kind == K::kLent && x.owner == r) x = Val::Plain();
      if (x.origin == r) x.origin = -1;
    }
  }
  if (v.kind == K::kLent || v.origin >= 0) links_ = true;
  if (info_.is_ref[r]) {
    if (!ref_value) {
      if (v.kind == K::kConst && v.value == 0) {
        v = Val::Null();
      } else {
        // Only a call's result may do this, and what follows it must take
        // it out at once (CheckDirty).
        v = Val::Dirty();
      }
    }
  } else if (ref_value) {
    if (v.kind == K::kRef) {
      v = Val::Loose(v.shape);
      state_[r] = v;
      return CheckLoose(r);
    } else if (v.kind == K::kNull) {
      v = Val::Const(0);
    } else {
      v = Val::Plain();
    }
  }
  state_[r] = v;
  return true;
}

bool FunctionVerifier::WriteShape(uint16_t r, uint32_t shape, uint64_t tags) {
  if (!v_.shapes_.IsReference(shape)) return Write(r, Val::Plain());
  if (v_.shapes_[shape].kind == ShapeKind::kNever) {
    // No value ever arrives (an index into `[]` fails first): null, over
    // nothing live.
    return Write(r, Val::Null());
  }
  return Write(r, Val::Ref(shape, tags == ~uint64_t{0} ? AllTags(shape) : tags));
}

void FunctionVerifier::Clear(uint16_t r) {
  // What it held was moved out (or was no reference): nothing leaks, and
  // nothing lent from it or read from it holds any more.
  if (links_) {
    for (Val& x : state_) {
      if (x.kind == Val::Kind::kLent && x.owner == r) x = Val::Plain();
      if (x.origin == r) x.origin = -1;
    }
  }
  static const Val kNull = Val::Null(), kZero = Val::Const(0);
  state_[r] = info_.is_ref[r] ? kNull : kZero;
}

// An owned reference in a plain register (a call's or CLOSURE's result whose
// window starts in one): unwinding would not release it, so the next
// instruction must move it into a reference register or return it, with no
// jump into it.
bool FunctionVerifier::CheckLoose(uint16_t r) {
  const uint32_t next = pc_ + 1;
  if (next < f_.code.size() && !is_target_[next]) {
    const Instr& in = f_.code[next];
    if (in.op == Op::RET && in.a == r) return true;
    if (in.op == Op::MOVE && in.b == r && in.x == 1 && info_.is_ref[in.a]) return true;
  }
  return Error(absl::StrCat("leaves a reference in plain register R(", r,
                            ") that the next instruction does not take out"));
}

// The registers a call zeroes besides its arguments must hold nothing a
// frame owns (they would be dropped).
bool FunctionVerifier::Dropped(uint32_t from, uint32_t to) {
  for (uint32_t r = from; r < to; ++r) {
    const Val& v = state_[r];
    using K = Val::Kind;
    if (v.kind == K::kRef || v.kind == K::kMaybe || v.kind == K::kTop || v.kind == K::kLoose) {
      return Error(absl::StrCat("zeroes R(", r, ") in the callee's frame, which holds ",
                                Describe(v_.shapes_, v), ": the reference would leak"));
    }
  }
  return true;
}

// A plain result in a reference register (a call whose window starts in
// one): unwinding would release it as a pointer, so the instructions right
// after must take it out (a MOVE) and null the register (LOADI 0, or a
// moving MOVE), or return it, with no jump into them.
bool FunctionVerifier::CheckDirty(uint16_t r) {
  if (!info_.is_ref[r] || state_[r].kind != Val::Kind::kDirty) return true;
  for (uint32_t pc = pc_ + 1; pc < f_.code.size() && pc <= pc_ + 2; ++pc) {
    const Instr& in = f_.code[pc];
    if (is_target_[pc]) break;
    if (in.op == Op::RET && in.a == r) return true;
    if (in.op == Op::LOADI && in.a == r && in.sbx() == 0) return true;
    if (in.op == Op::MOVE && in.b == r && in.a != r && !info_.is_ref[in.a]) {
      if (in.x == 1) return true;
      continue;
    }
    break;
  }
  return Error(absl::StrCat("leaves a plain result in reference register R(", r,
                            ") that the next instructions do not take out"));
}

void FunctionVerifier::Refine(std::vector<Val>& state, uint16_t r, uint64_t tags) {
  Val& v = state[r];
  v.tags &= tags;
  if (v.origin >= 0 && info_.is_ref[v.origin]) state[v.origin].RefineAt(v.path, v.tags);
}

std::optional<int> FunctionVerifier::KnownTag(const Val& v) const {
  const Shape& s = v_.shapes_[v.shape];
  if (s.kind == ShapeKind::kNullary) return static_cast<int>(s.type);
  const size_t cases = v_.shapes_.Cases(v.shape);
  if (cases == 1) return 0;
  if (cases == 0 || cases >= 64) return std::nullopt;
  const uint64_t tags = v.tags & AllTags(v.shape);
  if (std::popcount(tags) != 1) return std::nullopt;
  return std::countr_zero(tags);
}

bool FunctionVerifier::Call(uint16_t a, uint32_t count, const std::vector<uint32_t>& params,
                            const char* what) {
  if (!Window(a, count, "arguments")) return false;
  for (uint32_t i = 0; i < count; ++i) {
    const uint16_t r = static_cast<uint16_t>(a + i);
    if ((info_.is_ref[r] != 0) != v_.shapes_.IsReference(params[i])) {
      return Error(absl::StrCat("passes ", what, " ", i + 1, " in R(", r,
                                "), a register of the wrong class for ",
                                v_.shapes_.Name(params[i])));
    }
    if (!Fits(r, params[i], what)) return false;
  }
  return true;
}

// ---- The instructions ----

bool FunctionVerifier::Step() {
  const Instr in = f_.code[pc_];
  Shapes& shapes = v_.shapes_;
  const uint32_t n = f_.num_registers;
  auto target = [&](int64_t offset) { return static_cast<uint32_t>(int64_t{pc_} + 1 + offset); };
  switch (in.op) {
    case Op::NOP:
      break;
    case Op::LOADI:
      if (info_.is_ref[in.a]) {
        if (in.sbx() != 0) return Error("puts a plain value in a reference register");
        if (state_[in.a].kind == Val::Kind::kDirty) state_[in.a] = Val::Plain();
        if (!Write(in.a, Val::Const(0))) return false;
      } else {
        Write(in.a, Val::Const(in.sbx()));
      }
      break;
    case Op::LOADK:
      if (!Plain(in.a, "its result")) return false;
      Write(in.a, Val::Plain());
      break;
    case Op::LOADS:
      WriteShape(in.a, Shapes::kStr);
      break;
    case Op::LOADFN:
      if (m_.functions[in.b].num_captures != 0) {
        return Error("makes a closure without captures of a function that reads captures");
      }
      WriteShape(in.a, v_.funcs_[in.b].shape);
      break;
    case Op::LOADG: {
      const uint32_t shape = shapes.OfType(m_.globals[in.b].type);
      if (!shapes.IsReference(shape) && !Plain(in.a, "its result")) return false;
      WriteShape(in.a, shape);
      break;
    }
    case Op::STOREG: {
      if (static_cast<int32_t>(index_) != m_.init) {
        return Error("stores a global outside the module's initializer");
      }
      const uint32_t shape = shapes.OfType(m_.globals[in.b].type);
      if (!Fits(in.a, shape, "the value")) return false;
      if (shapes.IsReference(shape)) Clear(in.a);
      break;
    }
    case Op::MOVE: {
      const Val src = state_[in.b];
      const bool from_ref = info_.is_ref[in.b] && src.kind != Val::Kind::kDirty;
      if (from_ref) {
        if (in.x == 1) {
          if (!info_.is_ref[in.a] && src.kind != Val::Kind::kRef && src.kind != Val::Kind::kNull) {
            return Error("moves a reference that may be null into a plain register");
          }
          Clear(in.b);
          Write(in.a, src);
        } else {
          // Lent uncounted (to a native's `fn` parameter): not a second owner.
          if (info_.is_ref[in.a]) {
            return Error(
                "copies a reference without counting it (x = 0 between reference "
                "registers: two owners)");
          }
          if (src.kind != Val::Kind::kRef) {
            return Error(absl::StrCat("lends R(", in.b, "), which holds ", Describe(shapes, src)));
          }
          Write(in.a, Val::Lent(src.shape, in.b));
        }
      } else if (info_.is_ref[in.a]) {
        // Into a reference register: an owned reference a call or CLOSURE
        // left in a plain register, or nothing.
        if (in.x == 1 && src.kind == Val::Kind::kLoose) {
          Clear(in.b);
          Write(in.a, Val::Ref(src.shape, AllTags(src.shape)));
        } else if (src.kind == Val::Kind::kConst && src.value == 0) {
          // Null, over nothing live: MOVE releases nothing it overwrites.
          if (!Write(in.a, Val::Const(0))) return false;
          if (in.x == 1) Clear(in.b);
        } else {
          return Error("puts a plain value in a reference register");
        }
      } else {
        Val v = src;
        if (v.kind == Val::Kind::kDirty) v = Val::Plain();
        // A copy of an owned reference without a count is no owner.
        if (in.x == 0 && v.kind == Val::Kind::kLoose) v = Val::Plain();
        if (in.x == 1) Clear(in.b);
        Write(in.a, v);
      }
      break;
    }
    case Op::COPY: {
      const Val src = state_[in.b];
      if ((info_.is_ref[in.a] != 0) != (info_.is_ref[in.b] != 0)) {
        return Error("copies between a plain and a reference register");
      }
      if (src.kind == Val::Kind::kDirty)
        return Error("copies a plain value in a reference register");
      Write(in.a, src.kind == Val::Kind::kLoose ? Val::Plain() : src);
      break;
    }
    case Op::RELEASE:
      if (!info_.is_ref[in.a]) return Error("releases a plain register");
      if (state_[in.a].kind == Val::Kind::kDirty) return Error("releases a plain value");
      Clear(in.a);
      break;

    case Op::ADD_I:
    case Op::SUB_I:
    case Op::MUL_I:
    case Op::DIV_I:
    case Op::REM_I:
    case Op::EQ_I:
    case Op::NE_I:
    case Op::LT_I:
    case Op::LE_I:
    case Op::ADD_F:
    case Op::SUB_F:
    case Op::MUL_F:
    case Op::DIV_F:
    case Op::REM_F:
    case Op::EQ_F:
    case Op::NE_F:
    case Op::LT_F:
    case Op::LE_F:
      if (!Plain(in.b, "operand") || !Plain(in.c, "operand") || !Plain(in.a, "its result")) {
        return false;
      }
      Write(in.a, Val::Plain());
      break;
    case Op::DIVK_I:
    case Op::REMK_I:
      if (in.c == 0) return Error("divides by the constant 0");
      [[fallthrough]];
    case Op::ADDK_I:
    case Op::MULK_I:
    case Op::NEG_I:
    case Op::NEG_F:
    case Op::I2F:
    case Op::F2I:
    case Op::NOT:
      if (!Plain(in.b, "operand") || !Plain(in.a, "its result")) return false;
      Write(in.a, Val::Plain());
      break;

    case Op::CONCAT_S:
      if (!Fits(in.b, Shapes::kStr, "operand") || !Fits(in.c, Shapes::kStr, "operand"))
        return false;
      WriteShape(in.a, Shapes::kStr);
      break;
    case Op::EQ_V:
    case Op::LT_V:
    case Op::LE_V: {
      if (!Window(in.b, 2, "operands")) return false;
      const uint32_t shape = shapes.OfType(in.c);
      if (!Fits(in.b, shape, "operand") ||
          !Fits(static_cast<uint16_t>(in.b + 1), shape, "operand") || !Plain(in.a, "its result")) {
        return false;
      }
      Write(in.a, Val::Plain());
      break;
    }

    case Op::JMP:
      successors_.emplace_back(target(in.sbx()), state_);
      return true;
    case Op::JMPIF:
    case Op::JMPIFNOT: {
      if (!Plain(in.a, "the condition")) return false;
      // A known condition takes one edge; on the edge where it is false it
      // is known to be 0 (code that tests a flag again after a join).
      const Val cond = state_[in.a];
      const bool known = cond.kind == Val::Kind::kConst;
      const bool jump_when_true = in.op == Op::JMPIF;
      if (!known || (cond.value != 0) == jump_when_true) {
        successors_.emplace_back(target(in.sbx()), state_);
        if (!jump_when_true) successors_.back().second[in.a] = Val::Const(0);
      }
      if (!known || (cond.value != 0) != jump_when_true) {
        if (jump_when_true) state_[in.a] = Val::Const(0);
        Next();
      }
      return true;
    }
    case Op::JLT_I:
    case Op::JLE_I:
    case Op::JEQ_I:
    case Op::JNE_I:
      if (!Plain(in.a, "operand") || !Plain(in.b, "operand")) return false;
      successors_.emplace_back(target(in.sc()), state_);
      break;
    case Op::JLTK_I:
    case Op::JLEK_I:
    case Op::JGTK_I:
    case Op::JGEK_I:
    case Op::JEQK_I:
    case Op::JNEK_I:
      if (!Plain(in.a, "operand")) return false;
      successors_.emplace_back(target(in.sc()), state_);
      break;

    case Op::CALL:
    case Op::TAILCALL: {
      const Function& g = m_.functions[in.b];
      if (g.num_captures != 0)
        return Error("calls a function that reads captures without a closure");
      if (in.c != g.num_params) {
        return Error(absl::StrCat("passes ", in.c, " arguments to `", g.name, "`, which takes ",
                                  g.num_params));
      }
      const std::vector<uint32_t>& parts = shapes[v_.funcs_[in.b].shape].children;
      const std::vector<uint32_t> params(parts.begin(), parts.end() - 1);
      if (!Call(in.a, in.c, params, "argument")) return false;
      const uint32_t result = parts.back();
      if (in.op == Op::TAILCALL) {
        const uint32_t own = shapes.OfType(f_.result_type);
        if (shapes.IsReference(result) != shapes.IsReference(own) || !shapes.Leq(result, own)) {
          return Error(absl::StrCat("returns `", g.name, "`'s ", shapes.Name(result),
                                    " from a function returning ", shapes.Name(own)));
        }
        return true;
      }
      // The callee's frame starts at R(a); its registers are zero when it
      // returns (RET), and R(a) holds the result.
      const uint32_t end = std::min<uint32_t>(n, uint32_t{in.a} + g.num_registers);
      if (!Dropped(uint32_t{in.a} + in.c, end)) return false;
      for (uint32_t r = in.a; r < end; ++r) Clear(static_cast<uint16_t>(r));
      WriteShape(in.a, result);
      if (!CheckDirty(in.a)) return false;
      break;
    }
    case Op::CALLC:
    case Op::TAILCALLC: {
      Val closure;
      if (!Object(in.b, "the closure", &closure)) return false;
      const Shape fn = shapes[closure.shape];
      if (fn.kind != ShapeKind::kFunction || fn.children.size() != uint32_t{in.c} + 1) {
        return Error(absl::StrCat("calls R(", in.b, ") with ", in.c, " arguments; it holds ",
                                  shapes.Name(closure.shape)));
      }
      const std::vector<uint32_t> params(fn.children.begin(), fn.children.end() - 1);
      if (!Call(in.a, in.c, params, "argument")) return false;
      const uint32_t result = fn.children.back();
      if (in.op == Op::TAILCALLC) {
        if (in.b >= in.a && in.b < uint32_t{in.a} + in.c) {
          return Error("takes its closure from its own arguments");
        }
        const uint32_t own = shapes.OfType(f_.result_type);
        if (shapes.IsReference(result) != shapes.IsReference(own) || !shapes.Leq(result, own)) {
          return Error(absl::StrCat("returns ", shapes.Name(result), " from a function returning ",
                                    shapes.Name(own)));
        }
        return true;
      }
      // The callee's size is unknown here: every register from R(a) up may
      // have been zeroed (the arguments were).
      if (!Dropped(uint32_t{in.a} + in.c, n)) return false;
      for (uint32_t r = in.a; r < uint32_t{in.a} + in.c; ++r) Clear(static_cast<uint16_t>(r));
      for (uint32_t r = uint32_t{in.a} + in.c; r < n; ++r) {
        const Val old = state_[r];
        Clear(static_cast<uint16_t>(r));
        state_[r] = Join(old, state_[r]);
      }
      WriteShape(in.a, result);
      if (!CheckDirty(in.a)) return false;
      break;
    }
    case Op::GRAD: {
      // CALLC's checks on the closure and its arguments; the result, of
      // this function's own type, is made from the closure's first
      // parameter (x = 0), or is the pair of its result and that.
      Val closure;
      if (!Object(in.b, "the closure", &closure)) return false;
      const Shape fn = shapes[closure.shape];
      if (fn.kind != ShapeKind::kFunction || in.c == 0 ||
          fn.children.size() != uint32_t{in.c} + 1) {
        return Error(absl::StrCat("differentiates R(", in.b, ") with ", in.c,
                                  " arguments; it holds ", shapes.Name(closure.shape)));
      }
      const std::vector<uint32_t> params(fn.children.begin(), fn.children.end() - 1);
      if (!Call(in.a, in.c, params, "argument")) return false;
      const uint32_t own = shapes.OfType(f_.result_type);
      const uint32_t first = params[0];
      const uint32_t value = fn.children.back();
      auto same = [&](uint32_t x, uint32_t y) { return shapes.Leq(x, y) && shapes.Leq(y, x); };
      // (The result's own kind, a Float or a one-element f32 tensor, the VM
      // checks when it runs.)
      bool fits = same(first, own);
      if (in.x != 0) {
        const Shape& pair = shapes[own];
        fits = pair.kind == ShapeKind::kTuple && pair.children.size() == 2 &&
               same(pair.children[0], value) && same(pair.children[1], first);
      }
      if (!fits) {
        return Error(absl::StrCat("differentiates a closure of ", shapes.Name(closure.shape),
                                  " into ", shapes.Name(own)));
      }
      // The closure runs in a frame of its own above this one's registers
      // (as a native's callback): only the arguments are moved out.
      for (uint32_t r = in.a; r < uint32_t{in.a} + in.c; ++r) Clear(static_cast<uint16_t>(r));
      WriteShape(in.a, own);
      if (!CheckDirty(in.a)) return false;
      break;
    }
    case Op::CALLN:
      if (!CallNative(in)) return false;
      break;
    case Op::RET: {
      const uint32_t result = shapes.OfType(f_.result_type);
      const Val& v = state_[in.a];
      if (!shapes.IsReference(result)) {
        if (info_.is_ref[in.a] && v.kind != Val::Kind::kDirty) {
          return Error("returns a reference register from a function returning a plain value");
        }
        // An owned reference in a plain register: the caller would take it
        // for a plain value and never release it.
        if (v.kind == Val::Kind::kLoose) {
          return Error(absl::StrCat("returns ", shapes.Name(v.shape), " from a function returning ",
                                    shapes.Name(result)));
        }
      } else if (v.kind == Val::Kind::kLoose) {
        if (!shapes.Leq(v.shape, result)) {
          return Error(absl::StrCat("returns ", shapes.Name(v.shape), " from a function returning ",
                                    shapes.Name(result)));
        }
      } else if (!Fits(in.a, result, "the result")) {
        return false;
      }
      return true;
    }

    case Op::CLOSURE: {
      const Function& g = m_.functions[in.b];
      const FunctionInfo& gi = v_.funcs_[in.b];
      if (in.c != g.num_captures) {
        return Error(
            absl::StrCat("gives `", g.name, "` ", in.c, " captures; it reads ", g.num_captures));
      }
      if (!Window(in.a, in.c, "captures")) return false;
      for (uint32_t i = 0; i < in.c; ++i) {
        const uint16_t r = static_cast<uint16_t>(in.a + i);
        if ((info_.is_ref[r] != 0) != (gi.capture_is_ref[i] != 0)) {
          return Error(absl::StrCat("passes capture ", i, " in a register of the wrong class"));
        }
        if (!Fits(r, shapes.OfType(g.capture_types[i]), "capture")) return false;
      }
      for (uint32_t i = 0; i < in.c; ++i) Clear(static_cast<uint16_t>(in.a + i));
      WriteShape(in.a, gi.shape);
      break;
    }
    case Op::GETCAP: {
      const uint32_t shape = shapes.OfType(f_.capture_types[in.b]);
      if (!shapes.IsReference(shape) && !Plain(in.a, "its result")) return false;
      WriteShape(in.a, shape);
      break;
    }
    case Op::TUPLE: {
      const TypeDesc& t = m_.types[in.c];
      using TK = TypeDesc::Kind;
      if (t.kind != TK::kTuple && t.kind != TK::kRecord && t.kind != TK::kCase) {
        return Error("needs a tuple, record or constructor type");
      }
      if (!Window(in.b, static_cast<uint32_t>(t.children.size()), "fields")) return false;
      for (size_t i = 0; i < t.children.size(); ++i) {
        const uint16_t r = static_cast<uint16_t>(in.b + i);
        const uint32_t field = shapes.OfType(t.children[i]);
        if ((info_.is_ref[r] != 0) != shapes.IsReference(field)) {
          return Error(absl::StrCat("takes field ", i, " from a register of the wrong class"));
        }
        if (!Fits(r, field, "field")) return false;
      }
      for (size_t i = 0; i < t.children.size(); ++i) {
        if (shapes.IsReference(shapes.OfType(t.children[i])))
          Clear(static_cast<uint16_t>(in.b + i));
      }
      const uint32_t shape = shapes.OfType(in.c);
      WriteShape(in.a, shape,
                 t.kind == TK::kCase && t.tag < 64 ? uint64_t{1} << t.tag : ~uint64_t{0});
      break;
    }
    case Op::FIELD: {
      Val v;
      if (!Object(in.b, "the tuple", &v)) return false;
      // A variant's field: of every constructor it may be here, all of
      // which must have it (a nested pattern reads a field shared by the
      // constructors its tests left).
      std::vector<int> tags;
      if (shapes.IsVariant(v.shape) || shapes[v.shape].kind == ShapeKind::kNullary) {
        if (std::optional<int> known = KnownTag(v)) {
          tags.push_back(*known);
        } else if (shapes.Cases(v.shape) < 64) {
          for (int t = 0; t < static_cast<int>(shapes.Cases(v.shape)); ++t) {
            if ((v.tags >> t) & 1) tags.push_back(t);
          }
        }
        if (tags.empty()) {
          return Error(absl::StrCat("reads a field of R(", in.b, "), a ", shapes.Name(v.shape),
                                    " whose constructor is not known here"));
        }
      } else {
        tags.push_back(-1);
      }
      std::optional<uint32_t> field;
      for (int tag : tags) {
        size_t count = 0;
        std::optional<uint32_t> f = shapes.Field(v.shape, tag, in.c, &count);
        if (!f) {
          return Error(absl::StrCat("reads field ", in.c, " of R(", in.b, "), ",
                                    shapes.Name(v.shape), ", which has ", count, " fields",
                                    tag >= 0 ? absl::StrCat(" in constructor ", tag) : ""));
        }
        field = field ? shapes.Join(*field, *f) : f;
        if (!field) return Error("reads a field whose shape differs between constructors");
      }
      if (!shapes.IsReference(*field) && !Plain(in.a, "its result")) return false;
      // Where the field is from: R(b)'s own origin, or R(b).
      int32_t origin = in.b;
      uint64_t path = Val::Extend(0, in.c);
      if (v.origin >= 0) {
        origin = v.origin;
        path = Val::Extend(v.path, in.c);
      }
      uint64_t known = path != 0 ? state_[origin].TagsAt(path) : ~uint64_t{0};
      if (v.origin >= 0) known &= v.TagsAt(Val::Extend(0, in.c));
      WriteShape(in.a, *field, known == ~uint64_t{0} ? ~uint64_t{0} : known & AllTags(*field));
      if (origin != in.a && path != 0 && info_.is_ref[in.a]) {
        state_[in.a].origin = origin;
        state_[in.a].path = path;
        links_ = true;
      }
      break;
    }
    case Op::ARRAY: {
      if (!Window(in.b, in.c, "elements")) return false;
      uint32_t elem = Shapes::kNever;
      for (uint32_t i = 0; i < in.c; ++i) {
        const uint16_t r = static_cast<uint16_t>(in.b + i);
        if ((info_.is_ref[r] != 0) != (in.x == 1)) {
          return Error(absl::StrCat("takes element ", i, " from a register of the wrong class"));
        }
        uint32_t shape = Shapes::kPlain;
        if (in.x == 1) {
          Val v;
          if (!Object(r, "element", &v)) return false;
          shape = v.shape;
        }
        std::optional<uint32_t> joined = shapes.Join(elem, shape);
        if (!joined) return Error("builds an array of elements of different shapes");
        elem = *joined;
      }
      if (in.x == 1) {
        for (uint32_t i = 0; i < in.c; ++i) Clear(static_cast<uint16_t>(in.b + i));
      }
      WriteShape(in.a, shapes.Intern({ShapeKind::kArray, 0, {elem}}));
      break;
    }
    case Op::INDEX: {
      Val v;
      if (!Object(in.b, "the array", &v) || !Plain(in.c, "the index")) return false;
      if (shapes[v.shape].kind != ShapeKind::kArray) {
        return Error(absl::StrCat("indexes R(", in.b, "), ", shapes.Name(v.shape)));
      }
      const uint32_t elem = shapes[v.shape].children[0];
      if (!shapes.IsReference(elem) && !Plain(in.a, "its result")) return false;
      WriteShape(in.a, elem);
      break;
    }
    case Op::LEN: {
      Val v;
      if (!Object(in.b, "the array", &v) || !Plain(in.a, "its result")) return false;
      Write(in.a, Val::Plain());
      break;
    }
    case Op::PUSH: {
      Val xs;
      if (!Object(in.b, "the array", &xs)) return false;
      if (shapes[xs.shape].kind != ShapeKind::kArray) {
        return Error(absl::StrCat("pushes onto R(", in.b, "), ", shapes.Name(xs.shape)));
      }
      if (in.b == in.c) return Error("pushes an array onto itself");
      const uint32_t elem = shapes[xs.shape].children[0];
      uint32_t value = Shapes::kPlain;
      if (in.x == 1) {
        Val v;
        if (!Object(in.c, "the element", &v)) return false;
        value = v.shape;
      } else if (!Plain(in.c, "the element")) {
        return false;
      }
      std::optional<uint32_t> joined = shapes.Join(elem, value);
      if (!joined) {
        return Error(absl::StrCat("pushes ", shapes.Name(value), " onto ", shapes.Name(xs.shape)));
      }
      Clear(in.b);
      WriteShape(in.a, shapes.Intern({ShapeKind::kArray, 0, {*joined}}));
      break;
    }

    case Op::LOADTAG:
      WriteShape(in.a, shapes.Intern({ShapeKind::kNullary, in.b, {}}),
                 in.b < 64 ? uint64_t{1} << in.b : ~uint64_t{0});
      break;
    case Op::JNTAG: {
      Val v;
      if (!Object(in.a, "the variant", &v)) return false;
      const bool refine =
          in.b < 64 && (shapes.IsVariant(v.shape) || shapes[v.shape].kind == ShapeKind::kNullary);
      const uint64_t bit = refine ? uint64_t{1} << in.b : 0;
      if (!refine || (v.tags & ~bit) != 0) {
        successors_.emplace_back(target(in.sc()), state_);
        if (refine) Refine(successors_.back().second, in.a, v.tags & ~bit);
      }
      if (!refine || (v.tags & bit) != 0) {
        if (refine) Refine(state_, in.a, v.tags & bit);
        Next();
      }
      return true;
    }
    case Op::SWITCH: {
      Val v;
      if (!Object(in.a, "the variant", &v)) return false;
      const bool refine = in.b <= 64 && shapes.IsVariant(v.shape);
      for (uint32_t k = 0; k < in.b; ++k) {
        const Instr& entry = f_.code[pc_ + 1 + k];
        uint64_t tags = v.tags;
        if (refine) {
          tags &= k + 1 < in.b ? uint64_t{1} << k : ~((uint64_t{1} << k) - 1);
          if (tags == 0) continue;  // no value of this shape takes this entry
        }
        successors_.emplace_back(pc_ + 1 + k + 1 + entry.sbx(), state_);
        Refine(successors_.back().second, in.a, tags);
      }
      return true;
    }

#define ALEA_BINARY(name, opcode, spelling, semantics) case Op::opcode:
#define ALEA_UNARY(name, opcode, spelling, semantics)
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
      if (!Fits(in.b, Shapes::kTensor, "operand") || !Fits(in.c, Shapes::kTensor, "operand")) {
        return false;
      }
      if (in.x == 3 && in.b == in.c) return Error("moves one register in twice");
      if (in.x & 1) Clear(in.b);
      if (in.x & 2) Clear(in.c);
      WriteShape(in.a, Shapes::kTensor);
      break;
#define ALEA_BINARY(name, opcode, spelling, semantics)
#define ALEA_UNARY(name, opcode, spelling, semantics) case Op::opcode:
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
      if (!Fits(in.b, Shapes::kTensor, "operand")) return false;
      if (in.x & 1) Clear(in.b);
      WriteShape(in.a, Shapes::kTensor);
      break;
    case Op::FUSED_T: {
      const FusedProgram& p = m_.fused[in.b];
      for (const FusedLeaf& leaf : p.leaves) {
        if (leaf.reg >= n)
          return Error(absl::StrCat("has a leaf R(", leaf.reg, ") past its registers"));
        const bool tensor =
            leaf.kind == FusedLeaf::Kind::kTensor || leaf.kind == FusedLeaf::Kind::kBool;
        if (tensor ? !Fits(leaf.reg, Shapes::kTensor, "leaf") : !Plain(leaf.reg, "leaf")) {
          return false;
        }
      }
      // Not fused: the JMP is skipped and the unfused block runs.
      successors_.emplace_back(pc_ + 2, state_);
      // Fused: the moved leaves are consumed, R(a) is the result, the JMP runs.
      for (const FusedLeaf& leaf : p.leaves) {
        if (leaf.moved && leaf.kind == FusedLeaf::Kind::kTensor) Clear(leaf.reg);
      }
      WriteShape(in.a, Shapes::kTensor);
      Next();
      return true;
    }
    case Op::SCALAR_T:
      if (in.c > 3) return Error("makes a tensor of a dtype outside 0..3");
      if (!Plain(in.b, "the value")) return false;
      WriteShape(in.a, Shapes::kTensor);
      break;

    case Op::PRINT:
      if (!Fits(in.a, shapes.OfType(in.b), "the value")) return false;
      break;
    case Op::STR:
      if (!Fits(in.b, shapes.OfType(in.c), "the value")) return false;
      WriteShape(in.a, Shapes::kStr);
      break;

    default:
      if (!Random(in)) return false;
      break;
  }
  Next();
  return true;
}

bool FunctionVerifier::Random(const Instr& in) {
  Shapes& shapes = v_.shapes_;
  releasing_write_ = SamplerSignature(in.op) != nullptr || in.op == Op::KEY || in.op == Op::SPLIT ||
                     in.op == Op::NEXT || in.op == Op::SPLITN || in.op == Op::FOLDIN ||
                     in.op == Op::BOX;
  const uint32_t state_pair =
      shapes.Intern({ShapeKind::kTuple, 0, {Shapes::kRandState, Shapes::kRandState}});
  auto plain_window = [&](uint32_t first, uint32_t count, const char* what) {
    if (!Window(first, count, what)) return false;
    for (uint32_t i = 0; i < count; ++i) {
      if (!Plain(static_cast<uint16_t>(first + i), what)) return false;
    }
    return true;
  };
  auto write_plain = [&](uint32_t first, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) Write(static_cast<uint16_t>(first + i), Val::Plain());
  };
  switch (in.op) {
    case Op::KEY:
      if (!Plain(in.b, "the seed")) return false;
      return WriteShape(in.a, Shapes::kRandState);
    case Op::SPLIT:
    case Op::NEXT:
      if (!Fits(in.b, Shapes::kRandState, "the state")) return false;
      return WriteShape(in.a, state_pair);
    case Op::SPLITN:
      if (!Fits(in.b, Shapes::kRandState, "the state") || !Plain(in.c, "the count")) return false;
      return WriteShape(in.a, shapes.Intern({ShapeKind::kArray, 0, {Shapes::kRandState}}));
    case Op::FOLDIN:
      if (!Fits(in.b, Shapes::kRandState, "the state") || !Plain(in.c, "the data")) return false;
      return WriteShape(in.a, Shapes::kRandState);
    case Op::CONSUME:
      return Fits(in.a, Shapes::kRandState, "the state");
    case Op::UNBOX:
    case Op::PEEK:
      if (!Fits(in.b, Shapes::kRandState, "the state") || !plain_window(in.a, 2, "the words")) {
        return false;
      }
      write_plain(in.a, 2);
      return true;
    case Op::TAKE: {
      const Val& v = state_[in.a];
      if (!info_.is_ref[in.a] || !(v.kind == Val::Kind::kNull ||
                                   ((v.kind == Val::Kind::kRef || v.kind == Val::Kind::kMaybe) &&
                                    v.shape == Shapes::kRandState))) {
        return Error(absl::StrCat("needs R(", in.a, ") to hold a RandState or null; it holds ",
                                  Describe(shapes, v)));
      }
      Clear(in.a);
      return true;
    }
    case Op::BOX:
      if (!plain_window(in.b, 2, "the words")) return false;
      return WriteShape(in.a, Shapes::kRandState);
    case Op::SPLIT_U:
    case Op::NEXT_U:
      if (!plain_window(in.b, 2, "the words") || !plain_window(in.a, 4, "the results"))
        return false;
      write_plain(in.a, 4);
      return true;
    case Op::FOLDIN_U:
      if (!plain_window(in.b, 2, "the words") || !Plain(in.c, "the data") ||
          !plain_window(in.a, 2, "the results")) {
        return false;
      }
      write_plain(in.a, 2);
      return true;
    case Op::SITE:
      if (!plain_window(in.b, 2, "the words") || !plain_window(in.a, 2, "the results"))
        return false;
      write_plain(in.a, 2);
      return true;
    case Op::UNIFORM_S:
    case Op::NORMAL_S:
    case Op::BERNOULLI_S:
    case Op::RANDINT_S:
    case Op::EXPONENTIAL_S: {
      const int count = ScalarDrawRegisters(in.op);
      if (in.c != count) return Error(absl::StrCat("reads ", in.c, " registers; it takes ", count));
      if (!plain_window(in.b, in.c, "the state and parameters") || !Plain(in.a, "its result")) {
        return false;
      }
      return Write(in.a, Val::Plain());
    }
    default:
      break;
  }
  const NativeSignature* sig = SamplerSignature(in.op);
  if (sig == nullptr) return Error("is not verified (an instruction the verifier does not know)");
  if (in.c != sig->params.size()) {
    return Error(absl::StrCat("reads ", in.c, " registers; it takes ", sig->params.size()));
  }
  if (!Window(in.b, in.c, "arguments")) return false;
  absl::InlinedVector<NativeArgument, kMaxNativeArity> args;
  for (uint32_t i = 0; i < in.c; ++i) {
    const uint16_t r = static_cast<uint16_t>(in.b + i);
    NativeArgument a;
    a.in_reference_register = info_.is_ref[r] != 0;
    if (a.in_reference_register) {
      Val v;
      if (!Object(r, "argument", &v)) return false;
      a.shape = v.shape;
    }
    args.push_back(a);
  }
  std::string why;
  std::optional<uint32_t> result = ApplySignature(shapes, *sig, args, &why);
  if (!result) return Error(why);
  return WriteShape(in.a, *result);
}

bool FunctionVerifier::CallNative(const Instr& in) {
  Shapes& shapes = v_.shapes_;
  const NativeInfo& native = v_.natives_[in.b];
  const std::string& name = m_.natives[in.b];
  const size_t arity = native.is_extern ? native.params.size() : native.sig->params.size();
  if (in.c != arity) {
    return Error(
        absl::StrCat("passes ", in.c, " arguments to native `", name, "`, which takes ", arity));
  }
  if (!Window(in.a, uint32_t{in.c} + 1, "its result and arguments")) return false;
  std::optional<uint32_t> result;
  if (native.is_extern) {
    std::vector<uint32_t> params = native.params;
    if (!Call(static_cast<uint16_t>(in.a + 1), in.c, params, "argument")) return false;
    result = native.result;
  } else {
    absl::InlinedVector<NativeArgument, kMaxNativeArity> args;
    for (uint32_t i = 0; i < in.c; ++i) {
      const uint16_t r = static_cast<uint16_t>(in.a + 1 + i);
      const Val& v = state_[r];
      NativeArgument a;
      a.in_reference_register = info_.is_ref[r] != 0;
      if (a.in_reference_register) {
        Val object;
        if (!Object(r, "argument", &object)) return false;
        a.shape = object.shape;
      } else if (v.kind == Val::Kind::kConst) {
        a.constant = v.value;
      } else if (v.kind == Val::Kind::kLent) {
        a.shape = v.shape;
        a.lent = true;
      }
      args.push_back(a);
    }
    if (native.sig->owns_first && (in.c == 0 || !args[0].in_reference_register)) {
      return Error(absl::StrCat("passes native `", name,
                                "` its first argument in a plain register; it owns it"));
    }
    std::string why;
    result = ApplySignature(shapes, *native.sig, args, &why);
    if (!result) return Error(absl::StrCat("calls native `", name, "`: ", why));
    if (native.sig->owns_first) Clear(static_cast<uint16_t>(in.a + 1));
  }
  WriteShape(in.a, *result);
  return CheckDirty(in.a);
}

}  // namespace alea::vm::verifier
