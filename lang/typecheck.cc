// The top level of the type checker: top-level names, strongly connected
// components of definitions, generalization, annotations, and the error
// helpers every part shares.
#include "lang/typecheck.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "lang/ast_walk.h"
#include "lang/checker.h"

namespace alea::lang {
namespace {

using types::Kind;
using types::Type;

void PatternNames(const Pattern& p, std::vector<std::string>& out) {
  if (p.kind == Pattern::Kind::kVar) out.push_back(p.name);
  for (const PatternPtr& e : p.elements) PatternNames(*e, out);
}

// Calls `use` for every name `e` refers to that no enclosing local binds:
// the edges between top-level definitions.
template <typename F>
void FreeNames(const Expr& e, std::vector<std::string>& scope, F& use) {
  switch (e.kind) {
    case Expr::Kind::kName:
      if (std::find(scope.rbegin(), scope.rend(), e.name) == scope.rend()) use(e.name);
      return;
    case Expr::Kind::kLambda: {
      size_t mark = scope.size();
      for (const Param& p : e.params) {
        if (p.pattern) PatternNames(*p.pattern, scope);
      }
      if (e.body) FreeNames(*e.body, scope, use);
      scope.resize(mark);
      return;
    }
    case Expr::Kind::kBlock: {
      size_t mark = scope.size();
      for (const Stmt& s : e.stmts) {
        if (s.expr) FreeNames(*s.expr, scope, use);
        if (s.kind == Stmt::Kind::kLet && s.pattern) PatternNames(*s.pattern, scope);
      }
      if (e.result) FreeNames(*e.result, scope, use);
      scope.resize(mark);
      return;
    }
    case Expr::Kind::kMatch: {
      if (e.lhs) FreeNames(*e.lhs, scope, use);
      for (const MatchArm& arm : e.arms) {
        size_t mark = scope.size();
        if (arm.pattern) PatternNames(*arm.pattern, scope);
        if (arm.guard) FreeNames(*arm.guard, scope, use);
        if (arm.body) FreeNames(*arm.body, scope, use);
        scope.resize(mark);
      }
      return;
    }
    default:
      ForEachChild(e, [&](const Expr& child) { FreeNames(child, scope, use); });
      return;
  }
}

}  // namespace

bool TypeCheck(Program& program, const SourceManager& sources, Diagnostics& diags,
               bool states_in_top_lets) {
  Checker checker(program, sources, diags);
  checker.states_in_top_lets_ = states_in_top_lets;
  return checker.Run();
}

Checker::Checker(Program& program, const SourceManager& sources, Diagnostics& diags)
    : program_(program), sources_(sources), diags_(diags) {
  store_holder_ = std::make_shared<types::TypeStore>();
  store_ = store_holder_.get();
}

bool Checker::Run() {
  int errors_before = diags_.error_count();
  for (auto& module : program_.modules) module->types = store_holder_;
  CollectTypes();
  CollectTopLevel();
  CheckSccs();
  // What is still pending mentions no variable any scheme quantified.
  SolvePending();
  std::vector<types::Constraint> rest = std::move(pending_);
  pending_.clear();
  for (types::Constraint& c : rest) DefaultConstraint(c);
  CheckMain();
  return diags_.error_count() == errors_before;
}

// ---- Top level ---------------------------------------------------------------

void Checker::CollectTopLevel() {
  const int n = static_cast<int>(program_.modules.size());
  visible_.assign(n, {});
  std::vector<absl::flat_hash_map<std::string, int>> own(n);
  for (int m = 0; m < n; ++m) {
    Module& module = *program_.modules[m];
    for (auto& fn : module.fns) {
      items_.push_back(TopItem{fn.get(), nullptr, nullptr, m});
      own[m].emplace(fn->name, static_cast<int>(items_.size()) - 1);
    }
    for (auto& let : module.lets) {
      std::vector<Pattern*> vars;
      std::vector<Pattern*> stack = {let->pattern.get()};
      while (!stack.empty()) {
        Pattern* p = stack.back();
        stack.pop_back();
        if (p == nullptr) continue;
        if (p->kind == Pattern::Kind::kVar) vars.push_back(p);
        for (auto it = p->elements.rbegin(); it != p->elements.rend(); ++it) {
          stack.push_back(it->get());
        }
      }
      // A let binding several names is one definition; its first item
      // carries the value, the others only name a part of it.
      if (vars.empty()) items_.push_back(TopItem{nullptr, let.get(), nullptr, m});
      for (Pattern* var : vars) {
        items_.push_back(TopItem{nullptr, let.get(), var, m});
        own[m].emplace(var->name, static_cast<int>(items_.size()) - 1);
      }
    }
  }
  for (int m = 0; m < n; ++m) {
    for (int v : VisibleModules(m)) {
      for (const auto& [name, index] : own[v]) visible_[m].emplace(name, index);
    }
  }
}

std::vector<int> Checker::VisibleModules(int m) const {
  const int n = static_cast<int>(program_.modules.size());
  std::vector<int> vis =
      m < static_cast<int>(program_.visible.size()) ? program_.visible[m] : std::vector<int>{m};
  if (std::find(vis.begin(), vis.end(), m) == vis.end()) vis.insert(vis.begin(), m);
  vis.erase(std::remove_if(vis.begin(), vis.end(), [n](int v) { return v < 0 || v >= n; }),
            vis.end());
  return vis;
}

Checker::TopItem* Checker::LookupTop(const std::string& name) {
  auto it = visible_[module_].find(name);
  return it == visible_[module_].end() ? nullptr : &items_[it->second];
}

void Checker::CheckSccs() {
  const int n = static_cast<int>(items_.size());
  // Items of one let share their value: group them under the first.
  std::vector<int> owner(n);
  for (int i = 0; i < n; ++i) {
    owner[i] = i;
    if (i > 0 && items_[i].let != nullptr && items_[i].let == items_[i - 1].let) {
      owner[i] = owner[i - 1];
    }
  }
  std::vector<std::vector<int>> edges(n);
  std::vector<bool> self_loop(n, false);
  for (int i = 0; i < n; ++i) {
    if (owner[i] != i) continue;
    TopItem& item = items_[i];
    std::vector<std::string> scope;
    auto use = [&](const std::string& name) {
      auto it = visible_[item.module].find(name);
      if (it == visible_[item.module].end()) return;
      int target = owner[it->second];
      if (target == i) self_loop[i] = true;
      edges[i].push_back(target);
    };
    if (item.fn != nullptr) {
      for (const Param& p : item.fn->params) {
        if (p.pattern) PatternNames(*p.pattern, scope);
      }
      if (item.fn->body) FreeNames(*item.fn->body, scope, use);
    } else if (item.let->value) {
      FreeNames(*item.let->value, scope, use);
    }
  }
  // Tarjan's algorithm, iteratively (a long chain of definitions must not
  // overflow the stack). SCCs come out dependencies first.
  std::vector<int> index(n, -1), low(n, 0), stack;
  std::vector<bool> on_stack(n, false);
  std::vector<std::vector<int>> sccs;
  std::vector<bool> cyclic;
  int counter = 0;
  for (int root = 0; root < n; ++root) {
    if (owner[root] != root || index[root] >= 0) continue;
    std::vector<std::pair<int, size_t>> work = {{root, 0}};
    index[root] = low[root] = counter++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!work.empty()) {
      auto& [v, next] = work.back();
      if (next < edges[v].size()) {
        int w = edges[v][next++];
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          on_stack[w] = true;
          work.push_back({w, 0});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      if (low[v] == index[v]) {
        std::vector<int> scc;
        int w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = false;
          scc.push_back(w);
        } while (w != v);
        std::sort(scc.begin(), scc.end());
        sccs.push_back(std::move(scc));
        cyclic.push_back(sccs.back().size() > 1 || self_loop[v]);
      }
      int done = v;
      work.pop_back();
      if (!work.empty()) low[work.back().first] = std::min(low[work.back().first], low[done]);
    }
  }
  // Definitions are inferred dependencies first, and otherwise in source
  // order, so that errors come out roughly in the order of the file.
  std::vector<int> scc_of(n, -1);
  for (size_t k = 0; k < sccs.size(); ++k) {
    for (int i : sccs[k]) scc_of[i] = static_cast<int>(k);
  }
  std::vector<std::vector<int>> dependents(sccs.size());
  std::vector<int> waiting(sccs.size(), 0);
  for (int i = 0; i < n; ++i) {
    if (owner[i] != i) continue;
    std::vector<int> deps;
    for (int t : edges[i]) {
      if (scc_of[t] != scc_of[i]) deps.push_back(scc_of[t]);
    }
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    for (int d : deps) {
      dependents[d].push_back(scc_of[i]);
      ++waiting[scc_of[i]];
    }
  }
  // Min-heap on the first item of each SCC.
  auto later = [&](int a, int b) { return sccs[a][0] > sccs[b][0]; };
  std::vector<int> ready;
  for (size_t k = 0; k < sccs.size(); ++k) {
    if (waiting[k] == 0) ready.push_back(static_cast<int>(k));
  }
  std::make_heap(ready.begin(), ready.end(), later);
  while (!ready.empty()) {
    std::pop_heap(ready.begin(), ready.end(), later);
    int k = ready.back();
    ready.pop_back();
    if (cyclic[k]) {
      for (int i : sccs[k]) {
        const TopItem& item = items_[i];
        if (item.let == nullptr) continue;
        std::string name = item.var != nullptr ? item.var->name : "_";
        diags_.Report(DiagId::kRecursiveTopLet, item.let->pattern->span, name);
      }
    }
    // Every item of a let rides along with its first.
    std::vector<int> full;
    for (int i : sccs[k]) {
      for (int j = i; j < n && owner[j] == i; ++j) full.push_back(j);
    }
    InferScc(full);
    for (int d : dependents[k]) {
      if (--waiting[d] == 0) {
        ready.push_back(d);
        std::push_heap(ready.begin(), ready.end(), later);
      }
    }
  }
}

