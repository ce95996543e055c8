// Internal to compiler/: the program-wide state of one compilation
// (instances, constant pools, the work queue) and the per-function lowering
// state (registers, labels, variables). Split over several .cc files:
//   compiler.cc      driver: main, instance queue, the init function
//   types.cc         substitution of type variables, TypeDescs, register classes
//   liveness.cc      last uses of variables, free variables of lambdas
//   emit.cc          registers, labels, instructions, the line table
//   lower_expr.cc    expressions, blocks, `if`, lambdas, variables
//   lower_call.cc    calls, tail calls, builtins
//   lower_match.cc   patterns: `match`, destructuring `let` and parameters
//   lower_random.cc  random states: their opcodes, `uses rng` streams, sites, `with`
//   lower_tensor.cc  tensor builtins: typed opcodes, SCALAR_T, tensor natives
//   lower_fused.cc   fused elementwise chains (FUSED_T)
#ifndef ALEA_COMPILER_INTERNAL_H_
#define ALEA_COMPILER_INTERNAL_H_

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/types/span.h"
#include "compiler/compiler.h"
#include "lang/ast.h"
#include "lang/builtins.h"
#include "lang/diagnostics.h"
#include "lang/program.h"
#include "lang/rng_sites.h"
#include "lang/source.h"
#include "lang/types.h"
#include "vm/bytecode.h"
#include "vm/dtype.h"
#include "vm/kernels/reduce.h"

namespace alea::compiler {

using lang::Expr;
using lang::Pattern;
using lang::Span;
using lang::types::Type;

// Generic type variable (resolved) -> concrete type.
using Subst = absl::flat_hash_map<const Type*, const Type*>;

// A variable: its binding pattern and, for a polymorphic `let`, the key of the
// instantiation ("" when monomorphic).
using VarKey = std::pair<const Pattern*, std::string>;

inline constexpr int kMaxRegisters = 65535;

// `text` in backquotes, for messages.
std::string Quoted(const std::string& text);

// The argument of `transpose(x)` (the builtin, one positional argument), or
// nullptr for any other expression. `transpose` cannot fail (but for
// memory) nor be observed, so a consumer that reads x through reversed axes
// may evaluate x in its place (lower_call.cc, lower_fused.cc).
const Expr* TransposeArgument(const Expr& e);

class ProgramCompiler;

// Lowers one function body (a top-level function instance, a lambda, the init
// function or a builtin wrapper) to a vm::Function.
// The value of an Int literal, or of a negated one (`-2`, folded as a
// negative literal), when it fits an instruction's signed 16-bit operand:
// the constant forms ADDK_I, MULK_I... and JLTK_I... take it in place of a
// register.
std::optional<int64_t> SmallIntConstant(const lang::Expr& e);

class FunctionCompiler {
 public:
  FunctionCompiler(ProgramCompiler& pc, Subst subst, std::string name);

  // ---- Entry points (lower_expr.cc) ----
  // A top-level function or lambda: parameters, captures, then the body in tail position.
  // `captures`: each captured variable and whether it is a reference.
  // `uses_rng`: the function takes its ambient random stream as an extra
  // last parameter.
  // `capture_types`: each capture's type (for the module's signature).
  void CompileFunction(const std::vector<lang::Param>& params, const Expr& body,
                       const std::vector<std::pair<VarKey, bool>>& captures, bool uses_rng = false,
                       const std::vector<const Type*>& capture_types = {});
  // The function's signature in the module (vm::Function::param_types...),
  // of concrete types.
  void SetSignature(const std::vector<const Type*>& params, const Type* result);
  vm::Function Finish();

