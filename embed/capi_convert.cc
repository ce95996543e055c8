// The C API's values against a module's types (capi_convert.h): checked
// whole with the place of a mismatch named, converted into a VM's heap
// (tensors as views of the host's memory for a call), copied out of it.
#include "embed/capi_convert.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <utility>

#include "absl/strings/str_join.h"
#include "vm/randstate.h"
#include "vm/tensor.h"

namespace alea::capi {

// The type T(type) as the language spells it ("Tensor(f32)", "(Int, Str)"),
// or nullopt when a function is part of it (functions do not cross).
std::optional<std::string> TypeName(const vm::Module& m, const vm::ExportType& e) {
  const vm::TypeDesc& t = m.types[e.type];
  switch (t.kind) {
    case K::kUnit:
      return "()";
    case K::kInt:
      return "Int";
    case K::kFloat:
      return "Float";
    case K::kBool:
      return "Bool";
    case K::kStr:
      return "Str";
    case K::kTensor:
      return absl::StrCat("Tensor(", vm::DTypeName(static_cast<vm::DType>(e.dtype)), ")");
    case K::kRandState:
      return "RandState";
    case K::kTuple:
    case K::kArray: {
      std::vector<std::string> parts;
      for (const vm::ExportType& f : e.fields) {
        std::optional<std::string> part = TypeName(m, f);
        if (!part) return std::nullopt;
        parts.push_back(*std::move(part));
      }
      return t.kind == K::kArray ? absl::StrCat("[", parts[0], "]")
                                 : absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
    }
    case K::kRecord:
    case K::kVariant: {
      // Known by name; it crosses when nothing reachable in it is a function.
      std::vector<uint32_t> pending = {e.type};
      std::vector<bool> seen(m.types.size());
      seen[e.type] = true;
      while (!pending.empty()) {
        const vm::TypeDesc& d = m.types[pending.back()];
        pending.pop_back();
        if (d.kind == K::kFunction) return std::nullopt;
        auto visit = [&](uint32_t child) {
          if (child < seen.size() && !seen[child]) {
            seen[child] = true;
            pending.push_back(child);
          }
        };
        for (uint32_t child : d.children) visit(child);
        for (const std::vector<uint32_t>& fields : d.cases) {
          for (uint32_t child : fields) visit(child);
        }
      }
      return t.name;
    }
    default:
      return std::nullopt;
  }
}

// The ExportType of T(index), for a part of a declared type's value.
vm::ExportType ExportOf(const vm::Module& m, uint32_t index) {
  const vm::TypeDesc& t = m.types[index];
  vm::ExportType e{index, 0, {}};
  if (t.kind == K::kTensor) e.dtype = t.dtype;
  if (t.kind == K::kTuple || t.kind == K::kArray) {
    for (uint32_t child : t.children) e.fields.push_back(ExportOf(m, child));
  }
  return e;
}

// "(Int, Tensor(f32)) -> Float", or nullopt when a function is part of it.
std::optional<std::string> SignatureOf(const vm::Module& m,
                                       const std::vector<vm::ExportType>& params,
                                       const vm::ExportType& result, bool uses_rng) {
  std::vector<std::string> parts;
  for (const vm::ExportType& p : params) {
    std::optional<std::string> name = TypeName(m, p);
    if (!name) return std::nullopt;
    parts.push_back(*std::move(name));
  }
  if (uses_rng) parts.push_back("RandState");
  std::optional<std::string> r = TypeName(m, result);
  if (!r) return std::nullopt;
  return absl::StrCat("(", absl::StrJoin(parts, ", "), ") -> ", *r);
}

// Whether a host's signature fits the declaration's: equal but for spaces,
// and a bare `Tensor` in `host` stands for `Tensor(d)` of any dtype.
bool SignatureFits(std::string_view host, std::string_view declared) {
  auto next = [](std::string_view s, size_t& i) {
    while (i < s.size() && s[i] == ' ') ++i;
  };
  size_t i = 0, j = 0;
  while (true) {
    next(host, i);
    next(declared, j);
    if (i == host.size() || j == declared.size()) return i == host.size() && j == declared.size();
    if (host.substr(i, 6) == "Tensor" && declared.substr(j, 6) == "Tensor") {
      i += 6;
      j += 6;
      next(host, i);
      if ((i == host.size() || host[i] != '(') && j < declared.size() && declared[j] == '(') {
        j = declared.find(')', j) + 1;  // Tensor(d): the checker always closes it
      }
      continue;
    }
    if (host[i] != declared[j]) return false;
    ++i;
    ++j;
  }
}

std::string WithoutSpaces(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != ' ') out += c;
  }
  return out;
}

