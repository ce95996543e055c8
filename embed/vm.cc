// alea::Vm (include/alea/vm.h) over the internal vm::Vm: looking functions up
// by their exported types, converting values both ways, and turning the VM's
// RuntimeError into a status whose message is `alea run`'s diagnostic.
#include "alea/vm.h"

#include <cstring>
#include <optional>
#include <utility>

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

vm::Limits LimitsOf(const VmOptions& o) {
  vm::Limits limits;
  limits.max_heap_bytes = o.max_heap_bytes;
  limits.max_call_depth = o.max_call_depth;
  limits.max_instructions = o.max_instructions;
  return limits;
}

// The host type of a VM type, or nullopt for one that cannot cross.
std::optional<Type> HostType(const vm::TypeDesc& t) {
  using K = vm::TypeDesc::Kind;
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
    default:
      return std::nullopt;
  }
}

}  // namespace

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
    vm::Heap& heap = vm.heap();
    auto oom = [&] {
      return absl::ResourceExhaustedError(
          absl::StrCat("out of memory budget passing argument ", index + 1));
    };
    switch (v.type()) {
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
              "argument ", index + 1, " is a Tensor(",
              vm::DTypeName(static_cast<vm::DType>(d.dtype)), "), the function takes a Tensor(",
              vm::DTypeName(static_cast<vm::DType>(t.dtype)), ")"));
        }
        // Owned copies are viewed too: the host keeps them alive for the call.
        vm::Object* o = heap.NewTensorView(static_cast<vm::DType>(d.dtype), d.shape, d.data);
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
    }
    return absl::InternalError("unknown value type");
  }

  // A result of type `t`; releases `v` (a reference when `is_ref`).
  Value FromVm(vm::Value v, bool is_ref, const vm::TypeDesc& t) {
    Value out;
    switch (t.kind) {
      case vm::TypeDesc::Kind::kInt:
        out = Value::Int(vm::AsInt(v));
        break;
      case vm::TypeDesc::Kind::kFloat:
        out = Value::Float(vm::AsFloat(v));
        break;
      case vm::TypeDesc::Kind::kBool:
        out = Value::Bool(v != 0);
        break;
      case vm::TypeDesc::Kind::kStr:
        out = Value::Str(std::string(vm::StrView(vm::AsObject(v))));
        break;
      case vm::TypeDesc::Kind::kTensor: {
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
        out = Value(Tensor(std::move(d)));
        break;
      }
      case vm::TypeDesc::Kind::kRandState: {
        auto d = std::make_shared<RandStateData>();
        d->state = vm::StateOf(vm::AsObject(v));
        out = Value(RandState(std::move(d)));
        break;
      }
      default:
        break;  // unit (Find admits no other type)
    }
    if (is_ref && v != 0) vm.heap().ReleaseValue(v);
    return out;
  }

  vm::Vm vm;
  std::shared_ptr<const ModuleData> module;
  uint64_t load = 0;  // incremented by every Load: a Function names its Load
};

}  // namespace embed_internal

using embed_internal::VmState;

Vm::Vm(VmOptions options) : s_(std::make_unique<VmState>(options)) {}
Vm::~Vm() = default;
Vm::Vm(Vm&&) noexcept = default;
Vm& Vm::operator=(Vm&&) noexcept = default;

absl::Status Vm::Load(const Module& module) {
  if (module.data() == nullptr) return absl::InvalidArgumentError("an empty Module");
  ++s_->load;
  s_->module.reset();
  if (absl::Status s = s_->vm.Load(module.data()->module); !s.ok()) return s;
  // Shared, not copied: it is immutable (the internal Vm has its own copy of
  // the bytecode; this one is for the exports and the sources).
  s_->module = module.data();
  absl::Status status = s_->Rendered(s_->vm.RunInit());
  // Globals that were not computed must not be read by a later Call.
  if (!status.ok()) s_->module.reset();
  return status;
}

absl::StatusOr<Function> Vm::Find(std::string_view name, const Signature& signature) const {
  if (s_->module == nullptr) return absl::FailedPreconditionError("no module loaded");
  // This Abseil's string_view is not std::string_view.
  const std::string name_text(name);
  const vm::Module& m = s_->module->module;
  for (const vm::Export& e : m.exports) {
    if (e.name != name) continue;
    Signature actual;
    bool representable = true;
    auto host = [&](const vm::ExportType& t) {
      std::optional<Type> h = embed_internal::HostType(m.types[t.type]);
      representable &= h.has_value();
      return h.value_or(Type::kUnit);
    };
    for (const vm::ExportType& p : e.params) actual.params.push_back(host(p));
    if (e.uses_rng) actual.params.push_back(Type::kRandState);
    actual.result = host(e.result);
    if (!representable) {
      return absl::InvalidArgumentError(
          absl::StrCat("function `", name_text,
                       "` takes or returns a tuple, array or function, which cannot be passed "
                       "to or from the host yet"));
    }
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
}

absl::StatusOr<Value> Vm::Call(const Function& function, absl::Span<const Value> args) {
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
    const vm::ExportType t = i < e.params.size() ? e.params[i] : vm::ExportType{};
    absl::StatusOr<vm::Value> v = s_->ToVm(args[i], t, i);
    if (!v.ok()) {
      s_->Drop(values, is_ref);
      return v.status();
    }
    values.push_back(*v);
    const Type ty = sig.params[i];
    is_ref.push_back(ty == Type::kStr || ty == Type::kTensor || ty == Type::kRandState);
  }
  vm::Value result = 0;
  bool result_is_ref = false;
  absl::Status status = s_->vm.Call(e.function, values, &result, &result_is_ref);
  if (!status.ok()) return s_->Rendered(status);
  return s_->FromVm(result, result_is_ref, m.types[e.result.type]);
}

Stats Vm::stats() const {
  const vm::Stats in = s_->vm.stats();
  Stats out;
  out.instructions = in.instructions;
  out.calls = in.calls;
  out.allocations = in.allocations;
  out.peak_heap_bytes = in.peak_heap_bytes;
  out.heap_bytes_live = in.heap_bytes_live;
  return out;
}

void Vm::Interrupt() { s_->vm.Interrupt(); }

void Vm::SetOutput(std::function<void(std::string_view)> sink) {
  s_->vm.SetOutput([sink = std::move(sink)](absl::string_view text) {
    sink(std::string_view(text.data(), text.size()));
  });
}

}  // namespace alea