  // ---- Registers and emission (emit.cc) ----
  struct Label {
    std::vector<int> patches;  // pcs of jumps to it
    int pc = -1;
  };
  int Alloc(bool ref);
  // A window of contiguous registers with these classes, at or above the top.
  int AllocWindow(const std::vector<bool>& refs);
  // Before allocating a call's window: when the result is bound for the
  // topmost register `dst` (a temporary or a new variable, which nothing
  // reads yet) and the window's first slot and the result have its class,
  // the window will start at dst, so the result lands without a MOVE.
  void WindowAtResult(int dst, bool first_slot_ref, bool result_ref);
  int top() const { return top_; }
  void SetTop(int top) { top_ = top; }
  bool IsRefReg(int r) const { return classes_[r] == 1; }
  int Emit(vm::Instr instr, std::optional<Span> at = std::nullopt);
  void EmitJump(vm::Op op, int a, int b, Label& label, std::optional<Span> at = std::nullopt);
  void Bind(Label& label);
  // Points the jump at `pc` to `target`.
  void SetJumpTarget(int pc, int target);
  // A self tail call's jump back to loop_start_.
  void EmitLoopJump(Span at);
  void Release(int r);
  void Move(int dst, int src, bool ref);  // moves (x = 1) when a reference
  void LoadInt(int dst, int64_t value);
  void LoadFloat(int dst, double value);
  void ReleaseRange(int from, int to, int except);
  // A register moved out of a call window whose class differs from the result's.
  int FixResult(int window, const Type* result_type);

  // ---- Expressions (lower_expr.cc) ----
  struct Dest {
    bool tail = false;
    int reg = -1;
  };
  struct Operand {
    int reg;
    bool owned;
  };
  void Into(const Expr& e, Dest dest);
  void IntoReg(const Expr& e, int reg) { Into(e, Dest{false, reg}); }
  void Tail(const Expr& e) { Into(e, Dest{true, -1}); }
  Operand Eval(const Expr& e, bool borrow_ok);
  void Free(const Operand& o);
  void Return(int reg);
  void Branch(const Expr& e, bool jump_if, Label& label);
  // Where a value for `dest` is computed: its register, or a new one in tail position.
  int Target(Dest dest, const Type* type);
  void Done(Dest dest, int reg);  // in tail position: return it
  void Block(const Expr& e, Dest dest);
  void If(const Expr& e, Dest dest);
  void Lambda(const Expr& e, int dst);
  void Name(const Expr& e, int dst);
  void LetStmt(const lang::Stmt& stmt, const std::vector<const Expr*>& rest);
  // The register of a variable use, or -1 when it is not a local.
  int VarReg(const Expr& e);
  VarKey KeyOfUse(const Expr& e);
  const Type* T(const Type* t);  // substituted
  bool Ref(const Type* t);       // a reference register class