void Checker::InferScc(const std::vector<int>& scc) {
  ++level_;
  recursive_uses_.clear();
  // Monomorphic types for every member first, so that they can refer to each
  // other in any order.
  absl::flat_hash_map<const TopLet*, Type*> let_types;
  for (int i : scc) {
    TopItem& item = items_[i];
    module_ = item.module;
    item.in_progress = true;
    if (item.fn != nullptr) {
      std::vector<Type*> params;
      for (Param& p : item.fn->params) params.push_back(ParamType(p, ""));
      if (IsMainWithArgs(item)) {
        // The command-line arguments: an unannotated parameter is `[Str]`
        // before the body is inferred, as if annotated. Left a variable, the
        // uses in the body (`len(args)`) would be generalized over and only
        // then bound by CheckMain: the compiler would see overloads resolved
        // at no type.
        const Param& param = item.fn->params[0];
        const Span span = param.pattern ? param.pattern->span : item.fn->name_span;
        const std::string reason = "the command-line arguments of `main`";
        params[0] = store_->Array(Prim(Kind::kStr, span, reason), At(span, reason));
      }
      Type* result = item.fn->result
                         ? FromAnnotation(*item.fn->result)
                         : Fresh("the result of `" + item.fn->name + "`", item.fn->name_span);
      item.mono = store_->Function(std::move(params), result,
                                   At(item.fn->name_span, "the function `" + item.fn->name + "`"));
      item.fn->type = item.mono;
    } else if (!let_types.contains(item.let)) {
      // An `extern let` is a value of the host's (in the REPL: a session
      // value): its type is the host's, not an annotation the reader wrote.
      const std::string reason =
          item.let->is_extern && item.let->pattern->kind == Pattern::Kind::kVar
              ? "the type of `" + item.let->pattern->name + "`"
              : "the annotation";
      Type* t = item.let->type ? FromAnnotation(*item.let->type, reason)
                               : Fresh("the `let`", item.let->pattern->span);
      let_types[item.let] = t;
      std::vector<Local> bound;
      BindPattern(*item.let->pattern, t, false, bound);
    }
  }
  for (int i : scc) {
    TopItem& item = items_[i];
    if (item.let != nullptr && item.var != nullptr) item.mono = const_cast<Type*>(item.var->type);
    if (item.let != nullptr && item.var == nullptr) item.mono = let_types[item.let];
  }
  absl::flat_hash_set<const TopLet*> done_lets;
  for (int i : scc) {
    TopItem& item = items_[i];
    module_ = item.module;
    locals_.clear();
    if (item.fn != nullptr) {
      ambient_ = item.fn->uses_rng;
      lambda_in_ambient_ = false;
      for (size_t p = 0; p < item.fn->params.size(); ++p) {
        Param& param = item.fn->params[p];
        if (param.pattern) BindPattern(*param.pattern, item.mono->args[p], false, locals_);
      }
      if (item.fn->body) {
        Type* body = Infer(*item.fn->body);
        Span span = item.fn->body->span;
        if (item.fn->body->kind == Expr::Kind::kBlock && item.fn->body->result) {
          span = item.fn->body->result->span;
        }
        Expect(item.mono->result, body, span);
      }
    } else if (done_lets.insert(item.let).second && item.let->value) {
      ambient_ = false;
      lambda_in_ambient_ = false;
      Type* value = Infer(*item.let->value);
      Expect(let_types[item.let], value, item.let->value->span);
    }
    SolvePending();
  }
  ambient_ = false;
  locals_.clear();
  --level_;
  std::vector<Type*> monos;
  for (int i : scc) monos.push_back(items_[i].mono);
  std::vector<types::Scheme*> schemes = Generalize(monos);
  for (size_t k = 0; k < scc.size(); ++k) {
    TopItem& item = items_[scc[k]];
    item.scheme = schemes[k];
    item.in_progress = false;
    if (item.fn != nullptr) item.fn->scheme = schemes[k];
    if (item.var != nullptr) item.var->scheme = schemes[k];
    // A host-provided state (`extern let`) is checked when it is consumed:
    // the VM's "used twice" error.
    if (item.let != nullptr && item.var != nullptr && !item.let->is_extern &&
        !states_in_top_lets_ && types::Contains(item.mono, Kind::kRandState)) {
      diags_.Report(DiagId::kRandStateInTopLet, item.var->span, item.var->name,
                    types::ToString(item.mono));
    }
  }
  if (!schemes.empty()) {
    for (Expr* use : recursive_uses_) {
      use->type_args.assign(schemes[0]->vars.begin(), schemes[0]->vars.end());
    }
  }
  recursive_uses_.clear();
}

