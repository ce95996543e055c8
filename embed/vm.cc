// alea::Vm (include/alea/vm.h) over the internal vm::Vm: looking functions up
// by their exported types, converting values both ways, and turning the VM's
// RuntimeError into a status whose message is `alea run`'s diagnostic.
#include "alea/vm.h"

#include <algorithm>
#include <any>
#include <cstring>
#include <optional>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "embed/internal.h"
#include "embed/runtime_diagnostic.h"
#include "lang/diagnostics.h"
#include "stdlib/natives.h"
#include "vm/randstate.h"
#include "vm/runtime_error.h"
#include "vm/tensor.h"
#include "vm/vm.h"

namespace alea {
namespace embed_internal {
namespace {

// A tensor the host made with a shape no tensor has, or an owned copy
// with a different number of values than its shape holds.
absl::Status CheckTensorShape(const TensorData& d, const std::string& what) {
  if (d.size < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " has shape ", vm::ShapeString(d.shape),
                     ", which no tensor has (an axis below 0, more than 32 axes or 2^48 bytes)"));
  }
  if (!d.view && d.storage.size() != static_cast<uint64_t>(d.size)) {
    return absl::InvalidArgumentError(absl::StrCat(what, " has shape ", vm::ShapeString(d.shape),
                                                   " (", d.size, " elements) but was made from ",
                                                   d.storage.size(), " values"));
  }
  return absl::OkStatus();
}

vm::Limits LimitsOf(const VmOptions& o) {
  vm::Limits limits;
  limits.max_heap_bytes = o.max_heap_bytes;
  limits.max_call_depth = o.max_call_depth;
  limits.max_instructions = o.max_instructions;
  switch (o.files.mode) {
    case FileAccess::Mode::kNone:
      limits.files.mode = vm::FileAccess::Mode::kNone;
      break;
    case FileAccess::Mode::kReadOnly:
      limits.files.mode = vm::FileAccess::Mode::kReadOnly;
      break;
    case FileAccess::Mode::kReadWrite:
      limits.files.mode = vm::FileAccess::Mode::kReadWrite;
      break;
    case FileAccess::Mode::kFull:
      limits.files.mode = vm::FileAccess::Mode::kFull;
      break;
  }
  limits.files.root = o.files.root;
  return limits;
}

// The host type of the VM type T(index), or nullopt for one that cannot
// cross (a function, also inside a tuple or an array).
std::optional<Type> HostType(const vm::Module& m, uint32_t index) {
  using K = vm::TypeDesc::Kind;
  const vm::TypeDesc& t = m.types[index];
  switch (t.kind) {
    case K::kUnit:
      return Type::kUnit;
    case K::kInt:
      return Type::kInt;
    case K::kFloat:
      return Type::kFloat;
    case K::kBool:
      return Type::kBool;
    case K::kStr:
      return Type::kStr;
    case K::kTensor:
      return Type::kTensor;
    case K::kRandState:
      return Type::kRandState;
    case K::kTuple: {
      std::vector<Type> elements;
      for (uint32_t child : t.children) {
        std::optional<Type> element = HostType(m, child);
        if (!element) return std::nullopt;
        elements.push_back(*std::move(element));
      }
      return Type::Tuple(std::move(elements));
    }
    case K::kArray: {
      std::optional<Type> element = HostType(m, t.children[0]);
      if (!element) return std::nullopt;
      return Type::Array(*std::move(element));
    }
    case K::kRecord:
    case K::kVariant: {
      // Known by name; it crosses when nothing reachable in it is a function.
      std::vector<uint32_t> pending = {index};
      absl::flat_hash_set<uint32_t> seen = {index};
      while (!pending.empty()) {
        const vm::TypeDesc& d = m.types[pending.back()];
        pending.pop_back();
        if (d.kind == K::kFunction) return std::nullopt;
        auto visit = [&](uint32_t child) {
          if (seen.insert(child).second) pending.push_back(child);
        };
        for (uint32_t child : d.children) visit(child);
        for (const std::vector<uint32_t>& fields : d.cases) {
          for (uint32_t child : fields) visit(child);
        }
      }
      return Type::Named(t.name);
    }
    default:
      return std::nullopt;
  }
}

// The ExportType of T(index), for a part of a declared type's value.
vm::ExportType ExportOf(const vm::Module& m, uint32_t index) {
  const vm::TypeDesc& t = m.types[index];
  vm::ExportType e{index, 0, {}};
  if (t.kind == vm::TypeDesc::Kind::kTensor) e.dtype = t.dtype;
  if (t.kind == vm::TypeDesc::Kind::kTuple || t.kind == vm::TypeDesc::Kind::kArray) {
    for (uint32_t child : t.children) e.fields.push_back(ExportOf(m, child));
  }
  return e;
}

// Values nested deeper than this do not cross the boundary (a host Value is
// a tree of shared pointers, converted and destroyed recursively).
constexpr int kMaxBoundaryDepth = 10'000;

// Whether the VM value `v` of type T(type) nests deeper than kMaxBoundaryDepth.
bool TooDeep(vm::Value v, uint32_t type, const vm::Module& m) {
  using K = vm::TypeDesc::Kind;
  std::vector<std::tuple<vm::Value, uint32_t, int>> pending = {{v, type, 0}};
  while (!pending.empty()) {
    auto [value, index, depth] = pending.back();
    pending.pop_back();
    if (depth > kMaxBoundaryDepth) return true;
    const vm::TypeDesc& t = m.types[index];
    const std::vector<uint32_t>* fields = nullptr;
    const vm::Object* o = nullptr;
    switch (t.kind) {
      case K::kTuple:
      case K::kRecord:
        o = vm::AsObject(value);
        fields = &t.children;
        break;
      case K::kVariant:
        o = vm::AsObject(value);
        if (o->tag < t.cases.size()) fields = &t.cases[o->tag];
        break;
      case K::kArray:
        o = vm::AsObject(value);
        for (uint64_t i = 0; i < o->length; ++i) {
          pending.emplace_back(vm::Slots(o)[i], t.children[0], depth + 1);
        }
        break;
      default:
        break;
    }
    if (fields == nullptr) continue;
    for (size_t i = 0; i < fields->size() && i < o->length; ++i) {
      pending.emplace_back(vm::Slots(o)[i], (*fields)[i], depth + 1);
    }
  }
  return false;
}

// Whether a VM value of this type is a heap reference.
bool IsReference(const Type& t) {
  return t.kind() == Type::kStr || t.kind() == Type::kTensor || t.kind() == Type::kRandState ||
         t.kind() == Type::kTuple || t.kind() == Type::kArray || t.kind() == Type::kNamed;
}

// Whether `v` holds a RandState that was already passed to a call.
bool HoldsConsumedState(const Value& v) {
  if (v.type().kind() == Type::kRandState) return v.AsRandState().consumed();
  for (const Value& element : v.AsTuple()) {
    if (HoldsConsumedState(element)) return true;
  }
  for (const Value& element : v.AsArray()) {
    if (HoldsConsumedState(element)) return true;
  }
  for (const Value& field : v.fields()) {
    if (HoldsConsumedState(field)) return true;
  }
  return false;
}

// The host signature of a function with these parameter and result types,
// or nullopt when one of them cannot cross (a function).
std::optional<Signature> HostSignature(const vm::Module& m,
                                       const std::vector<vm::ExportType>& params,
                                       const vm::ExportType& result) {
  Signature out;
  for (const vm::ExportType& p : params) {
    std::optional<Type> t = HostType(m, p.type);
    if (!t) return std::nullopt;
    out.params.push_back(*std::move(t));
  }
  std::optional<Type> r = HostType(m, result.type);
  if (!r) return std::nullopt;
  out.result = *std::move(r);
  return out;
}

}  // namespace

