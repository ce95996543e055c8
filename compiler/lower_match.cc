// Patterns: `match` arms (literal tests, tuple components, guards) and the
// irrefutable patterns of `let` and parameters.
//
// A failed test jumps to the next arm with no temporary reference alive: a
// nested tuple is extracted into a temporary that is released on both the
// success and the failure path.
#include "compiler/internal.h"

namespace alea::compiler {

namespace types = lang::types;
using vm::Instr;
using vm::Op;

namespace {

// Whether the constructor of a kCtor pattern must be tested (its type has others).
bool TestsTag(const Pattern& p) {
  return p.kind == Pattern::Kind::kCtor && p.ctor != nullptr && p.ctor->owner->ctors.size() > 1;
}

constexpr size_t kMinSwitchCtors = 8;

bool Refutable(const Pattern& p) {
  if (p.kind == Pattern::Kind::kInt || p.kind == Pattern::Kind::kBool ||
      p.kind == Pattern::Kind::kStr || TestsTag(p)) {
    return true;
  }
  for (const lang::PatternPtr& element : p.elements) {
    if (Refutable(*element)) return true;
  }
  return false;
}

bool HasVars(const Pattern& p) {
  if (p.kind == Pattern::Kind::kVar) return true;
  for (const lang::PatternPtr& element : p.elements) {
    if (HasVars(*element)) return true;
  }
  return false;
}

// The sub-patterns of a tuple, constructor or record pattern by field
// position (a record pattern's unnamed fields are null), and the field types.
std::vector<const Pattern*> SubPatterns(const Pattern& p, size_t fields) {
  std::vector<const Pattern*> out(fields, nullptr);
  for (size_t k = 0; k < p.elements.size(); ++k) {
    size_t i = k;
    if (p.kind == Pattern::Kind::kRecord) {
      if (k >= p.field_index.size() || p.field_index[k] < 0) continue;
      i = static_cast<size_t>(p.field_index[k]);
    }
    if (i < fields) out[i] = p.elements[k].get();
  }
  return out;
}

}  // namespace

std::vector<const Type*> FunctionCompiler::PartTypes(const Pattern& p, const Type* type) {
  type = types::Resolve(type);
  if (p.kind == Pattern::Kind::kTuple) {
    return std::vector<const Type*>(type->args.begin(), type->args.end());
  }
  if (p.ctor == nullptr || type->kind != types::Kind::kNamed) return {};
  return pc_.FieldTypesOf(type, *p.ctor);
}

void FunctionCompiler::Destructure(const Pattern& p, int src, const Type* type) {
  type = types::Resolve(type);
  switch (p.kind) {
    case Pattern::Kind::kVar: {
      bool ref = pc_.IsRef(type);
      int r = Alloc(ref);
      if (ref) {
        Emit(Instr::ABC(Op::COPY, r, src, 0));
      } else {
        Move(r, src, false);
      }
      vars_[VarKey(&p, "")] = r;
      return;
    }
    case Pattern::Kind::kTuple:
    case Pattern::Kind::kCtor:
    case Pattern::Kind::kRecord: {
      std::vector<const Type*> parts = PartTypes(p, type);
      std::vector<const Pattern*> subs = SubPatterns(p, parts.size());
      for (size_t i = 0; i < parts.size(); ++i) {
        if (subs[i] == nullptr || !HasVars(*subs[i])) continue;
        const Pattern& sub = *subs[i];
        const Type* field = types::Resolve(parts[i]);
        bool ref = pc_.IsRef(field);
        int r = Alloc(ref);
        Emit(Instr::ABC(Op::FIELD, r, src, static_cast<uint16_t>(i)));
        if (sub.kind == Pattern::Kind::kVar) {
          vars_[VarKey(&sub, "")] = r;
        } else {
          Destructure(sub, r, field);
          // The tuple's fields are bound (retained); the register stays
          // allocated below them, now null.
          if (ref) Release(r);
        }
      }
      return;
    }
    default:  // `_` and literals bind nothing
      return;
  }
}

bool FunctionCompiler::BindsUpdatable(const Pattern& p, const Type* type) {
  type = types::Resolve(type);
  if (p.kind == Pattern::Kind::kVar) {
    return types::Contains(type, types::Kind::kArray) ||
           types::Contains(type, types::Kind::kTensor);
  }
  if (p.kind != Pattern::Kind::kTuple && p.kind != Pattern::Kind::kCtor &&
      p.kind != Pattern::Kind::kRecord) {
    return false;
  }
  std::vector<const Type*> parts = PartTypes(p, type);
  std::vector<const Pattern*> subs = SubPatterns(p, parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    if (subs[i] != nullptr && BindsUpdatable(*subs[i], parts[i])) return true;
  }
  return false;
}

void FunctionCompiler::BindPattern(const Pattern& p, int src, const Type* type) {
  Destructure(p, src, type);
}

void FunctionCompiler::TestPattern(const Pattern& p, int src, const Type* type, Label& fail,
                                   bool tag_known) {
  type = types::Resolve(type);
  switch (p.kind) {
    case Pattern::Kind::kInt: {
      // A small literal is the branch's own constant (JNEK_I).
      if (p.int_value >= INT16_MIN && p.int_value <= INT16_MAX) {
        EmitJump(Op::JNEK_I, src, static_cast<uint16_t>(static_cast<int16_t>(p.int_value)), fail);
        return;
      }
      int mark = top_;
      int k = Alloc(false);
      LoadInt(k, p.int_value);
      EmitJump(Op::JNE_I, src, k, fail);
      SetTop(mark);
      return;
    }
    case Pattern::Kind::kBool:
      EmitJump(p.bool_value ? Op::JMPIFNOT : Op::JMPIF, src, 0, fail);
      return;
    case Pattern::Kind::kStr: {
      // EQ_V compares a window of two: the value (a second reference) and
      // the literal, both released before the jump.
      int mark = top_;
      int window = AllocWindow({true, true});
      Emit(Instr::ABC(Op::COPY, window, src, 0));
      Emit(Instr::ABC(Op::LOADS, window + 1, pc_.String(p.str_value), 0));
      int equal = Alloc(false);
      Emit(Instr::ABC(Op::EQ_V, equal, window, static_cast<uint16_t>(pc_.TypeDescOf(type))));
      Release(window);
      Release(window + 1);
      EmitJump(Op::JMPIFNOT, equal, 0, fail);
      SetTop(mark);
      return;
    }
    case Pattern::Kind::kTuple:
    case Pattern::Kind::kCtor:
    case Pattern::Kind::kRecord: {
      if (TestsTag(p) && !tag_known) EmitJump(Op::JNTAG, src, p.ctor->tag, fail);
      std::vector<const Type*> parts = PartTypes(p, type);
      std::vector<const Pattern*> subs = SubPatterns(p, parts.size());
      for (size_t i = 0; i < parts.size(); ++i) {
        if (subs[i] == nullptr || !Refutable(*subs[i])) continue;
        const Pattern& sub = *subs[i];
        const Type* field = types::Resolve(parts[i]);
        bool ref = pc_.IsRef(field);
        int mark = top_;
        int r = Alloc(ref);
        Emit(Instr::ABC(Op::FIELD, r, src, static_cast<uint16_t>(i)));
        if (!ref) {
          TestPattern(sub, r, field, fail);
        } else {
          Label cleanup, ok;
          TestPattern(sub, r, field, cleanup);
          Release(r);
          EmitJump(Op::JMP, 0, 0, ok);
          Bind(cleanup);
          Release(r);
          EmitJump(Op::JMP, 0, 0, fail);
          Bind(ok);
        }
        SetTop(mark);
      }
      return;
    }
    default:
      return;
  }
}

void FunctionCompiler::Match(const Expr& e, Dest dest) {
  const Type* st = T(e.lhs->type);
  int mark = top_;
  // A variable scrutinee of reference type is copied: a guard or body may
  // move the variable while later arms still test it.
  Operand s = Eval(*e.lhs, /*borrow_ok=*/false);
  // A site: the arm bodies draw from its state (the scrutinee and the
  // guards, conditions, from the enclosing stream; lang/rng_sites.h).
  const int outer_ambient = ambient_;
  const int site_state = sites_.contains(&e) ? SiteWords(e, e.span) : -1;
  const int arm_ambient = site_state >= 0 ? site_state : outer_ambient;
  // A variant of many constructors is matched through a jump table: SWITCH
  // lands on the first arm that can match the tag, past that arm's own tag
  // test; an arm that fails falls to the next arm, which tests the tag
  // itself. Below kMinSwitchCtors the arms' own tests (JNTAG, a predicted
  // branch each) are faster than the table's data-dependent jump (measured:
  // docs/decisions.md "Compiler").
  const Type* sr = types::Resolve(st);
  const size_t ctors =
      sr->kind == types::Kind::kNamed && !sr->def->is_record ? sr->def->ctors.size() : 0;
  bool use_switch = false;
  for (const lang::MatchArm& arm : e.arms) use_switch |= TestsTag(*arm.pattern);
  use_switch = use_switch && ctors >= kMinSwitchCtors && ctors <= kMaxRegisters;
  std::vector<Label> table(use_switch ? ctors : 0);
  std::vector<bool> table_bound(table.size(), false);
  if (use_switch) {
    Emit(Instr::ABC(Op::SWITCH, s.reg, static_cast<uint16_t>(ctors), 0), e.span);
    for (Label& entry : table) EmitJump(Op::JMP, 0, 0, entry);
  }
  Label end;
  // Constructors an earlier arm always takes (no guard, nothing refutable
  // under the constructor): an arm for the one constructor left need not
  // test it.
  std::vector<bool> covered(ctors, false);
  size_t covered_count = 0;
  for (size_t a = 0; a < e.arms.size(); ++a) {
    const lang::MatchArm& arm = e.arms[a];
    Label next;
    int arm_mark = top_;
    const lang::Pattern& top = *arm.pattern;
    const bool tests_tag = TestsTag(top);
    const bool tag_known =
        tests_tag && covered_count + 1 == ctors && !covered[static_cast<size_t>(top.ctor->tag)];
    if (use_switch && tests_tag && !tag_known) {
      EmitJump(Op::JNTAG, s.reg, top.ctor->tag, next);
    }
    for (size_t k = 0; k < table.size(); ++k) {
      const bool candidate = !tests_tag || top.ctor->tag == static_cast<int>(k);
      if (candidate && !table_bound[k]) {
        Bind(table[k]);
        table_bound[k] = true;
      }
    }
    TestPattern(*arm.pattern, s.reg, st, next, use_switch || tag_known);
    if (tests_tag && !arm.guard && !covered[static_cast<size_t>(top.ctor->tag)]) {
      bool takes_all = true;
      for (const lang::PatternPtr& sub : top.elements) takes_all = takes_all && !Refutable(*sub);
      if (takes_all) {
        covered[static_cast<size_t>(top.ctor->tag)] = true;
        ++covered_count;
      }
    }
    BindPattern(*arm.pattern, s.reg, st);
    // An arm without a guard is taken for good once bound: the scrutinee
    // (held by the match alone) is released before the body, so the
    // fields it bound are held once and can be updated in place (an array
    // carried through a loop in a tuple), as a `let` pattern does.
    if (!arm.guard && s.owned && IsRefReg(s.reg) && BindsUpdatable(*arm.pattern, st)) {
      Release(s.reg);
    }
    int bound_top = top_;
    Label guard_failed;
    if (arm.guard) Branch(*arm.guard, false, guard_failed);
    ambient_ = arm_ambient;
    Into(*arm.body, dest);
    ambient_ = outer_ambient;
    if (!dest.tail) {
      ReleaseRange(arm_mark, top_, -1);
      // The last arm's end is the match's (unless its guard's failure path
      // follows): no jump to the next instruction.
      if (a + 1 < e.arms.size() || arm.guard) EmitJump(Op::JMP, 0, 0, end);
    }
    if (arm.guard) {
      Bind(guard_failed);
      ReleaseRange(arm_mark, bound_top, -1);
    }
    SetTop(arm_mark);
    Bind(next);
  }
  // Unreachable (the type checker proved the arms exhaustive), but every
  // path ends in a well-formed way.
  for (size_t k = 0; k < table.size(); ++k) {
    if (!table_bound[k]) Bind(table[k]);
  }
  if (dest.tail) {
    Return(Alloc(Ref(e.type)));
  }
  Bind(end);
  ambient_ = outer_ambient;
  if (!dest.tail) Free(s);
  SetTop(mark);
}

}  // namespace alea::compiler
