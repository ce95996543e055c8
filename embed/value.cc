// The host-side values of include/alea/vm.h: Value, Tensor, RandState, Module.
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "alea/vm.h"
#include "embed/internal.h"
#include "vm/module_file.h"
#include "vm/tensor.h"
#include "vm/verifier.h"

namespace alea {

using embed_internal::RandStateData;
using embed_internal::TensorData;

Type Type::Tuple(std::vector<Type> elements) {
  Type t(kTuple);
  t.elements_ = std::move(elements);
  return t;
}

Type Type::Array(Type element) {
  Type t(kArray);
  t.elements_.push_back(std::move(element));
  return t;
}

Type Type::Named(std::string name) {
  Type t(kNamed);
  t.name_ = std::move(name);
  return t;
}

std::string TypeName(const Type& type) {
  switch (type.kind()) {
    case Type::kUnit:
      return "()";
    case Type::kInt:
      return "Int";
    case Type::kFloat:
      return "Float";
    case Type::kBool:
      return "Bool";
    case Type::kStr:
      return "Str";
    case Type::kTensor:
      return "Tensor";
    case Type::kRandState:
      return "RandState";
    case Type::kTuple:
      return absl::StrCat(
          "(",
          absl::StrJoin(type.elements(), ", ",
                        [](std::string* out, const Type& t) { out->append(TypeName(t)); }),
          ")");
    case Type::kArray:
      return absl::StrCat("[", TypeName(type.elements()[0]), "]");
    case Type::kNamed:
      return type.name();
  }
  return "?";
}

std::string SignatureString(const Signature& signature) {
  return absl::StrCat(
      "(",
      absl::StrJoin(signature.params, ", ",
                    [](std::string* out, const Type& t) { out->append(TypeName(t)); }),
      ") -> ", TypeName(signature.result));
}

namespace {

// The element count, or -1 for a shape no tensor has (a negative axis, more
// axes or elements than the VM allows): the VM refuses it when it is passed.
int64_t Count(const std::vector<int64_t>& shape) {
  return vm::ElementCount(vm::DType::kF32, shape);
}

}  // namespace

Tensor Tensor::View(const float* data, std::vector<int64_t> shape) {
  auto d = std::make_shared<TensorData>();
  d->size = Count(shape);
  d->shape = std::move(shape);
  d->data = data;
  d->view = true;
  return Tensor(std::move(d));
}

Tensor Tensor::Copy(std::vector<float> values, std::vector<int64_t> shape) {
  auto d = std::make_shared<TensorData>();
  d->size = Count(shape);
  d->shape = std::move(shape);
  d->storage.resize(values.size());
  if (!values.empty()) std::memcpy(d->storage.data(), values.data(), values.size() * 4);
  d->data = d->storage.data();
  return Tensor(std::move(d));
}

DType Tensor::dtype() const { return d_->dtype; }
const std::vector<int64_t>& Tensor::shape() const { return d_->shape; }
int64_t Tensor::size() const { return d_->size; }
bool Tensor::is_view() const { return d_->view; }
const void* Tensor::data() const { return d_->data; }
std::span<const float> Tensor::floats() const {
  if (d_->dtype != DType::kF32) return {};
  return std::span<const float>(static_cast<const float*>(d_->data), static_cast<size_t>(d_->size));
}

RandState RandState::FromSeed(int64_t seed) {
  auto d = std::make_shared<RandStateData>();
  d->state = vm::random::KeyFromSeed(seed);
  return RandState(std::move(d));
}

uint32_t RandState::key0() const { return d_->state.key.k0; }
uint32_t RandState::key1() const { return d_->state.key.k1; }
uint64_t RandState::counter() const { return d_->state.n; }
bool RandState::consumed() const { return d_->consumed.load(); }

Value Value::Tuple(std::vector<Value> elements) {
  return Value(Variant(std::in_place_index<7>,
                       std::make_shared<const std::vector<Value>>(std::move(elements))));
}

Value Value::Array(Type element, std::vector<Value> elements) {
  return Value(Variant(std::in_place_index<8>, std::make_shared<const Elements>(Elements{
                                                   std::move(element), std::move(elements)})));
}

Value Value::Make(Type type, std::string constructor, std::vector<Value> fields) {
  return Value(Variant(std::in_place_index<9>,
                       std::make_shared<const Made>(
                           Made{std::move(type), std::move(constructor), std::move(fields), {}})));
}

Value Value::Record(Type type, std::vector<std::pair<std::string, Value>> fields) {
  Made made;
  // A record's constructor is its type's name, without arguments.
  made.constructor = type.name().substr(0, type.name().find('('));
  made.type = std::move(type);
  for (auto& [name, value] : fields) {
    made.names.push_back(std::move(name));
    made.fields.push_back(std::move(value));
  }
  return Value(Variant(std::in_place_index<9>, std::make_shared<const Made>(std::move(made))));
}

const std::string& Value::constructor() const {
  static const std::string kEmpty;
  const auto* p = std::get_if<9>(&v_);
  return p != nullptr ? (*p)->constructor : kEmpty;
}

const std::vector<Value>& Value::fields() const {
  static const std::vector<Value> kEmpty;
  const auto* p = std::get_if<9>(&v_);
  return p != nullptr ? (*p)->fields : kEmpty;
}

const std::vector<std::string>& Value::field_names() const {
  static const std::vector<std::string> kEmpty;
  const auto* p = std::get_if<9>(&v_);
  return p != nullptr ? (*p)->names : kEmpty;
}

Value Value::field(std::string_view name) const {
  const std::vector<std::string>& names = field_names();
  for (size_t i = 0; i < names.size() && i < fields().size(); ++i) {
    if (names[i] == name) return fields()[i];
  }
  return Value();
}

Type Value::type() const {
  if (const auto* made = std::get_if<9>(&v_)) return (*made)->type;
  if (const auto* array = std::get_if<8>(&v_)) return Type::Array((*array)->element);
  if (v_.index() != Type::kTuple) return static_cast<Type::Kind>(v_.index());
  std::vector<Type> elements;
  for (const Value& element : AsTuple()) elements.push_back(element.type());
  return Type::Tuple(std::move(elements));
}

// The defaults of the accessors for a Value of another type.
const std::string& Value::AsStr() const {
  static const std::string kEmpty;
  const auto* p = std::get_if<4>(&v_);
  return p != nullptr ? *p : kEmpty;
}

const Tensor& Value::AsTensor() const {
  static const Tensor kEmpty = Tensor::Copy({}, {0});
  const auto* p = std::get_if<5>(&v_);
  return p != nullptr ? *p : kEmpty;
}

const RandState& Value::AsRandState() const {
  static const RandState kNone = RandState::FromSeed(0);
  const auto* p = std::get_if<6>(&v_);
  return p != nullptr ? *p : kNone;
}

const std::vector<Value>& Value::AsTuple() const {
  static const std::vector<Value> kEmpty;
  const auto* p = std::get_if<7>(&v_);
  return p != nullptr ? **p : kEmpty;
}

const std::vector<Value>& Value::AsArray() const {
  static const std::vector<Value> kEmpty;
  const auto* p = std::get_if<8>(&v_);
  return p != nullptr ? (*p)->values : kEmpty;
}

std::vector<std::string> Module::function_names() const {
  std::vector<std::string> names;
  if (d_ == nullptr) return names;
  for (const vm::Export& e : d_->module.exports) names.push_back(e.name);
  return names;
}

std::string Module::ToBytes() const {
  if (d_ == nullptr) return vm::EncodeModule(vm::Module{}, {});
  std::vector<std::string> texts;
  for (size_t i = 0; i < d_->module.files.size(); ++i) {
    texts.emplace_back(
        i < d_->sources.size() ? d_->sources.file(static_cast<lang::FileId>(i)).text() : "");
  }
  return vm::EncodeModule(d_->module, texts);
}

namespace embed_internal {

Status Public(const absl::Status& status) {
  if (status.ok()) return Status();
  StatusCode code = StatusCode::kInternal;
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
      code = StatusCode::kInvalidArgument;
      break;
    case absl::StatusCode::kNotFound:
      code = StatusCode::kNotFound;
      break;
    case absl::StatusCode::kFailedPrecondition:
      code = StatusCode::kFailedPrecondition;
      break;
    case absl::StatusCode::kResourceExhausted:
      code = StatusCode::kResourceExhausted;
      break;
    case absl::StatusCode::kCancelled:
      code = StatusCode::kCancelled;
      break;
    case absl::StatusCode::kAborted:
      code = StatusCode::kAborted;
      break;
    case absl::StatusCode::kOutOfRange:
      code = StatusCode::kOutOfRange;
      break;
    default:
      break;
  }
  return Status(code, std::string(status.message()));
}

}  // namespace embed_internal

StatusOr<Module> Module::FromBytes(std::string_view bytes) {
  return embed_internal::Public([&]() -> absl::StatusOr<Module> {
    absl::StatusOr<vm::ModuleFile> decoded =
        vm::DecodeModule(absl::string_view(bytes.data(), bytes.size()));
    if (!decoded.ok()) return decoded.status();
    // Verified now, where byte offsets can be named (Vm::Load checks again).
    vm::VerifyOptions options;
    options.code_offsets = decoded->code_offsets;
    if (absl::Status s = vm::VerifyModule(decoded->module, options); !s.ok()) return s;
    auto data = std::make_shared<embed_internal::ModuleData>();
    for (size_t i = 0; i < decoded->module.files.size(); ++i) {
      data->sources.Add(decoded->module.files[i], std::move(decoded->sources[i]));
    }
    data->module = std::move(decoded->module);
    return Module(std::move(data));
  }());
}

}  // namespace alea
