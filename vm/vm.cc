#include "vm/vm.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"
#include "vm/print.h"
#include "vm/tensor_ops.h"
#include "vm/verifier.h"

namespace alea::vm {
namespace {

constexpr size_t kInitialStack = 1 << 12;
constexpr size_t kInitialFrames = 1 << 8;

absl::Status Malformed(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("malformed module: ", what));
}

}  // namespace

Vm::Vm(Limits limits) : limits_(limits), heap_(limits.max_heap_bytes) {
  if (limits_.max_call_depth == 0) limits_.max_call_depth = 1;
  sink_ = [](absl::string_view s) {
    std::fwrite(s.data(), 1, s.size(), stdout);
    std::fflush(stdout);
  };
  // On a terminal each line shows as it is printed, as C's stdout does.
  flush_lines_ = isatty(STDOUT_FILENO) != 0;
}

Vm::~Vm() {
  FlushOutput();
  Unload();
  std::free(stack_);
  std::free(frames_);
}

void Vm::AddNatives(absl::Span<const NativeEntry> natives) {
  for (const NativeEntry& e : natives) {
    if (e.arity < 0 || e.arity > kMaxNativeArity) continue;  // cannot be called
    native_table_.push_back(
        {e.name, BoundNative{e.fn, e.arity, e.data, e.owns_first, e.signature}});
  }
}

void Vm::Unload() {
  for (size_t i = 0; i < globals_.size(); ++i) {
    if (global_is_ref_[i] && globals_[i] != 0) heap_.ReleaseValue(globals_[i]);
  }
  for (Value s : strings_) heap_.ReleaseValue(s);
  for (Object* c : fn_closures_) {
    if (c != nullptr) heap_.Release(c);
  }
  globals_.clear();
  global_is_ref_.clear();
  global_unset_.clear();
  strings_.clear();
  fn_closures_.clear();
  funcs_.clear();
  natives_.clear();
  tuple_masks_.clear();
  tuple_tags_.clear();
  fused_kernels_.clear();
  heap_.DropParked();  // parked at this module's sites
  module_.reset();
}

absl::Status Vm::Load(const Module& module) { return Load(module, {}); }

