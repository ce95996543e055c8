// The C API (include/alea/alea.h): values both ways, the whole-list check,
// states the host splits, errors with their location, host functions and
// values, import hooks, limits.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "alea/alea.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kSource[] = R"(let offset = 0.5

type Params = { mu: Float, sigma: Float }
type Shape = Circle(Float) | Rect(Float, Float) | Dot

fn add(a: Int, b: Int) -> Int = a + b
fn half(x: Float) -> Float = x / 2.0 + offset - offset
fn negate(b: Bool) -> Bool = !b
fn greet(name: Str) -> Str = "hello, " + name
fn say(x: Int) = print(x)
fn scale(x: Tensor, k: Float) -> Tensor = x * k
fn ints(x: Tensor(i32)) -> Tensor(i32) = x + 1
fn mask(x: Tensor) -> Tensor(bool) = x > 0.0
fn draw(s: RandState) -> Tensor = normal(s, [4])
fn two(a: RandState, b: RandState) -> Float = item(sum(uniform(a, [2]))) + item(sum(uniform(b, [2])))
fn state_and(s: RandState, x: Int) -> Int = x + int(item(sum(uniform(s, [1]))))
fn fork(s: RandState) -> RandState = fold_in(s, 7)
fn halves(s: RandState) -> (RandState, RandState) = split(s)
fn noisy(x: Tensor) -> Tensor uses rng = x + normal(shape(x)) * 0.0
fn swap(p: (Int, Str)) -> (Str, Int) = { let (a, b) = p; (b, a) }
fn lengths(xs: [Str]) -> [Int] = map(xs, |s| len(s))
fn moved(p: Params) -> Params = Params { mu: p.mu + 1.0, ..p }
fn area(s: Shape) -> Float = match s {
  Circle(r) => 3.0 * r * r,
  Rect(w, h) => w * h,
  Dot => 0.0,
}
fn grow(s: Shape) -> Shape = match s {
  Circle(r) => Circle(r * 2.0),
  Rect(w, h) => Rect(h, w),
  Dot => Dot,
}
fn find(xs: [Int], i: Int) -> Option(Int) = get(xs, i)
fn apply(f: (Int) -> Int, x: Int) -> Int = f(x)
fn div(a: Int, b: Int) -> Int = a / b
fn spin(n: Int) -> Int = if n == 0 { 0 } else { spin(n - 1) }
)";

// An output sink (alea_output_fn) that appends to the std::string `user`.
void AppendTo(void* user, const char* text, size_t length) {
  static_cast<std::string*>(user)->append(text, length);
}

// The message of `e`, freed.
std::string Take(alea_error* e) {
  std::string message = e == nullptr ? "" : alea_error_message(e);
  alea_error_free(e);
  return message;
}

class CApi : public ::testing::Test {
 protected:
  void SetUp() override {
    alea_error* e = nullptr;
    ASSERT_EQ(alea_compile(kSource, std::strlen(kSource), "capi.alea", nullptr, &module_, &e),
              ALEA_OK)
        << Take(e);
    vm_ = alea_vm_new(nullptr);
    ASSERT_EQ(alea_vm_load(vm_, module_, &e), ALEA_OK) << Take(e);
  }
  void TearDown() override {
    alea_vm_free(vm_);
    alea_module_release(module_);
  }
  alea_function* Find(const char* name) {
    alea_function* f = nullptr;
    alea_error* e = nullptr;
    EXPECT_EQ(alea_vm_find(vm_, name, &f, &e), ALEA_OK) << Take(e);
    return f;
  }
  // Calls `name`; the result, or Unit with the failure in `error_`.
  alea_value Call(const char* name, std::vector<alea_value> args) {
    alea_value r = alea_unit();
    alea_error* e = nullptr;
    code_ = alea_call(vm_, Find(name), args.data(), args.size(), &r, &e);
    error_ = Take(e);
    return r;
  }
  alea_module* module_ = nullptr;
  alea_vm* vm_ = nullptr;
  alea_code code_ = ALEA_OK;
  std::string error_;
};

TEST(CApiVersion, HeaderAndLibraryAgree) {
  EXPECT_EQ(alea_version(), ALEA_VERSION_NUMBER);
  EXPECT_EQ(std::string(alea_version_string()), std::to_string(ALEA_VERSION_MAJOR) + "." +
                                                    std::to_string(ALEA_VERSION_MINOR) + "." +
                                                    std::to_string(ALEA_VERSION_PATCH));
}

