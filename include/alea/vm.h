// Embedding Alea: the VM part (docs/decisions.md "Embedding"). Load a compiled
// Module, look up a function with its signature, call it with host values.
// Nothing here needs the compiler (alea/compiler.h makes Modules).
//
//   alea::Vm vm({.max_instructions = 10'000'000});
//   if (Status s = vm.Load(module); !s.ok()) return s;
//   StatusOr<alea::Function> f =
//       vm.Find("scale", {{alea::Type::kTensor, alea::Type::kFloat}, alea::Type::kTensor});
//   StatusOr<alea::Value> r =
//       vm.Call(*f, {alea::Tensor::View(buf, {2, 3}), alea::Value::Float(2.0)});
//
// Errors are statuses (alea/status.h), never exceptions; a failed call leaves
// the Vm usable. No type of another library appears here.
// A Vm is used by one thread at a time (Interrupt excepted); several Vms may
// run on several threads at once: they share nothing but immutable Modules.
#ifndef ALEA_VM_H_
#define ALEA_VM_H_

#include <any>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "alea/status.h"

namespace alea {

// The C++ API is a thin layer over the C API (alea/alea.h): these hold its
// handles (embed/cpp_api.cc).
namespace embed_internal {
struct Access;
struct Held;
struct ModuleData;
struct VmState;
}  // namespace embed_internal

// The type of a host value: one of the kinds, or made of types, e.g.
// Type::Tuple({Type::kTensor, Type::kRandState}) for `(Tensor, RandState)`
// and Type::Array(Type::kStr) for `[Str]`. A type the program declares (a
// record or variant) is known by its name as the language prints it:
// Type::Named("Params"), Type::Named("Option(Int)"). Functions cannot cross
// the boundary yet: a function that takes or returns one (also inside a
// declared type) cannot be found.
class Type {
 public:
  enum Kind : uint8_t {
    kUnit,
    kInt,
    kFloat,
    kBool,
    kStr,
    kTensor,
    kRandState,
    kTuple,
    kArray,
    kNamed
  };
  Type(Kind kind = kUnit) : kind_(kind) {}  // NOLINT: implicit, so Type::kInt is a Type
  // A tuple of two or more types (the language has no one-element tuple).
  static Type Tuple(std::vector<Type> elements);
  static Type Array(Type element);
  static Type Named(std::string name);

  Kind kind() const { return kind_; }
  // A tuple's element types; an array's one element type.
  const std::vector<Type>& elements() const { return elements_; }
  // A declared type's name with its arguments (`Tree(Int)`); empty otherwise.
  const std::string& name() const { return name_; }
  friend bool operator==(const Type& a, const Type& b) {
    return a.kind_ == b.kind_ && a.elements_ == b.elements_ && a.name_ == b.name_;
  }
  friend bool operator!=(const Type& a, const Type& b) { return !(a == b); }

 private:
  Kind kind_;
  std::vector<Type> elements_;
  std::string name_;
};
// "Int", "Tensor", "(Int, Str)"... as the language spells them (Unit is "()").
std::string TypeName(const Type& type);

// A function's type as the host expects it. A tensor's dtype is not part of
// it: Call checks a tensor argument's dtype against the parameter's.
struct Signature {
  std::vector<Type> params;
  Type result = Type::kUnit;
};
// "(Int, Tensor) -> Float".
std::string SignatureString(const Signature& signature);

// Tensor element types, as vm/dtype.h.
enum class DType : uint8_t { kF32, kI32, kU32, kBool };

// An immutable n-d tensor, row-major. Copies share the elements.
class Tensor {
 public:
  // A zero-copy view of host memory: the VM reads `data` in place and never
  // writes or frees it (an operation that would reuse an owned operand's
  // buffer makes a new one). `data` must hold the shape's element count and
  // stay alive and unchanged while any call that was given the view runs.
  static Tensor View(const float* data, std::vector<int64_t> shape);
  // A tensor that owns a copy of `values` (also what Call returns). Passing
  // one whose shape does not hold exactly values.size() elements, or a shape
  // no tensor has (an axis below 0), is Call's InvalidArgument error.
  static Tensor Copy(std::vector<float> values, std::vector<int64_t> shape);
  // The same for any dtype: `bytes` bytes of elements (4 each; 1 for kBool,
  // each 0 or 1), viewed in place (`data` aligned to the element size) or
  // copied. A shape that does not hold exactly `bytes` is Call's error.
  static Tensor View(DType dtype, const void* data, size_t bytes, std::vector<int64_t> shape);
  static Tensor Copy(DType dtype, const void* data, size_t bytes, std::vector<int64_t> shape);

