// Builtin calls, overload constraints (resolution, errors, defaulting) and
// the sites of ambient random contexts.
#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lang/checker.h"

namespace alea::lang {
namespace {

using types::Kind;
using types::Type;

struct Candidate {
  BuiltinId id;
  Tri fits;
};

// Like TryOverload, for a builtin used as a value: its type with the
// required parameters only.
Tri TryValue(const Builtin& b, Type* site, types::TypeStore& store, int level,
             const types::Origin* origin, types::Trail& trail) {
  absl::flat_hash_map<Type*, Type*> subst;
  if (!b.is_function) {
    Type* t = store.Instantiate(b.result, subst, level, origin);
    return types::Unify(t, site, &trail, nullptr) ? Tri::kYes : Tri::kNo;
  }
  std::vector<Type*> params;
  for (const BuiltinParam& p : b.params) {
    if (!p.optional) params.push_back(store.Instantiate(p.type, subst, level, origin));
  }
  Type* result = store.Instantiate(b.result, subst, level, origin);
  Type* fn = store.Function(std::move(params), result, *origin);
  if (!types::Unify(fn, site, &trail, nullptr)) return Tri::kNo;
  // As a call's: `tensor` as a value ties its result's dtype to the data too.
  if (b.var_a == nullptr) return Tri::kYes;
  return CheckPredicate(b, store.Instantiate(b.var_a, subst, level, origin), result, store, origin,
                        trail);
}

bool IsIdentifier(const std::string& name) {
  return !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
}

std::string Spelled(const std::string& name) { return name == "u-" ? "-" : name; }

std::string ArgList(types::Printer& printer, const std::vector<Type*>& args) {
  std::vector<std::string> parts;
  for (Type* a : args) parts.push_back(absl::StrCat("`", printer.Print(a), "`"));
  if (parts.empty()) return "no arguments";
  if (parts.size() == 1) return parts[0];
  std::string last = parts.back();
  parts.pop_back();
  return absl::StrCat(absl::StrJoin(parts, ", "), " and ", last);
}

// How many arguments the overloads of b's name accept ("2 arguments", "2 or
// 3 arguments", "1 to 4 arguments"), without the `skip` leading ones.
std::string ParamCount(const Builtin& b, int skip) {
  std::vector<bool> accepted;
  for (BuiltinId id : BuiltinOverloads(b.name)) {
    const Builtin& o = GetBuiltin(id);
    const int total = static_cast<int>(o.params.size()) - skip;
    if (accepted.size() < static_cast<size_t>(std::max(total + 1, 0))) accepted.resize(total + 1);
    for (int n = std::max(o.required - skip, 0); n <= total; ++n) accepted[n] = true;
  }
  std::vector<int> counts;
  for (size_t n = 0; n < accepted.size(); ++n) {
    if (accepted[n]) counts.push_back(static_cast<int>(n));
  }
  if (counts.empty()) counts.push_back(0);
  const int last = counts.back();
  const std::string noun = last == 1 ? " argument" : " arguments";
  if (counts.size() == 1) return absl::StrCat(last, noun);
  if (counts.size() > 2 && last - counts.front() + 1 == static_cast<int>(counts.size())) {
    return absl::StrCat(counts.front(), " to ", last, noun);
  }
  counts.pop_back();
  return absl::StrCat(absl::StrJoin(counts, ", "), " or ", last, noun);
}

bool IsOrderOp(const std::string& n) { return n == "<" || n == "<=" || n == ">" || n == ">="; }

// Operations whose operands must agree on Int or Float (where mixing the two
// deserves the conversion advice).
bool NumericOp(const std::string& n) {
  return IsOrderOp(n) || n == "+" || n == "-" || n == "*" || n == "/" || n == "%" || n == "==" ||
         n == "!=" || n == "max" || n == "min";
}

// A hash of the resolved structure of `t` (unbound variables by identity).
void Shape(const Type* t, uint64_t& h, int depth) {
  t = types::Resolve(t);
  auto mix = [&h](uint64_t v) { h = (h ^ v) * 0x100000001b3ull; };
  if (depth > 4 * types::kMaxTypeDepth) return;
  mix(static_cast<uint64_t>(t->kind) + 1);
  if (t->kind == Kind::kVar) {
    mix(static_cast<uint64_t>(t->id) * 31 + t->dtype_mask);
    return;
  }
  if (t->kind == Kind::kDTypeConst) mix(static_cast<uint64_t>(t->dtype) + 17);
  mix(t->args.size());
  for (const Type* a : t->args) Shape(a, h, depth + 1);
  if (t->result != nullptr) Shape(t->result, h, depth + 1);
}

uint64_t ShapeOf(const Type* t) {
  uint64_t h = 0xcbf29ce484222325ull;
  Shape(t, h, 0);
  return h == 0 ? 1 : h;
}

std::vector<Candidate> Viable(const types::Constraint& c, types::TypeStore& store, int level) {
  std::vector<Candidate> out;
  types::Origin origin{c.span, absl::StrCat("the signature of `", Spelled(c.name), "`")};
  for (BuiltinId id : BuiltinOverloads(c.name)) {
    const Builtin& b = GetBuiltin(id);
    types::Trail trail;
    Tri fits;
    if (c.as_value) {
      fits = TryValue(b, c.site, store, level, &origin, trail);
    } else {
      Type* site = types::Resolve(c.site);
      fits = TryOverload(b, site->args, c.arg_names, c.skip, site->result, store, level, &origin,
                         trail);
    }
    trail.Undo(0);
    if (fits != Tri::kNo) out.push_back({id, fits});
  }
  return out;
}

// A tensor and an Int, in either order (`max(t, 1)`).
bool IsTensorAndInt(const Type* a, const Type* b) {
  a = types::Resolve(a);
  b = types::Resolve(b);
  return (a->kind == Kind::kTensor && b->kind == Kind::kInt) ||
         (a->kind == Kind::kInt && b->kind == Kind::kTensor);
}

}  // namespace

Type* Checker::UseOverloaded(const std::string& name, Expr* expr, Span span,
                             std::vector<Type*> args, std::vector<std::string> names,
                             std::vector<uint8_t> literals, int skip) {
  Type* result = Fresh(absl::StrCat("the result of `", Spelled(name), "`"), span);
  Type* site = store_->Function(std::move(args), result);
  types::Constraint c;
  c.name = name;
  c.site = site;
  c.arg_names = std::move(names);
  c.skip = skip;
  c.span = span;
  c.literals = std::move(literals);
  c.expr = expr;
  c.level = level_;
  if (expr != nullptr) expr->site_type = site;
  if (!TrySolve(c, false)) pending_.push_back(std::move(c));
  return result;
}

bool Checker::TrySolve(types::Constraint& c, bool defaulting) {
  Type* site = types::Resolve(c.site);
  if (types::ContainsError(site)) {
    if (!c.as_value && site->kind == Kind::kFunction) {
      types::Unify(site->result, store_->Error(), nullptr, nullptr);
    }
    return true;
  }
  uint64_t shape = ShapeOf(site);
  if (!defaulting && c.chosen < 0 && shape == c.tried_shape) return false;
  // A constraint is often solved late, when its binding generalizes and the
  // checker is already back at the enclosing level: the signature's fresh
  // variables must still belong to the constraint's own level, or unifying
  // them would pull the binding's variables out and stop generalization.
  int level = std::max(level_, c.level);
  std::vector<Candidate> viable = Viable(c, *store_, level);
  if (viable.empty()) {
    ReportNoOverload(c);
    if (c.as_value) {
      types::Unify(site, store_->Error(), nullptr, nullptr);
    } else if (site->kind == Kind::kFunction) {
      types::Unify(site->result, store_->Error(), nullptr, nullptr);
    }
    return true;
  }
  if (viable.size() > 1) {
    c.tried_shape = shape;
    return false;
  }
  // The one candidate that fits: its unification is the only possible one,
  // so keep it even while a predicate still waits for variables.
  const Builtin& b = GetBuiltin(viable[0].id);
  types::Origin origin{c.span, absl::StrCat("the signature of `", Spelled(c.name), "`")};
  types::Trail trail;
  if (c.as_value) {
    TryValue(b, c.site, *store_, level, &origin, trail);
  } else {
    TryOverload(b, site->args, c.arg_names, c.skip, site->result, *store_, level, &origin, trail);
  }
  if (c.chosen < 0 && (b.flags & kBuiltinRetired) != 0 && b.id == BuiltinId::kRandintOldOrder) {
    diags_.Report(DiagId::kRandintOldOrder, c.span);
  }
  c.chosen = static_cast<int>(viable[0].id);
  // The overload is settled even while its predicate waits (`==` on tuples
  // with variables inside): a failing predicate is reported anyway.
  if (c.expr != nullptr) c.expr->builtin = c.chosen;
  return viable[0].fits != Tri::kUnknown || defaulting;
}

void Checker::SolvePending(int min_level) {
  // In place: most calls resolve nothing, and must not copy the list.
  for (bool progress = true; progress && !pending_.empty();) {
    progress = false;
    std::vector<bool> solved(pending_.size(), false);
    for (size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i].level >= min_level && TrySolve(pending_[i], false)) {
        solved[i] = progress = true;
      }
    }
    if (!progress) break;
    size_t out = 0;
    for (size_t i = 0; i < pending_.size(); ++i) {
      if (solved[i]) continue;
      if (out != i) pending_[out] = std::move(pending_[i]);
      ++out;
    }
    pending_.resize(out);
  }
}