bool Checker::IsMainWithArgs(const TopItem& item) const {
  return item.fn != nullptr && item.fn->name == "main" &&
         item.module == static_cast<int>(program_.modules.size()) - 1 &&
         item.fn->params.size() == 1 && !item.fn->params[0].type;
}

void Checker::CheckMain() {
  if (program_.modules.empty()) return;
  module_ = static_cast<int>(program_.modules.size()) - 1;
  for (auto& fn : program_.modules[module_]->fns) {
    if (fn->name != "main" || fn->type == nullptr) continue;
    Type* t = const_cast<Type*>(fn->type);
    bool ok = fn->params.size() == 0;
    if (fn->params.size() == 1) {
      types::Trail trail;
      Type* args = store_->Array(store_->Prim(Kind::kStr));
      ok = types::Unify(args, t->args[0], &trail, nullptr);
      if (!ok) trail.Undo(0);
    }
    if (!ok) diags_.Report(DiagId::kMainSignature, fn->name_span, types::ToString(t));
  }
}

// ---- Generalization ------------------------------------------------------------

namespace {

void CollectVars(Type* t, int level, std::vector<Type*>& out, absl::flat_hash_set<Type*>& seen,
                 int depth) {
  t = types::Resolve(t);
  if (depth > 4 * types::kMaxTypeDepth) return;
  if (t->kind == Kind::kVar) {
    if (!t->generic && t->level > level && seen.insert(t).second) out.push_back(t);
    return;
  }
  for (Type* a : t->args) CollectVars(a, level, out, seen, depth + 1);
  if (t->result != nullptr) CollectVars(t->result, level, out, seen, depth + 1);
}

// Every unbound variable of `t` (any level).
void AllVars(Type* t, std::vector<Type*>& out, int depth) {
  t = types::Resolve(t);
  if (depth > 4 * types::kMaxTypeDepth) return;
  if (t->kind == Kind::kVar) {
    out.push_back(t);
    return;
  }
  for (Type* a : t->args) AllVars(a, out, depth + 1);
  if (t->result != nullptr) AllVars(t->result, out, depth + 1);
}

}  // namespace