  DType dtype() const;
  const std::vector<int64_t>& shape() const;
  int64_t size() const;  // elements
  bool is_view() const;
  // The elements (4 bytes each; 1 for kBool), read-only.
  const void* data() const;
  // The elements of an f32 tensor; empty for another dtype.
  std::span<const float> floats() const;

 private:
  friend struct embed_internal::Access;
  explicit Tensor(std::shared_ptr<const embed_internal::Held> h) : h_(std::move(h)) {}
  std::shared_ptr<const embed_internal::Held> h_;
};

// A random state (docs/language.md "Random states"). Use-once holds across the
// boundary: passing a state to a call consumes it, and copies of a
// RandState are the same state, so passing it again is the VM's "a RandState
// is used twice" error. A state a call returns is fresh.
class RandState {
 public:
  // JAX's jax.random.key(seed) (the language's `key(seed)`).
  static RandState FromSeed(int64_t seed);
  // The state of a JAX key's data (jax.random.key_data(k)).
  static RandState FromKey(uint32_t key0, uint32_t key1);
  // The key data a JAX program would use for this state (a state advanced by
  // `next` stands for fold_in(key, n)), and the stream counter n.
  uint32_t key0() const;
  uint32_t key1() const;
  uint64_t counter() const;
  bool consumed() const;
  // The language's split, next and fold_in, with its numbers: each consumes
  // this state (an error if it was consumed) and makes fresh ones.
  StatusOr<std::pair<RandState, RandState>> Split() const;
  StatusOr<std::pair<RandState, RandState>> Next() const;
  StatusOr<RandState> FoldIn(uint32_t data) const;

 private:
  friend struct embed_internal::Access;
  explicit RandState(std::shared_ptr<const embed_internal::Held> h) : h_(std::move(h)) {}
  std::shared_ptr<const embed_internal::Held> h_;
};

// A value crossing the boundary: an argument or a result.
class Value {
 public:
  Value() = default;                        // Unit
  Value(Tensor t) : v_(std::move(t)) {}     // NOLINT: implicit, for argument lists
  Value(RandState s) : v_(std::move(s)) {}  // NOLINT
  static Value Unit() { return Value(); }
  static Value Int(int64_t i) { return Value(Variant(std::in_place_index<1>, i)); }
  static Value Float(double f) { return Value(Variant(std::in_place_index<2>, f)); }
  static Value Bool(bool b) { return Value(Variant(std::in_place_index<3>, b)); }
  static Value Str(std::string s) { return Value(Variant(std::in_place_index<4>, std::move(s))); }
  // A tuple of two or more values.
  static Value Tuple(std::vector<Value> elements);
  // An array of `element`s (its type even when it is empty); Call checks
  // that every element has that type.
  static Value Array(Type element, std::vector<Value> elements);
  // A value of a declared variant (Type::Named): its constructor's name and
  // fields, in declaration order (`Make(Type::Named("Shape"), "Circle",
  // {Value::Float(1.0)})`; `Make(Type::Named("Option(Int)"), "None", {})`).
  static Value Make(Type type, std::string constructor, std::vector<Value> fields);
  // A value of a declared record, its fields by name in any order.
  static Value Record(Type type, std::vector<std::pair<std::string, Value>> fields);

  // The kind, and for a tuple or an array the types of its elements.
  Type type() const;
  // The value, when type() is that type; otherwise a zero, empty or default one.
  int64_t AsInt() const { return Get<1>(); }
  double AsFloat() const { return Get<2>(); }
  bool AsBool() const { return Get<3>(); }
  const std::string& AsStr() const;
  const Tensor& AsTensor() const;
  const RandState& AsRandState() const;
  const std::vector<Value>& AsTuple() const;
  const std::vector<Value>& AsArray() const;
  // A declared type's value: the constructor (a record's is its type's name
  // without arguments), the fields in the order given (declaration order for
  // a value a call returns) and, for a record, their names.
  const std::string& constructor() const;
  const std::vector<Value>& fields() const;
  const std::vector<std::string>& field_names() const;
  // A record's field by name; Unit when it has none of that name.
  Value field(std::string_view name) const;

