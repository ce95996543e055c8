#include "lang/desugar.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "lang/ast_print.h"
#include "lang/ast_walk.h"
#include "lang/rng_sites.h"

namespace alea::lang {
namespace {

// ---- What the program is made of ------------------------------------------

// Every identifier of the program (bound, referenced or an argument name),
// and the names it binds, to pick generated names that collide with none.
struct Identifiers {
  absl::flat_hash_set<std::string> all;
  absl::flat_hash_set<std::string> bound;

  void Pattern(const lang::Pattern& p) {
    if (p.kind == Pattern::Kind::kVar) {
      all.insert(p.name);
      bound.insert(p.name);
    }
    for (const PatternPtr& element : p.elements) Pattern(*element);
  }

  void Expr(const lang::Expr& root) {
    WalkExpr(root, [this](const lang::Expr& e) {
      if (e.kind == Expr::Kind::kName) all.insert(e.name);
      for (const Arg& arg : e.args) all.insert(arg.name);
      for (const Param& param : e.params) Pattern(*param.pattern);
      for (const Stmt& stmt : e.stmts) {
        if (stmt.pattern) Pattern(*stmt.pattern);
      }
      for (const MatchArm& arm : e.arms) Pattern(*arm.pattern);
    });
  }

  void Module(const lang::Module& module) {
    for (const auto& fn : module.fns) {
      all.insert(fn->name);
      bound.insert(fn->name);
      for (const Param& param : fn->params) Pattern(*param.pattern);
      if (fn->body) Expr(*fn->body);
    }
    for (const auto& let : module.lets) {
      Pattern(*let->pattern);
      if (let->value) Expr(*let->value);
    }
  }

  bool AnyStartsWith(const std::string& prefix) const {
    return std::any_of(all.begin(), all.end(),
                       [&](const std::string& name) { return absl::StartsWith(name, prefix); });
  }

  // `base` with underscores added until no identifier starts with it.
  std::string FreshPrefix(std::string base) const {
    while (AnyStartsWith(base)) base += '_';
    return base;
  }

