// Types the program declares: reading `type` declarations (and the prelude's
// Option and Result) into TypeDefs, constructors as values, record literals,
// field reads, and constructor and record patterns.
#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lang/checker.h"
#include "lang/prelude.h"

namespace alea::lang {
namespace {

using types::Ctor;
using types::Kind;
using types::Type;
using types::TypeDef;

std::string Plural(size_t n, const char* what) {
  return absl::StrCat(n, " ", what, n == 1 ? "" : "s");
}

// "`A`", "`A` and `B`", "`A`, `B` and `C`".
std::string NamesText(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    absl::StrAppend(&out, "`", names[i], "`");
  }
  return out;
}

// "field `a`", "fields `a` and `b`", "fields `a`, `b` and `c`".
std::string FieldsText(const std::vector<std::string>& names) {
  return absl::StrCat(names.size() == 1 ? "field " : "fields ", NamesText(names));
}

std::string FieldList(const Ctor& c) {
  std::vector<std::string> names;
  for (const std::string& f : c.field_names) names.push_back(absl::StrCat("`", f, "`"));
  return names.empty() ? "none" : absl::StrJoin(names, ", ");
}

// Bit k of the Kinds a value of `t` may hold, through tuples and declared
// types but not arrays (whose elements the VM checks when they are used).
uint32_t HoldsOf(const Type* t, int depth) {
  t = types::Resolve(t);
  if (depth > types::kMaxTypeDepth) return 0;
  uint32_t out = 1u << static_cast<unsigned>(t->kind);
  if (t->kind == Kind::kNamed) out |= t->def->holds;
  if (t->kind == Kind::kTuple || t->kind == Kind::kNamed) {
    for (const Type* a : t->args) out |= HoldsOf(a, depth + 1);
  }
  return out;
}

}  // namespace

void Checker::CollectTypes() {
  const int n = static_cast<int>(program_.modules.size());
  visible_types_.assign(n, {});
  visible_ctors_.assign(n, {});
  // The prelude (lang/prelude.def), behind every file's own names.
  std::vector<const TypeDef*> prelude;
  for (const TypeDef* def : PreludeDefs()) prelude.push_back(def);

  std::vector<absl::flat_hash_map<std::string, const TypeDef*>> own_types(n);
  std::vector<absl::flat_hash_map<std::string, const Ctor*>> own_ctors(n);
  std::vector<std::pair<TypeDecl*, int>> decls;
  for (int m = 0; m < n; ++m) {
    for (auto& decl : program_.modules[m]->type_decls) {
      for (const char* builtin : types::kBuiltinTypeNames) {
        if (decl->name == builtin)
          diags_.Report(DiagId::kBuiltinTypeName, decl->name_span, builtin);
      }
      TypeDef* def = store_->NewDef();
      decl->def = def;
      def->name = decl->name;
      def->span = decl->name_span;
      def->is_record = decl->is_record;
      for (size_t i = 0; i < decl->params.size(); ++i) {
        Type* v = store_->Var(0, At(decl->param_spans[i], "the type parameter"));
        v->generic = true;
        def->params.push_back(v);
      }
      if (decl->is_record) {
        Ctor c;
        c.name = decl->name;
        c.owner = def;
        c.span = decl->name_span;
        def->ctors.push_back(std::move(c));
      } else {
        for (size_t i = 0; i < decl->ctors.size(); ++i) {
          Ctor c;
          c.name = decl->ctors[i].name;
          c.owner = def;
          c.tag = static_cast<int>(i);
          c.span = decl->ctors[i].span;
          def->ctors.push_back(std::move(c));
        }
      }
      own_types[m].emplace(def->name, def);
      if (!def->is_record) {
        for (const Ctor& c : def->ctors) own_ctors[m].emplace(c.name, &c);
      }
      decls.emplace_back(decl.get(), m);
    }
  }
  for (int m = 0; m < n; ++m) {
    for (int v : VisibleModules(m)) {
      for (const auto& [name, def] : own_types[v]) visible_types_[m].emplace(name, def);
      for (const auto& [name, c] : own_ctors[v]) visible_ctors_[m].emplace(name, c);
    }
    // A program's own type of a prelude name hides the prelude's type and
    // its constructors together, so that no `Some` builds a type that
    // prints like another.
    for (const TypeDef* def : prelude) {
      if (!visible_types_[m].emplace(def->name, def).second) continue;
      for (const Ctor& c : def->ctors) visible_ctors_[m].emplace(c.name, &c);
    }
  }
  // Field types, now that every name is known (declarations may refer to
  // each other in any order).
  for (auto [decl, m] : decls) {
    module_ = m;
    TypeDef* def = decl->def;
    std::vector<std::pair<std::string, Type*>> params;
    for (size_t i = 0; i < decl->params.size(); ++i) {
      params.emplace_back(decl->params[i], def->params[i]);
    }
    decl_params_ = &params;
    decl_ = decl;
    const std::string reason = absl::StrCat("the declaration of `", decl->name, "`");
    if (decl->is_record) {
      Ctor& c = def->ctors[0];
      for (const FieldDecl& f : decl->fields) {
        if (c.FieldIndex(f.name) >= 0) {
          diags_.Report(DiagId::kFieldDeclaredTwice, f.span, f.name, decl->name);
          continue;
        }
        c.field_names.push_back(f.name);
        c.field_spans.push_back(f.span);
        c.fields.push_back(f.type ? FromAnnotation(*f.type, reason) : store_->Error());
      }
    } else {
      for (size_t i = 0; i < decl->ctors.size(); ++i) {
        for (const TypeAnnPtr& f : decl->ctors[i].fields) {
          def->ctors[i].fields.push_back(f ? FromAnnotation(*f, reason) : store_->Error());
          def->ctors[i].field_spans.push_back(f ? f->span : decl->ctors[i].span);
        }
      }
    }
    decl_params_ = nullptr;
    decl_ = nullptr;
  }
  // What each type may hold, to a fixed point (types refer to each other).
  std::vector<TypeDef*> all;  // the prelude's are fixed (lang/prelude.cc)
  for (auto [decl, m] : decls) all.push_back(decl->def);
  for (bool changed = true; changed;) {
    changed = false;
    for (TypeDef* def : all) {
      uint32_t holds = def->holds;
      for (const Ctor& c : def->ctors) {
        for (const Type* f : c.fields) holds |= HoldsOf(f, 0);
      }
      if (holds != def->holds) {
        def->holds = holds;
        changed = true;
      }
    }
  }
  module_ = 0;
}