 private:
  // Index i is Type::Kind i. Elements are shared by copies (values are
  // immutable), which also lets Value hold Values.
  struct Elements {
    Type element;  // an array's
    std::vector<Value> values;
  };
  struct Made {  // a declared type's value
    Type type;
    std::string constructor;
    std::vector<Value> fields;
    std::vector<std::string> names;  // a record's field names
  };
  using Variant = std::variant<std::monostate, int64_t, double, bool, std::string, Tensor,
                               RandState, std::shared_ptr<const std::vector<Value>>,
                               std::shared_ptr<const Elements>, std::shared_ptr<const Made>>;
  explicit Value(Variant v) : v_(std::move(v)) {}
  template <size_t I>
  std::variant_alternative_t<I, Variant> Get() const {
    const auto* p = std::get_if<I>(&v_);
    return p != nullptr ? *p : std::variant_alternative_t<I, Variant>{};
  }
  Variant v_;
};

// An immutable compiled program (alea::Compile makes one). Cheap to copy;
// one Module may be loaded into many Vms, on many threads.
class Module {
 public:
  Module() = default;  // empty: Load refuses it
  // The callable functions (the root file's non-generic top-level ones) by name.
  std::vector<std::string> function_names() const;
  // The module as bytes (the `.aleac` format of `alea build`, docs/aleac.md),
  // with the source text its run-time errors quote.
  std::string ToBytes() const;
  // A module from bytes that ToBytes or `alea build` wrote, without the
  // compiler. Malformed bytes are InvalidArgument, "malformed module: byte N:
  // ..."; what the module means is verified when a Vm loads it.
  static StatusOr<Module> FromBytes(std::string_view bytes);

 private:
  friend struct embed_internal::Access;
  explicit Module(std::shared_ptr<const embed_internal::ModuleData> d) : d_(std::move(d)) {}
  std::shared_ptr<const embed_internal::ModuleData> d_;
};

// What a VM's programs may do with files (read_text, write_text, load_csv,
// save_csv, load_npy, save_npy): nothing unless the host says so.
struct FileAccess {
  enum class Mode { kNone, kReadOnly, kReadWrite, kFull };
  Mode mode = Mode::kNone;
  // kReadOnly, kReadWrite: the directory paths are resolved in. A path may
  // not leave it: an absolute path, `..` above it or a symbolic link on the
  // way is refused with a run-time error naming the path.
  std::string root;
  static FileAccess None() { return {}; }
  static FileAccess ReadOnly(std::string dir) { return {Mode::kReadOnly, std::move(dir)}; }
  static FileAccess ReadWrite(std::string dir) { return {Mode::kReadWrite, std::move(dir)}; }
  static FileAccess Full() { return {Mode::kFull, ""}; }  // what `alea run` gives
};

struct VmOptions {
  uint64_t max_heap_bytes = 0;  // live heap objects; 0 = unlimited
  // Nested non-tail calls (a tail call does not count).
  uint64_t max_call_depth = 1'000'000;
  // Instructions per Call (and per Load's top-level lets); 0 = unlimited.
  // Checked at calls and backward jumps, so a call stops shortly after it.
  // An operation on a whole tensor is one instruction: bound tensor work
  // with max_heap_bytes (which caps tensor sizes) and, for wall time,
  // Interrupt() from a watchdog thread.
  uint64_t max_instructions = 0;
  int threads = 1;  // for large tensor and random ops; results never depend on it
  bool jit = true;  // JIT tensor kernels (bitwise equal to the reference ones)
  FileAccess files = FileAccess::None();
};

struct Stats {
  uint64_t instructions = 0;  // executed, over every call so far
  uint64_t calls = 0;
  uint64_t allocations = 0;
  uint64_t peak_heap_bytes = 0;
  uint64_t heap_bytes_live = 0;
  // Tensor element bytes copied only to change their layout (transpose,
  // concat, stack, roll, a row or slice of less than half a tensor).
  uint64_t bytes_copied = 0;
};

// A function of the loaded module, found by Vm::Find.
class Function {
 public:
  const std::string& name() const { return name_; }
  const Signature& signature() const { return signature_; }