  // ---- Calls and builtins (lower_call.cc) ----
  // Whether evaluating `e` reads register `reg` (a variable held there).
  bool ReadsRegister(const Expr& e, int reg);
  // Whether Into(e, {reg}) reads everything it reads before it writes reg,
  // so that `e` may read reg itself.
  static bool IsIntoSafe(const Expr& e);
  void Call(const Expr& e, Dest dest);
  // A direct call of an `extern fn`: CALLN of its host native, here, so
  // that each call site is its own site (per-site host state).
  void ExternCall(const Expr& e, const lang::FnDecl& fn, const std::vector<const Expr*>& args,
                  Dest dest);
  void Binary(const Expr& e, Dest dest);
  void Unary(const Expr& e, Dest dest);
  void IndexExpr(const Expr& e, Dest dest);
  void SliceExpr(const Expr& e, Dest dest);
  void SubscriptExpr(const Expr& e, Dest dest);  // lower_tensor.cc
  // The builtin a site resolves to in this specialization; nullopt after an error.
  std::optional<lang::BuiltinId> Resolve(const Expr& e, const std::string& name,
                                         std::vector<int>* param_of_arg);
  // A builtin applied to registers already evaluated, into dst. `args` and
  // site->args are per parameter (-1: an absent `none` default). Bit i of
  // `owned`: args[i] is a temporary the builtin may consume; bit i of
  // *consumed says it did (its register is null afterwards).
  bool ApplyBuiltin(lang::BuiltinId id, const Type* site, const std::vector<int>& args, int dst,
                    Span at, uint32_t owned = 0, uint32_t* consumed = nullptr);
  // A native's argument: a register, or an Int immediate (reg < 0). A moved
  // register's reference goes to the call (its register is null after).
  struct NativeArg {
    int reg;
    int64_t imm;
    bool moved = false;
    // A borrowed reference passed in a plain register, without COPY and
    // RELEASE: its own register keeps it alive through the call, and
    // unwinding releases only that one. Only for values no native writes
    // into or keeps (closures); a counted copy tells a native that a
    // reference count of 1 is not its own.
    bool uncounted = false;
    static NativeArg Reg(int r) { return {r, 0}; }
    static NativeArg Imm(int64_t v) { return {-1, v}; }
    static NativeArg Moved(int r) { return {r, 0, true}; }
  };
  // CALLN `name` on `args` (references are copied: natives borrow; a native
  // of vm/natives.def's ALEA_NATIVE_OWNING takes its first), result into dst.
  void CallNative(const char* name, const std::vector<NativeArg>& args, bool result_ref, int dst,
                  Span at);
  // A new window: `lead` slots of these classes, then `args` for an
  // instruction that borrows them (a reference is copied, to be released by
  // ReleaseRange after the instruction). Returns the window's first register.
  int BorrowedWindow(const std::vector<bool>& lead, const std::vector<NativeArg>& args);
  // ---- Random states (lower_random.cc) ----
  bool ApplyRandomBuiltin(lang::BuiltinId id, const std::vector<int>& args, int dst, Span at);
  // ---- Unboxed random states (unboxed_states.cc, lower_random.cc) ----
  // Fills unboxed_vars_ and unboxed_params_ for a function about to be lowered.
  void FindUnboxedStates(const std::vector<lang::Param>& params, const Expr& body);
  // `e` as an explicit call of a builtin that consumes the state in its
  // parameter 0 (split, next, fold_in, split_n, the samplers): the builtin.
  std::optional<lang::BuiltinId> StateBuiltin(const Expr& e, std::vector<int>* param_of_arg);
  static const Expr* StateArgument(const Expr& e, const std::vector<int>& param_of_arg);
  // A direct call of this function instance (a loop when in tail position).
  bool IsSelfCall(const Expr& e);
  // The first register of the pair holding the unboxed variable `e` names,
  // or -1 (not a name, or a boxed variable).
  int UnboxedPair(const Expr& e);
  // Before a use of the unboxed variable `e` consumes it: a parameter's box
  // is consumed now (TAKE), as the op would have consumed it boxed.
  void TakeBox(const Expr& e, vm::Op consumer, Span at);
  // The state words of `state` (or of this site of the ambient stream when
  // null) for `consumer` into the pair at dst; `boxed`: the state, already
  // evaluated, when it is neither.
  void StateWords(const Expr* site, const Expr* state, const Operand* boxed, int dst,
                  vm::Op consumer, Span at);
  // A scalar sampler (`uniform(s)`...) on an unboxed state; false for others.
  bool ScalarDraw(const Expr& e, lang::BuiltinId id, const std::vector<const Expr*>& args,
                  const std::vector<int>& param_of_arg, Dest dest);
  // `let a = key(n)`, `let a = fold_in(x, i)`, `let (a, b) = split(x)` or
  // `next(x)` binding unboxed variables; false (nothing emitted) otherwise.
  bool UnboxedLet(const Pattern& p, const Expr& value);
  // The state of site `site` (lang/rng_sites.h) as a box, in `dst` or a new
  // reference register; returns the register.
  int SiteState(const Expr& site, Span at, int dst = -1);
  // The words of site `site` in a new pair of plain registers (the ambient
  // stream, ambient_, is always a pair).
  int SiteWords(const Expr& site, Span at);
  void With(const Expr& e, Dest dest);
  // `x @ y` where either side is `transpose(...)` (e: the binary `@`): one
  // `t_matmul_t` that reads the operand transposed in place, into r; false
  // (nothing emitted) for any other `@`.
  bool MatMulOfTransposed(const Expr& e, int r);
  // ---- Tensor builtins (lower_tensor.cc) ----
  bool ApplyTensorBuiltin(lang::BuiltinId id, const Type* site, const std::vector<int>& args,
                          int dst, Span at, uint32_t owned, uint32_t* consumed);
  // Whether the builtin is an elementwise tensor op that can take operands
  // by move (and then reuse a uniquely owned one in place).
  static bool ConsumesTensorOperands(lang::BuiltinId id);
  // The reduction a builtin is (`sum`, `mean`, `max`...: t_reduce and
  // t_reduce_axis), or nullopt.
  static std::optional<vm::kernels::ReduceOp> ReductionOf(lang::BuiltinId id);
  // Whether the builtin's native owns its first argument (push, set,
  // append, add_at): a last use moved there lets it update a unique array or
  // tensor in place.
  static bool OwnsFirstOperand(lang::BuiltinId id);
  // Whether vm/natives.def declares the native ALEA_NATIVE_OWNING.
  static bool NativeOwnsFirst(std::string_view native);
  // The fused-program node (op, unary or not) of an elementwise builtin that
  // computes a tensor of its operands' dtype (not a comparison).
  static std::optional<vm::FusedNode> ElementwiseNode(lang::BuiltinId id);
  // `clip`'s overloads are compositions of elementwise builtins, so they fuse:
  // np.clip's minimum(maximum(x, lo), hi) as `minimum(hi, maximum(lo, x))`
  // (the bound first: the Max and Min rules keep their first operand on a
  // tie, which gives np.clip's signed zeros). The two parts, in order, with
  // the site types they are applied at; the unfused code of a clip is exactly
  // these two builtins, fused or not. `site`: a clip overload's.
  struct ClipPart {
    lang::BuiltinId id;
    const Type* site;
  };
  static bool IsClip(lang::BuiltinId id);
  std::vector<ClipPart> ClipParts(const Type* site);
  // Like Eval, but a variable at its last use is moved into a temporary, so
  // an elementwise op may consume it.
  Operand EvalConsumable(const Expr& e, bool borrow_ok);
  // A defaulted parameter's value in a new register, or -1 for `none`.
  int LoadDefault(const lang::BuiltinParam& param);
  // ---- Fused elementwise chains (lower_fused.cc) ----
  // Compiles `e` as FUSED_T + its unfused block when it is the root of a
  // worthwhile tree of f32 elementwise ops, comparisons feeding a `where`,
  // and `where`s; false (nothing emitted) otherwise.
  bool TryFused(const Expr& e, Dest dest);
  // The builtin `e` applies when it can be a fused node (an f32 elementwise
  // op or `where`; comparisons are taken only as a `where`'s mask).
  std::optional<lang::BuiltinId> FusableOp(const Expr& e);

