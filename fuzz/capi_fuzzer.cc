// The C API (include/alea/alea.h) driven as a careless C host would: values
// of every kind built from random parts (tensors of any shape, dtype, byte
// count and alignment; states used up; tuples, arrays, records and variants
// with wrong names, wrong fields and structs that are no value at all),
// read back through every accessor, passed to the host's state operations,
// to random functions with random argument counts, and returned from host
// functions. Every misuse must come back as an error code; none may crash,
// read out of bounds or leak.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "alea/alea.h"
#include "fuzz/fuzz_input.h"

namespace {

using alea::fuzz::FuzzInput;

constexpr char kSource[] = R"(
type Shape = Circle(Float) | Rect(Float, Float) | Dot
type Point = { x: Float, y: Float }
extern fn host_any(x: Int) -> (Str, [Float])
extern let host_bias: Int
fn add(a: Int, b: Int) -> Int = a + b + host_bias
fn area(s: Shape) -> Float = match s { Circle(r) => 3.0 * r * r, Rect(w, h) => w * h, Dot => 0.0 }
fn norm(p: Point) -> Float = sqrt(p.x * p.x + p.y * p.y)
fn scale(x: Tensor, k: Float) -> Tensor = x * k
fn ints(x: Tensor(i32)) -> Tensor(i32) = x + x
fn flags(x: Tensor(bool)) -> Tensor(bool) = x == x
fn draw(s: RandState) -> Tensor = normal(s, [3])
fn fork(s: RandState) -> (RandState, RandState) = split(s)
fn nested(t: ((Int, Bool), [Str])) -> Int {
  let ((n, b), names) = t;
  if b { n + len(names) } else { n }
}
fn half(o: Option(Int)) -> Result(Int, Str) = match o { Some(n) => Ok(n / 2), None => Err("none") }
fn via_host(x: Int) -> Int {
  let (s, xs) = host_any(x);
  len(s) + len(xs)
}
)";

constexpr const char* kFunctions[] = {"add",  "area", "norm",   "scale", "ints",    "flags",
                                      "draw", "fork", "nested", "half",  "via_host"};
constexpr const char* kNames[] = {"Shape", "Point",       "Circle", "Rect", "Dot", "x",
                                  "y",     "Option(Int)", "Some",   "None", "",    "Params"};

// Tensor bytes a value may view: aligned storage with room for any shape
// that fits the byte counts drawn below.
alignas(64) unsigned char g_buffer[4096];

class Values {
 public:
  explicit Values(FuzzInput& in) : in_(in) {}
  ~Values() {
    for (alea_value v : made_) alea_release(v);
  }

  // A value of any kind, or a struct that is none; owned by this list.
  alea_value Any(int depth = 0) {
    alea_value v = alea_unit();
    switch (in_.Below(depth > 3 ? 8 : 13)) {
      case 0:
        return alea_unit();
      case 1:
        return alea_int(in_.Int());
      case 2:
        return alea_float(in_.Float());
      case 3:
        return alea_bool(in_.Bool());
      case 4: {
        const std::string s = in_.Str();
        return Keep(alea_str(s.data(), s.size()));
      }
      case 5:
        return Tensor();
      case 6:
        return State();
      case 7: {  // not a value: an object kind without an object, or no kind
        v.kind = in_.Bool() ? static_cast<alea_kind>(ALEA_STR + in_.Below(7))
                            : static_cast<alea_kind>(11 + in_.Below(200));
        v.as.object = nullptr;
        return v;
      }
      default: {
        std::vector<alea_value> parts;
        const size_t n = in_.Below(4);
        for (size_t i = 0; i < n; ++i) parts.push_back(Any(depth + 1));
        alea_error* e = nullptr;
        alea_code c = ALEA_OK;
        switch (in_.Below(4)) {
          case 0:
            c = alea_tuple(parts.data(), parts.size(), &v, &e);
            break;
          case 1:
            c = alea_array(parts.data(), parts.size(), &v, &e);
            break;
          case 2: {
            std::vector<const char*> names;
            for (size_t i = 0; i < n; ++i) names.push_back(Name());
            c = alea_record(Name(), names.data(), parts.data(), parts.size(), &v, &e);
            break;
          }
          default:
            c = alea_variant(Name(), Name(), parts.data(), parts.size(), &v, &e);
            break;
        }
        alea_error_free(e);
        return c == ALEA_OK ? Keep(v) : alea_unit();
      }
    }
  }

  alea_value Tensor() {
    int64_t shape[4];
    const int ndim = static_cast<int>(in_.Below(5));
    for (int i = 0; i < ndim; ++i) {
      shape[i] = in_.Below(8) == 0 ? in_.Int() : static_cast<int64_t>(in_.Below(6));
    }
    const auto dtype = static_cast<alea_dtype>(in_.Below(5));  // 4 is no dtype
    const size_t bytes = in_.Below(64) * (in_.Bool() ? 4 : 1);
    const size_t offset = in_.Below(8) == 0 ? 1 : 0;  // misaligned, sometimes
    for (size_t i = 0; i < bytes + offset; ++i) g_buffer[i] = in_.Bool() ? 0 : in_.Byte();
    alea_value v = alea_unit();
    alea_error* e = nullptr;
    const alea_code c = in_.Bool()
                            ? alea_tensor_copy(dtype, shape, ndim, g_buffer + offset, bytes, &v, &e)
                            : alea_tensor_view(dtype, shape, ndim, g_buffer + offset, bytes,
                                               nullptr, nullptr, &v, &e);
    alea_error_free(e);
    return c == ALEA_OK ? Keep(v) : alea_unit();
  }

