// The random-state opcodes' out-of-line bodies (opcodes.def "Random states"):
// the use-once bookkeeping of vm/randstate.h around the key derivations of
// vm/random/keys.h and the samplers of vm/random/samplers.h.
//
// Every consuming opcode works in the same order: the reuse check, then its
// arguments, then allocation, and only then marks the state consumed. So an
// operation that fails draws nothing and leaves its state as it was (which
// matters once the host can hold states across runs), and a reused state is
// reported as such even when its other arguments are also wrong.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/strip.h"
#include "vm/random/keys.h"
#include "vm/random/samplers.h"
#include "vm/random/scalar.h"
#include "vm/random/unboxed.h"
#include "vm/random_draw.h"
#include "vm/randstate.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"
#include "vm/thread_pool.h"
#include "vm/vm.h"

namespace alea::vm {
namespace {

// Argument registers a sampler takes, its state included (opcodes.def).
int SamplerArity(Op op) {
  switch (op) {
    case Op::BITS:
    case Op::NORMAL:
    case Op::EXPONENTIAL:
    case Op::CATEGORICAL:
    case Op::PERMUTATION:
      return 2;
    case Op::BERNOULLI:
    case Op::DROPOUT:
      return 3;
    case Op::UNIFORM:
    case Op::RANDINT:
      return 4;
    default:
      return -1;
  }
}

}  // namespace

Object* Vm::NewRandState(const random::RandState& state, const RandSite& site) {
  Object* o = heap_.NewRandState(state);
  if (o == nullptr) {
    RaiseOutOfMemory();
    return nullptr;
  }
  SetCreatedAt(o, site);
  return o;
}

bool Vm::RaiseStateReused(const Object* state) {
  RuntimeError e = MakeRuntimeError(RuntimeErrorId::kStateReused);
  // A site of an earlier module gets a note without a location: its function
  // and pc would name unrelated code of the current one.
  auto add_note = [&](const RandSite& site, const std::optional<std::string>& text) {
    if (!text) return;
    if (site.module != loads_) {
      e.notes.emplace_back(SourceLocation{}, *text);
    } else if (std::optional<SourceLocation> at = LocationOf(*module_, site)) {
      e.notes.emplace_back(*at, *text);
    }
  };
  const RandSite created = CreatedAt(state);
  add_note(created, CreatedNote(created, created.module == loads_));
  const RandSite consumed = ConsumedAt(state);
  if (consumed.function != RandSite::kNoFunction) {  // else consumed outside any instruction
    // A sampler native (CALLN) is named for its builtin: natives.def names
    // them `rand_NAME` (with a shape), `rand_NAME_scalar` (without) and
    // `rand_NAME__FORM` (another overload).
    std::string native;
    if (consumed.op == Op::CALLN && consumed.module == loads_ &&
        consumed.function < module_->functions.size() &&
        consumed.pc < module_->functions[consumed.function].code.size()) {
      const Instr call = module_->functions[consumed.function].code[consumed.pc];
      if (call.b < module_->natives.size()) {
        absl::string_view name = module_->natives[call.b];
        absl::ConsumePrefix(&name, "rand_");
        name = name.substr(0, name.find("__"));
        absl::ConsumeSuffix(&name, "_scalar");
        native = std::string(name);
      }
    }
    add_note(consumed, ConsumedNote(consumed, consumed.module == loads_,
                                    native.empty() ? nullptr : native.c_str()));
  }
  SetError(std::move(e));
  return false;
}

void Vm::PutReference(Value* r, uint16_t a, Object* o) {
  // The destination may be one of the operand registers (the consumed state,
  // a borrowed argument): the reference it held is then the instruction's to
  // release, since nothing else can reach it once it is overwritten.
  const Value old = r[a];
  r[a] = FromObject(o);
  const FuncInfo* fn = frames_[depth_ - 1].fn;
  if (old != 0 && a < fn->num_registers && fn->is_ref[a]) heap_.ReleaseValue(old);
}

bool Vm::RandomOp(Instr ins, Value* r) {
  // The state was saved by the caller: the running instruction is pc - 1.
  const Frame& frame = frames_[depth_ - 1];
  const RandSite here{frame.fn->index, static_cast<uint32_t>(frame.pc - 1 - frame.fn->code), ins.op,
                      loads_};
  switch (ins.op) {
    case Op::KEY: {
      Object* s = NewRandState(random::KeyFromSeed(AsInt(r[ins.b])), here);
      if (s == nullptr) return false;
      PutReference(r, ins.a, s);
      return true;
    }
    case Op::CONSUME: {
      Object* s = AsObject(r[ins.a]);
      if (IsConsumed(s)) return RaiseStateReused(s);
      MarkConsumed(s, here);
      return true;
    }
    default:
      break;
  }

  Object* state = AsObject(r[ins.b]);
  if (IsConsumed(state)) return RaiseStateReused(state);
  const random::RandState& s = StateOf(state);
  switch (ins.op) {
    case Op::SPLIT:
    case Op::NEXT: {
      std::pair<random::RandState, random::RandState> pair;
      if (ins.op == Op::SPLIT) {
        pair = random::Split(s);
      } else {
        // The counter is 32 bits; wrapping to 0 would silently restart the
        // stream, repeating every state it gave.
        if (s.n == UINT32_MAX) {
          Raise(RuntimeErrorId::kStreamExhausted);
          return false;
        }
        pair = random::Next(s);
      }
      Object* t = heap_.NewTuple(2);
      if (t == nullptr) {
        RaiseOutOfMemory();
        return false;
      }
      const random::RandState parts[2] = {pair.first, pair.second};
      for (int i = 0; i < 2; ++i) {
        Object* part = NewRandState(parts[i], here);
        if (part == nullptr) {
          heap_.Release(t);  // and the part already in it
          return false;
        }
        Slots(t)[i] = FromObject(part);
        Mask(t)[i] = 1;
      }
      MarkConsumed(state, here);
      PutReference(r, ins.a, t);
      return true;
    }
    case Op::SPLITN: {
      const int64_t n = AsInt(r[ins.c]);
      if (n < 0) {
        Raise(RuntimeErrorId::kSplitNNegative, n);
        return false;
      }
      Object* arr = heap_.NewArray(static_cast<uint64_t>(n), true);
      if (arr == nullptr) {
        RaiseOutOfMemory();
        return false;
      }
      const random::Key k = random::EffectiveKey(s);
      for (int64_t i = 0; i < n; ++i) {
        Object* part = NewRandState(random::RandState{random::SplitKey(k, i), 0}, here);
        if (part == nullptr) {
          heap_.Release(arr);  // null slots are skipped
          return false;
        }
        Slots(arr)[i] = FromObject(part);
      }
      MarkConsumed(state, here);
      PutReference(r, ins.a, arr);
      return true;
    }
    case Op::FOLDIN: {
      // JAX would take the data modulo 2^32; Alea's Int is 64-bit, so a
      // value that does not fit is more likely a bug than a wish to wrap.
      const int64_t data = AsInt(r[ins.c]);
      if (data < 0 || data > int64_t{UINT32_MAX}) {
        Raise(RuntimeErrorId::kFoldInRange, data);
        return false;
      }
      Object* o = NewRandState(random::FoldIn(s, static_cast<uint32_t>(data)), here);
      if (o == nullptr) return false;
      MarkConsumed(state, here);
      PutReference(r, ins.a, o);
      return true;
    }
    default:
      return RandomSample(ins, r, state, here);
  }
}

bool Vm::RandomSample(Instr ins, Value* r, Object* state, const RandSite& here) {
  if (ins.c != SamplerArity(ins.op)) {
    Raise(RuntimeErrorId::kBadCall, "a sampler with the wrong number of arguments");
    return false;
  }
  const Value* args = r + ins.b;  // args[0] is the state
  // This sampler's output buffer is reused once its last result has died.
  TensorContext cx = Tensors(funcs_[here.function].first_site + here.pc);
  Object* out = nullptr;
  Object* scratch = nullptr;  // PERMUTATION's sort rows
  // Validation and allocation; the elements are filled below, once nothing
  // can fail any more.
  switch (ins.op) {
    case Op::BITS:
      out = cx.New(DType::kU32, ShapeFromIntArray(args[1]));
      break;
    case Op::UNIFORM:
    case Op::NORMAL:
    case Op::EXPONENTIAL:
      out = cx.New(DType::kF32, ShapeFromIntArray(args[1]));
      break;
    case Op::BERNOULLI:
      out = cx.New(DType::kBool, ShapeFromIntArray(args[2]));
      break;
    case Op::RANDINT:
      out = cx.New(DType::kI32, ShapeFromIntArray(args[1]));
      break;
    case Op::CATEGORICAL: {
      const Object* logits = AsObject(args[1]);
      if (DTypeOf(logits) != DType::kF32) {
        Raise(RuntimeErrorId::kBadCall, "`categorical` of logits that are not f32");
        return false;
      }
      const absl::Span<const int64_t> shape = ShapeOf(logits);
      if (shape.empty()) {
        Raise(RuntimeErrorId::kCategoricalScalar);
        return false;
      }
      // JAX rejects an empty class axis too (argmax of an empty sequence),
      // even when there are no rows.
      if (shape.back() == 0) {
        Raise(RuntimeErrorId::kCategoricalEmpty, ShapeString(shape));
        return false;
      }
      out = cx.New(DType::kI32, shape.first(shape.size() - 1));
      break;
    }
    case Op::PERMUTATION: {
      const int64_t n = AsInt(args[1]);
      if (n < 0 || n > INT32_MAX) {
        Raise(RuntimeErrorId::kPermutationRange, n);
        return false;
      }
      const int64_t shape[1] = {n};
      out = cx.New(DType::kI32, shape);
      if (out != nullptr) {
        scratch = cx.Scratch(2 * n);  // n words of 8 bytes
        if (scratch == nullptr) {
          heap_.Release(out);
          out = nullptr;
        }
      }
      break;
    }
    case Op::DROPOUT: {
      const Object* x = AsObject(args[1]);
      if (DTypeOf(x) != DType::kF32) {
        Raise(RuntimeErrorId::kBadCall, "`dropout` of a tensor that is not f32");
        return false;
      }
      out = cx.New(DType::kF32, ShapeOf(x));
      break;
    }
    default:
      Raise(RuntimeErrorId::kBadCall, "an unknown random opcode");
      return false;
  }
  if (out == nullptr) {
    RaiseTensorFailure(cx);
    return false;
  }

  DrawArgs draw;
  draw.key = random::EffectiveKey(StateOf(state));
  const random::Key& k = draw.key;
  const uint64_t count = out->length;
  switch (ins.op) {
    case Op::BITS:
      FillDraw(cx, jit::RandomKernel::kBits, draw, ElementsOf<uint32_t>(out), count);
      break;
    case Op::UNIFORM:
      // The bounds are f32 in the result's dtype, as JAX converts them.
      draw.lo = static_cast<float>(AsFloat(args[2]));
      draw.hi = static_cast<float>(AsFloat(args[3]));
      FillDraw(cx, jit::RandomKernel::kUniform, draw, ElementsOf<float>(out), count);
      break;
    case Op::NORMAL:
      FillDraw(cx, jit::RandomKernel::kNormal, draw, ElementsOf<float>(out), count);
      break;
    case Op::EXPONENTIAL:
      FillDraw(cx, jit::RandomKernel::kExponential, draw, ElementsOf<float>(out), count);
      break;
    case Op::BERNOULLI:
      draw.p = static_cast<float>(AsFloat(args[1]));
      FillDraw(cx, jit::RandomKernel::kBernoulli, draw, ElementsOf<uint8_t>(out), count);
      break;
    case Op::RANDINT: {
      // Reference only (u32 remainders by a run-time span), split like the
      // other partitionable draws.
      int32_t* y = ElementsOf<int32_t>(out);
      const int64_t lo = AsInt(args[2]), hi = AsInt(args[3]);
      cx.ForRanges(static_cast<int64_t>(count), 64, ThreadPool::MinRange(kReferenceDrawNs),
                   [&](int, int64_t begin, int64_t end) {
                     random::RandInt(k, lo, hi, begin, end - begin, y + begin);
                   });
      break;
    }
    case Op::CATEGORICAL: {
      // Partitionable by rows: row r draws elements [r * classes, (r + 1) * classes).
      const Object* logits = AsObject(args[1]);
      const auto classes = static_cast<uint64_t>(ShapeOf(logits).back());
      const float* x = ElementsOf<float>(logits);
      int32_t* y = ElementsOf<int32_t>(out);
      // The noise on the JIT's Gumbel kernel where there is one.
      const JitDrawKernels noise(cx);
      const double ns = noise.fast() ? kJitGumbelNs : kReferenceDrawNs;
      const int64_t min_rows = ThreadPool::MinRange(ns * static_cast<double>(classes));
      cx.ForRanges(static_cast<int64_t>(count), 1, min_rows, [&](int, int64_t begin, int64_t end) {
        random::Categorical(k, x + begin * classes, classes, begin, end - begin, y + begin, noise);
      });
      break;
    }
    case Op::PERMUTATION:
      random::Permutation(k, count, ElementsOf<int32_t>(out),
                          static_cast<uint64_t*>(DataOf(scratch)));
      heap_.Release(scratch);
      break;
    case Op::DROPOUT:
      draw.rate = AsFloat(args[2]);
      draw.x = ElementsOf<float>(AsObject(args[1]));
      FillDraw(cx, jit::RandomKernel::kDropout, draw, ElementsOf<float>(out), count);
      break;
    default:
      break;
  }
  MarkConsumed(state, here);
  PutReference(r, ins.a, out);
  return true;
}

bool Vm::UnboxedRandomOp(Instr ins, Value* r) {
  const Frame& frame = frames_[depth_ - 1];
  const uint32_t pc = static_cast<uint32_t>(frame.pc - 1 - frame.fn->code);
  // The op a box is made or consumed for, named in use-once notes.
  auto site = [&](uint16_t op) {
    return RandSite{frame.fn->index, pc, static_cast<Op>(op), loads_};
  };
  switch (ins.op) {
    case Op::UNBOX: {
      Object* state = AsObject(r[ins.b]);
      if (IsConsumed(state)) return RaiseStateReused(state);
      MarkConsumed(state, site(ins.c));
      random::Pack(StateOf(state), r + ins.a);
      return true;
    }
    case Op::TAKE: {
      if (r[ins.a] == 0) return true;
      Object* state = AsObject(r[ins.a]);
      if (IsConsumed(state)) return RaiseStateReused(state);
      MarkConsumed(state, site(ins.b));
      r[ins.a] = 0;
      heap_.Release(state);
      return true;
    }
    case Op::BOX: {
      Object* o = NewRandState(random::Unpack(r + ins.b), site(ins.c));
      if (o == nullptr) return false;
      PutReference(r, ins.a, o);
      return true;
    }
    case Op::NEXT_U: {
      const random::RandState s = random::Unpack(r + ins.b);
      if (s.n == UINT32_MAX) {  // as NEXT: wrapping would restart the stream
        Raise(RuntimeErrorId::kStreamExhausted);
        return false;
      }
      const auto [sub, rest] = random::Next(s);
      random::Pack(sub, r + ins.a);
      random::Pack(rest, r + ins.a + 2);
      return true;
    }
    case Op::FOLDIN_U: {
      const int64_t data = AsInt(r[ins.c]);  // as FOLDIN
      if (data < 0 || data > int64_t{UINT32_MAX}) {
        Raise(RuntimeErrorId::kFoldInRange, data);
        return false;
      }
      random::Pack(random::FoldIn(random::Unpack(r + ins.b), static_cast<uint32_t>(data)),
                   r + ins.a);
      return true;
    }
    case Op::SITE: {
      // fold_in(k, n + c) on the raw key: site c of (k, n) is the (n + c)-th
      // `next` of the stream (docs/language.md "Implicit random states (`uses rng`)").
      const random::RandState ambient = random::Unpack(r + ins.b);
      const uint64_t data = uint64_t{ambient.n} + ins.c;
      if (data > UINT32_MAX) {
        Raise(RuntimeErrorId::kSiteExhausted, ins.c, ambient.n);
        return false;
      }
      random::Pack(
          random::RandState{random::FoldInKey(ambient.key, static_cast<uint32_t>(data)), 0},
          r + ins.a);
      return true;
    }
    default:
      Raise(RuntimeErrorId::kBadCall, "an unknown random opcode");
      return false;
  }
}

}  // namespace alea::vm
