#include "tooling/session_lets.h"

#include <algorithm>
#include <optional>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "lang/ast_walk.h"
#include "lang/types.h"
#include "tooling/stream_state.h"
#include "tooling/value_text.h"
#include "vm/randstate.h"

namespace alea::tooling {
namespace {

void CollectNames(const lang::Pattern& p, std::vector<const lang::Pattern*>& out) {
  if (p.kind == lang::Pattern::Kind::kVar) out.push_back(&p);
  for (const lang::PatternPtr& element : p.elements) CollectNames(*element, out);
}

// The pattern binding `name` among the session file's (root module's) lets.
const lang::Pattern* FindBinding(const lang::Program& program, const std::string& name,
                                 const lang::TopLet** let_out = nullptr) {
  const lang::Module& root = *program.modules.back();
  for (const auto& let : root.lets) {
    std::vector<const lang::Pattern*> vars;
    CollectNames(*let->pattern, vars);
    for (const lang::Pattern* var : vars) {
      if (var->name != name) continue;
      if (let_out != nullptr) *let_out = let.get();
      return var;
    }
  }
  return nullptr;
}

// A user piece's span, for blaming glue on the let it serves.
lang::Span Blame(const Item& item) {
  for (const Piece& piece : item.pieces) {
    if (piece.user) {
      return lang::Span{piece.origin.file, piece.origin.begin,
                        piece.origin.begin + static_cast<uint32_t>(piece.text.size())};
    }
  }
  return {};
}

}  // namespace

Item LetItem(std::string_view input, lang::FileId file, const lang::TopLet& let, int64_t seed,
             std::optional<int64_t> stream_index) {
  Item item;
  item.kind = Item::Kind::kLet;
  std::vector<const lang::Pattern*> vars;
  CollectNames(*let.pattern, vars);
  for (const lang::Pattern* var : vars) item.names.push_back(var->name);
  lang::Span whole{file, let.span.begin, let.span.end};
  auto user = [&](uint32_t begin, uint32_t end) {
    item.pieces.push_back(
        Piece{std::string(input.substr(begin, end - begin)), true, lang::Span{file, begin, begin}});
  };
  if (!stream_index || let.value == nullptr) {
    user(let.span.begin, let.span.end);
  } else {
    // `let p: T = ` as typed, then the value inside its state's `with`.
    user(let.span.begin, let.value->span.begin);
    item.pieces.push_back(Piece{WithStreamState(seed, *stream_index), false, whole});
    user(let.value->span.begin, let.span.end);
    item.pieces.push_back(Piece{" }", false, whole});
  }
  item.pieces.push_back(Piece{"\n", false, whole});
  return item;
}

bool LetDraws(const lang::Program& program, const std::string& name) {
  const lang::TopLet* let = nullptr;
  if (FindBinding(program, name, &let) == nullptr || let->value == nullptr) return true;
  bool draws = false;
  lang::WalkExpr(*let->value, [&draws](const lang::Expr& e) { draws = draws || e.ambient_site; });
  return draws;
}

void AppendLetShowers(const std::vector<Item>& lets, std::vector<Item>& build_items,
                      std::vector<std::string>& wrappers) {
  for (const Item& let : lets) {
    for (const std::string& name : let.names) {
      std::string wrapper = absl::StrCat("__val_", wrappers.size(), "_", name);
      Item show;
      show.kind = Item::Kind::kFn;
      show.names = {wrapper};
      show.pieces.push_back(
          Piece{absl::StrCat("fn ", wrapper, "() = ", name, "\n"), false, Blame(let)});
      build_items.push_back(std::move(show));
      wrappers.push_back(std::move(wrapper));
    }
  }
}

absl::Status RunLets(vm::Vm& machine, std::string*& capture, std::string* captured) {
  capture = captured;
  absl::Status status = machine.RunInit();
  machine.FlushOutput();
  capture = nullptr;
  return status;
}

std::string NewLetOutput(const std::string& before, const std::string& now) {
  auto [b, n] = std::mismatch(before.begin(), before.end(), now.begin(), now.end());
  return std::string(n, now.end());
}

std::string LetValuesText(const Build& build, vm::Vm& machine, const std::vector<Item>& lets,
                          const std::vector<std::string>& wrappers) {
  std::string out;
  size_t k = 0;
  for (const Item& let : lets) {
    for (const std::string& name : let.names) {
      const std::string& wrapper = wrappers[k++];
      const lang::Pattern* var = FindBinding(*build.program, name);
      std::string type = var != nullptr && var->type != nullptr ? lang::types::ToString(var->type)
                                                                : std::string("?");
      std::string head = absl::StrCat("val ", name);
      const vm::Export* exported = nullptr;
      for (const vm::Export& e : build.module->exports) {
        if (e.name == wrapper) exported = &e;
      }
      vm::Value value = 0;
      bool is_ref = false;
      if (exported == nullptr || !machine.Call(exported->function, {}, &value, &is_ref).ok()) {
        absl::StrAppend(&out, head, " : ", type, "\n");  // polymorphic: no one value to show
        continue;
      }
      out += ResultText(head, type, value, exported->result, *build.module);
      if (is_ref) machine.heap().ReleaseValue(value);
    }
  }
  return out;
}

void Persist(const Build& build, vm::Vm& machine, std::map<std::string, PersistedValue>& values,
             std::vector<Item>& items) {
  const vm::Module& module = *build.module;
  // The global of `name` computed by this build, when it has exactly one.
  auto global_of = [&](const std::string& name) -> std::optional<uint32_t> {
    std::optional<uint32_t> found;
    for (uint32_t g = 0; g < module.globals.size(); ++g) {
      if (module.globals[g].name != name || module.globals[g].external) continue;
      if (found) return std::nullopt;  // polymorphic: one global per instance
      found = g;
    }
    return found;
  };
  std::vector<Item> out;
  for (Item& item : items) {
    if (item.kind != Item::Kind::kLet || item.persisted) {
      out.push_back(std::move(item));
      continue;
    }
    struct Binding {
      std::string name, type;
      uint32_t global;
    };
    std::vector<Binding> bindings;
    for (const std::string& name : item.names) {
      const lang::Pattern* var = FindBinding(*build.program, name);
      std::optional<uint32_t> g = global_of(name);
      if (var == nullptr || var->type == nullptr || !g) break;
      std::string type = lang::types::ToString(var->type);
      // Only a type an annotation can spell: no variables, no dtype values.
      if (!lang::types::IsGround(var->type) || absl::StrContains(type, "DType")) break;
      // Nor a closure: it names code of the build that made it, which the
      // next build numbers anew (a kept one would run another function).
      if (lang::types::Contains(var->type, lang::types::Kind::kFunction)) break;
      bindings.push_back(Binding{name, std::move(type), *g});
    }
    if (bindings.size() != item.names.size() || bindings.empty()) {
      out.push_back(std::move(item));
      continue;
    }
    const lang::Span blame = Blame(item);
    for (const Binding& b : bindings) {
      PersistedValue kept;
      kept.value = machine.global(b.global);
      kept.is_ref = module.types[module.globals[b.global].type].is_reference();
      if (kept.is_ref && kept.value != 0) vm::Retain(kept.value);
      auto old = values.find(b.name);
      if (old != values.end() && old->second.is_ref && old->second.value != 0) {
        machine.heap().ReleaseValue(old->second.value);
      }
      values[b.name] = kept;
      Item persisted;
      persisted.kind = Item::Kind::kLet;
      persisted.persisted = true;
      persisted.names = {b.name};
      persisted.pieces.push_back(
          Piece{absl::StrCat("extern let ", b.name, ": ", b.type, "\n"), false, blame});
      out.push_back(std::move(persisted));
    }
  }
  items = std::move(out);
  ReleasePersisted(machine, values, items);
}

absl::Status SetPersisted(const vm::Module& module, vm::Vm& machine,
                          const std::map<std::string, PersistedValue>& values) {
  for (uint32_t g = 0; g < module.globals.size(); ++g) {
    if (!module.globals[g].external) continue;
    auto it = values.find(module.globals[g].name);
    if (it == values.end()) {
      return absl::InternalError(absl::StrCat("no kept value for `", module.globals[g].name, "`"));
    }
    const vm::Value v = it->second.value;
    if (it->second.is_ref && v != 0) {
      vm::Retain(v);
      // Where a kept state was made and consumed are places in an earlier
      // build's bytecode, meaningless in this one: forget them, so that a
      // second use reports no wrong note.
      vm::Object* o = vm::AsObject(v);
      if (o->kind == vm::ObjKind::kRandState) {
        vm::SetCreatedAt(o, vm::RandSite{});
        if (vm::IsConsumed(o)) vm::MarkConsumed(o, vm::RandSite{});
      }
    }
    if (absl::Status s = machine.SetGlobal(g, v); !s.ok()) return s;
  }
  return absl::OkStatus();
}

void ReleasePersisted(vm::Vm& machine, std::map<std::string, PersistedValue>& values,
                      const std::vector<Item>& keep) {
  absl::flat_hash_set<std::string> kept;
  for (const Item& item : keep) {
    if (item.persisted) kept.insert(item.names.begin(), item.names.end());
  }
  for (auto it = values.begin(); it != values.end();) {
    if (kept.contains(it->first)) {
      ++it;
      continue;
    }
    if (it->second.is_ref && it->second.value != 0) machine.heap().ReleaseValue(it->second.value);
    it = values.erase(it);
  }
}

}  // namespace alea::tooling
