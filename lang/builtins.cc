#include "lang/builtins.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "lang/prelude.h"

namespace alea::lang {
namespace {

using types::Kind;
using types::Type;

struct RawEntry {
  BuiltinId id;
  const char* name;
  const char* signature;
  uint32_t flags;
  const char* native;  // ALEA_BUILTIN_NATIVE's, or ""
};

constexpr RawEntry kRaw[] = {
#define ALEA_BUILTIN(id, name, signature, flags) {BuiltinId::id, name, signature, flags, ""},
#define ALEA_BUILTIN_NATIVE(id, name, signature, flags, native) \
  {BuiltinId::id, name, signature, flags, native},
#include "lang/builtins.def"
#undef ALEA_BUILTIN_NATIVE
#undef ALEA_BUILTIN
};

// A tiny recursive-descent parser for the signatures in builtins.def. The
// table is ours, so a malformed signature is a programming error: it aborts
// at start-up of the first type check, and the unit tests parse every line.
class SigParser {
 public:
  SigParser(std::string_view text, types::TypeStore& store) : text_(text), store_(store) {}

  void Parse(Builtin& b) {
    Skip();
    if (Peek() == '(' && LooksLikeParams()) {
      b.is_function = true;
      Expect('(');
      while (!Consume(')')) {
        BuiltinParam p;
        if (Consume('*')) p.keyword_only = true;
        size_t save = pos_;
        std::string name = Ident();
        if (!name.empty() && Consume(':')) {
          p.name = name;
        } else {
          pos_ = save;
        }
        p.type = ParseType();
        if (Consume('=')) {
          p.optional = true;
          p.default_text = Token();
        }
        b.params.push_back(std::move(p));
        if (!Consume(',')) {
          Expect(')');
          break;
        }
      }
      ExpectArrow();
      b.result = ParseType();
    } else {
      b.result = ParseType();
    }
    Skip();
    if (pos_ != text_.size()) Die();
    auto it = vars_.find("a");
    b.var_a = it == vars_.end() ? nullptr : it->second;
    for (const BuiltinParam& p : b.params) b.required += p.optional ? 0 : 1;
  }

 private:
  // `(x: T) -> R` versus a parenthesized type or tuple value: a value
  // signature never has a top-level arrow.
  bool LooksLikeParams() const { return text_.find("->") != std::string_view::npos; }

  Type* ParseType() {
    Skip();
    if (Consume('[')) {
      Type* element = ParseType();
      Expect(']');
      return store_.Array(element);
    }
    if (Consume('(')) {
      std::vector<Type*> items;
      while (!Consume(')')) {
        items.push_back(ParseType());
        if (!Consume(',')) {
          Expect(')');
          break;
        }
      }
      Skip();
      if (text_.substr(pos_, 2) == "->") {
        ExpectArrow();
        return store_.Function(std::move(items), ParseType());
      }
      if (items.size() == 1) return items[0];
      return store_.Tuple(std::move(items));
    }
    std::string name = Ident();
    if (name == "Int") return store_.Prim(Kind::kInt);
    if (name == "Float") return store_.Prim(Kind::kFloat);
    if (name == "Bool") return store_.Prim(Kind::kBool);
    if (name == "Str") return store_.Prim(Kind::kStr);
    if (name == "RandState") return store_.Prim(Kind::kRandState);
    if (name == "Plot") return store_.Prim(Kind::kPlot);
    if (name == "Tensor" || name == "DType") {
      Expect('(');
      Type* d = ParseDType();
      Expect(')');
      return name == "Tensor" ? store_.Tensor(d) : store_.DTypeOf(d);
    }
    if (const types::TypeDef* def = PreludeDef(name)) {  // `Option(Int)`
      std::vector<Type*> args;
      Expect('(');
      for (size_t i = 0; i < def->params.size(); ++i) {
        if (i > 0) Expect(',');
        args.push_back(ParseType());
      }
      Expect(')');
      return store_.Named(def, std::move(args));
    }
    if (name.empty() || !std::islower(static_cast<unsigned char>(name[0]))) Die();
    return VarNamed(name);
  }