// A registered host function: the native "extern NAME" that the VM calls
// (NativeEntry::data points here), converting values both ways.
struct HostEntry {
  std::string name;
  std::string native_name;  // vm::kExternPrefix + name; NativeEntry::name points into it
  Signature signature;
  HostFunction fn;
  VmState* owner = nullptr;
  vm::ExportType result;               // as the loaded module declares it (a Tensor's dtype)
  std::vector<vm::ExportType> params;  // likewise
  absl::flat_hash_map<uint32_t, std::any> sites;  // HostCall::State, per call site

  static absl::StatusOr<vm::Value> Trampoline(vm::NativeContext& ctx, const vm::Value* args) {
    return static_cast<HostEntry*>(const_cast<void*>(ctx.data()))->Invoke(ctx, args);
  }
  absl::StatusOr<vm::Value> Invoke(vm::NativeContext& ctx, const vm::Value* args);
};

struct VmState {
  explicit VmState(const VmOptions& options) : vm(LimitsOf(options)) {
    vm.AddNatives(stdlib::Natives());
    vm.SetThreads(options.threads < 1 ? 1 : options.threads);
    vm.SetJitEnabled(options.jit);
  }

  // `status` (from the internal Vm) with the rendered diagnostic as message.
  absl::Status Rendered(const absl::Status& status) const {
    const vm::RuntimeError* error = vm.last_error();
    if (status.ok() || error == nullptr || module == nullptr) return status;
    return absl::Status(status.code(), Render(*error));
  }