absl::Status Vm::Load(const Module& module, absl::Span<const uint64_t> code_offsets) {
  Unload();
  error_.reset();
  ++loads_;
  auto m = std::make_unique<Module>(module);
  for (const std::string& name : m->natives) {
    auto it = std::find_if(native_table_.rbegin(), native_table_.rend(),
                           [&](const auto& e) { return e.first == name; });
    if (it == native_table_.rend()) {
      if (absl::StartsWith(name, kExternPrefix)) {
        return absl::NotFoundError(absl::StrCat("the program declares `extern fn ",
                                                name.substr(sizeof(kExternPrefix) - 1),
                                                "` and the host provides no such function"));
      }
      return absl::NotFoundError(absl::StrCat("unknown native function `", name, "`"));
    }
    natives_.push_back(it->second);
  }
  // Everything the module says is checked before anything runs
  // (vm/verifier.h), against the signatures of the natives just bound.
  VerifyOptions options;
  options.code_offsets = code_offsets;
  options.host_natives = [this](absl::string_view name) { return HostSignature(name); };
  if (absl::Status s = VerifyModule(*m, options); !s.ok()) {
    Unload();
    return s;
  }
  for (size_t i = 0; i < m->natives.size(); ++i) {
    const std::string& name = m->natives[i];
    size_t arity = 0;
    if (absl::StartsWith(name, kExternPrefix)) {
      for (const ExternFn& e : m->externs) {
        if (e.name == absl::string_view(name).substr(sizeof(kExternPrefix) - 1)) {
          arity = e.params.size();
        }
      }
    } else {
      const NativeSignature* sig = SignatureOfNative(name);
      if (sig == nullptr) sig = HostSignature(name);
      arity = sig->params.size();
    }
    if (static_cast<size_t>(natives_[i].arity) != arity) {
      Unload();
      return absl::FailedPreconditionError(absl::StrCat("native `", name, "` takes ",
                                                        natives_[i].arity,
                                                        " arguments; the program passes ", arity));
    }
  }
  tuple_masks_.resize(m->types.size());
  tuple_tags_.assign(m->types.size(), 0);
  fused_kernels_.assign(m->fused.size(), FusedKernelCache{});
  for (size_t i = 0; i < m->types.size(); ++i) {
    const TypeDesc& t = m->types[i];
    if (t.kind != TypeDesc::Kind::kTuple && t.kind != TypeDesc::Kind::kRecord &&
        t.kind != TypeDesc::Kind::kCase) {
      continue;
    }
    for (uint32_t c : t.children) tuple_masks_[i].push_back(m->types[c].is_reference() ? 1 : 0);
    tuple_tags_[i] = t.tag;
  }
  funcs_.resize(m->functions.size());
  // Output-buffer sites (Heap::NewTensorAt): 1..F for the fused programs,
  // then one per instruction of every function.
  uint64_t next_site = m->fused.size() + 1;
  for (size_t i = 0; i < m->functions.size(); ++i) {
    const Function& f = m->functions[i];
    FuncInfo& info = funcs_[i];
    if (next_site + f.code.size() > UINT32_MAX) {
      Unload();
      return Malformed("too many instructions");
    }
    info.first_site = static_cast<uint32_t>(next_site);
    next_site += f.code.size();
    info.code = f.code.data();
    info.num_params = f.num_params;
    info.num_registers = f.num_registers;
    info.refs = f.reference_registers.data();
    info.num_refs = static_cast<uint32_t>(f.reference_registers.size());
    info.is_ref.assign(f.num_registers, 0);
    info.index = static_cast<uint32_t>(i);
    info.returns_ref = m->types[f.result_type].is_reference();
    for (uint16_t r : f.reference_registers) info.is_ref[r] = 1;
    info.capture_is_ref.assign(f.num_captures, 0);
    for (uint16_t c : f.reference_captures) info.capture_is_ref[c] = 1;
  }
  free_site_ = static_cast<uint32_t>(next_site);
  grad_tapes_.clear();
  module_ = std::move(m);
  for (const std::string& s : module_->strings) {
    Object* o = heap_.NewStr(s);
    if (o == nullptr) {
      Unload();
      return absl::ResourceExhaustedError("out of memory budget loading string constants");
    }
    strings_.push_back(FromObject(o));
  }
  fn_closures_.assign(module_->functions.size(), nullptr);
  globals_.assign(module_->globals.size(), 0);
  for (const Global& g : module_->globals) {
    global_is_ref_.push_back(module_->types[g.type].is_reference() ? 1 : 0);
    global_unset_.push_back(g.external ? 1 : 0);
  }
  return absl::OkStatus();
}

const NativeSignature* Vm::HostSignature(absl::string_view name) {
  for (auto it = native_table_.rbegin(); it != native_table_.rend(); ++it) {
    if (it->first != name) continue;
    const char* text = it->second.signature;
    if (text == nullptr) return nullptr;
    auto cached = host_signatures_.find(text);
    if (cached == host_signatures_.end()) {
      absl::StatusOr<NativeSignature> sig = ParseNativeSignature(text);
      if (!sig.ok()) return nullptr;
      sig->owns_first = it->second.owns_first;
      cached = host_signatures_.emplace(text, *std::move(sig)).first;
    }
    return &cached->second;
  }
  return nullptr;
}

absl::Status Vm::SetGlobal(uint32_t index, Value value) {
  if (module_ == nullptr || index >= globals_.size() || !module_->globals[index].external) {
    if (global_is_ref_.size() > index && global_is_ref_[index] && value != 0) {
      heap_.ReleaseValue(value);
    }
    return absl::FailedPreconditionError("no such `extern let` in the loaded module");
  }
  if (global_is_ref_[index] && globals_[index] != 0) heap_.ReleaseValue(globals_[index]);
  globals_[index] = value;
  global_unset_[index] = 0;
  return absl::OkStatus();
}

absl::Status Vm::CheckExternals() const {
  for (size_t i = 0; i < global_unset_.size(); ++i) {
    if (global_unset_[i]) {
      return absl::FailedPreconditionError(absl::StrCat("the program declares `extern let ",
                                                        module_->globals[i].name,
                                                        "` and the host has not set it"));
    }
  }
  return absl::OkStatus();
}

void Vm::SetError(RuntimeError e) { error_ = std::move(e); }

void Vm::RaiseOutOfMemory() {
  if (heap_.last_failure_was_budget()) {
    Raise(RuntimeErrorId::kOutOfMemoryBudget, heap_.max_bytes());
  } else {
    Raise(RuntimeErrorId::kOutOfMemory, heap_.last_failed_bytes());
  }
}