  Type* ParseDType() {
    std::string name = Ident();
    if (name == "f32") return store_.DTypeConst(types::DType::kF32);
    if (name == "i32") return store_.DTypeConst(types::DType::kI32);
    if (name == "u32") return store_.DTypeConst(types::DType::kU32);
    if (name == "bool") return store_.DTypeConst(types::DType::kBool);
    if (name.empty()) Die();
    Type* v = VarNamed(name);
    if (v->dtype_mask == 0) v->dtype_mask = types::kAnyDType;
    return v;
  }

  Type* VarNamed(const std::string& name) {
    auto it = vars_.find(name);
    if (it != vars_.end()) return it->second;
    uint8_t mask = name[0] == 'n' ? types::kNumericDType : name[0] == 'd' ? types::kAnyDType : 0;
    Type* v = store_.Var(0, {}, mask);
    v->generic = true;
    vars_[name] = v;
    return v;
  }

  std::string Ident() {
    Skip();
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  // A default value: everything up to `,` or `)`.
  std::string Token() {
    Skip();
    size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '"') {  // a Str: `"` to `"`, no escapes
      size_t close = text_.find('"', pos_ + 1);
      if (close == std::string_view::npos) Die();
      pos_ = close + 1;
      return std::string(text_.substr(start, pos_ - start));
    }
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != ')') ++pos_;
    size_t end = pos_;
    while (end > start && text_[end - 1] == ' ') --end;
    if (end == start) Die();
    return std::string(text_.substr(start, end - start));
  }

