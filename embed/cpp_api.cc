// The C++ API (include/alea/vm.h, compiler.h) as a thin layer over the C API
// (include/alea/alea.h): handles that release what they hold, values
// converted to the C API's at a call and back, the C API's errors as
// statuses. It includes no header of Alea's internals and no other library:
// what the C API cannot do, this cannot either.
#include "embed/cpp_api.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "alea/alea.h"
#include "alea/compiler.h"
#include "alea/vm.h"

namespace alea {
namespace embed_internal {

// The tensor a C API value holds, as a Tensor (retained).
Tensor TensorOf(alea_value v, bool view) {
  auto h = std::make_shared<Held>(alea_retain(v));
  h->dtype = static_cast<DType>(alea_tensor_dtype(v));
  h->shape.assign(alea_tensor_shape(v), alea_tensor_shape(v) + alea_tensor_ndim(v));
  h->view = view;
  return Access::MakeTensor(std::move(h));
}

// `v` as a C API value, owned: an error message when a part cannot be made.
alea_value ToC(const Value& v, std::string* error) {
  const Type type = v.type();
  switch (type.kind()) {
    case Type::kUnit:
      return alea_unit();
    case Type::kInt:
      return alea_int(v.AsInt());
    case Type::kFloat:
      return alea_float(v.AsFloat());
    case Type::kBool:
      return alea_bool(v.AsBool() ? 1 : 0);
    case Type::kStr:
      return alea_str(v.AsStr().data(), v.AsStr().size());
    case Type::kTensor: {
      const Held& h = Access::Of(v.AsTensor());
      if (!h.unusable.empty()) *error = h.unusable;
      return alea_retain(h.v);
    }
    case Type::kRandState:
      return alea_retain(Access::Of(v.AsRandState()).v);
    case Type::kTuple:
    case Type::kArray:
    case Type::kNamed: {
      const std::vector<Value>& parts = type.kind() == Type::kTuple   ? v.AsTuple()
                                        : type.kind() == Type::kArray ? v.AsArray()
                                                                      : v.fields();
      std::vector<alea_value> values;
      for (const Value& part : parts) values.push_back(ToC(part, error));
      alea_value out = alea_unit();
      alea_error* e = nullptr;
      alea_code code = ALEA_OK;
      std::vector<const char*> names;
      for (const std::string& n : v.field_names()) names.push_back(n.c_str());
      if (type.kind() == Type::kTuple) {
        code = alea_tuple(values.data(), values.size(), &out, &e);
      } else if (type.kind() == Type::kArray) {
        code = alea_array(values.data(), values.size(), &out, &e);
      } else if (!v.field_names().empty()) {
        code =
            alea_record(type.name().c_str(), names.data(), values.data(), values.size(), &out, &e);
      } else {
        code = alea_variant(type.name().c_str(), v.constructor().c_str(), values.data(),
                            values.size(), &out, &e);
      }
      for (alea_value part : values) alea_release(part);
      if (code != ALEA_OK && error->empty()) *error = alea_error_message(e);
      alea_error_free(e);
      return out;
    }
  }
  return alea_unit();
}

// The host value of the C API value `v` (borrowed), whose declared type is
// `type` when the caller knows it (an empty array's element type comes from
// it) or else is read off the value.
Value FromC(alea_value v, const Type* type) {
  switch (v.kind) {
    case ALEA_UNIT:
      return Value();
    case ALEA_INT:
      return Value::Int(v.as.i);
    case ALEA_FLOAT:
      return Value::Float(v.as.f);
    case ALEA_BOOL:
      return Value::Bool(v.as.b != 0);
    case ALEA_STR: {
      size_t length = 0;
      const char* text = alea_str_data(v, &length);
      return Value::Str(std::string(text, length));
    }
    case ALEA_TENSOR:
      return TensorOf(v, false);
    case ALEA_RANDSTATE:
      return Access::MakeState(alea_retain(v));
    case ALEA_TUPLE:
    case ALEA_ARRAY: {
      std::vector<Value> parts;
      const bool typed =
          type != nullptr && (type->kind() == Type::kTuple || type->kind() == Type::kArray);
      for (size_t i = 0; i < alea_length(v); ++i) {
        const Type* part = typed ? &type->elements()[v.kind == ALEA_ARRAY ? 0 : i] : nullptr;
        parts.push_back(FromC(alea_element(v, i), part));
      }
      if (v.kind == ALEA_TUPLE) return Value::Tuple(std::move(parts));
      Type element = typed ? type->elements()[0] : parts.empty() ? Type() : parts[0].type();
      return Value::Array(std::move(element), std::move(parts));
    }
    case ALEA_RECORD: {
      std::vector<std::pair<std::string, Value>> fields;
      for (size_t i = 0; i < alea_length(v); ++i) {
        fields.emplace_back(alea_field_name(v, i), FromC(alea_element(v, i), nullptr));
      }
      return Value::Record(Type::Named(alea_type_name(v)), std::move(fields));
    }
    case ALEA_VARIANT: {
      std::vector<Value> fields;
      for (size_t i = 0; i < alea_length(v); ++i) {
        fields.push_back(FromC(alea_element(v, i), nullptr));
      }
      return Value::Make(Type::Named(alea_type_name(v)), alea_constructor(v), std::move(fields));
    }
    case ALEA_KIND_INT_RANGE_:
      break;
  }
  return Value();
}

// A C API signature in the C++ API's spelling: a tensor's dtype is not part
// of a Type ("Tensor(i32)" reads "Tensor").
std::string WithoutDTypes(std::string s) {
  for (const char* dtype : {"Tensor(f32)", "Tensor(i32)", "Tensor(u32)", "Tensor(bool)"}) {
    for (size_t at = s.find(dtype); at != std::string::npos; at = s.find(dtype, at)) {
      s.replace(at, std::strlen(dtype), "Tensor");
    }
  }
  return s;
}

// A registered host function: what the C API calls, with the C++ function
// and its declared types.
struct HostEntry {
  std::string name;
  Signature signature;
  HostFunction fn;

