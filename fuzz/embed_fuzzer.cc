// The embedding API (include/alea/vm.h) driven as a careless host would:
// host functions and values registered under random signatures (right or
// wrong), then functions looked up under random signatures and called with
// random values of random types — tensors of any shape, consumed states,
// variants with wrong constructors, nested tuples and arrays. Every misuse
// must come back as a status; none may crash the VM or leak.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "alea/compiler.h"
#include "alea/vm.h"
#include "fuzz/fuzz_input.h"
#include "fuzz/limits.h"

namespace {

using alea::Type;
using alea::Value;
using alea::fuzz::FuzzInput;

constexpr char kSource[] = R"(
type Shape = Circle(Float) | Rect(Float, Float) | Dot
type Point = { x: Float, y: Float }
extern fn host_scale(x: Float) -> Float
extern fn host_pick(xs: [Int]) -> (Int, Str)
extern let host_bias: Int
fn add(a: Int, b: Int) -> Int = a + b + host_bias
fn area(s: Shape) -> Float = match s { Circle(r) => 3.0 * r * r, Rect(w, h) => w * h, Dot => 0.0 }
fn norm(p: Point) -> Float = sqrt(p.x * p.x + p.y * p.y)
fn total(xs: [Float]) -> Float = fold(xs, 0.0, |a, b| a + b)
fn scale(x: Tensor, k: Float) -> Tensor = x * host_scale(k)
fn sum_all(x: Tensor) -> Float = item(sum(x))
fn ints(x: Tensor(i32)) -> Tensor(i32) = x + x
fn draw(s: RandState) -> Tensor = normal(s, [3])
fn fork(s: RandState) -> (RandState, RandState) = split(s)
fn noisy(x: Tensor) -> Tensor uses rng = x + normal(shape(x))
fn pick(xs: [Int]) -> Str {
  let (i, s) = host_pick(xs);
  s + str(i)
}
fn letters(s: Str) -> [Str] = chars(s)
fn half(o: Option(Int)) -> Result(Int, Str) = match o { Some(n) => Ok(n / 2), None => Err("none") }
fn nested(t: ((Int, Bool), [Str])) -> Int {
  let ((n, b), names) = t;
  if b { n + len(names) } else { n }
}
fn shout(s: Str) -> Str = s + "!"
fn say(x: Int) = print(x)
fn shapes(n: Int) -> [Shape] = map(range(n), |i| if i % 2 == 0 { Dot } else { Circle(float(i)) })
)";

const alea::Module& TheModule() {
  static const alea::Module* const kModule = [] {
    alea::StatusOr<alea::Module> m = alea::Compile(kSource, "embed_fuzzer.alea");
    if (!m.ok()) __builtin_trap();  // the fixed source compiles
    return new alea::Module(*std::move(m));
  }();
  return *kModule;
}

// Names the module knows and some it does not.
constexpr const char* kTypeNames[] = {"Shape", "Point", "Option(Int)", "Result(Int, Str)",
                                      "Nope",  "Int",   "Option",      ""};
constexpr const char* kConstructors[] = {"Circle", "Rect", "Dot", "Some", "None",
                                         "Ok",     "Err",  "x",   "y",    "Nope"};
constexpr const char* kFunctions[] = {
    "add",  "area",    "norm", "total",  "scale", "sum_all", "ints",   "draw",    "fork", "noisy",
    "pick", "letters", "half", "nested", "shout", "say",     "shapes", "missing", ""};

Type RandomType(FuzzInput& in, int depth) {
  const uint32_t kind = in.Below(depth > 2 ? 7 : 10);
  switch (kind) {
    case 7: {
      std::vector<Type> elements(in.Below(4));
      for (Type& t : elements) t = RandomType(in, depth + 1);
      return Type::Tuple(std::move(elements));
    }
    case 8:
      return Type::Array(RandomType(in, depth + 1));
    case 9:
      return Type::Named(kTypeNames[in.Below(std::size(kTypeNames))]);
    default:
      return static_cast<Type::Kind>(kind);  // kUnit .. kRandState
  }
}