TEST(CApiCompile, ErrorsCarryTheDiagnosticAndItsPlace) {
  const char* src = "fn f() -> Int =\n  1 + true\n";
  alea_module* m = nullptr;
  alea_error* e = nullptr;
  ASSERT_EQ(alea_compile(src, std::strlen(src), "bad.alea", nullptr, &m, &e),
            ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(m, nullptr);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(alea_error_code(e), ALEA_INVALID_ARGUMENT);
  EXPECT_THAT(alea_error_message(e), StartsWith("bad.alea:2:"));
  EXPECT_THAT(alea_error_message(e), HasSubstr("error:"));
  EXPECT_EQ(std::string(alea_error_file(e)), "bad.alea");
  EXPECT_EQ(alea_error_line(e), 2);
  EXPECT_GT(alea_error_column(e), 0);
  alea_error_free(e);
  // A NULL error pointer drops the error; the code still says it.
  EXPECT_EQ(alea_compile(src, std::strlen(src), "bad.alea", nullptr, &m, nullptr),
            ALEA_INVALID_ARGUMENT);
}

TEST_F(CApi, Scalars) {
  alea_value r = Call("add", {alea_int(40), alea_int(2)});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  EXPECT_EQ(r.kind, ALEA_INT);
  EXPECT_EQ(r.as.i, 42);
  r = Call("half", {alea_float(3.0)});
  EXPECT_EQ(r.kind, ALEA_FLOAT);
  EXPECT_EQ(r.as.f, 1.5);
  r = Call("negate", {alea_bool(1)});
  EXPECT_EQ(r.kind, ALEA_BOOL);
  EXPECT_EQ(r.as.b, 0);
  EXPECT_EQ(std::string(alea_function_signature(Find("add"))), "(Int, Int) -> Int");
  EXPECT_EQ(alea_function_arity(Find("add")), 2u);
  EXPECT_EQ(alea_function_param_kind(Find("half"), 0), ALEA_FLOAT);
  EXPECT_EQ(alea_function_param_kind(Find("half"), 1), ALEA_UNIT);
  EXPECT_EQ(alea_function_result_kind(Find("negate")), ALEA_BOOL);
}

TEST_F(CApi, Strings) {
  alea_value name = alea_str("alea", 4);
  alea_value r = Call("greet", {name});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  size_t length = 0;
  EXPECT_EQ(std::string(alea_str_data(r, &length)), "hello, alea");
  EXPECT_EQ(length, 11u);
  alea_release(r);
  alea_release(name);
}

TEST_F(CApi, OutputGoesToTheSink) {
  std::string out;
  alea_config config;
  alea_config_init(&config);
  config.output = AppendTo;
  config.output_user = &out;
  alea_vm* vm = alea_vm_new(&config);
  ASSERT_EQ(alea_vm_load(vm, module_, nullptr), ALEA_OK);
  alea_function* say = nullptr;
  ASSERT_EQ(alea_vm_find(vm, "say", &say, nullptr), ALEA_OK);
  alea_value arg = alea_int(7), r;
  ASSERT_EQ(alea_call(vm, say, &arg, 1, &r, nullptr), ALEA_OK);
  EXPECT_EQ(r.kind, ALEA_UNIT);
  EXPECT_EQ(out, "7\n");
  alea_vm_free(vm);
}

TEST_F(CApi, TensorsCopiedAndViewed) {
  const float data[6] = {1, 2, 3, 4, 5, 6};
  const int64_t shape[2] = {2, 3};
  alea_value copy, view;
  ASSERT_EQ(alea_tensor_copy(ALEA_F32, shape, 2, data, sizeof data, &copy, nullptr), ALEA_OK);
  int released = 0;
  ASSERT_EQ(alea_tensor_view(
                ALEA_F32, shape, 2, data, sizeof data,
                [](void* context) { ++*static_cast<int*>(context); }, &released, &view, nullptr),
            ALEA_OK);
  for (alea_value x : {copy, view}) {
    alea_value r = Call("scale", {x, alea_float(2.0)});
    ASSERT_EQ(code_, ALEA_OK) << error_;
    ASSERT_EQ(alea_tensor_ndim(r), 2);
    EXPECT_EQ(alea_tensor_shape(r)[0], 2);
    EXPECT_EQ(alea_tensor_shape(r)[1], 3);
    EXPECT_EQ(alea_tensor_dtype(r), ALEA_F32);
    size_t bytes = 0;
    const auto* out = static_cast<const float*>(alea_tensor_data(r, &bytes));
    EXPECT_EQ(bytes, sizeof data);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(out) % 64, 0u);
    EXPECT_EQ(out[5], 12.0f);
    alea_release(r);
  }
  EXPECT_EQ(data[5], 6.0f);  // the view was read, never written
  alea_release(copy);
  EXPECT_EQ(released, 0);
  alea_release(view);
  EXPECT_EQ(released, 1);
}