const TypeDef* Checker::LookupType(const std::string& name) const {
  auto it = visible_types_[module_].find(name);
  return it == visible_types_[module_].end() ? nullptr : it->second;
}

const Ctor* Checker::LookupCtor(const std::string& name) const {
  auto it = visible_ctors_[module_].find(name);
  return it == visible_ctors_[module_].end() ? nullptr : it->second;
}

Type* Checker::NamedFromAnnotation(const TypeAnn& ann, const types::Origin& origin,
                                   const std::string& reason) {
  if (decl_params_ != nullptr) {
    for (const auto& [name, var] : *decl_params_) {
      if (name != ann.name) continue;
      if (!ann.args.empty()) diags_.Report(DiagId::kBadTypeArguments, ann.span, ann.name, "none");
      return var;
    }
    if (!ann.name.empty() && !absl::ascii_isupper(ann.name[0])) {
      diags_.Report(DiagId::kUnknownTypeParam, ann.span, ann.name, decl_->name);
      return store_->Error();
    }
  }
  const TypeDef* def = LookupType(ann.name);
  if (def == nullptr) return nullptr;
  if (ann.args.size() != def->params.size()) {
    // The example: the declaration's own parameters where one is being
    // read (`Tree(a)`), else `Int`s.
    std::vector<std::string> example(def->params.size(), "Int");
    if (decl_ != nullptr && decl_->name == ann.name) example = decl_->params;
    diags_.Report(DiagId::kBadTypeArguments, ann.span, ann.name,
                  def->params.empty()
                      ? "no arguments"
                      : absl::StrCat(Plural(def->params.size(), "type argument"), ", as in `",
                                     ann.name, "(", absl::StrJoin(example, ", "), ")`"));
    return store_->Error();
  }
  std::vector<Type*> args;
  for (const TypeAnnPtr& a : ann.args) args.push_back(FromAnnotation(*a, reason));
  return store_->Named(def, std::move(args), origin);
}

Type* Checker::FreshInstance(const TypeDef& def, Span span, const std::string& reason) {
  std::vector<Type*> args;
  for (size_t i = 0; i < def.params.size(); ++i) args.push_back(Fresh(reason, span));
  return store_->Named(&def, std::move(args), At(span, reason));
}

Type* Checker::CtorValue(const Ctor& c, Span span) {
  Type* t = FreshInstance(*c.owner, span, absl::StrCat("the constructor `", c.name, "`"));
  if (c.fields.empty()) return t;
  return store_->Function(store_->FieldTypes(t, c), t,
                          At(span, absl::StrCat("the constructor `", c.name, "`")));
}