SourceLocation Vm::InstrLocation(const FuncInfo* f, const Instr* instr) const {
  return LocationAt(module_->functions[f->index], static_cast<uint32_t>(instr - f->code));
}

void Vm::Locate(const FuncInfo* f, const Instr* instr) {
  if (!error_ || error_->located) return;
  error_->located = true;
  error_->location = InstrLocation(f, instr);
}

void Vm::AddToChain(const Frame& frame) {
  // Each frame's pc is saved past the instruction it was executing (the
  // failing one, or its call).
  const SourceLocation at = InstrLocation(frame.fn, frame.pc - 1);
  const std::string& name = module_->functions[frame.fn->index].name;
  std::vector<CallFrame>& chain = error_->chain;
  if (!chain.empty() && frame.tail_calls == 0 && chain.back().tail_calls == 0 &&
      chain.back().function == name && chain.back().location.file == at.file &&
      chain.back().location.line == at.line && chain.back().location.column == at.column) {
    ++chain.back().repeats;
    return;
  }
  chain.push_back(CallFrame{name, at, 1, frame.tail_calls});
}

bool Vm::GrowStack(size_t needed) {
  size_t cap = std::max(stack_capacity_ * 2, std::max(needed + 256, kInitialStack));
  auto* s = static_cast<Value*>(std::realloc(stack_, cap * sizeof(Value)));
  if (s == nullptr) {
    Raise(RuntimeErrorId::kOutOfMemory, cap * sizeof(Value));
    return false;
  }
  std::memset(s + stack_capacity_, 0, (cap - stack_capacity_) * sizeof(Value));
  stack_ = s;
  stack_capacity_ = cap;
  return true;
}

bool Vm::Poll() {
  if (interrupt_.exchange(false, std::memory_order_relaxed)) {
    Raise(RuntimeErrorId::kInterrupted);
    return false;
  }
  if (instructions_ > instruction_limit_) {
    Raise(RuntimeErrorId::kInstructionBudget, limits_.max_instructions);
    return false;
  }
  return true;
}

bool Vm::PrepareCall(size_t needed_top) {
  if (!Poll()) return false;
  if (depth_ >= frame_capacity_) {
    if (depth_ >= limits_.max_call_depth) {
      Raise(RuntimeErrorId::kStackOverflow, limits_.max_call_depth);
      return false;
    }
    size_t cap =
        std::min<uint64_t>(std::max(frame_capacity_ * 2, kInitialFrames), limits_.max_call_depth);
    auto* f = static_cast<Frame*>(std::realloc(frames_, cap * sizeof(Frame)));
    if (f == nullptr) {
      Raise(RuntimeErrorId::kOutOfMemory, cap * sizeof(Frame));
      return false;
    }
    frames_ = f;
    frame_capacity_ = cap;
  }
  if (needed_top > stack_capacity_) return GrowStack(needed_top);
  return true;
}

void Vm::ReleaseFrameRefs(Value* r, const FuncInfo* f, int keep_from, int keep_count) {
  for (uint32_t i = 0; i < f->num_refs; ++i) {
    const int reg = f->refs[i];
    if (reg >= keep_from && reg < keep_from + keep_count) continue;
    if (r[reg] != 0) {
      heap_.ReleaseValue(r[reg]);
      r[reg] = 0;
    }
  }
}

void Vm::Unwind() {
  while (depth_ > 0) {
    Frame& f = frames_[depth_ - 1];
    if (error_) AddToChain(f);
    Value* r = stack_ + f.base;
    ReleaseFrameRefs(r, f.fn, 0, 0);
    std::memset(r, 0, f.fn->num_registers * sizeof(Value));
    if (f.closure != nullptr) heap_.Release(f.closure);
    const bool boundary = f.boundary;
    --depth_;
    if (boundary) break;
  }
}