  std::string Render(const vm::RuntimeError& error) const {
    const lang::SourceManager& sources = module->sources;
    lang::Diagnostics diags;
    embed::ReportRuntimeError(sources, error, diags);
    return lang::RenderAll(sources, diags);
  }

  // Releases the references made for a call that is not going to happen.
  void Drop(const std::vector<vm::Value>& values, const std::vector<bool>& is_ref) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (is_ref[i] && values[i] != 0) vm.heap().ReleaseValue(values[i]);
    }
  }

  // `v` as an argument of type `t` (the Find signature holds, so only the
  // dtype and use-once are left to check). References are new and owned.
  absl::StatusOr<vm::Value> ToVm(const Value& v, const vm::ExportType& t, size_t index) {
    return ToVm(v, t, absl::StrCat("argument ", index + 1), "the function takes", Lifetime::kCall);
  }
  // Whether the VM may only need a value during the call it is passed to.
  enum class Lifetime { kCall, kLonger };
  // The same for any value: `what` names it in errors ("argument 2"),
  // `expects` says who wants the dtype ("the function takes").
  absl::StatusOr<vm::Value> ToVm(const Value& v, const vm::ExportType& t, const std::string& what,
                                 const std::string& expects, Lifetime lifetime, int depth = 0) {
    vm::Heap& heap = vm.heap();
    if (depth > kMaxBoundaryDepth) {
      return absl::InvalidArgumentError(absl::StrCat(what, " nests more than ", kMaxBoundaryDepth,
                                                     " levels deep, too deep to cross"));
    }
    auto oom = [&] {
      return absl::ResourceExhaustedError(absl::StrCat("out of memory budget passing ", what));
    };
    switch (v.type().kind()) {
      case Type::kUnit:
        return vm::Value{0};
      case Type::kInt:
        return vm::FromInt(v.AsInt());
      case Type::kFloat:
        return vm::FromFloat(v.AsFloat());
      case Type::kBool:
        return vm::FromBool(v.AsBool());
      case Type::kStr: {
        vm::Object* o = heap.NewStr(v.AsStr());
        if (o == nullptr) return oom();
        return vm::FromObject(o);
      }
      case Type::kTensor: {
        const TensorData& d = *v.AsTensor().d_;
        if (static_cast<uint8_t>(d.dtype) != t.dtype) {
          return absl::InvalidArgumentError(absl::StrCat(
              what, " is a Tensor(", vm::DTypeName(static_cast<vm::DType>(d.dtype)), "), ", expects,
              " a Tensor(", vm::DTypeName(static_cast<vm::DType>(t.dtype)), ")"));
        }
        // Tensor::Copy and Tensor::View take any shape: a wrong one is
        // refused here, before the VM reads an element. (A view's memory
        // cannot be checked: it must hold the shape's elements.)
        if (absl::Status bad = CheckTensorShape(d, what); !bad.ok()) return bad;
        // For an argument, owned copies are viewed too: the host keeps them
        // alive for the call. What outlives the call (a host function's
        // result, an `extern let`) is copied into the heap.
        vm::Object* o = nullptr;
        const auto dtype = static_cast<vm::DType>(d.dtype);
        if (lifetime == Lifetime::kCall) {
          o = heap.NewTensorView(dtype, d.shape, d.data);
        } else if ((o = heap.NewTensor(dtype, d.shape)) != nullptr && d.size > 0) {
          std::memcpy(vm::DataOf(o), d.data, static_cast<size_t>(d.size) * vm::ElementBytes(dtype));
        }
        if (o == nullptr) return oom();
        return vm::FromObject(o);
      }
      case Type::kRandState: {
        RandStateData& d = *v.AsRandState().d_;
        if (d.consumed.exchange(true)) {
          // The VM's own error (the one table), at no instruction: the host
          // consumed this state by passing it before.
          vm::RuntimeError e = vm::MakeRuntimeError(vm::RuntimeErrorId::kStateReused);
          return absl::AbortedError(Render(e));
        }
        vm::Object* o = heap.NewRandState(d.state);
        if (o == nullptr) return oom();
        return vm::FromObject(o);
      }
      case Type::kTuple:
      case Type::kArray: {
        // The caller checked v's type, which for an array names only the
        // element type: each element's own is checked here.
        const bool array = v.type().kind() == Type::kArray;
        const std::vector<Value>& elements = array ? v.AsArray() : v.AsTuple();
        const Type element_type = array ? v.type().elements()[0] : Type();
        vm::Object* o = array ? heap.NewArray(elements.size(), IsReference(element_type))
                              : heap.NewTuple(elements.size());
        if (o == nullptr) return oom();
        for (size_t i = 0; i < elements.size(); ++i) {
          const std::string part = absl::StrCat("element ", i + 1, " of ", what);
          absl::StatusOr<vm::Value> element =
              array && elements[i].type() != element_type
                  ? absl::InvalidArgumentError(
                        absl::StrCat(part, " is ", TypeName(elements[i].type()),
                                     ", in an array of ", TypeName(element_type)))
                  : ToVm(elements[i], t.fields[array ? 0 : i], part, expects, lifetime, depth + 1);
          if (!element.ok()) {
            heap.Release(o);  // and the elements made so far
            return element.status();
          }
          vm::Slots(o)[i] = *element;
          if (!array) vm::Mask(o)[i] = IsReference(elements[i].type()) ? 1 : 0;
        }
        return vm::FromObject(o);
      }
      case Type::kNamed:
        return ToVmMade(v, t.type, what, expects, lifetime, depth);
    }
    return absl::InternalError("unknown value type");
  }

  // A record's or variant's value (its type's name checked by the caller),
  // as T(type) says: a known constructor, the right fields, each of its
  // field's type.
  absl::StatusOr<vm::Value> ToVmMade(const Value& v, uint32_t type, const std::string& what,
                                     const std::string& expects, Lifetime lifetime, int depth) {
    const vm::Module& m = *types;
    const vm::TypeDesc& t = m.types[type];
    const std::vector<Value>* given = &v.fields();
    std::vector<Value> ordered;  // a record's fields in declaration order
    const std::vector<uint32_t>* fields = &t.children;
    uint16_t tag = 0;
    if (t.kind == vm::TypeDesc::Kind::kRecord) {
      if (v.field_names().size() != v.fields().size()) {
        return absl::InvalidArgumentError(
            absl::StrCat(what, " is a `", t.name, "` record: make it with Value::Record"));
      }
      for (const std::string& name : t.names) {
        auto at = std::find(v.field_names().begin(), v.field_names().end(), name);
        if (at == v.field_names().end()) {
          return absl::InvalidArgumentError(
              absl::StrCat(what, " has no field `", name, "`, which `", t.name, "` needs"));
        }
        ordered.push_back(v.fields()[at - v.field_names().begin()]);
      }
      if (v.fields().size() != t.names.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            what, " has ", v.fields().size(), " fields, `", t.name, "` has ", t.names.size()));
      }
      given = &ordered;
    } else {
      auto at = std::find(t.names.begin(), t.names.end(), v.constructor());
      if (at == t.names.end()) {
        return absl::InvalidArgumentError(absl::StrCat(what, " has constructor `", v.constructor(),
                                                       "`, which `", t.name, "` does not have"));
      }
      tag = static_cast<uint16_t>(at - t.names.begin());
      fields = &t.cases[tag];
      if (given->size() != fields->size()) {
        return absl::InvalidArgumentError(absl::StrCat(what, ": `", v.constructor(), "` takes ",
                                                       fields->size(), " fields, not ",
                                                       given->size()));
      }
      if (fields->empty()) {
        vm::Object* o = vm.heap().Nullary(tag);
        if (o == nullptr) {
          return absl::ResourceExhaustedError(absl::StrCat("out of memory passing ", what));
        }
        return vm::FromObject(o);
      }
    }
    vm::Object* o = vm.heap().NewTuple(fields->size());
    if (o == nullptr) {
      return absl::ResourceExhaustedError(absl::StrCat("out of memory budget passing ", what));
    }
    o->tag = tag;
    for (size_t i = 0; i < fields->size(); ++i) {
      const uint32_t field = (*fields)[i];
      const std::string part =
          t.kind == vm::TypeDesc::Kind::kRecord
              ? absl::StrCat("field `", t.names[i], "` of ", what)
              : absl::StrCat("field ", i + 1, " of `", v.constructor(), "` in ", what);
      std::optional<Type> expected = HostType(m, field);
      absl::StatusOr<vm::Value> value =
          !expected || (*given)[i].type() != *expected
              ? absl::InvalidArgumentError(
                    absl::StrCat(part, " is ", TypeName((*given)[i].type()), ", `", t.name,
                                 "` takes ", expected ? TypeName(*expected) : "a function"))
              : ToVm((*given)[i], ExportOf(m, field), part, expects, lifetime, depth + 1);
      if (!value.ok()) {
        vm.heap().Release(o);  // and the fields made so far
        return value.status();
      }
      vm::Slots(o)[i] = *value;
      vm::Mask(o)[i] = m.types[field].is_reference() ? 1 : 0;
    }
    return vm::FromObject(o);
  }

  // The host value of `v`, of type `t`, which is T(type) of `m` (borrowed:
  // the caller still owns `v`). The caller checked TooDeep.
  static Value FromVm(vm::Value v, const Type& t, const vm::Module& m, uint32_t type) {
    switch (t.kind()) {
      case Type::kUnit:
        return Value();
      case Type::kInt:
        return Value::Int(vm::AsInt(v));
      case Type::kFloat:
        return Value::Float(vm::AsFloat(v));
      case Type::kBool:
        return Value::Bool(v != 0);
      case Type::kStr:
        return Value::Str(std::string(vm::StrView(vm::AsObject(v))));
      case Type::kTensor: {
        const vm::Object* o = vm::AsObject(v);
        auto d = std::make_shared<TensorData>();
        d->dtype = static_cast<DType>(vm::DTypeOf(o));
        absl::Span<const int64_t> shape = vm::ShapeOf(o);
        d->shape.assign(shape.begin(), shape.end());
        d->size = vm::SizeOf(o);
        const size_t bytes = static_cast<size_t>(d->size) * vm::ElementBytes(vm::DTypeOf(o));
        d->storage.resize((bytes + 3) / 4);
        if (bytes > 0) std::memcpy(d->storage.data(), vm::DataOf(o), bytes);
        d->data = d->storage.data();
        return Value(Tensor(std::move(d)));
      }
      case Type::kRandState: {
        auto d = std::make_shared<RandStateData>();
        d->state = vm::StateOf(vm::AsObject(v));
        return Value(RandState(std::move(d)));
      }
      case Type::kTuple:
      case Type::kArray: {
        const vm::Object* o = vm::AsObject(v);
        const bool array = t.kind() == Type::kArray;
        std::vector<Value> elements;
        elements.reserve(o->length);
        const vm::TypeDesc& d = m.types[type];
        for (uint64_t i = 0; i < o->length; ++i) {
          elements.push_back(
              FromVm(vm::Slots(o)[i], t.elements()[array ? 0 : i], m, d.children[array ? 0 : i]));
        }
        return array ? Value::Array(t.elements()[0], std::move(elements))
                     : Value::Tuple(std::move(elements));
      }
      case Type::kNamed: {
        const vm::Object* o = vm::AsObject(v);
        const vm::TypeDesc& d = m.types[type];
        const bool record = d.kind == vm::TypeDesc::Kind::kRecord;
        const uint16_t tag = record || o->tag >= d.cases.size() ? 0 : o->tag;
        const std::vector<uint32_t>& fields = record ? d.children : d.cases[tag];
        std::vector<std::pair<std::string, Value>> named;
        std::vector<Value> values;
        for (size_t i = 0; i < fields.size() && i < o->length; ++i) {
          Value field = FromVm(vm::Slots(o)[i], *HostType(m, fields[i]), m, fields[i]);
          if (record) {
            named.emplace_back(d.names[i], std::move(field));
          } else {
            values.push_back(std::move(field));
          }
        }
        return record ? Value::Record(t, std::move(named))
                      : Value::Make(t, d.names[tag], std::move(values));
      }
    }
    return Value();
  }

  // Checks the module's `extern` declarations against what the host
  // registered, binds the functions' types and sets the values.
  absl::Status BindExterns(const vm::Module& m);

  vm::Vm vm;
  std::shared_ptr<const ModuleData> module;
  // The module being loaded or loaded (from Load on, before `module` is
  // set): what declared types' values are converted by.
  const vm::Module* types = nullptr;
  uint64_t load = 0;  // incremented by every Load: a Function names its Load
  std::vector<std::unique_ptr<HostEntry>> functions;  // registered; stable addresses
  std::vector<std::pair<std::string, Value>> values;  // registered `extern let` values
};