void Checker::DefaultConstraint(types::Constraint& c) {
  // Settling with the predicate still open is right for `==` (every type
  // of the open part admits it), not for `tensor`, whose dtype the scalar
  // decides: that scalar is defaulted first. Like a call's site, a value's
  // is the function type `(data) -> Tensor(d)`.
  if (const Type* fn = types::Resolve(c.site);
      fn->kind == Kind::kFunction && fn->args.size() == 1) {
    std::vector<Candidate> viable = Viable(c, *store_, level_);
    if (viable.size() == 1 && viable[0].fits == Tri::kUnknown &&
        (GetBuiltin(viable[0].id).flags & kBuiltinTensorData) != 0) {
      DefaultTensorData(fn->args[0], fn->result, *store_,
                        At(c.span, "the default element type of `tensor`"));
    }
  }
  if (TrySolve(c, true)) return;
  Type* site = types::Resolve(c.site);
  for (uint8_t kind : {uint8_t{1}, uint8_t{2}}) {
    bool has = false;
    for (uint8_t l : c.literals) has |= l == kind;
    if (!has || c.as_value) continue;
    types::Trail trail;
    for (Type* arg : site->args) {
      if (types::Resolve(arg)->kind == Kind::kVar) {
        types::Unify(arg, store_->Prim(kind == 1 ? Kind::kInt : Kind::kFloat), &trail, nullptr);
      }
    }
    if (Viable(c, *store_, level_).size() == 1 && TrySolve(c, true)) return;
    trail.Undo(0);
  }
  types::Printer printer;
  std::string what =
      c.as_value ? absl::StrCat("type `", printer.Print(site), "`") : ArgList(printer, site->args);
  Diagnostic& d = diags_.Report(DiagId::kAmbiguousOverload, c.span, Spelled(c.name), what);
  if (c.required_by) d.Note(c.required_by, DiagId::kNoteRequiredBy, Spelled(c.name));
  if (c.as_value) {
    types::Unify(site, store_->Error(), nullptr, nullptr);
  } else {
    types::Unify(site->result, store_->Error(), nullptr, nullptr);
  }
}

