#include "lang/ast_print.h"

#include <charconv>
#include <cmath>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace alea::lang {
namespace {

// Far deeper than anything the parser builds; only a hand-made tree gets here.
constexpr int kMaxPrintDepth = 4096;

class Printer {
 public:
  std::string out;

  void Expr(const lang::Expr& e, int indent);
  void Operand(const lang::Expr& e, int indent);
  void Block(const lang::Expr& e, int indent);
  void Params(const std::vector<Param>& params);

 private:
  // Printing an `if` condition, a `match` scrutinee or a `with` state, where
  // a record literal needs parentheses.
  void Head(const lang::Expr& e, int indent) {
    bool saved = in_head_;
    in_head_ = true;
    Expr(e, indent);
    in_head_ = saved;
  }
  int depth_ = 0;
  bool in_head_ = false;
};

void Line(std::string& out, int indent) {
  out += '\n';
  out.append(static_cast<size_t>(indent), ' ');
}

bool IsBlockLike(const Expr& e) {
  return e.kind == Expr::Kind::kBlock || e.kind == Expr::Kind::kIf ||
         e.kind == Expr::Kind::kMatch || e.kind == Expr::Kind::kWith;
}

void Printer::Params(const std::vector<Param>& params) {
  for (size_t i = 0; i < params.size(); ++i) {
    if (i > 0) out += ", ";
    out += PrintPattern(*params[i].pattern);
    if (params[i].type) absl::StrAppend(&out, ": ", PrintType(*params[i].type));
  }
}

// A callee or indexed value: a lambda would swallow what follows and a
// block-like expression at the start of a statement would end there, so
// both get parentheses.
void Printer::Operand(const lang::Expr& e, int indent) {
  bool wrap = e.kind == Expr::Kind::kLambda || IsBlockLike(e);
  if (wrap) out += '(';
  Expr(e, indent);
  if (wrap) out += ')';
}

void Printer::Block(const lang::Expr& e, int indent) {
  if (e.kind != Expr::Kind::kBlock) {
    // Only a hand-made tree puts a non-block where a block goes.
    out += "{ ";
    Expr(e, indent);
    out += " }";
    return;
  }
  if (e.stmts.empty() && !e.result) {
    out += "{}";
    return;
  }
  out += '{';
  for (const Stmt& stmt : e.stmts) {
    Line(out, indent + 2);
    if (stmt.kind == Stmt::Kind::kLet) {
      absl::StrAppend(&out, "let ", PrintPattern(*stmt.pattern));
      if (stmt.type) absl::StrAppend(&out, ": ", PrintType(*stmt.type));
      out += " = ";
    }
    Expr(*stmt.expr, indent + 2);
    out += ';';
  }
  if (e.result) {
    Line(out, indent + 2);
    Expr(*e.result, indent + 2);
  }
  Line(out, indent);
  out += '}';
}

void Printer::Expr(const lang::Expr& e, int indent) {
  if (depth_ >= kMaxPrintDepth) {
    out += "...";
    return;
  }
  ++depth_;
  using Kind = lang::Expr::Kind;
  switch (e.kind) {
    case Kind::kInt:
      if (e.int_value == INT64_MIN) {
        out += "(-9223372036854775807 - 1)";
      } else if (e.int_value < 0) {
        absl::StrAppend(&out, "(", e.int_value, ")");
      } else {
        absl::StrAppend(&out, e.int_value);
      }
      break;
    case Kind::kFloat:
      out += PrintFloat(e.float_value);
      break;
    case Kind::kBool:
      out += e.bool_value ? "true" : "false";
      break;
    case Kind::kStr:
      out += QuoteString(e.str_value);
      break;
    case Kind::kUnit:
      out += "()";
      break;
    case Kind::kName:
      out += e.name;
      break;
    case Kind::kTuple:
    case Kind::kArray: {
      bool tuple = e.kind == Kind::kTuple;
      out += tuple ? '(' : '[';
      for (size_t i = 0; i < e.elements.size(); ++i) {
        if (i > 0) out += ", ";
        Expr(*e.elements[i], indent);
      }
      // A 1-tuple cannot be written; keep a lone element readable at least.
      out += tuple ? ')' : ']';
      break;
    }
    case Kind::kUnary:
      absl::StrAppend(&out, "(", Spelling(e.unary_op));
      Operand(*e.lhs, indent);
      out += ')';
      break;
    case Kind::kBinary:
      out += '(';
      Operand(*e.lhs, indent);
      absl::StrAppend(&out, " ", Spelling(e.binary_op), " ");
      Operand(*e.rhs, indent);
      out += ')';
      break;
    case Kind::kCall:
      Operand(*e.lhs, indent);
      out += '(';
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (i > 0) out += ", ";
        if (!e.args[i].name.empty()) absl::StrAppend(&out, e.args[i].name, ": ");
        Expr(*e.args[i].value, indent);
      }
      out += ')';
      break;
    case Kind::kIndex:
    case Kind::kSlice:
      Operand(*e.lhs, indent);
      out += '[';
      if (e.rhs) Expr(*e.rhs, indent);
      if (e.kind == Kind::kSlice) {
        out += ':';
        if (e.third) Expr(*e.third, indent);
      }
      out += ']';
      break;
    case Kind::kSubscript:
      Operand(*e.lhs, indent);
      out += '[';
      for (size_t i = 0; i < e.elements.size(); ++i) {
        if (i > 0) out += ", ";
        const lang::Expr& item = *e.elements[i];
        if (item.kind != Kind::kSlice || item.lhs != nullptr) {
          Expr(item, indent);
          continue;
        }
        if (item.rhs) Expr(*item.rhs, indent);
        out += ':';
        if (item.third) Expr(*item.third, indent);
        if (item.body) {
          out += ':';
          Expr(*item.body, indent);
        }
      }
      out += ']';
      break;
    case Kind::kLambda:
      out += '|';
      Params(e.params);
      out += "| ";
      Expr(*e.body, indent);
      break;
    case Kind::kIf:
      out += "if ";
      Head(*e.rhs, indent);
      out += ' ';
      Block(*e.then_branch, indent);
      if (e.else_branch) {
        out += " else ";
        if (e.else_branch->kind == Kind::kIf) {
          Expr(*e.else_branch, indent);
        } else {
          Block(*e.else_branch, indent);
        }
      }
      break;
    case Kind::kMatch:
      out += "match ";
      Head(*e.lhs, indent);
      out += " {";
      for (const MatchArm& arm : e.arms) {
        Line(out, indent + 2);
        out += PrintPattern(*arm.pattern);
        if (arm.guard) {
          out += " if ";
          Expr(*arm.guard, indent + 2);
        }
        out += " => ";
        Expr(*arm.body, indent + 2);
        out += ',';
      }
      Line(out, indent);
      out += '}';
      break;
    case Kind::kBlock:
      Block(e, indent);
      break;
    case Kind::kWith:
      out += "with ";
      Head(*e.lhs, indent);
      out += ' ';
      Block(*e.body, indent);
      break;
    case Kind::kRecord: {
      if (in_head_) out += '(';
      bool saved = in_head_;
      in_head_ = false;
      absl::StrAppend(&out, e.name, " {");
      for (size_t i = 0; i < e.args.size(); ++i) {
        absl::StrAppend(&out, i > 0 ? ", " : " ", e.args[i].name, ": ");
        Expr(*e.args[i].value, indent);
      }
      if (e.body) {
        out += e.args.empty() ? " .." : ", ..";
        Expr(*e.body, indent);
      }
      out += e.args.empty() && !e.body ? "}" : " }";
      in_head_ = saved;
      if (in_head_) out += ')';
      break;
    }
    case Kind::kField:
      Operand(*e.lhs, indent);
      absl::StrAppend(&out, ".", e.name);
      break;
  }
  --depth_;
}

}  // namespace

