#include "vm/verifier_shapes.h"

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace alea::vm::verifier {
namespace {

// Shapes nest as deep as types do (a test prints a value 10^5 levels deep),
// but comparing two different shapes recurses: past this depth the answer is
// "no", so a crafted module cannot exhaust the C stack.
constexpr int kMaxCompareDepth = 2000;

}  // namespace

Shapes::Shapes(const Module& m) : m_(m), of_type_(m.types.size(), -1) {
  Intern({ShapeKind::kPlain, 0, {}});
  Intern({ShapeKind::kStr, 0, {}});
  Intern({ShapeKind::kTensor, 0, {}});
  Intern({ShapeKind::kRandState, 0, {}});
  Intern({ShapeKind::kNever, 0, {}});
  Intern({ShapeKind::kPlot, 0, {}});
}

uint32_t Shapes::Intern(Shape s) {
  auto [it, inserted] =
      interned_.try_emplace(std::make_tuple(static_cast<uint8_t>(s.kind), s.type, s.children),
                            static_cast<uint32_t>(shapes_.size()));
  if (inserted) shapes_.push_back(std::move(s));
  return it->second;
}

uint32_t Shapes::OfType(uint32_t root) {
  // Iterative post-order over the descriptors, so that a type 10^6 levels
  // deep needs no C stack. The types were checked (verifier.cc CheckTypes):
  // indexes in range, no cycle but through records and variants.
  if (root >= m_.types.size()) return kPlain;
  if (of_type_[root] >= 0) return static_cast<uint32_t>(of_type_[root]);
  std::vector<std::pair<uint32_t, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [t, children_done] = stack.back();
    stack.pop_back();
    if (of_type_[t] >= 0) continue;
    const TypeDesc& d = m_.types[t];
    using K = TypeDesc::Kind;
    const bool structural = d.kind == K::kArray || d.kind == K::kTuple || d.kind == K::kFunction;
    if (structural && !children_done) {
      stack.push_back({t, true});
      for (uint32_t c : d.children) {
        if (c < m_.types.size() && of_type_[c] < 0) stack.push_back({c, false});
      }
      continue;
    }
    Shape s;
    switch (d.kind) {
      case K::kInt:
      case K::kFloat:
      case K::kBool:
      case K::kUnit:
      case K::kDType:
        s.kind = ShapeKind::kPlain;
        break;
      case K::kStr:
        s.kind = ShapeKind::kStr;
        break;
      case K::kTensor:
        s.kind = ShapeKind::kTensor;
        break;
      case K::kRandState:
        s.kind = ShapeKind::kRandState;
        break;
      case K::kArray:
        s.kind = ShapeKind::kArray;
        break;
      case K::kTuple:
        s.kind = ShapeKind::kTuple;
        break;
      case K::kFunction:
        s.kind = ShapeKind::kFunction;
        break;
      case K::kPlot:
        s.kind = ShapeKind::kPlot;
        break;
      case K::kRecord:
      case K::kVariant:
        s.kind = ShapeKind::kNamed;
        s.type = t;
        break;
      case K::kCase:
        s.kind = ShapeKind::kNamed;
        s.type = d.parent;
        break;
    }
    if (structural) {
      for (uint32_t c : d.children) {
        s.children.push_back(of_type_[c] >= 0 ? static_cast<uint32_t>(of_type_[c]) : kPlain);
      }
    }
    of_type_[t] = Intern(std::move(s));
  }
  return static_cast<uint32_t>(of_type_[root]);
}

bool Shapes::IsVariant(uint32_t id) const {
  const Shape& s = shapes_[id];
  return s.kind == ShapeKind::kOption ||
         (s.kind == ShapeKind::kNamed && m_.types[s.type].kind == TypeDesc::Kind::kVariant);
}

size_t Shapes::Cases(uint32_t id) const {
  if (!IsVariant(id)) return 0;
  return shapes_[id].kind == ShapeKind::kOption ? 2 : m_.types[shapes_[id].type].cases.size();
}

std::optional<std::vector<uint32_t>> Shapes::Fields(uint32_t id, int tag) {
  const Shape& s = shapes_[id];
  switch (s.kind) {
    case ShapeKind::kTuple:
      return s.children;
    case ShapeKind::kNullary:
      if (tag >= 0 && static_cast<uint32_t>(tag) != s.type) return std::nullopt;
      return std::vector<uint32_t>{};
    case ShapeKind::kOption:
      if (tag == 0) return std::vector<uint32_t>{};
      if (tag == 1) return s.children;
      return std::nullopt;
    case ShapeKind::kNamed: {
      const TypeDesc& d = m_.types[s.type];
      const std::vector<uint32_t>* types = nullptr;
      if (d.kind == TypeDesc::Kind::kRecord) {
        types = &d.children;
      } else if (tag >= 0 && static_cast<size_t>(tag) < d.cases.size()) {
        types = &d.cases[tag];
      }
      if (types == nullptr) return std::nullopt;
      std::vector<uint32_t> out;
      for (uint32_t t : *types) out.push_back(OfType(t));
      return out;
    }
    default:
      return std::nullopt;
  }
}