  static alea_code Call(alea_host_call* call, const alea_value* args, size_t count,
                        alea_value* result) {
    auto* self = static_cast<HostEntry*>(alea_host_user(call));
    std::vector<Value> host_args;
    for (size_t i = 0; i < count; ++i) {
      host_args.push_back(
          FromC(args[i], i < self->signature.params.size() ? &self->signature.params[i] : nullptr));
    }
    void** slot = alea_host_site_data(call);
    if (*slot == nullptr) *slot = new std::any();
    HostCall host =
        Access::MakeCall(host_args, static_cast<std::any*>(*slot), alea_host_site(call));
    StatusOr<Value> r = self->fn(host);
    if (!r.ok()) return alea_host_fail(call, r.status().message().c_str());
    std::string error;
    *result = ToC(*r, &error);
    if (!error.empty()) {
      alea_release(*result);
      *result = alea_unit();
      return alea_host_fail(call, error.c_str());
    }
    return ALEA_OK;
  }
};

struct VmState {
  explicit VmState(const VmOptions& o) : root(o.files.root) {
    alea_config config;
    alea_config_init(&config);
    config.max_heap_bytes = o.max_heap_bytes;
    config.max_call_depth = o.max_call_depth;
    config.max_instructions = o.max_instructions;
    config.threads = o.threads;
    config.jit = o.jit ? 1 : 0;
    config.files = static_cast<alea_file_access>(o.files.mode);
    config.files_root = root.c_str();
    vm = alea_vm_new(&config);
  }
  ~VmState() { alea_vm_free(vm); }

  alea_vm* vm;
  std::string root;
  std::vector<std::unique_ptr<HostEntry>> hosts;
  std::vector<std::pair<std::string, Value>> values;
  std::function<void(std::string_view)> sink;
};

}  // namespace embed_internal

using embed_internal::Access;
using embed_internal::Failed;
using embed_internal::FromC;
using embed_internal::Held;
using embed_internal::ToC;

// ---- Tensors and states ----------------------------------------------------

namespace {

// A tensor of the C API made now, or the reason none can be, which the call
// it is given to reports.
Tensor MakeTensor(DType dtype, const void* data, size_t bytes, std::vector<int64_t> shape,
                  bool view) {
  alea_value v = alea_unit();
  alea_error* e = nullptr;
  const auto d = static_cast<alea_dtype>(dtype);
  const int ndim = static_cast<int>(shape.size());
  const alea_code code =
      view ? alea_tensor_view(d, shape.data(), ndim, data, bytes, nullptr, nullptr, &v, &e)
           : alea_tensor_copy(d, shape.data(), ndim, data, bytes, &v, &e);
  auto h = std::make_shared<Held>(v);
  if (code != ALEA_OK) h->unusable = alea_error_message(e);
  alea_error_free(e);
  h->shape = std::move(shape);
  h->view = view;
  h->dtype = dtype;
  return Access::MakeTensor(std::move(h));
}

// The bytes of `shape`'s elements of `dtype`, or 0 for a shape no tensor has
// (the C API then says why).
size_t BytesOf(DType dtype, const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d > 0 && n > (int64_t{1} << 48) / d)) return 0;
    n *= d;
  }
  return static_cast<size_t>(n) * (dtype == DType::kBool ? 1 : 4);
}

}  // namespace