 private:
  friend struct embed_internal::Access;
  std::string name_;
  Signature signature_;
  const void* handle_ = nullptr;               // the C API's alea_function, owned by its Vm
  std::weak_ptr<embed_internal::VmState> vm_;  // that Vm, while it lives
};

// One call of a host function from Alea code (Vm::RegisterFunction).
class HostCall {
 public:
  // The arguments, of the registered signature's types. Tensors are copies
  // the host may keep; a RandState argument is fresh (the Alea caller
  // consumed its own).
  std::span<const Value> args() const { return args_; }

  // The state of this call site, kept between its calls: a default T at the
  // site's first call (or after a call that asked for another T), kept until
  // the Vm loads a module. Each direct call `f(...)` in the source is a site
  // of its own, so a primitive can keep, say, a scratch buffer per place it is
  // used; uses of `f` as a value (`map(xs, f)`) share one site.
  template <typename T>
  T& State() {
    if (T* p = std::any_cast<T>(state_)) return *p;
    return state_->emplace<T>();
  }
  // Where the call comes from: a number unique to the site in the loaded module.
  uint32_t site() const { return site_; }

 private:
  friend struct embed_internal::Access;
  HostCall(std::span<const Value> args, std::any* state, uint32_t site)
      : args_(args), state_(state), site_(site) {}
  std::span<const Value> args_;
  std::any* state_;
  uint32_t site_;
};

// A host function: the result must have the signature's result type. An
// error status becomes the Alea run-time error "host function `f` failed:
// MESSAGE" at the call, and Call returns kAborted with it. A host function
// must not call back into its Vm.
using HostFunction = std::function<StatusOr<Value>(HostCall& call)>;

// Status codes of Load and Call (the message is the Alea diagnostic, as
// `alea run` prints it, with the source line):
//   kResourceExhausted  heap budget, call depth, instruction budget
//   kCancelled          Interrupt()
//   kAborted            any other run-time error (division by zero, a
//                       RandState used twice, shapes that do not broadcast...)
//   kInvalidArgument    arguments that do not fit the function (count, type, dtype)
//   kNotFound           Find: no such function; kInvalidArgument: another signature
//   kFailedPrecondition no module loaded, or a Function of an earlier Load
// Load also checks the module's `extern` declarations against what was
// registered: kNotFound for a missing one, kInvalidArgument for other types.
class Vm {
 public:
  explicit Vm(VmOptions options = {});
  ~Vm();
  Vm(Vm&&) noexcept;
  Vm& operator=(Vm&&) noexcept;

  // Makes `fn` the function that Alea code declaring `extern fn name(...)`
  // calls, in modules loaded afterwards; the declaration must have exactly
  // `signature`'s types. Registering a name again replaces the function.
  void RegisterFunction(std::string name, Signature signature, HostFunction fn);

  // Makes `value` the value of `extern let name: T` in modules loaded
  // afterwards (T must be its type; a Tensor's dtype too). A RandState given
  // here is used by the first module that consumes it.
  void RegisterValue(std::string name, Value value);

  // Loads `module` (replacing any earlier one) and computes its top-level
  // `let`s. The Vm keeps what it needs: `module` may go away.
  Status Load(const Module& module);

  // The function `name` of the loaded module, if its type is `signature`. A
  // `uses rng` function takes its ambient stream as one more, last, RandState.
  StatusOr<Function> Find(std::string_view name, const Signature& signature) const;

  StatusOr<Value> Call(const Function& function, std::span<const Value> args);
  StatusOr<Value> Call(const Function& function, std::initializer_list<Value> args) {
    return Call(function, std::span<const Value>(args.begin(), args.size()));
  }

  Stats stats() const;

  // Thread-safe: the running call stops at its next call or backward jump
  // with kCancelled. A request made while nothing runs stops the next call.
  void Interrupt();

  // Where `print`'s text goes (default: stdout), in chunks, flushed at the
  // end of every call.
  void SetOutput(std::function<void(std::string_view)> sink);

 private:
  std::shared_ptr<embed_internal::VmState> s_;
};

}  // namespace alea

#endif  // ALEA_VM_H_