std::optional<uint32_t> Shapes::Field(uint32_t id, int tag, uint32_t c, size_t* count) {
  const Shape& s = shapes_[id];
  *count = 0;
  const std::vector<uint32_t>* types = nullptr;  // of the module's descriptors
  switch (s.kind) {
    case ShapeKind::kTuple:
      *count = s.children.size();
      if (c < *count) return s.children[c];
      return std::nullopt;
    case ShapeKind::kOption:
      if (tag == 1) {
        *count = 1;
        if (c == 0) return s.children[0];
      }
      return std::nullopt;
    case ShapeKind::kNamed: {
      const TypeDesc& d = m_.types[s.type];
      if (d.kind == TypeDesc::Kind::kRecord) {
        types = &d.children;
      } else if (tag >= 0 && static_cast<size_t>(tag) < d.cases.size()) {
        types = &d.cases[tag];
      }
      break;
    }
    default:
      return std::nullopt;
  }
  if (types == nullptr) return std::nullopt;
  *count = types->size();
  if (c >= types->size()) return std::nullopt;
  return OfType((*types)[c]);
}

bool Shapes::Leq(uint32_t a, uint32_t b) {
  // Pairs of records or variants being compared: assumed to fit while their
  // fields are compared (a recursive type meets itself again).
  std::vector<std::pair<uint32_t, uint32_t>> assumed;
  // The constructors of a variant or record shape as field shapes (a record
  // is one constructor), or nullopt for other shapes.
  auto cases = [&](uint32_t x) -> std::optional<std::vector<std::vector<uint32_t>>> {
    const Shape& sx = shapes_[x];
    if (sx.kind == ShapeKind::kOption) return std::vector<std::vector<uint32_t>>{{}, sx.children};
    if (sx.kind != ShapeKind::kNamed) return std::nullopt;
    const TypeDesc& d = m_.types[sx.type];
    std::vector<std::vector<uint32_t>> out;
    if (d.kind == TypeDesc::Kind::kRecord) {
      out.emplace_back();
      for (uint32_t t : d.children) out.back().push_back(OfType(t));
    } else {
      for (const std::vector<uint32_t>& c : d.cases) {
        out.emplace_back();
        for (uint32_t t : c) out.back().push_back(OfType(t));
      }
    }
    return out;
  };
  std::function<bool(uint32_t, uint32_t, int)> leq = [&](uint32_t x, uint32_t y, int depth) {
    for (;;) {
      if (x == y) return true;
      if (depth > kMaxCompareDepth) return false;
      // By index, not by reference: comparing records may intern shapes.
      const ShapeKind kx = shapes_[x].kind, ky = shapes_[y].kind;
      if (kx == ShapeKind::kNever) return true;
      if (kx == ShapeKind::kNullary) {
        if (!IsVariant(y)) return false;
        std::optional<std::vector<uint32_t>> fields = Fields(y, static_cast<int>(shapes_[x].type));
        return fields && fields->empty();
      }
      const bool named_x = kx == ShapeKind::kNamed || kx == ShapeKind::kOption;
      const bool named_y = ky == ShapeKind::kNamed || ky == ShapeKind::kOption;
      if (named_x && named_y) {
        // Structurally: the same constructors with fields that fit (a
        // record and a variant never do: a variant's tag is read).
        if (IsVariant(x) != IsVariant(y)) return false;
        for (const auto& [p, q] : assumed) {
          if (p == x && q == y) return true;
        }
        std::optional<std::vector<std::vector<uint32_t>>> cx = cases(x), cy = cases(y);
        if (cx->size() != cy->size()) return false;
        assumed.emplace_back(x, y);
        for (size_t k = 0; k < cx->size(); ++k) {
          if ((*cx)[k].size() != (*cy)[k].size()) return false;
          for (size_t i = 0; i < (*cx)[k].size(); ++i) {
            if (!leq((*cx)[k][i], (*cy)[k][i], depth + 1)) return false;
          }
        }
        return true;
      }
      if (kx != ky) return false;
      const size_t n = shapes_[x].children.size();
      switch (kx) {
        case ShapeKind::kArray:
          x = shapes_[x].children[0];
          y = shapes_[y].children[0];
          ++depth;
          continue;
        case ShapeKind::kTuple:
          if (n != shapes_[y].children.size()) return false;
          for (size_t i = 0; i < n; ++i) {
            if (!leq(shapes_[x].children[i], shapes_[y].children[i], depth + 1)) return false;
          }
          return true;
        case ShapeKind::kFunction: {
          if (n != shapes_[y].children.size()) return false;
          // Parameters contravariant, the result covariant.
          for (size_t i = 0; i + 1 < n; ++i) {
            if (!leq(shapes_[y].children[i], shapes_[x].children[i], depth + 1)) return false;
          }
          return leq(shapes_[x].children[n - 1], shapes_[y].children[n - 1], depth + 1);
        }
        default:
          return false;  // equal kinds of the other shapes are equal ids
      }
    }
  };
  return leq(a, b, 0);
}