  void BuiltinValue(const Expr& e, int dst);
  // Evaluates the arguments of a call into a new window starting at `base + skip`.
  void ArgsInto(const std::vector<const Expr*>& args, int first);

  // ---- Records and variants (lower_types.cc) ----
  // A constructor applied to `args` (written in field order), into dest.
  void Construct(const Expr& e, const lang::types::Ctor& c, const std::vector<const Expr*>& args,
                 Dest dest);
  void Record(const Expr& e, Dest dest);
  void FieldRead(const Expr& e, Dest dest);
  void CtorValue(const Expr& e, int dst);

  // ---- Patterns (lower_match.cc) ----
  // Binds the variables of an irrefutable pattern from the value in `src`
  // (borrowed) into new registers.
  void Destructure(const Pattern& p, int src, const Type* type);
  // Whether the pattern binds a variable that holds an array or a tensor,
  // which PUSH and natives update in place when held once: then the value
  // it takes apart is worth releasing as soon as it is bound.
  bool BindsUpdatable(const Pattern& p, const Type* type);
  void Match(const Expr& e, Dest dest);
  // `tag_known`: the constructor of a top-level constructor pattern has
  // already been tested (a SWITCH jumped here).
  void TestPattern(const Pattern& p, int src, const Type* type, Label& fail,
                   bool tag_known = false);
  void BindPattern(const Pattern& p, int src, const Type* type);
  // The types of the parts of a tuple, constructor or record pattern's value.
  std::vector<const Type*> PartTypes(const Pattern& p, const Type* type);