TEST_F(CApi, EveryDType) {
  const int32_t i[3] = {1, -2, 3};
  const int64_t shape[1] = {3};
  alea_value x;
  ASSERT_EQ(alea_tensor_copy(ALEA_I32, shape, 1, i, sizeof i, &x, nullptr), ALEA_OK);
  alea_value r = Call("ints", {x});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  EXPECT_EQ(alea_tensor_dtype(r), ALEA_I32);
  EXPECT_EQ(static_cast<const int32_t*>(alea_tensor_data(r, nullptr))[1], -1);
  alea_release(r);
  // An f32 tensor where Tensor(i32) is taken: refused, naming both.
  const float f[3] = {1, -2, 3};
  alea_value y;
  ASSERT_EQ(alea_tensor_copy(ALEA_F32, shape, 1, f, sizeof f, &y, nullptr), ALEA_OK);
  Call("ints", {y});
  EXPECT_EQ(code_, ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(error_, "argument 1 is Tensor(f32), Tensor(i32) was expected (calling `ints`)");
  r = Call("mask", {y});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  EXPECT_EQ(alea_tensor_dtype(r), ALEA_BOOL8);
  const auto* b = static_cast<const unsigned char*>(alea_tensor_data(r, nullptr));
  EXPECT_EQ(b[0] + 2 * b[1] + 4 * b[2], 5);
  alea_release(r);
  alea_release(x);
  alea_release(y);
}

TEST(CApiTensor, ShapesAreCheckedAgainstTheBuffer) {
  const float data[4] = {};
  const int64_t shape[2] = {2, 3};
  alea_value t;
  alea_error* e = nullptr;
  EXPECT_EQ(alea_tensor_copy(ALEA_F32, shape, 2, data, sizeof data, &t, &e), ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(Take(e), "a tensor of shape (2, 3) and dtype f32 holds 24 bytes, not 16");
  const int64_t negative[1] = {-1};
  EXPECT_EQ(alea_tensor_view(ALEA_F32, negative, 1, data, 0, nullptr, nullptr, &t, &e),
            ALEA_INVALID_ARGUMENT);
  EXPECT_THAT(Take(e), HasSubstr("no tensor's"));
  const int64_t huge[2] = {int64_t{1} << 40, int64_t{1} << 40};
  EXPECT_EQ(alea_tensor_view(ALEA_F32, huge, 2, data, 16, nullptr, nullptr, &t, &e),
            ALEA_INVALID_ARGUMENT);
  Take(e);
  const unsigned char bools[2] = {1, 2};
  const int64_t two[1] = {2};
  EXPECT_EQ(alea_tensor_copy(ALEA_BOOL8, two, 1, bools, 2, &t, &e), ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(Take(e), "element 1 of a bool tensor is 2, not 0 or 1");
  EXPECT_EQ(alea_tensor_view(ALEA_F32, two, 1, reinterpret_cast<const char*>(data) + 1, 8, nullptr,
                             nullptr, &t, &e),
            ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(Take(e), "tensor data must be aligned to 4 bytes");
  // A 0-d tensor holds one element.
  ASSERT_EQ(alea_tensor_copy(ALEA_F32, nullptr, 0, data, 4, &t, nullptr), ALEA_OK);
  EXPECT_EQ(alea_tensor_size(t), 1);
  alea_release(t);
}

TEST_F(CApi, ATensorResultIntoAHostBuffer) {
  const float data[3] = {1, 2, 3};
  const int64_t shape[1] = {3};
  alea_value x, r;
  ASSERT_EQ(alea_tensor_view(ALEA_F32, shape, 1, data, sizeof data, nullptr, nullptr, &x, nullptr),
            ALEA_OK);
  alea_value args[2] = {x, alea_float(10.0)};
  float out[4] = {0, 0, 0, -1};
  alea_error* e = nullptr;
  ASSERT_EQ(alea_call_into(vm_, Find("scale"), args, 2, out, sizeof out, &r, &e), ALEA_OK)
      << Take(e);
  EXPECT_EQ(alea_tensor_data(r, nullptr), static_cast<const void*>(out));
  EXPECT_EQ(alea_tensor_shape(r)[0], 3);
  EXPECT_EQ(out[2], 30.0f);
  EXPECT_EQ(out[3], -1.0f);
  alea_release(r);
  EXPECT_EQ(alea_call_into(vm_, Find("scale"), args, 2, out, 8, &r, &e), ALEA_OUT_OF_RANGE);
  EXPECT_EQ(Take(e), "the result of `scale` has shape (3,) (12 bytes), more than the buffer's 8");
  alea_value ints[2] = {alea_int(1), alea_int(2)};
  EXPECT_EQ(alea_call_into(vm_, Find("add"), ints, 2, out, 8, &r, &e), ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(Take(e), "`add` does not return a Tensor: (Int, Int) -> Int");
  EXPECT_EQ(alea_call_into(vm_, Find("scale"), args, 2, nullptr, 0, &r, &e), ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(Take(e), "no buffer for the result");
  EXPECT_EQ(
      alea_call_into(vm_, Find("scale"), args, 2, reinterpret_cast<char*>(out) + 1, 12, &r, &e),
      ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(Take(e), "the result buffer must be aligned to 4 bytes");
  alea_release(x);
}

TEST_F(CApi, StatesMatchTheLanguageAndAreUsedOnce) {
  // fold_in(key(42), 7) on the host equals `fork(key(42))` in Alea.
  alea_value host = alea_state_from_seed(42), folded;
  ASSERT_EQ(alea_state_fold_in(host, 7, &folded, nullptr), ALEA_OK);
  EXPECT_TRUE(alea_state_consumed(host));
  alea_value s = alea_state_from_seed(42);
  alea_value r = Call("fork", {s});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  uint32_t a[2], b[2];
  alea_state_key(folded, a);
  alea_state_key(r, b);
  EXPECT_EQ(a[0], b[0]);
  EXPECT_EQ(a[1], b[1]);
  // JAX's published fold_in(key(0), 4).
  alea_value zero = alea_state_from_seed(0), four;
  ASSERT_EQ(alea_state_fold_in(zero, 4, &four, nullptr), ALEA_OK);
  alea_state_key(four, a);
  EXPECT_EQ(a[0], 2285895361u);
  EXPECT_EQ(a[1], 433833334u);
  // Passing s again: the VM's error, nothing runs.
  Call("fork", {s});
  EXPECT_EQ(code_, ALEA_ABORTED);
  EXPECT_THAT(error_, HasSubstr("a RandState is used twice"));
  alea_error* e = nullptr;
  alea_value x, y;
  EXPECT_EQ(alea_state_split(host, &x, &y, &e), ALEA_ABORTED);
  EXPECT_THAT(Take(e), HasSubstr("a RandState is used twice"));
  // split on the host equals split in Alea; next is fold_in of the counter.
  alea_value h = alea_state_from_seed(3), s3 = alea_state_from_seed(3), h1, h2;
  ASSERT_EQ(alea_state_split(h, &h1, &h2, nullptr), ALEA_OK);
  alea_value pair = Call("halves", {s3});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  ASSERT_EQ(pair.kind, ALEA_TUPLE);
  alea_state_key(h2, a);
  alea_state_key(alea_element(pair, 1), b);
  EXPECT_EQ(a[0], b[0]);
  EXPECT_EQ(a[1], b[1]);
  alea_value n = alea_state_from_seed(5), sub, rest, sub2, rest2, f1;
  ASSERT_EQ(alea_state_next(n, &sub, &rest, nullptr), ALEA_OK);
  ASSERT_EQ(alea_state_next(rest, &sub2, &rest2, nullptr), ALEA_OK);
  EXPECT_EQ(alea_state_counter(rest2), 2u);
  alea_value five = alea_state_from_seed(5);
  ASSERT_EQ(alea_state_fold_in(five, 1, &f1, nullptr), ALEA_OK);
  alea_state_key(sub2, a);
  alea_state_key(f1, b);
  EXPECT_EQ(a[0], b[0]);
  EXPECT_EQ(a[1], b[1]);
  alea_value many[3];
  alea_value from_key = alea_state_from_key(a[0], a[1]);
  ASSERT_EQ(alea_state_split_n(from_key, 3, many, nullptr), ALEA_OK);
  for (alea_value v :
       {host, folded, s,    r,    zero,  four, h,    s3,       h1,      h2,      pair,
        n,    sub,    rest, sub2, rest2, f1,   five, from_key, many[0], many[1], many[2]}) {
    alea_release(v);
  }
}

TEST_F(CApi, TheArgumentListIsCheckedWholeBeforeAnythingIsConsumed) {
  alea_value s = alea_state_from_seed(1);
  // The state is fine, the Int is not: the state stays unconsumed.
  Call("state_and", {s, alea_float(1.0)});
  EXPECT_EQ(code_, ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(error_, "argument 2 is Float, Int was expected (calling `state_and`)");
  EXPECT_FALSE(alea_state_consumed(s));
  // One state given twice in one list.
  Call("two", {s, s});
  EXPECT_EQ(code_, ALEA_ABORTED);
  EXPECT_THAT(error_, HasSubstr("a RandState is used twice"));
  EXPECT_FALSE(alea_state_consumed(s));
  // Too few arguments.
  Call("two", {s});
  EXPECT_EQ(code_, ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(error_, "`two` takes 2 arguments, not 1: (RandState, RandState) -> Float");
  alea_value r = Call("state_and", {s, alea_int(1)});
  EXPECT_EQ(code_, ALEA_OK) << error_;
  EXPECT_EQ(r.as.i, 1);
  EXPECT_TRUE(alea_state_consumed(s));
  alea_release(s);
}

TEST_F(CApi, AUsesRngFunctionTakesItsStreamLast) {
  EXPECT_EQ(std::string(alea_function_signature(Find("noisy"))),
            "(Tensor(f32), RandState) -> Tensor(f32)");
  const float data[2] = {1, 2};
  const int64_t shape[1] = {2};
  alea_value x;
  ASSERT_EQ(alea_tensor_copy(ALEA_F32, shape, 1, data, sizeof data, &x, nullptr), ALEA_OK);
  alea_value s = alea_state_from_seed(0);
  alea_value r = Call("noisy", {x, s});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  EXPECT_EQ(static_cast<const float*>(alea_tensor_data(r, nullptr))[1], 2.0f);
  for (alea_value v : {x, s, r}) alea_release(v);
}

TEST_F(CApi, TuplesAndArraysBothWays) {
  alea_value parts[2] = {alea_int(1), alea_str("one", 3)};
  alea_value pair;
  ASSERT_EQ(alea_tuple(parts, 2, &pair, nullptr), ALEA_OK);
  alea_release(parts[1]);  // the tuple holds its own reference
  alea_value r = Call("swap", {pair});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  char type[64];
  alea_describe(r, type, sizeof type);
  EXPECT_EQ(std::string(type), "(Str, Int)");
  EXPECT_EQ(std::string(alea_str_data(alea_element(r, 0), nullptr)), "one");
  EXPECT_EQ(alea_element(r, 1).as.i, 1);
  alea_release(r);
  alea_release(pair);

  std::vector<alea_value> words = {alea_str("a", 1), alea_str("bcd", 3)};
  alea_value xs;
  ASSERT_EQ(alea_array(words.data(), words.size(), &xs, nullptr), ALEA_OK);
  r = Call("lengths", {xs});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  ASSERT_EQ(alea_length(r), 2u);
  EXPECT_EQ(alea_element(r, 1).as.i, 3);
  alea_release(r);
  alea_release(xs);
  // An empty array fits any array type.
  ASSERT_EQ(alea_array(nullptr, 0, &xs, nullptr), ALEA_OK);
  r = Call("lengths", {xs});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  EXPECT_EQ(alea_length(r), 0u);
  alea_release(r);
  alea_release(xs);
  // An element of another type, named by its place.
  words.push_back(alea_int(5));
  ASSERT_EQ(alea_array(words.data(), words.size(), &xs, nullptr), ALEA_OK);
  Call("lengths", {xs});
  EXPECT_EQ(code_, ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(error_, "element 3 of argument 1 is Int, Str was expected (calling `lengths`)");
  alea_release(xs);
  for (alea_value w : words) alea_release(w);
  alea_error* e = nullptr;
  EXPECT_EQ(alea_tuple(parts, 1, &pair, &e), ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(Take(e), "a tuple has 2 or more elements, not 1");
}

TEST_F(CApi, RecordsAndVariantsBothWays) {
  const char* names[2] = {"sigma", "mu"};  // any order
  alea_value fields[2] = {alea_float(2.0), alea_float(1.0)};
  alea_value p;
  ASSERT_EQ(alea_record("Params", names, fields, 2, &p, nullptr), ALEA_OK);
  alea_value r = Call("moved", {p});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  EXPECT_EQ(r.kind, ALEA_RECORD);
  EXPECT_EQ(std::string(alea_type_name(r)), "Params");
  EXPECT_EQ(std::string(alea_field_name(r, 0)), "mu");  // declaration order
  EXPECT_EQ(alea_element(r, 0).as.f, 2.0);
  EXPECT_EQ(alea_element(r, 1).as.f, 2.0);
  alea_release(r);
  alea_release(p);

  alea_value wh[2] = {alea_float(2.0), alea_float(3.0)};
  alea_value rect, dot;
  ASSERT_EQ(alea_variant("Shape", "Rect", wh, 2, &rect, nullptr), ALEA_OK);
  ASSERT_EQ(alea_variant("Shape", "Dot", nullptr, 0, &dot, nullptr), ALEA_OK);
  r = Call("area", {rect});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  EXPECT_EQ(r.as.f, 6.0);
  r = Call("grow", {rect});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  EXPECT_EQ(std::string(alea_constructor(r)), "Rect");
  EXPECT_EQ(alea_element(r, 0).as.f, 3.0);
  alea_release(r);
  r = Call("grow", {dot});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  EXPECT_EQ(std::string(alea_constructor(r)), "Dot");
  EXPECT_EQ(alea_length(r), 0u);
  alea_release(r);

  // Option(Int) back from Alea.
  alea_value items[3] = {alea_int(5), alea_int(6), alea_int(7)}, xs;
  ASSERT_EQ(alea_array(items, 3, &xs, nullptr), ALEA_OK);
  r = Call("find", {xs, alea_int(2)});
  ASSERT_EQ(code_, ALEA_OK) << error_;
  EXPECT_EQ(std::string(alea_type_name(r)), "Option(Int)");
  EXPECT_EQ(std::string(alea_constructor(r)), "Some");
  EXPECT_EQ(alea_element(r, 0).as.i, 7);
  alea_release(r);
  r = Call("find", {xs, alea_int(3)});
  EXPECT_EQ(std::string(alea_constructor(r)), "None");
  alea_release(r);
  alea_release(xs);

  // Errors name the field.
  alea_value bad;
  ASSERT_EQ(alea_variant("Shape", "Rect", fields, 1, &bad, nullptr), ALEA_OK);
  Call("area", {bad});
  EXPECT_EQ(error_, "argument 1: `Rect` takes 2 fields, not 1 (calling `area`)");
  alea_release(bad);
  ASSERT_EQ(alea_variant("Shape", "Square", nullptr, 0, &bad, nullptr), ALEA_OK);
  Call("area", {bad});
  EXPECT_EQ(error_,
            "argument 1 has constructor `Square`, which `Shape` does not have (calling `area`)");
  alea_release(bad);
  alea_value s = alea_str("x", 1);
  alea_value wrong[2] = {alea_float(1.0), s};
  const char* mu_sigma[2] = {"mu", "sigma"};
  ASSERT_EQ(alea_record("Params", mu_sigma, wrong, 2, &bad, nullptr), ALEA_OK);
  Call("moved", {bad});
  EXPECT_EQ(error_, "field `sigma` of argument 1 is Str, Float was expected (calling `moved`)");
  alea_release(bad);
  alea_release(s);
  ASSERT_EQ(alea_record("Other", mu_sigma, fields, 2, &bad, nullptr), ALEA_OK);
  Call("moved", {bad});
  EXPECT_EQ(error_, "argument 1 is Other, Params was expected (calling `moved`)");
  alea_release(bad);
  alea_release(rect);
  alea_release(dot);
}

TEST_F(CApi, RunTimeErrorsAreTheDiagnosticWithItsPlace) {
  alea_value args[2] = {alea_int(1), alea_int(0)};
  alea_value r;
  alea_error* e = nullptr;
  ASSERT_EQ(alea_call(vm_, Find("div"), args, 2, &r, &e), ALEA_ABORTED);
  EXPECT_THAT(alea_error_message(e), StartsWith("capi.alea:"));
  EXPECT_THAT(alea_error_message(e), HasSubstr("division by zero"));
  EXPECT_EQ(std::string(alea_error_file(e)), "capi.alea");
  EXPECT_GT(alea_error_line(e), 1);
  alea_error_free(e);
  // The VM takes the next call.
  r = Call("add", {alea_int(1), alea_int(1)});
  EXPECT_EQ(r.as.i, 2);
}

TEST_F(CApi, LookUps) {
  alea_function* f = nullptr;
  alea_error* e = nullptr;
  EXPECT_EQ(alea_vm_find(vm_, "nope", &f, &e), ALEA_NOT_FOUND);
  EXPECT_EQ(Take(e), "no function `nope` in the module");
  EXPECT_EQ(alea_vm_find(vm_, "apply", &f, &e), ALEA_INVALID_ARGUMENT);
  EXPECT_THAT(Take(e), HasSubstr("takes or returns a function"));
  EXPECT_EQ(Find("add"), Find("add"));  // one handle a name
  bool saw_add = false;
  for (size_t i = 0; i < alea_module_function_count(module_); ++i) {
    saw_add |= std::string(alea_module_function_name(module_, i)) == "add";
  }
  EXPECT_TRUE(saw_add);
}

TEST_F(CApi, AFunctionOfAnEarlierLoadIsRefused) {
  alea_function* add = Find("add");
  ASSERT_EQ(alea_vm_load(vm_, module_, nullptr), ALEA_OK);
  alea_value args[2] = {alea_int(1), alea_int(2)}, r;
  alea_error* e = nullptr;
  EXPECT_EQ(alea_call(vm_, add, args, 2, &r, &e), ALEA_FAILED_PRECONDITION);
  EXPECT_EQ(Take(e), "`add` belongs to no module loaded in this VM");
  alea_function* again = Find("add");
  EXPECT_NE(again, add);
  EXPECT_EQ(alea_call(vm_, again, args, 2, &r, nullptr), ALEA_OK);
}

TEST_F(CApi, LimitsAndInterrupt) {
  alea_config config;
  alea_config_init(&config);
  config.max_instructions = 10'000;
  alea_vm* vm = alea_vm_new(&config);
  ASSERT_EQ(alea_vm_load(vm, module_, nullptr), ALEA_OK);
  alea_function* spin = nullptr;
  ASSERT_EQ(alea_vm_find(vm, "spin", &spin, nullptr), ALEA_OK);
  alea_value n = alea_int(1'000'000), r;
  alea_error* e = nullptr;
  EXPECT_EQ(alea_call(vm, spin, &n, 1, &r, &e), ALEA_RESOURCE_EXHAUSTED);
  EXPECT_THAT(Take(e), HasSubstr("instruction"));
  alea_vm_interrupt(vm);
  n = alea_int(10);
  EXPECT_EQ(alea_call(vm, spin, &n, 1, &r, &e), ALEA_CANCELLED);
  Take(e);
  EXPECT_EQ(alea_call(vm, spin, &n, 1, &r, nullptr), ALEA_OK);
  alea_stats stats;
  alea_vm_stats(vm, &stats);
  EXPECT_GT(stats.instructions, 10'000u);
  EXPECT_GE(stats.calls, 1u);
  alea_vm_free(vm);
}

TEST(CApiModule, BytesRoundTripWithoutTheCompiler) {
  const char* src = "fn twice(x: Int) -> Int = 2 * x\n";
  alea_module* m = nullptr;
  ASSERT_EQ(alea_compile(src, std::strlen(src), "twice.alea", nullptr, &m, nullptr), ALEA_OK);
  size_t length = 0;
  void* bytes = alea_module_to_bytes(m, &length);
  ASSERT_NE(bytes, nullptr);
  alea_module* back = nullptr;
  ASSERT_EQ(alea_module_from_bytes(bytes, length, &back, nullptr), ALEA_OK);
  alea_error* e = nullptr;
  EXPECT_EQ(alea_module_from_bytes(bytes, length / 2, &m, &e), ALEA_INVALID_ARGUMENT);
  EXPECT_THAT(Take(e), StartsWith("malformed module: byte "));
  alea_free(bytes);
  alea_vm* vm = alea_vm_new(nullptr);
  ASSERT_EQ(alea_vm_load(vm, back, nullptr), ALEA_OK);
  alea_module_release(back);  // the VM keeps what it needs
  alea_function* twice = nullptr;
  ASSERT_EQ(alea_vm_find(vm, "twice", &twice, nullptr), ALEA_OK);
  alea_value x = alea_int(21), r;
  ASSERT_EQ(alea_call(vm, twice, &x, 1, &r, nullptr), ALEA_OK);
  EXPECT_EQ(r.as.i, 42);
  alea_vm_free(vm);
  alea_module_release(m);
}

TEST(CApiModule, ImportsThroughTheHostsHook) {
  const char* src = "import \"lib.alea\"\nfn f(x: Int) -> Int = triple(x) + 1\n";
  alea_compile_options options;
  alea_compile_options_init(&options);
  std::vector<std::string> asked;
  options.import_user = &asked;
  options.import = [](void* user, const char* path, alea_import* out) -> int {
    static_cast<std::vector<std::string>*>(user)->push_back(path);
    if (std::string(path).find("lib.alea") == std::string::npos) return 2;  // ENOENT
    static const char kLib[] = "fn triple(x: Int) -> Int = 3 * x\n";
    out->text = kLib;
    out->length = sizeof kLib - 1;
    return 0;
  };
  alea_module* m = nullptr;
  alea_error* e = nullptr;
  ASSERT_EQ(alea_compile(src, std::strlen(src), "dir/main.alea", &options, &m, &e), ALEA_OK)
      << Take(e);
  EXPECT_EQ(asked, std::vector<std::string>{"dir/lib.alea"});
  alea_module_release(m);
  const char* missing = "import \"gone.alea\"\nfn f() -> Int = 1\n";
  ASSERT_EQ(alea_compile(missing, std::strlen(missing), "main.alea", &options, &m, &e),
            ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(alea_error_line(e), 1);
  EXPECT_THAT(Take(e), HasSubstr("No such file or directory"));
}

// A host function: the sum of its two Floats, failing on a negative one,
// counting its calls per site.
alea_code HostAdd(alea_host_call* call, const alea_value* args, size_t count, alea_value* result) {
  if (count != 2) return alea_host_fail(call, "wrong count");
  if (args[0].as.f < 0) return alea_host_fail(call, "negative");
  void** site = alea_host_site_data(call);
  if (*site == nullptr) *site = new int(0);
  ++*static_cast<int*>(*site);
  ++*static_cast<int*>(alea_host_user(call));
  *result = alea_float(args[0].as.f + args[1].as.f);
  return ALEA_OK;
}

TEST(CApiHost, FunctionsAndValues) {
  const char* src = R"(extern fn hadd(a: Float, b: Float) -> Float
extern let base: Float
extern fn label(x: Int) -> Str
fn run(x: Float) -> Float = hadd(x, base) + hadd(1.0, 1.0)
fn name(x: Int) -> Str = label(x)
)";
  alea_module* m = nullptr;
  alea_error* e = nullptr;
  ASSERT_EQ(alea_compile(src, std::strlen(src), "host.alea", nullptr, &m, &e), ALEA_OK) << Take(e);
  alea_vm* vm = alea_vm_new(nullptr);
  // Nothing registered: the load says which.
  EXPECT_EQ(alea_vm_load(vm, m, &e), ALEA_NOT_FOUND);
  EXPECT_EQ(Take(e),
            "the program declares `extern fn hadd` and the host provides no such function");
  int calls = 0;
  static int freed_sites = 0;
  alea_host_function f;
  alea_host_function_init(&f);
  f.name = "hadd";
  f.signature = "(Float, Float) -> Int";
  f.fn = HostAdd;
  f.user = &calls;
  f.free_site_data = [](void* data) {
    ++freed_sites;
    delete static_cast<int*>(data);
  };
  alea_host_function nameless;
  alea_host_function_init(&nameless);
  EXPECT_EQ(alea_vm_register_function(vm, &nameless, &e), ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(Take(e), "a host function needs a name and a function");
  alea_value not_a_value;
  not_a_value.kind = ALEA_STR;
  not_a_value.as.object = nullptr;
  EXPECT_EQ(alea_vm_register_value(vm, "base", not_a_value, &e), ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(Take(e), "a value needs a name and a value");
  ASSERT_EQ(alea_vm_register_function(vm, &f, nullptr), ALEA_OK);
  EXPECT_EQ(alea_vm_load(vm, m, &e), ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(Take(e),
            "`extern fn hadd` is declared (Float, Float) -> Float, the host registered (Float, "
            "Float) -> Int");
  f.signature = "(Float,Float)->Float";  // spaces do not matter
  ASSERT_EQ(alea_vm_register_function(vm, &f, nullptr), ALEA_OK);
  alea_host_function g;
  alea_host_function_init(&g);
  g.name = "label";
  g.fn = [](alea_host_call*, const alea_value*, size_t, alea_value* result) -> alea_code {
    *result = alea_array(nullptr, 0, result, nullptr) == ALEA_OK ? *result : alea_unit();
    return ALEA_OK;  // an array (an object, released by the VM), not the Str declared
  };
  ASSERT_EQ(alea_vm_register_function(vm, &g, nullptr), ALEA_OK);
  EXPECT_EQ(alea_vm_load(vm, m, &e), ALEA_NOT_FOUND);
  EXPECT_EQ(Take(e),
            "the program declares `extern let base` and the host registered no such value");
  alea_value wrong = alea_str("no", 2);
  ASSERT_EQ(alea_vm_register_value(vm, "base", wrong, nullptr), ALEA_OK);
  alea_release(wrong);
  EXPECT_EQ(alea_vm_load(vm, m, &e), ALEA_INVALID_ARGUMENT);
  EXPECT_EQ(Take(e), "`extern let base` is Str, Float was expected");
  ASSERT_EQ(alea_vm_register_value(vm, "base", alea_float(10.0), nullptr), ALEA_OK);
  ASSERT_EQ(alea_vm_load(vm, m, &e), ALEA_OK) << Take(e);

  alea_function* run = nullptr;
  ASSERT_EQ(alea_vm_find(vm, "run", &run, nullptr), ALEA_OK);
  alea_value x = alea_float(1.5), r;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(alea_call(vm, run, &x, 1, &r, &e), ALEA_OK) << Take(e);
    EXPECT_EQ(r.as.f, 13.5);
  }
  EXPECT_EQ(calls, 6);
  x = alea_float(-1.0);
  ASSERT_EQ(alea_call(vm, run, &x, 1, &r, &e), ALEA_ABORTED);
  EXPECT_THAT(alea_error_message(e), HasSubstr("host function `hadd` failed: negative"));
  EXPECT_EQ(alea_error_line(e), 4);
  alea_error_free(e);

  alea_function* name = nullptr;
  ASSERT_EQ(alea_vm_find(vm, "name", &name, nullptr), ALEA_OK);
  alea_value one = alea_int(1);
  ASSERT_EQ(alea_call(vm, name, &one, 1, &r, &e), ALEA_ABORTED);
  EXPECT_THAT(Take(e), HasSubstr("host function `label` returned a [?], not the declared Str"));
  // Two sites called hadd; their data goes at the next load.
  EXPECT_EQ(freed_sites, 0);
  ASSERT_EQ(alea_vm_load(vm, m, nullptr), ALEA_OK);
  EXPECT_EQ(freed_sites, 2);
  alea_vm_free(vm);
  alea_module_release(m);
}

TEST(CApiFiles, NoneByDefault) {
  const char* src = "fn read(p: Str) -> Str = read_text(p)\n";
  alea_module* m = nullptr;
  ASSERT_EQ(alea_compile(src, std::strlen(src), "files.alea", nullptr, &m, nullptr), ALEA_OK);
  alea_vm* vm = alea_vm_new(nullptr);
  ASSERT_EQ(alea_vm_load(vm, m, nullptr), ALEA_OK);
  alea_function* read = nullptr;
  ASSERT_EQ(alea_vm_find(vm, "read", &read, nullptr), ALEA_OK);
  alea_value path = alea_str("/etc/hostname", 13), r;
  alea_error* e = nullptr;
  EXPECT_EQ(alea_call(vm, read, &path, 1, &r, &e), ALEA_ABORTED);
  EXPECT_THAT(Take(e), HasSubstr("/etc/hostname"));
  alea_release(path);
  alea_vm_free(vm);
  alea_module_release(m);
}

}  // namespace

namespace {

// A scratch file holding `text`, removed with the object.
struct ScratchFile {
  explicit ScratchFile(const std::string& name, const std::string& text)
      : path(::testing::TempDir() + name) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  ~ScratchFile() { std::remove(path.c_str()); }
  std::string path;
};

TEST(CApiProgram, FromFileThenMainAsAleaRunDoes) {
  ScratchFile file("capi_main.alea",
                   "let greeting = \"hi\"\n"
                   "fn main(args: [Str]) uses rng {\n"
                   "  print(greeting + \" \" + str(len(args)));\n"
                   "  print(uniform([1]))\n"
                   "}\n");
  alea_module* m = nullptr;
  alea_error* e = nullptr;
  ASSERT_EQ(alea_module_from_file(file.path.c_str(), nullptr, &m, &e), ALEA_OK) << Take(e);
  EXPECT_EQ(alea_module_has_main(m), 1);
  EXPECT_EQ(alea_module_main_uses_rng(m), 1);
  std::string out;
  alea_config config;
  alea_config_init(&config);
  config.output = AppendTo;
  config.output_user = &out;
  alea_vm* vm = alea_vm_new(&config);
  ASSERT_EQ(alea_vm_load(vm, m, &e), ALEA_OK) << Take(e);
  const char* args[2] = {"a", "b"};
  ASSERT_EQ(alea_vm_run_main(vm, args, 2, 0, &e), ALEA_OK) << Take(e);
  // What `alea run FILE a b` prints: the same seed, the same draw.
  EXPECT_EQ(out, "hi 2\n[0.8423141]\n");
  // A module built from the file's bytes reads the same way.
  size_t length = 0;
  void* bytes = alea_module_to_bytes(m, &length);
  ScratchFile module_file("capi_main.aleac", std::string(static_cast<char*>(bytes), length));
  alea_free(bytes);
  alea_module* again = nullptr;
  ASSERT_EQ(alea_module_from_file(module_file.path.c_str(), nullptr, &again, &e), ALEA_OK)
      << Take(e);
  EXPECT_EQ(alea_module_has_main(again), 1);
  alea_module_release(again);
  alea_vm_free(vm);
  alea_module_release(m);
}

TEST(CApiProgram, FileErrorsAreDiagnostics) {
  alea_module* m = nullptr;
  alea_error* e = nullptr;
  const std::string missing = ::testing::TempDir() + "capi_missing.alea";
  EXPECT_EQ(alea_module_from_file(missing.c_str(), nullptr, &m, &e), ALEA_NOT_FOUND);
  EXPECT_EQ(Take(e), "alea: error: cannot open `" + missing + "`: No such file or directory\n");
  // A module cut short: refused with the byte and the rule.
  const char* src = "fn main() = print(1)\n";
  ASSERT_EQ(alea_compile(src, std::strlen(src), "cut.alea", nullptr, &m, nullptr), ALEA_OK);
  size_t length = 0;
  void* bytes = alea_module_to_bytes(m, &length);
  alea_module_release(m);
  ScratchFile cut("capi_cut.aleac", std::string(static_cast<char*>(bytes), 30));
  alea_free(bytes);
  EXPECT_EQ(alea_module_from_file(cut.path.c_str(), nullptr, &m, &e), ALEA_INVALID_ARGUMENT);
  EXPECT_THAT(Take(e), HasSubstr("capi_cut.aleac` is not a valid module: byte "));
}

TEST(CApiProgram, OptionsForAProgramRatherThanALibrary) {
  const char* src = "fn add(a: Int, b: Int) -> Int = a + b\nfn main() = print(add(1, 2))\n";
  alea_compile_options options;
  alea_compile_options_init(&options);
  options.main_only = 1;
  alea_module* m = nullptr;
  ASSERT_EQ(alea_compile(src, std::strlen(src), "prog.alea", &options, &m, nullptr), ALEA_OK);
  EXPECT_EQ(alea_module_function_count(m), 0u);  // nothing to call by name
  alea_module_release(m);
  const char* ext = "extern fn twice(x: Int) -> Int\nfn main() = print(twice(2))\n";
  options.no_host = 1;
  alea_error* e = nullptr;
  EXPECT_EQ(alea_compile(ext, std::strlen(ext), "ext.alea", &options, &m, &e),
            ALEA_INVALID_ARGUMENT);
  EXPECT_THAT(Take(e), HasSubstr("provided by a host application"));
  // Warnings of a compile that succeeds go to the callback.
  const char* warn = "fn main() = match 1 { _ => print(1), 2 => print(2) }\n";
  std::string warnings;
  options.warnings = AppendTo;
  options.warnings_user = &warnings;
  ASSERT_EQ(alea_compile(warn, std::strlen(warn), "warn.alea", &options, &m, &e), ALEA_OK)
      << Take(e);
  EXPECT_THAT(warnings, HasSubstr("warn.alea:1:38: warning: unreachable match arm"));
  // No main: alea_vm_run_main says so.
  alea_module* lib = nullptr;
  const char* nomain = "fn f() -> Int = 1\n";
  ASSERT_EQ(alea_compile(nomain, std::strlen(nomain), "lib.alea", nullptr, &lib, nullptr), ALEA_OK);
  EXPECT_EQ(alea_module_has_main(lib), 0);
  alea_vm* vm = alea_vm_new(nullptr);
  ASSERT_EQ(alea_vm_load(vm, lib, nullptr), ALEA_OK);
  EXPECT_EQ(alea_vm_run_main(vm, nullptr, 0, 0, &e), ALEA_NOT_FOUND);
  EXPECT_THAT(Take(e), HasSubstr("`lib.alea` has no `main` function"));
  alea_vm_free(vm);
  alea_module_release(lib);
  alea_module_release(m);
}

}  // namespace