alea_kind KindOf(K kind) {
  switch (kind) {
    case K::kUnit:
      return ALEA_UNIT;
    case K::kInt:
      return ALEA_INT;
    case K::kFloat:
      return ALEA_FLOAT;
    case K::kBool:
      return ALEA_BOOL;
    case K::kStr:
      return ALEA_STR;
    case K::kTensor:
      return ALEA_TENSOR;
    case K::kRandState:
      return ALEA_RANDSTATE;
    case K::kTuple:
      return ALEA_TUPLE;
    case K::kArray:
      return ALEA_ARRAY;
    case K::kRecord:
      return ALEA_RECORD;
    case K::kVariant:
      return ALEA_VARIANT;
    default:
      return static_cast<alea_kind>(-1);
  }
}

bool ValidValue(alea_value v) {
  return v.kind >= ALEA_UNIT && v.kind <= ALEA_VARIANT &&
         (v.kind < ALEA_STR || v.as.object != nullptr);
}

// Whether `v` fits `t`: an error message, or empty. Collects the states
// it holds (to be consumed once everything converted) and refuses one met
// twice or already consumed.
std::string Converter::Check(alea_value v, const vm::ExportType& t, const Path& at, States& states,
                             int depth) const {
  if (depth > kMaxDepth) {
    return absl::StrCat(at.Render(), " nests more than ", kMaxDepth,
                        " levels deep, too deep to cross");
  }
  const vm::TypeDesc& d = m_.types[t.type];
  if (!ValidValue(v)) {
    return absl::StrCat(at.Render(), " is not a value (kind ", static_cast<int>(v.kind),
                        ", or no object)");
  }
  auto mismatch = [&] {
    return absl::StrCat(at.Render(), " is ", Describe(v), ", ",
                        TypeName(m_, t).value_or("a function"), " was expected");
  };
  if ((v.kind == ALEA_RECORD && d.kind == K::kVariant) ||
      (v.kind == ALEA_VARIANT && d.kind == K::kRecord)) {
    return absl::StrCat(at.Render(), " is made as a ", v.kind == ALEA_RECORD ? "record" : "variant",
                        ", `", d.name, "` is a ", d.kind == K::kRecord ? "record" : "variant");
  }
  if (v.kind != KindOf(d.kind)) return mismatch();
  switch (v.kind) {
    case ALEA_TENSOR:
      if (static_cast<uint8_t>(TensorOf(v).dtype) != t.dtype) return mismatch();
      return "";
    case ALEA_RANDSTATE:
      states.push_back(&StateOf(v));  // consumed or repeated: the caller's error
      return "";
    case ALEA_TUPLE:
    case ALEA_ARRAY: {
      const CompoundObject& c = CompoundOf(v);
      if (v.kind == ALEA_TUPLE && c.items.size() != t.fields.size()) return mismatch();
      for (size_t i = 0; i < c.items.size(); ++i) {
        const Path part{&at, Path::Step::kElement, {}, i, {}};
        std::string bad =
            Check(c.items[i], t.fields[v.kind == ALEA_ARRAY ? 0 : i], part, states, depth + 1);
        if (!bad.empty()) return bad;
      }
      return "";
    }
    case ALEA_RECORD:
    case ALEA_VARIANT:
      return CheckMade(v, d, at, states, depth);
    default:
      return "";
  }
}

// `v` (checked) as a VM value, owned; nullopt when out of memory. For an
// argument (`view`), a tensor is viewed in place: the host keeps it alive
// for the call; what outlives the call is copied into the heap.
std::optional<vm::Value> Converter::ToVm(alea_value v, const vm::ExportType& t, bool view) {
  switch (v.kind) {
    case ALEA_UNIT:
      return vm::Value{0};
    case ALEA_INT:
      return vm::FromInt(v.as.i);
    case ALEA_FLOAT:
      return vm::FromFloat(v.as.f);
    case ALEA_BOOL:
      return vm::FromBool(v.as.b != 0);
    case ALEA_STR: {
      size_t length = 0;
      const char* text = alea_str_data(v, &length);
      return Made(heap_.NewStr(absl::string_view(text, length)));
    }
    case ALEA_TENSOR: {
      const TensorObject& d = TensorOf(v);
      const auto dtype = static_cast<vm::DType>(d.dtype);
      if (view) return Made(heap_.NewTensorView(dtype, d.shape, d.data));
      vm::Object* o = heap_.NewTensor(dtype, d.shape);
      if (o != nullptr && d.bytes > 0) std::memcpy(vm::DataOf(o), d.data, d.bytes);
      return Made(o);
    }
    case ALEA_RANDSTATE:
      return Made(heap_.NewRandState(StateOf(v).state));
    case ALEA_TUPLE:
    case ALEA_ARRAY: {
      const CompoundObject& c = CompoundOf(v);
      const bool array = v.kind == ALEA_ARRAY;
      const vm::TypeDesc& d = m_.types[t.type];
      vm::Object* o = array ? heap_.NewArray(c.items.size(), m_.types[d.children[0]].is_reference())
                            : heap_.NewTuple(c.items.size());
      if (o == nullptr) return std::nullopt;
      for (size_t i = 0; i < c.items.size(); ++i) {
        const vm::ExportType& part = t.fields[array ? 0 : i];
        std::optional<vm::Value> element = ToVm(c.items[i], part, view);
        if (!element) {
          heap_.Release(o);  // and the elements made so far
          return std::nullopt;
        }
        vm::Slots(o)[i] = *element;
        if (!array) vm::Mask(o)[i] = m_.types[part.type].is_reference() ? 1 : 0;
      }
      return vm::FromObject(o);
    }
    case ALEA_RECORD:
    case ALEA_VARIANT:
      return ToVmMade(v, t.type, view);
    case ALEA_KIND_INT_RANGE_:
      break;
  }
  return std::nullopt;
}

