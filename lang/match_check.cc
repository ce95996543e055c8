// Exhaustiveness and reachability of `match` arms, after Maranget's
// "Warnings for pattern matching" (JFP 2007): a pattern vector is *useful*
// against a matrix of earlier rows when some value matches it and no earlier
// row. The arm patterns alone tell the constructor sets we need — `true` and
// `false` make a column Bool, a tuple pattern makes it a tuple, an Int
// literal makes it Int, whose constructor set is never complete — so this
// runs on the syntax and does not wait for types.
#include "lang/match_check.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lang/ast_walk.h"
#include "lang/types.h"

namespace alea::lang {
namespace {

// A pattern in a matrix cell; nullptr stands for a wildcard, as do variables.
using Cell = const Pattern*;
using Row = std::vector<Cell>;
using Matrix = std::vector<Row>;

bool IsWildcard(Cell p) {
  return p == nullptr || p->kind == Pattern::Kind::kWildcard || p->kind == Pattern::Kind::kVar;
}

// A head constructor: a Bool, Int or Str value, a tuple of some arity, or a
// constructor of a declared type (a record's one included).
struct Ctor {
  Ctor(Pattern::Kind k, int64_t v = 0, const types::Ctor* c = nullptr, std::string t = "")
      : kind(k), value(v), ctor(c), text(std::move(t)) {}
  Pattern::Kind kind;
  int64_t value = 0;                  // Int value, Bool as 0/1, tuple arity, constructor tag
  const types::Ctor* ctor = nullptr;  // kCtor
  std::string text;                   // kStr
  bool operator<(const Ctor& other) const {
    if (kind != other.kind) return kind < other.kind;
    return value != other.value ? value < other.value : text < other.text;
  }
};

Ctor CtorOf(Cell p) {
  switch (p->kind) {
    case Pattern::Kind::kInt:
      return {p->kind, p->int_value};
    case Pattern::Kind::kBool:
      return {p->kind, p->bool_value ? 1 : 0};
    case Pattern::Kind::kStr:
      return {p->kind, 0, nullptr, p->str_value};
    case Pattern::Kind::kCtor:
    case Pattern::Kind::kRecord:
      return {Pattern::Kind::kCtor, p->ctor->tag, p->ctor};
    default:
      return {Pattern::Kind::kTuple, static_cast<int64_t>(p->elements.size())};
  }
}

int Arity(const Ctor& c) {
  if (c.kind == Pattern::Kind::kCtor) return static_cast<int>(c.ctor->fields.size());
  return c.kind == Pattern::Kind::kTuple ? static_cast<int>(c.value) : 0;
}

// The sub-patterns of a constructor, tuple or record pattern in field order
// (a record pattern's unnamed fields are wildcards).
std::vector<Cell> Fields(Cell p, int arity) {
  std::vector<Cell> out;
  if (p->kind == Pattern::Kind::kRecord) {
    out.assign(arity, nullptr);
    for (size_t k = 0; k < p->elements.size() && k < p->field_index.size(); ++k) {
      int i = p->field_index[k];
      if (i >= 0 && i < arity) out[i] = p->elements[k].get();
    }
    return out;
  }
  for (const PatternPtr& element : p->elements) out.push_back(element.get());
  return out;
}

// How a missing case reads: `Dot`, `Circle(_)`, `Params { mu: _, sigma: _ }`.
std::string CtorText(const types::Ctor& c, absl::Span<const std::string> fields) {
  if (!c.field_names.empty()) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < fields.size() && i < c.field_names.size(); ++i) {
      parts.push_back(absl::StrCat(c.field_names[i], ": ", fields[i]));
    }
    return absl::StrCat(c.name, " { ", absl::StrJoin(parts, ", "), " }");
  }
  if (fields.empty()) return c.name;
  return absl::StrCat(c.name, "(", absl::StrJoin(fields, ", "), ")");
}

// The rows that can match constructor c in column 0, with c's fields spliced in.
Matrix Specialize(const Matrix& m, const Ctor& c) {
  Matrix out;
  for (const Row& row : m) {
    Row next;
    if (IsWildcard(row[0])) {
      next.assign(Arity(c), nullptr);
    } else {
      Ctor head = CtorOf(row[0]);
      if (head.kind != c.kind || head.value != c.value || head.text != c.text) continue;
      next = Fields(row[0], Arity(c));
    }
    next.insert(next.end(), row.begin() + 1, row.end());
    out.push_back(std::move(next));
  }
  return out;
}

// The rows whose column 0 is a wildcard, without that column.
Matrix Default(const Matrix& m) {
  Matrix out;
  for (const Row& row : m) {
    if (IsWildcard(row[0])) out.emplace_back(row.begin() + 1, row.end());
  }
  return out;
}

std::set<Ctor> HeadCtors(const Matrix& m) {
  std::set<Ctor> heads;
  for (const Row& row : m) {
    if (!IsWildcard(row[0])) heads.insert(CtorOf(row[0]));
  }
  return heads;
}

// Whether `heads` names every value of its type: both Bools, or a tuple (one
// constructor). Ints are never complete.
bool IsComplete(const std::set<Ctor>& heads) {
  if (heads.empty()) return false;
  const Ctor& first = *heads.begin();
  if (first.kind == Pattern::Kind::kTuple) return true;
  if (first.kind == Pattern::Kind::kCtor) return heads.size() == first.ctor->owner->ctors.size();
  return first.kind == Pattern::Kind::kBool && heads.size() == 2;
}

