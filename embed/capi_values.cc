// The C API's values (include/alea/alea.h "Values", "Random states"): the
// host-side objects, their reference counts, and the states' operations,
// which are the language's own (vm/random/keys.h).
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "embed/capi_internal.h"
#include "vm/dtype.h"
#include "vm/runtime_error.h"
#include "vm/tensor.h"

namespace alea::capi {

TensorObject::~TensorObject() {
  if (owned != nullptr) ::operator delete (owned, std::align_val_t{64});
  if (release != nullptr) release(context);
}

CompoundObject::~CompoundObject() {
  for (alea_value v : items) alea_release(v);
}

int64_t CheckedElementCount(alea_dtype dtype, const int64_t* shape, int ndim, std::string* why) {
  if (dtype < ALEA_F32 || dtype > ALEA_BOOL8) {
    *why = absl::StrCat("dtype ", static_cast<int>(dtype), " is not an alea_dtype");
    return -1;
  }
  if (ndim < 0 || ndim > vm::kMaxRank || (ndim > 0 && shape == nullptr)) {
    *why = absl::StrCat("a tensor has 0 to ", vm::kMaxRank, " axes, not ", ndim);
    return -1;
  }
  const absl::Span<const int64_t> axes(shape, static_cast<size_t>(ndim));
  const int64_t count = vm::ElementCount(static_cast<vm::DType>(dtype), axes);
  if (count < 0) {
    *why = absl::StrCat("shape ", vm::ShapeString(axes),
                        " is no tensor's (an axis below 0, or 2^48 bytes or more)");
  }
  return count;
}

TensorObject* NewOwnedTensor(alea_dtype dtype, const int64_t* shape, int ndim, int64_t size) {
  auto* t = new (std::nothrow) TensorObject();
  if (t == nullptr) return nullptr;
  t->dtype = dtype;
  t->shape.assign(shape, shape + ndim);
  t->size = size;
  t->bytes = static_cast<size_t>(size) * alea_dtype_size(dtype);
  // Rounded up, and never 0, so that every tensor has a distinct address.
  const size_t capacity = (t->bytes + 63) / 64 * 64 + (t->bytes == 0 ? 64 : 0);
  t->owned = ::operator new (capacity, std::align_val_t{64}, std::nothrow);
  if (t->owned == nullptr) {
    delete t;
    return nullptr;
  }
  t->data = t->owned;
  return t;
}

alea_value NewState(const vm::random::RandState& state) {
  return ValueOf(ALEA_RANDSTATE, new StateObject(state));
}

namespace {

void DescribeInto(alea_value v, std::string& out) {
  if (v.kind >= ALEA_STR && v.kind <= ALEA_VARIANT && v.as.object == nullptr) {
    out += "<no object>";  // not a value: a host's mistake, described, not followed
    return;
  }
  switch (v.kind) {
    case ALEA_UNIT:
      out += "()";
      return;
    case ALEA_INT:
      out += "Int";
      return;
    case ALEA_FLOAT:
      out += "Float";
      return;
    case ALEA_BOOL:
      out += "Bool";
      return;
    case ALEA_STR:
      out += "Str";
      return;
    case ALEA_TENSOR:
      absl::StrAppend(&out, "Tensor(", alea_dtype_name(TensorOf(v).dtype), ")");
      return;
    case ALEA_RANDSTATE:
      out += "RandState";
      return;
    case ALEA_TUPLE: {
      out += "(";
      const CompoundObject& c = CompoundOf(v);
      for (size_t i = 0; i < c.items.size(); ++i) {
        if (i > 0) out += ", ";
        DescribeInto(c.items[i], out);
      }
      out += ")";
      return;
    }
    case ALEA_ARRAY: {
      const CompoundObject& c = CompoundOf(v);
      out += "[";
      if (c.items.empty()) {
        out += "?";
      } else {
        DescribeInto(c.items[0], out);
      }
      out += "]";
      return;
    }
    case ALEA_RECORD:
    case ALEA_VARIANT:
      out += CompoundOf(v).type;
      return;
    case ALEA_KIND_INT_RANGE_:
      break;
  }
  absl::StrAppend(&out, "<kind ", static_cast<int>(v.kind), ">");
}

// The state `s` holds, consumed now; an error when it was already.
alea_code Consume(alea_value s, vm::random::RandState* state, alea_error** error) {
  if (s.kind != ALEA_RANDSTATE || s.as.object == nullptr) {
    return Fail(error, ALEA_INVALID_ARGUMENT,
                absl::StrCat("a RandState was expected, not ", Describe(s)));
  }
  StateObject& o = StateOf(s);
  if (o.consumed.exchange(true)) {
    return Fail(error, ALEA_ABORTED,
                vm::MakeRuntimeError(vm::RuntimeErrorId::kStateReused).message);
  }
  *state = o.state;
  return ALEA_OK;
}

alea_code NewCompound(alea_kind kind, const alea_value* items, size_t count, alea_value* out,
                      CompoundObject** made, alea_error** error) {
  if (count > 0 && items == nullptr) {
    return Fail(error, ALEA_INVALID_ARGUMENT, "no values given for a count of values");
  }
  for (size_t i = 0; i < count; ++i) {
    if (items[i].kind < ALEA_UNIT || items[i].kind > ALEA_VARIANT ||
        (items[i].kind >= ALEA_STR && items[i].as.object == nullptr)) {
      return Fail(error, ALEA_INVALID_ARGUMENT,
                  absl::StrCat("value ", i + 1, " is not a value (kind ",
                               static_cast<int>(items[i].kind), ", or no object)"));
    }
  }
  auto* c = new CompoundObject(kind);
  c->items.reserve(count);
  for (size_t i = 0; i < count; ++i) c->items.push_back(alea_retain(items[i]));
  *made = c;
  *out = ValueOf(kind, c);
  return ALEA_OK;
}

}  // namespace

std::string Describe(alea_value v) {
  std::string out;
  DescribeInto(v, out);
  return out;
}

}  // namespace alea::capi