void Checker::ReportNoOverload(const types::Constraint& c) {
  types::Printer printer;
  Type* site = types::Resolve(c.site);
  std::string name = Spelled(c.name);
  std::vector<Type*> args = c.as_value ? std::vector<Type*>{} : site->args;
  Type* a0 = args.empty() ? nullptr : types::Resolve(args[0]);
  auto same_types = [&]() {
    if (args.size() != 2) return false;
    types::Trail trail;
    bool ok = types::Unify(args[0], args[1], &trail, nullptr);
    trail.Undo(0);
    return ok;
  };
  Diagnostic* d = nullptr;
  BadField blame;
  // Which field of a declared type is to blame, when one is.
  auto blame_note = [&]() {
    if (blame.ctor == nullptr) return;
    const types::Ctor& bc = *blame.ctor;
    std::string field = blame.index < static_cast<int>(bc.field_names.size())
                            ? bc.field_names[blame.index]
                            : absl::StrCat(blame.index + 1);
    std::optional<Span> at;
    if (!bc.owner->prelude) {
      at = blame.index < static_cast<int>(bc.field_spans.size()) ? bc.field_spans[blame.index]
                                                                 : bc.span;
    }
    d->Note(at, DiagId::kNoteFieldHolds, field, bc.name, printer.Print(blame.type));
  };
  if ((c.name == "==" || c.name == "!=") && a0 != nullptr && a0->kind != Kind::kTensor &&
      AdmitsEquality(a0, *store_, &blame) == Tri::kNo && same_types()) {
    d = &diags_.Report(DiagId::kNoEquality, c.span, name, printer.Print(a0));
    blame_note();
  } else if (IsOrderOp(c.name) && a0 != nullptr && a0->kind != Kind::kTensor &&
             IsOrdered(a0, *store_, &blame) == Tri::kNo && same_types()) {
    d = &diags_.Report(DiagId::kNoOrdering, c.span, name, printer.Print(a0));
    blame_note();
  } else if (c.name == "sort" && args.size() == 1 && a0->kind == Kind::kArray &&
             IsOrdered(a0->args[0], *store_, &blame) == Tri::kNo) {
    d = &diags_.Report(DiagId::kNoOrdering, c.span, name, printer.Print(a0->args[0]));
    blame_note();
  } else if (c.name == "tensor" && args.size() == 1) {
    d = &diags_.Report(DiagId::kBadTensorData, c.span, printer.Print(a0));
  } else if ((c.name == "max" || c.name == "min") && args.size() == 2 &&
             IsTensorAndInt(args[0], args[1])) {
    const bool max = c.name == "max";
    d = &diags_.Report(DiagId::kMinMaxIntAxis, c.span, name, max ? "maximum" : "minimum",
                       max ? "larger" : "smaller", max ? "maximum" : "minimum");
  } else {
    std::string what =
        c.as_value ? absl::StrCat("type `", printer.Print(site), "`") : ArgList(printer, args);
    d = &diags_.Report(DiagId::kNoOverload, c.span, name, what, "");
    d->helps.clear();
    // Advice for the common mistakes.
    bool has_int = false, has_float = false;
    const Type* int_tensor = nullptr;
    std::vector<const Type*> tensors;
    for (Type* a : args) {
      const Type* r = types::Resolve(a);
      has_int |= r->kind == Kind::kInt;
      has_float |= r->kind == Kind::kFloat;
      if (r->kind == Kind::kTensor) {
        const Type* dt = types::Resolve(r->args[0]);
        if (dt->kind == Kind::kDTypeConst) {
          tensors.push_back(dt);
          if (dt->dtype == types::DType::kI32 || dt->dtype == types::DType::kU32) int_tensor = r;
        }
      }
    }
    if (tensors.size() == 2 && tensors[0]->dtype != tensors[1]->dtype) {
      d->Help(DiagId::kHelpTensorDTypes, types::DTypeName(tensors[0]->dtype));
    } else if (int_tensor != nullptr && has_float) {
      d->Help(DiagId::kHelpFloatWithIntTensor, printer.Print(int_tensor));
    } else if (has_int && has_float && tensors.empty() && NumericOp(c.name)) {
      d->Help(DiagId::kHelpIntFloat);
    } else if (IsIdentifier(c.name)) {
      std::vector<std::string> sigs;
      for (BuiltinId id : BuiltinOverloads(c.name)) {
        sigs.push_back(absl::StrCat("`", DescribeBuiltin(GetBuiltin(id)), "`"));
      }
      if (sigs.size() <= 8) d->Help(DiagId::kHelpOverloads, name, absl::StrJoin(sigs, " or "));
    }
  }
  for (Type* a : args) AddOriginNotes(*d, printer, a);
  if (c.required_by) d->Note(c.required_by, DiagId::kNoteRequiredBy, name);
}