void Checker::SuggestCtor(Diagnostic& d, const std::string& name) {
  NearestName nearest(name);
  for (const auto& [ctor, c] : visible_ctors_[module_]) nearest.Consider(ctor);
  for (const auto& [type, def] : visible_types_[module_]) {
    if (def->is_record) nearest.Consider(type);
  }
  if (!nearest.best().empty()) d.Help(DiagId::kHelpDidYouMean, nearest.best());
}

void Checker::ReportNotARecord(Span at, const std::string& name, const char* variant_help) {
  if (LookupType(name) != nullptr) {
    diags_.Report(DiagId::kNotARecordType, at, name,
                  absl::StrCat("`", name, "` is a variant: ", variant_help));
  } else if (const Ctor* c = LookupCtor(name)) {
    diags_.Report(DiagId::kCtorAsRecord, at, name, c->owner->name,
                  c->fields.empty() ? name : absl::StrCat(name, "(...)"));
  } else {
    Diagnostic& d = diags_.Report(DiagId::kUnknownType, at, name);
    d.helps.clear();  // the list of builtin types does not help here
    SuggestCtor(d, name);
  }
}

void Checker::ReportUnknownField(Span at, const Ctor& c, const std::string& name) {
  Diagnostic& d = diags_.Report(DiagId::kUnknownField, at, c.name, name, FieldList(c));
  NearestName nearest(name);
  for (const std::string& f : c.field_names) nearest.Consider(f);
  if (!nearest.best().empty()) d.Help(DiagId::kHelpDidYouMean, nearest.best());
}

Type* Checker::InferRecord(Expr& e) {
  const TypeDef* def = LookupType(e.name);
  auto infer_parts = [&]() {
    for (Arg& a : e.args) Infer(*a.value);
    if (e.body) Infer(*e.body);
  };
  if (def == nullptr || !def->is_record) {
    infer_parts();
    ReportNotARecord(e.span, e.name, "build it with a constructor");
    return store_->Error();
  }
  const Ctor& c = def->ctors[0];
  e.ctor = &c;
  Type* t = FreshInstance(*def, e.span, absl::StrCat("the record `", e.name, "`"));
  std::vector<Type*> fields = store_->FieldTypes(t, c);
  std::vector<const Arg*> given(c.fields.size(), nullptr);
  bool unknown = false;
  for (Arg& a : e.args) {
    Type* value = Infer(*a.value);
    int i = c.FieldIndex(a.name);
    if (i < 0) {
      ReportUnknownField(a.name_span, c, a.name);
      unknown = true;
      continue;
    }
    if (given[i] != nullptr) {
      diags_.Report(DiagId::kDuplicateField, a.name_span, a.name)
          .Note(given[i]->name_span, DiagId::kNoteFieldFirstGiven, a.name);
      continue;
    }
    given[i] = &a;
    Expect(fields[i], value, a.value->span);
  }
  if (e.body) {
    Expect(t, Infer(*e.body), e.body->span);
  } else if (!unknown) {  // an unknown field is likely a missing one misspelled
    std::vector<std::string> missing;
    for (size_t i = 0; i < given.size(); ++i) {
      if (given[i] == nullptr) missing.push_back(c.field_names[i]);
    }
    if (!missing.empty()) diags_.Report(DiagId::kMissingField, e.span, FieldsText(missing), e.name);
  }
  return t;
}

Type* Checker::InferField(Expr& e) {
  Type* record = Infer(*e.lhs);
  Type* r = types::Resolve(record);
  if (r->kind == Kind::kError) return store_->Error();
  if (r->kind == Kind::kVar) {
    // The value's type is not known yet: the field's name must tell.
    std::vector<const TypeDef*> owners;
    for (const auto& [name, def] : visible_types_[module_]) {
      if (def->is_record && def->ctors[0].FieldIndex(e.name) >= 0) owners.push_back(def);
    }
    std::sort(owners.begin(), owners.end(),
              [](const TypeDef* a, const TypeDef* b) { return a->name < b->name; });
    if (owners.empty()) {
      diags_.Report(DiagId::kNoSuchField, e.span, e.name);
      return store_->Error();
    }
    if (owners.size() > 1) {
      std::vector<std::string> names;
      for (const TypeDef* def : owners) names.push_back(def->name);
      diags_.Report(DiagId::kAmbiguousField, e.span, e.name, NamesText(names), owners[0]->name);
      return store_->Error();
    }
    Expect(record, FreshInstance(*owners[0], e.span, "the field read"), e.lhs->span);
    r = types::Resolve(record);
  }
  if (r->kind != Kind::kNamed || !r->def->is_record) {
    diags_.Report(DiagId::kFieldOfNonRecord, e.span, e.name, types::ToString(r));
    return store_->Error();
  }
  const Ctor& c = r->def->ctors[0];
  int i = c.FieldIndex(e.name);
  if (i < 0) {
    ReportUnknownField(e.span, c, e.name);
    return store_->Error();
  }
  e.ctor = &c;
  e.field = i;
  return store_->FieldTypes(r, c)[i];
}

