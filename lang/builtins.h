// The builtins of Alea (lang/builtins.def) with their parsed signatures, and
// overload resolution over them: used by the type checker, and by the
// compiler while it monomorphizes (concrete argument types in, one table
// line out).
#ifndef ALEA_LANG_BUILTINS_H_
#define ALEA_LANG_BUILTINS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "lang/types.h"

namespace alea::lang {

enum class BuiltinId : uint16_t {
#define ALEA_BUILTIN(id, name, signature, flags) id,
#include "lang/builtins.def"
#undef ALEA_BUILTIN
  kCount,
};
inline constexpr int kBuiltinCount = static_cast<int>(BuiltinId::kCount);

enum BuiltinFlags : uint32_t {
  kBuiltinPlain = 0,
  kBuiltinSampler = 1u << 0,
  kBuiltinRng = 1u << 1,
  kBuiltinEq = 1u << 2,
  kBuiltinOrd = 1u << 3,
  kBuiltinTensorData = 1u << 4,
  // A signature that no longer exists: the checker reports a call that
  // resolves to it, with the signature that replaced it.
  kBuiltinRetired = 1u << 5,
  // Typed by a rule of its own in the checker (`grad`, `value_and_grad`:
  // any number of parameters): the signature is documentation, and the
  // entry has one parameter `f` of no type.
  kBuiltinOwnRule = 1u << 6,
};

struct BuiltinParam {
  std::string name;
  types::Type* type = nullptr;  // template: instantiate before unifying
  bool keyword_only = false;    // `*axis`: by name only
  bool optional = false;
  std::string default_text;  // when optional: a literal, a dtype name, or "none" (absent)
};

struct Builtin {
  BuiltinId id;
  std::string_view name;
  std::string_view signature;
  uint32_t flags = 0;
  bool is_function = false;  // false: a value such as `f32`
  std::vector<BuiltinParam> params;
  types::Type* result = nullptr;  // the function's result, or the value's type
  types::Type* var_a = nullptr;   // the template variable `a` (predicates), if any
  int required = 0;               // parameters without a default
  // ALEA_BUILTIN_NATIVE: the native it calls on its arguments; empty otherwise.
  std::string_view native;

  bool sampler() const { return (flags & kBuiltinSampler) != 0; }
};

const Builtin& GetBuiltin(BuiltinId id);
// The overloads of `name` (an identifier or an operator spelling such as `+`,
// `u-`, `[]`), in table order; empty when it is not a builtin.
absl::Span<const BuiltinId> BuiltinOverloads(std::string_view name);
// Every builtin name users can write (for "did you mean").
const std::vector<std::string_view>& BuiltinNames();
// `(Int, Int) -> Int`-style text of one overload, for messages.
std::string DescribeBuiltin(const Builtin& builtin);

// How a call's arguments (positional first, then named, as written) map onto
// a builtin's parameters.
struct ArgMapping {
  std::vector<int> param_of_arg;  // per argument: its parameter index
  std::vector<int> arg_of_param;  // per parameter: its argument, or -1 (default)
};
enum class ArgMapError : uint8_t {
  kOk,
  kTooMany,
  kTooFew,       // `detail`: the first missing parameter
  kUnknownName,  // `detail`: the name
  kDuplicate,    // `detail`: the name
  kKeywordOnly,  // `detail`: the parameter given by position
  kPositionalAfterNamed,
};
// `skip` leading parameters are supplied implicitly (a sampler's state in
// an ambient context).
ArgMapError MapArguments(const Builtin& builtin, absl::Span<const std::string> arg_names, int skip,
                         ArgMapping* mapping, std::string* detail);

// Whether a type satisfies a builtin's predicate: known yes/no, or not yet
// (it still has variables).
enum class Tri : uint8_t { kNo, kYes, kUnknown };
// A field of a declared type that fails a predicate, for the error's note.
struct BadField {
  const types::Ctor* ctor = nullptr;
  int index = 0;
  const types::Type* type = nullptr;
};
// Equality: everything but functions, RandStates and tensors (they compare
// elementwise through their own overloads), at any depth. Ordering: Int,
// Float, Str, and tuples and declared types of them. `blame`, when given,
// receives the innermost field of a declared type that fails.
Tri AdmitsEquality(const types::Type* t, types::TypeStore& store, BadField* blame = nullptr);
Tri IsOrdered(const types::Type* t, types::TypeStore& store, BadField* blame = nullptr);

// Tries one overload against a call site: argument types as written (names
// as in MapArguments), and the expected result. Variables it binds are saved
// on `trail` so the caller can undo or keep them. kUnknown: it fits, but a
// predicate cannot be decided yet.
Tri TryOverload(const Builtin& builtin, absl::Span<types::Type* const> args,
                absl::Span<const std::string> arg_names, int skip, types::Type* result,
                types::TypeStore& store, int level, const types::Origin* origin,
                types::Trail& trail);

// `tensor(data)`: the dtype the scalar under any number of array levels
// picks (Int i32, Float f32, Bool bool); kUnknown while it is a variable.
Tri TensorDataDType(const types::Type* data, types::DType* dtype);

// The predicate of a builtin with a template variable `a` (kBuiltinEq,
// kBuiltinOrd, kBuiltinTensorData) on `a`'s instance. `tensor`'s also binds
// the dtype of `result` (the instantiated result, a Tensor) to the one the
// data's scalar picks, saved on `trail`.
Tri CheckPredicate(const Builtin& builtin, types::Type* a, types::Type* result,
                   types::TypeStore& store, const types::Origin* origin, types::Trail& trail);
// Defaulting of `tensor(data)` when nothing binds the scalar under the
// arrays (`tensor([])`, `tensor([[]])`): it becomes the scalar of the
// result's dtype if that is known (Int for i32, Bool for bool), else Float,
// so the tensor is f32 as NumPy's `np.array([])` is float64. False when the
// scalar is no variable.
bool DefaultTensorData(types::Type* data, types::Type* result, types::TypeStore& store,
                       const types::Origin& origin);

struct OverloadResolution {
  BuiltinId id;
  const types::Type* result;  // allocated in the caller's store
  ArgMapping mapping;
};
// For monomorphization: the one overload of `name` that accepts these
// (concrete) argument types; nullopt when none or several do. Never binds
// variables in `args`.
std::optional<OverloadResolution> ResolveOverload(std::string_view name,
                                                  absl::Span<const types::Type* const> args,
                                                  absl::Span<const std::string> arg_names,
                                                  types::TypeStore& store);

}  // namespace alea::lang

#endif  // ALEA_LANG_BUILTINS_H_