std::vector<types::Scheme*> Checker::Generalize(const std::vector<Type*>& ts) {
  SolvePending(level_ + 1);
  // Only constraints made inside this binding can mention its variables;
  // they are the newest, so taking them out moves little.
  std::vector<types::Constraint> older = std::move(pending_);
  pending_.clear();
  {
    size_t out = 0;
    for (size_t i = 0; i < older.size(); ++i) {
      if (older[i].level > level_) {
        pending_.push_back(std::move(older[i]));
        continue;
      }
      if (out != i) older[out] = std::move(older[i]);
      ++out;
    }
    older.resize(out);
  }
  // A variable tied by a pending constraint to a variable of the enclosing
  // scope is determined by it (`let y = x + 1` inside `fn f(x)`): it belongs
  // to that scope, not to this binding's scheme. Without this, every local
  // `let` would carry (and copy at each use) the constraints of the ones
  // before it.
  for (bool changed = true; changed;) {
    changed = false;
    for (const types::Constraint& c : pending_) {
      std::vector<Type*> cv;
      AllVars(c.site, cv, 0);
      bool outer = std::any_of(cv.begin(), cv.end(), [&](Type* v) { return v->level <= level_; });
      if (!outer) continue;
      for (Type* v : cv) {
        if (v->level > level_) {
          v->level = level_;
          changed = true;
        }
      }
    }
  }
  std::vector<Type*> vars;
  absl::flat_hash_set<Type*> seen;
  for (Type* t : ts) CollectVars(t, level_, vars, seen, 0);
  // Constraints connected to the quantified variables go into the scheme,
  // with all their own variables of this level (a result type that only a
  // constraint mentions is determined by the others at each use).
  std::vector<bool> included(pending_.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < pending_.size(); ++i) {
      if (included[i]) continue;
      std::vector<Type*> cv;
      AllVars(pending_[i].site, cv, 0);
      bool touches = std::any_of(cv.begin(), cv.end(), [&](Type* v) { return seen.contains(v); });
      if (!touches) continue;
      included[i] = changed = true;
      CollectVars(pending_[i].site, level_, vars, seen, 0);
    }
  }
  std::vector<types::Constraint> kept, in_scheme, ambiguous;
  for (size_t i = 0; i < pending_.size(); ++i) {
    if (included[i]) {
      in_scheme.push_back(std::move(pending_[i]));
      continue;
    }
    std::vector<Type*> cv;
    AllVars(pending_[i].site, cv, 0);
    bool outer = std::any_of(cv.begin(), cv.end(), [&](Type* v) { return v->level <= level_; });
    (outer ? kept : ambiguous).push_back(std::move(pending_[i]));
  }
  for (types::Constraint& c : kept) c.level = level_;
  pending_ = std::move(older);
  for (types::Constraint& c : kept) pending_.push_back(std::move(c));
  for (Type* v : vars) v->generic = true;
  std::vector<types::Scheme*> schemes;
  for (Type* t : ts) {
    types::Scheme* s = store_->NewScheme();
    s->vars = vars;
    s->constraints = in_scheme;
    s->type = t;
    schemes.push_back(s);
  }
  for (types::Constraint& c : ambiguous) DefaultConstraint(c);
  return schemes;
}