using alea::capi::CompoundObject;
using alea::capi::Fail;
using alea::capi::StateObject;
using alea::capi::TensorObject;

extern "C" {

alea_value alea_retain(alea_value value) {
  if (alea::capi::HoldsObject(value)) value.as.object->refs.fetch_add(1, std::memory_order_relaxed);
  return value;
}

void alea_release(alea_value value) {
  if (!alea::capi::HoldsObject(value)) return;
  alea_object* o = value.as.object;
  if (o->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  switch (o->kind) {
    case ALEA_STR:
      delete static_cast<alea::capi::StrObject*>(o);
      return;
    case ALEA_TENSOR:
      delete static_cast<TensorObject*>(o);
      return;
    case ALEA_RANDSTATE:
      delete static_cast<StateObject*>(o);
      return;
    default:
      delete static_cast<CompoundObject*>(o);
      return;
  }
}

alea_value alea_str(const char* text, size_t length) {
  return alea::capi::ValueOf(
      ALEA_STR, new alea::capi::StrObject(
                    std::string(text == nullptr ? "" : text, text == nullptr ? 0 : length)));
}

const char* alea_str_data(alea_value str, size_t* length) {
  if (!alea::capi::Is(str, ALEA_STR)) {
    if (length != nullptr) *length = 0;
    return "";
  }
  const std::string& text = static_cast<const alea::capi::StrObject*>(str.as.object)->text;
  if (length != nullptr) *length = text.size();
  return text.c_str();
}

alea_code alea_tensor_copy(alea_dtype dtype, const int64_t* shape, int ndim, const void* data,
                           size_t bytes, alea_value* out, alea_error** error) {
  alea_value view;
  if (alea_code c =
          alea_tensor_view(dtype, shape, ndim, data, bytes, nullptr, nullptr, &view, error);
      c != ALEA_OK) {
    return c;
  }
  const TensorObject& t = alea::capi::TensorOf(view);
  TensorObject* copy = alea::capi::NewOwnedTensor(dtype, shape, ndim, t.size);
  if (copy == nullptr) {
    alea_release(view);
    return Fail(error, ALEA_RESOURCE_EXHAUSTED, "out of memory copying a tensor");
  }
  if (t.bytes > 0) std::memcpy(copy->owned, data, t.bytes);
  alea_release(view);
  *out = alea::capi::ValueOf(ALEA_TENSOR, copy);
  return ALEA_OK;
}

alea_code alea_tensor_view(alea_dtype dtype, const int64_t* shape, int ndim, const void* data,
                           size_t bytes, void (*release)(void*), void* context, alea_value* out,
                           alea_error** error) {
  std::string why;
  const int64_t size = alea::capi::CheckedElementCount(dtype, shape, ndim, &why);
  if (size < 0) return Fail(error, ALEA_INVALID_ARGUMENT, why);
  const size_t element = alea_dtype_size(dtype);
  const size_t need = static_cast<size_t>(size) * element;
  if (bytes != need) {
    return Fail(error, ALEA_INVALID_ARGUMENT,
                absl::StrCat(
                    "a tensor of shape ", alea::vm::ShapeString({shape, static_cast<size_t>(ndim)}),
                    " and dtype ", alea_dtype_name(dtype), " holds ", need, " bytes, not ", bytes));
  }
  if (need > 0 && data == nullptr) return Fail(error, ALEA_INVALID_ARGUMENT, "no tensor data");
  if (reinterpret_cast<uintptr_t>(data) % element != 0) {
    return Fail(error, ALEA_INVALID_ARGUMENT,
                absl::StrCat("tensor data must be aligned to ", element, " bytes"));
  }
  if (dtype == ALEA_BOOL8) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < need; ++i) {
      if (b[i] > 1) {
        return Fail(error, ALEA_INVALID_ARGUMENT,
                    absl::StrCat("element ", i, " of a bool tensor is ", static_cast<int>(b[i]),
                                 ", not 0 or 1"));
      }
    }
  }
  auto* t = new TensorObject();
  t->dtype = dtype;
  t->shape.assign(shape, shape + ndim);
  t->size = size;
  t->bytes = need;
  t->data = data;
  t->release = release;
  t->context = context;
  *out = alea::capi::ValueOf(ALEA_TENSOR, t);
  return ALEA_OK;
}