  void Skip() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  char Peek() {
    Skip();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool Consume(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  void Expect(char c) {
    if (!Consume(c)) Die();
  }
  void ExpectArrow() {
    Skip();
    if (text_.substr(pos_, 2) != "->") Die();
    pos_ += 2;
  }
  [[noreturn]] void Die() { std::abort(); }

  std::string_view text_;
  size_t pos_ = 0;
  types::TypeStore& store_;
  absl::flat_hash_map<std::string, Type*> vars_;
};

// Every builtin's id, ordered by name and then by table order, computed by
// the compiler: BuiltinOverloads is a binary search with no start-up cost.
constexpr std::array<BuiltinId, kBuiltinCount> kByName = [] {
  std::array<BuiltinId, kBuiltinCount> ids{};
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = kRaw[i].id;
  std::sort(ids.begin(), ids.end(), [](BuiltinId a, BuiltinId b) {
    const std::string_view x = kRaw[static_cast<size_t>(a)].name;
    const std::string_view y = kRaw[static_cast<size_t>(b)].name;
    return x < y || (x == y && a < b);
  });
  return ids;
}();

// The entries are laid out on first use; a signature is parsed the first
// time its builtin is asked for (GetBuiltin), since a program uses a few of
// the hundreds and parsing them all took a third of `alea run
// hello.alea`'s own time. Entries never move, so a returned reference stays
// valid; one mutex serializes the parsing (the store is shared), and each
// entry's flag publishes it to threads that skip the lock.
struct Table {
  types::TypeStore store;
  std::vector<Builtin> builtins;
  std::unique_ptr<std::atomic<bool>[]> parsed { new std::atomic<bool>[ kBuiltinCount ] };
  std::mutex parse_mutex;

  Table() {
    builtins.resize(kBuiltinCount);
    for (const RawEntry& raw : kRaw) {
      Builtin& b = builtins[static_cast<size_t>(raw.id)];
      b.id = raw.id;
      b.name = raw.name;
      b.signature = raw.signature;
      b.flags = raw.flags;
      b.native = raw.native;
      parsed[static_cast<size_t>(raw.id)].store(false, std::memory_order_relaxed);
    }
  }

  const Builtin& Get(BuiltinId id) {
    const size_t i = static_cast<size_t>(id);
    if (!parsed[i].load(std::memory_order_acquire)) {
      std::lock_guard<std::mutex> lock(parse_mutex);
      if (!parsed[i].load(std::memory_order_relaxed)) {
        Builtin& b = builtins[i];
        if ((b.flags & kBuiltinOwnRule) != 0) {
          b.is_function = true;
          BuiltinParam f;
          f.name = "f";
          b.params.push_back(std::move(f));
          b.required = 1;
        } else {
          SigParser(b.signature, store).Parse(b);
        }
        parsed[i].store(true, std::memory_order_release);
      }
    }
    return builtins[i];
  }
};

// Built on first use, not at start-up (docs/decisions.md "Build and tests": no
// static initializers on the start-up path).
Table& GetTable() {
  static Table* table = new Table();
  return *table;
}

Type* DTypeDefault(const std::string& text, types::TypeStore& store) {
  if (text == "f32") return store.DTypeOf(store.DTypeConst(types::DType::kF32));
  if (text == "i32") return store.DTypeOf(store.DTypeConst(types::DType::kI32));
  if (text == "u32") return store.DTypeOf(store.DTypeConst(types::DType::kU32));
  if (text == "bool") return store.DTypeOf(store.DTypeConst(types::DType::kBool));
  return nullptr;
}

}  // namespace

Tri TensorDataDType(const Type* data, types::DType* dtype) {
  data = types::Resolve(data);
  for (int depth = 0; data->kind == Kind::kArray && depth < types::kMaxTypeDepth; ++depth) {
    data = types::Resolve(data->args[0]);
  }
  switch (data->kind) {
    case Kind::kInt:
      *dtype = types::DType::kI32;
      return Tri::kYes;
    case Kind::kFloat:
      *dtype = types::DType::kF32;
      return Tri::kYes;
    case Kind::kBool:
      *dtype = types::DType::kBool;
      return Tri::kYes;
    case Kind::kVar:
    case Kind::kError:
      return Tri::kUnknown;
    default:
      return Tri::kNo;
  }
}

const Builtin& GetBuiltin(BuiltinId id) { return GetTable().Get(id); }

absl::Span<const BuiltinId> BuiltinOverloads(std::string_view name) {
  auto name_of = [](BuiltinId id) { return std::string_view(kRaw[static_cast<size_t>(id)].name); };
  const BuiltinId* first =
      std::lower_bound(kByName.data(), kByName.data() + kByName.size(), name,
                       [&](BuiltinId id, std::string_view n) { return name_of(id) < n; });
  const BuiltinId* last = first;
  while (last != kByName.data() + kByName.size() && name_of(*last) == name) ++last;
  return absl::Span<const BuiltinId>(first, static_cast<size_t>(last - first));
}

const std::vector<std::string_view>& BuiltinNames() {
  // In table order, each once: only "did you mean" and completion ask.
  static const std::vector<std::string_view>* names = [] {
    auto* out = new std::vector<std::string_view>;
    for (const RawEntry& raw : kRaw) {
      const std::string_view name = raw.name;
      const bool word = std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_';
      if (word && BuiltinOverloads(name).front() == raw.id) out->push_back(name);
    }
    return out;
  }();
  return *names;
}

std::string DescribeBuiltin(const Builtin& builtin) { return std::string(builtin.signature); }

ArgMapError MapArguments(const Builtin& builtin, absl::Span<const std::string> arg_names, int skip,
                         ArgMapping* mapping, std::string* detail) {
  const int n_params = static_cast<int>(builtin.params.size());
  mapping->param_of_arg.assign(arg_names.size(), -1);
  mapping->arg_of_param.assign(n_params, -1);
  int next_positional = skip;
  bool seen_named = false;
  for (size_t i = 0; i < arg_names.size(); ++i) {
    int p = -1;
    if (arg_names[i].empty()) {
      if (seen_named) return ArgMapError::kPositionalAfterNamed;
      p = next_positional++;
      if (p >= n_params) return ArgMapError::kTooMany;
      if (builtin.params[p].keyword_only) {
        *detail = builtin.params[p].name;
        return ArgMapError::kKeywordOnly;
      }
    } else {
      seen_named = true;
      for (int q = skip; q < n_params; ++q) {
        if (builtin.params[q].name == arg_names[i]) p = q;
      }
      if (p < 0) {
        *detail = arg_names[i];
        return ArgMapError::kUnknownName;
      }
      if (mapping->arg_of_param[p] >= 0) {
        *detail = arg_names[i];
        return ArgMapError::kDuplicate;
      }
    }
    mapping->param_of_arg[i] = p;
    mapping->arg_of_param[p] = static_cast<int>(i);
  }
  for (int p = skip; p < n_params; ++p) {
    if (mapping->arg_of_param[p] < 0 && !builtin.params[p].optional) {
      *detail = builtin.params[p].name;
      return ArgMapError::kTooFew;
    }
  }
  return ArgMapError::kOk;
}

namespace {

// AdmitsEquality and IsOrdered in one walk: what each kind allows, through
// tuples, arrays (equality only) and every field of every constructor of a
// declared type. A type met again inside itself (`Tree(a)` in a `Node`) adds
// nothing new: it counts as yes there.
class PredicateWalk {
 public:
  PredicateWalk(bool order, types::TypeStore& store, BadField* blame)
      : order_(order), store_(store), blame_(blame) {}