Tensor Tensor::View(const float* data, std::vector<int64_t> shape) {
  const size_t bytes = BytesOf(DType::kF32, shape);
  return MakeTensor(DType::kF32, data, bytes, std::move(shape), true);
}

Tensor Tensor::Copy(std::vector<float> values, std::vector<int64_t> shape) {
  return MakeTensor(DType::kF32, values.data(), values.size() * sizeof(float), std::move(shape),
                    false);
}

Tensor Tensor::View(DType dtype, const void* data, size_t bytes, std::vector<int64_t> shape) {
  return MakeTensor(dtype, data, bytes, std::move(shape), true);
}

Tensor Tensor::Copy(DType dtype, const void* data, size_t bytes, std::vector<int64_t> shape) {
  return MakeTensor(dtype, data, bytes, std::move(shape), false);
}

DType Tensor::dtype() const { return h_->dtype; }
const std::vector<int64_t>& Tensor::shape() const { return h_->shape; }
int64_t Tensor::size() const {
  int64_t n = 1;
  for (int64_t d : h_->shape) n *= d;
  return n;
}
bool Tensor::is_view() const { return h_->view; }
const void* Tensor::data() const { return alea_tensor_data(h_->v, nullptr); }
std::span<const float> Tensor::floats() const {
  if (h_->v.kind != ALEA_TENSOR || alea_tensor_dtype(h_->v) != ALEA_F32) return {};
  return std::span<const float>(static_cast<const float*>(data()),
                                static_cast<size_t>(alea_tensor_size(h_->v)));
}

RandState RandState::FromSeed(int64_t seed) {
  return Access::MakeState(alea_state_from_seed(seed));
}
RandState RandState::FromKey(uint32_t key0, uint32_t key1) {
  return Access::MakeState(alea_state_from_key(key0, key1));
}
uint32_t RandState::key0() const {
  uint32_t key[2];
  alea_state_key(h_->v, key);
  return key[0];
}
uint32_t RandState::key1() const {
  uint32_t key[2];
  alea_state_key(h_->v, key);
  return key[1];
}
uint64_t RandState::counter() const { return alea_state_counter(h_->v); }
bool RandState::consumed() const { return alea_state_consumed(h_->v) != 0; }

StatusOr<std::pair<RandState, RandState>> RandState::Split() const {
  alea_value a, b;
  alea_error* e = nullptr;
  if (alea_code c = alea_state_split(h_->v, &a, &b, &e); c != ALEA_OK) return Failed(c, e);
  return std::make_pair(Access::MakeState(a), Access::MakeState(b));
}
StatusOr<std::pair<RandState, RandState>> RandState::Next() const {
  alea_value a, b;
  alea_error* e = nullptr;
  if (alea_code c = alea_state_next(h_->v, &a, &b, &e); c != ALEA_OK) return Failed(c, e);
  return std::make_pair(Access::MakeState(a), Access::MakeState(b));
}
StatusOr<RandState> RandState::FoldIn(uint32_t data) const {
  alea_value out;
  alea_error* e = nullptr;
  if (alea_code c = alea_state_fold_in(h_->v, data, &out, &e); c != ALEA_OK) return Failed(c, e);
  return Access::MakeState(out);
}

// ---- Modules ---------------------------------------------------------------

std::vector<std::string> Module::function_names() const {
  std::vector<std::string> names;
  alea_module* m = Access::Of(*this);
  for (size_t i = 0; m != nullptr && i < alea_module_function_count(m); ++i) {
    names.emplace_back(alea_module_function_name(m, i));
  }
  return names;
}

std::string Module::ToBytes() const {
  size_t length = 0;
  void* bytes = alea_module_to_bytes(Access::Of(*this), &length);
  if (bytes == nullptr) return "";
  std::string out(static_cast<const char*>(bytes), length);
  alea_free(bytes);
  return out;
}

StatusOr<Module> Module::FromBytes(std::string_view bytes) {
  alea_module* m = nullptr;
  alea_error* e = nullptr;
  if (alea_code c = alea_module_from_bytes(bytes.data(), bytes.size(), &m, &e); c != ALEA_OK) {
    return Failed(c, e);
  }
  return Access::MakeModule(m);
}

// ---- VMs -------------------------------------------------------------------

Vm::Vm(VmOptions options) : s_(std::make_shared<embed_internal::VmState>(options)) {}
Vm::~Vm() = default;
Vm::Vm(Vm&&) noexcept = default;
Vm& Vm::operator=(Vm&&) noexcept = default;