void Checker::ReportArgMapError(Span span, const Builtin& b, ArgMapError error,
                                const std::string& detail, absl::Span<const std::string> names,
                                int skip) {
  std::string name(b.name);
  int given = static_cast<int>(names.size());
  switch (error) {
    case ArgMapError::kOk:
      return;
    case ArgMapError::kTooMany:
      diags_.Report(DiagId::kWrongArgCount, span, name, ParamCount(b, skip),
                    absl::StrCat(given, given == 1 ? " was" : " were"));
      return;
    case ArgMapError::kTooFew:
      diags_.Report(DiagId::kMissingArg, span, detail, name, ParamCount(b, skip));
      return;
    case ArgMapError::kUnknownName: {
      std::vector<std::string> params;
      for (size_t p = skip; p < b.params.size(); ++p) {
        params.push_back(absl::StrCat("`", b.params[p].name, "`"));
      }
      Diagnostic& d =
          diags_.Report(DiagId::kUnknownArgName, span, name, detail, absl::StrJoin(params, ", "));
      // The one closest parameter that could still be named: those the
      // positional arguments already fill are no candidates (`mean(xs, ax: 0)`
      // means `axis`, not `x`).
      size_t positional = std::count(names.begin(), names.end(), std::string());
      const std::string* best = nullptr;
      int best_distance = 3;
      for (size_t p = skip + positional; p < b.params.size(); ++p) {
        int distance = EditDistance(b.params[p].name, detail);
        if (distance < best_distance) {
          best_distance = distance;
          best = &b.params[p].name;
        }
      }
      if (best != nullptr) d.Help(DiagId::kHelpDidYouMean, *best);
      return;
    }
    case ArgMapError::kDuplicate:
      diags_.Report(DiagId::kDuplicateArg, span, detail);
      return;
    case ArgMapError::kKeywordOnly:
      diags_.Report(DiagId::kKeywordOnlyArg, span, detail, name);
      return;
    case ArgMapError::kPositionalAfterNamed:
      diags_.Report(DiagId::kPositionalAfterNamed, span);
      return;
  }
}