  ProgramCompiler& pc_;
  Subst subst_;
  vm::Function fn_;
  std::vector<int8_t> classes_;  // per register: -1 unused, 0 plain, 1 reference
  int top_ = 0;
  absl::flat_hash_map<VarKey, int> vars_;
  absl::flat_hash_set<const Expr*> last_uses_;
  lang::SiteNumbers sites_;
  // The first of the two plain registers holding the ambient random
  // stream's words (unboxed), or -1; and, in a `uses rng` function, the pair
  // its own parameter was PEEKed into (where a self tail call puts the next).
  int ambient_ = -1;
  int ambient_entry_ = -1;
  // Polymorphic local lets: the instance keys used in the rest of their scope.
  std::optional<Span> last_line_;
  bool too_large_ = false;
  // This function's index in the module when it is a top-level function
  // instance (-1 for lambdas and the initializer): a tail call to itself
  // becomes a jump back to its first instruction.
  int self_index_ = -1;
  // Unboxed random states: the variables (kVar patterns) and, per
  // parameter, its pattern when unboxed; each variable's pair; where a
  // self tail call jumps (after the PEEKs of the unboxed parameters).
  absl::flat_hash_set<const Pattern*> unboxed_vars_;
  std::vector<const Pattern*> unboxed_params_;
  absl::flat_hash_map<const Pattern*, int> pairs_;
  int loop_start_ = 0;
  // The jumps emitted to labels not yet bound, and their labels (which live
  // until bound): a copy of such a jump joins its label (EmitLoopJump).
  absl::flat_hash_map<int, Label*> unbound_jumps_;
};

// State shared by every function of one compilation.
class ProgramCompiler {
 public:
  ProgramCompiler(const lang::Program& program, const lang::SourceManager& sources,
                  lang::Diagnostics& diags);
  absl::StatusOr<vm::Module> Run(const CompileOptions& options);

  // ---- Types (types.cc) ----
  const Type* Concrete(const Type* t, const Subst& subst);
  std::string Key(const Type* t);
  std::string KeyOf(const std::vector<const Type*>& ts);
  bool IsRef(const Type* t);
  // The first unsupported part of a concrete type (`Tensor`, `RandState`), or "".
  std::string UnsupportedPart(const Type* t);
  uint32_t TypeDescOf(const Type* t);
  // TUPLE's type for constructor `c` of the declared type `t`: the record's
  // own descriptor, or a variant constructor's kCase.
  uint32_t CaseDescOf(const Type* t, const lang::types::Ctor& c);
  // The concrete field types of constructor `c` of the concrete type `t`.
  std::vector<const Type*> FieldTypesOf(const Type* t, const lang::types::Ctor& c);
  // A function taking the fields of `c` and returning the value of type
  // `t` (a constructor used as a value: `map(xs, Some)`).
  int CtorWrapper(const lang::types::Ctor& c, const Type* t);
  const Type* Unit();
  const Type* IntType();
  const Type* RandStateType();

  // ---- Pools ----
  uint16_t Constant(uint64_t bits);
  uint16_t String(const std::string& s);
  uint16_t Native(const std::string& name);

  // ---- Instances ----
  // The function index of `fn` instantiated with these concrete type arguments.
  int FunctionInstance(const lang::FnDecl* fn, std::vector<const Type*> type_args);
  // The global index of a top-level let variable at this instantiation.
  int GlobalInstance(const Pattern* var, std::vector<const Type*> type_args);
  int BuiltinWrapper(lang::BuiltinId id, const Type* type, Span at);
  // The function `grad(f)` or `value_and_grad(f)` (`id`) stands for at the
  // site `at`, of `site` = (F) -> G: G's parameters, f's closure captured,
  // one GRAD. One per site, so that each site keeps its own tape.
  // The function `grad(f)`/`value_and_grad(f)` makes at a site: GRAD of
  // its one capture, f's closure, or (named >= 0) of that function, loaded
  // by LOADFN, with no capture.
  int GradWrapper(lang::BuiltinId id, const Type* site, Span at, int named);
  // The native name CALLN uses for `extern fn` (recorded in Module::externs
  // with its types on first use), and the function a use as a value calls.
  std::string ExternNative(const lang::FnDecl& fn);
  void CompileExternWrapper(const lang::FnDecl& fn, int index);
  // CompileOptions::has_host: false reports each used extern once.
  bool has_host_ = true;
  // The host-facing form of a concrete type (exports, externs).
  vm::ExportType ExportTypeOf(const Type* t);
  int NewFunctionSlot();
  void SetFunction(int index, vm::Function fn);