alea::Signature RandomSignature(FuzzInput& in) {
  alea::Signature s;
  s.params.resize(in.Below(4));
  for (Type& t : s.params) t = RandomType(in, 0);
  s.result = RandomType(in, 0);
  return s;
}

// Host memory that views point into: it outlives every call.
const float kViewed[64] = {1, 2, 3, 4, 5, 6, 7, 8, -1, 0.5f};

Value RandomValue(FuzzInput& in, const Type& type, int depth);

std::vector<int64_t> RandomShape(FuzzInput& in) {
  std::vector<int64_t> shape(in.Below(4));
  for (int64_t& d : shape) d = in.Below(8) == 7 ? in.Int() : in.Below(5);
  return shape;
}

std::vector<Value> RandomValues(FuzzInput& in, int depth) {
  std::vector<Value> values(in.Below(depth > 2 ? 2 : 4));
  for (Value& v : values) v = RandomValue(in, RandomType(in, depth + 1), depth + 1);
  return values;
}

Value RandomValue(FuzzInput& in, const Type& type, int depth) {
  // Sometimes a value of another type than asked. (Rare choices are the
  // nonzero ones: an input that has run out reads zeros, and must end.)
  if (depth < 4 && in.Below(16) == 15) {
    return RandomValue(in, RandomType(in, depth + 1), depth + 1);
  }
  switch (type.kind()) {
    case Type::kUnit:
      return Value::Unit();
    case Type::kInt:
      return Value::Int(in.Int());
    case Type::kFloat:
      return Value::Float(in.Float());
    case Type::kBool:
      return Value::Bool(in.Bool());
    case Type::kStr:
      return Value::Str(in.Str());  // any bytes, UTF-8 or not
    case Type::kTensor: {
      std::vector<int64_t> shape = RandomShape(in);
      // A view must hold its shape's elements (the API cannot check host
      // memory): only shapes that fit kViewed are views.
      int64_t count = 1;
      for (int64_t d : shape) count = d < 0 || d > 64 ? 65 : std::min<int64_t>(count * d, 65);
      if (count <= 64 && in.Bool()) return alea::Tensor::View(kViewed, std::move(shape));
      std::vector<float> values(in.Below(10));
      for (float& f : values) f = static_cast<float>(in.Float());
      return alea::Tensor::Copy(std::move(values), std::move(shape));
    }
    case Type::kRandState:
      return alea::RandState::FromSeed(in.Int());
    case Type::kTuple: {
      std::vector<Value> elements;
      for (const Type& t : type.elements()) elements.push_back(RandomValue(in, t, depth + 1));
      return Value::Tuple(std::move(elements));
    }
    case Type::kArray: {
      std::vector<Value> elements(in.Below(4));
      for (Value& v : elements) v = RandomValue(in, type.elements()[0], depth + 1);
      return Value::Array(type.elements()[0], std::move(elements));
    }
    case Type::kNamed:
      if (in.Bool()) {
        std::vector<std::pair<std::string, Value>> fields(in.Below(3));
        for (auto& [name, value] : fields) {
          name = kConstructors[in.Below(std::size(kConstructors))];
          value = RandomValue(in, RandomType(in, depth + 1), depth + 1);
        }
        return Value::Record(type, std::move(fields));
      }
      return Value::Make(type, kConstructors[in.Below(std::size(kConstructors))],
                         RandomValues(in, depth));
  }
  return Value::Unit();
}