alea_dtype alea_tensor_dtype(alea_value tensor) {
  return alea::capi::Is(tensor, ALEA_TENSOR) ? alea::capi::TensorOf(tensor).dtype : ALEA_F32;
}
int alea_tensor_ndim(alea_value tensor) {
  return alea::capi::Is(tensor, ALEA_TENSOR)
             ? static_cast<int>(alea::capi::TensorOf(tensor).shape.size())
             : 0;
}
const int64_t* alea_tensor_shape(alea_value tensor) {
  return alea::capi::Is(tensor, ALEA_TENSOR) ? alea::capi::TensorOf(tensor).shape.data() : nullptr;
}
int64_t alea_tensor_size(alea_value tensor) {
  return alea::capi::Is(tensor, ALEA_TENSOR) ? alea::capi::TensorOf(tensor).size : 0;
}
const void* alea_tensor_data(alea_value tensor, size_t* bytes) {
  if (!alea::capi::Is(tensor, ALEA_TENSOR)) {
    if (bytes != nullptr) *bytes = 0;
    return nullptr;
  }
  const TensorObject& t = alea::capi::TensorOf(tensor);
  if (bytes != nullptr) *bytes = t.bytes;
  return t.data;
}
size_t alea_dtype_size(alea_dtype dtype) { return dtype == ALEA_BOOL8 ? 1 : 4; }
const char* alea_dtype_name(alea_dtype dtype) {
  if (dtype < ALEA_F32 || dtype > ALEA_BOOL8) return "?";
  return alea::vm::DTypeName(static_cast<alea::vm::DType>(dtype));
}

alea_code alea_tuple(const alea_value* elements, size_t count, alea_value* out,
                     alea_error** error) {
  if (count < 2) {
    return Fail(error, ALEA_INVALID_ARGUMENT,
                absl::StrCat("a tuple has 2 or more elements, not ", count));
  }
  CompoundObject* made = nullptr;
  return alea::capi::NewCompound(ALEA_TUPLE, elements, count, out, &made, error);
}

alea_code alea_array(const alea_value* elements, size_t count, alea_value* out,
                     alea_error** error) {
  CompoundObject* made = nullptr;
  return alea::capi::NewCompound(ALEA_ARRAY, elements, count, out, &made, error);
}

alea_code alea_record(const char* type, const char* const* names, const alea_value* fields,
                      size_t count, alea_value* out, alea_error** error) {
  if (type == nullptr || (count > 0 && names == nullptr)) {
    return Fail(error, ALEA_INVALID_ARGUMENT, "a record needs its type and field names");
  }
  for (size_t i = 0; i < count; ++i) {
    if (names[i] == nullptr) {
      return Fail(error, ALEA_INVALID_ARGUMENT, absl::StrCat("field ", i + 1, " has no name"));
    }
  }
  CompoundObject* made = nullptr;
  if (alea_code c = alea::capi::NewCompound(ALEA_RECORD, fields, count, out, &made, error);
      c != ALEA_OK) {
    return c;
  }
  made->type = type;
  // A record's constructor is its type's name without arguments.
  made->constructor = made->type.substr(0, made->type.find('('));
  for (size_t i = 0; i < count; ++i) made->names.emplace_back(names[i]);
  return ALEA_OK;
}

alea_code alea_variant(const char* type, const char* constructor, const alea_value* fields,
                       size_t count, alea_value* out, alea_error** error) {
  if (type == nullptr || constructor == nullptr) {
    return Fail(error, ALEA_INVALID_ARGUMENT, "a variant needs its type and constructor");
  }
  CompoundObject* made = nullptr;
  if (alea_code c = alea::capi::NewCompound(ALEA_VARIANT, fields, count, out, &made, error);
      c != ALEA_OK) {
    return c;
  }
  made->type = type;
  made->constructor = constructor;
  return ALEA_OK;
}