// The host value of `v` (borrowed), of type `t`; tensors are copied out
// (into `into` for a top-level tensor when given). The caller checked
// TooDeep.
alea_value Converter::FromVm(vm::Value v, const vm::ExportType& t, void* into) const {
  const vm::TypeDesc& d = m_.types[t.type];
  switch (d.kind) {
    case K::kUnit:
      return alea_unit();
    case K::kInt:
      return alea_int(vm::AsInt(v));
    case K::kFloat:
      return alea_float(vm::AsFloat(v));
    case K::kBool:
      return alea_bool(v != 0);
    case K::kStr: {
      const absl::string_view text = vm::StrView(vm::AsObject(v));
      return alea_str(text.data(), text.size());
    }
    case K::kTensor: {
      const vm::Object* o = vm::AsObject(v);
      const auto dtype = static_cast<alea_dtype>(vm::DTypeOf(o));
      const absl::Span<const int64_t> shape = vm::ShapeOf(o);
      const size_t bytes = static_cast<size_t>(vm::SizeOf(o)) * alea_dtype_size(dtype);
      TensorObject* out = nullptr;
      if (into != nullptr) {
        out = new TensorObject();
        out->dtype = dtype;
        out->shape.assign(shape.begin(), shape.end());
        out->size = vm::SizeOf(o);
        out->bytes = bytes;
        out->data = into;
      } else {
        out = NewOwnedTensor(dtype, shape.data(), static_cast<int>(shape.size()), vm::SizeOf(o));
        // The host's own memory is gone (not the VM's budget): nothing can
        // go on, as when `new` fails anywhere else in the process.
        if (out == nullptr) std::abort();
      }
      if (bytes > 0) std::memcpy(const_cast<void*>(out->data), vm::DataOf(o), bytes);
      return ValueOf(ALEA_TENSOR, out);
    }
    case K::kRandState:
      return NewState(vm::StateOf(vm::AsObject(v)));
    case K::kTuple:
    case K::kArray: {
      const vm::Object* o = vm::AsObject(v);
      const bool array = d.kind == K::kArray;
      auto* c = new CompoundObject(array ? ALEA_ARRAY : ALEA_TUPLE);
      c->items.reserve(o->length);
      for (uint64_t i = 0; i < o->length; ++i) {
        c->items.push_back(FromVm(vm::Slots(o)[i], t.fields[array ? 0 : i]));
      }
      return ValueOf(c->kind, c);
    }
    case K::kRecord:
    case K::kVariant: {
      const vm::Object* o = vm::AsObject(v);
      const bool record = d.kind == K::kRecord;
      const uint16_t tag = record || o->tag >= d.cases.size() ? 0 : o->tag;
      const std::vector<uint32_t>& fields = record ? d.children : d.cases[tag];
      auto* c = new CompoundObject(record ? ALEA_RECORD : ALEA_VARIANT);
      c->type = d.name;
      c->constructor = record ? d.name.substr(0, d.name.find('(')) : d.names[tag];
      for (size_t i = 0; i < fields.size() && i < o->length; ++i) {
        c->items.push_back(FromVm(vm::Slots(o)[i], ExportOf(m_, fields[i])));
        if (record) c->names.push_back(d.names[i]);
      }
      return ValueOf(c->kind, c);
    }
    default:
      return alea_unit();
  }
}