Type* Checker::Instantiate(types::Scheme* scheme, Span span, std::vector<const Type*>* args) {
  if (scheme->vars.empty()) return scheme->type;
  absl::flat_hash_map<Type*, Type*> subst;
  for (Type* v : scheme->vars) {
    Type* fresh = store_->Var(level_, v->origin, v->dtype_mask);
    subst[v] = fresh;
    if (args != nullptr) args->push_back(fresh);
  }
  Type* t = store_->Instantiate(scheme->type, subst, level_, nullptr);
  for (const types::Constraint& c : scheme->constraints) {
    types::Constraint copy = c;
    copy.site = store_->Instantiate(c.site, subst, level_, nullptr);
    copy.expr = nullptr;
    if (!copy.required_by) copy.required_by = c.span;
    copy.span = span;
    copy.chosen = -1;
    copy.tried_shape = 0;
    copy.level = level_;
    pending_.push_back(std::move(copy));
  }
  return t;
}

// ---- Annotations -------------------------------------------------------------

Type* Checker::FromAnnotation(const TypeAnn& ann, const std::string& reason) {
  types::Origin origin = At(ann.span, reason);
  switch (ann.kind) {
    case TypeAnn::Kind::kTuple: {
      std::vector<Type*> elements;
      for (const TypeAnnPtr& a : ann.args) elements.push_back(FromAnnotation(*a, reason));
      return store_->Tuple(std::move(elements), origin);
    }
    case TypeAnn::Kind::kArray:
      return store_->Array(ann.element ? FromAnnotation(*ann.element, reason) : store_->Error(),
                           origin);
    case TypeAnn::Kind::kFunction: {
      std::vector<Type*> params;
      for (const TypeAnnPtr& a : ann.args) params.push_back(FromAnnotation(*a, reason));
      return store_->Function(std::move(params),
                              ann.element ? FromAnnotation(*ann.element, reason) : store_->Error(),
                              origin);
    }
    case TypeAnn::Kind::kName:
      break;
  }
  static const std::pair<const char*, Kind> kPrims[] = {
      {"Int", Kind::kInt}, {"Float", Kind::kFloat},         {"Bool", Kind::kBool},
      {"Str", Kind::kStr}, {"RandState", Kind::kRandState}, {"Plot", Kind::kPlot},
  };
  for (const auto& [name, kind] : kPrims) {
    if (ann.name != name) continue;
    if (!ann.args.empty()) {
      diags_.Report(DiagId::kBadTypeArguments, ann.span, ann.name, "no arguments");
    }
    return store_->Prim(kind, origin);
  }
  if (ann.name == "Tensor" || ann.name == "DType") {
    types::DType dtype = types::DType::kF32;
    if (ann.args.size() > 1 || (ann.name == "DType" && ann.args.size() != 1)) {
      diags_.Report(DiagId::kBadTypeArguments, ann.span, ann.name,
                    "one dtype: `f32`, `i32`, `u32` or `bool`");
      return store_->Error();
    }
    if (ann.args.size() == 1) {
      const TypeAnn& d = *ann.args[0];
      static const std::pair<const char*, types::DType> kDTypes[] = {{"f32", types::DType::kF32},
                                                                     {"i32", types::DType::kI32},
                                                                     {"u32", types::DType::kU32},
                                                                     {"bool", types::DType::kBool}};
      bool found = false;
      for (const auto& [name, value] : kDTypes) {
        if (d.kind == TypeAnn::Kind::kName && d.args.empty() && d.name == name) {
          dtype = value;
          found = true;
        }
      }
      if (!found) {
        diags_.Report(DiagId::kBadTypeArguments, d.span, ann.name,
                      "one dtype: `f32`, `i32`, `u32` or `bool`");
        return store_->Error();
      }
    }
    Type* d = store_->DTypeConst(dtype, origin);
    return ann.name == "Tensor" ? store_->Tensor(d, origin) : store_->DTypeOf(d, origin);
  }
  if (Type* named = NamedFromAnnotation(ann, origin, reason)) return named;
  Diagnostic& d = diags_.Report(DiagId::kUnknownType, ann.span, ann.name);
  NearestName nearest(ann.name);
  for (const char* name : types::kBuiltinTypeNames) {
    nearest.Consider(name);
  }
  for (const auto& [name, def] : visible_types_[module_]) nearest.Consider(name);
  if (!nearest.best().empty()) d.Help(DiagId::kHelpDidYouMean, nearest.best());
  return store_->Error();
}

