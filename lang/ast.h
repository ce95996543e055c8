// The abstract syntax tree: what the parser builds and every later pass reads.
//
// Nodes are plain structs owned through unique_ptr by their parent; a Module
// owns its items. Passes annotate nodes in place through the fields marked
// "filled by", so no side tables are needed to find an expression's type.
#ifndef ALEA_LANG_AST_H_
#define ALEA_LANG_AST_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lang/source.h"

namespace alea::lang {

namespace types {
struct Type;    // lang/types.h
struct Scheme;  // lang/types.h
struct Ctor;    // lang/types.h
struct TypeDef;
class TypeStore;
}  // namespace types

struct Expr;
struct Pattern;
struct TypeAnn;
struct FnDecl;
using ExprPtr = std::unique_ptr<Expr>;
using PatternPtr = std::unique_ptr<Pattern>;
using TypeAnnPtr = std::unique_ptr<TypeAnn>;

// ---- Type annotations, as written ------------------------------------------

struct TypeAnn {
  enum class Kind : uint8_t {
    kName,      // `Int`, `Float`, `Bool`, `Str`, `RandState`, `Tensor`, `Tensor(i32)`
    kTuple,     // `(A, B)`; `()` is the empty tuple (unit)
    kArray,     // `[A]`
    kFunction,  // `(A, B) -> C`
  };
  Kind kind;
  Span span;
  std::string name;              // kName
  std::vector<TypeAnnPtr> args;  // kName: `Tensor(f32)` args; kTuple elements; kFunction params
  TypeAnnPtr element;            // kArray element; kFunction result
};

// ---- Patterns (let, parameters, lambdas, match arms) -----------------------

struct Pattern {
  enum class Kind : uint8_t {
    kWildcard,  // `_`
    kVar,       // `x`
    kInt,       // `0`, `-3` (match only)
    kStr,       // `"yes"` (match only): str_value
    kBool,      // `true`, `false` (match only)
    kTuple,     // `(p, q)`; `()` is unit
    kCtor,      // `Circle(r)`, `Dot`: name, elements (the fields, in order)
    kRecord,    // `Params { mu, sigma: s, .. }`: name, field_names, elements, rest
  };
  Kind kind;
  Span span;
  std::string name;  // kVar, kCtor, kRecord
  int64_t int_value = 0;
  bool bool_value = false;
  std::string str_value;             // kStr, escapes decoded
  std::vector<PatternPtr> elements;  // kTuple, kCtor, kRecord (one per field written)
  // kRecord: the name of each field written, in order (`mu` of `mu` and of `mu: m`).
  std::vector<std::string> field_names;
  std::vector<Span> field_spans;
  bool rest = false;  // kRecord: ends with `..`

  // Filled by the type checker: kCtor and kRecord's constructor, and for a
  // kRecord the declared position of each field written.
  const types::Ctor* ctor = nullptr;
  std::vector<int> field_index;

  const types::Type* type = nullptr;  // filled by the type checker
  // Filled by the type checker: a kVar bound by a `let` (local or top-level)
  // gets its type scheme (polymorphic lets are specialized per use).
  const types::Scheme* scheme = nullptr;
};

// ---- Expressions -----------------------------------------------------------

enum class UnaryOp : uint8_t { kNeg, kNot };
enum class BinaryOp : uint8_t {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kRem,
  kMatMul,  // + - * / % @
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,  // == != < <= > >=
  kAnd,
  kOr,  // && || (short-circuit)
};
const char* Spelling(UnaryOp op);
const char* Spelling(BinaryOp op);

struct Arg {
  std::string name;  // empty for a positional argument; `axis` in `sum(x, axis: 0)`
  Span name_span;
  ExprPtr value;
};

struct Param {
  PatternPtr pattern;  // `x`, `_`, or `(a, b)`
  TypeAnnPtr type;     // optional annotation
};

// `let pattern: T = value;` inside a block, or an expression statement.
struct Stmt {
  enum class Kind : uint8_t { kLet, kExpr };
  Kind kind;
  Span span;
  PatternPtr pattern;  // kLet
  TypeAnnPtr type;     // kLet, optional
  ExprPtr expr;        // kLet's value, or the expression
};

struct MatchArm {
  Span span;
  PatternPtr pattern;
  ExprPtr guard;  // optional `if cond`
  ExprPtr body;
};

// What a name refers to; filled by the type checker.
enum class NameKind : uint8_t {
  kUnresolved,
  kLocal,
  kFunction,
  kTopLet,
  kBuiltin,
  kConstructor  // `Some`, `Dot`: Expr::ctor
};

struct Expr {
  enum class Kind : uint8_t {
    kInt,        // int_value
    kFloat,      // float_value
    kBool,       // bool_value
    kStr,        // str_value (escapes already decoded)
    kUnit,       // ()
    kName,       // name
    kTuple,      // elements (two or more)
    kArray,      // elements (zero or more)
    kUnary,      // unary_op, operand
    kBinary,     // binary_op, lhs, rhs
    kCall,       // callee, args
    kIndex,      // lhs[rhs]
    kSlice,      // lhs[rhs:third]; rhs or third may be null (`x[:3]`, `x[1:]`). As an item
                 // of a kSubscript: lhs null, rhs:third:body (body: the step, may be null)
    kSubscript,  // lhs[elements] with several items or a step (`m[i, :]`, `x[::2]`); each
                 // item an expression or a kSlice item
    kLambda,     // params, body
    kIf,         // cond, then_branch, else_branch (null when there is no else)
    kMatch,      // scrutinee (lhs), arms
    kBlock,      // stmts, result (null when the block ends with `;` or is empty)
    kWith,       // `with state { ... }`: lhs is the state, body the block
    kRecord,     // `Name { f: x, g, ..base }`: name; args (name, value) as written; body the base
    kField,      // lhs.name
  };