std::optional<uint32_t> Shapes::Join(uint32_t a, uint32_t b) { return Join(a, b, 0); }

std::optional<uint32_t> Shapes::Join(uint32_t a, uint32_t b, int depth) {
  if (Leq(a, b)) return b;
  if (Leq(b, a)) return a;
  // Past the depth Leq gives up at, no join either (bounded C stack).
  if (depth > kMaxCompareDepth) return std::nullopt;
  const Shape sa = shapes_[a];
  const Shape sb = shapes_[b];
  if (sa.kind == ShapeKind::kArray && sb.kind == ShapeKind::kArray) {
    std::optional<uint32_t> e = Join(sa.children[0], sb.children[0], depth + 1);
    if (!e) return std::nullopt;
    return Intern({ShapeKind::kArray, 0, {*e}});
  }
  if (sa.kind == ShapeKind::kTuple && sb.kind == ShapeKind::kTuple &&
      sa.children.size() == sb.children.size()) {
    Shape t{ShapeKind::kTuple, 0, {}};
    for (size_t i = 0; i < sa.children.size(); ++i) {
      std::optional<uint32_t> f = Join(sa.children[i], sb.children[i], depth + 1);
      if (!f) return std::nullopt;
      t.children.push_back(*f);
    }
    return Intern(std::move(t));
  }
  return std::nullopt;
}

uint32_t Shapes::OfFunction(const Function& f) {
  Shape s{ShapeKind::kFunction, 0, {}};
  for (uint32_t p : f.param_types) s.children.push_back(OfType(p));
  s.children.push_back(OfType(f.result_type));
  return Intern(std::move(s));
}

std::optional<uint32_t> Shapes::OptionOf(uint32_t elem) {
  return Intern({ShapeKind::kOption, 0, {elem}});
}

std::string Shapes::Name(uint32_t id) const {
  std::function<std::string(uint32_t, int)> name = [&](uint32_t x, int depth) -> std::string {
    if (depth > 8) return "...";
    const Shape& s = shapes_[x];
    std::vector<std::string> parts;
    for (uint32_t c : s.children) parts.push_back(name(c, depth + 1));
    switch (s.kind) {
      case ShapeKind::kPlain:
        return "a plain value";
      case ShapeKind::kStr:
        return "Str";
      case ShapeKind::kTensor:
        return "Tensor";
      case ShapeKind::kRandState:
        return "RandState";
      case ShapeKind::kPlot:
        return "Plot";
      case ShapeKind::kNever:
        return "nothing";
      case ShapeKind::kArray:
        return absl::StrCat("[", parts[0], "]");
      case ShapeKind::kTuple:
        return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
      case ShapeKind::kFunction: {
        std::string result = parts.back();
        parts.pop_back();
        return absl::StrCat("fn(", absl::StrJoin(parts, ", "), ") -> ", result);
      }
      case ShapeKind::kNamed: {
        const TypeDesc& d = m_.types[s.type];
        return d.name.empty() ? absl::StrCat("type ", s.type) : d.name;
      }
      case ShapeKind::kNullary:
        return absl::StrCat("constructor ", s.type, " without fields");
      case ShapeKind::kOption:
        return absl::StrCat("Option(", parts[0], ")");
    }
    return "?";
  };
  return name(id, 0);
}

namespace {

class SignatureMatcher {
 public:
  SignatureMatcher(Shapes& shapes, std::string* error) : shapes_(shapes), error_(error) {}