// ---- Errors --------------------------------------------------------------------

void Checker::SuggestName(Diagnostic& d, const std::string& name) {
  NearestName nearest(name);
  for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) nearest.Consider(it->name);
  for (const auto& [top, index] : visible_[module_]) nearest.Consider(top);
  for (std::string_view b : BuiltinNames()) nearest.Consider(b);
  if (!nearest.best().empty()) d.Help(DiagId::kHelpDidYouMean, nearest.best());
}

bool Checker::Expect(Type* expected, Type* found, Span span) {
  types::UnifyFailure failure;
  // The parts that did match stay unified (as in most HM checkers): undoing
  // them would leave variables open and breed "cannot infer" errors later.
  if (types::Unify(expected, found, nullptr, &failure)) return true;
  ReportUnifyFailure(span, expected, found, failure);
  // Make the rest consistent without cascading: what failed becomes an error.
  if (failure.expected != nullptr && failure.expected->kind == Kind::kVar) {
    types::Unify(failure.expected, store_->Error(), nullptr, nullptr);
  }
  if (failure.found != nullptr && failure.found->kind == Kind::kVar) {
    types::Unify(failure.found, store_->Error(), nullptr, nullptr);
  }
  return false;
}

void Checker::AddOriginNotes(Diagnostic& d, types::Printer& printer, const Type* t) {
  const Type* r = types::Resolve(t);
  const types::Origin& o = r->origin.reason.empty() ? t->origin : r->origin;
  if (o.reason.empty() || !o.span || r->kind == Kind::kVar) return;
  size_t before = d.notes.size();
  d.Note(o.span, DiagId::kNoteTypeFrom, printer.Print(r), o.reason);
  // Both sides often come from one place (`sq("a")`): say it once.
  for (size_t i = 0; i < before; ++i) {
    const DiagNote& n = d.notes[i];
    const DiagNote& added = d.notes.back();
    if (n.message == added.message && n.span.has_value() == added.span.has_value() &&
        (!n.span || (n.span->file == added.span->file && n.span->begin == added.span->begin))) {
      d.notes.pop_back();
      break;
    }
  }
}