// The signatures the module's functions have, so that calls get past Find
// often; a random one otherwise.
alea::Signature SignatureFor(FuzzInput& in, const std::string& name) {
  if (in.Below(4) == 0) return RandomSignature(in);
  const Type shape = Type::Named("Shape");
  if (name == "add") return {{Type::kInt, Type::kInt}, Type::kInt};
  if (name == "area") return {{shape}, Type::kFloat};
  if (name == "norm") return {{Type::Named("Point")}, Type::kFloat};
  if (name == "total") return {{Type::Array(Type::kFloat)}, Type::kFloat};
  if (name == "scale") return {{Type::kTensor, Type::kFloat}, Type::kTensor};
  if (name == "sum_all") return {{Type::kTensor}, Type::kFloat};
  if (name == "ints") return {{Type::kTensor}, Type::kTensor};
  if (name == "draw") return {{Type::kRandState}, Type::kTensor};
  if (name == "fork")
    return {{Type::kRandState}, Type::Tuple({Type::kRandState, Type::kRandState})};
  if (name == "noisy") return {{Type::kTensor, Type::kRandState}, Type::kTensor};
  if (name == "pick") return {{Type::Array(Type::kInt)}, Type::kStr};
  if (name == "letters") return {{Type::kStr}, Type::Array(Type::kStr)};
  if (name == "half") return {{Type::Named("Option(Int)")}, Type::Named("Result(Int, Str)")};
  if (name == "nested") {
    return {{Type::Tuple({Type::Tuple({Type::kInt, Type::kBool}), Type::Array(Type::kStr)})},
            Type::kInt};
  }
  if (name == "shout") return {{Type::kStr}, Type::kStr};
  if (name == "say") return {{Type::kInt}, Type::kUnit};
  if (name == "shapes") return {{Type::kInt}, Type::Array(shape)};
  return RandomSignature(in);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  alea::VmOptions options;
  const alea::vm::Limits limits = alea::fuzz::RunLimits();  // the other targets' limits
  options.max_heap_bytes = limits.max_heap_bytes;
  options.max_call_depth = limits.max_call_depth;
  options.max_instructions = limits.max_instructions;
  options.jit = in.Bool();
  alea::Vm vm(options);
  vm.SetOutput([](std::string_view) {});
  // The host's side, under the declared signatures or others; what a host
  // function returns is drawn when it is called, of its declared type or not.
  const alea::Signature scale =
      in.Bool() ? alea::Signature{{Type::kFloat}, Type::kFloat} : RandomSignature(in);
  vm.RegisterFunction("host_scale", scale, [&in, scale](alea::HostCall&) -> alea::StatusOr<Value> {
    if (in.Below(8) == 7) return alea::Status(alea::StatusCode::kInternal, "the host fails");
    return RandomValue(in, scale.result, 0);
  });
  const alea::Signature pick =
      in.Bool() ? alea::Signature{{Type::Array(Type::kInt)}, Type::Tuple({Type::kInt, Type::kStr})}
                : RandomSignature(in);
  vm.RegisterFunction("host_pick", pick,
                      [&in, pick](alea::HostCall& call) -> alea::StatusOr<Value> {
                        call.State<int>() += 1;
                        return RandomValue(in, pick.result, 0);
                      });
  if (in.Below(4) != 0) {
    vm.RegisterValue("host_bias", RandomValue(in, in.Bool() ? Type::kInt : RandomType(in, 0), 0));
  }
  alea::Module module = TheModule();
  if (in.Below(16) == 0) {
    // A module through its bytes, or none at all.
    alea::StatusOr<alea::Module> again = alea::Module::FromBytes(module.ToBytes());
    module = again.ok() ? *again : alea::Module();
  }
  if (!vm.Load(module).ok()) return 0;
  // A state passed twice is the VM's error: keep a few to pass again.
  std::vector<Value> kept;
  while (!in.empty()) {
    const std::string name = kFunctions[in.Below(std::size(kFunctions))];
    const alea::Signature signature = SignatureFor(in, name);
    alea::StatusOr<alea::Function> fn = vm.Find(name, signature);
    if (!fn.ok()) continue;
    std::vector<Value> args;
    for (const Type& t : signature.params) {
      if (!kept.empty() && in.Below(8) == 0) {
        args.push_back(kept[in.Below(static_cast<uint32_t>(kept.size()))]);
      } else {
        args.push_back(RandomValue(in, t, 0));
      }
      if (args.back().type().kind() == Type::kRandState && kept.size() < 4)
        kept.push_back(args.back());
    }
    if (in.Below(8) == 0) args.push_back(Value::Int(1));     // one too many
    if (in.Below(8) == 0 && !args.empty()) args.pop_back();  // one too few
    (void)vm.Call(*fn, args);
    if (in.Below(32) == 0) vm.Interrupt();
  }
  return 0;
}