  // Whether `shape` fits `t`, binding variables; `contra`: in a parameter
  // position of a function type (the shape must accept the signature's).
  bool Match(const SigType& t, uint32_t shape, bool contra) {
    using K = SigType::Kind;
    const Shape& s = shapes_[shape];
    if (!contra && s.kind == ShapeKind::kNever) return true;
    switch (t.kind) {
      case K::kAny:
        return true;
      case K::kPlain:
        return shape == Shapes::kPlain;
      case K::kStr:
        return shape == Shapes::kStr;
      case K::kTensor:
        return shape == Shapes::kTensor;
      case K::kRandState:
        return shape == Shapes::kRandState;
      case K::kPlot:
        return shape == Shapes::kPlot;
      case K::kArray:
        return s.kind == ShapeKind::kArray && Match(t.children[0], s.children[0], contra);
      case K::kTuple: {
        if (s.kind != ShapeKind::kTuple || s.children.size() != t.children.size()) return false;
        const std::vector<uint32_t> fields = s.children;
        for (size_t i = 0; i < fields.size(); ++i) {
          if (!Match(t.children[i], fields[i], contra)) return false;
        }
        return true;
      }
      case K::kIntTuple: {
        if (s.kind != ShapeKind::kTuple) return false;
        for (uint32_t c : s.children) {
          if (c != Shapes::kPlain) return false;
        }
        return true;
      }
      case K::kFunction: {
        if (s.kind != ShapeKind::kFunction || s.children.size() != t.children.size()) return false;
        const std::vector<uint32_t> parts = s.children;
        for (size_t i = 0; i + 1 < parts.size(); ++i) {
          if (!Match(t.children[i], parts[i], !contra)) return false;
        }
        return Match(t.children.back(), parts.back(), contra);
      }
      case K::kOption: {
        if (!contra && s.kind == ShapeKind::kNullary) return s.type == 0;
        if (!shapes_.IsVariant(shape)) return false;
        std::optional<std::vector<uint32_t>> none = shapes_.Fields(shape, 0);
        std::optional<std::vector<uint32_t>> some = shapes_.Fields(shape, 1);
        if (shapes_.Cases(shape) != 2 || !none || !none->empty() || !some || some->size() != 1) {
          return false;
        }
        return Match(t.children[0], (*some)[0], contra);
      }
      case K::kVar: {
        Binding* found = Find(t.name);
        if (found == nullptr) {
          vars_.push_back({t.name, {shape, contra}});
          return true;
        }
        Binding& b = *found;
        if (contra) {
          b.contra = true;
          return shapes_.Leq(b.shape, shape);
        }
        if (shapes_.Leq(shape, b.shape)) return true;
        if (b.contra) return false;
        std::optional<uint32_t> joined = shapes_.Join(shape, b.shape);
        if (!joined) return false;
        b.shape = *joined;
        return true;
      }
      case K::kUnion:
        for (const SigType& alt : t.children) {
          if (Match(alt, shape, contra)) return true;
        }
        return false;
    }
    return false;
  }

  void Bind(const std::string& var, uint32_t shape) { vars_.push_back({var, {shape, false}}); }
  bool Bound(const std::string& var) { return Find(var) != nullptr; }

  std::optional<uint32_t> Instantiate(const SigType& t) {
    using K = SigType::Kind;
    switch (t.kind) {
      case K::kPlain:
        return Shapes::kPlain;
      case K::kStr:
        return Shapes::kStr;
      case K::kTensor:
        return Shapes::kTensor;
      case K::kRandState:
        return Shapes::kRandState;
      case K::kPlot:
        return Shapes::kPlot;
      case K::kArray: {
        std::optional<uint32_t> e = Instantiate(t.children[0]);
        if (!e) return std::nullopt;
        return shapes_.Intern({ShapeKind::kArray, 0, {*e}});
      }
      case K::kTuple:
      case K::kFunction: {
        Shape s{t.kind == K::kTuple ? ShapeKind::kTuple : ShapeKind::kFunction, 0, {}};
        for (const SigType& c : t.children) {
          std::optional<uint32_t> x = Instantiate(c);
          if (!x) return std::nullopt;
          s.children.push_back(*x);
        }
        return shapes_.Intern(std::move(s));
      }
      case K::kOption: {
        std::optional<uint32_t> e = Instantiate(t.children[0]);
        if (!e) return std::nullopt;
        std::optional<uint32_t> o = shapes_.OptionOf(*e);
        if (!o) *error_ = absl::StrCat("the module has no type Option(", shapes_.Name(*e), ")");
        return o;
      }
      case K::kVar: {
        Binding* found = Find(t.name);
        if (found == nullptr) {
          *error_ = absl::StrCat("its result's `", t.name, "` is not determined by its arguments");
          return std::nullopt;
        }
        return found->shape;
      }
      case K::kUnion: {
        for (const SigType& alt : t.children) {
          if (alt.kind != K::kPlain) {
            *error_ = "a result that may be a reference must be one type";
            return std::nullopt;
          }
        }
        return Shapes::kPlain;
      }
      case K::kAny:
      case K::kIntTuple:
        *error_ = "its result's type is not determined";
        return std::nullopt;
    }
    return std::nullopt;
  }

