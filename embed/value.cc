// The C++ API's values and types (include/alea/vm.h): plain C++ data,
// converted to the C API's at a call (embed/cpp_api.cc).
#include <string>
#include <utility>

#include "alea/vm.h"

namespace alea {

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

namespace {

// "Int, Str": the types' names, separated by commas.
std::string TypeNames(const std::vector<Type>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i > 0) out += ", ";
    out += TypeName(types[i]);
  }
  return out;
}

// `text` between `open` and `close`. (Appending, not `+`: GCC 12 warns
// falsely about `"(" + s + ")"`.)
std::string Enclosed(char open, const std::string& text, char close) {
  std::string out(1, open);
  out.append(text).push_back(close);
  return out;
}

}  // namespace

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
      return Enclosed('(', TypeNames(type.elements()), ')');
    case Type::kArray:
      return Enclosed('[', TypeName(type.elements()[0]), ']');
    case Type::kNamed:
      return type.name();
  }
  return "?";
}

std::string SignatureString(const Signature& signature) {
  std::string out = Enclosed('(', TypeNames(signature.params), ')');
  out.append(" -> ").append(TypeName(signature.result));
  return out;
}

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

}  // namespace alea
