// Tensor builtins: the typed elementwise opcodes (ADD_T...; a consumed
// operand may become the result in place), SCALAR_T for a scalar operand
// (it takes the tensor's dtype, docs/language.md "Tensors"), and natives
// (vm/natives.def, "Tensors") for everything else. Dtypes are static, so
// they are passed as immediates, never read from the `dtype:` argument.
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

#include "compiler/internal.h"
#include "vm/dtype.h"
#include "vm/kernels/reduce.h"
#include "vm/tensor_ops.h"

namespace alea::compiler {

namespace types = lang::types;
using lang::BuiltinId;
using vm::Instr;
using vm::Op;

namespace {

// Where the scalar operand of an elementwise builtin is, if any.
enum class Scalar : uint8_t { kNone, kLhsInt, kRhsInt, kLhsFloat, kRhsFloat };

struct Elementwise {
  Op op;
  bool binary;
  Scalar scalar = Scalar::kNone;
};

std::optional<Elementwise> ElementwiseOf(BuiltinId id) {
  switch (id) {
#define ALEA_FORMS(Name, OP)                             \
  case BuiltinId::k##Name##Tensor:                       \
    return Elementwise{Op::OP, true, Scalar::kNone};     \
  case BuiltinId::k##Name##TensorInt:                    \
    return Elementwise{Op::OP, true, Scalar::kRhsInt};   \
  case BuiltinId::k##Name##IntTensor:                    \
    return Elementwise{Op::OP, true, Scalar::kLhsInt};   \
  case BuiltinId::k##Name##TensorFloat:                  \
    return Elementwise{Op::OP, true, Scalar::kRhsFloat}; \
  case BuiltinId::k##Name##FloatTensor:                  \
    return Elementwise{Op::OP, true, Scalar::kLhsFloat};
    ALEA_FORMS(Add, ADD_T)
    ALEA_FORMS(Sub, SUB_T)
    ALEA_FORMS(Mul, MUL_T)
    ALEA_FORMS(Div, DIV_T)
    ALEA_FORMS(Rem, REM_T)
    ALEA_FORMS(Maximum, MAX_T)
    ALEA_FORMS(Minimum, MIN_T)
    ALEA_FORMS(Eq, EQ_T)
    ALEA_FORMS(Ne, NE_T)
    ALEA_FORMS(Lt, LT_T)
    ALEA_FORMS(Le, LE_T)
    ALEA_FORMS(Gt, GT_T)
    ALEA_FORMS(Ge, GE_T)
#undef ALEA_FORMS
    // The math functions of two take no Int with a tensor (builtins.def).
#define ALEA_FLOAT_FORMS(Name, OP)                       \
  case BuiltinId::k##Name##Tensor:                       \
    return Elementwise{Op::OP, true, Scalar::kNone};     \
  case BuiltinId::k##Name##TensorFloat:                  \
    return Elementwise{Op::OP, true, Scalar::kRhsFloat}; \
  case BuiltinId::k##Name##FloatTensor:                  \
    return Elementwise{Op::OP, true, Scalar::kLhsFloat};
    ALEA_FLOAT_FORMS(Atan2, ATAN2_T)
    ALEA_FLOAT_FORMS(Hypot, HYPOT_T)
    ALEA_FLOAT_FORMS(Pow, POW_T)
#undef ALEA_FLOAT_FORMS
    // `max`/`min` of two take no Int with a tensor (builtins.def).
    case BuiltinId::kMaxTensor:
      return Elementwise{Op::MAX_T, true, Scalar::kNone};
    case BuiltinId::kMaxTensorFloat:
      return Elementwise{Op::MAX_T, true, Scalar::kRhsFloat};
    case BuiltinId::kMaxFloatTensor:
      return Elementwise{Op::MAX_T, true, Scalar::kLhsFloat};
    case BuiltinId::kMinTensor:
      return Elementwise{Op::MIN_T, true, Scalar::kNone};
    case BuiltinId::kMinTensorFloat:
      return Elementwise{Op::MIN_T, true, Scalar::kRhsFloat};
    case BuiltinId::kMinFloatTensor:
      return Elementwise{Op::MIN_T, true, Scalar::kLhsFloat};
    case BuiltinId::kNegTensor:
      return Elementwise{Op::NEG_T, false};
    case BuiltinId::kAbsTensorF32:
    case BuiltinId::kAbsTensorI32:
      return Elementwise{Op::ABS_T, false};
    case BuiltinId::kSqrtTensor:
      return Elementwise{Op::SQRT_T, false};
    case BuiltinId::kExpTensor:
      return Elementwise{Op::EXP_T, false};
    case BuiltinId::kFloorTensor:
      return Elementwise{Op::FLOOR_T, false};
    case BuiltinId::kCeilTensor:
      return Elementwise{Op::CEIL_T, false};
    case BuiltinId::kRoundTensor:
      return Elementwise{Op::ROUND_T, false};
    case BuiltinId::kTruncTensor:
      return Elementwise{Op::TRUNC_T, false};
    case BuiltinId::kSignTensor:
      return Elementwise{Op::SIGN_T, false};
    case BuiltinId::kExpm1Tensor:
      return Elementwise{Op::EXPM1_T, false};
    case BuiltinId::kLog1pTensor:
      return Elementwise{Op::LOG1P_T, false};
    case BuiltinId::kSinhTensor:
      return Elementwise{Op::SINH_T, false};
    case BuiltinId::kCoshTensor:
      return Elementwise{Op::COSH_T, false};
    case BuiltinId::kErfTensor:
      return Elementwise{Op::ERF_T, false};
    case BuiltinId::kErfcTensor:
      return Elementwise{Op::ERFC_T, false};
    case BuiltinId::kSinTensor:
      return Elementwise{Op::SIN_T, false};
    case BuiltinId::kCosTensor:
      return Elementwise{Op::COS_T, false};
    case BuiltinId::kTanTensor:
      return Elementwise{Op::TAN_T, false};
    case BuiltinId::kAtanTensor:
      return Elementwise{Op::ATAN_T, false};
    case BuiltinId::kAsinTensor:
      return Elementwise{Op::ASIN_T, false};
    case BuiltinId::kAcosTensor:
      return Elementwise{Op::ACOS_T, false};
    case BuiltinId::kLgammaTensor:
      return Elementwise{Op::LGAMMA_T, false};
    case BuiltinId::kLogTensor:
      return Elementwise{Op::LOG_T, false};
    case BuiltinId::kTanh:
      return Elementwise{Op::TANH_T, false};
    case BuiltinId::kSigmoid:
      return Elementwise{Op::SIGMOID_T, false};
    case BuiltinId::kRelu:
      return Elementwise{Op::RELU_T, false};
    default:
      return std::nullopt;
  }
}

// Whether `tensor` of `data` makes a tensor of `dtype`: the native takes the
// dtype from the data's scalar (Int i32, Float f32, Bool bool), which the
// type checker ties to the result's.
bool TensorDataGives(const Type* data, vm::DType dtype) {
  types::DType scalar_dtype;
  // lang's and vm's dtype enums list f32 i32 u32 bool in the same order.
  return lang::TensorDataDType(data, &scalar_dtype) == lang::Tri::kYes &&
         static_cast<vm::DType>(scalar_dtype) == dtype;
}

// The `set`/`add_at` overloads whose v is a scalar: the overload with a
// tensor v, whose native they call on the scalar as a 0-d tensor of x's dtype.
struct ScalarUpdate {
  BuiltinId tensor_form;
  bool is_float;
};

std::optional<ScalarUpdate> ScalarUpdateOf(BuiltinId id) {
  switch (id) {
#define ALEA_SCALAR_UPDATES(Op, Form)                   \
  case BuiltinId::k##Op##Form##Int:                     \
    return ScalarUpdate{BuiltinId::k##Op##Form, false}; \
  case BuiltinId::k##Op##Form##Float:                   \
    return ScalarUpdate{BuiltinId::k##Op##Form, true};
#define ALEA_SCALAR_UPDATE_FORMS(Op) \
  ALEA_SCALAR_UPDATES(Op, Int)       \
  ALEA_SCALAR_UPDATES(Op, Tuple2)    \
  ALEA_SCALAR_UPDATES(Op, Tuple3)    \
  ALEA_SCALAR_UPDATES(Op, Tuple4)    \
  ALEA_SCALAR_UPDATES(Op, Take)      \
  ALEA_SCALAR_UPDATES(Op, Mask)
    ALEA_SCALAR_UPDATE_FORMS(Set)
    ALEA_SCALAR_UPDATE_FORMS(AddAt)
#undef ALEA_SCALAR_UPDATE_FORMS
#undef ALEA_SCALAR_UPDATES
    // A Bool is its register's 0 or 1, as an Int.
    case BuiltinId::kSetIntBool:
      return ScalarUpdate{BuiltinId::kSetInt, false};
    case BuiltinId::kSetTuple2Bool:
      return ScalarUpdate{BuiltinId::kSetTuple2, false};
    case BuiltinId::kSetTuple3Bool:
      return ScalarUpdate{BuiltinId::kSetTuple3, false};
    case BuiltinId::kSetTuple4Bool:
      return ScalarUpdate{BuiltinId::kSetTuple4, false};
    case BuiltinId::kSetTakeBool:
      return ScalarUpdate{BuiltinId::kSetTake, false};
    case BuiltinId::kSetMaskBool:
      return ScalarUpdate{BuiltinId::kSetMask, false};
    default:
      return std::nullopt;
  }
}

}  // namespace

vm::DType StaticDType(const Type* t) {
  t = types::Resolve(t);
  if (t->kind == types::Kind::kTensor || t->kind == types::Kind::kDType) {
    t = types::Resolve(t->args[0]);
  }
  // lang's and vm's dtype enums list f32 i32 u32 bool in the same order.
  return t->kind == types::Kind::kDTypeConst ? static_cast<vm::DType>(t->dtype) : vm::DType::kF32;
}

bool FunctionCompiler::ConsumesTensorOperands(BuiltinId id) {
  return ElementwiseOf(id).has_value() || id == BuiltinId::kSquare || IsClip(id);
}

bool FunctionCompiler::IsClip(BuiltinId id) {
  return id == BuiltinId::kClip || id == BuiltinId::kClipTensor ||
         id == BuiltinId::kClipTensorFloat || id == BuiltinId::kClipFloatTensor;
}

std::vector<FunctionCompiler::ClipPart> FunctionCompiler::ClipParts(const Type* site) {
  site = types::Resolve(site);
  // A bound is a Float or a Tensor(f32) (the overloads of builtins.def).
  auto is_float = [&](int k) { return types::Resolve(site->args[k])->kind == types::Kind::kFloat; };
  const bool lo_float = is_float(1), hi_float = is_float(2);
  Type* result = const_cast<Type*>(site->result);
  auto arg = [&](int k) { return const_cast<Type*>(site->args[k]); };
  // maximum(lo, x): a Float lo is the left scalar; then minimum(hi, that).
  return {{lo_float ? BuiltinId::kMaximumFloatTensor : BuiltinId::kMaximumTensor,
           pc_.store_.Function({arg(1), arg(0)}, result)},
          {hi_float ? BuiltinId::kMinimumFloatTensor : BuiltinId::kMinimumTensor,
           pc_.store_.Function({arg(2), result}, result)}};
}

std::optional<vm::FusedNode> FunctionCompiler::ElementwiseNode(BuiltinId id) {
  std::optional<Elementwise> ew = ElementwiseOf(id);
  if (!ew) return std::nullopt;
  // opcodes.def lists the typed opcodes in elementwise_ops.def's order.
  vm::FusedNode node;
  node.unary = !ew->binary;
  const int first = static_cast<int>(ew->binary ? Op::ADD_T : Op::NEG_T);
  node.op = static_cast<uint8_t>(static_cast<int>(ew->op) - first);
  if (ew->op >= Op::EQ_T && ew->op <= Op::GE_T) return std::nullopt;  // bool results
  // The JIT has no `%` (docs/decisions.md "The JIT and fusion"): a fused
  // program holding one would always fall back, so `%` stays a leaf.
  if (ew->op == Op::REM_T) return std::nullopt;
  return node;
}

FunctionCompiler::Operand FunctionCompiler::EvalConsumable(const Expr& e, bool borrow_ok) {
  if (e.kind == Expr::Kind::kName && e.name_kind == lang::NameKind::kLocal &&
      last_uses_.contains(&e) && Ref(e.type)) {
    // A variable at its last use is consumed from its own register (the
    // consumer nulls it, or Free releases it), as a temporary would be.
    if (UnboxedPair(e) < 0) {
      if (const int r = VarReg(e); r >= 0) return Operand{r, true};
    }
    return Eval(e, false);  // Name moves a last use into the temporary
  }
  return Eval(e, borrow_ok);
}

int FunctionCompiler::LoadDefault(const lang::BuiltinParam& param) {
  const std::string& text = param.default_text;
  if (text == "none") return -1;
  if (text.front() == '"') {  // a Str (builtins.def writes it without escapes)
    int r = Alloc(true);
    Emit(Instr::ABC(Op::LOADS, r, pc_.String(text.substr(1, text.size() - 2)), 0));
    return r;
  }
  int r = Alloc(false);
  if (text == "true" || text == "false") {  // a Bool: 1 or 0, as the VM holds it
    LoadInt(r, text == "true" ? 1 : 0);
    return r;
  }
  for (types::DType d :
       {types::DType::kF32, types::DType::kI32, types::DType::kU32, types::DType::kBool}) {
    if (text == types::DTypeName(d)) {  // a dtype value: its number (as StaticDType)
      LoadInt(r, static_cast<int64_t>(d));
      return r;
    }
  }
  if (text.find_first_of(".eE") != std::string::npos) {
    LoadFloat(r, std::strtod(text.c_str(), nullptr));
  } else {
    LoadInt(r, std::strtoll(text.c_str(), nullptr, 10));
  }
  return r;
}

std::optional<vm::kernels::ReduceOp> FunctionCompiler::ReductionOf(BuiltinId id) {
  switch (id) {
    case BuiltinId::kSumTensor:
      return vm::kernels::ReduceOp::kSum;
    case BuiltinId::kMean:
      return vm::kernels::ReduceOp::kMean;
    case BuiltinId::kMaxReduce:
      return vm::kernels::ReduceOp::kMax;
    case BuiltinId::kMinReduce:
      return vm::kernels::ReduceOp::kMin;
    case BuiltinId::kArgmax:
      return vm::kernels::ReduceOp::kArgmax;
    case BuiltinId::kProdTensor:
      return vm::kernels::ReduceOp::kProd;
    case BuiltinId::kArgmin:
      return vm::kernels::ReduceOp::kArgmin;
    case BuiltinId::kAnyTensor:
      return vm::kernels::ReduceOp::kAny;
    case BuiltinId::kAllTensor:
      return vm::kernels::ReduceOp::kAll;
    case BuiltinId::kLogSumExp:
      return vm::kernels::ReduceOp::kLogSumExp;
    default:
      return std::nullopt;
  }
}

bool FunctionCompiler::ApplyTensorBuiltin(BuiltinId id, const Type* site,
                                          const std::vector<int>& args, int dst, Span at,
                                          uint32_t owned, uint32_t* consumed) {
  auto arg = [&](size_t i) { return i < args.size() ? args[i] : -1; };
  const bool result_ref = pc_.IsRef(site->result);
  auto reg = [](int r) { return NativeArg::Reg(r); };
  auto imm = [](int64_t v) { return NativeArg::Imm(v); };
  auto dtype_imm = [&](const Type* t) { return imm(static_cast<int64_t>(StaticDType(t))); };
  int mark = top_;
  // A scalar operand as a 0-d tensor of `dtype`, in a new (owned) register.
  auto scalar = [&](int r, vm::DType dtype, bool is_float) {
    int t = Alloc(true);
    Emit(Instr::ABC(Op::SCALAR_T, t, r, static_cast<uint16_t>(dtype), is_float ? 1 : 0), at);
    return t;
  };

  if (std::optional<Elementwise> ew = ElementwiseOf(id)) {
    uint32_t moved = 0;
    if (!ew->binary) {
      if (owned & 1) moved = 1;
      Emit(Instr::ABC(ew->op, dst, arg(0), 0, static_cast<uint8_t>(moved)), at);
    } else {
      int a = arg(0), b = arg(1);
      // The tensor operand's dtype is the scalar's.
      const bool lhs_scalar = ew->scalar == Scalar::kLhsInt || ew->scalar == Scalar::kLhsFloat;
      const bool rhs_scalar = ew->scalar == Scalar::kRhsInt || ew->scalar == Scalar::kRhsFloat;
      const bool is_float = ew->scalar == Scalar::kLhsFloat || ew->scalar == Scalar::kRhsFloat;
      uint8_t x = 0;
      if (lhs_scalar) {
        a = scalar(a, StaticDType(site->args[1]), is_float);
        x |= 1;
      } else if (owned & 1) {
        x |= 1;
        moved |= 1;
      }
      if (rhs_scalar) {
        b = scalar(b, StaticDType(site->args[0]), is_float);
        x |= 2;
      } else if (owned & 2) {
        x |= 2;
        moved |= 2;
      }
      Emit(Instr::ABC(ew->op, dst, a, b, x), at);
    }
    if (consumed != nullptr) *consumed = moved;
    SetTop(mark);
    return true;
  }

  if (std::optional<vm::kernels::ReduceOp> op = ReductionOf(id)) {
    if (arg(1) < 0) {
      CallNative("t_reduce", {reg(arg(0)), imm(static_cast<int64_t>(*op))}, true, dst, at);
    } else {
      CallNative("t_reduce_axis", {reg(arg(0)), imm(static_cast<int64_t>(*op)), reg(arg(1))}, true,
                 dst, at);
    }
    return true;
  }

  switch (id) {
    case BuiltinId::kZeros:
    case BuiltinId::kOnes:
      CallNative("t_full",
                 {reg(arg(0)), imm(id == BuiltinId::kOnes ? 1 : 0), dtype_imm(site->result)}, true,
                 dst, at);
      return true;
    case BuiltinId::kFullFloat:
      CallNative("t_full_f", {reg(arg(0)), reg(arg(1)), dtype_imm(site->result)}, true, dst, at);
      return true;
    case BuiltinId::kFullInt:
    case BuiltinId::kFullBool:
      CallNative("t_full", {reg(arg(0)), reg(arg(1)), dtype_imm(site->result)}, true, dst, at);
      return true;
    case BuiltinId::kArange1:
      CallNative("t_arange", {imm(0), reg(arg(0)), dtype_imm(site->result)}, true, dst, at);
      return true;
    case BuiltinId::kArange2:
      CallNative("t_arange", {reg(arg(0)), reg(arg(1)), dtype_imm(site->result)}, true, dst, at);
      return true;
    case BuiltinId::kEye:
      CallNative("t_eye", {reg(arg(0)), dtype_imm(site->result)}, true, dst, at);
      return true;
    case BuiltinId::kRoll:
      if (arg(2) < 0) {
        CallNative("t_roll", {reg(arg(0)), reg(arg(1))}, true, dst, at);
      } else {
        CallNative("t_roll_axis", {reg(arg(0)), reg(arg(1)), reg(arg(2))}, true, dst, at);
      }
      return true;
    case BuiltinId::kTensor:
      // An instance the checker never saw can break that tie: an unused
      // generic top-level let (`let e = tensor([])`) compiled at unit. Not
      // compiled (a diagnostic), rather than failed at run time.
      if (!TensorDataGives(site->args[0], StaticDType(site->result))) return false;
      CallNative("t_tensor", {reg(arg(0)), imm(pc_.TypeDescOf(site->args[0]))}, true, dst, at);
      return true;
    case BuiltinId::kShape:
      CallNative("t_shape", {reg(arg(0))}, true, dst, at);
      return true;
    case BuiltinId::kLenTensor:
      CallNative("t_len", {reg(arg(0))}, false, dst, at);
      return true;
    case BuiltinId::kReshape:
      CallNative("t_reshape", {reg(arg(0)), reg(arg(1))}, true, dst, at);
      return true;
    case BuiltinId::kTranspose:
      CallNative("t_transpose", {reg(arg(0))}, true, dst, at);
      return true;
    case BuiltinId::kIndexTensor:
      CallNative("t_index", {reg(arg(0)), reg(arg(1))}, true, dst, at);
      return true;
    case BuiltinId::kIndexTensorTake:
      CallNative("t_take", {reg(arg(0)), reg(arg(1)), NativeArg::Imm(0)}, true, dst, at);
      return true;
    case BuiltinId::kSliceTensor:
      CallNative("t_slice", {reg(arg(0)), reg(arg(1)), reg(arg(2))}, true, dst, at);
      return true;
    case BuiltinId::kConcat:
      CallNative("t_concat", {reg(arg(0)), reg(arg(1))}, true, dst, at);
      return true;
    case BuiltinId::kItemF32:
    case BuiltinId::kItemI32:
    case BuiltinId::kItemU32:
    case BuiltinId::kItemBool:
      CallNative("t_item", {reg(arg(0))}, false, dst, at);
      return true;
    case BuiltinId::kCast:
      CallNative("t_cast", {reg(arg(0)), dtype_imm(site->result)}, true, dst, at);
      return true;
    case BuiltinId::kMatMul:
      CallNative("t_matmul", {reg(arg(0)), reg(arg(1))}, true, dst, at);
      return true;
    case BuiltinId::kSquare: {
      // x * x on one register: the left operand may be moved in (and
      // written in place), the right reads the same object.
      const uint8_t moved = owned & 1;
      Emit(Instr::ABC(Op::MUL_T, dst, arg(0), arg(0), moved), at);
      if (consumed != nullptr) *consumed = moved;
      return true;
    }
    case BuiltinId::kClip:
    case BuiltinId::kClipTensor:
    case BuiltinId::kClipTensorFloat:
    case BuiltinId::kClipFloatTensor: {
      // Parameters x, lo, hi are owned bits 1, 2, 4; the parts take (lo, x)
      // and (hi, the maximum).
      const std::vector<ClipPart> parts = ClipParts(site);
      const int m = Alloc(true);
      uint32_t took_max = 0, took_min = 0;
      const uint32_t owned_max = ((owned >> 1) & 1) | ((owned & 1) << 1);
      ApplyTensorBuiltin(parts[0].id, parts[0].site, {arg(1), arg(0)}, m, at, owned_max, &took_max);
      ApplyTensorBuiltin(parts[1].id, parts[1].site, {arg(2), m}, dst, at, ((owned >> 2) & 1) | 2,
                         &took_min);
      if ((took_min & 2) == 0) Release(m);
      if (consumed != nullptr) {
        *consumed = ((took_max >> 1) & 1) | ((took_max & 1) << 1) | ((took_min & 1) << 2);
      }
      SetTop(mark);
      return true;
    }
    case BuiltinId::kIsNanTensor:  // NaN is the one value unequal to itself
      Emit(Instr::ABC(Op::NE_T, dst, arg(0), arg(0), 0), at);
      return true;
    case BuiltinId::kIsInfTensor: {  // |x| == inf
      int magnitude = Alloc(true);
      Emit(Instr::ABC(Op::ABS_T, magnitude, arg(0), 0, 0), at);
      int inf = Alloc(false);
      LoadFloat(inf, std::numeric_limits<double>::infinity());
      Emit(Instr::ABC(Op::EQ_T, dst, magnitude, scalar(inf, vm::DType::kF32, true), 3), at);
      SetTop(mark);
      return true;
    }
    case BuiltinId::kLoadNpy:
      CallNative("t_load_npy", {reg(arg(0)), dtype_imm(site->result)}, true, dst, at);
      return true;
    case BuiltinId::kLoadCsv:
      CallNative("t_load_csv", {reg(arg(0)), dtype_imm(site->result), reg(arg(2)), reg(arg(3))},
                 true, dst, at);
      return true;
    case BuiltinId::kSaveNpy:
      CallNative("t_save_npy", {reg(arg(0)), reg(arg(1))}, result_ref, dst, at);
      return true;
    case BuiltinId::kCumsum:
      if (arg(1) < 0) {
        CallNative("t_cumsum", {reg(arg(0))}, true, dst, at);
      } else {
        CallNative("t_cumsum_axis", {reg(arg(0)), reg(arg(1))}, true, dst, at);
      }
      return true;
    case BuiltinId::kCumprod:
      if (arg(1) < 0) {
        CallNative("t_cumprod", {reg(arg(0))}, true, dst, at);
      } else {
        CallNative("t_cumprod_axis", {reg(arg(0)), reg(arg(1))}, true, dst, at);
      }
      return true;
    case BuiltinId::kVar:
    case BuiltinId::kStd: {
      const auto op =
          id == BuiltinId::kVar ? vm::kernels::ReduceOp::kVar : vm::kernels::ReduceOp::kStd;
      if (arg(1) < 0) {
        CallNative("t_reduce_ddof", {reg(arg(0)), imm(static_cast<int64_t>(op)), reg(arg(2))}, true,
                   dst, at);
      } else {
        CallNative("t_reduce_ddof_axis",
                   {reg(arg(0)), imm(static_cast<int64_t>(op)), reg(arg(1)), reg(arg(2))}, true,
                   dst, at);
      }
      return true;
    }
    case BuiltinId::kSearchSortedInt:
    case BuiltinId::kSearchSortedFloat: {
      // The scalar is a 0-d tensor of the sorted tensor's dtype, so the
      // result is 0-d, as NumPy's searchsorted of a scalar.
      const bool is_float = id == BuiltinId::kSearchSortedFloat;
      int value = scalar(arg(1), StaticDType(site->args[0]), is_float);
      CallNative("t_searchsorted", {reg(arg(0)), reg(value)}, true, dst, at);
      Release(value);
      SetTop(mark);
      return true;
    }
    case BuiltinId::kWhere:
    case BuiltinId::kWhereTensorInt:
    case BuiltinId::kWhereIntTensor:
    case BuiltinId::kWhereTensorFloat:
    case BuiltinId::kWhereFloatTensor:
    case BuiltinId::kWhereFloats:
    case BuiltinId::kWhereInts: {
      const vm::DType d = StaticDType(site->result);
      int a = arg(1), b = arg(2);
      std::vector<int> temps;
      for (int k = 1; k <= 2; ++k) {
        const types::Kind kind = types::Resolve(site->args[k])->kind;
        if (kind == types::Kind::kInt || kind == types::Kind::kFloat) {
          int t = scalar(arg(k), d, kind == types::Kind::kFloat);
          (k == 1 ? a : b) = t;
          temps.push_back(t);
        }
      }
      CallNative("t_where", {reg(arg(0)), reg(a), reg(b)}, true, dst, at);
      for (int t : temps) Release(t);
      SetTop(mark);
      return true;
    }
    default:
      break;
  }

  if (std::optional<ScalarUpdate> update = ScalarUpdateOf(id)) {
    // x (parameter 0) moves into the owning native when it is ours, as the
    // tensor form's call would (OwnsFirstOperand); v is parameter 2.
    const std::string native(lang::GetBuiltin(update->tensor_form).native);
    assert(OwnsFirstOperand(id) && NativeOwnsFirst(native));
    int value = scalar(arg(2), StaticDType(site->args[0]), update->is_float);
    std::vector<NativeArg> native_args = {reg(arg(0)), reg(arg(1)), reg(value)};
    if (arg(3) >= 0) native_args.push_back(reg(arg(3)));
    if (owned & 1) {
      native_args[0].moved = true;
      if (consumed != nullptr) *consumed |= 1;
    }
    CallNative(native.c_str(), native_args, true, dst, at);
    Release(value);
    SetTop(mark);
    return true;
  }
  return false;
}

// `x[i, j]`, `m[:, idx]`, `x[a:b:s]`: x, then the items left to right, four
// Ints each into one window (vm/natives.def t_subscript), the index tensor
// in a register of its own, then one native call.
void FunctionCompiler::SubscriptExpr(const Expr& e, Dest dest) {
  int r = Target(dest, e.type);
  int mark = top_;
  std::vector<const Expr*> later;
  for (const lang::ExprPtr& item : e.elements) later.push_back(item.get());
  Operand x = Eval(*e.lhs, SafeToBorrow(*e.lhs, later));
  const int words = 4 * static_cast<int>(e.elements.size());
  const int base = AllocWindow(std::vector<bool>(words, false));
  Operand idx{-1, false};
  for (size_t i = 0; i < e.elements.size(); ++i) {
    const Expr& item = *e.elements[i];
    const int w = base + 4 * static_cast<int>(i);
    auto part = [&](const lang::ExprPtr& p, int reg, int64_t omitted) {
      if (p) {
        int m = top_;
        IntoReg(*p, reg);
        SetTop(m);
      } else {
        LoadInt(reg, omitted);
      }
    };
    if (item.kind == Expr::Kind::kSlice && item.lhs == nullptr) {
      LoadInt(w, vm::SubscriptItem::kSlice);
      part(item.rhs, w + 1, 0);
      part(item.third, w + 2, INT64_MAX);
      part(item.body, w + 3, 1);
    } else if (types::Resolve(T(item.type))->kind == types::Kind::kTensor) {
      LoadInt(w, vm::SubscriptItem::kTensor);
      for (int k = 1; k < 4; ++k) LoadInt(w + k, 0);
      idx = Eval(item, true);
    } else {
      LoadInt(w, vm::SubscriptItem::kIndex);
      part(e.elements[i], w + 1, 0);
      LoadInt(w + 2, 0);
      LoadInt(w + 3, 0);
    }
  }
  const int spec = Alloc(true);
  Emit(Instr::ABC(Op::ARRAY, spec, base, static_cast<uint16_t>(words), 0), e.span);
  CallNative("t_subscript",
             {NativeArg::Reg(x.reg), NativeArg::Reg(spec),
              idx.reg >= 0 ? NativeArg::Reg(idx.reg) : NativeArg::Imm(0)},
             true, r, e.span);
  Release(spec);
  Free(idx);
  Free(x);
  Done(dest, r);
  SetTop(mark);
}

}  // namespace alea::compiler
