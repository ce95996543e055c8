// `progress(i, n)`: the bar itself is the VM's (vm/progress.h, Vm::Progress:
// stderr when it is a terminal); here the arguments are checked.
#include "stdlib/natives.h"

namespace alea::stdlib {

absl::StatusOr<vm::Value> Native_progress(vm::NativeContext& ctx, const vm::Value* args) {
  const int64_t i = vm::AsInt(args[0]), n = vm::AsInt(args[1]);
  if (n < 1 || i < 0 || i >= n) return ctx.Fail(vm::RuntimeErrorId::kProgressRange, i, n);
  ctx.Progress(i, n);
  return vm::Value{0};
}

}  // namespace alea::stdlib