  Tri Go(const Type* t, int depth) {
    t = types::Resolve(t);
    if (depth > types::kMaxTypeDepth) return Tri::kYes;
    switch (t->kind) {
      case Kind::kVar:
        return Tri::kUnknown;
      case Kind::kError:
      case Kind::kInt:
      case Kind::kFloat:
      case Kind::kStr:
        return Tri::kYes;
      case Kind::kFunction:
      case Kind::kRandState:
      case Kind::kPlot:
      case Kind::kTensor:  // tensors compare elementwise, through their own overloads
        return Tri::kNo;
      case Kind::kTuple:
        return All(t->args, depth);
      case Kind::kArray:
        return order_ ? Tri::kNo : All(t->args, depth);
      case Kind::kNamed:
        return Named(t, depth);
      default:  // Bool, dtypes: equality only
        return order_ ? Tri::kNo : Tri::kYes;
    }
  }

 private:
  Tri All(const std::vector<Type*>& items, int depth) {
    Tri out = Tri::kYes;
    for (const Type* item : items) {
      Tri t = Go(item, depth + 1);
      if (t == Tri::kNo) return Tri::kNo;
      if (t == Tri::kUnknown) out = Tri::kUnknown;
    }
    return out;
  }

  Tri Named(const Type* t, int depth) {
    if (std::find(path_.begin(), path_.end(), t->def) != path_.end()) return Tri::kYes;
    path_.push_back(t->def);
    Tri out = Tri::kYes;
    for (const types::Ctor& c : t->def->ctors) {
      std::vector<Type*> fields = store_.FieldTypes(t, c);
      for (size_t i = 0; i < fields.size() && out != Tri::kNo; ++i) {
        Tri f = Go(fields[i], depth + 1);
        if (f == Tri::kNo && blame_ != nullptr && blame_->ctor == nullptr) {
          *blame_ = BadField{&c, static_cast<int>(i), fields[i]};
        }
        if (f == Tri::kNo) out = Tri::kNo;
        if (f == Tri::kUnknown) out = Tri::kUnknown;
      }
    }
    path_.pop_back();
    return out;
  }