  // `base` with underscores added until it is no identifier.
  std::string FreshName(std::string base) const {
    while (all.contains(base)) base += '_';
    return base;
  }
};

bool HasAmbient(const Module& module) {
  bool found = false;
  auto look = [&found](const Expr& root) {
    WalkExpr(root, [&found](const Expr& e) { found = found || e.kind == Expr::Kind::kWith; });
  };
  for (const auto& fn : module.fns) {
    if (fn->uses_rng) return true;
    if (fn->body) look(*fn->body);
  }
  for (const auto& let : module.lets) {
    if (let->value) look(*let->value);
  }
  return found;
}

// Whether the program calls `fn` anywhere (then a `uses rng` main needs its
// stream as a parameter, and a separate entry point gives it one).
bool IsCalled(const Program& program, const FnDecl* fn) {
  bool found = false;
  auto look = [&](const Expr& root) {
    WalkExpr(root, [&](const Expr& e) {
      found = found ||
              (e.kind == Expr::Kind::kName && e.name_kind == NameKind::kFunction && e.fn == fn);
    });
  };
  for (const auto& module : program.modules) {
    for (const auto& f : module->fns) {
      if (f->body) look(*f->body);
    }
    for (const auto& let : module->lets) {
      if (let->value) look(*let->value);
    }
  }
  return found;
}

// ---- Building nodes --------------------------------------------------------

ExprPtr NewExpr(Expr::Kind kind, Span span) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->span = span;
  return e;
}

ExprPtr NameExpr(const std::string& name, Span span) {
  ExprPtr e = NewExpr(Expr::Kind::kName, span);
  e->name = name;
  return e;
}

ExprPtr CallExpr(const std::string& callee, std::vector<ExprPtr> args, Span span) {
  ExprPtr e = NewExpr(Expr::Kind::kCall, span);
  e->lhs = NameExpr(callee, span);
  for (ExprPtr& arg : args) e->args.push_back(Arg{"", span, std::move(arg)});
  return e;
}

PatternPtr VarPattern(const std::string& name, Span span) {
  auto p = std::make_unique<Pattern>();
  p->kind = name == "_" ? Pattern::Kind::kWildcard : Pattern::Kind::kVar;
  p->span = span;
  if (name != "_") p->name = name;
  return p;
}

TypeAnnPtr StateType(Span span) {
  auto t = std::make_unique<TypeAnn>();
  t->kind = TypeAnn::Kind::kName;
  t->span = span;
  t->name = "RandState";
  return t;
}

Stmt LetStmt(PatternPtr pattern, ExprPtr value, Span span) {
  Stmt s;
  s.kind = Stmt::Kind::kLet;
  s.span = span;
  s.pattern = std::move(pattern);
  s.expr = std::move(value);
  return s;
}

// `stmts` run first, then `e`; a block takes them at its front.
ExprPtr Prepend(std::vector<Stmt> stmts, ExprPtr e) {
  if (stmts.empty()) return e;
  if (e->kind != Expr::Kind::kBlock) {
    ExprPtr block = NewExpr(Expr::Kind::kBlock, e->span);
    block->result = std::move(e);
    e = std::move(block);
  }
  e->stmts.insert(e->stmts.begin(), std::make_move_iterator(stmts.begin()),
                  std::make_move_iterator(stmts.end()));
  return e;
}

TypeAnnPtr CloneType(const TypeAnn* t) {
  if (t == nullptr) return nullptr;
  auto out = std::make_unique<TypeAnn>();
  out->kind = t->kind;
  out->span = t->span;
  out->name = t->name;
  for (const TypeAnnPtr& arg : t->args) out->args.push_back(CloneType(arg.get()));
  out->element = CloneType(t->element.get());
  return out;
}

// ---- The rewrite -------------------------------------------------------------

// One scope of sites being rewritten: a function body, a `with` body, or an
// arm of an `if`/`match`. Its generated names carry its tag, so nested
// scopes never shadow their parents' names: `site_2` of a body, `site_2_0`
// of the arms of that site, `site_w0_1` of a `with` nested in the body. (A
// lambda starts afresh, as its body sees no ambient state: a `with` in it
// may shadow names outside, none of which it could use anyway.)
struct Scope {
  std::string tag;
  int sites = 0;  // one past the highest site index met so far
  int withs = 0;  // `with` blocks met so far, to tag them
};

std::string SubTag(const std::string& tag, const std::string& part) {
  return tag.empty() ? part : absl::StrCat(tag, "_", part);
}

// The output is built as a new, unannotated tree that only the printer reads,
// so the printer (ast_print.h) stays the one definition of the syntax.
class Desugarer {
 public:
  Desugarer(const Identifiers& ids, const FnDecl* main, bool main_called, int64_t seed)
      : main_(main), seed_(seed) {
    rng_ = ids.FreshPrefix("rng_");
    site_ = ids.FreshPrefix("site_");
    // A user binding named like a builtin the output calls would capture it.
    for (const char* builtin : {"next", "key"}) {
      if (ids.bound.contains(builtin))
        renamed_[builtin] = ids.FreshName(absl::StrCat(builtin, "_"));
    }
    if (main_ != nullptr && main_called) main_impl_ = ids.FreshName("main_");
  }

  void Module(const lang::Module& in, bool with_imports, lang::Module& out) {
    out.file = in.file;
    if (with_imports) {
      for (const Import& import : in.imports) out.imports.push_back(import);
    }
    for (const auto& decl : in.type_decls) {
      auto copy = std::make_unique<TypeDecl>();
      copy->span = decl->span;
      copy->name_span = decl->name_span;
      copy->name = decl->name;
      copy->params = decl->params;
      copy->param_spans = decl->param_spans;
      copy->is_record = decl->is_record;
      for (const FieldDecl& f : decl->fields) {
        copy->fields.push_back(FieldDecl{f.span, f.name, CloneType(f.type.get())});
      }
      for (const CtorDecl& c : decl->ctors) {
        CtorDecl ctor{c.span, c.name, {}};
        for (const TypeAnnPtr& f : c.fields) ctor.fields.push_back(CloneType(f.get()));
        copy->ctors.push_back(std::move(ctor));
      }
      out.type_decls.push_back(std::move(copy));
    }
    for (const auto& let : in.lets) {
      auto copy = std::make_unique<TopLet>();
      copy->span = let->span;
      copy->pattern = Pattern(*let->pattern);
      copy->type = CloneType(let->type.get());
      copy->is_extern = let->is_extern;
      sites_.clear();
      if (let->value) NumberSites(*let->value, sites_);
      if (let->value) copy->value = Expr(*let->value, nullptr);
      out.lets.push_back(std::move(copy));
    }
    for (const auto& fn : in.fns) Fn(*fn, out);
  }

