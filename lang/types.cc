#include "lang/types.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace alea::lang::types {
namespace {

// Walks stop well past what unification lets through, so a walk of any type
// that exists terminates without deep recursion.
constexpr int kWalkLimit = 4 * kMaxTypeDepth;

// Stamps for DAG walks: a type shared many times is visited once per walk.
thread_local uint32_t current_stamp = 0;

uint32_t NextStamp() { return ++current_stamp; }

bool ContainsIf(const Type* t, int depth, uint32_t stamp, Kind kind) {
  t = Resolve(t);
  if (depth > kWalkLimit) return false;
  if (t->kind == kind) return true;
  if (t->kind == Kind::kNamed && (t->def->holds >> static_cast<unsigned>(kind)) & 1) return true;
  Type* mt = const_cast<Type*>(t);
  if (mt->mark == stamp) return false;
  mt->mark = stamp;
  for (const Type* a : t->args) {
    if (ContainsIf(a, depth + 1, stamp, kind)) return true;
  }
  return t->result != nullptr && ContainsIf(t->result, depth + 1, stamp, kind);
}

// Occurs check and level adjustment in one walk. Returns false when `var`
// occurs in `t` or `t` is too deep.
bool OccursAdjust(Type* var, Type* t, int depth, uint32_t stamp, Trail* trail,
                  UnifyFailure::Reason* reason) {
  t = Resolve(t);
  if (depth > kMaxTypeDepth) {
    *reason = UnifyFailure::Reason::kTooDeep;
    return false;
  }
  if (t == var) {
    *reason = UnifyFailure::Reason::kInfinite;
    return false;
  }
  if (t->mark == stamp) return true;
  t->mark = stamp;
  if (t->kind == Kind::kVar) {
    if (t->level > var->level && !t->generic) {
      if (trail != nullptr) trail->Save(t);
      t->level = var->level;
    }
    return true;
  }
  for (Type* a : t->args) {
    if (!OccursAdjust(var, a, depth + 1, stamp, trail, reason)) return false;
  }
  return t->result == nullptr || OccursAdjust(var, t->result, depth + 1, stamp, trail, reason);
}

bool Fail(UnifyFailure* failure, UnifyFailure::Reason reason, Type* expected, Type* found) {
  if (failure != nullptr) *failure = UnifyFailure{reason, expected, found};
  return false;
}

bool BindVar(Type* var, Type* t, bool var_is_expected, Trail* trail, UnifyFailure* failure) {
  Type* expected = var_is_expected ? var : t;
  Type* found = var_is_expected ? t : var;
  if (t->kind == Kind::kVar) {
    uint8_t mask = var->dtype_mask;
    if (t->dtype_mask != 0) mask = mask == 0 ? t->dtype_mask : (mask & t->dtype_mask);
    if ((var->dtype_mask != 0 || t->dtype_mask != 0) && mask == 0) {
      return Fail(failure, UnifyFailure::Reason::kDTypeMask, expected, found);
    }
    if (trail != nullptr) {
      trail->Save(var);
      trail->Save(t);
    }
    t->dtype_mask = mask;
    t->level = std::min(t->level, var->level);
    var->link = t;
    return true;
  }
  if (var->dtype_mask != 0 && t->kind != Kind::kError) {
    if (t->kind != Kind::kDTypeConst ||
        (var->dtype_mask & (1u << static_cast<unsigned>(t->dtype))) == 0) {
      return Fail(failure, UnifyFailure::Reason::kDTypeMask, expected, found);
    }
  }
  UnifyFailure::Reason reason = UnifyFailure::Reason::kMismatch;
  if (!OccursAdjust(var, t, 0, NextStamp(), trail, &reason)) {
    return Fail(failure, reason, expected, found);
  }
  if (trail != nullptr) trail->Save(var);
  var->link = t;
  return true;
}

bool UnifyRec(Type* a, Type* b, Trail* trail, UnifyFailure* failure, int depth) {
  a = Resolve(a);
  b = Resolve(b);
  if (a == b) return true;
  if (depth > kMaxTypeDepth) return Fail(failure, UnifyFailure::Reason::kTooDeep, a, b);
  // A variable meeting an error becomes the error, so later uses stay quiet.
  if (a->kind == Kind::kVar) return BindVar(a, b, true, trail, failure);
  if (b->kind == Kind::kVar) return BindVar(b, a, false, trail, failure);
  if (a->kind == Kind::kError || b->kind == Kind::kError) return true;
  if (a->kind != b->kind) return Fail(failure, UnifyFailure::Reason::kMismatch, a, b);
  switch (a->kind) {
    case Kind::kDTypeConst:
      if (a->dtype != b->dtype) return Fail(failure, UnifyFailure::Reason::kMismatch, a, b);
      return true;
    case Kind::kNamed:
      if (a->def != b->def) return Fail(failure, UnifyFailure::Reason::kMismatch, a, b);
      break;
    case Kind::kTuple:
    case Kind::kFunction:
      if (a->args.size() != b->args.size()) {
        return Fail(failure, UnifyFailure::Reason::kMismatch, a, b);
      }
      break;
    default:
      break;
  }
  for (size_t i = 0; i < a->args.size() && i < b->args.size(); ++i) {
    if (!UnifyRec(a->args[i], b->args[i], trail, failure, depth + 1)) return false;
  }
  if (a->result != nullptr && b->result != nullptr) {
    return UnifyRec(a->result, b->result, trail, failure, depth + 1);
  }
  return true;
}

bool IsGroundRec(const Type* t, int depth) {
  t = Resolve(t);
  if (depth > kWalkLimit) return true;
  if (t->kind == Kind::kVar) return false;
  for (const Type* a : t->args) {
    if (!IsGroundRec(a, depth + 1)) return false;
  }
  return t->result == nullptr || IsGroundRec(t->result, depth + 1);
}

}  // namespace