// Whether the VM value `v` of type T(type) nests deeper than kMaxDepth.
bool Converter::TooDeep(vm::Value v, uint32_t type) const {
  const K kind = m_.types[type].kind;
  if (kind != K::kTuple && kind != K::kArray && kind != K::kRecord && kind != K::kVariant) {
    return false;
  }
  std::vector<std::tuple<vm::Value, uint32_t, int>> pending = {{v, type, 0}};
  while (!pending.empty()) {
    auto [value, index, depth] = pending.back();
    pending.pop_back();
    if (depth > kMaxDepth) return true;
    const vm::TypeDesc& t = m_.types[index];
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

std::optional<vm::Value> Converter::Made(vm::Object* o) {
  if (o == nullptr) return std::nullopt;
  return vm::FromObject(o);
}

// A record's fields in declaration order: their indexes in the host value.
std::vector<size_t> Converter::RecordOrder(const CompoundObject& c, const vm::TypeDesc& d) const {
  std::vector<size_t> order;
  for (const std::string& name : d.names) {
    auto at = std::find(c.names.begin(), c.names.end(), name);
    if (at == c.names.end()) return {};
    order.push_back(static_cast<size_t>(at - c.names.begin()));
  }
  return order;
}

std::string Converter::CheckMade(alea_value v, const vm::TypeDesc& d, const Path& at,
                                 States& states, int depth) const {
  const CompoundObject& c = CompoundOf(v);
  if (WithoutSpaces(c.type) != WithoutSpaces(d.name)) {
    return absl::StrCat(at.Render(), " is ", c.type.empty() ? "?" : c.type, ", ", d.name,
                        " was expected");
  }
  if (d.kind == K::kRecord) {
    for (const std::string& name : d.names) {
      if (std::find(c.names.begin(), c.names.end(), name) == c.names.end()) {
        return absl::StrCat(at.Render(), " has no field `", name, "`, which `", d.name, "` needs");
      }
    }
    if (c.items.size() != d.names.size()) {
      return absl::StrCat(at.Render(), " has ", c.items.size(), " fields, `", d.name, "` has ",
                          d.names.size());
    }
    const std::vector<size_t> order = RecordOrder(c, d);
    for (size_t i = 0; i < order.size(); ++i) {
      const Path part{&at, Path::Step::kField, {}, 0, d.names[i]};
      std::string bad =
          Check(c.items[order[i]], ExportOf(m_, d.children[i]), part, states, depth + 1);
      if (!bad.empty()) return bad;
    }
    return "";
  }
  auto ctor = std::find(d.names.begin(), d.names.end(), c.constructor);
  if (ctor == d.names.end()) {
    return absl::StrCat(at.Render(), " has constructor `", c.constructor, "`, which `", d.name,
                        "` does not have");
  }
  const std::vector<uint32_t>& fields = d.cases[ctor - d.names.begin()];
  if (fields.size() != c.items.size()) {
    return absl::StrCat(at.Render(), ": `", c.constructor, "` takes ", fields.size(),
                        " fields, not ", c.items.size());
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    const Path part{&at, Path::Step::kCaseField, {}, i, c.constructor};
    std::string bad = Check(c.items[i], ExportOf(m_, fields[i]), part, states, depth + 1);
    if (!bad.empty()) return bad;
  }
  return "";
}

std::optional<vm::Value> Converter::ToVmMade(alea_value v, uint32_t type, bool view) {
  const vm::TypeDesc& d = m_.types[type];
  const CompoundObject& c = CompoundOf(v);
  uint16_t tag = 0;
  std::vector<size_t> order;
  const std::vector<uint32_t>* fields = &d.children;
  if (d.kind == K::kRecord) {
    order = RecordOrder(c, d);
  } else {
    tag = static_cast<uint16_t>(std::find(d.names.begin(), d.names.end(), c.constructor) -
                                d.names.begin());
    fields = &d.cases[tag];
    if (fields->empty()) return Made(heap_.Nullary(tag));
    for (size_t i = 0; i < fields->size(); ++i) order.push_back(i);
  }
  vm::Object* o = heap_.NewTuple(fields->size());
  if (o == nullptr) return std::nullopt;
  o->tag = tag;
  for (size_t i = 0; i < fields->size(); ++i) {
    std::optional<vm::Value> value = ToVm(c.items[order[i]], ExportOf(m_, (*fields)[i]), view);
    if (!value) {
      heap_.Release(o);
      return std::nullopt;
    }
    vm::Slots(o)[i] = *value;
    vm::Mask(o)[i] = m_.types[(*fields)[i]].is_reference() ? 1 : 0;
  }
  return vm::FromObject(o);
}

}  // namespace alea::capi
