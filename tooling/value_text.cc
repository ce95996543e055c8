#include "tooling/value_text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "vm/print.h"
#include "vm/tensor.h"

namespace alea::tooling {

std::string ResultText(absl::string_view head, absl::string_view type, vm::Value value,
                       const vm::ExportType& result, const vm::Module& module) {
  std::string out = absl::StrCat(head, " : ", type);
  const vm::TypeDesc& desc = module.types[result.type];
  std::string text;
  if (desc.kind == vm::TypeDesc::Kind::kTensor) {
    absl::StrAppend(&out, " [", absl::StrJoin(vm::ShapeOf(vm::AsObject(value)), ", "), "]");
  }
  if (desc.kind == vm::TypeDesc::Kind::kStr) {
    vm::AppendQuoted(&text, vm::StrView(vm::AsObject(value)));
  } else {
    // The REPL's own terminal: a plot as wide as it is.
    vm::AppendValue(&text, value, result.type, module, vm::PlotStyleFor(1));
  }
  if (text.find('\n') != std::string::npos) {
    absl::StrAppend(&out, " =\n", text, "\n");
  } else {
    absl::StrAppend(&out, " = ", text, "\n");
  }
  return out;
}

}  // namespace alea::tooling