const char* DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return "f32";
    case DType::kI32:
      return "i32";
    case DType::kU32:
      return "u32";
    case DType::kBool:
      return "bool";
  }
  return "f32";
}

Type* Resolve(Type* t) {
  // Path compression would need the trail; chains stay short in practice
  // because BindVar links to representatives.
  while (t->kind == Kind::kVar && t->link != nullptr) t = t->link;
  return t;
}

const Type* Resolve(const Type* t) { return Resolve(const_cast<Type*>(t)); }

bool IsGround(const Type* t) { return IsGroundRec(t, 0); }

bool ContainsError(const Type* t) { return ContainsIf(t, 0, NextStamp(), Kind::kError); }

bool Contains(const Type* t, Kind kind) { return ContainsIf(t, 0, NextStamp(), kind); }

Type* TypeStore::New(Kind kind, Origin origin) {
  Type& t = types_.emplace_back();
  t.kind = kind;
  t.origin = std::move(origin);
  return &t;
}

Type* TypeStore::Var(int level, Origin origin, uint8_t dtype_mask) {
  Type* t = New(Kind::kVar, std::move(origin));
  t->id = next_var_id_++;
  t->level = level;
  t->dtype_mask = dtype_mask;
  return t;
}

Type* TypeStore::Tuple(std::vector<Type*> elements, Origin origin) {
  Type* t = New(Kind::kTuple, std::move(origin));
  t->args = std::move(elements);
  return t;
}

Type* TypeStore::Array(Type* element, Origin origin) {
  Type* t = New(Kind::kArray, std::move(origin));
  t->args.push_back(element);
  return t;
}

Type* TypeStore::Function(std::vector<Type*> params, Type* result, Origin origin) {
  Type* t = New(Kind::kFunction, std::move(origin));
  t->args = std::move(params);
  t->result = result;
  return t;
}

Type* TypeStore::DTypeConst(DType dtype, Origin origin) {
  Type* t = New(Kind::kDTypeConst, std::move(origin));
  t->dtype = dtype;
  return t;
}

Type* TypeStore::Tensor(Type* dtype, Origin origin) {
  Type* t = New(Kind::kTensor, std::move(origin));
  t->args.push_back(dtype);
  return t;
}

Type* TypeStore::DTypeOf(Type* dtype, Origin origin) {
  Type* t = New(Kind::kDType, std::move(origin));
  t->args.push_back(dtype);
  return t;
}

Type* TypeStore::Named(const TypeDef* def, std::vector<Type*> args, Origin origin) {
  Type* t = New(Kind::kNamed, std::move(origin));
  t->def = def;
  t->args = std::move(args);
  return t;
}