bool Vm::Invoke(uint32_t index, Object* closure, absl::Span<const Value> args, Value* result,
                bool* result_is_ref) {
  const FuncInfo* f = &funcs_[index];
  auto drop = [&] {
    for (size_t i = 0; i < args.size() && i < f->is_ref.size(); ++i) {
      if (f->is_ref[i] && args[i] != 0) heap_.ReleaseValue(args[i]);
    }
    if (closure != nullptr) heap_.Release(closure);
  };
  if (args.size() != f->num_params) {
    Raise(RuntimeErrorId::kBadCall, "a function called with the wrong number of arguments");
    drop();
    return false;
  }
  size_t base = 0;
  if (depth_ > 0) {
    const Frame& top = frames_[depth_ - 1];
    base = top.base + top.fn->num_registers;
  }
  if (!PrepareCall(base + f->num_registers + 1)) {
    drop();
    return false;
  }
  Value* r = stack_ + base;
  std::memset(r, 0, f->num_registers * sizeof(Value));
  for (size_t i = 0; i < args.size(); ++i) r[i] = args[i];
  if (tape_ != nullptr) {
    // Recording for `grad`: the frame's registers carry no derivative but
    // what GRAD or a carrying native gave its arguments.
    if (shadow_.size() < stack_capacity_) shadow_.resize(stack_capacity_, 0);
    std::fill_n(shadow_.begin() + static_cast<std::ptrdiff_t>(base), f->num_registers, 0u);
    const size_t given = std::min<size_t>(tape_->call_nodes.size(), f->num_registers);
    std::copy_n(tape_->call_nodes.begin(), given,
                shadow_.begin() + static_cast<std::ptrdiff_t>(base));
    tape_->call_nodes.clear();
  }
  frames_[depth_++] = Frame{f, f->code, base, closure, true, 0};
  ++calls_;
  const bool ok = Execute(result);
  if (ok) *result_is_ref = last_result_is_ref_;
  return ok;
}

Object* Vm::LoadFnClosure(uint32_t index) {
  Object*& c = fn_closures_[index];
  if (c == nullptr) {
    c = heap_.NewClosure(index, 0);
    if (c == nullptr) return nullptr;
  }
  ++c->refcount;
  return c;
}

bool Vm::CallNative(uint32_t index, uint16_t a, Value* result) {
  const BoundNative& native = natives_[index];
  // A copy: the register stack may move if the native calls back.
  Value args[kMaxNativeArity];
  Value* r = stack_ + frames_[depth_ - 1].base;
  for (int i = 0; i < native.arity; ++i) args[i] = r[a + 1 + i];
  if (native.owns_first && native.arity > 0) r[a + 1] = 0;  // moved into the native
  NativeContext ctx(this, a, native.data);
  absl::StatusOr<Value> v = native.fn(ctx, args);
  if (!v.ok()) {
    if (!error_) Raise(RuntimeErrorId::kBadCall, v.status().message());
    return false;
  }
  if (tape_ != nullptr && ctx.result_node_ != 0) {
    shadow_[frames_[depth_ - 1].base + a] = ctx.result_node_;  // a carrying native's Float
  }
  *result = *v;
  return true;
}

Object* Vm::StrOf(Value v, uint32_t type) {
  std::string text;
  AppendValue(&text, v, type, *module_);
  return heap_.NewStr(text);
}