bool Checker::CheckSite(Expr& site, const std::string& what, bool is_rng_call, const FnDecl* fn) {
  if (ambient_) {
    site.ambient_site = true;
    return true;
  }
  if (lambda_in_ambient_) {
    diags_.Report(DiagId::kSiteInLambda, site.span, is_rng_call ? "rng()" : what);
  } else if (fn != nullptr) {
    diags_.Report(DiagId::kNoAmbientState, site.span, what)
        .Note(fn->uses_rng_span, DiagId::kNoteUsesRngDeclared, what);
  } else if (is_rng_call) {
    diags_.Report(DiagId::kRngOutsideAmbient, site.span);
  } else {
    diags_.Report(DiagId::kSamplerNoState, site.span, what);
  }
  return false;
}

Type* Checker::BuiltinValue(Expr& e, absl::Span<const BuiltinId> overloads) {
  const Builtin& b0 = GetBuiltin(overloads[0]);
  if ((b0.flags & kBuiltinRng) != 0) {
    diags_.Report(DiagId::kUsesRngAsValue, e.span, e.name);
    return store_->Error();
  }
  if ((b0.flags & kBuiltinOwnRule) != 0) {
    diags_.Report(DiagId::kGradAsValue, e.span, e.name);
    return store_->Error();
  }
  types::Constraint c;
  c.name = e.name;
  c.site = Fresh(absl::StrCat("`", e.name, "`"), e.span);
  c.as_value = true;
  c.span = e.span;
  c.expr = &e;
  c.level = level_;
  e.site_type = c.site;
  if (!TrySolve(c, false)) pending_.push_back(c);
  return c.site;
}