bool Useful(const Matrix& m, const Row& q) {
  if (q.empty()) return m.empty();
  if (!IsWildcard(q[0])) {
    Ctor c = CtorOf(q[0]);
    Matrix qs = Specialize(Matrix{q}, c);
    return Useful(Specialize(m, c), qs[0]);
  }
  std::set<Ctor> heads = HeadCtors(m);
  if (IsComplete(heads)) {
    for (const Ctor& c : heads) {
      Matrix qs = Specialize(Matrix{q}, c);
      if (Useful(Specialize(m, c), qs[0])) return true;
    }
    return false;
  }
  return Useful(Default(m), Row(q.begin() + 1, q.end()));
}

// A value no row matches, as pattern text, for `columns` columns; empty when
// the matrix is exhaustive.
std::optional<std::vector<std::string>> Missing(const Matrix& m, size_t columns) {
  if (columns == 0) {
    if (m.empty()) return std::vector<std::string>{};
    return std::nullopt;
  }
  std::set<Ctor> heads = HeadCtors(m);
  if (IsComplete(heads)) {
    for (const Ctor& c : heads) {
      int arity = Arity(c);
      auto rest = Missing(Specialize(m, c), arity + columns - 1);
      if (!rest) continue;
      std::vector<std::string> out;
      if (c.kind == Pattern::Kind::kBool) {
        out.push_back(c.value ? "true" : "false");
      } else if (c.kind == Pattern::Kind::kCtor) {
        out.push_back(
            CtorText(*c.ctor, absl::MakeConstSpan(rest->data(), static_cast<size_t>(arity))));
      } else {
        out.push_back(
            absl::StrCat("(", absl::StrJoin(rest->begin(), rest->begin() + arity, ", "), ")"));
      }
      out.insert(out.end(), rest->begin() + arity, rest->end());
      return out;
    }
    return std::nullopt;
  }
  auto rest = Missing(Default(m), columns - 1);
  if (!rest) return std::nullopt;
  std::string head = "_";
  if (!heads.empty() && heads.begin()->kind == Pattern::Kind::kBool) {
    head = heads.count(Ctor{Pattern::Kind::kBool, 1}) ? "false" : "true";
  } else if (!heads.empty() && heads.begin()->kind == Pattern::Kind::kCtor) {
    // The first constructor no arm names.
    for (const types::Ctor& c : heads.begin()->ctor->owner->ctors) {
      if (heads.count(Ctor{Pattern::Kind::kCtor, c.tag, &c})) continue;
      head = CtorText(c, std::vector<std::string>(c.fields.size(), "_"));
      break;
    }
  } else if (!heads.empty() && heads.begin()->kind == Pattern::Kind::kInt) {
    int64_t candidate = 0;  // the smallest non-negative Int no arm names
    while (heads.count(Ctor{Pattern::Kind::kInt, candidate})) ++candidate;
    head = absl::StrCat(candidate);
  }
  rest->insert(rest->begin(), head);
  return rest;
}

// Whether every constructor pattern in `p` was resolved (after a type error
// one may not be, and then the match is not checked).
bool Resolved(const Pattern& p) {
  if ((p.kind == Pattern::Kind::kCtor || p.kind == Pattern::Kind::kRecord) &&
      (p.ctor == nullptr ||
       (p.kind == Pattern::Kind::kRecord && p.field_index.size() != p.elements.size()))) {
    return false;
  }
  for (const PatternPtr& element : p.elements) {
    if (!element || !Resolved(*element)) return false;
  }
  return true;
}

void CheckMatch(const Expr& match, Diagnostics& diags) {
  for (const MatchArm& arm : match.arms) {
    if (!arm.pattern || !Resolved(*arm.pattern)) return;
  }
  Matrix earlier;  // unguarded arms so far: a guard may fail, so it covers nothing
  for (const MatchArm& arm : match.arms) {
    Row row{arm.pattern.get()};
    if (!Useful(earlier, row)) {
      diags.Report(DiagId::kUnreachableArm, arm.pattern->span);
    }
    if (!arm.guard) earlier.push_back(row);
  }
  if (auto missing = Missing(earlier, 1)) {
    Diagnostic& d = diags.Report(DiagId::kNonExhaustiveMatch,
                                 match.lhs ? match.lhs->span : match.span, (*missing)[0]);
    bool guarded = false;
    for (const MatchArm& arm : match.arms) guarded = guarded || arm.guard != nullptr;
    if (guarded) d.Note(std::nullopt, DiagId::kNoteGuardsDoNotCount);
  }
}

}  // namespace

void CheckMatches(const Module& module, Diagnostics& diags) {
  auto visit = [&diags](const Expr& e) {
    if (e.kind == Expr::Kind::kMatch) CheckMatch(e, diags);
  };
  for (const auto& fn : module.fns) {
    if (fn->body) WalkExpr(*fn->body, visit);
  }
  for (const auto& let : module.lets) {
    if (let->value) WalkExpr(*let->value, visit);
  }
}

}  // namespace alea::lang
