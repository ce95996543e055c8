// The virtual machine: loads a Module, binds its natives, runs it.
//
//   alea::vm::Vm vm(alea::vm::Limits{});
//   vm.AddNatives(alea::stdlib::Natives());
//   absl::Status s = vm.Load(module);
//   if (s.ok()) s = vm.RunMain(args);
//   if (const alea::vm::RuntimeError* e = vm.last_error()) { ...render e... }
//
// A Vm is not thread-safe (one thread runs it), except Interrupt(). Several
// Vms may run on several threads at once: they share nothing.
#ifndef ALEA_VM_VM_H_
#define ALEA_VM_VM_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "vm/bytecode.h"
#include "vm/files.h"
#include "vm/heap.h"
#include "vm/native.h"
#include "vm/native_signature.h"
#include "vm/progress.h"
#include "vm/randstate.h"
#include "vm/runtime_error.h"
#include "vm/tape.h"
#include "vm/thread_pool.h"
#include "vm/value.h"

namespace alea::vm {

class TensorContext;
struct FusedKernelCache;  // tensor_ops.h
namespace jit {
class Jit;
}

struct Limits {
  // Frames of non-tail calls (main's frame counts one); a tail call reuses its
  // frame. Past it: "stack overflow: more than N nested calls".
  uint64_t max_call_depth = 1'000'000;
  // Bytes of live heap objects; 0 = unlimited.
  uint64_t max_heap_bytes = 0;
  // Natives that call closures (`map`, `fold`...) re-enter the interpreter on
  // the machine stack; this bounds how deeply they may nest.
  uint32_t max_native_nesting = 1000;
  // Instructions one RunMain or Call may execute; 0 = unlimited. Checked
  // where the interrupt flag is (calls, tail calls, backward jumps), not per
  // instruction, so a run stops a little past it: "instruction budget exhausted".
  uint64_t max_instructions = 0;
  // What the file natives may touch (vm/files.h): everything by default
  // here; the embedding API's default is nothing.
  FileAccess files = {};
};

struct Stats {
  uint64_t instructions = 0;  // every instruction dispatched
  uint64_t calls = 0;         // non-tail calls, tail calls and closure calls
  uint64_t allocations = 0;   // heap objects created
  uint64_t peak_heap_bytes = 0;
  uint64_t heap_bytes_live = 0;
  uint64_t jit_kernels = 0;        // tensor kernels the JIT compiled
  uint64_t jit_compile_nanos = 0;  // time spent compiling them
  uint64_t jit_kernel_nanos = 0;   // time spent running them (with SetKernelTiming)
  // Time inside RunMain, RunInit and Call (with SetKernelTiming): what the
  // program took, of which jit_kernel_nanos in kernels; the rest is the
  // interpreter, reference kernels and copies.
  uint64_t run_nanos = 0;
  // Tensor element bytes copied only to change their layout (transpose,
  // concat, stack, roll, a row or slice of less than half a tensor): a
  // hidden copy in a tensor expression shows here.
  uint64_t bytes_copied = 0;
};

class Vm {
 public:
  explicit Vm(Limits limits = {});
  ~Vm();
  Vm(const Vm&) = delete;
  Vm& operator=(const Vm&) = delete;

  // Makes natives available to modules loaded afterwards (stdlib::Natives()
  // has the whole standard library). A later entry of the same name wins.
  void AddNatives(absl::Span<const NativeEntry> natives);

  // Copies the module, binds its natives by name (an unknown name or a wrong
  // arity is an error), creates its string constants, and checks its indexes
  // (functions, constants, natives, types, jump targets). Replaces any module
  // loaded before, releasing its globals.
  absl::Status Load(const Module& module);
  // The same for a module decoded from bytes (module_file.h): the verifier's
  // errors name byte offsets by `code_offsets` (ModuleFile::code_offsets).
  absl::Status Load(const Module& module, absl::Span<const uint64_t> code_offsets);