  Kind kind;
  Span span;

  int64_t int_value = 0;
  double float_value = 0;
  bool bool_value = false;
  std::string str_value;
  std::string name;

  UnaryOp unary_op = UnaryOp::kNeg;
  BinaryOp binary_op = BinaryOp::kAdd;

  ExprPtr lhs;    // unary operand, binary lhs, callee, indexed value, match scrutinee, with-state
  ExprPtr rhs;    // binary rhs, index, slice start, if condition
  ExprPtr third;  // slice end
  std::vector<ExprPtr> elements;  // tuple and array elements
  std::vector<Arg> args;          // call arguments
  std::vector<Param> params;      // lambda parameters
  ExprPtr body;                   // lambda body, with block
  ExprPtr then_branch;            // if
  ExprPtr else_branch;            // if; an `else if` is an else_branch of kind kIf
  std::vector<MatchArm> arms;     // match
  std::vector<Stmt> stmts;        // block
  ExprPtr result;                 // block's final expression

  // Filled by the type checker.
  const types::Type* type = nullptr;
  NameKind name_kind = NameKind::kUnresolved;
  const FnDecl* fn = nullptr;  // kName of a user function
  // kName of a constructor, kRecord: the constructor; kField: the record's
  // (with `field` the field's position).
  const types::Ctor* ctor = nullptr;
  int field = -1;

  // Filled by the type checker: builtins, overloads, polymorphism, random states.
  // The BuiltinId (lang/builtins.h) of an operator, index, slice, builtin call or
  // builtin used as a value, when one overload fits whatever the enclosing
  // function is specialized to; -1 otherwise: resolve it per specialization with
  // ResolveOverload(name, argument types of `site_type`, argument names).
  int builtin = -1;
  // Operators, index, slice and builtin calls: `(argument types as written) ->
  // result` (a sampler's implicit state is not among them); a builtin used as a
  // value: its type.
  const types::Type* site_type = nullptr;
  // kName of a polymorphic fn or let: what the variables of its scheme
  // (types::Scheme::vars, in order) are instantiated to here. (Builtins: see
  // site_type.)
  std::vector<const types::Type*> type_args;
  const Pattern* binding = nullptr;  // kName of a local or top-level `let`: its kVar pattern
  // A call that draws from the ambient random state: a sampler without its
  // state, `rng()`, or a call of a `uses rng` function.
  bool ambient_site = false;
};

// ---- Top level -------------------------------------------------------------

struct FnDecl {
  Span span;       // the whole declaration
  Span name_span;  // the name after `fn`
  std::string name;
  std::vector<Param> params;
  TypeAnnPtr result;  // optional `-> T`
  bool uses_rng = false;
  Span uses_rng_span;
  ExprPtr body;  // `= expr` or a block; null for an `extern fn`
  // `extern fn`: the host provides it. Every parameter has a type and
  // `result` is set (`()` when not written).
  bool is_extern = false;

  const types::Type* type = nullptr;      // filled by the type checker (before generalization)
  const types::Scheme* scheme = nullptr;  // filled by the type checker
};

// `let pattern: T = value` at the top level (a constant), or `extern let
// name: T` (is_extern; no value: the host provides it).
struct TopLet {
  Span span;
  PatternPtr pattern;
  TypeAnnPtr type;
  ExprPtr value;
  bool is_extern = false;
};

// `type Name(a, b) = { f: T, ... }` (a record) or `= A(T, ...) | B | ...` (a variant).
struct FieldDecl {
  Span span;  // the name
  std::string name;
  TypeAnnPtr type;
};
struct CtorDecl {
  Span span;  // the name
  std::string name;
  std::vector<TypeAnnPtr> fields;
};
struct TypeDecl {
  Span span;  // the whole declaration
  Span name_span;
  std::string name;
  std::vector<std::string> params;
  std::vector<Span> param_spans;
  bool is_record = false;
  std::vector<FieldDecl> fields;  // a record's
  std::vector<CtorDecl> ctors;    // a variant's

  types::TypeDef* def = nullptr;  // filled by the type checker
};

struct Import {
  Span span;       // the whole `import "..."`
  Span path_span;  // the string literal
  std::string path;
};

struct Module {
  FileId file = 0;
  std::vector<Import> imports;
  std::vector<std::unique_ptr<FnDecl>> fns;
  std::vector<std::unique_ptr<TopLet>> lets;
  std::vector<std::unique_ptr<TypeDecl>> type_decls;

  // Filled by the type checker: owns every type and scheme the AST points at
  // (shared by all modules of one program).
  std::shared_ptr<types::TypeStore> types;
};

}  // namespace alea::lang

#endif  // ALEA_LANG_AST_H_