absl::StatusOr<vm::Value> HostEntry::Invoke(vm::NativeContext& ctx, const vm::Value* args) {
  std::vector<Value> host_args;
  host_args.reserve(signature.params.size());
  const vm::Module& m = *owner->types;
  for (size_t i = 0; i < signature.params.size(); ++i) {
    if (TooDeep(args[i], params[i].type, m)) {
      return ctx.Fail(vm::RuntimeErrorId::kHostFunctionFailed, name,
                      absl::StrCat("argument ", i + 1, " nests more than ", kMaxBoundaryDepth,
                                   " levels deep, too deep to cross"));
    }
    host_args.push_back(VmState::FromVm(args[i], signature.params[i], m, params[i].type));
  }
  const uint32_t site = ctx.site();
  HostCall call(host_args, &sites[site], site);
  StatusOr<Value> r = fn(call);
  if (!r.ok()) {
    return ctx.Fail(vm::RuntimeErrorId::kHostFunctionFailed, name, r.status().message());
  }
  if (r->type() != signature.result) {
    return ctx.Fail(vm::RuntimeErrorId::kHostFunctionResult, name,
                    absl::StrCat("a ", TypeName(r->type())), TypeName(signature.result));
  }
  if (HoldsConsumedState(*r)) {
    return ctx.Fail(vm::RuntimeErrorId::kStateReused);
  }
  absl::StatusOr<vm::Value> v =
      owner->ToVm(*r, result, "its result", "the declaration says", VmState::Lifetime::kLonger);
  if (v.ok()) return *v;
  if (absl::IsResourceExhausted(v.status())) return ctx.OutOfMemory();
  return ctx.Fail(vm::RuntimeErrorId::kHostFunctionFailed, name, v.status().message());
}