void Vm::RegisterFunction(std::string name, Signature signature, HostFunction fn) {
  auto& hosts = s_->hosts;
  auto it =
      std::find_if(hosts.begin(), hosts.end(), [&](const auto& h) { return h->name == name; });
  if (it == hosts.end()) {
    it = hosts.insert(hosts.end(), std::make_unique<embed_internal::HostEntry>());
  }
  embed_internal::HostEntry& entry = **it;
  entry.name = std::move(name);
  entry.signature = std::move(signature);
  entry.fn = std::move(fn);
  const std::string spelled = SignatureString(entry.signature);
  alea_host_function f;
  alea_host_function_init(&f);
  f.name = entry.name.c_str();
  f.signature = spelled.c_str();
  f.fn = &embed_internal::HostEntry::Call;
  f.user = &entry;
  f.free_site_data = [](void* data) { delete static_cast<std::any*>(data); };
  alea_vm_register_function(s_->vm, &f, nullptr);
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
  alea_module* m = Access::Of(module);
  if (m == nullptr) return Status(StatusCode::kInvalidArgument, "an empty Module");
  // Values are converted now: a Tensor::Copy that fits no tensor is an
  // error of this Load.
  for (const auto& [name, value] : s_->values) {
    std::string error;
    alea_value v = ToC(value, &error);
    if (!error.empty()) {
      alea_release(v);
      return Status(StatusCode::kInvalidArgument, "`extern let " + name + "`: " + error);
    }
    alea_vm_register_value(s_->vm, name.c_str(), v, nullptr);
    alea_release(v);
  }
  alea_error* e = nullptr;
  if (alea_code c = alea_vm_load(s_->vm, m, &e); c != ALEA_OK) return Failed(c, e);
  return OkStatus();
}

StatusOr<Function> Vm::Find(std::string_view name, const Signature& signature) const {
  alea_function* f = nullptr;
  alea_error* e = nullptr;
  const std::string wanted(name);
  if (alea_code c = alea_vm_find(s_->vm, wanted.c_str(), &f, &e); c != ALEA_OK) {
    return Failed(c, e);
  }
  const std::string actual = embed_internal::WithoutDTypes(alea_function_signature(f));
  const std::string asked = SignatureString(signature);
  if (actual != asked) {
    return Status(StatusCode::kInvalidArgument,
                  "function `" + wanted + "` has type " + actual + ", not " + asked);
  }
  return Access::MakeFunction(wanted, signature, f, s_);
}

StatusOr<Value> Vm::Call(const Function& function, std::span<const Value> args) {
  const alea_function* f = Access::Of(function, s_.get());
  if (f == nullptr) {
    return Status(StatusCode::kFailedPrecondition,
                  "`" + function.name() + "` belongs to no module loaded in this Vm");
  }
  // A host value's type is static (an empty array's element type is part
  // of it), so it is checked first against the signature Find checked; the
  // C API then checks the parts (a tensor's dtype, inside declared types).
  const Signature& signature = function.signature();
  for (size_t i = 0; i < args.size() && i < signature.params.size(); ++i) {
    if (args[i].type() != signature.params[i]) {
      return Status(StatusCode::kInvalidArgument,
                    "argument " + std::to_string(i + 1) + " is " + TypeName(args[i].type()) + ", " +
                        TypeName(signature.params[i]) + " was expected (calling `" +
                        function.name() + "`)");
    }
  }
  std::vector<alea_value> values;
  values.reserve(args.size());
  std::string error;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string why;
    values.push_back(ToC(args[i], &why));
    if (!why.empty() && error.empty()) error = "argument " + std::to_string(i + 1) + ": " + why;
  }
  auto release = [&] {
    for (alea_value v : values) alea_release(v);
  };
  if (!error.empty()) {
    release();
    return Status(StatusCode::kInvalidArgument, error);
  }
  alea_value result;
  alea_error* e = nullptr;
  const alea_code c = alea_call(s_->vm, f, values.data(), values.size(), &result, &e);
  release();
  if (c != ALEA_OK) return Failed(c, e);
  Value out = FromC(result, &function.signature().result);
  alea_release(result);
  return out;
}

Stats Vm::stats() const {
  alea_stats in;
  alea_vm_stats(s_->vm, &in);
  Stats out;
  out.instructions = in.instructions;
  out.calls = in.calls;
  out.allocations = in.allocations;
  out.peak_heap_bytes = in.peak_heap_bytes;
  out.heap_bytes_live = in.heap_bytes_live;
  out.bytes_copied = in.bytes_copied;
  return out;
}

void Vm::Interrupt() { alea_vm_interrupt(s_->vm); }

void Vm::SetOutput(std::function<void(std::string_view)> sink) {
  s_->sink = std::move(sink);
  alea_vm_set_output(
      s_->vm,
      [](void* user, const char* text, size_t length) {
        (*static_cast<std::function<void(std::string_view)>*>(user))(
            std::string_view(text, length));
      },
      &s_->sink);
}

}  // namespace alea
