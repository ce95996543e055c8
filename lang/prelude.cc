#include "lang/prelude.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "lang/types.h"

namespace alea::lang {
namespace {

constexpr PreludeType kPrelude[] = {
#define ALEA_PRELUDE_TYPE(name, params, constructors, summary, example) \
  {name, params, constructors, summary, example},
#include "lang/prelude.def"
#undef ALEA_PRELUDE_TYPE
};

absl::string_view V(std::string_view s) { return absl::string_view(s.data(), s.size()); }

}  // namespace

absl::Span<const PreludeType> PreludeTypes() { return kPrelude; }

std::vector<std::string> PreludeParams(const PreludeType& type) {
  std::vector<std::string> out;
  for (absl::string_view p : absl::StrSplit(V(type.params), ',')) {
    out.emplace_back(absl::StripAsciiWhitespace(p));
  }
  return out;
}

std::vector<PreludeCtor> PreludeCtors(const PreludeType& type) {
  const std::vector<std::string> params = PreludeParams(type);
  std::vector<PreludeCtor> out;
  for (absl::string_view text : absl::StrSplit(V(type.constructors), '|')) {
    text = absl::StripAsciiWhitespace(text);
    PreludeCtor c;
    size_t open = text.find('(');
    c.name = std::string(text.substr(0, open));
    if (open != absl::string_view::npos) {
      absl::string_view field = text.substr(open + 1, text.size() - open - 2);
      for (size_t i = 0; i < params.size(); ++i) {
        if (params[i] == field) c.field = static_cast<int>(i);
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::string PreludeDeclaration(const PreludeType& type) {
  return absl::StrCat("type ", V(type.name), "(", V(type.params), ") = ", V(type.constructors));
}

absl::Span<const types::TypeDef* const> PreludeDefs() {
  struct Defs {
    types::TypeStore store;
    std::vector<const types::TypeDef*> defs;
  };
  static const Defs* made = [] {
    auto* d = new Defs;
    for (const PreludeType& type : kPrelude) {
      types::TypeDef* def = d->store.NewDef();
      def->name = std::string(type.name);
      def->prelude = true;
      for (const std::string& param : PreludeParams(type)) {
        types::Type* v =
            d->store.Var(0, types::Origin{std::nullopt, absl::StrCat("`", param, "`")});
        v->generic = true;
        def->params.push_back(v);
      }
      for (const PreludeCtor& pc : PreludeCtors(type)) {
        types::Ctor c;
        c.name = pc.name;
        c.owner = def;
        c.tag = static_cast<int>(def->ctors.size());
        if (pc.field >= 0) c.fields.push_back(def->params[pc.field]);
        def->ctors.push_back(std::move(c));
      }
      // A field is a parameter: what a value holds comes from its arguments.
      def->holds = 0;
      d->defs.push_back(def);
    }
    return d;
  }();
  return made->defs;
}

const types::TypeDef* PreludeDef(std::string_view name) {
  for (const types::TypeDef* def : PreludeDefs()) {
    if (def->name == name) return def;
  }
  return nullptr;
}

const PreludeType* FindPreludeType(std::string_view name) {
  for (const PreludeType& type : kPrelude) {
    if (type.name == name) return &type;
    for (const PreludeCtor& c : PreludeCtors(type)) {
      if (c.name == name) return &type;
    }
  }
  return nullptr;
}

}  // namespace alea::lang