  bool order_;
  types::TypeStore& store_;
  BadField* blame_;
  std::vector<const types::TypeDef*> path_;
};

}  // namespace

Tri AdmitsEquality(const Type* t, types::TypeStore& store, BadField* blame) {
  return PredicateWalk(false, store, blame).Go(t, 0);
}

Tri IsOrdered(const Type* t, types::TypeStore& store, BadField* blame) {
  return PredicateWalk(true, store, blame).Go(t, 0);
}

Tri TryOverload(const Builtin& builtin, absl::Span<Type* const> args,
                absl::Span<const std::string> arg_names, int skip, Type* result,
                types::TypeStore& store, int level, const types::Origin* origin,
                types::Trail& trail) {
  if (!builtin.is_function) return Tri::kNo;
  ArgMapping mapping;
  std::string detail;
  if (MapArguments(builtin, arg_names, skip, &mapping, &detail) != ArgMapError::kOk) {
    return Tri::kNo;
  }
  absl::flat_hash_map<Type*, Type*> subst;
  for (size_t i = 0; i < args.size(); ++i) {
    Type* param =
        store.Instantiate(builtin.params[mapping.param_of_arg[i]].type, subst, level, origin);
    if (!types::Unify(param, args[i], &trail, nullptr)) return Tri::kNo;
  }
  for (size_t p = skip; p < builtin.params.size(); ++p) {
    if (mapping.arg_of_param[p] >= 0) continue;
    Type* dtype = DTypeDefault(builtin.params[p].default_text, store);
    if (dtype == nullptr) continue;
    Type* param = store.Instantiate(builtin.params[p].type, subst, level, origin);
    if (!types::Unify(param, dtype, &trail, nullptr)) return Tri::kNo;
  }
  Type* res = store.Instantiate(builtin.result, subst, level, origin);
  if (!types::Unify(res, result, &trail, nullptr)) return Tri::kNo;
  if (builtin.var_a == nullptr) return Tri::kYes;
  return CheckPredicate(builtin, store.Instantiate(builtin.var_a, subst, level, origin), res, store,
                        origin, trail);
}

Tri CheckPredicate(const Builtin& builtin, Type* a, Type* result, types::TypeStore& store,
                   const types::Origin* origin, types::Trail& trail) {
  Tri out = Tri::kYes;
  if ((builtin.flags & kBuiltinEq) != 0) out = AdmitsEquality(a, store);
  if ((builtin.flags & kBuiltinOrd) != 0) out = IsOrdered(a, store);
  if ((builtin.flags & kBuiltinTensorData) != 0) {
    types::DType dtype;
    out = TensorDataDType(a, &dtype);
    if (out == Tri::kYes && !types::Unify(types::Resolve(result)->args[0],
                                          store.DTypeConst(dtype, *origin), &trail, nullptr)) {
      return Tri::kNo;
    }
  }
  return out;
}

bool DefaultTensorData(Type* data, Type* result, types::TypeStore& store,
                       const types::Origin& origin) {
  Type* scalar = types::Resolve(data);
  for (int depth = 0; scalar->kind == Kind::kArray && depth < types::kMaxTypeDepth; ++depth) {
    scalar = types::Resolve(scalar->args[0]);
  }
  if (scalar->kind != Kind::kVar) return false;
  Kind kind = Kind::kFloat;
  const Type* r = types::Resolve(result);
  const Type* d = r->kind == Kind::kTensor ? types::Resolve(r->args[0]) : nullptr;
  if (d != nullptr && d->kind == Kind::kDTypeConst) {
    // The scalar TensorDataDType maps to that dtype (u32 has none: Float,
    // which then fails to fit and is reported as any other wrong data).
    if (d->dtype == types::DType::kI32) kind = Kind::kInt;
    if (d->dtype == types::DType::kBool) kind = Kind::kBool;
  }
  return types::Unify(scalar, store.Prim(kind, origin), nullptr, nullptr);
}

std::optional<OverloadResolution> ResolveOverload(std::string_view name,
                                                  absl::Span<const Type* const> args,
                                                  absl::Span<const std::string> arg_names,
                                                  types::TypeStore& store) {
  std::vector<Type*> mutable_args;
  for (const Type* a : args) mutable_args.push_back(const_cast<Type*>(a));
  std::vector<std::string> names(arg_names.begin(), arg_names.end());
  names.resize(args.size());
  std::optional<OverloadResolution> found;
  types::Origin origin;
  for (BuiltinId id : BuiltinOverloads(name)) {
    const Builtin& b = GetBuiltin(id);
    types::Trail trail;
    Type* result = store.Var(0);
    Tri fits = TryOverload(b, mutable_args, names, 0, result, store, 0, &origin, trail);
    if (fits == Tri::kNo) {
      trail.Undo(0);
      continue;
    }
    if (found.has_value()) {
      trail.Undo(0);
      return std::nullopt;
    }
    ArgMapping mapping;
    std::string detail;
    MapArguments(b, names, 0, &mapping, &detail);
    found = OverloadResolution{id, types::Resolve(result), std::move(mapping)};
    // The result may point at variables of `args`; keep those bindings out of
    // the caller's types by undoing, after copying the result's shape.
    found->result = store.Copy(result);
    trail.Undo(0);
  }
  return found;
}

}  // namespace alea::lang