namespace {
int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

void Vm::BeginRun() {
  if (run_depth_++ == 0 && kernel_timing_) run_start_nanos_ = NowNanos();
  error_.reset();
  const uint64_t budget = limits_.max_instructions;
  instruction_limit_ =
      budget == 0 || budget > UINT64_MAX - instructions_ ? UINT64_MAX : instructions_ + budget;
}

absl::Status Vm::FinishRun(bool ok) {
  if (--run_depth_ == 0 && kernel_timing_) {
    run_nanos_ += static_cast<uint64_t>(NowNanos() - run_start_nanos_);
  }
  FlushOutput();
  if (ok) return absl::OkStatus();
  const std::string& msg = error_->message;
  switch (error_->id) {
    case RuntimeErrorId::kStackOverflow:
    case RuntimeErrorId::kNativeNesting:
    case RuntimeErrorId::kOutOfMemory:
    case RuntimeErrorId::kOutOfMemoryBudget:
    case RuntimeErrorId::kInstructionBudget:
      return absl::ResourceExhaustedError(msg);
    case RuntimeErrorId::kInterrupted:
      return absl::CancelledError(msg);
    default:
      return absl::AbortedError(msg);
  }
}

absl::Status Vm::RunInit() {
  if (module_ == nullptr) return absl::FailedPreconditionError("no module loaded");
  if (absl::Status s = CheckExternals(); !s.ok()) return s;
  BeginRun();
  bool ok = true;
  if (module_->init >= 0) {
    Value result = 0;
    bool is_ref = false;
    ok = Invoke(static_cast<uint32_t>(module_->init), nullptr, {}, &result, &is_ref);
    if (ok && is_ref && result != 0) heap_.ReleaseValue(result);
  }
  return FinishRun(ok);
}

absl::Status Vm::Call(uint32_t function, absl::Span<const Value> args, Value* result,
                      bool* result_is_ref) {
  if (module_ == nullptr || function >= funcs_.size()) {
    return absl::FailedPreconditionError("no such function in the loaded module");
  }
  BeginRun();
  *result = 0;
  *result_is_ref = false;
  return FinishRun(Invoke(function, nullptr, args, result, result_is_ref));
}

absl::Status Vm::RunMain(const std::vector<std::string>& args, int64_t seed, bool run_init) {
  if (module_ == nullptr) return absl::FailedPreconditionError("no module loaded");
  if (module_->main < 0) return absl::FailedPreconditionError("the module has no `main`");
  if (absl::Status s = CheckExternals(); !s.ok()) return s;
  BeginRun();
  bool ok = true;
  Value result = 0;
  bool is_ref = false;
  if (run_init && module_->init >= 0) {
    ok = Invoke(static_cast<uint32_t>(module_->init), nullptr, {}, &result, &is_ref);
    if (ok && is_ref && result != 0) heap_.ReleaseValue(result);
  }
  if (ok) {
    std::vector<Value> main_args;
    if (module_->main_takes_args) {
      Object* array = heap_.NewArray(args.size(), true);
      for (size_t i = 0; array != nullptr && i < args.size(); ++i) {
        Object* s = heap_.NewStr(args[i]);
        if (s == nullptr) {
          heap_.Release(array);
          array = nullptr;
          break;
        }
        Slots(array)[i] = FromObject(s);
      }
      if (array == nullptr) {
        RaiseOutOfMemory();
        ok = false;
      }
      main_args.push_back(FromObject(array));
    }
    if (ok && module_->main_uses_rng) {
      Object* state = heap_.NewRandState(random::KeyFromSeed(seed));
      if (state == nullptr) {
        for (Value v : main_args) heap_.ReleaseValue(v);
        RaiseOutOfMemory();
        ok = false;
      } else {
        main_args.push_back(FromObject(state));
      }
    }
    if (ok) ok = Invoke(static_cast<uint32_t>(module_->main), nullptr, main_args, &result, &is_ref);
    if (ok && is_ref && result != 0) heap_.ReleaseValue(result);
  }
  return FinishRun(ok);
}

void Vm::FlushOutput() {
  if (out_.empty()) return;
  if (bar_on_screen_) {
    // The text goes where the bar's line is: clear it; the next step
    // draws it again, below.
    static constexpr char kClear[] = "\r\x1b[K";
    [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, kClear, sizeof kClear - 1);
    bar_on_screen_ = false;
  }
  sink_(out_);
  out_.clear();
}

double Vm::SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void Vm::Progress(int64_t i, int64_t n) {
  const int width = progress_sink_ ? progress_width_ : TerminalColumns(STDERR_FILENO);
  if (width == 0) return;  // the default sink, and stderr no terminal
  std::optional<std::string> line = progress_.Update(i, n, SteadySeconds(), width);
  if (!line) return;
  FlushOutput();  // what was printed before this step shows above the bar
  if (progress_sink_) {
    progress_sink_(*line);
    return;
  }
  for (size_t at = 0; at < line->size();) {
    const ssize_t put = write(STDERR_FILENO, line->data() + at, line->size() - at);
    if (put <= 0) break;
    at += static_cast<size_t>(put);
  }
  bar_on_screen_ = line->back() != '\n';
}

Stats Vm::stats() const {
  Stats s;
  s.instructions = instructions_;
  s.calls = calls_;
  s.allocations = heap_.allocations();
  s.peak_heap_bytes = heap_.peak_bytes();
  s.heap_bytes_live = heap_.bytes_live();
  s.run_nanos = run_nanos_;
  s.bytes_copied = heap_.bytes_copied();
  if (jit_ != nullptr) {
    s.jit_kernels = static_cast<uint64_t>(jit_->stats().kernels_compiled);
    s.jit_compile_nanos = static_cast<uint64_t>(jit_->stats().compile_nanos);
    s.jit_kernel_nanos = static_cast<uint64_t>(jit_->stats().kernel_nanos);
  }
  return s;
}

// ---- NativeContext ----

Heap& NativeContext::heap() { return vm_->heap_; }
const FileAccess& NativeContext::files() const { return vm_->limits_.files; }

uint64_t NativeContext::MaxReadBytes() const {
  const Heap& heap = vm_->heap_;
  if (heap.max_bytes() == 0) return kMaxReadBytes;
  return heap.max_bytes() > heap.bytes_live() ? heap.max_bytes() - heap.bytes_live() : 0;
}
uint32_t NativeContext::site() const {
  const Vm::Frame& top = vm_->frames_[vm_->depth_ - 1];  // saved at the CALLN
  return top.fn->first_site + static_cast<uint32_t>(top.pc - 1 - top.fn->code);
}

TensorContext NativeContext::tensors() { return vm_->Tensors(site()); }
const Module& NativeContext::module() const { return *vm_->module_; }

bool NativeContext::arg_is_reference(int i) const {
  const Vm::Frame& f = vm_->frames_[vm_->depth_ - 1];
  const size_t reg = size_t{a_} + 1 + i;
  return reg < f.fn->is_ref.size() && f.fn->is_ref[reg];
}

bool NativeContext::result_is_reference() const {
  const Vm::Frame& f = vm_->frames_[vm_->depth_ - 1];
  return a_ < f.fn->is_ref.size() && f.fn->is_ref[a_];
}

uint32_t NativeContext::type_index(Value index) const {
  return index < vm_->module_->types.size() ? static_cast<uint32_t>(index) : 0;
}

const TypeDesc& NativeContext::type(Value index) const {
  static const TypeDesc kInt;
  return index < vm_->module_->types.size() ? vm_->module_->types[index] : kInt;
}

absl::Status NativeContext::Fail(RuntimeError error) {
  vm_->SetError(std::move(error));
  return absl::AbortedError(vm_->error_->message);
}

absl::Status NativeContext::OutOfMemory() {
  vm_->RaiseOutOfMemory();
  return absl::ResourceExhaustedError(vm_->error_->message);
}

absl::Status NativeContext::Fail(TensorContext& cx) {
  vm_->RaiseTensorFailure(cx);
  return absl::InvalidArgumentError(vm_->error_->message);
}

absl::StatusOr<random::Key> NativeContext::StateKey(Value state) {
  const Object* o = AsObject(state);
  if (IsConsumed(o)) {
    vm_->RaiseStateReused(o);
    return absl::AbortedError(vm_->error_->message);
  }
  return random::EffectiveKey(StateOf(o));
}

void NativeContext::ConsumeState(Value state) {
  const Vm::Frame& top = vm_->frames_[vm_->depth_ - 1];  // saved at the CALLN
  MarkConsumed(AsObject(state),
               RandSite{top.fn->index, static_cast<uint32_t>(top.pc - 1 - top.fn->code), Op::CALLN,
                        vm_->loads_});
}

absl::StatusOr<Object*> NativeContext::NewArray(uint64_t length, bool elements_are_refs) {
  Object* o = vm_->heap_.NewArray(length, elements_are_refs);
  if (o == nullptr) return OutOfMemory();
  return o;
}

absl::StatusOr<Object*> NativeContext::NewTuple(uint64_t fields) {
  Object* o = vm_->heap_.NewTuple(fields);
  if (o == nullptr) return OutOfMemory();
  return o;
}

absl::StatusOr<Object*> NativeContext::NewStr(absl::string_view text) {
  Object* o = vm_->heap_.NewStr(text);
  if (o == nullptr) return OutOfMemory();
  return o;
}

void NativeContext::Progress(int64_t i, int64_t n) { vm_->Progress(i, n); }

absl::StatusOr<Value> NativeContext::Call(Value f, absl::Span<const Value> args) {
  Object* closure = AsObject(f);
  const uint32_t index = closure->function;
  if (vm_->native_nesting_ >= vm_->limits_.max_native_nesting) {
    const Vm::FuncInfo& fi = vm_->funcs_[index];
    for (size_t i = 0; i < args.size() && i < fi.is_ref.size(); ++i) {
      if (fi.is_ref[i] && args[i] != 0) vm_->heap_.ReleaseValue(args[i]);
    }
    return Fail(RuntimeErrorId::kNativeNesting, vm_->limits_.max_native_nesting);
  }
  ++closure->refcount;  // the frame owns one reference while it runs
  ++vm_->native_nesting_;
  Value result = 0;
  bool is_ref = false;
  const bool ok = vm_->Invoke(index, closure, args, &result, &is_ref);
  --vm_->native_nesting_;
  if (!ok) return absl::AbortedError(vm_->error_->message);
  return result;
}

}  // namespace alea::vm
