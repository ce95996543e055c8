// `choice` and `shuffle` (rand_* natives): jax.random.choice's four
// algorithms (randint, a permutation's prefix, weights by inverse CDF,
// weights by Gumbel top-k) over vm/random/samplers.h and choice.h, and
// permutation applied to an Alea array.
//
// One native serves both populations of each form: an Int n (0 to n - 1)
// or a tensor (its rows along axis 0), told apart by the argument's
// register, as `p`'s absence (the builtin's `none`, a plain Int 0) is.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "stdlib/natives.h"
#include "stdlib/random_args.h"
#include "stdlib/random_weights.h"
#include "vm/random/choice.h"
#include "vm/random/samplers.h"
#include "vm/random/scalar.h"
#include "vm/random_draw.h"

namespace alea::stdlib {

using vm::Value;

namespace {

// A draw by weights costs a uniform and a binary search; randint two hashes.
constexpr double kChoiceNs = 40.0;

// What a choice call chooses from and how: args are (s, a, [shape,]
// replace, p), `replace` at replace_at.
struct ChoiceArgs {
  const vm::Object* xs = nullptr;  // null: an Int population
  int64_t n = 0;                   // the population's size
  bool replace = true;
  const vm::Object* p = nullptr;  // null: uniform
};

ChoiceArgs ReadChoice(vm::NativeContext& ctx, const Value* args, int replace_at) {
  ChoiceArgs c;
  if (ctx.arg_is_reference(1)) {
    c.xs = vm::AsObject(args[1]);
  } else {
    c.n = vm::AsInt(args[1]);
  }
  c.replace = args[replace_at] != 0;
  if (ctx.arg_is_reference(replace_at + 1)) c.p = vm::AsObject(args[replace_at + 1]);
  return c;
}

// JAX's checks, in its order, once the number of draws is known: a
// population of at least one (tensors: at least one axis, an i32 index for
// each row), no more draws than it has without replacement, and one valid
// weight per element.
absl::Status CheckChoice(vm::NativeContext& ctx, ChoiceArgs& c, int64_t draws) {
  if (c.xs != nullptr) {
    const absl::Span<const int64_t> shape = vm::ShapeOf(c.xs);
    if (shape.empty()) {
      return ctx.Fail(vm::RuntimeErrorId::kChoiceRank, vm::ShapeString(shape),
                      "it chooses rows, along the first axis: give it at least one (an Int n "
                      "chooses from 0 to n - 1)");
    }
    c.n = shape[0];
  }
  if (c.n <= 0 || c.n > INT32_MAX) {
    return ctx.Fail(vm::RuntimeErrorId::kRandomParameter, "choice", "n", c.n,
                    "the population has 1 to 2147483647 elements (i32 indices)");
  }
  if (!c.replace && draws > c.n) {
    return ctx.Fail(vm::RuntimeErrorId::kChoiceTooMany, draws, c.n);
  }
  if (c.p != nullptr) {
    if (absl::Status s = CheckF32(ctx, "choice", "p", c.p); !s.ok()) return s;
    const absl::Span<const int64_t> p_shape = vm::ShapeOf(c.p);
    if (p_shape.size() != 1 || p_shape[0] != c.n) {
      return ctx.Fail(vm::RuntimeErrorId::kChoiceWeightsShape, vm::ShapeString(p_shape), c.n);
    }
    return CheckWeights(ctx, "choice", vm::ElementsOf<float>(c.p), c.n);
  }
  return absl::OkStatus();
}

// permutation(k, n) into out, the sort's scratch on the heap (its budget
// bounds it).
absl::Status Permute(vm::NativeContext& ctx, vm::TensorContext& cx, vm::random::Key k, uint64_t n,
                     int32_t* out) {
  vm::Object* scratch = cx.Scratch(static_cast<int64_t>(2 * n));  // n words of 8 bytes
  if (scratch == nullptr) return ctx.Fail(cx);
  vm::random::Permutation(k, n, out, static_cast<uint64_t*>(vm::DataOf(scratch)));
  cx.heap().Release(scratch);
  return absl::OkStatus();
}

// The indices of `draws` draws into idx, by JAX's algorithm for the case.
// replace without weights is not here: it is randint, element by element.
absl::Status DrawIndices(vm::NativeContext& ctx, vm::TensorContext& cx, vm::random::Key k,
                         const ChoiceArgs& c, int64_t draws, int32_t* idx) {
  if (c.p == nullptr) {
    // Without replacement: the prefix of permutation(k, n), in a tensor so
    // that the heap's budget bounds it.
    vm::Object* perm = cx.Scratch(c.n);
    if (perm == nullptr) return ctx.Fail(cx);
    int32_t* order = static_cast<int32_t*>(vm::DataOf(perm));
    absl::Status s = Permute(ctx, cx, k, static_cast<uint64_t>(c.n), order);
    if (s.ok()) std::copy(order, order + draws, idx);
    cx.heap().Release(perm);
    return s;
  }
  const float* p = vm::ElementsOf<float>(c.p);
  const vm::JitDrawKernels kernels(cx);
  if (!c.replace) {
    vm::random::ChoiceTopK(k, p, c.n, draws, idx, kernels);
    return absl::OkStatus();
  }
  std::vector<float> cum(static_cast<size_t>(c.n));
  vm::random::CumulativeSum(p, c.n, cum.data());
  cx.ForRanges(
      draws, 64, vm::ThreadPool::MinRange(kChoiceNs), [&](int, int64_t begin, int64_t end) {
        vm::random::ChoiceByWeights(k, cum.data(), c.n, static_cast<uint64_t>(begin),
                                    static_cast<uint64_t>(end - begin), idx + begin, kernels);
      });
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Value> Native_rand_choice(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(args[0]);
  if (!key.ok()) return key.status();
  ChoiceArgs c = ReadChoice(ctx, args, 3);
  const vm::Shape shape = vm::ShapeFromIntArray(args[2]);
  vm::TensorContext cx = ctx.tensors();
  const int64_t draws = vm::ElementCount(vm::DType::kI32, shape);
  if (draws <= 0) {
    // No draws (or a bad shape, whose error New reports): JAX returns
    // zeros(shape) of the population's dtype before any other check.
    vm::Object* none = cx.New(c.xs != nullptr ? vm::DTypeOf(c.xs) : vm::DType::kI32, shape);
    if (none == nullptr) return ctx.Fail(cx);
    ctx.ConsumeState(args[0]);
    return vm::FromObject(none);
  }
  if (absl::Status s = CheckChoice(ctx, c, draws); !s.ok()) return s;
  vm::Shape out_shape = shape;
  int64_t row_bytes = 0;
  if (c.xs != nullptr) {
    const absl::Span<const int64_t> rest = vm::ShapeOf(c.xs).subspan(1);
    out_shape.insert(out_shape.end(), rest.begin(), rest.end());
    row_bytes = vm::ElementBytes(vm::DTypeOf(c.xs));
    for (int64_t d : rest) row_bytes *= d;
  }
  vm::Object* out = cx.New(c.xs != nullptr ? vm::DTypeOf(c.xs) : vm::DType::kI32, out_shape);
  if (out == nullptr) return ctx.Fail(cx);
  // Indices go straight into an Int population's result; a tensor's are
  // heap scratch, as its rows may be empty (a result of no bytes for any
  // number of draws).
  ScratchTensors scratch(cx.heap());
  int32_t* idx = vm::ElementsOf<int32_t>(out);
  if (c.xs != nullptr) {
    vm::Object* indices = scratch.Hold(cx.Scratch(draws));
    if (indices == nullptr) {
      cx.heap().Release(out);
      return ctx.Fail(cx);
    }
    idx = static_cast<int32_t*>(vm::DataOf(indices));
  }
  if (c.replace && c.p == nullptr) {
    const vm::random::Key k = *key;
    const int64_t n = c.n;
    const vm::JitDrawKernels kernels(cx);
    cx.ForRanges(
        draws, 64, vm::ThreadPool::MinRange(kChoiceNs), [&](int, int64_t begin, int64_t end) {
          vm::random::ChoiceUniform(k, n, static_cast<uint64_t>(begin),
                                    static_cast<uint64_t>(end - begin), idx + begin, kernels);
        });
  } else if (absl::Status s = DrawIndices(ctx, cx, *key, c, draws, idx); !s.ok()) {
    cx.heap().Release(out);
    return s;
  }
  if (c.xs != nullptr && row_bytes > 0) {
    const auto* from = static_cast<const char*>(vm::DataOf(c.xs));
    auto* to = static_cast<char*>(vm::DataOf(out));
    for (int64_t i = 0; i < draws; ++i) {
      std::memcpy(to + i * row_bytes, from + static_cast<int64_t>(idx[i]) * row_bytes,
                  static_cast<size_t>(row_bytes));
    }
  }
  ctx.ConsumeState(args[0]);
  return vm::FromObject(out);
}

absl::StatusOr<Value> Native_rand_choice_scalar(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(args[0]);
  if (!key.ok()) return key.status();
  ChoiceArgs c = ReadChoice(ctx, args, 2);
  // The one element chosen is read as a Float.
  if (c.xs != nullptr) {
    if (absl::Status s = CheckF32(ctx, "choice", "xs", c.xs); !s.ok()) return s;
  }
  if (c.xs != nullptr && vm::ShapeOf(c.xs).size() != 1) {
    return ctx.Fail(vm::RuntimeErrorId::kChoiceRank, vm::ShapeString(vm::ShapeOf(c.xs)),
                    "without a shape `choice` picks one number, from a 1-d tensor; "
                    "`choice(s, xs, [])` picks a row");
  }
  // With replacement and no weights, JAX's x64 draw is an int64 randint, so
  // an Int population may exceed i32.
  const bool randint = c.replace && c.p == nullptr;
  if (randint && c.xs == nullptr) {
    if (c.n <= 0) {
      return ctx.Fail(vm::RuntimeErrorId::kRandomParameter, "choice", "n", c.n,
                      "the population has at least 1 element");
    }
  } else if (absl::Status s = CheckChoice(ctx, c, 1); !s.ok()) {
    return s;
  }
  int64_t index;
  if (randint) {
    index = vm::random::RandIntScalar(*key, 0, c.n);
  } else {
    vm::TensorContext cx = ctx.tensors();
    int32_t one;
    if (absl::Status s = DrawIndices(ctx, cx, *key, c, 1, &one); !s.ok()) return s;
    index = one;
  }
  ctx.ConsumeState(args[0]);
  if (c.xs == nullptr) return vm::FromInt(index);
  return vm::FromFloat(vm::ElementsOf<float>(c.xs)[index]);
}

absl::StatusOr<Value> Native_rand_shuffle(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(args[0]);
  if (!key.ok()) return key.status();
  const vm::Object* xs = vm::AsObject(args[1]);
  const uint64_t n = xs->length;
  if (n > INT32_MAX) {
    return ctx.Fail(vm::RuntimeErrorId::kRandomParameter, "shuffle", "len(xs)",
                    static_cast<int64_t>(n), "permutation draws i32 positions");
  }
  vm::TensorContext cx = ctx.tensors();
  ScratchTensors scratch(cx.heap());
  vm::Object* perm = scratch.Hold(cx.Scratch(static_cast<int64_t>(n)));
  if (perm == nullptr) return ctx.Fail(cx);
  int32_t* order = static_cast<int32_t*>(vm::DataOf(perm));
  if (absl::Status s = Permute(ctx, cx, *key, n, order); !s.ok()) return s;
  absl::StatusOr<vm::Object*> out = ctx.NewArray(n, xs->elements_are_refs);
  if (!out.ok()) return out.status();
  for (uint64_t i = 0; i < n; ++i) {
    const Value x = vm::Slots(xs)[order[i]];
    if (xs->elements_are_refs) vm::Retain(x);
    vm::Slots(*out)[i] = x;
  }
  ctx.ConsumeState(args[0]);
  return vm::FromObject(*out);
}

}  // namespace alea::stdlib