size_t alea_length(alea_value value) {
  if (value.kind < ALEA_TUPLE || value.kind > ALEA_VARIANT || value.as.object == nullptr) return 0;
  return alea::capi::CompoundOf(value).items.size();
}

alea_value alea_element(alea_value value, size_t i) {
  if (i >= alea_length(value)) return alea_unit();
  return alea::capi::CompoundOf(value).items[i];
}

const char* alea_type_name(alea_value value) {
  if (!alea::capi::Is(value, ALEA_RECORD) && !alea::capi::Is(value, ALEA_VARIANT)) return "";
  return alea::capi::CompoundOf(value).type.c_str();
}

const char* alea_constructor(alea_value value) {
  if (!alea::capi::Is(value, ALEA_RECORD) && !alea::capi::Is(value, ALEA_VARIANT)) return "";
  return alea::capi::CompoundOf(value).constructor.c_str();
}

const char* alea_field_name(alea_value value, size_t i) {
  if (!alea::capi::Is(value, ALEA_RECORD)) return "";
  const CompoundObject& c = alea::capi::CompoundOf(value);
  return i < c.names.size() ? c.names[i].c_str() : "";
}

size_t alea_describe(alea_value value, char* buffer, size_t size) {
  const std::string text = alea::capi::Describe(value);
  if (buffer != nullptr && size > 0) {
    const size_t n = text.size() < size - 1 ? text.size() : size - 1;
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
  }
  return text.size();
}

alea_value alea_state_from_seed(int64_t seed) {
  return alea::capi::NewState(alea::vm::random::KeyFromSeed(seed));
}

alea_value alea_state_from_key(uint32_t key0, uint32_t key1) {
  alea::vm::random::RandState s;
  s.key = {key0, key1};
  return alea::capi::NewState(s);
}

void alea_state_key(alea_value state, uint32_t key[2]) {
  if (!alea::capi::Is(state, ALEA_RANDSTATE)) {
    key[0] = key[1] = 0;
    return;
  }
  const alea::vm::random::Key k = alea::vm::random::EffectiveKey(alea::capi::StateOf(state).state);
  key[0] = k.k0;
  key[1] = k.k1;
}

uint32_t alea_state_counter(alea_value state) {
  return alea::capi::Is(state, ALEA_RANDSTATE) ? alea::capi::StateOf(state).state.n : 0;
}

int alea_state_consumed(alea_value state) {
  return alea::capi::Is(state, ALEA_RANDSTATE) && alea::capi::StateOf(state).consumed.load() ? 1
                                                                                             : 0;
}

alea_code alea_state_split(alea_value state, alea_value* first, alea_value* second,
                           alea_error** error) {
  alea::vm::random::RandState s;
  if (alea_code c = alea::capi::Consume(state, &s, error); c != ALEA_OK) return c;
  auto [a, b] = alea::vm::random::Split(s);
  *first = alea::capi::NewState(a);
  *second = alea::capi::NewState(b);
  return ALEA_OK;
}

alea_code alea_state_split_n(alea_value state, size_t count, alea_value* out, alea_error** error) {
  if (count > 0 && out == nullptr) return Fail(error, ALEA_INVALID_ARGUMENT, "no room for states");
  alea::vm::random::RandState s;
  if (alea_code c = alea::capi::Consume(state, &s, error); c != ALEA_OK) return c;
  const std::vector<alea::vm::random::RandState> states = alea::vm::random::SplitN(s, count);
  for (size_t i = 0; i < count; ++i) out[i] = alea::capi::NewState(states[i]);
  return ALEA_OK;
}

alea_code alea_state_next(alea_value state, alea_value* sub, alea_value* rest, alea_error** error) {
  alea::vm::random::RandState s;
  if (alea_code c = alea::capi::Consume(state, &s, error); c != ALEA_OK) return c;
  auto [a, b] = alea::vm::random::Next(s);
  *sub = alea::capi::NewState(a);
  *rest = alea::capi::NewState(b);
  return ALEA_OK;
}

alea_code alea_state_fold_in(alea_value state, uint32_t data, alea_value* out, alea_error** error) {
  alea::vm::random::RandState s;
  if (alea_code c = alea::capi::Consume(state, &s, error); c != ALEA_OK) return c;
  *out = alea::capi::NewState(alea::vm::random::FoldIn(s, data));
  return ALEA_OK;
}

}  // extern "C"