absl::Status VmState::BindExterns(const vm::Module& m) {
  auto uncrossable = [](const std::string& what) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " has a function in its type, which cannot cross to the host yet"));
  };
  for (const vm::ExternFn& e : m.externs) {
    auto it = std::find_if(functions.begin(), functions.end(),
                           [&](const auto& f) { return f->name == e.name; });
    if (it == functions.end()) {
      return absl::NotFoundError(absl::StrCat("the program declares `extern fn ", e.name,
                                              "` and the host provides no such function"));
    }
    const std::string what = absl::StrCat("`extern fn ", e.name, "`");
    std::optional<Signature> host = HostSignature(m, e.params, e.result);
    if (!host) return uncrossable(what);
    const Signature& declared = *host;
    HostEntry& entry = **it;
    if (declared.params != entry.signature.params || declared.result != entry.signature.result) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " is declared ", SignatureString(declared), ", the host registered ",
                       SignatureString(entry.signature)));
    }
    entry.result = e.result;
    entry.params = e.params;
  }
  for (auto& entry : functions) entry->sites.clear();
  for (size_t g = 0; g < m.globals.size(); ++g) {
    const vm::Global& global = m.globals[g];
    if (!global.external) continue;
    const std::string what = absl::StrCat("`extern let ", global.name, "`");
    auto it = std::find_if(values.begin(), values.end(),
                           [&](const auto& v) { return v.first == global.name; });
    if (it == values.end()) {
      return absl::NotFoundError(
          absl::StrCat("the program declares ", what, " and the host registered no such value"));
    }
    std::optional<Type> t = HostType(m, global.type);
    if (!t) return uncrossable(what);
    if (*t != it->second.type()) {
      return absl::InvalidArgumentError(absl::StrCat(what, " is declared ", TypeName(*t),
                                                     ", the host registered a ",
                                                     TypeName(it->second.type())));
    }
    absl::StatusOr<vm::Value> v =
        ToVm(it->second, global.declared, what, "it is declared", Lifetime::kLonger);
    if (!v.ok()) return v.status();
    if (absl::Status s = vm.SetGlobal(static_cast<uint32_t>(g), *v); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace embed_internal

using embed_internal::VmState;

Vm::Vm(VmOptions options) : s_(std::make_unique<VmState>(options)) {}
Vm::~Vm() = default;
Vm::Vm(Vm&&) noexcept = default;
Vm& Vm::operator=(Vm&&) noexcept = default;

void Vm::RegisterFunction(std::string name, Signature signature, HostFunction fn) {
  auto& functions = s_->functions;
  auto it = std::find_if(functions.begin(), functions.end(),
                         [&](const auto& f) { return f->name == name; });
  if (it == functions.end()) {
    auto entry = std::make_unique<embed_internal::HostEntry>();
    entry->name = name;
    entry->native_name = absl::StrCat(vm::kExternPrefix, name);
    entry->owner = s_.get();
    it = functions.insert(functions.end(), std::move(entry));
  }
  embed_internal::HostEntry& entry = **it;
  entry.signature = std::move(signature);
  entry.fn = std::move(fn);
  // A later entry of a name wins, so a new arity simply shadows the old one.
  const vm::NativeEntry native{entry.native_name.c_str(),
                               static_cast<int>(entry.signature.params.size()),
                               &embed_internal::HostEntry::Trampoline, &entry};
  s_->vm.AddNatives({&native, 1});
}

void Vm::RegisterValue(std::string name, Value value) {
  auto& values = s_->values;
  auto it =
      std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == name; });
  if (it != values.end()) {
    it->second = std::move(value);
  } else {
    values.emplace_back(std::move(name), std::move(value));
  }
}

