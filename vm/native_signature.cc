#include "vm/native_signature.h"

#include <cctype>
#include <memory>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace alea::vm {
namespace {

class Parser {
 public:
  explicit Parser(absl::string_view text) : text_(text) {}

  absl::StatusOr<NativeSignature> Signature() {
    NativeSignature sig;
    Expect("(");
    if (!Accept(")")) {
      do {
        sig.params.push_back(Param());
      } while (ok() && Accept(","));
      Expect(")");
    }
    Expect("->");
    sig.result = Type();
    SkipSpace();
    if (ok() && pos_ != text_.size()) Fail("the end of the signature");
    if (!ok()) return absl::InvalidArgumentError(error_);
    return sig;
  }

 private:
  bool ok() const { return error_.empty(); }
  void Fail(absl::string_view expected) {
    if (ok()) error_ = absl::StrCat("column ", pos_ + 1, ": expected ", expected);
  }
  void SkipSpace() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  bool Accept(absl::string_view token) {
    SkipSpace();
    if (!ok() || text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  void Expect(absl::string_view token) {
    if (!Accept(token)) Fail(absl::StrCat("`", token, "`"));
  }
  std::string Name() {
    SkipSpace();
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    if (start == pos_) Fail("a name");
    return std::string(text_.substr(start, pos_ - start));
  }

  SigParam Param() {
    SigParam p;
    // `type a` and `dtype d`: a keyword, a space and a variable.
    if (Accept("type ")) {
      p.kind = SigParam::Kind::kType;
      p.var = Name();
    } else if (Accept("dtype ")) {
      p.kind = SigParam::Kind::kDType;
      p.var = Name();
    } else {
      p.type = Type();
    }
    return p;
  }

  SigType Type() {
    SigType first = Single();
    if (!Accept("|")) return first;
    SigType u;
    u.kind = SigType::Kind::kUnion;
    u.children.push_back(std::move(first));
    do {
      u.children.push_back(Single());
    } while (ok() && Accept("|"));
    return u;
  }

  SigType Single() {
    SigType t;
    if (!ok()) return t;
    if (Accept("[")) {
      t.kind = SigType::Kind::kArray;
      t.children.push_back(Type());
      Expect("]");
      return t;
    }
    if (Accept("(")) {
      if (Accept("Int...")) {
        Expect(")");
        t.kind = SigType::Kind::kIntTuple;
        return t;
      }
      t.kind = SigType::Kind::kTuple;
      t.children.push_back(Type());
      while (ok() && Accept(",")) t.children.push_back(Type());
      Expect(")");
      if (t.children.size() < 2) Fail("a tuple of two or more types");
      return t;
    }
    const std::string name = Name();
    if (name == "Int" || name == "Float" || name == "Bool" || name == "Unit") {
      t.kind = SigType::Kind::kPlain;
      t.name = name;
    } else if (name == "Str") {
      t.kind = SigType::Kind::kStr;
    } else if (name == "RandState") {
      t.kind = SigType::Kind::kRandState;
    } else if (name == "Plot") {
      t.kind = SigType::Kind::kPlot;
    } else if (name == "Tensor") {
      t.kind = SigType::Kind::kTensor;
      Expect("(");
      t.name = Name();
      Expect(")");
    } else if (name == "Option") {
      t.kind = SigType::Kind::kOption;
      Expect("(");
      t.children.push_back(Type());
      Expect(")");
    } else if (name == "fn") {
      t.kind = SigType::Kind::kFunction;
      Expect("(");
      if (!Accept(")")) {
        do {
          t.children.push_back(Type());
        } while (ok() && Accept(","));
        Expect(")");
      }
      Expect("->");
      t.children.push_back(Type());
    } else if (name == "_") {
      t.kind = SigType::Kind::kAny;
    } else if (!name.empty() && std::islower(static_cast<unsigned char>(name[0]))) {
      t.kind = SigType::Kind::kVar;
      t.name = name;
    } else if (ok()) {
      error_ = absl::StrCat("column ", pos_ + 1 - name.size(), ": unknown type `", name, "`");
    }
    return t;
  }

  absl::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

struct Table {
  absl::flat_hash_map<std::string, NativeSignature> by_name;
};

const Table& Natives() {
  static const Table* const kTable = [] {
    auto* table = new Table;
    auto add = [&](const char* name, const char* text, bool owns_first) {
      absl::StatusOr<NativeSignature> sig = ParseNativeSignature(text);
      // A malformed line of natives.def is caught by vm.NativeSignatures;
      // meanwhile the native is unknown to the verifier (every call refused).
      if (!sig.ok()) return;
      sig->owns_first = owns_first;
      table->by_name.emplace(name, *std::move(sig));
    };
#define ALEA_NATIVE(name, arity, signature, semantics) add(#name, signature, false);
#define ALEA_NATIVE_OWNING(name, arity, signature, semantics) add(#name, signature, true);
#include "vm/natives.def"
#undef ALEA_NATIVE
#undef ALEA_NATIVE_OWNING
    return table;
  }();
  return *kTable;
}

}  // namespace

absl::StatusOr<NativeSignature> ParseNativeSignature(absl::string_view text) {
  return Parser(text).Signature();
}

const NativeSignature* SignatureOfNative(absl::string_view name) {
  const Table& table = Natives();
  auto it = table.by_name.find(name);
  return it == table.by_name.end() ? nullptr : &it->second;
}

bool NativeParamIsFunction(absl::string_view name, size_t i) {
  const NativeSignature* sig = SignatureOfNative(name);
  return sig != nullptr && i < sig->params.size() &&
         sig->params[i].kind == SigParam::Kind::kValue &&
         sig->params[i].type.kind == SigType::Kind::kFunction;
}

}  // namespace alea::vm