  // Runs F(init) (if any), then F(main), passing `args` as an [Str] when
  // Module::main_takes_args, and a `uses rng` main (Module::main_uses_rng)
  // its ambient stream key(seed). Output is flushed before this returns, so
  // text printed before a run-time error is written before the error is
  // reported. A run-time error is returned as a Status (its message) and in
  // detail by last_error(); the Vm stays usable.
  // With run_init false, F(init) is taken as done (RunInit ran it: a host
  // that loads, then runs main).
  absl::Status RunMain(const std::vector<std::string>& args, int64_t seed = 0,
                       bool run_init = true);

  // Runs F(init), computing the globals, for a host that calls functions of
  // the module without running main (RunMain runs it itself). Errors as RunMain.
  // Both refuse to run while an `extern let` (Global::external) is unset.
  absl::Status RunInit();

  // Sets the `extern let` global `index` (after Load, before RunInit or
  // RunMain) to `value`, owned (a reference is released when replaced or
  // unloaded, or at once if this fails).
  absl::Status SetGlobal(uint32_t index, Value value);
  // The value of global `index` once RunInit has computed it (borrowed; 0
  // when out of range), for a host that keeps it (the REPL's lets).
  Value global(uint32_t index) const { return index < globals_.size() ? globals_[index] : 0; }

  // Calls F(function) on `args` (one per parameter, references owned: they
  // are moved in and released by the callee), for a host. On success
  // *result holds the result, a reference (owned by the caller, to release
  // through heap()) when *result_is_ref. Errors as RunMain; the Vm stays usable.
  absl::Status Call(uint32_t function, absl::Span<const Value> args, Value* result,
                    bool* result_is_ref);

  // The heap, for a host that makes argument objects and reads results.
  Heap& heap() { return heap_; }

  // The error of the last RunMain, RunInit or Call, or nullptr when it succeeded.
  const RuntimeError* last_error() const { return error_ ? &*error_ : nullptr; }

  Stats stats() const;

  // Thread-safe: the running program stops with "interrupted" at its next call
  // or backward jump. The request is consumed by the error it causes.
  void Interrupt() { interrupt_.store(true, std::memory_order_relaxed); }

  // Where PRINT's text goes (default: stdout). The VM buffers and calls the
  // sink with large chunks, a tenth of a second after the chunk began (so a
  // long run's output shows as it goes), and at the end of each RunMain;
  // the default sink, on a terminal, with each line.
  // With flush_lines, the sink gets each line as it is printed (a sink to a
  // terminal).
  void SetOutput(std::function<void(absl::string_view)> sink, bool flush_lines = false) {
    sink_ = std::move(sink);
    flush_lines_ = flush_lines;
  }
  void FlushOutput();
  // Where `progress`'s bar goes, and how wide it may be (vm/progress.h);
  // the default writes to stderr when stderr is a terminal, as wide as the
  // terminal, and nothing otherwise.
  void SetProgress(std::function<void(absl::string_view)> sink, int width) {
    progress_sink_ = std::move(sink);
    progress_width_ = width;
  }
  // Draws step i of n (Native progress; 0 <= i < n).
  void Progress(int64_t i, int64_t n);
  // Seconds of the steady clock (output's and the bar's timing).
  static double SteadySeconds();

  const Module* module() const { return module_.get(); }

  // Whether tensor ops may use JIT-compiled kernels (default on; they are
  // bitwise equal to the reference kernels, so only speed can tell). The JIT
  // is created on the first tensor op that could use it, and is off by
  // itself on CPUs without AVX2+FMA.
  void SetJitEnabled(bool enabled) { jit_enabled_ = enabled; }
  // Times every JIT kernel call for Stats::jit_kernel_nanos (`--stats`).
  void SetKernelTiming(bool on) { kernel_timing_ = on; }
  // Whether the JIT may use AVX-512 where the CPU has it (default yes);
  // false keeps it to AVX2. The results are the same bits either way: this
  // exists so that the two paths can be compared (`alea run --isa avx2`).
  // Takes effect before the first tensor op.
  void SetJitAvx512(bool allowed) { jit_avx512_ = allowed; }
  // How many threads large tensor and random ops may use, this one included
  // (at least 1). The default is 1: a host that runs several VMs at once
  // decides how to share its cores (`alea run` uses them all). The results
  // never depend on it.
  void SetThreads(int threads) { pool_.SetThreads(threads); }
  int threads() const { return pool_.threads(); }