Status Vm::Load(const Module& module) {
  return embed_internal::Public([&]() -> absl::Status {
    if (module.data() == nullptr) return absl::InvalidArgumentError("an empty Module");
    ++s_->load;
    s_->module.reset();
    const vm::Module& m = module.data()->module;
    if (absl::Status s = s_->vm.Load(m); !s.ok()) return s;
    s_->types = &m;
    if (absl::Status s = s_->BindExterns(m); !s.ok()) return s;
    // Shared, not copied: it is immutable (the internal Vm has its own copy of
    // the bytecode; this one is for the exports and the sources).
    s_->module = module.data();
    absl::Status status = s_->Rendered(s_->vm.RunInit());
    // Globals that were not computed must not be read by a later Call.
    if (!status.ok()) s_->module.reset();
    return status;
  }());
}

StatusOr<Function> Vm::Find(std::string_view name, const Signature& signature) const {
  return embed_internal::Public([&]() -> absl::StatusOr<Function> {
    if (s_->module == nullptr) return absl::FailedPreconditionError("no module loaded");
    // This Abseil's string_view is not std::string_view.
    const std::string name_text(name);
    const vm::Module& m = s_->module->module;
    for (const vm::Export& e : m.exports) {
      if (e.name != name) continue;
      std::optional<Signature> host = embed_internal::HostSignature(m, e.params, e.result);
      if (!host) {
        return absl::InvalidArgumentError(
            absl::StrCat("function `", name_text,
                         "` takes or returns a function, which cannot be passed to or from the "
                         "host yet"));
      }
      Signature actual = *std::move(host);
      if (e.uses_rng) actual.params.push_back(Type::kRandState);
      if (actual.params != signature.params || actual.result != signature.result) {
        return absl::InvalidArgumentError(absl::StrCat("function `", name_text, "` has type ",
                                                       SignatureString(actual), ", not ",
                                                       SignatureString(signature)));
      }
      Function f;
      f.name_ = name_text;
      f.signature_ = std::move(actual);
      f.load_ = s_->load;
      f.index_ = static_cast<uint32_t>(&e - m.exports.data());
      return f;
    }
    return absl::NotFoundError(absl::StrCat("no function `", name_text, "` in the module"));
  }());
}

