// Types of Alea and the machinery of Hindley–Milner inference over them:
// union-find type variables with levels, unification with an undo trail (so
// overload resolution can try a candidate and roll back), instantiation, and
// printing (`Int`, `[Int]`, `(Int, Str)`, `(Int) -> Int`, `Tensor(f32)`).
//
// Every type remembers where it came from (a span and a short reason such as
// "the literal `1`"), so that a mismatch can point at both sides.
#ifndef ALEA_LANG_TYPES_H_
#define ALEA_LANG_TYPES_H_

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "lang/source.h"

namespace alea::lang {
struct Expr;  // lang/ast.h
}

namespace alea::lang::types {

enum class DType : uint8_t { kF32, kI32, kU32, kBool };
const char* DTypeName(DType dtype);

// Masks restricting what a dtype variable may become (bit i: DType i).
inline constexpr uint8_t kAnyDType = 0xF;
inline constexpr uint8_t kNumericDType = 0x7;  // f32, i32, u32

enum class Kind : uint8_t {
  kVar,
  kError,  // unifies with everything, so one error does not cascade
  kInt,
  kFloat,
  kBool,
  kStr,
  kTuple,     // args: elements; no elements is unit `()`
  kArray,     // args[0]: element
  kFunction,  // args: parameters; result
  kTensor,    // args[0]: the dtype (a kDTypeConst or a variable)
  kRandState,
  kDType,       // `DType(d)`, the type of the values `f32 i32 u32 bool`; args[0]: d
  kDTypeConst,  // the dtype `d` itself, only inside Tensor(...) and DType(...)
  kNamed,       // a type the program declares (`Shape`, `Tree(Int)`); def, args: its arguments
  kPlot,        // what `hist`, `plot`, `scatter` and `overlay` make (vm/plot.h)
};

// The types the language names itself, which a program may not declare.
inline constexpr const char* kBuiltinTypeNames[] = {"Int",       "Float", "Bool",   "Str",
                                                    "RandState", "Plot",  "Tensor", "DType"};

struct Type;
struct TypeDef;

// A constructor of a declared type. A record is a type with one constructor,
// named like the type, whose fields have names.
struct Ctor {
  std::string name;
  const TypeDef* owner = nullptr;
  int tag = 0;  // its position in the declaration
  // Field types over the owner's parameters (TypeDef::params).
  std::vector<Type*> fields;
  std::vector<std::string> field_names;  // a record's; empty for a variant's constructor
  std::vector<Span> field_spans;         // where each field is declared
  Span span;
  int FieldIndex(std::string_view name) const;
};

// A `type` declaration, as the checker reads it.
struct TypeDef {
  std::string name;
  Span span;  // the declared name
  bool is_record = false;
  bool prelude = false;       // Option and Result: declared nowhere in the program
  std::vector<Type*> params;  // generic variables, one per declared parameter
  std::vector<Ctor> ctors;    // fixed once filled: Ctor pointers stay valid
  // Bit k: a value may hold a type of Kind k (RandState, Function...) through
  // the fields, whatever the arguments (Contains also looks at those).
  uint32_t holds = 0;
};

// Where a type came from, for notes ("`Int` comes from the literal `1` here").
struct Origin {
  std::optional<Span> span;
  std::string reason;  // "the literal `1`", "the annotation"; empty: unknown
};

struct Type {
  Kind kind;
  DType dtype = DType::kF32;     // kDTypeConst
  const TypeDef* def = nullptr;  // kNamed
  std::vector<Type*> args;
  Type* result = nullptr;  // kFunction
  Origin origin;