 private:
  // The JIT for tensor ops, or null (disabled, or the CPU cannot run it).
  jit::Jit* TensorJit();
  // The context of a tensor operation at output-buffer site `site` (0:
  // none): the heap, the JIT (if any) and the threads.
  TensorContext Tensors(uint32_t site);

  friend class NativeContext;

  // Per-function facts the interpreter needs, derived once at Load.
  struct FuncInfo {
    const Instr* code = nullptr;
    uint16_t num_params = 0;
    uint16_t num_registers = 0;
    const uint16_t* refs = nullptr;  // reference registers
    uint32_t num_refs = 0;
    std::vector<uint8_t> is_ref;          // per register
    std::vector<uint8_t> capture_is_ref;  // per capture
    uint32_t index = 0;
    uint32_t first_site = 0;  // the output-buffer site of code[0] (Heap::NewTensorAt)
    // Its result type is a reference, owned by whoever receives it: decided by
    // the type, not by the register RET reads (an owned reference may be
    // returned from a plain one: the verifier's "loose" values).
    bool returns_ref = false;
  };
  struct Frame {
    const FuncInfo* fn;
    const Instr* pc;  // where this frame resumes (saved when it calls out)
    size_t base;      // index of R(0) in the register stack
    Object* closure;  // owned; null for a direct call
    bool boundary;    // returning from it returns to C++ (Invoke)
    // Tail calls that reused this frame: the call chain of an error says how
    // many frames it cannot show.
    uint64_t tail_calls;
  };
  struct BoundNative {
    NativeFn fn;
    int arity;
    const void* data;
    bool owns_first;
    const char* signature;  // NativeEntry::signature (a host's native)
  };

  void Unload();
  // The signature of a native the host added (NativeEntry::signature), parsed.
  const NativeSignature* HostSignature(absl::string_view name);
  absl::Status CheckExternals() const;

  // Runs function `index` (with `closure`, owned, or null) on `args` (owned,
  // moved in) on top of the current frames, to completion. false: error_ is
  // set and everything the call owned has been released.
  bool Invoke(uint32_t index, Object* closure, absl::Span<const Value> args, Value* result,
              bool* result_is_ref);
  bool Execute(Value* result);  // interpreter.cc: Run<true> while a tape records
  template <bool kTape>
  bool Run(Value* result);

  // ---- `grad` (interpreter_grad.cc; vm/tape.h) ----
  // What the interpreter does with an instruction while a tape records,
  // before the instruction's own code: kProceed runs that code, kDone means
  // the step did all of it. Called with the frame's state saved.
  enum class TapeOutcome : uint8_t { kProceed, kDone, kFailed };
  TapeOutcome TapeStep(Instr ins);
  // The part of the previous instruction's step that needs its result
  // (a new container's slots, a Float operation's node).
  void FinishTapeStep();
  // Whether `o` holds, however deep, a Float or tensor that carries a
  // derivative.
  bool HoldsDerivative(const Object* o, int depth) const;
  // TapeNative of a tensor rule's native (vm/grad_rules.def).
  TapeOutcome TapeTensorNative(GradRule rule, Instr ins, Value* r, uint32_t* s);
  TapeOutcome TapeNative(Instr ins, Value* r, uint32_t* s);
  // A Float rule's operation: operand nodes and values, the node made once
  // it ran (FinishTapeStep reads its result).
  void TapeFloatOp(GradRule rule, Instr ins, uint32_t in0, uint32_t in1, double x, double y);
  // A tensor rule's operation: its operands kept, the node made once it ran.
  TapeOutcome TapeTensorOp(GradRule rule, Instr ins, uint32_t in0, uint32_t in1, Object* a,
                           Object* b, int64_t aux, int64_t aux2, bool float_result);
  bool GradCall(Instr ins);  // GRAD, with the frame's state saved
  bool AssignLeaves(Tape& tape, Value v, uint32_t type, uint32_t* node, int depth);
  bool BuildGradient(const Tape& tape, Value v, uint32_t type, uint32_t node, Value* out,
                     int depth);