  alea_value State() {
    alea_value s = Keep(in_.Bool() ? alea_state_from_seed(in_.Int())
                                   : alea_state_from_key(static_cast<uint32_t>(in_.U64()),
                                                         static_cast<uint32_t>(in_.U64())));
    if (in_.Below(4) == 0) {  // used up before it is passed
      alea_value a, b;
      if (alea_state_split(s, &a, &b, nullptr) == ALEA_OK) {
        Keep(a);
        Keep(b);
      }
    }
    return s;
  }

  // Every accessor on `v`, which may be anything.
  void Read(alea_value v) {
    char text[32];
    alea_describe(v, text, sizeof text);
    size_t length = 0;
    alea_str_data(v, &length);
    alea_tensor_dtype(v);
    alea_tensor_ndim(v);
    alea_tensor_shape(v);
    alea_tensor_size(v);
    alea_tensor_data(v, &length);
    uint32_t key[2];
    alea_state_key(v, key);
    alea_state_counter(v);
    alea_state_consumed(v);
    alea_type_name(v);
    alea_constructor(v);
    for (size_t i = 0; i < alea_length(v) + 1; ++i) {
      alea_element(v, i);
      alea_field_name(v, i);
    }
  }

  // The host's state operations on `v`, which may be no state.
  void StateOps(alea_value v) {
    alea_value a, b;
    alea_value many[3];
    alea_error* e = nullptr;
    alea_code c = ALEA_OK;
    switch (in_.Below(4)) {
      case 0:
        c = alea_state_split(v, &a, &b, &e);
        break;
      case 1:
        c = alea_state_next(v, &a, &b, &e);
        break;
      case 2:
        c = alea_state_fold_in(v, static_cast<uint32_t>(in_.U64()), &a, &e);
        b = alea_unit();
        break;
      default:
        c = alea_state_split_n(v, 3, many, &e);
        if (c == ALEA_OK) {
          for (alea_value s : many) Keep(s);
        }
        a = b = alea_unit();
        break;
    }
    alea_error_free(e);
    if (c == ALEA_OK) {
      Keep(a);
      Keep(b);
    }
  }

 private:
  alea_value Keep(alea_value v) {
    made_.push_back(v);
    return v;
  }
  const char* Name() { return kNames[in_.Below(sizeof kNames / sizeof kNames[0])]; }

  FuzzInput& in_;
  std::vector<alea_value> made_;
};

// The host function: returns whatever the input says, right or wrong.
struct HostState {
  FuzzInput* in;
  Values* values;
};
alea_code HostAny(alea_host_call* call, const alea_value*, size_t, alea_value* result) {
  auto* state = static_cast<HostState*>(alea_host_user(call));
  if (state->in->Below(6) == 0) return alea_host_fail(call, "the host fails");
  // The VM takes the result: hand it a reference of its own.
  *result = alea_retain(state->values->Any());
  return ALEA_OK;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static alea_module* const kModule = [] {
    alea_module* m = nullptr;
    if (alea_compile(kSource, sizeof kSource - 1, "capi_fuzzer.alea", nullptr, &m, nullptr) !=
        ALEA_OK) {
      __builtin_trap();  // the fixed source compiles
    }
    return m;
  }();
  FuzzInput in(data, size);
  Values values(in);
  alea_config config;
  alea_config_init(&config);
  config.max_instructions = 50'000;
  config.max_heap_bytes = 2 << 20;
  config.max_call_depth = 200;
  config.output = [](void*, const char*, size_t) {};
  alea_vm* vm = alea_vm_new(&config);
  HostState host{&in, &values};
  alea_host_function f;
  alea_host_function_init(&f);
  f.name = "host_any";
  f.signature = in.Bool() ? "(Int) -> (Str, [Float])" : nullptr;
  f.fn = HostAny;
  f.user = &host;
  alea_vm_register_function(vm, &f, nullptr);
  if (in.Below(8) != 0) alea_vm_register_value(vm, "host_bias", values.Any(), nullptr);
  alea_error* e = nullptr;
  if (alea_vm_load(vm, kModule, &e) != ALEA_OK) {
    alea_error_free(e);
    e = nullptr;
    alea_vm_register_value(vm, "host_bias", alea_int(1), nullptr);
    alea_vm_load(vm, kModule, nullptr);
  }
  while (!in.empty()) {
    switch (in.Below(4)) {
      case 0:
        values.Read(values.Any());
        break;
      case 1:
        values.StateOps(values.Any());
        break;
      default: {
        alea_function* fn = nullptr;
        const char* name = kFunctions[in.Below(sizeof kFunctions / sizeof kFunctions[0])];
        if (alea_vm_find(vm, name, &fn, &e) != ALEA_OK) {
          alea_error_free(e);
          e = nullptr;
          break;
        }
        std::vector<alea_value> args;
        const size_t n = alea_function_arity(fn) + (in.Below(8) == 0 ? in.Below(3) : 0) -
                         (in.Below(8) == 0 && alea_function_arity(fn) > 0 ? 1 : 0);
        for (size_t i = 0; i < n; ++i) args.push_back(values.Any());
        alea_value result;
        static float out[64];
        const alea_code c = in.Below(4) == 0
                                ? alea_call_into(vm, fn, args.data(), args.size(), out,
                                                 in.Below(65) * 4, &result, &e)
                                : alea_call(vm, fn, args.data(), args.size(), &result, &e);
        if (c == ALEA_OK) {
          values.Read(result);
          alea_release(result);
        } else {
          alea_error_message(e);
          alea_error_line(e);
          alea_error_free(e);
          e = nullptr;
        }
        break;
      }
    }
  }
  alea_vm_free(vm);
  return 0;
}
