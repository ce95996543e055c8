// `grad`'s taping step of CALLN (docs/decisions.md "Differentiation"):
// natives with a rule of vm/grad_rules.def (Float functions, tensor
// operations), natives that carry derivatives and say where they went
// (NativeContext's node calls, below), and the check that no other native
// reads what carries a derivative.
#include <algorithm>
#include <cctype>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "vm/kernels/reduce.h"
#include "vm/native.h"
#include "vm/runtime_error.h"
#include "vm/tape.h"
#include "vm/tensor.h"
#include "vm/vm.h"

namespace alea::vm {
namespace {

// A native as the language names it: the word its line in vm/natives.def
// begins its semantics with (`concat` for t_concat), or its own name.
std::string DescribedNative(std::string_view name) {
  static const auto* const kWords = [] {
    auto* words = new absl::flat_hash_map<std::string_view, std::string_view>();
    auto add = [&](std::string_view native, std::string_view semantics) {
      const size_t paren = semantics.find('(');
      const std::string_view word = semantics.substr(0, paren);
      const bool identifier =
          paren != std::string_view::npos && !word.empty() &&
          std::all_of(word.begin(), word.end(), [](char c) { return std::isalnum(c) || c == '_'; });
      words->emplace(native, identifier ? word : native);
    };
#define ALEA_NATIVE(name, arity, signature, semantics) add(#name, semantics);
#define ALEA_NATIVE_OWNING(name, arity, signature, semantics) add(#name, semantics);
#include "vm/natives.def"
#undef ALEA_NATIVE
#undef ALEA_NATIVE_OWNING
    return words;
  }();
  auto it = kWords->find(name);
  return absl::StrCat("`", std::string(it == kWords->end() ? name : it->second), "`");
}

}  // namespace

bool Vm::HoldsDerivative(const Object* o, int depth) const {
  if (tape_->Tracks(o)) return true;
  if (depth > 64) return true;  // too deep to look: assume the worst
  switch (o->kind) {
    case ObjKind::kTuple:
    case ObjKind::kArray:
    case ObjKind::kClosure:
      for (uint64_t i = 0; i < o->length; ++i) {
        const Value v = Slots(o)[i];
        if (v != 0 && SlotIsRef(o, i) && HoldsDerivative(AsObject(v), depth + 1)) return true;
      }
      return false;
    default:
      return false;
  }
}

Vm::TapeOutcome Vm::TapeTensorNative(GradRule rule, Instr ins, Value* r, uint32_t* s) {
  Tape& tape = *tape_;
  const uint32_t arg = ins.a + 1u;
  auto fail = [&](std::string what) {
    Raise(RuntimeErrorId::kGradUnsupported, what);
    return TapeOutcome::kFailed;
  };
  auto untracked = [&] {
    s[ins.a] = 0;
    return TapeOutcome::kProceed;
  };
  auto parts = [&](std::vector<TapePost::Part> list) {
    if (list.empty()) return untracked();
    tape_post_ = {};
    tape_post_.kind = TapePost::Kind::kTensorParts;
    tape_post_.ins = ins;
    tape_post_.base = frames_[depth_ - 1].base;
    tape_post_.rule = rule;
    tape_post_.parts = std::move(list);
    return TapeOutcome::kProceed;
  };
  switch (rule) {
    case GradRule::kTensorNative_t_where: {
      // where(mask, a, b): a's share where the mask holds, b's elsewhere.
      Object* mask = AsObject(r[arg]);
      std::vector<TapePost::Part> list;
      for (int k = 0; k < 2; ++k) {
        Object* x = AsObject(r[arg + 1 + k]);
        if (const uint32_t node = tape.Slot(x, 0); node != 0) list.push_back({node, mask, x, k, 0});
      }
      return parts(std::move(list));
    }
    case GradRule::kTensorNative_t_tensor: {
      // One part per Float that carries a derivative, at its row-major
      // position.
      std::vector<TapePost::Part> list;
      int64_t flat = 0;
      std::function<void(const Object*, int)> walk = [&](const Object* xs, int depth) {
        if (xs->kind != ObjKind::kArray || depth > 64) return;
        if (xs->elements_are_refs) {
          for (uint64_t i = 0; i < xs->length; ++i) walk(AsObject(Slots(xs)[i]), depth + 1);
          return;
        }
        for (uint64_t i = 0; i < xs->length; ++i, ++flat) {
          const uint32_t node = tape.Slot(xs, static_cast<uint32_t>(i));
          if (node != 0) list.push_back({node, nullptr, nullptr, flat, 0});
        }
      };
      walk(AsObject(r[arg]), 0);
      return parts(std::move(list));
    }
    case GradRule::kTensorNative_t_full_f:
    case GradRule::kTensorNative_t_linspace: {
      // Float operands, by their registers' nodes: full's value (arg 1);
      // linspace's ends (args 0 and 1).
      const bool full = rule == GradRule::kTensorNative_t_full_f;
      const uint32_t in0 = s[full ? arg + 1 : arg];
      const uint32_t in1 = full ? 0 : s[arg + 1];
      if (in0 == 0 && in1 == 0) return untracked();
      return TapeTensorOp(rule, ins, in0, in1, nullptr, nullptr, 0, 0, false);
    }
    case GradRule::kTensorNative_t_concat:
    case GradRule::kTensorNative_t_stack: {
      // One part per tensor of the array: its place along the axis (concat:
      // its offset; stack: its index).
      Object* xs = AsObject(r[arg]);
      if (xs->length == 0) return untracked();
      const int64_t rank =
          RankOf(AsObject(Slots(xs)[0])) + (rule == GradRule::kTensorNative_t_stack ? 1 : 0);
      int64_t axis = AsInt(r[arg + 1]);
      if (axis < 0) axis += rank;
      std::vector<TapePost::Part> list;
      int64_t offset = 0;
      for (uint64_t i = 0; i < xs->length; ++i) {
        Object* x = AsObject(Slots(xs)[i]);
        const uint32_t node = tape.Slot(x, 0);
        const int64_t at =
            rule == GradRule::kTensorNative_t_stack ? static_cast<int64_t>(i) : offset;
        if (node != 0) list.push_back({node, x, nullptr, axis, at});
        if (axis >= 0 && axis < RankOf(x)) offset += ShapeOf(x)[static_cast<size_t>(axis)];
      }
      return parts(std::move(list));
    }
    default:
      break;
  }
  Object* x = AsObject(r[arg]);
  const uint32_t in0 = tape.Slot(x, 0);
  Object* y = nullptr;
  Object* third = nullptr;
  uint32_t in1 = 0;
  int64_t aux = 0, aux2 = 0;
  switch (rule) {
    case GradRule::kTensorNative_t_matmul:
    case GradRule::kTensorNative_t_matmul_t:
      y = AsObject(r[arg + 1]);
      if (rule == GradRule::kTensorNative_t_matmul_t) aux = AsInt(r[arg + 2]);
      in1 = tape.Slot(y, 0);
      break;
    case GradRule::kTensorNative_t_item:
    case GradRule::kTensorNative_t_reshape:
    case GradRule::kTensorNative_t_transpose:
    case GradRule::kTensorNative_t_cumsum:
    case GradRule::kTensorNative_t_cumprod:
    case GradRule::kTensorNative_t_inv:
    case GradRule::kTensorNative_t_det:
    case GradRule::kTensorNative_t_cholesky:
      break;  // nothing but the operand (and its shape, kept with it)
    case GradRule::kTensorNative_t_cast:
      // To f32 the identity; to another dtype the result carries nothing.
      if (AsInt(r[arg + 1]) != static_cast<int64_t>(DType::kF32)) return untracked();
      break;
    case GradRule::kTensorNative_t_cumsum_axis:
    case GradRule::kTensorNative_t_cumprod_axis:
    case GradRule::kTensorNative_t_roll:
    case GradRule::kTensorNative_t_sort:
    case GradRule::kTensorNative_t_softmax:
    case GradRule::kTensorNative_t_index:
      aux = AsInt(r[arg + 1]);  // the axis, the shift or the index
      break;
    case GradRule::kTensorNative_t_roll_axis:
    case GradRule::kTensorNative_t_slice:
      aux = AsInt(r[arg + 1]);
      aux2 = AsInt(r[arg + 2]);
      break;
    case GradRule::kTensorNative_t_mask_select:
      y = AsObject(r[arg + 1]);  // the mask
      break;
    case GradRule::kTensorNative_t_subscript: {
      // The spec array, and the index tensor when an item reads one (the
      // backward step selects the same way from the elements' positions).
      y = AsObject(r[arg + 1]);
      if (frames_[depth_ - 1].fn->is_ref[arg + 2] && r[arg + 2] != 0 &&
          AsObject(r[arg + 2])->kind == ObjKind::kTensor) {
        third = AsObject(r[arg + 2]);
      }
      break;
    }
    case GradRule::kTensorNative_t_set_int:
    case GradRule::kTensorNative_t_add_at_int:
      // update(x, i, v, axis): v the second operand, i and the axis.
      y = AsObject(r[arg + 2]);
      in1 = tape.Slot(y, 0);
      aux = AsInt(r[arg + 1]);
      aux2 = AsInt(r[arg + 3]);
      break;
    case GradRule::kTensorNative_t_set_tuple:
    case GradRule::kTensorNative_t_add_at_tuple:
    case GradRule::kTensorNative_t_set_take:
    case GradRule::kTensorNative_t_add_at_take:
    case GradRule::kTensorNative_t_set_mask:
    case GradRule::kTensorNative_t_add_at_mask:
      // update(x, index, v[, axis]): the index (a tuple of Ints, an index
      // tensor or a mask) the third operand.
      y = AsObject(r[arg + 2]);
      in1 = tape.Slot(y, 0);
      third = AsObject(r[arg + 1]);
      if (rule == GradRule::kTensorNative_t_set_take ||
          rule == GradRule::kTensorNative_t_add_at_take) {
        aux2 = AsInt(r[arg + 3]);
      }
      break;
    case GradRule::kTensorNative_t_bincount_weights: {
      // bincount(idx, length, weights): the weights' node, idx kept.
      Object* weights = AsObject(r[arg + 2]);
      const uint32_t node = tape.Slot(weights, 0);
      if (node == 0) return untracked();
      return TapeTensorOp(rule, ins, node, 0, weights, x, 0, 0, false);
    }
    case GradRule::kTensorNative_t_solve:
    case GradRule::kTensorNative_t_solve_triangular:
      y = AsObject(r[arg + 1]);
      in1 = tape.Slot(y, 0);
      if (rule == GradRule::kTensorNative_t_solve_triangular) aux = r[arg + 2] != 0 ? 1 : 0;
      break;
    case GradRule::kTensorNative_t_take:
      // take(x, idx, axis): the index tensor kept as the second operand.
      y = AsObject(r[arg + 1]);
      aux = AsInt(r[arg + 2]);
      break;
    case GradRule::kTensorNative_t_reduce:
    case GradRule::kTensorNative_t_reduce_axis:
    case GradRule::kTensorNative_t_reduce_axis_t:
    case GradRule::kTensorNative_t_reduce_ddof:
    case GradRule::kTensorNative_t_reduce_ddof_axis: {
      // aux: the op, with var's and std's ddof above its low 8 bits; aux2:
      // the axis.
      aux = AsInt(r[arg + 1]);
      const bool ddof = rule == GradRule::kTensorNative_t_reduce_ddof ||
                        rule == GradRule::kTensorNative_t_reduce_ddof_axis;
      const bool axis =
          rule != GradRule::kTensorNative_t_reduce && rule != GradRule::kTensorNative_t_reduce_ddof;
      if (axis) aux2 = AsInt(r[arg + 2]);
      using kernels::ReduceOp;
      const auto op = static_cast<ReduceOp>(aux);
      if (op == ReduceOp::kArgmax || op == ReduceOp::kArgmin || op == ReduceOp::kAny ||
          op == ReduceOp::kAll) {
        return untracked();  // an index or a bool: no derivative
      }
      if (ddof) {
        const int64_t d = AsInt(r[arg + (axis ? 3 : 2)]);
        if (d < -(int64_t{1} << 40) || d > (int64_t{1} << 40)) return fail("this `ddof`");
        aux = static_cast<int64_t>(static_cast<uint64_t>(d) << 8) | aux;
      }
      break;
    }
    default:
      break;
  }
  // The backward steps that select by the elements' positions number them
  // in i32.
  const bool by_positions = IsUpdateRule(rule) || rule == GradRule::kTensorNative_t_subscript ||
                            rule == GradRule::kTensorNative_t_mask_select ||
                            rule == GradRule::kTensorNative_t_sort;
  if (by_positions && (in0 != 0 || in1 != 0) && SizeOf(x) > INT32_MAX) {
    return fail("selecting from a tensor this large");
  }
  if (in0 == 0 && in1 == 0) return untracked();
  const TapeOutcome outcome =
      TapeTensorOp(rule, ins, in0, in1, x, y, aux, aux2, rule == GradRule::kTensorNative_t_item);
  if (third != nullptr) {
    tape.Keep(third);
    tape_post_.tc = third;
  }
  return outcome;
}

Vm::TapeOutcome Vm::TapeNative(Instr ins, Value* r, uint32_t* s) {
  const BoundNative& native = natives_[ins.b];
  const std::string& name = module_->natives[ins.b];
  const GradRule rule = GradRuleOfNative(name);
  if (rule == GradRule::kCarry) {
    s[ins.a] = 0;  // or what the native says (CallNative)
    return TapeOutcome::kProceed;
  }
  bool tracked = false;
  for (int i = 0; i < native.arity; ++i) {
    const uint32_t reg = ins.a + 1 + static_cast<uint32_t>(i);
    tracked = tracked || s[reg] != 0;
    // A container or closure holding what carries a derivative, however
    // deep (Floats, tensors): the native would read it without its node.
    if (rule == GradRule::kNone && frames_[depth_ - 1].fn->is_ref[reg] && r[reg] != 0 &&
        HoldsDerivative(AsObject(r[reg]), 0)) {
      tracked = true;
    }
  }
  if (IsTensorRule(rule)) return TapeTensorNative(rule, ins, r, s);
  if (!tracked) {
    s[ins.a] = 0;
    return TapeOutcome::kProceed;
  }
  if (rule == GradRule::kNone) {
    Raise(RuntimeErrorId::kGradUnsupported, DescribedNative(name));
    return TapeOutcome::kFailed;
  }
  if (rule == GradRule::kZero) {
    s[ins.a] = 0;
    return TapeOutcome::kProceed;
  }
  const bool binary = native.arity > 1;
  TapeFloatOp(rule, ins, s[ins.a + 1], binary ? s[ins.a + 2] : 0, AsFloat(r[ins.a + 1]),
              binary ? AsFloat(r[ins.a + 2]) : 0.0);
  return TapeOutcome::kProceed;
}

bool NativeContext::recording() const { return vm_->tape_ != nullptr; }

uint32_t NativeContext::ArgNode(int i) const {
  if (vm_->tape_ == nullptr) return 0;
  const size_t reg = vm_->frames_[vm_->depth_ - 1].base + a_ + 1 + static_cast<size_t>(i);
  return reg < vm_->shadow_.size() ? vm_->shadow_[reg] : 0;
}

uint32_t NativeContext::SlotNode(const Object* o, uint64_t i) const {
  if (vm_->tape_ == nullptr || i > UINT32_MAX) return 0;
  return vm_->tape_->Slot(o, static_cast<uint32_t>(i));
}

void NativeContext::SetSlotNode(Object* o, uint64_t i, uint32_t node) {
  if (vm_->tape_ == nullptr || i > UINT32_MAX) return;
  vm_->tape_->SetSlot(o, static_cast<uint32_t>(i), node);
}

void NativeContext::CarrySlots(const Object* from, uint64_t first, Object* to, uint64_t at,
                               uint64_t n) {
  if (vm_->tape_ == nullptr || !vm_->tape_->Tracks(from)) return;
  for (uint64_t i = 0; i < n; ++i) SetSlotNode(to, at + i, SlotNode(from, first + i));
}

absl::StatusOr<Value> NativeContext::Call(Value f, absl::Span<const Value> args,
                                          absl::Span<const uint32_t> nodes) {
  if (vm_->tape_ == nullptr) return Call(f, args);
  vm_->tape_->call_nodes.assign(nodes.begin(), nodes.end());
  vm_->tape_->boundary_node = 0;
  absl::StatusOr<Value> result = Call(f, args);
  vm_->tape_->call_nodes.clear();
  return result;
}

uint32_t NativeContext::CallResultNode() const {
  return vm_->tape_ == nullptr ? 0 : vm_->tape_->boundary_node;
}

uint32_t NativeContext::ScaledNode(uint32_t x, double w) {
  if (vm_->tape_ == nullptr || x == 0) return 0;
  return w == 1.0 ? x : vm_->tape_->Record(GradRule::kOp_MUL_F, x, 0, 0.0, w, 0.0);
}

uint32_t NativeContext::ProductNode(uint32_t x, uint32_t y, double xv, double yv) {
  if (vm_->tape_ == nullptr || (x == 0 && y == 0)) return 0;
  return vm_->tape_->Record(GradRule::kOp_MUL_F, x, y, xv, yv, xv * yv);
}

uint32_t NativeContext::SumNode(uint32_t x, uint32_t y) {
  if (vm_->tape_ == nullptr || (x == 0 && y == 0)) return x | y;
  if (x == 0 || y == 0) return x | y;  // the same Float: the same node
  return vm_->tape_->Record(GradRule::kOp_ADD_F, x, y, 0.0, 0.0, 0.0);
}

}  // namespace alea::vm