Type* Checker::InferBuiltinCall(Expr& call, Expr& callee, absl::Span<const BuiltinId> overloads) {
  const std::string& name = callee.name;
  std::vector<Type*> args;
  std::vector<std::string> names;
  std::vector<uint8_t> literals;
  for (Arg& arg : call.args) {
    args.push_back(Infer(*arg.value));
    names.push_back(arg.name);
    const Expr* v = arg.value.get();
    if (v->kind == Expr::Kind::kUnary && v->unary_op == UnaryOp::kNeg && v->lhs) v = v->lhs.get();
    literals.push_back(v->kind == Expr::Kind::kInt ? 1 : v->kind == Expr::Kind::kFloat ? 2 : 0);
  }
  const Builtin& b0 = GetBuiltin(overloads[0]);
  if (!b0.is_function) {
    Type* t = BuiltinValue(callee, overloads);
    callee.type = t;
    diags_.Report(DiagId::kNotAFunction, callee.span, types::ToString(t));
    return store_->Error();
  }
  if ((b0.flags & kBuiltinOwnRule) != 0) {
    if (call.args.size() != 1 || !names[0].empty()) {
      diags_.Report(DiagId::kWrongArgCount, call.span, name, "1 argument",
                    absl::StrCat(call.args.size(), call.args.size() == 1 ? " was" : " were"));
      return store_->Error();
    }
    return InferGradCall(call, callee, b0, args[0]);
  }
  int skip = 0;
  if (b0.sampler()) {
    // The explicit form passes a RandState first; anything else is the
    // ambient form, unless only the explicit form's arity fits.
    const Type* first = args.empty() ? nullptr : types::Resolve(args[0]);
    bool explicit_state = first != nullptr &&
                          (first->kind == Kind::kRandState || first->kind == Kind::kVar ||
                           first->kind == Kind::kError) &&
                          names[0].empty();
    if (!explicit_state) {
      // Overloads differ in arity (`uniform(s)` and `uniform(s, shape)`):
      // a form fits when any overload takes these arguments.
      ArgMapping m;
      std::string detail;
      bool ambient_fits = false, explicit_fits = false;
      for (BuiltinId id : overloads) {
        ambient_fits |= MapArguments(GetBuiltin(id), names, 1, &m, &detail) == ArgMapError::kOk;
        explicit_fits |= MapArguments(GetBuiltin(id), names, 0, &m, &detail) == ArgMapError::kOk;
      }
      if (ambient_fits || !explicit_fits) {
        skip = 1;
        CheckSite(call, name, false, nullptr);
      }
    }
  }
  if ((b0.flags & kBuiltinRng) != 0) CheckSite(call, name, true, nullptr);
  callee.type = nullptr;
  // Argument names and counts first: they decide which overloads remain.
  bool any_maps = false;
  ArgMapError first_error = ArgMapError::kOk;
  const Builtin* first_builtin = nullptr;
  std::string first_detail;
  for (BuiltinId id : overloads) {
    ArgMapping m;
    std::string detail;
    ArgMapError err = MapArguments(GetBuiltin(id), names, skip, &m, &detail);
    if (err == ArgMapError::kOk) {
      any_maps = true;
      break;
    }
    bool count_error = err == ArgMapError::kTooMany || err == ArgMapError::kTooFew;
    if (first_builtin == nullptr || (!count_error && (first_error == ArgMapError::kTooMany ||
                                                      first_error == ArgMapError::kTooFew))) {
      first_builtin = &GetBuiltin(id);
      first_error = err;
      first_detail = detail;
    }
  }
  if (!any_maps) {
    // A mistake about one named argument points at that name (the last one
    // spelled so: for a duplicate, the second), anything else at the call.
    Span at = call.span;
    bool about_name = first_error == ArgMapError::kUnknownName ||
                      first_error == ArgMapError::kDuplicate ||
                      first_error == ArgMapError::kKeywordOnly;
    for (const Arg& arg : call.args) {
      if (about_name && arg.name == first_detail) at = arg.name_span;
    }
    ReportArgMapError(at, *first_builtin, first_error, first_detail, names, skip);
    return store_->Error();
  }
  bool predicates = (b0.flags & (kBuiltinEq | kBuiltinOrd | kBuiltinTensorData)) != 0;
  if (overloads.size() > 1 || predicates) {
    Type* t = UseOverloaded(name, &call, call.span, args, names, literals, skip);
    callee.type = call.site_type;
    return t;
  }
  // One signature: check argument by argument, for precise messages.
  ArgMapping m;
  std::string detail;
  MapArguments(b0, names, skip, &m, &detail);
  types::Origin origin = At(call.span, absl::StrCat("the signature of `", name, "`"));
  absl::flat_hash_map<Type*, Type*> subst;
  for (size_t i = 0; i < args.size(); ++i) {
    Type* param = store_->Instantiate(b0.params[m.param_of_arg[i]].type, subst, level_, &origin);
    Expect(param, args[i], call.args[i].value->span);
  }
  for (size_t p = skip; p < b0.params.size(); ++p) {
    if (m.arg_of_param[p] >= 0 || !b0.params[p].optional) continue;
    const std::string& def = b0.params[p].default_text;
    types::DType dtype;
    if (def == "f32") {
      dtype = types::DType::kF32;
    } else if (def == "i32") {
      dtype = types::DType::kI32;
    } else if (def == "u32") {
      dtype = types::DType::kU32;
    } else if (def == "bool") {
      dtype = types::DType::kBool;
    } else {
      continue;
    }
    Type* param = store_->Instantiate(b0.params[p].type, subst, level_, &origin);
    Expect(param, store_->DTypeOf(store_->DTypeConst(dtype, origin), origin), call.span);
  }
  Type* result = store_->Instantiate(b0.result, subst, level_, &origin);
  call.builtin = static_cast<int>(b0.id);
  call.site_type = store_->Function(args, result);
  callee.type = call.site_type;
  return result;
}

}  // namespace alea::lang