 private:
  std::string Rng(const std::string& tag, int i) const {
    return absl::StrCat(rng_, tag.empty() ? "" : tag + "_", i);
  }
  std::string Site(const std::string& tag, int i) const {
    return absl::StrCat(site_, tag.empty() ? "" : tag + "_", i);
  }

  // The `next` chain that opens a scope: `let (site_i, rng_{i+1}) = next(rng_i);`
  // for each of its sites, starting from `stream`; the rest of the stream is
  // dropped (`_`) after the last site.
  std::vector<Stmt> Chain(const Scope& scope, const std::string& stream, Span span) const {
    std::vector<Stmt> out;
    for (int i = 0; i < scope.sites; ++i) {
      auto pair = std::make_unique<lang::Pattern>();
      pair->kind = Pattern::Kind::kTuple;
      pair->span = span;
      pair->elements.push_back(VarPattern(Site(scope.tag, i), span));
      pair->elements.push_back(VarPattern(i + 1 < scope.sites ? Rng(scope.tag, i + 1) : "_", span));
      std::vector<ExprPtr> args;
      args.push_back(NameExpr(i == 0 ? stream : Rng(scope.tag, i), span));
      out.push_back(LetStmt(std::move(pair), CallExpr("next", std::move(args), span), span));
    }
    return out;
  }

  // The index of site `e` in `scope`, or -1 when `e` is no site.
  int SiteIndex(const lang::Expr& e, Scope* scope) {
    if (scope == nullptr) return -1;  // only in a program with errors
    auto it = sites_.find(&e);
    if (it == sites_.end()) return -1;
    scope->sites = std::max(scope->sites, it->second + 1);
    return it->second;
  }

  std::string Renamed(const std::string& name) const {
    auto it = renamed_.find(name);
    return it == renamed_.end() ? name : it->second;
  }

  PatternPtr Pattern(const lang::Pattern& p) const {
    auto out = std::make_unique<lang::Pattern>();
    out->kind = p.kind;
    out->span = p.span;
    out->name = p.kind == Pattern::Kind::kVar ? Renamed(p.name) : p.name;
    out->int_value = p.int_value;
    out->bool_value = p.bool_value;
    out->str_value = p.str_value;
    out->field_names = p.field_names;
    out->field_spans = p.field_spans;
    out->rest = p.rest;
    for (const PatternPtr& element : p.elements) out->elements.push_back(Pattern(*element));
    return out;
  }

  std::vector<Param> Params(const std::vector<Param>& params) const {
    std::vector<Param> out;
    for (const Param& param : params) {
      out.push_back(Param{Pattern(*param.pattern), CloneType(param.type.get())});
    }
    return out;
  }

  void Fn(const FnDecl& fn, lang::Module& out) {
    auto copy = std::make_unique<FnDecl>();
    copy->span = fn.span;
    copy->name_span = fn.name_span;
    copy->name = Renamed(fn.name);
    copy->params = Params(fn.params);
    copy->result = CloneType(fn.result.get());
    copy->is_extern = fn.is_extern;
    sites_.clear();
    if (fn.body) NumberSites(*fn.body, sites_);
    Scope scope;
    ExprPtr body = fn.body ? Expr(*fn.body, fn.uses_rng ? &scope : nullptr) : nullptr;
    std::string stream = Rng("", 0);
    std::vector<Stmt> chain = Chain(scope, stream, fn.span);
    if (&fn == main_ && main_impl_.empty()) {
      // The entry point: its stream is `key(seed)`, as `alea run --seed N` gives it.
      std::vector<ExprPtr> seed;
      seed.push_back(NewExpr(Expr::Kind::kInt, fn.span));
      seed.back()->int_value = seed_;
      chain.insert(chain.begin(), LetStmt(VarPattern(stream, fn.span),
                                          CallExpr("key", std::move(seed), fn.span), fn.span));
    } else if (fn.uses_rng) {
      copy->params.push_back(Param{VarPattern(stream, fn.span), StateType(fn.span)});
    }
    if (body) copy->body = Prepend(std::move(chain), std::move(body));
    if (&fn == main_ && !main_impl_.empty()) {
      // `main` is also called with a stream: it keeps its parameter under
      // another name, and a new `main` calls it with `key(seed)`.
      copy->name = main_impl_;
      out.fns.push_back(std::move(copy));
      EntryPoint(fn, out);
      return;
    }
    out.fns.push_back(std::move(copy));
  }

