// Types during monomorphization: substituting the generic variables of a
// specialization, naming concrete types (instance keys), type descriptors and
// register classes.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/internal.h"

namespace alea::compiler {

namespace types = lang::types;
using types::Kind;

const Type* ProgramCompiler::Unit() {
  if (unit_ == nullptr) unit_ = store_.Tuple({});
  return unit_;
}

const Type* ProgramCompiler::IntType() {
  if (int_ == nullptr) int_ = store_.Prim(Kind::kInt);
  return int_;
}

const Type* ProgramCompiler::RandStateType() {
  if (rand_state_ == nullptr) rand_state_ = store_.Prim(Kind::kRandState);
  return rand_state_;
}

const Type* ProgramCompiler::Concrete(const Type* t, const Subst& subst) {
  t = types::Resolve(t);
  switch (t->kind) {
    case Kind::kVar: {
      auto it = subst.find(t);
      // A variable in no scheme (an unused `[]`) can be anything: unit.
      return it != subst.end() ? it->second : Unit();
    }
    case Kind::kTuple:
    case Kind::kArray:
    case Kind::kFunction:
    case Kind::kTensor:
    case Kind::kDType:
    case Kind::kNamed: {
      std::vector<Type*> args;
      bool changed = false;
      for (const Type* a : t->args) {
        const Type* c = Concrete(a, subst);
        changed |= c != a;
        args.push_back(const_cast<Type*>(c));
      }
      const Type* result = t->result != nullptr ? Concrete(t->result, subst) : nullptr;
      changed |= result != t->result;
      if (!changed) return t;
      switch (t->kind) {
        case Kind::kTuple:
          return store_.Tuple(std::move(args));
        case Kind::kArray:
          return store_.Array(args[0]);
        case Kind::kFunction:
          return store_.Function(std::move(args), const_cast<Type*>(result));
        case Kind::kTensor:
          return store_.Tensor(args[0]);
        case Kind::kNamed:
          return store_.Named(t->def, std::move(args));
        default:
          return store_.DTypeOf(args[0]);
      }
    }
    default:
      return t;
  }
}

std::string ProgramCompiler::Key(const Type* t) {
  auto it = key_cache_.find(t);
  if (it != key_cache_.end()) return it->second;
  // A declared type also says which declaration it is: two files may each
  // declare an `Option` (one of them the prelude's), both in one program.
  std::string key = types::Printer(/*name_declarations=*/true).Print(t);
  key_cache_.emplace(t, key);
  return key;
}

std::string ProgramCompiler::KeyOf(const std::vector<const Type*>& ts) {
  std::vector<std::string> parts;
  for (const Type* t : ts) parts.push_back(Key(t));
  return absl::StrJoin(parts, ", ");
}

bool ProgramCompiler::IsRef(const Type* t) {
  t = types::Resolve(t);
  switch (t->kind) {
    case Kind::kStr:
    case Kind::kArray:
    case Kind::kFunction:
    case Kind::kTensor:
    case Kind::kRandState:
    case Kind::kPlot:
      return true;
    case Kind::kNamed:
      return true;
    case Kind::kTuple:
      return !t->args.empty();  // unit is the plain 0
    default:
      return false;
  }
}

std::string ProgramCompiler::UnsupportedPart(const Type* t) {
  t = types::Resolve(t);
  switch (t->kind) {
    case Kind::kTensor:
      return "Tensor";
    case Kind::kRandState:
      return "RandState";
    case Kind::kDType:
    case Kind::kDTypeConst:
      return "dtype";
    case Kind::kError:
      return "error";
    default:
      break;
  }
  for (const Type* a : t->args) {
    std::string part = UnsupportedPart(a);
    if (!part.empty()) return part;
  }
  if (t->result != nullptr) return UnsupportedPart(t->result);
  return "";
}

uint32_t ProgramCompiler::TypeDescOf(const Type* t) {
  t = types::Resolve(t);
  std::string key = Key(t);
  auto it = type_descs_.find(key);
  if (it != type_descs_.end()) return it->second;
  if (t->kind == Kind::kNamed) {
    // Registered before its fields: a recursive type refers to itself.
    uint32_t index = static_cast<uint32_t>(module_.types.size());
    module_.types.emplace_back();
    type_descs_.emplace(key, index);
    vm::TypeDesc desc;
    desc.name = types::ToString(t);
    const types::TypeDef& def = *t->def;
    desc.kind = def.is_record ? vm::TypeDesc::Kind::kRecord : vm::TypeDesc::Kind::kVariant;
    for (const types::Ctor& c : def.ctors) {
      std::vector<uint32_t> fields;
      for (const Type* f : store_.FieldTypes(t, c)) fields.push_back(TypeDescOf(Concrete(f, {})));
      if (def.is_record) {
        desc.children = std::move(fields);
        desc.names = c.field_names;
      } else {
        desc.cases.push_back(std::move(fields));
        desc.names.push_back(c.name);
      }
    }
    module_.types[index] = std::move(desc);
    return index;
  }
  vm::TypeDesc desc;
  switch (t->kind) {
    case Kind::kInt:
      desc.kind = vm::TypeDesc::Kind::kInt;
      break;
    case Kind::kFloat:
      desc.kind = vm::TypeDesc::Kind::kFloat;
      break;
    case Kind::kBool:
      desc.kind = vm::TypeDesc::Kind::kBool;
      break;
    case Kind::kStr:
      desc.kind = vm::TypeDesc::Kind::kStr;
      break;
    case Kind::kTuple:
      desc.kind = t->args.empty() ? vm::TypeDesc::Kind::kUnit : vm::TypeDesc::Kind::kTuple;
      for (const Type* a : t->args) desc.children.push_back(TypeDescOf(a));
      break;
    case Kind::kArray:
      desc.kind = vm::TypeDesc::Kind::kArray;
      desc.children.push_back(TypeDescOf(t->args[0]));
      break;
    case Kind::kFunction: {
      desc.kind = vm::TypeDesc::Kind::kFunction;
      std::vector<uint32_t> children;
      for (const Type* a : t->args) children.push_back(TypeDescOf(a));
      children.push_back(TypeDescOf(t->result));
      desc.children = std::move(children);
      break;
    }
    case Kind::kTensor:
      desc.kind = vm::TypeDesc::Kind::kTensor;
      desc.dtype = static_cast<uint8_t>(StaticDType(t));
      break;
    case Kind::kDType:
      desc.kind = vm::TypeDesc::Kind::kDType;
      desc.dtype = static_cast<uint8_t>(StaticDType(t));
      break;
    case Kind::kRandState:
      desc.kind = vm::TypeDesc::Kind::kRandState;
      break;
    case Kind::kPlot:
      desc.kind = vm::TypeDesc::Kind::kPlot;
      break;
    default:
      // Unsupported types are reported before a descriptor is asked for;
      // unit keeps the module well-formed meanwhile.
      desc.kind = vm::TypeDesc::Kind::kUnit;
      break;
  }
  uint32_t index = static_cast<uint32_t>(module_.types.size());
  module_.types.push_back(std::move(desc));
  type_descs_.emplace(key, index);
  return index;
}

uint32_t ProgramCompiler::CaseDescOf(const Type* t, const types::Ctor& c) {
  t = types::Resolve(t);
  uint32_t variant = TypeDescOf(t);
  if (t->def->is_record) return variant;
  std::string key = absl::StrCat(Key(t), "#", c.tag);
  auto it = type_descs_.find(key);
  if (it != type_descs_.end()) return it->second;
  vm::TypeDesc desc;
  desc.kind = vm::TypeDesc::Kind::kCase;
  desc.children = module_.types[variant].cases[c.tag];
  desc.tag = static_cast<uint16_t>(c.tag);
  desc.parent = variant;
  uint32_t index = static_cast<uint32_t>(module_.types.size());
  module_.types.push_back(std::move(desc));
  type_descs_.emplace(key, index);
  return index;
}

std::vector<const Type*> ProgramCompiler::FieldTypesOf(const Type* t, const types::Ctor& c) {
  std::vector<const Type*> out;
  for (const Type* f : store_.FieldTypes(types::Resolve(t), c)) out.push_back(Concrete(f, {}));
  return out;
}

}  // namespace alea::compiler