void Checker::ReportUnifyFailure(Span span, Type* expected, Type* found,
                                 const types::UnifyFailure& failure) {
  types::Printer printer;
  switch (failure.reason) {
    case types::UnifyFailure::Reason::kTooDeep:
      diags_.Report(DiagId::kTypeTooDeep, span, types::kMaxTypeDepth);
      return;
    case types::UnifyFailure::Reason::kInfinite: {
      Type* var = failure.expected->kind == Kind::kVar ? failure.expected : failure.found;
      Type* other = var == failure.expected ? failure.found : failure.expected;
      std::string v = printer.Print(var);
      diags_.Report(DiagId::kInfiniteType, span, v, v + " = " + printer.Print(other));
      return;
    }
    default:
      break;
  }
  std::string e = printer.Print(expected);
  std::string f = printer.Print(found);
  Diagnostic& d = diags_.Report(DiagId::kTypeMismatch, span, e, f);
  Type* inner_e = failure.expected != nullptr ? failure.expected : expected;
  Type* inner_f = failure.found != nullptr ? failure.found : found;
  AddOriginNotes(d, printer, inner_e);
  AddOriginNotes(d, printer, inner_f);
  Kind ke = types::Resolve(inner_e)->kind;
  Kind kf = types::Resolve(inner_f)->kind;
  if ((ke == Kind::kInt && kf == Kind::kFloat) || (ke == Kind::kFloat && kf == Kind::kInt)) {
    d.Help(DiagId::kHelpIntFloat);
  }
}

// ---- Helpers ---------------------------------------------------------------------

Type* Checker::Fresh(std::string reason, std::optional<Span> span) {
  return store_->Var(level_, types::Origin{span, std::move(reason)});
}

std::string Checker::Text(Span span) const {
  if (span.file >= sources_.size()) return "";
  std::string_view text = sources_.file(span.file).text();
  if (span.begin > text.size() || span.end > text.size() || span.end < span.begin) return "";
  std::string out(text.substr(span.begin, span.end - span.begin));
  if (out.size() > 40) out = out.substr(0, 37) + "...";
  return out;
}

}  // namespace alea::lang