  // kVar only. A bound variable forwards to `link` (see Resolve).
  Type* link = nullptr;
  int id = 0;
  int level = 0;
  uint8_t dtype_mask = 0;  // nonzero: may only become a dtype in the mask
  bool generic = false;    // quantified in a scheme: instantiate, never bind
  uint32_t mark = 0;       // visit stamp for DAG walks
};

// A deferred use of an overloaded name (operator or builtin) at a type:
// resolved as soon as exactly one overload fits.
struct Constraint {
  std::string name;  // the builtins.def name: `+`, `neg`, `[]`, `sum`...
  // A call: (argument types as written) -> result. A use as a value: its type.
  Type* site = nullptr;
  std::vector<std::string> arg_names;  // as written ("" positional); calls only
  bool as_value = false;
  int skip = 0;  // leading parameters given implicitly (an ambient sampler's state)
  Span span;     // where an error is reported
  // Per argument: 1 when it is an Int literal, 2 a Float literal (defaulting).
  std::vector<uint8_t> literals;
  // The expression whose `builtin` to fill; null for a copy made when a
  // scheme is instantiated (that use is checked, the original annotated).
  Expr* expr = nullptr;
  std::optional<Span> required_by;  // a copy: the original site, for a note
  int chosen = -1;                  // BuiltinId once resolved
  // The shape of `site` at the last attempt that left it ambiguous: retrying
  // an unchanged constraint is pointless.
  uint64_t tried_shape = 0;
  // The binding level it belongs to: a `let` generalizing at level L looks
  // only at constraints above L (older ones cannot mention its variables).
  int level = 0;
};

// A type scheme: for all `vars`, `type` where every constraint holds.
struct Scheme {
  std::vector<Type*> vars;
  std::vector<Constraint> constraints;
  Type* type = nullptr;
};

// Follows variable links to the representative.
Type* Resolve(Type* t);
const Type* Resolve(const Type* t);

// True when `t` (resolved) contains no unbound variable.
bool IsGround(const Type* t);
// True when `t` contains a kError anywhere.
bool ContainsError(const Type* t);
// True when `t` contains a type of kind `kind` (RandState, Function...).
bool Contains(const Type* t, Kind kind);

// Owns every type of one program (or of the builtin signature templates).
// Deque: addresses stay stable as it grows.
class TypeStore {
 public:
  Type* New(Kind kind, Origin origin = {});
  Type* Var(int level, Origin origin = {}, uint8_t dtype_mask = 0);
  Type* Error() { return New(Kind::kError); }
  Type* Prim(Kind kind, Origin origin = {}) { return New(kind, std::move(origin)); }
  Type* Tuple(std::vector<Type*> elements, Origin origin = {});
  Type* Array(Type* element, Origin origin = {});
  Type* Function(std::vector<Type*> params, Type* result, Origin origin = {});
  Type* DTypeConst(DType dtype, Origin origin = {});
  Type* Tensor(Type* dtype, Origin origin = {});
  Type* DTypeOf(Type* dtype, Origin origin = {});
  Type* Named(const TypeDef* def, std::vector<Type*> args, Origin origin = {});
  TypeDef* NewDef() { return &defs_.emplace_back(); }
  // The field types of constructor `ctor` of `named` (a kNamed of its owner),
  // the declaration's parameters replaced by `named`'s arguments.
  std::vector<Type*> FieldTypes(const Type* named, const Ctor& ctor);

  // A copy of `t` with every generic variable replaced through `subst`
  // (filled with fresh variables at `level` on first sight). Parts without
  // generic variables are shared, not copied. `origin`, when given, replaces
  // the origin of the copied nodes (a signature instantiated at a call site).
  Type* Instantiate(Type* t, absl::flat_hash_map<Type*, Type*>& subst, int level,
                    const Origin* origin);

  // A deep copy of `t` with every bound variable replaced by its binding, so
  // the copy stays valid after a trail that bound them is undone. Unbound
  // variables are shared.
  Type* Copy(Type* t);

  Scheme* NewScheme() { return &schemes_.emplace_back(); }

  size_t size() const { return types_.size(); }

 private:
  std::deque<Type> types_;
  std::deque<Scheme> schemes_;
  std::deque<TypeDef> defs_;
  int next_var_id_ = 0;
};

// Records every mutation unification makes, so a trial can be undone.
class Trail {
 public:
  struct Entry {
    Type* var;
    Type* old_link;
    int old_level;
    uint8_t old_mask;
  };
  void Save(Type* var) { entries_.push_back({var, var->link, var->level, var->dtype_mask}); }
  size_t Mark() const { return entries_.size(); }
  void Undo(size_t mark);
  void Commit() { entries_.clear(); }

 private:
  std::vector<Entry> entries_;
};

// Why a unification failed: the innermost pair that did not match.
struct UnifyFailure {
  enum class Reason : uint8_t { kMismatch, kInfinite, kDTypeMask, kTooDeep };
  Reason reason = Reason::kMismatch;
  Type* expected = nullptr;
  Type* found = nullptr;
};

// Deep types cannot overflow the C stack: every recursive walk stops here.
inline constexpr int kMaxTypeDepth = 400;

// Makes `expected` and `found` equal. On failure the variables it bound stay
// bound unless the caller undoes the trail (pass one to be able to).
bool Unify(Type* expected, Type* found, Trail* trail, UnifyFailure* failure);

// Names variables `a`, `b`, ... consistently across the types of one message.
class Printer {
 public:
  // `name_declarations`: a declared type's name also says which declaration
  // it is (`Option@0x...`), so that the text tells apart two types of one
  // name, as the compiler's instance keys must.
  explicit Printer(bool name_declarations = false) : name_declarations_(name_declarations) {}
  std::string Print(const Type* t);

 private:
  void Append(const Type* t, int depth, std::string& out);
  absl::flat_hash_map<const Type*, std::string> names_;
  int type_vars_ = 0;
  int dtype_vars_ = 0;
  int numeric_dtype_vars_ = 0;
  bool name_declarations_ = false;
};

// Convenience for a type printed on its own.
std::string ToString(const Type* t);

// A scheme as users read it: its type, then what its open overloads require
// of the variables, in the operators' own syntax: `(a) -> b where a * Int -> b`.
std::string ToString(const Scheme& scheme);

}  // namespace alea::lang::types

#endif  // ALEA_LANG_TYPES_H_