  // ---- Errors ----
  void Unsupported(const std::string& what, Span at);
  void Error(lang::DiagId id, std::optional<Span> at, const std::string& a0,
             const std::string& a1 = "");
  bool failed() const { return failed_; }

  vm::SourceLocation Locate(Span span);

  const lang::Program& program_;
  const lang::SourceManager& sources_;
  lang::Diagnostics& diags_;

  // CompileOptions::export_functions: the root file's monomorphic functions,
  // or every file's when `imported`.
  void AddExports(bool imported);
  lang::types::TypeStore store_;
  vm::Module module_;

 private:
  struct PendingFn {
    const lang::FnDecl* fn;
    Subst subst;
    int index;
    std::vector<const Type*> type_args;
  };
  struct TopLetInstance {
    std::vector<const Type*> type_args;
    std::string key;
  };
  void CompileInit();
  void Drain();
  std::vector<const lang::TopLet*> TopLetOrder();

  bool failed_ = false;
  const Type* unit_ = nullptr;
  const Type* int_ = nullptr;
  const Type* rand_state_ = nullptr;
  absl::flat_hash_map<std::string, int> fn_instances_;
  std::deque<PendingFn> pending_;
  absl::flat_hash_map<VarKey, int> globals_;
  absl::flat_hash_map<const Pattern*, const lang::TopLet*> let_of_var_;
  // Per top-level let: the instantiations its variables are used at.
  absl::flat_hash_map<const lang::TopLet*, std::vector<TopLetInstance>> let_instances_;
  absl::flat_hash_map<std::string, int> wrappers_;
  absl::flat_hash_map<uint64_t, uint16_t> constants_;
  absl::flat_hash_map<std::string, uint16_t> strings_;
  absl::flat_hash_map<std::string, uint16_t> natives_;
  absl::flat_hash_map<std::string, uint32_t> type_descs_;
  absl::flat_hash_map<const Type*, std::string> key_cache_;
};

// ---- lower_tensor.cc ----
// The dtype of a concrete Tensor(d) or DType(d) type (a dtype value such as
// `f32` is its vm::DType number at run time).
vm::DType StaticDType(const Type* t);

// ---- liveness.cc ----
// The variable uses (kName Exprs) after which the variable is never read
// again on any path through `body` (a function or lambda body, or a top-level
// let's value): those may move the value instead of copying it.
void ComputeLastUses(const Expr& body, absl::flat_hash_set<const Expr*>& out);
// The local variable uses inside a lambda that refer to bindings outside it,
// in source order (a binding may appear several times: callers deduplicate
// per instance).
std::vector<const Expr*> FreeVariables(const Expr& lambda);
// Every use of `binding` inside `e` (for polymorphic local lets).
void UsesOf(const Expr& e, const Pattern* binding, std::vector<const Expr*>& out);
// Whether evaluating `e` can neither print, fail, draw nor loop: a
// polymorphic let of such a value that is never used need not be compiled at
// all (an instance at unit, for its effects, would not satisfy a constraint
// such as `+` in `|x| x + 1`).
bool MakesNoEffects(const Expr& e);
// Whether `e` can be read in place (borrowed) while `later` is evaluated:
// nothing in `later` may move it out of its register.
bool SafeToBorrow(const Expr& e, absl::Span<const Expr* const> later);

}  // namespace alea::compiler

#endif  // ALEA_COMPILER_INTERNAL_H_