 private:
  struct Binding {
    uint32_t shape;
    bool contra;  // used in a parameter position: it may not widen any more
  };
  Shapes& shapes_;
  std::string* error_;
  // A signature has a few variables: found by name in a short list.
  Binding* Find(absl::string_view name) {
    for (auto& [var, binding] : vars_) {
      if (var == name) return &binding;
    }
    return nullptr;
  }
  absl::InlinedVector<std::pair<absl::string_view, Binding>, 4> vars_;
};

}  // namespace

std::optional<uint32_t> ApplySignature(Shapes& shapes, const NativeSignature& sig,
                                       absl::Span<const NativeArgument> args, std::string* error) {
  if (args.size() != sig.params.size()) {
    *error = absl::StrCat("it takes ", sig.params.size(), " arguments, not ", args.size());
    return std::nullopt;
  }
  SignatureMatcher matcher(shapes, error);
  // Type arguments first: they are what the native trusts; then functions,
  // whose declared types are the most general; then the rest in order.
  for (size_t i = 0; i < args.size(); ++i) {
    const SigParam& p = sig.params[i];
    if (p.kind == SigParam::Kind::kValue) continue;
    if (args[i].in_reference_register) {
      *error = absl::StrCat("argument ", i + 1, " must be a plain value");
      return std::nullopt;
    }
    if (p.kind == SigParam::Kind::kDType) continue;  // range-checked by the native
    const std::optional<int64_t>& k = args[i].constant;
    if (!k || *k < 0 || static_cast<uint64_t>(*k) >= shapes.module_types()) {
      *error = absl::StrCat("argument ", i + 1,
                            " must be a constant type index (LOADI of a type of the module)");
      return std::nullopt;
    }
    const uint32_t shape = shapes.OfType(static_cast<uint32_t>(*k));
    if (matcher.Bound(p.var)) {
      if (!matcher.Match(SigType{SigType::Kind::kVar, p.var, {}}, shape, false)) {
        *error = absl::StrCat("argument ", i + 1, " names another type than its `", p.var, "`");
        return std::nullopt;
      }
    } else {
      matcher.Bind(p.var, shape);
    }
  }
  auto check = [&](size_t i) {
    const SigParam& p = sig.params[i];
    const NativeArgument& a = args[i];
    // By pointer into the signature, never a copy: bound variables keep
    // views of its names.
    const SigType* chosen = &p.type;
    if (chosen->kind == SigType::Kind::kUnion) {
      // The native tells the alternatives apart by the register's class.
      for (const SigType& alt : p.type.children) {
        if ((alt.kind == SigType::Kind::kPlain) != a.in_reference_register) chosen = &alt;
      }
    }
    const SigType& type = *chosen;
    uint32_t shape = a.shape;
    if (a.lent && type.kind != SigType::Kind::kFunction) shape = Shapes::kPlain;
    if (!a.lent && a.in_reference_register != shapes.IsReference(shape)) return false;
    if (a.lent || !a.in_reference_register) {
      // A plain register: a plain parameter, or a closure lent to a `fn` one.
      if (!(a.lent && type.kind == SigType::Kind::kFunction) &&
          type.kind != SigType::Kind::kPlain && type.kind != SigType::Kind::kAny &&
          type.kind != SigType::Kind::kVar) {
        return false;
      }
    }
    return matcher.Match(type, shape, false);
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < args.size(); ++i) {
      const SigParam& p = sig.params[i];
      if (p.kind != SigParam::Kind::kValue) continue;
      if ((p.type.kind == SigType::Kind::kFunction) != (pass == 0)) continue;
      if (!check(i)) {
        *error = absl::StrCat("argument ", i + 1, " is ", shapes.Name(args[i].shape),
                              args[i].lent                    ? ", lent in a plain register"
                              : args[i].in_reference_register ? ""
                                                              : " in a plain register",
                              ", which does not fit its parameter");
        return std::nullopt;
      }
    }
  }
  return matcher.Instantiate(sig.result);
}

}  // namespace alea::vm::verifier
