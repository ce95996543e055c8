// The driver: instances of functions and top-level lets are created on demand,
// starting from `main` and the top-level lets, and compiled from a queue
// until no new one appears (monomorphization). The init function computes
// every top-level let instance in dependency order.
#include "compiler/compiler.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/internal.h"
#include "lang/ast_walk.h"
#include "lang/grad.h"

namespace alea::compiler {

namespace types = lang::types;
using vm::Instr;
using vm::Op;

namespace {

void VarsOf(const Pattern& p, std::vector<const Pattern*>& out) {
  if (p.kind == Pattern::Kind::kVar) out.push_back(&p);
  for (const lang::PatternPtr& element : p.elements) VarsOf(*element, out);
}

bool Polymorphic(const Pattern& p) {
  return p.kind == Pattern::Kind::kVar && p.scheme != nullptr && !p.scheme->vars.empty();
}

}  // namespace

std::string Quoted(const std::string& text) { return absl::StrCat("`", text, "`"); }

ProgramCompiler::ProgramCompiler(const lang::Program& program, const lang::SourceManager& sources,
                                 lang::Diagnostics& diags)
    : program_(program), sources_(sources), diags_(diags) {}

absl::StatusOr<vm::Module> Compile(const lang::Program& program, const lang::SourceManager& sources,
                                   lang::Diagnostics& diags, const CompileOptions& options) {
  ProgramCompiler compiler(program, sources, diags);
  return compiler.Run(options);
}

absl::StatusOr<vm::Module> ProgramCompiler::Run(const CompileOptions& options) {
  has_host_ = options.has_host;
  for (size_t i = 0; i < sources_.size(); ++i) {
    module_.files.push_back(sources_.file(static_cast<lang::FileId>(i)).path());
  }
  for (const auto& module : program_.modules) {
    for (const auto& let : module->lets) {
      if (!let->pattern) continue;
      std::vector<const Pattern*> vars;
      VarsOf(*let->pattern, vars);
      for (const Pattern* v : vars) let_of_var_[v] = let.get();
    }
  }
  if (!program_.modules.empty()) {
    for (const auto& fn : program_.modules.back()->fns) {
      if (fn->name != "main") continue;
      size_t n = fn->scheme != nullptr ? fn->scheme->vars.size() : 0;
      module_.main = FunctionInstance(fn.get(), std::vector<const Type*>(n, Unit()));
      module_.main_takes_args = fn->params.size() == 1;
      module_.main_uses_rng = fn->uses_rng;
    }
    if (options.export_functions) AddExports(options.export_imported);
  }
  Drain();
  CompileInit();
  if (failed_) {
    return absl::InvalidArgumentError(
        absl::StrCat("compilation failed with ", diags_.error_count(), " errors"));
  }
  return std::move(module_);
}

vm::ExportType ProgramCompiler::ExportTypeOf(const Type* t) {
  t = Concrete(t, {});
  vm::ExportType e{TypeDescOf(t), 0, {}};
  const Type* resolved = types::Resolve(t);
  if (resolved->kind == types::Kind::kTensor) {
    e.dtype = static_cast<uint8_t>(StaticDType(t));
  } else if (resolved->kind == types::Kind::kTuple || resolved->kind == types::Kind::kArray) {
    for (const Type* field : resolved->args) e.fields.push_back(ExportTypeOf(field));
  }
  return e;
}

void ProgramCompiler::AddExports(bool imported) {
  size_t first = imported ? 0 : program_.modules.size() - 1;
  for (size_t m = first; m < program_.modules.size(); ++m) {
    for (const auto& fn : program_.modules[m]->fns) {
      if (fn->is_extern) continue;                                       // the host's own
      if (fn->scheme != nullptr && !fn->scheme->vars.empty()) continue;  // generic: no one instance
      const Type* type = fn->type != nullptr ? types::Resolve(fn->type) : nullptr;
      if (type == nullptr || type->kind != types::Kind::kFunction) continue;
      vm::Export e;
      e.name = fn->name;
      e.function = static_cast<uint32_t>(FunctionInstance(fn.get(), {}));
      for (const Type* p : type->args) e.params.push_back(ExportTypeOf(p));
      e.result = ExportTypeOf(type->result);
      e.uses_rng = fn->uses_rng;
      module_.exports.push_back(std::move(e));
    }
  }
}

int ProgramCompiler::NewFunctionSlot() {
  if (module_.functions.size() >= 65535) {
    Error(lang::DiagId::kFunctionTooLarge, std::nullopt, "the program",
          "more than 65,535 functions after specialization");
    return 0;
  }
  module_.functions.emplace_back();
  return static_cast<int>(module_.functions.size()) - 1;
}

void ProgramCompiler::SetFunction(int index, vm::Function fn) {
  module_.functions[index] = std::move(fn);
}

int ProgramCompiler::FunctionInstance(const lang::FnDecl* fn, std::vector<const Type*> type_args) {
  std::string key = absl::StrCat(reinterpret_cast<uintptr_t>(fn), "|", KeyOf(type_args));
  auto it = fn_instances_.find(key);
  if (it != fn_instances_.end()) return it->second;
  int index = NewFunctionSlot();
  fn_instances_.emplace(key, index);
  Subst subst;
  if (fn->scheme != nullptr) {
    for (size_t i = 0; i < fn->scheme->vars.size() && i < type_args.size(); ++i) {
      subst[types::Resolve(fn->scheme->vars[i])] = type_args[i];
    }
  }
  pending_.push_back(PendingFn{fn, std::move(subst), index, std::move(type_args)});
  return index;
}

void ProgramCompiler::Drain() {
  while (!pending_.empty() && !failed_) {
    PendingFn job = std::move(pending_.front());
    pending_.pop_front();
    if (job.fn->is_extern) {
      CompileExternWrapper(*job.fn, job.index);
      continue;
    }
    FunctionCompiler fc(*this, job.subst, job.fn->name);
    fc.self_index_ = job.index;
    if (!job.type_args.empty()) {
      std::vector<std::string> shown;  // as written, not as keyed
      for (const Type* a : job.type_args) shown.push_back(types::ToString(a));
      fc.fn_.specialization = absl::StrCat("[", absl::StrJoin(shown, ", "), "]");
    }
    fc.CompileFunction(job.fn->params, *job.fn->body, {}, job.fn->uses_rng);
    SetFunction(job.index, fc.Finish());
  }
}

int ProgramCompiler::GlobalInstance(const Pattern* var, std::vector<const Type*> type_args) {
  std::string key = Polymorphic(*var) ? KeyOf(type_args) : "";
  auto it = globals_.find(VarKey(var, key));
  if (it != globals_.end()) return it->second;
  Subst subst;
  if (Polymorphic(*var)) {
    for (size_t i = 0; i < var->scheme->vars.size() && i < type_args.size(); ++i) {
      subst[types::Resolve(var->scheme->vars[i])] = type_args[i];
    }
  }
  int index = static_cast<int>(module_.globals.size());
  if (index >= 65535) {
    Error(lang::DiagId::kFunctionTooLarge, std::nullopt, "the program",
          "more than 65,535 top-level values after specialization");
    return 0;
  }
  const Type* type = Concrete(var->type, subst);
  vm::Global global;
  global.name = var->name;
  global.type = TypeDescOf(type);
  auto let = let_of_var_.find(var);
  if (let != let_of_var_.end() && let->second->is_extern) {
    if (!has_host_) Error(lang::DiagId::kExternWithoutHost, var->span, "let", var->name);
    global.external = true;
    global.declared = ExportTypeOf(type);
  }
  module_.globals.push_back(std::move(global));
  globals_.emplace(VarKey(var, key), index);
  if (let != let_of_var_.end()) {
    std::vector<TopLetInstance>& instances = let_instances_[let->second];
    bool known = false;
    for (const TopLetInstance& inst : instances) known |= inst.key == key;
    if (!known) instances.push_back(TopLetInstance{std::move(type_args), key});
  }
  return index;
}

std::vector<const lang::TopLet*> ProgramCompiler::TopLetOrder() {
  // Which top-level lets each let reads, directly or through the functions
  // it calls: those are computed first (the type checker rejected cycles).
  auto deps_of = [&](const lang::TopLet& let) {
    std::vector<const lang::TopLet*> deps;
    absl::flat_hash_set<const lang::FnDecl*> seen_fns;
    absl::flat_hash_set<const lang::TopLet*> seen_lets;
    std::vector<const Expr*> work;
    if (let.value) work.push_back(let.value.get());
    while (!work.empty()) {
      const Expr* e = work.back();
      work.pop_back();
      lang::WalkExpr(*e, [&](const Expr& use) {
        if (use.kind != Expr::Kind::kName) return;
        if (use.name_kind == lang::NameKind::kTopLet) {
          auto it = let_of_var_.find(use.binding);
          if (it != let_of_var_.end() && seen_lets.insert(it->second).second) {
            deps.push_back(it->second);
          }
        } else if (use.name_kind == lang::NameKind::kFunction && use.fn != nullptr &&
                   seen_fns.insert(use.fn).second && use.fn->body) {
          work.push_back(use.fn->body.get());
        }
      });
    }
    return deps;
  };
  std::vector<const lang::TopLet*> order;
  absl::flat_hash_map<const lang::TopLet*, int> state;  // 1: visiting, 2: done
  std::vector<std::pair<const lang::TopLet*, std::vector<const lang::TopLet*>>> stack;
  for (const auto& module : program_.modules) {
    for (const auto& let : module->lets) {
      if (state[let.get()] != 0) continue;
      state[let.get()] = 1;
      stack.emplace_back(let.get(), deps_of(*let));
      while (!stack.empty()) {
        auto& [current, deps] = stack.back();
        if (deps.empty()) {
          state[current] = 2;
          order.push_back(current);
          stack.pop_back();
          continue;
        }
        const lang::TopLet* next = deps.front();
        deps.erase(deps.begin());
        if (state[next] != 0) continue;
        state[next] = 1;
        std::vector<const lang::TopLet*> next_deps = deps_of(*next);
        stack.emplace_back(next, std::move(next_deps));
      }
    }
  }
  return order;
}

void ProgramCompiler::CompileInit() {
  std::vector<const lang::TopLet*> order = TopLetOrder();
  int index = -1;
  for (int round = 0; round < 100 && !failed_; ++round) {
    size_t known = globals_.size();
    // Every let is computed, used or not (its effects and errors happen), but
    // for an unused generic one that has no effects.
    for (const lang::TopLet* let : order) {
      // A host value exists whether it is used or not: the host sets it by
      // name. Without a host (`alea run`) only a used one is made, and is an
      // error: an unused declaration is fine, as an unused `extern fn` is.
      if (has_host_ && let->is_extern && let->pattern &&
          let->pattern->kind == Pattern::Kind::kVar) {
        GlobalInstance(let->pattern.get(), {});
      }
      if (!let->pattern || !let->value || !let_instances_[let].empty()) continue;
      std::vector<const Pattern*> vars;
      VarsOf(*let->pattern, vars);
      if (vars.empty()) {
        let_instances_[let].push_back(TopLetInstance{{}, ""});
      }
      // Never used, generic and effect-free (`let inc = |x| x + 1`): nothing to run.
      if (Polymorphic(*let->pattern) && MakesNoEffects(*let->value)) continue;
      for (const Pattern* v : vars) {
        size_t n = Polymorphic(*v) ? v->scheme->vars.size() : 0;
        GlobalInstance(v, std::vector<const Type*>(n, Unit()));
      }
    }
    known = globals_.size();
    if (index < 0) index = NewFunctionSlot();
    FunctionCompiler init(*this, {}, "<init>");
    init.SetSignature({}, Unit());
    for (const lang::TopLet* let : order) {
      if (!let->pattern || !let->value) continue;
      const Pattern& p = *let->pattern;
      ComputeLastUses(*let->value, init.last_uses_);
      // A `with` block in the value is an ambient scope like a function's.
      lang::NumberSites(*let->value, init.sites_);
      std::vector<TopLetInstance> instances = let_instances_[let];
      for (const TopLetInstance& inst : instances) {
        Subst subst;
        if (Polymorphic(p)) {
          for (size_t i = 0; i < p.scheme->vars.size() && i < inst.type_args.size(); ++i) {
            subst[types::Resolve(p.scheme->vars[i])] = inst.type_args[i];
          }
        }
        init.subst_ = std::move(subst);
        int mark = init.top();
        const Type* type = init.T(let->value->type);
        int r = init.Alloc(IsRef(type));
        init.IntoReg(*let->value, r);
        if (p.kind == Pattern::Kind::kVar) {
          int g = GlobalInstance(&p, inst.type_args);
          init.Emit(Instr::ABC(Op::STOREG, r, static_cast<uint16_t>(g), 0));
        } else {
          init.Destructure(p, r, type);
          std::vector<const Pattern*> vars;
          VarsOf(p, vars);
          for (const Pattern* v : vars) {
            int g = GlobalInstance(v, {});
            init.Emit(
                Instr::ABC(Op::STOREG, init.vars_[VarKey(v, "")], static_cast<uint16_t>(g), 0));
          }
          init.ReleaseRange(mark, init.top(), -1);
        }
        init.SetTop(mark);
      }
    }
    int unit = init.Alloc(false);
    init.LoadInt(unit, 0);
    init.Emit(Instr::ABC(Op::RET, unit, 0, 0));
    SetFunction(index, init.Finish());
    module_.init = index;
    Drain();
    if (globals_.size() == known) return;
  }
}

void ProgramCompiler::Unsupported(const std::string& what, Span at) {
  diags_.Report(lang::DiagId::kNotSupportedYet, at, what);
  failed_ = true;
}

void ProgramCompiler::Error(lang::DiagId id, std::optional<Span> at, const std::string& a0,
                            const std::string& a1) {
  diags_.Report(id, at, a0, a1);
  failed_ = true;
}

uint16_t ProgramCompiler::Constant(uint64_t bits) {
  auto it = constants_.find(bits);
  if (it != constants_.end()) return it->second;
  if (module_.constants.size() >= 65535) {
    Error(lang::DiagId::kFunctionTooLarge, std::nullopt, "the program", "too many constants");
    return 0;
  }
  uint16_t index = static_cast<uint16_t>(module_.constants.size());
  module_.constants.push_back(bits);
  constants_.emplace(bits, index);
  return index;
}

uint16_t ProgramCompiler::String(const std::string& s) {
  auto it = strings_.find(s);
  if (it != strings_.end()) return it->second;
  if (module_.strings.size() >= 65535) {
    Error(lang::DiagId::kFunctionTooLarge, std::nullopt, "the program",
          "too many string constants");
    return 0;
  }
  uint16_t index = static_cast<uint16_t>(module_.strings.size());
  module_.strings.push_back(s);
  strings_.emplace(s, index);
  return index;
}

uint16_t ProgramCompiler::Native(const std::string& name) {
  auto it = natives_.find(name);
  if (it != natives_.end()) return it->second;
  uint16_t index = static_cast<uint16_t>(module_.natives.size());
  module_.natives.push_back(name);
  natives_.emplace(name, index);
  return index;
}

std::string ProgramCompiler::ExternNative(const lang::FnDecl& fn) {
  std::string name = absl::StrCat(vm::kExternPrefix, fn.name);
  if (!natives_.contains(name)) {
    if (!has_host_) Error(lang::DiagId::kExternWithoutHost, fn.name_span, "fn", fn.name);
    if (fn.params.size() > vm::kMaxNativeArity) {
      Error(lang::DiagId::kExternArity, fn.name_span, fn.name, std::to_string(vm::kMaxNativeArity));
    }
    vm::ExternFn e;
    e.name = fn.name;
    const Type* type = types::Resolve(fn.type);
    for (const Type* p : type->args) e.params.push_back(ExportTypeOf(p));
    e.result = ExportTypeOf(type->result);
    module_.externs.push_back(std::move(e));
  }
  Native(name);
  return name;
}

void ProgramCompiler::CompileExternWrapper(const lang::FnDecl& fn, int index) {
  FunctionCompiler w(*this, {}, fn.name);
  const Type* type = types::Resolve(fn.type);
  std::vector<bool> refs;
  for (const Type* a : type->args) refs.push_back(IsRef(a));
  int base = w.AllocWindow(refs);
  w.fn_.num_params = static_cast<uint16_t>(refs.size());
  w.SetSignature({type->args.begin(), type->args.end()}, type->result);
  std::vector<FunctionCompiler::NativeArg> args;
  for (size_t i = 0; i < refs.size(); ++i) {
    args.push_back(FunctionCompiler::NativeArg::Reg(base + static_cast<int>(i)));
  }
  int r = w.Alloc(IsRef(type->result));
  w.CallNative(ExternNative(fn).c_str(), args, IsRef(type->result), r, fn.name_span);
  w.Return(r);
  SetFunction(index, w.Finish());
}

int ProgramCompiler::GradWrapper(lang::BuiltinId id, const Type* site, Span at, int named) {
  std::string key = absl::StrCat("grad|", static_cast<int>(id), "|", at.file, ":", at.begin, "|",
                                 Key(site), "|", named);
  auto it = wrappers_.find(key);
  if (it != wrappers_.end()) return it->second;
  int index = NewFunctionSlot();
  wrappers_.emplace(key, index);
  const Type* f = types::Resolve(types::Resolve(site)->args[0]);
  const Type* g = types::Resolve(types::Resolve(site)->result);
  // The checker let a generic function's unknown types pass: here they are known.
  if (std::optional<lang::GradProblem> problem = lang::GradTypeProblem(f, false)) {
    Error(problem->id, at, std::string(lang::GetBuiltin(id).name), problem->type);
  }
  FunctionCompiler w(*this, {}, std::string(lang::GetBuiltin(id).name));
  std::vector<bool> refs;
  for (const Type* a : g->args) refs.push_back(IsRef(a));
  const int base = w.AllocWindow(refs);
  w.fn_.num_params = static_cast<uint16_t>(refs.size());
  if (named < 0) {
    w.fn_.num_captures = 1;
    w.fn_.reference_captures.push_back(0);
    w.fn_.capture_types.push_back(TypeDescOf(f));
  }
  w.SetSignature({g->args.begin(), g->args.end()}, g->result);
  const int closure = w.Alloc(true);
  if (named < 0) {
    w.Emit(vm::Instr::ABC(vm::Op::GETCAP, static_cast<uint16_t>(closure), 0, 0));
  } else {
    w.Emit(vm::Instr::ABC(vm::Op::LOADFN, static_cast<uint16_t>(closure),
                          static_cast<uint16_t>(named), 0));
  }
  // GRAD moves the arguments in and leaves the result in R(base).
  w.Emit(vm::Instr::ABC(vm::Op::GRAD, static_cast<uint16_t>(base), static_cast<uint16_t>(closure),
                        static_cast<uint16_t>(refs.size()),
                        id == lang::BuiltinId::kValueAndGrad ? 1 : 0),
         at);
  w.Return(base);
  SetFunction(index, w.Finish());
  return index;
}

int ProgramCompiler::BuiltinWrapper(lang::BuiltinId id, const Type* type, Span at) {
  std::string key = absl::StrCat(static_cast<int>(id), "|", Key(type));
  auto it = wrappers_.find(key);
  if (it != wrappers_.end()) return it->second;
  int index = NewFunctionSlot();
  wrappers_.emplace(key, index);
  FunctionCompiler w(*this, {}, std::string(lang::GetBuiltin(id).name));
  type = types::Resolve(type);
  std::vector<bool> refs;
  for (const Type* a : type->args) refs.push_back(IsRef(a));
  int base = w.AllocWindow(refs);
  w.fn_.num_params = static_cast<uint16_t>(refs.size());
  w.SetSignature({type->args.begin(), type->args.end()}, type->result);
  std::vector<int> regs;
  for (size_t i = 0; i < refs.size(); ++i) regs.push_back(base + static_cast<int>(i));
  // A builtin used as a value takes its required parameters; the rest keep
  // their defaults.
  const lang::Builtin& builtin = lang::GetBuiltin(id);
  for (size_t p = regs.size(); builtin.is_function && p < builtin.params.size(); ++p) {
    regs.push_back(w.LoadDefault(builtin.params[p]));
  }
  int r = w.Alloc(IsRef(type->result));
  if (!w.ApplyBuiltin(id, type, regs, r, at)) {
    Unsupported(Quoted(std::string(lang::GetBuiltin(id).name)), at);
  }
  w.Return(r);
  SetFunction(index, w.Finish());
  return index;
}

}  // namespace alea::compiler