void Checker::BindCtorPattern(Pattern& p, Type* t, bool refutable_ok, std::vector<Local>& out) {
  auto bind_rest_as_errors = [&]() {
    for (PatternPtr& sub : p.elements) BindPattern(*sub, store_->Error(), refutable_ok, out);
  };
  const Ctor* c = nullptr;
  if (p.kind == Pattern::Kind::kRecord) {
    const TypeDef* def = LookupType(p.name);
    if (def == nullptr || !def->is_record) {
      ReportNotARecord(p.span, p.name, "match its constructors");
      bind_rest_as_errors();
      return;
    }
    c = &def->ctors[0];
  } else {
    c = LookupCtor(p.name);
    if (c == nullptr) {
      const TypeDef* def = LookupType(p.name);
      if (def != nullptr && def->is_record) {
        diags_.Report(DiagId::kRecordAsCtorPattern, p.span, p.name,
                      absl::StrJoin(def->ctors[0].field_names, ", "));
      } else {
        Diagnostic& d = diags_.Report(DiagId::kUnknownConstructor, p.span, p.name);
        SuggestCtor(d, p.name);
        // `let X = 1`: a variable meant, not a constructor.
        if (d.helps.empty() && p.elements.empty()) {
          std::string lower = p.name;
          lower[0] = absl::ascii_tolower(lower[0]);
          d.Help(DiagId::kHelpLowerCaseBinds, lower);
        }
      }
      bind_rest_as_errors();
      return;
    }
  }
  Type* expected = FreshInstance(*c->owner, p.span, "the pattern");
  if (!Expect(t, expected, p.span)) {
    bind_rest_as_errors();
    return;
  }
  if (!refutable_ok && c->owner->ctors.size() > 1) {
    diags_.Report(DiagId::kRefutableLet, p.span, c->name, c->owner->name);
  }
  std::vector<Type*> fields = store_->FieldTypes(expected, *c);
  if (p.kind == Pattern::Kind::kCtor) {
    if (p.elements.size() != fields.size()) {
      diags_.Report(DiagId::kCtorArity, p.span, c->name, Plural(fields.size(), "field"),
                    absl::StrCat(p.elements.size(), p.elements.size() == 1 ? " was" : " were"));
      bind_rest_as_errors();
      return;
    }
    p.ctor = c;
    for (size_t i = 0; i < fields.size(); ++i) {
      BindPattern(*p.elements[i], fields[i], refutable_ok, out);
    }
    return;
  }
  p.ctor = c;
  std::vector<int> seen(fields.size(), -1);  // where each field is written
  bool unknown = false;
  p.field_index.assign(p.elements.size(), -1);
  for (size_t k = 0; k < p.elements.size(); ++k) {
    int i = c->FieldIndex(p.field_names[k]);
    if (i < 0) {
      ReportUnknownField(p.field_spans[k], *c, p.field_names[k]);
      unknown = true;
    } else if (seen[i] >= 0) {
      diags_.Report(DiagId::kDuplicateField, p.field_spans[k], p.field_names[k])
          .Note(p.field_spans[seen[i]], DiagId::kNoteFieldFirstGiven, p.field_names[k]);
      i = -1;
    }
    if (i < 0) {
      BindPattern(*p.elements[k], store_->Error(), refutable_ok, out);
      continue;
    }
    seen[i] = static_cast<int>(k);
    p.field_index[k] = i;
    BindPattern(*p.elements[k], fields[i], refutable_ok, out);
  }
  if (!p.rest && !unknown) {
    std::vector<std::string> missing;
    for (size_t i = 0; i < seen.size(); ++i) {
      if (seen[i] < 0) missing.push_back(c->field_names[i]);
    }
    if (!missing.empty()) {
      diags_.Report(DiagId::kMissingFieldPattern, p.span, FieldsText(missing), c->name);
    }
  }
}

}  // namespace alea::lang