std::vector<Type*> TypeStore::FieldTypes(const Type* named, const Ctor& ctor) {
  named = Resolve(named);
  absl::flat_hash_map<Type*, Type*> subst;
  const TypeDef* def = ctor.owner;
  for (size_t i = 0; i < def->params.size(); ++i) {
    subst[def->params[i]] = i < named->args.size() ? named->args[i] : Error();
  }
  std::vector<Type*> out;
  for (Type* f : ctor.fields) out.push_back(Instantiate(f, subst, 0, nullptr));
  return out;
}

int Ctor::FieldIndex(std::string_view name) const {
  for (size_t i = 0; i < field_names.size(); ++i) {
    if (field_names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

Type* TypeStore::Instantiate(Type* t, absl::flat_hash_map<Type*, Type*>& subst, int level,
                             const Origin* origin) {
  // Iterative over an explicit stack would be longer; the depth of a scheme is
  // bounded by unification's limit, so plain recursion with a guard is safe.
  struct Rec {
    TypeStore* store;
    absl::flat_hash_map<Type*, Type*>& subst;
    int level;
    const Origin* origin;
    Type* Go(Type* t, int depth) {
      t = Resolve(t);
      if (depth > kWalkLimit) return store->Error();
      if (auto it = subst.find(t); it != subst.end()) return it->second;
      if (t->kind == Kind::kVar) {
        if (!t->generic) return t;
        Type* fresh = store->Var(level, origin != nullptr ? *origin : t->origin, t->dtype_mask);
        subst[t] = fresh;
        return fresh;
      }
      if (t->args.empty() && t->result == nullptr) {
        if (origin == nullptr) return t;
        Type* copy = store->New(t->kind, *origin);
        copy->dtype = t->dtype;
        copy->def = t->def;
        subst[t] = copy;
        return copy;
      }
      std::vector<Type*> args;
      args.reserve(t->args.size());
      bool changed = origin != nullptr;
      for (Type* a : t->args) {
        args.push_back(Go(a, depth + 1));
        changed |= args.back() != Resolve(a);
      }
      Type* result = t->result != nullptr ? Go(t->result, depth + 1) : nullptr;
      changed |= result != (t->result != nullptr ? Resolve(t->result) : nullptr);
      Type* out = t;
      if (changed) {
        out = store->New(t->kind, origin != nullptr ? *origin : t->origin);
        out->dtype = t->dtype;
        out->def = t->def;
        out->args = std::move(args);
        out->result = result;
      }
      subst[t] = out;
      return out;
    }
  };
  Rec rec{this, subst, level, origin};
  return rec.Go(t, 0);
}

Type* TypeStore::Copy(Type* t) {
  struct Rec {
    TypeStore* store;
    absl::flat_hash_map<Type*, Type*> done;
    Type* Go(Type* t, int depth) {
      t = Resolve(t);
      if (depth > kWalkLimit) return store->Error();
      if (t->kind == Kind::kVar) return t;
      if (auto it = done.find(t); it != done.end()) return it->second;
      Type* out = store->New(t->kind, t->origin);
      out->dtype = t->dtype;
      out->def = t->def;
      for (Type* a : t->args) out->args.push_back(Go(a, depth + 1));
      if (t->result != nullptr) out->result = Go(t->result, depth + 1);
      done[t] = out;
      return out;
    }
  };
  Rec rec{this, {}};
  return rec.Go(t, 0);
}

void Trail::Undo(size_t mark) {
  while (entries_.size() > mark) {
    Entry& e = entries_.back();
    e.var->link = e.old_link;
    e.var->level = e.old_level;
    e.var->dtype_mask = e.old_mask;
    entries_.pop_back();
  }
}

bool Unify(Type* expected, Type* found, Trail* trail, UnifyFailure* failure) {
  return UnifyRec(expected, found, trail, failure, 0);
}

std::string Printer::Print(const Type* t) {
  std::string out;
  Append(t, 0, out);
  return out;
}

void Printer::Append(const Type* t, int depth, std::string& out) {
  t = Resolve(t);
  // Messages stay readable even for huge inferred types.
  if (depth > 24 || out.size() > 400) {
    out += "...";
    return;
  }
  auto list = [&](const std::vector<Type*>& items) {
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out += ", ";
      Append(items[i], depth + 1, out);
    }
  };
  switch (t->kind) {
    case Kind::kVar: {
      auto it = names_.find(t);
      if (it == names_.end()) {
        // Dtype variables read as dtypes, as the builtins' signatures write
        // them: `Tensor(n)` for a numeric one, `Tensor(d)` for any dtype.
        std::string name;
        if (t->dtype_mask == kNumericDType) {
          name = numeric_dtype_vars_ == 0 ? "n" : absl::StrCat("n", numeric_dtype_vars_ + 1);
          ++numeric_dtype_vars_;
        } else if (t->dtype_mask != 0) {
          name = dtype_vars_ == 0 ? "d" : absl::StrCat("d", dtype_vars_ + 1);
          ++dtype_vars_;
        } else {
          size_t n = type_vars_++;
          name = std::string(1, static_cast<char>('a' + n % 26));
          if (n >= 26) absl::StrAppend(&name, n / 26);
        }
        it = names_.emplace(t, std::move(name)).first;
      }
      out += it->second;
      return;
    }
    case Kind::kError:
      out += "{error}";
      return;
    case Kind::kInt:
      out += "Int";
      return;
    case Kind::kFloat:
      out += "Float";
      return;
    case Kind::kBool:
      out += "Bool";
      return;
    case Kind::kStr:
      out += "Str";
      return;
    case Kind::kRandState:
      out += "RandState";
      return;
    case Kind::kPlot:
      out += "Plot";
      return;
    case Kind::kDTypeConst:
      out += DTypeName(t->dtype);
      return;
    case Kind::kTuple:
      out += "(";
      list(t->args);
      out += ")";
      return;
    case Kind::kArray:
      out += "[";
      Append(t->args[0], depth + 1, out);
      out += "]";
      return;
    case Kind::kFunction:
      out += "(";
      list(t->args);
      out += ") -> ";
      Append(t->result, depth + 1, out);
      return;
    case Kind::kTensor:
      out += "Tensor(";
      Append(t->args[0], depth + 1, out);
      out += ")";
      return;
    case Kind::kDType:
      out += "DType(";
      Append(t->args[0], depth + 1, out);
      out += ")";
      return;
    case Kind::kNamed:
      out += t->def->name;
      if (name_declarations_) absl::StrAppend(&out, "@", reinterpret_cast<uintptr_t>(t->def));
      if (!t->args.empty()) {
        out += "(";
        list(t->args);
        out += ")";
      }
      return;
  }
}

std::string ToString(const Type* t) { return Printer().Print(t); }

std::string ToString(const Scheme& scheme) {
  Printer printer;  // one printer: the variables keep their names across the parts
  std::string out = printer.Print(scheme.type);
  std::vector<std::string> requirements;
  for (const Constraint& c : scheme.constraints) {
    const Type* site = Resolve(c.site);
    if (c.as_value || site->kind != Kind::kFunction) {
      requirements.push_back(absl::StrCat(c.name, " : ", printer.Print(site)));
      continue;
    }
    std::vector<std::string> args;
    for (size_t i = 0; i < site->args.size(); ++i) {
      std::string arg = printer.Print(site->args[i]);
      bool named = i < c.arg_names.size() && !c.arg_names[i].empty();
      args.push_back(named ? absl::StrCat(c.arg_names[i], ": ", arg) : arg);
    }
    // In the syntax of the use: an operator between or before its operands
    // (builtins.def spells unary minus `u-`), indexing and slicing as such.
    std::string use;
    const bool op =
        c.name == "u-" || (!c.name.empty() && !absl::ascii_isalpha(c.name[0]) && c.name[0] != '_');
    if (c.name == "[]" && args.size() == 2) {
      use = absl::StrCat(args[0], "[", args[1], "]");
    } else if (c.name == "[:]" && args.size() == 3) {
      use = absl::StrCat(args[0], "[", args[1], ":", args[2], "]");
    } else if (op && args.size() == 2) {
      use = absl::StrCat(args[0], " ", c.name, " ", args[1]);
    } else if (op && args.size() == 1) {
      use = absl::StrCat(c.name == "u-" ? "-" : c.name, args[0]);
    } else {
      use = absl::StrCat(c.name, "(", absl::StrJoin(args, ", "), ")");
    }
    requirements.push_back(absl::StrCat(use, " -> ", printer.Print(site->result)));
  }
  if (!requirements.empty()) absl::StrAppend(&out, " where ", absl::StrJoin(requirements, ", "));
  return out;
}

}  // namespace alea::lang::types