std::string PrintFloat(double value) {
  if (std::isnan(value)) return "(0.0 / 0.0)";
  if (std::isinf(value)) return value > 0 ? "(1.0 / 0.0)" : "(-1.0 / 0.0)";
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, end);
  // Shortest round-trip digits; `1` must become `1.0` to stay a Float.
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  if (text[0] == '-') return absl::StrCat("(", text, ")");
  return text;
}

std::string QuoteString(const std::string& value) {
  std::string out = "\"";
  for (char c : value) {
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        out += c;
    }
  }
  out += '"';
  return out;
}

std::string PrintType(const TypeAnn& type) {
  std::string out;
  auto list = [&](const std::vector<TypeAnnPtr>& types) {
    out += '(';
    for (size_t i = 0; i < types.size(); ++i) {
      if (i > 0) out += ", ";
      out += PrintType(*types[i]);
    }
    out += ')';
  };
  switch (type.kind) {
    case TypeAnn::Kind::kName:
      out = type.name;
      if (!type.args.empty()) list(type.args);
      break;
    case TypeAnn::Kind::kTuple:
      list(type.args);
      break;
    case TypeAnn::Kind::kArray:
      absl::StrAppend(&out, "[", PrintType(*type.element), "]");
      break;
    case TypeAnn::Kind::kFunction:
      list(type.args);
      absl::StrAppend(&out, " -> ", PrintType(*type.element));
      break;
  }
  return out;
}