  // Slow paths of a call: interrupt, instruction budget, frame and register
  // stack growth.
  bool PrepareCall(size_t needed_top);
  // The interrupt request and the instruction budget, at a call or backward
  // jump (instructions_ up to date); false after raising.
  bool Poll();
  // Starts a host-level run (RunMain, RunInit, Call): clears the last error,
  // sets the instruction budget.
  void BeginRun();
  // The status of the error just raised (error_), flushing output first.
  absl::Status FinishRun(bool ok);
  bool GrowStack(size_t needed);
  void Unwind();  // releases every frame down to and including a boundary frame
  void ReleaseFrameRefs(Value* r, const FuncInfo* f, int keep_from, int keep_count);

  template <typename... Args>
  void Raise(RuntimeErrorId id, const Args&... args) {
    SetError(MakeRuntimeError(id, args...));
  }
  void SetError(RuntimeError e);
  void RaiseOutOfMemory();
  void Locate(const FuncInfo* f, const Instr* instr);
  SourceLocation InstrLocation(const FuncInfo* f, const Instr* instr) const;  // LocationAt
  // Appends `frame` to the error's call chain (merging a repeat of the last).
  void AddToChain(const Frame& frame);
  Object* LoadFnClosure(uint32_t index);
  bool CallNative(uint32_t index, uint16_t a, Value* result);  // state saved by the caller
  Object* StrOf(Value v, uint32_t type);                       // STR: null when out of memory
  // The tensor opcodes (interpreter_tensors.cc); false after recording the
  // error. `op` is a kernels::BinaryOp / UnaryOp.
  // `site`: the instruction's output-buffer site (FuncInfo::first_site + pc).
  bool TensorBinary(uint8_t op, Instr ins, Value* r, uint32_t site);
  bool TensorUnary(uint8_t op, Instr ins, Value* r, uint32_t site);
  bool TensorScalar(Instr ins, Value* r, uint32_t site);
  enum class FusedOutcome : uint8_t { kDone, kNotFused, kFailed };
  FusedOutcome TensorFused(Instr ins, Value* r);
  void RaiseTensorFailure(TensorContext& cx);
  // The random-state opcodes (interpreter_random.cc), dispatched on ins.op;
  // false after recording the error. The caller has saved the frame state.
  bool RandomOp(Instr ins, Value* r);
  bool RandomSample(Instr ins, Value* r, Object* state, const RandSite& here);
  // The unboxed-state opcodes that can fail (UNBOX TAKE BOX NEXT_U FOLDIN_U
  // SITE); the others run inline in the dispatch loop.
  bool UnboxedRandomOp(Instr ins, Value* r);
  // A new state created at `site`; null after raising out of memory.
  Object* NewRandState(const random::RandState& state, const RandSite& site);
  // "a RandState is used twice", with notes for where `state` was created
  // and first consumed; returns false.
  bool RaiseStateReused(const Object* state);
  // R(a) = o, releasing the reference R(a) held (an overwritten operand).
  void PutReference(Value* r, uint16_t a, Object* o);