  // `fn main(args: [Str]) = main_(args, key(seed))` (or without `args`).
  void EntryPoint(const FnDecl& fn, lang::Module& out) const {
    auto entry = std::make_unique<FnDecl>();
    entry->span = fn.span;
    entry->name = "main";
    std::vector<ExprPtr> args;
    if (!fn.params.empty()) {
      auto array = std::make_unique<TypeAnn>();
      array->kind = TypeAnn::Kind::kArray;
      array->span = fn.span;
      array->element = std::make_unique<TypeAnn>();
      array->element->kind = TypeAnn::Kind::kName;
      array->element->name = "Str";
      entry->params.push_back(Param{VarPattern("args", fn.span), std::move(array)});
      args.push_back(NameExpr("args", fn.span));
    }
    std::vector<ExprPtr> seed;
    seed.push_back(NewExpr(Expr::Kind::kInt, fn.span));
    seed.back()->int_value = seed_;
    args.push_back(CallExpr("key", std::move(seed), fn.span));
    entry->body = CallExpr(main_impl_, std::move(args), fn.span);
    out.fns.push_back(std::move(entry));
  }

  // An arm of an `if`/`match` (or a guard): its own scope, whose stream is
  // `stream` (the state of the `if`'s site; unused when it is no site).
  ExprPtr Arm(const lang::Expr& e, const std::string& stream, Scope& scope) {
    ExprPtr out = Expr(e, &scope);
    return Prepend(Chain(scope, stream, e.span), std::move(out));
  }

  ExprPtr With(const lang::Expr& e, Scope* outer) {
    ExprPtr state = Expr(*e.lhs, outer);
    Scope scope;
    if (outer != nullptr) scope.tag = SubTag(outer->tag, absl::StrCat("w", outer->withs++));
    ExprPtr body = Expr(*e.body, &scope);
    std::string stream = Rng(scope.tag, 0);
    std::vector<Stmt> stmts;
    stmts.push_back(LetStmt(VarPattern(stream, e.span), std::move(state), e.span));
    for (Stmt& s : Chain(scope, stream, e.span)) stmts.push_back(std::move(s));
    return Prepend(std::move(stmts), std::move(body));
  }