StatusOr<Value> Vm::Call(const Function& function, std::span<const Value> args) {
  return embed_internal::Public([&]() -> absl::StatusOr<Value> {
    if (s_->module == nullptr || function.load_ != s_->load) {
      return absl::FailedPreconditionError(
          absl::StrCat("`", function.name(), "` belongs to no module loaded in this Vm"));
    }
    const vm::Module& m = s_->module->module;
    const vm::Export& e = m.exports[function.index_];
    const Signature& sig = function.signature();
    if (args.size() != sig.params.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "`", function.name(), "` takes ", sig.params.size(), " arguments, not ", args.size()));
    }
    std::vector<vm::Value> values;
    std::vector<bool> is_ref;
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].type() != sig.params[i]) {
        s_->Drop(values, is_ref);
        return absl::InvalidArgumentError(absl::StrCat("argument ", i + 1, " of `", function.name(),
                                                       "` must be ", TypeName(sig.params[i]),
                                                       ", not ", TypeName(args[i].type())));
      }
      // The ambient stream of a `uses rng` function has no ExportType: a RandState's.
      static const vm::ExportType kStream;
      const vm::ExportType& t = i < e.params.size() ? e.params[i] : kStream;
      absl::StatusOr<vm::Value> v = s_->ToVm(args[i], t, i);
      if (!v.ok()) {
        s_->Drop(values, is_ref);
        return v.status();
      }
      values.push_back(*v);
      is_ref.push_back(embed_internal::IsReference(sig.params[i]));
    }
    vm::Value result = 0;
    bool result_is_ref = false;
    absl::Status status = s_->vm.Call(e.function, values, &result, &result_is_ref);
    if (!status.ok()) return s_->Rendered(status);
    if (embed_internal::TooDeep(result, e.result.type, m)) {
      if (result_is_ref && result != 0) s_->vm.heap().ReleaseValue(result);
      return absl::OutOfRangeError(absl::StrCat(
          "the result of `", function.name(), "` nests more than ",
          embed_internal::kMaxBoundaryDepth, " levels deep, too deep to cross to the host"));
    }
    Value out = VmState::FromVm(result, sig.result, m, e.result.type);
    if (result_is_ref && result != 0) s_->vm.heap().ReleaseValue(result);
    return out;
  }());
}

Stats Vm::stats() const {
  const vm::Stats in = s_->vm.stats();
  Stats out;
  out.instructions = in.instructions;
  out.calls = in.calls;
  out.allocations = in.allocations;
  out.peak_heap_bytes = in.peak_heap_bytes;
  out.heap_bytes_live = in.heap_bytes_live;
  out.bytes_copied = in.bytes_copied;
  return out;
}

void Vm::Interrupt() { s_->vm.Interrupt(); }

void Vm::SetOutput(std::function<void(std::string_view)> sink) {
  s_->vm.SetOutput([sink = std::move(sink)](absl::string_view text) {
    sink(std::string_view(text.data(), text.size()));
  });
}

}  // namespace alea
