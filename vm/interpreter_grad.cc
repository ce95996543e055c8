// `grad` in the VM (docs/decisions.md "Differentiation"): GRAD runs a
// closure with a tape recording (vm/tape.h), and TapeStep is what the
// interpreter does around each instruction meanwhile: it keeps every
// register's node in shadow_ (moves, calls and returns carry them; a
// container's slots keep theirs on the tape), records the Float operations
// of vm/grad_rules.def, and refuses a tracked operand of anything else
// (CALLN's step: interpreter_grad_natives.cc).
#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vm/random/keys.h"
#include "vm/randstate.h"
#include "vm/runtime_error.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"
#include "vm/vm.h"

namespace alea::vm {
namespace {

// The registers an instruction reads by its operand kinds (opcodes.def),
// for the check that none carries a derivative it would drop.
template <typename F>
void ForEachRead(Instr ins, F&& f) {
  const char* kinds = InfoOf(ins.op).operands;
  if (kinds[1] == 'r') f(ins.a);
  if (kinds[2] == 'r') f(ins.b);
  if (kinds[3] == 'r') f(ins.c);
}

// How many registers from R(a) an instruction writes beyond R(a) itself:
// the unboxed-state opcodes write two or four plain words.
uint32_t ExtraWrites(Op op) {
  switch (op) {
    case Op::UNBOX:
    case Op::PEEK:
    case Op::FOLDIN_U:
    case Op::SITE:
      return 1;
    case Op::SPLIT_U:
    case Op::NEXT_U:
      return 3;
    default:
      return 0;
  }
}

std::string Described(Op op) { return absl::StrCat("`", InfoOf(op).name, "`"); }

}  // namespace

void Vm::FinishTapeStep() {
  TapePost& post = tape_post_;
  if (post.kind == TapePost::Kind::kNone) return;
  const TapePost::Kind kind = post.kind;
  post.kind = TapePost::Kind::kNone;
  Value* r = stack_ + post.base;
  uint32_t* s = shadow_.data() + post.base;
  const Instr ins = post.ins;
  Tape& tape = *tape_;
  switch (kind) {
    case TapePost::Kind::kFloatOp:
      s[ins.a] = tape.Record(post.rule, post.in0, post.in1, post.x, post.y, AsFloat(r[ins.a]));
      return;
    case TapePost::Kind::kContainer: {
      Object* o = AsObject(r[ins.a]);
      // TUPLE's fields start at R(b), ARRAY's elements too, CLOSURE's
      // captures at R(a) (whose node is read before R(a)'s is cleared).
      const uint32_t first = ins.op == Op::CLOSURE ? ins.a : ins.b;
      const uint32_t n = ins.op == Op::TUPLE ? static_cast<uint32_t>(o->length) : ins.c;
      for (uint32_t i = 0; i < n; ++i) tape.SetSlot(o, i, s[first + i]);
      s[ins.a] = 0;
      return;
    }
    case TapePost::Kind::kPush: {
      Object* o = AsObject(r[ins.a]);
      for (uint32_t i = 0; i < post.slots.size(); ++i) tape.SetSlot(o, i, post.slots[i]);
      tape.SetSlot(o, static_cast<uint32_t>(o->length - 1), post.in0);
      s[ins.a] = 0;
      return;
    }
    case TapePost::Kind::kTensorOp: {
      Object* out = post.float_result ? nullptr : AsObject(r[ins.a]);
      const uint32_t node = tape.RecordTensor(post.rule, post.in0, post.in1, post.ta, post.tb, out,
                                              post.aux, post.aux2, post.float_result, post.tc);
      if (post.float_result) {
        s[ins.a] = node;
      } else {
        tape.SetSlot(out, 0, node);
        s[ins.a] = 0;
      }
      return;
    }
    case TapePost::Kind::kTensorParts: {
      // The operands are the native's, borrowed from registers no
      // instruction has written since: alive until the entries keep them.
      Object* out = AsObject(r[ins.a]);
      uint32_t node = 0;
      for (const TapePost::Part& part : post.parts) {
        if (node == 0) {
          node = tape.RecordTensor(post.rule, part.node, 0, part.a, part.b, out, part.aux,
                                   part.aux2, false);
        } else {
          tape.RecordTensorPart(post.rule, part.node, part.a, part.b, part.aux, part.aux2);
        }
      }
      tape.SetSlot(out, 0, node);
      s[ins.a] = 0;
      return;
    }
    case TapePost::Kind::kNone:
      return;
  }
}

Vm::TapeOutcome Vm::TapeTensorOp(GradRule rule, Instr ins, uint32_t in0, uint32_t in1, Object* a,
                                 Object* b, int64_t aux, int64_t aux2, bool float_result) {
  // Kept before the operation runs: a moved operand held once would
  // otherwise be overwritten by its result, or freed.
  if (a != nullptr) tape_->Keep(a);
  if (b != nullptr) tape_->Keep(b);
  tape_post_ = {};
  tape_post_.kind = TapePost::Kind::kTensorOp;
  tape_post_.ins = ins;
  tape_post_.base = frames_[depth_ - 1].base;
  tape_post_.rule = rule;
  tape_post_.in0 = in0;
  tape_post_.in1 = in1;
  tape_post_.ta = a;
  tape_post_.tb = b;
  tape_post_.aux = aux;
  tape_post_.aux2 = aux2;
  tape_post_.float_result = float_result;
  return TapeOutcome::kProceed;
}

void Vm::TapeFloatOp(GradRule rule, Instr ins, uint32_t in0, uint32_t in1, double x, double y) {
  tape_post_ = {};
  tape_post_.kind = TapePost::Kind::kFloatOp;
  tape_post_.ins = ins;
  tape_post_.base = frames_[depth_ - 1].base;
  tape_post_.rule = rule;
  tape_post_.in0 = in0;
  tape_post_.in1 = in1;
  tape_post_.x = x;
  tape_post_.y = y;
}

Vm::TapeOutcome Vm::TapeStep(Instr ins) {
  if (shadow_.size() < stack_capacity_) shadow_.resize(stack_capacity_, 0);
  FinishTapeStep();
  const Frame& frame = frames_[depth_ - 1];
  Value* r = stack_ + frame.base;
  uint32_t* s = shadow_.data() + frame.base;
  Tape& tape = *tape_;
  const uint16_t a = ins.a, b = ins.b, c = ins.c;
  auto fail = [&](std::string what) {
    Raise(RuntimeErrorId::kGradUnsupported, what);
    return TapeOutcome::kFailed;
  };
  switch (ins.op) {
    case Op::MOVE:
    case Op::COPY:
      s[a] = s[b];
      return TapeOutcome::kProceed;
    case Op::FIELD:
      s[a] = tape.Slot(AsObject(r[b]), c);
      return TapeOutcome::kProceed;
    case Op::GETCAP:
      s[a] = tape.Slot(frame.closure, b);
      return TapeOutcome::kProceed;
    case Op::INDEX: {
      const int64_t i = AsInt(r[c]);
      s[a] = i >= 0 && i <= UINT32_MAX ? tape.Slot(AsObject(r[b]), static_cast<uint32_t>(i)) : 0;
      return TapeOutcome::kProceed;
    }
    case Op::TUPLE:
    case Op::ARRAY:
    case Op::CLOSURE:
      tape_post_.kind = TapePost::Kind::kContainer;
      tape_post_.ins = ins;
      tape_post_.base = frame.base;
      return TapeOutcome::kProceed;
    case Op::PUSH: {
      const Object* xs = AsObject(r[b]);
      tape_post_.slots.clear();
      if (tape.Tracks(xs) || s[c] != 0) {
        for (uint32_t i = 0; i < xs->length; ++i) tape_post_.slots.push_back(tape.Slot(xs, i));
        tape_post_.kind = TapePost::Kind::kPush;
        tape_post_.ins = ins;
        tape_post_.base = frame.base;
        tape_post_.in0 = s[c];
      }
      s[a] = 0;
      return TapeOutcome::kProceed;
    }
    case Op::CALL:
    case Op::CALLC: {
      const FuncInfo& callee = funcs_[ins.op == Op::CALL ? b : AsObject(r[b])->function];
      // The callee's own registers start with no node; its parameters keep
      // the arguments'.
      const uint32_t end = std::min<size_t>(a + callee.num_registers, shadow_.size() - frame.base);
      for (uint32_t i = a + c; i < end; ++i) s[i] = 0;
      return TapeOutcome::kProceed;
    }
    case Op::TAILCALL:
    case Op::TAILCALLC: {
      const FuncInfo& callee = funcs_[ins.op == Op::TAILCALL ? b : AsObject(r[b])->function];
      if (a != 0) {
        for (uint32_t i = 0; i < c; ++i) s[i] = s[a + i];
      }
      // (The stack may grow for the callee after this step: what lies
      // beyond the shadow now is cleared when the shadow grows.)
      const size_t top = std::min<size_t>(std::max(callee.num_registers, frame.fn->num_registers),
                                          shadow_.size() - frame.base);
      for (size_t i = c; i < top; ++i) s[i] = 0;
      return TapeOutcome::kProceed;
    }
    case Op::RET:
      if (frame.boundary) {
        tape.boundary_node = s[a];
      } else {
        s[0] = s[a];
      }
      return TapeOutcome::kProceed;
    case Op::CALLN:
      return TapeNative(ins, r, s);
    case Op::GRAD:
      Raise(RuntimeErrorId::kGradNested);
      return TapeOutcome::kFailed;
    case Op::FUSED_T:
      // Never fused while recording: the unfused block after the JMP
      // computes the same bits one operation at a time, each on the tape.
      frames_[depth_ - 1].pc += 1;
      s[a] = 0;
      return TapeOutcome::kDone;
    default:
      break;
  }
  const GradRule rule = GradRuleOfOp(ins.op);
  if (IsTensorRule(rule)) {
    if (ins.op == Op::DROPOUT) {
      // dropout(state, x, rate): x's node; the rate a constant.
      if (s[b + 2] != 0) return fail("the rate of `dropout`");
      Object* x = AsObject(r[b + 1]);
      const uint32_t in0 = tape.Slot(x, 0);
      if (in0 == 0) {
        s[a] = 0;
        return TapeOutcome::kProceed;
      }
      const random::Key key = random::EffectiveKey(StateOf(AsObject(r[b])));
      const int64_t packed = static_cast<int64_t>((uint64_t{key.k0} << 32) | key.k1);
      return TapeTensorOp(rule, ins, in0, 0, x, nullptr, packed,
                          std::bit_cast<int64_t>(AsFloat(r[b + 2])), false);
    }
    if (ins.op == Op::SCALAR_T) {
      if (s[b] == 0) {
        s[a] = 0;
        return TapeOutcome::kProceed;
      }
      if (c != static_cast<uint16_t>(DType::kF32)) return fail("a conversion to an integer tensor");
      return TapeTensorOp(rule, ins, s[b], 0, nullptr, nullptr, 0, 0, false);
    }
    const bool binary = InfoOf(ins.op).operands[3] == 'r';
    Object* ta = AsObject(r[b]);
    Object* tb = binary ? AsObject(r[c]) : nullptr;
    const uint32_t in0 = tape.Slot(ta, 0);
    const uint32_t in1 = binary ? tape.Slot(tb, 0) : 0;
    if (in0 == 0 && in1 == 0) {
      s[a] = 0;
      return TapeOutcome::kProceed;
    }
    return TapeTensorOp(rule, ins, in0, in1, ta, tb, 0, 0, false);
  }
  if (rule != GradRule::kNone && rule != GradRule::kZero) {
    const bool binary = InfoOf(ins.op).operands[3] == 'r';
    const uint32_t in0 = s[b], in1 = binary ? s[c] : 0;
    if (in0 != 0 || in1 != 0) {
      TapeFloatOp(rule, ins, in0, in1, AsFloat(r[b]), binary ? AsFloat(r[c]) : 0.0);
    } else {
      s[a] = 0;
    }
    return TapeOutcome::kProceed;
  }
  if (rule == GradRule::kNone) {
    // A register that carries a derivative: a Float's node, or a tensor's.
    auto carries = [&](uint32_t reg) {
      return s[reg] != 0 ||
             (frame.fn->is_ref[reg] && r[reg] != 0 && tape.TracksTensor(AsObject(r[reg])));
    };
    bool tracked = false;
    ForEachRead(ins, [&](uint16_t reg) { tracked = tracked || carries(reg); });
    // The samplers and scalar draws read a window of c registers from R(b).
    if (IsDraw(ins.op)) {
      for (uint32_t i = 0; i < c && b + i < shadow_.size() - frame.base; ++i) {
        tracked = tracked || carries(b + i);
      }
    }
    if (tracked) return fail(Described(ins.op));
  }
  if (InfoOf(ins.op).operands[1] == 'w') {
    for (uint32_t i = 0; i <= ExtraWrites(ins.op); ++i) s[a + i] = 0;
  }
  return TapeOutcome::kProceed;
}

bool Vm::AssignLeaves(Tape& tape, Value v, uint32_t type, uint32_t* node, int depth) {
  const TypeDesc& t = module_->types[type];
  if (depth > 400) {
    Raise(RuntimeErrorId::kGradUnsupported, "a value nested this deeply");
    return false;
  }
  auto fields = [&](Object* o, const std::vector<uint32_t>& types) {
    for (uint32_t i = 0; i < types.size() && i < o->length; ++i) {
      const TypeDesc& f = module_->types[types[i]];
      if (f.kind == TypeDesc::Kind::kFloat) {
        tape.SetSlot(o, i, tape.NewLeaf(false));
      } else if (f.is_reference()) {
        uint32_t unused = 0;
        if (!AssignLeaves(tape, Slots(o)[i], types[i], &unused, depth + 1)) return false;
      }
    }
    return true;
  };
  switch (t.kind) {
    case TypeDesc::Kind::kFloat:
      *node = tape.NewLeaf(false);
      return true;
    case TypeDesc::Kind::kTuple:
    case TypeDesc::Kind::kRecord:
    case TypeDesc::Kind::kCase:
      return fields(AsObject(v), t.children);
    case TypeDesc::Kind::kVariant: {
      Object* o = AsObject(v);
      if (o->tag >= t.cases.size()) return true;
      return fields(o, t.cases[o->tag]);
    }
    case TypeDesc::Kind::kArray: {
      Object* o = AsObject(v);
      std::vector<uint32_t> types(o->length, t.children[0]);
      return fields(o, types);
    }
    case TypeDesc::Kind::kTensor: {
      // An f32 tensor is a leaf (once: a tensor met twice is one leaf);
      // another dtype is given back as it is.
      Object* o = AsObject(v);
      if (DTypeOf(o) == DType::kF32 && !tape.Tracks(o)) tape.SetSlot(o, 0, tape.NewLeaf(true));
      return true;
    }
    case TypeDesc::Kind::kFunction:
    case TypeDesc::Kind::kRandState:
      Raise(RuntimeErrorId::kGradUnsupported, "a function or a RandState");
      return false;
    default:
      return true;
  }
}

bool Vm::BuildGradient(const Tape& tape, Value v, uint32_t type, uint32_t node, Value* out,
                       int depth) {
  const TypeDesc& t = module_->types[type];
  auto rebuild = [&](Object* src, const std::vector<uint32_t>& types) -> bool {
    Object* o = src->kind == ObjKind::kArray
                    ? heap_.NewArray(src->length, src->elements_are_refs != 0)
                    : heap_.NewTuple(src->length);
    if (o == nullptr) {
      RaiseOutOfMemory();
      return false;
    }
    o->tag = src->tag;
    for (uint32_t i = 0; i < src->length; ++i) {
      const uint32_t ft = i < types.size() ? types[i] : 0;
      const TypeDesc& f = module_->types[ft];
      Value x = Slots(src)[i];
      if (f.kind == TypeDesc::Kind::kFloat) {
        x = FromFloat(tape.Adjoint(tape.Slot(src, i)));
      } else if (f.is_reference()) {
        if (!BuildGradient(tape, x, ft, 0, &x, depth + 1)) {
          for (uint32_t k = i; k < src->length; ++k) Slots(o)[k] = 0;
          heap_.Release(o);
          return false;
        }
      }
      Slots(o)[i] = x;
      if (src->kind != ObjKind::kArray) Mask(o)[i] = Mask(src)[i];
    }
    *out = FromObject(o);
    return true;
  };
  switch (t.kind) {
    case TypeDesc::Kind::kFloat:
      *out = FromFloat(tape.Adjoint(node));
      return true;
    case TypeDesc::Kind::kTensor: {
      Object* o = AsObject(v);
      if (DTypeOf(o) != DType::kF32) {
        Retain(v);
        *out = v;
        return true;
      }
      // Its adjoint, or zeros where nothing reached it.
      Object* g = tape.TensorAdjoint(tape.Slot(o, 0));
      if (g != nullptr) {
        ++g->refcount;
      } else {
        TensorContext cx = Tensors(0);
        g = Full(cx, DType::kF32, ShapeOf(o), 0);
        if (g == nullptr) {
          RaiseTensorFailure(cx);
          return false;
        }
      }
      *out = FromObject(g);
      return true;
    }
    case TypeDesc::Kind::kTuple:
    case TypeDesc::Kind::kRecord:
    case TypeDesc::Kind::kCase:
      return rebuild(AsObject(v), t.children);
    case TypeDesc::Kind::kVariant: {
      Object* o = AsObject(v);
      // A constructor without fields is a shared object: itself.
      if (o->length == 0 || o->tag >= t.cases.size()) {
        Retain(v);
        *out = v;
        return true;
      }
      return rebuild(o, t.cases[o->tag]);
    }
    case TypeDesc::Kind::kArray: {
      Object* o = AsObject(v);
      std::vector<uint32_t> types(o->length, t.children[0]);
      return rebuild(o, types);
    }
    default:
      // Not differentiable: given back as it is.
      if (t.is_reference()) Retain(v);
      *out = v;
      return true;
  }
}

bool Vm::GradCall(Instr ins) {
  if (tape_ != nullptr) {
    Raise(RuntimeErrorId::kGradNested);
    return false;
  }
  const Frame& frame = frames_[depth_ - 1];
  Value* r = stack_ + frame.base;
  Object* closure = AsObject(r[ins.b]);
  const uint32_t index = closure->function;
  const Function& fn = module_->functions[index];
  if (ins.c != funcs_[index].num_params || fn.param_types.empty()) {
    Raise(RuntimeErrorId::kBadCall, "a closure differentiated with the wrong number of arguments");
    return false;
  }
  const uint32_t site = frame.fn->first_site + static_cast<uint32_t>(frame.pc - 1 - frame.fn->code);
  std::unique_ptr<Tape>& kept = grad_tapes_[site];
  if (kept == nullptr) kept = std::make_unique<Tape>();
  Tape& tape = *kept;
  tape.Reset(heap_);

  // The first argument stays alive after the call consumed it: the
  // gradient is built over its shape.
  const uint32_t first_type = fn.param_types[0];
  const bool first_is_ref = module_->types[first_type].is_reference();
  const Value first = r[ins.a];
  if (first_is_ref && first != 0) Retain(first);
  auto drop_first = [&] {
    if (first_is_ref && first != 0) heap_.ReleaseValue(first);
  };
  uint32_t first_node = 0;
  std::vector<Value> args(r + ins.a, r + ins.a + ins.c);
  for (uint32_t i = 0; i < ins.c; ++i) r[ins.a + i] = 0;
  if (!AssignLeaves(tape, first, first_type, &first_node, 0)) {
    const FuncInfo& f = funcs_[index];
    for (size_t i = 0; i < args.size(); ++i) {
      if (f.is_ref[i] && args[i] != 0) heap_.ReleaseValue(args[i]);
    }
    drop_first();
    tape.Reset(heap_);
    return false;
  }
  tape.call_nodes.assign(1, first_node);
  tape.boundary_node = 0;
  ++closure->refcount;  // Invoke's, released with its frame
  tape_ = &tape;
  tape_post_.kind = TapePost::Kind::kNone;
  Value result = 0;
  bool result_is_ref = false;
  const bool ok = Invoke(index, closure, args, &result, &result_is_ref);
  tape_ = nullptr;
  tape_post_.kind = TapePost::Kind::kNone;
  if (!ok) {
    drop_first();
    tape.Reset(heap_);
    return false;
  }
  // The result: a Float, or a tensor of one element (its node on the tape).
  uint32_t result_node = tape.boundary_node;
  const Object* result_tensor = nullptr;
  if (result_is_ref) {
    result_tensor = AsObject(result);
    if (result_tensor->kind != ObjKind::kTensor || DTypeOf(result_tensor) != DType::kF32 ||
        SizeOf(result_tensor) != 1) {
      Raise(RuntimeErrorId::kGradResultShape, result_tensor->kind == ObjKind::kTensor
                                                  ? ShapeString(ShapeOf(result_tensor))
                                                  : std::string("?"));
      heap_.ReleaseValue(result);
      drop_first();
      tape.Reset(heap_);
      return false;
    }
    result_node = tape.Slot(result_tensor, 0);
  }
  TensorContext cx = Tensors(0);
  const bool backward = tape.Backward(result_node, result_tensor, cx);
  if (ins.x == 0 && result_is_ref) heap_.ReleaseValue(result);
  if (!backward) {
    RaiseTensorFailure(cx);
    if (ins.x != 0 && result_is_ref) heap_.ReleaseValue(result);
    drop_first();
    tape.Reset(heap_);
    return false;
  }
  // Sites for the next call's backward tensors, once this one showed how
  // many it makes (doubled: a path that grows needs no new block soon).
  if (tape.sites_wanted() > tape.sites_reserved() &&
      free_site_ <= UINT32_MAX - 2 * uint64_t{tape.sites_wanted()}) {
    tape.SetSites(free_site_, 2 * tape.sites_wanted());
    free_site_ += 2 * tape.sites_wanted();
  }
  Value gradient = 0;
  const bool built = BuildGradient(tape, first, first_type, first_node, &gradient, 0);
  drop_first();
  tape.Reset(heap_);
  if (!built) return false;
  r = stack_ + frames_[depth_ - 1].base;
  if (ins.x == 0) {
    r[ins.a] = gradient;
    return true;
  }
  Object* pair = heap_.NewTuple(2);
  if (pair == nullptr) {
    if (first_is_ref) heap_.ReleaseValue(gradient);
    RaiseOutOfMemory();
    return false;
  }
  Slots(pair)[0] = result;
  Mask(pair)[0] = result_is_ref ? 1 : 0;
  Slots(pair)[1] = gradient;
  Mask(pair)[1] = first_is_ref ? 1 : 0;
  r[ins.a] = FromObject(pair);
  return true;
}

}  // namespace alea::vm