std::string PrintPattern(const Pattern& pattern) {
  switch (pattern.kind) {
    case Pattern::Kind::kWildcard:
      return "_";
    case Pattern::Kind::kVar:
      return pattern.name;
    case Pattern::Kind::kInt:
      return absl::StrCat(pattern.int_value);
    case Pattern::Kind::kBool:
      return pattern.bool_value ? "true" : "false";
    case Pattern::Kind::kStr:
      return QuoteString(pattern.str_value);
    case Pattern::Kind::kTuple: {
      std::string out = "(";
      for (size_t i = 0; i < pattern.elements.size(); ++i) {
        if (i > 0) out += ", ";
        out += PrintPattern(*pattern.elements[i]);
      }
      return out + ")";
    }
    case Pattern::Kind::kCtor: {
      if (pattern.elements.empty()) return pattern.name;
      std::string out = pattern.name + "(";
      for (size_t i = 0; i < pattern.elements.size(); ++i) {
        if (i > 0) out += ", ";
        out += PrintPattern(*pattern.elements[i]);
      }
      return out + ")";
    }
    case Pattern::Kind::kRecord: {
      std::string out = pattern.name + " {";
      for (size_t i = 0; i < pattern.elements.size(); ++i) {
        const Pattern& sub = *pattern.elements[i];
        const std::string& field = pattern.field_names[i];
        absl::StrAppend(&out, i > 0 ? ", " : " ", field);
        if (sub.kind != Pattern::Kind::kVar || sub.name != field) {
          absl::StrAppend(&out, ": ", PrintPattern(sub));
        }
      }
      if (pattern.rest) out += pattern.elements.empty() ? " .." : ", ..";
      return out + (pattern.elements.empty() && !pattern.rest ? "}" : " }");
    }
  }
  return "_";
}

std::string PrintExpr(const Expr& expr, int indent) {
  Printer printer;
  printer.Expr(expr, indent);
  return std::move(printer.out);
}

std::string PrintFn(const FnDecl& fn) {
  Printer printer;
  absl::StrAppend(&printer.out, fn.is_extern ? "extern fn " : "fn ", fn.name, "(");
  printer.Params(fn.params);
  printer.out += ')';
  if (fn.result) absl::StrAppend(&printer.out, " -> ", PrintType(*fn.result));
  if (fn.uses_rng) printer.out += " uses rng";
  if (fn.body && fn.body->kind == Expr::Kind::kBlock) {
    printer.out += ' ';
    printer.Block(*fn.body, 0);
  } else if (fn.body) {
    printer.out += " = ";
    printer.Expr(*fn.body, 0);
  }
  return std::move(printer.out);
}

std::string PrintTypeDecl(const TypeDecl& decl) {
  std::string out = absl::StrCat("type ", decl.name);
  if (!decl.params.empty()) absl::StrAppend(&out, "(", absl::StrJoin(decl.params, ", "), ")");
  out += " =";
  if (decl.is_record) {
    out += " {";
    for (size_t i = 0; i < decl.fields.size(); ++i) {
      absl::StrAppend(&out, i > 0 ? ", " : " ", decl.fields[i].name, ": ",
                      PrintType(*decl.fields[i].type));
    }
    return out + (decl.fields.empty() ? "}" : " }");
  }
  for (size_t i = 0; i < decl.ctors.size(); ++i) {
    const CtorDecl& ctor = decl.ctors[i];
    absl::StrAppend(&out, i > 0 ? " | " : " ", ctor.name);
    if (ctor.fields.empty()) continue;
    out += '(';
    for (size_t j = 0; j < ctor.fields.size(); ++j) {
      if (j > 0) out += ", ";
      out += PrintType(*ctor.fields[j]);
    }
    out += ')';
  }
  return out;
}

std::string PrintModule(const Module& module) {
  std::string out;
  for (const Import& import : module.imports) {
    absl::StrAppend(&out, "import ", QuoteString(import.path), "\n");
  }
  if (!module.imports.empty()) out += '\n';
  for (const auto& decl : module.type_decls) absl::StrAppend(&out, PrintTypeDecl(*decl), "\n");
  if (!module.type_decls.empty()) out += '\n';
  for (const auto& let : module.lets) {
    absl::StrAppend(&out, let->is_extern ? "extern let " : "let ", PrintPattern(*let->pattern));
    if (let->type) absl::StrAppend(&out, ": ", PrintType(*let->type));
    if (let->value) absl::StrAppend(&out, " = ", PrintExpr(*let->value));
    out += ";\n";
  }
  if (!module.lets.empty()) out += '\n';
  for (size_t i = 0; i < module.fns.size(); ++i) {
    if (i > 0) out += '\n';
    absl::StrAppend(&out, PrintFn(*module.fns[i]), "\n");
  }
  return out;
}

}  // namespace alea::lang