  // A copy of `e`, rewritten; `scope` is the ambient scope it is in (null
  // where there is none: outside `uses rng` and `with`, or in a lambda).
  // Recursion depth follows the expression's nesting, which the parser bounds.
  ExprPtr Expr(const lang::Expr& e, Scope* scope) {
    using Kind = lang::Expr::Kind;
    if (e.kind == Kind::kWith) return With(e, scope);
    ExprPtr out = NewExpr(e.kind, e.span);
    out->int_value = e.int_value;
    out->float_value = e.float_value;
    out->bool_value = e.bool_value;
    out->str_value = e.str_value;
    out->unary_op = e.unary_op;
    out->binary_op = e.binary_op;
    out->name = e.name;
    if (e.kind == Kind::kName && e.name_kind != NameKind::kBuiltin) {
      out->name =
          e.fn != nullptr && e.fn == main_ && !main_impl_.empty() ? main_impl_ : Renamed(e.name);
    }
    auto child = [&](const ExprPtr& c) { return c ? Expr(*c, scope) : nullptr; };
    switch (e.kind) {
      case Kind::kLambda:
        // Sites in a lambda are errors; a `with` in it opens its own scope.
        out->params = Params(e.params);
        out->body = Expr(*e.body, nullptr);
        return out;
      case Kind::kIf: {
        out->rhs = child(e.rhs);
        int site = SiteIndex(e, scope);
        if (site < 0) {
          out->then_branch = child(e.then_branch);
          out->else_branch = child(e.else_branch);
          return out;
        }
        std::string tag = SubTag(scope->tag, absl::StrCat(site));
        Scope then_scope{tag}, else_scope{tag};
        out->then_branch = Arm(*e.then_branch, Site(scope->tag, site), then_scope);
        if (e.else_branch) {
          out->else_branch = Arm(*e.else_branch, Site(scope->tag, site), else_scope);
        }
        return out;
      }
      case Kind::kMatch: {
        out->lhs = child(e.lhs);
        int site = SiteIndex(e, scope);
        for (const MatchArm& arm : e.arms) {
          MatchArm copy;
          copy.span = arm.span;
          copy.pattern = Pattern(*arm.pattern);
          // Guards are conditions: their sites are the enclosing scope's
          // (lang/rng_sites.h), like an `if` condition's.
          copy.guard = child(arm.guard);
          if (site < 0) {
            copy.body = child(arm.body);
          } else {
            Scope body_scope{SubTag(scope->tag, absl::StrCat(site))};
            copy.body = Arm(*arm.body, Site(scope->tag, site), body_scope);
          }
          out->arms.push_back(std::move(copy));
        }
        return out;
      }
      case Kind::kBlock:
        for (const Stmt& stmt : e.stmts) {
          Stmt copy;
          copy.kind = stmt.kind;
          copy.span = stmt.span;
          if (stmt.pattern) copy.pattern = Pattern(*stmt.pattern);
          copy.type = CloneType(stmt.type.get());
          copy.expr = child(stmt.expr);
          out->stmts.push_back(std::move(copy));
        }
        out->result = child(e.result);
        return out;
      default:
        break;
    }
    out->lhs = child(e.lhs);
    out->rhs = child(e.rhs);
    out->third = child(e.third);
    for (const ExprPtr& element : e.elements) out->elements.push_back(child(element));
    for (const Arg& arg : e.args)
      out->args.push_back(Arg{arg.name, arg.name_span, child(arg.value)});
    out->body = child(e.body);
    if (e.kind != Kind::kCall) return out;
    int site = SiteIndex(e, scope);
    if (site < 0) return out;
    std::string state = Site(scope->tag, site);
    const lang::Expr& callee = *e.lhs;
    if (callee.kind == Kind::kName && callee.fn != nullptr && callee.fn->uses_rng) {
      out->args.push_back(Arg{"", e.span, NameExpr(state, e.span)});  // its stream, last
    } else if (callee.kind == Kind::kName && callee.name_kind == NameKind::kBuiltin &&
               callee.name == "rng") {
      return NameExpr(state, e.span);
    } else {
      // A sampler: the explicit form takes the state first, positionally.
      out->args.insert(out->args.begin(), Arg{"", e.span, NameExpr(state, e.span)});
    }
    return out;
  }

  const FnDecl* main_;
  int64_t seed_;
  std::string rng_, site_, main_impl_;
  absl::flat_hash_map<std::string, std::string> renamed_;
  SiteNumbers sites_;  // of the function being rewritten
};

}  // namespace

std::string DesugarProgram(const Program& program, const DesugarOptions& options) {
  if (program.modules.empty()) return "";
  const lang::Module& root = *program.modules.back();
  bool imports_rewritten = false;
  for (size_t i = 0; i + 1 < program.modules.size(); ++i) {
    imports_rewritten = imports_rewritten || HasAmbient(*program.modules[i]);
  }
  if (!imports_rewritten && !HasAmbient(root)) return PrintModule(root);

  Identifiers ids;
  for (const auto& module : program.modules) ids.Module(*module);
  const FnDecl* main = nullptr;
  for (const auto& fn : root.fns) {
    if (fn->name == "main" && fn->uses_rng) main = fn.get();
  }
  Desugarer desugarer(ids, main, main != nullptr && IsCalled(program, main), options.seed);
  if (!imports_rewritten) {
    lang::Module out;
    desugarer.Module(root, true, out);
    return PrintModule(out);
  }
  std::string text;
  for (const auto& module : program.modules) {
    if (!text.empty()) text += '\n';
    if (options.sources != nullptr && module->file < options.sources->size()) {
      absl::StrAppend(&text, "// ", options.sources->file(module->file).path(), "\n\n");
    }
    lang::Module out;
    desugarer.Module(*module, false, out);
    text += PrintModule(out);
  }
  return text;
}

}  // namespace alea::lang