  // `grad`: the tape recording (null when none), the registers' nodes (a
  // shadow of the register stack, valid while a tape records), the step
  // left to finish, and each GRAD site's tape, kept for its next call.
  Tape* tape_ = nullptr;
  std::vector<uint32_t> shadow_;
  struct TapePost {
    enum class Kind : uint8_t {
      kNone,
      kContainer,
      kFloatOp,
      kPush,
      kTensorOp,
      kTensorParts
    } kind = Kind::kNone;
    Instr ins;
    size_t base = 0;
    GradRule rule = GradRule::kNone;
    uint32_t in0 = 0, in1 = 0;
    double x = 0, y = 0;
    std::vector<uint32_t> slots;  // kPush: the array's before
    // kTensorOp: the operands (kept: the rule reads them), its numbers, and
    // whether its result is a Float (t_item).
    Object* ta = nullptr;
    Object* tb = nullptr;
    Object* tc = nullptr;  // a third operand (kept on the tape as ta and tb)
    int64_t aux = 0, aux2 = 0;
    bool float_result = false;
    // kTensorParts: a result made of several tensors (`where`, `concat`,
    // `stack`), one tape entry per operand that carries a derivative.
    struct Part {
      uint32_t node;
      Object* a;
      Object* b;
      int64_t aux, aux2;
    };
    std::vector<Part> parts;
  } tape_post_;
  absl::flat_hash_map<uint32_t, std::unique_ptr<Tape>> grad_tapes_;
  // The first output-buffer site no instruction has: the tapes take
  // theirs from here (Tape::SetSites).
  uint32_t free_site_ = 0;

  Limits limits_;
  Heap heap_;
  std::vector<std::pair<std::string, BoundNative>> native_table_;
  // Parsed host signatures by their text. A node map: the verifier keeps
  // the pointers HostSignature returns while later calls insert more.
  absl::node_hash_map<std::string, NativeSignature> host_signatures_;
  std::unique_ptr<Module> module_;
  uint32_t loads_ = 0;  // Load calls so far: the RandSite::module of the loaded module's sites
  std::vector<FuncInfo> funcs_;
  std::vector<BoundNative> natives_;
  std::vector<Value> strings_;        // one owned Str per string constant
  std::vector<Object*> fn_closures_;  // LOADFN's capture-less closures, made once
  std::vector<Value> globals_;
  std::vector<uint8_t> global_is_ref_;
  std::vector<uint8_t> global_unset_;              // an `extern let` the host has not set yet
  std::vector<std::vector<uint8_t>> tuple_masks_;  // per type: which fields are references
  std::vector<uint16_t> tuple_tags_;               // per type: the tag TUPLE gives (kCase)

  // Register stack: slots above the running frame's window are always null.
  Value* stack_ = nullptr;
  size_t stack_capacity_ = 0;
  Frame* frames_ = nullptr;
  size_t frame_capacity_ = 0;
  size_t depth_ = 0;  // frames in use (valid whenever the interpreter calls out)
  uint32_t native_nesting_ = 0;
  bool last_result_is_ref_ = false;

  std::optional<RuntimeError> error_;
  std::atomic<bool> interrupt_{false};
  uint64_t instructions_ = 0;
  // instructions_ past which the running host call stops (BeginRun); the max
  // when unlimited.
  uint64_t instruction_limit_ = UINT64_MAX;
  uint64_t calls_ = 0;

  std::string out_;
  bool jit_enabled_ = true;
  bool jit_avx512_ = true;
  ThreadPool pool_;
  bool kernel_timing_ = false;
  // Stats::run_nanos: runs in progress (a host function may Call back in;
  // only the outermost run is timed) and when the outermost began.
  int run_depth_ = 0;
  int64_t run_start_nanos_ = 0;
  uint64_t run_nanos_ = 0;
  std::unique_ptr<jit::Jit> jit_;                // created by TensorJit
  std::vector<FusedKernelCache> fused_kernels_;  // one per module.fused program
  std::function<void(absl::string_view)> sink_;
  // When out_'s oldest unflushed text was printed (steady clock, seconds).
  double out_since_ = 0;
  bool flush_lines_ = false;  // the default sink on a terminal
  ProgressBar progress_;
  std::function<void(absl::string_view)> progress_sink_;  // null: stderr if a terminal
  int progress_width_ = 80;
  bool bar_on_screen_ = false;  // the default sink's bar line, not yet ended
};

}  // namespace alea::vm

#endif  // ALEA_VM_VM_H_
