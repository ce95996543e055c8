// The C API's VMs (include/alea/alea.h "Virtual machines", "Host functions
// and values"): loading, finding functions by name, and calls, with values
// checked against the module's types (a whole argument list before anything
// is consumed), converted to the VM's and back, and run-time errors rendered
// as `alea run` renders them.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "embed/capi_convert.h"
#include "embed/capi_internal.h"
#include "embed/runtime_diagnostic.h"
#include "lang/diagnostics.h"
#include "stdlib/natives.h"
#include "vm/randstate.h"
#include "vm/runtime_error.h"
#include "vm/tensor.h"
#include "vm/vm.h"

namespace alea::capi {

// A registered host function: the native "extern NAME" the VM calls
// (NativeEntry::data points here).
struct HostEntry {
  alea_host_function spec{};
  std::string name;
  std::string native_name;  // vm::kExternPrefix + name; NativeEntry::name points into it
  std::string signature;    // as registered; empty: any
  alea_vm* owner = nullptr;
  std::vector<vm::ExportType> params;  // as the loaded module declares them
  vm::ExportType result;
  absl::flat_hash_map<uint32_t, void*> sites;

  ~HostEntry() {
    ClearSites();
    if (spec.free_user != nullptr) spec.free_user(spec.user);
  }
  void ClearSites() {
    if (spec.free_site_data != nullptr) {
      for (auto& [site, data] : sites) {
        if (data != nullptr) spec.free_site_data(data);
      }
    }
    sites.clear();
  }
  static absl::StatusOr<vm::Value> Trampoline(vm::NativeContext& ctx, const vm::Value* args);
};

}  // namespace alea::capi

struct alea_host_call {
  alea::capi::HostEntry* entry;
  uint32_t site;
  std::string failure;
  bool failed = false;
};

struct alea_function {
  alea_vm* vm = nullptr;
  std::string name;
  std::string signature;
  uint64_t load = 0;
  uint32_t export_index = 0;
  uint32_t function = 0;
  std::vector<alea::vm::ExportType> params;  // the ambient stream's included
  alea::vm::ExportType result;
  bool result_is_ref = false;
  // Every parameter an Int, Float, Bool or Unit (their kinds in `kinds`):
  // such a call converts its arguments in place, without a Converter.
  bool scalar_params = false;
  std::vector<alea_kind> kinds;
  alea_kind result_kind = ALEA_UNIT;
};

struct alea_vm {
  explicit alea_vm(const alea::vm::Limits& limits) : vm(limits) {}
  ~alea_vm() {
    for (auto& [name, value] : values) alea_release(value);
    if (module != nullptr) alea_module_release(module);
  }

  // The rendered diagnostic of the VM's last error, as an error object.
  alea_code Failed(const absl::Status& status, alea_error** error) const {
    const alea::vm::RuntimeError* e = vm.last_error();
    if (module == nullptr) return alea::capi::FailWith(error, status);
    if (e == nullptr) {
      // Refused before anything ran: a run-time error of no place.
      alea::lang::Diagnostics diags;
      diags.Report(alea::lang::DiagId::kRuntimeError, std::nullopt, std::string(status.message()),
                   "");
      return alea::capi::FailWithDiagnostics(error, alea::capi::CodeOf(status),
                                             module->data.sources, diags);
    }
    return FailWithRuntimeError(alea::capi::CodeOf(status), *e, error);
  }
  alea_code FailWithRuntimeError(alea_code code, const alea::vm::RuntimeError& e,
                                 alea_error** error) const {
    const alea::lang::SourceManager& sources = module->data.sources;
    alea::lang::Diagnostics diags;
    alea::embed::ReportRuntimeError(sources, e, diags);
    return alea::capi::FailWithDiagnostics(error, code, sources, diags);
  }
  alea_code StateReused(alea_error** error) const {
    const alea::vm::RuntimeError e =
        alea::vm::MakeRuntimeError(alea::vm::RuntimeErrorId::kStateReused);
    if (module == nullptr) return alea::capi::Fail(error, ALEA_ABORTED, e.message);
    return FailWithRuntimeError(ALEA_ABORTED, e, error);
  }

  // Before the internal VM loads `m`: each `extern fn` has a host function
  // of its type, registered as a native of its arity.
  alea_code BindFunctions(const alea::vm::Module& m, alea_error** error);
  // After: each `extern let` has a value of its type, set.
  alea_code BindValues(const alea::vm::Module& m, alea_error** error);

  alea::vm::Vm vm;
  alea_module* module = nullptr;         // loaded (retained), once its lets are computed
  const alea_module* loading = nullptr;  // the module of Load, before `module` is set
  uint64_t load = 0;
  std::deque<alea_function> functions;                     // handles, stable until the VM goes
  absl::flat_hash_map<std::string, alea_function*> found;  // by name, of any load
  std::vector<std::unique_ptr<alea::capi::HostEntry>> hosts;
  std::vector<std::pair<std::string, alea_value>> values;  // `extern let`, retained
  alea_output_fn output = nullptr;
  void* output_user = nullptr;
};

namespace alea::capi {

vm::Vm& InternalVm(alea_vm* vm) { return vm->vm; }

alea_vm* NewVm(const vm::Limits& limits) {
  auto* vm = new (std::nothrow) alea_vm(limits);
  if (vm != nullptr) vm->vm.AddNatives(stdlib::Natives());
  return vm;
}

// Whether a state among those a value holds was consumed (by an earlier call
// or through a copy), or is held twice: the VM's "a RandState is used twice".
static bool AnyReused(States states) {
  for (const StateObject* s : states) {
    if (s->consumed.load()) return true;
  }
  std::sort(states.begin(), states.end());
  return std::adjacent_find(states.begin(), states.end()) != states.end();
}

// Checks `values` against `types` ("argument N"), then converts them (owned
// VM values into `out`); consumes the states only when all of it worked.
static alea_code Pass(alea_vm* vm, const vm::Module& m, const alea_value* values,
                      const std::vector<vm::ExportType>& types, const char* noun,
                      const std::string& function, VmValues& out, alea_error** error) {
  Converter convert(vm->vm.heap(), m);
  States states;
  for (size_t i = 0; i < types.size(); ++i) {
    const Path at{nullptr, Path::Step::kRoot, noun, i, {}};
    std::string bad = convert.Check(values[i], types[i], at, states);
    if (!bad.empty()) {
      return Fail(error, ALEA_INVALID_ARGUMENT, absl::StrCat(bad, " (calling `", function, "`)"));
    }
  }
  if (AnyReused(states)) return vm->StateReused(error);
  out.clear();
  // The references converted so far, given back when the call cannot go on.
  auto release_converted = [&] {
    for (size_t j = 0; j < out.size(); ++j) {
      if (m.types[types[j].type].is_reference()) vm->vm.heap().ReleaseValue(out[j]);
    }
  };
  for (size_t i = 0; i < types.size(); ++i) {
    std::optional<vm::Value> v = convert.ToVm(values[i], types[i], true);
    if (!v) {
      release_converted();
      return Fail(error, ALEA_RESOURCE_EXHAUSTED,
                  absl::StrCat("out of memory budget passing ", noun, " ", i + 1));
    }
    out.push_back(*v);
  }
  for (StateObject* s : states) {
    if (s->consumed.exchange(true)) {
      // Another thread consumed a copy meanwhile: nothing runs.
      release_converted();
      return vm->StateReused(error);
    }
  }
  return ALEA_OK;
}

absl::StatusOr<vm::Value> HostEntry::Trampoline(vm::NativeContext& ctx, const vm::Value* args) {
  auto* entry = static_cast<HostEntry*>(const_cast<void*>(ctx.data()));
  alea_vm* owner = entry->owner;
  const vm::Module& m = owner->loading->data.module;
  Converter convert(ctx.heap(), m);
  std::vector<alea_value> host_args;
  host_args.reserve(entry->params.size());
  auto release_args = [&] {
    for (alea_value v : host_args) alea_release(v);
  };
  for (size_t i = 0; i < entry->params.size(); ++i) {
    if (convert.TooDeep(args[i], entry->params[i].type)) {
      release_args();
      return ctx.Fail(vm::RuntimeErrorId::kHostFunctionFailed, entry->name,
                      absl::StrCat("argument ", i + 1, " nests more than ", kMaxDepth,
                                   " levels deep, too deep to cross"));
    }
    host_args.push_back(convert.FromVm(args[i], entry->params[i]));
  }
  alea_host_call call{entry, ctx.site(), {}, false};
  alea_value result = alea_unit();
  const alea_code code = entry->spec.fn(&call, host_args.data(), host_args.size(), &result);
  release_args();
  if (code != ALEA_OK || call.failed) {
    alea_release(result);
    return ctx.Fail(vm::RuntimeErrorId::kHostFunctionFailed, entry->name,
                    call.failed ? call.failure : std::string(alea_code_name(code)));
  }
  States states;
  const Path at{nullptr, Path::Step::kRoot, "its result", Path::kNoIndex, {}};
  std::string bad = convert.Check(result, entry->result, at, states);
  if (!bad.empty()) {
    const std::string given = absl::StrCat("a ", Describe(result));
    alea_release(result);
    return ctx.Fail(vm::RuntimeErrorId::kHostFunctionResult, entry->name, given,
                    TypeName(m, entry->result).value_or("?"));
  }
  if (AnyReused(states)) {
    alea_release(result);
    return ctx.Fail(vm::RuntimeErrorId::kStateReused);
  }
  std::optional<vm::Value> v = convert.ToVm(result, entry->result, false);
  alea_release(result);
  if (!v) return ctx.OutOfMemory();
  for (StateObject* s : states) s->consumed.store(true);
  return *v;
}

}  // namespace alea::capi

alea_code alea_vm::BindFunctions(const alea::vm::Module& m, alea_error** error) {
  using alea::capi::Fail;
  for (const alea::vm::ExternFn& e : m.externs) {
    auto it =
        std::find_if(hosts.begin(), hosts.end(), [&](const auto& h) { return h->name == e.name; });
    if (it == hosts.end()) {
      return Fail(error, ALEA_NOT_FOUND,
                  absl::StrCat("the program declares `extern fn ", e.name,
                               "` and the host provides no such function"));
    }
    std::optional<std::string> declared = alea::capi::SignatureOf(m, e.params, e.result, false);
    if (!declared) {
      return Fail(error, ALEA_INVALID_ARGUMENT,
                  absl::StrCat("`extern fn ", e.name,
                               "` has a function in its type, which cannot cross to the host"));
    }
    alea::capi::HostEntry& entry = **it;
    if (!entry.signature.empty() && !alea::capi::SignatureFits(entry.signature, *declared)) {
      return Fail(error, ALEA_INVALID_ARGUMENT,
                  absl::StrCat("`extern fn ", e.name, "` is declared ", *declared,
                               ", the host registered ", entry.signature));
    }
    entry.params = e.params;
    entry.result = e.result;
    const alea::vm::NativeEntry native{entry.native_name.c_str(), static_cast<int>(e.params.size()),
                                       &alea::capi::HostEntry::Trampoline, &entry};
    vm.AddNatives({&native, 1});
  }
  for (auto& entry : hosts) entry->ClearSites();
  return ALEA_OK;
}

alea_code alea_vm::BindValues(const alea::vm::Module& m, alea_error** error) {
  using alea::capi::Fail;
  for (size_t g = 0; g < m.globals.size(); ++g) {
    const alea::vm::Global& global = m.globals[g];
    if (!global.external) continue;
    const std::string what = absl::StrCat("`extern let ", global.name, "`");
    auto it = std::find_if(values.begin(), values.end(),
                           [&](const auto& v) { return v.first == global.name; });
    if (it == values.end()) {
      return Fail(
          error, ALEA_NOT_FOUND,
          absl::StrCat("the program declares ", what, " and the host registered no such value"));
    }
    if (!alea::capi::TypeName(m, global.declared)) {
      return Fail(
          error, ALEA_INVALID_ARGUMENT,
          absl::StrCat(what, " has a function in its type, which cannot cross to the host"));
    }
    alea::capi::Converter convert(vm.heap(), m);
    alea::capi::States states;
    const alea::capi::Path at{
        nullptr, alea::capi::Path::Step::kRoot, what, alea::capi::Path::kNoIndex, {}};
    std::string bad = convert.Check(it->second, global.declared, at, states);
    if (!bad.empty()) return Fail(error, ALEA_INVALID_ARGUMENT, bad);
    if (alea::capi::AnyReused(states)) return StateReused(error);
    std::optional<alea::vm::Value> v = convert.ToVm(it->second, global.declared, false);
    if (!v) {
      return Fail(error, ALEA_RESOURCE_EXHAUSTED,
                  absl::StrCat("out of memory budget passing ", what));
    }
    for (alea::capi::StateObject* s : states) s->consumed.store(true);
    if (absl::Status s = vm.SetGlobal(static_cast<uint32_t>(g), *v); !s.ok()) {
      return alea::capi::FailWith(error, s);
    }
  }
  return ALEA_OK;
}

extern "C" {

void alea_config_init(alea_config* config) {
  *config = alea_config{};
  config->size = sizeof(alea_config);
  config->max_call_depth = 1'000'000;
  config->threads = 1;
  config->jit = 1;
}

alea_vm* alea_vm_new(const alea_config* config) {
  const alea_config c = alea::capi::FromHost(config, alea_config_init);
  alea::vm::Limits limits;
  limits.max_heap_bytes = c.max_heap_bytes;
  limits.max_call_depth = c.max_call_depth;
  limits.max_instructions = c.max_instructions;
  switch (c.files) {
    case ALEA_FILES_READ_ONLY:
      limits.files.mode = alea::vm::FileAccess::Mode::kReadOnly;
      break;
    case ALEA_FILES_READ_WRITE:
      limits.files.mode = alea::vm::FileAccess::Mode::kReadWrite;
      break;
    case ALEA_FILES_FULL:
      limits.files.mode = alea::vm::FileAccess::Mode::kFull;
      break;
    default:
      limits.files.mode = alea::vm::FileAccess::Mode::kNone;
      break;
  }
  limits.files.root = c.files_root == nullptr ? "" : c.files_root;
  alea_vm* vm = alea::capi::NewVm(limits);
  if (vm == nullptr) return nullptr;
  vm->vm.SetThreads(c.threads < 1 ? 1 : c.threads);
  vm->vm.SetJitEnabled(c.jit != 0);
  if (c.output != nullptr) {
    vm->vm.SetOutput([output = c.output, user = c.output_user](absl::string_view text) {
      output(user, text.data(), text.size());
    });
  }
  return vm;
}

void alea_vm_free(alea_vm* vm) { delete vm; }

alea_code alea_vm_load(alea_vm* vm, const alea_module* module, alea_error** error) {
  if (module == nullptr) return alea::capi::Fail(error, ALEA_INVALID_ARGUMENT, "no module");
  ++vm->load;
  if (vm->module != nullptr) {
    alea_module_release(vm->module);
    vm->module = nullptr;
  }
  const alea::vm::Module& m = module->data.module;
  if (alea_code c = vm->BindFunctions(m, error); c != ALEA_OK) return c;
  if (absl::Status s = vm->vm.Load(m); !s.ok()) return alea::capi::FailWith(error, s);
  vm->loading = module;
  if (alea_code c = vm->BindValues(m, error); c != ALEA_OK) return c;
  // Retained, not copied: it is immutable (the internal Vm has its own copy
  // of the bytecode; this one is for the exports, types and sources).
  vm->module = alea_module_retain(const_cast<alea_module*>(module));
  vm->loading = vm->module;
  if (absl::Status s = vm->vm.RunInit(); !s.ok()) {
    const alea_code c = vm->Failed(s, error);
    // Globals that were not computed must not be read by a later call.
    alea_module_release(vm->module);
    vm->module = nullptr;
    return c;
  }
  return ALEA_OK;
}

alea_code alea_vm_find(alea_vm* vm, const char* name, alea_function** out, alea_error** error) {
  using alea::capi::Fail;
  if (vm->module == nullptr) return Fail(error, ALEA_FAILED_PRECONDITION, "no module loaded");
  const std::string wanted = name == nullptr ? "" : name;
  if (auto it = vm->found.find(wanted); it != vm->found.end() && it->second->load == vm->load) {
    *out = it->second;
    return ALEA_OK;
  }
  const alea::vm::Module& m = vm->module->data.module;
  for (size_t i = 0; i < m.exports.size(); ++i) {
    const alea::vm::Export& e = m.exports[i];
    if (e.name != wanted) continue;
    std::optional<std::string> signature =
        alea::capi::SignatureOf(m, e.params, e.result, e.uses_rng);
    if (!signature) {
      return Fail(error, ALEA_INVALID_ARGUMENT,
                  absl::StrCat("function `", wanted,
                               "` takes or returns a function, which cannot be passed to or "
                               "from the host"));
    }
    alea_function& f = vm->functions.emplace_back();
    f.vm = vm;
    f.name = wanted;
    f.signature = *std::move(signature);
    f.load = vm->load;
    f.export_index = static_cast<uint32_t>(i);
    f.function = e.function;
    f.params = e.params;
    if (e.uses_rng) {
      // The ambient stream: a RandState, whatever T index the module gives one.
      alea::vm::ExportType stream;
      for (uint32_t t = 0; t < m.types.size(); ++t) {
        if (m.types[t].kind == alea::vm::TypeDesc::Kind::kRandState) stream.type = t;
      }
      f.params.push_back(stream);
    }
    f.result = e.result;
    f.result_is_ref = m.types[e.result.type].is_reference();
    f.result_kind = alea::capi::KindOf(m.types[e.result.type].kind);
    f.scalar_params = true;
    for (const alea::vm::ExportType& p : f.params) {
      f.kinds.push_back(alea::capi::KindOf(m.types[p.type].kind));
      f.scalar_params = f.scalar_params && f.kinds.back() <= ALEA_BOOL;
    }
    vm->found[wanted] = &f;
    *out = &f;
    return ALEA_OK;
  }
  return Fail(error, ALEA_NOT_FOUND, absl::StrCat("no function `", wanted, "` in the module"));
}

const char* alea_function_name(const alea_function* function) { return function->name.c_str(); }
const char* alea_function_signature(const alea_function* function) {
  return function->signature.c_str();
}
size_t alea_function_arity(const alea_function* function) { return function->params.size(); }
alea_kind alea_function_param_kind(const alea_function* function, size_t i) {
  return i < function->kinds.size() ? function->kinds[i] : ALEA_UNIT;
}
alea_kind alea_function_result_kind(const alea_function* function) { return function->result_kind; }

static alea_code Call(alea_vm* vm, const alea_function* function, const alea_value* args,
                      size_t count, void* buffer, size_t capacity, alea_value* result,
                      alea_error** error) {
  using alea::capi::Fail;
  if (function == nullptr || function->vm != vm || vm->module == nullptr ||
      function->load != vm->load) {
    return Fail(error, ALEA_FAILED_PRECONDITION,
                absl::StrCat("`", function == nullptr ? "" : function->name,
                             "` belongs to no module loaded in this VM"));
  }
  if (count != function->params.size()) {
    return Fail(error, ALEA_INVALID_ARGUMENT,
                absl::StrCat("`", function->name, "` takes ", function->params.size(),
                             " arguments, not ", count, ": ", function->signature));
  }
  if (count > 0 && args == nullptr) return Fail(error, ALEA_INVALID_ARGUMENT, "no arguments");
  const alea::vm::Module& m = vm->module->data.module;
  if (buffer != nullptr &&
      m.types[function->result.type].kind != alea::vm::TypeDesc::Kind::kTensor) {
    return Fail(
        error, ALEA_INVALID_ARGUMENT,
        absl::StrCat("`", function->name, "` does not return a Tensor: ", function->signature));
  }
  alea::capi::VmValues values;
  // Scalars only (the common case of a hot call): converted here, the rest
  // of the checks having nothing to find.
  bool converted = function->scalar_params;
  for (size_t i = 0; converted && i < count; ++i) {
    const alea_value& a = args[i];
    converted = a.kind == function->kinds[i];
    values.push_back(a.kind == ALEA_INT     ? alea::vm::FromInt(a.as.i)
                     : a.kind == ALEA_FLOAT ? alea::vm::FromFloat(a.as.f)
                     : a.kind == ALEA_BOOL  ? alea::vm::FromBool(a.as.b != 0)
                                            : alea::vm::Value{0});
  }
  if (!converted) {
    if (alea_code c = alea::capi::Pass(vm, m, args, function->params, "argument", function->name,
                                       values, error);
        c != ALEA_OK) {
      return c;
    }
  }
  alea::vm::Value out = 0;
  bool out_is_ref = false;
  absl::Status status = vm->vm.Call(function->function, values, &out, &out_is_ref);
  if (!status.ok()) return vm->Failed(status, error);
  switch (function->result_kind) {
    case ALEA_UNIT:
      *result = alea_unit();
      return ALEA_OK;
    case ALEA_INT:
      *result = alea_int(alea::vm::AsInt(out));
      return ALEA_OK;
    case ALEA_FLOAT:
      *result = alea_float(alea::vm::AsFloat(out));
      return ALEA_OK;
    case ALEA_BOOL:
      *result = alea_bool(out != 0);
      return ALEA_OK;
    default:
      break;
  }
  alea::capi::Converter convert(vm->vm.heap(), m);
  auto release = [&] {
    if (out_is_ref && out != 0) vm->vm.heap().ReleaseValue(out);
  };
  if (convert.TooDeep(out, function->result.type)) {
    release();
    return Fail(error, ALEA_OUT_OF_RANGE,
                absl::StrCat("the result of `", function->name, "` nests more than ",
                             alea::capi::kMaxDepth, " levels deep, too deep to cross to the host"));
  }
  if (buffer != nullptr) {
    const alea::vm::Object* o = alea::vm::AsObject(out);
    const size_t bytes = static_cast<size_t>(alea::vm::SizeOf(o)) *
                         static_cast<size_t>(alea::vm::ElementBytes(alea::vm::DTypeOf(o)));
    if (bytes > capacity) {
      release();
      return Fail(error, ALEA_OUT_OF_RANGE,
                  absl::StrCat("the result of `", function->name, "` has shape ",
                               alea::vm::ShapeString(alea::vm::ShapeOf(o)), " (", bytes,
                               " bytes), more than the buffer's ", capacity));
    }
  }
  *result = convert.FromVm(out, function->result, buffer);
  release();
  return ALEA_OK;
}

alea_code alea_call(alea_vm* vm, const alea_function* function, const alea_value* args,
                    size_t count, alea_value* result, alea_error** error) {
  return Call(vm, function, args, count, nullptr, 0, result, error);
}

alea_code alea_call_into(alea_vm* vm, const alea_function* function, const alea_value* args,
                         size_t count, void* buffer, size_t capacity, alea_value* result,
                         alea_error** error) {
  if (buffer == nullptr) {
    return alea::capi::Fail(error, ALEA_INVALID_ARGUMENT, "no buffer for the result");
  }
  if (reinterpret_cast<uintptr_t>(buffer) % 4 != 0) {
    return alea::capi::Fail(error, ALEA_INVALID_ARGUMENT,
                            "the result buffer must be aligned to 4 bytes");
  }
  return Call(vm, function, args, count, buffer, capacity, result, error);
}

alea_code alea_vm_run_main(alea_vm* vm, const char* const* args, size_t count, int64_t seed,
                           alea_error** error) {
  using alea::capi::Fail;
  if (vm->module == nullptr) return Fail(error, ALEA_FAILED_PRECONDITION, "no module loaded");
  const alea::capi::ModuleSources& m = vm->module->data;
  if (m.module.main < 0) {
    alea::lang::Diagnostics diags;
    diags.Report(alea::lang::DiagId::kNoMain, std::nullopt,
                 m.sources.size() > 0 ? m.sources.file(0).path() : std::string("<module>"));
    return alea::capi::FailWithDiagnostics(error, ALEA_NOT_FOUND, m.sources, diags);
  }
  std::vector<std::string> main_args;
  for (size_t i = 0; i < count; ++i) main_args.emplace_back(args[i] == nullptr ? "" : args[i]);
  // The load computed the lets: main alone runs now.
  absl::Status status = vm->vm.RunMain(main_args, seed, /*run_init=*/false);
  if (!status.ok()) return vm->Failed(status, error);
  return ALEA_OK;
}

void alea_vm_interrupt(alea_vm* vm) { vm->vm.Interrupt(); }

void alea_vm_set_output(alea_vm* vm, alea_output_fn output, void* user) {
  if (output == nullptr) {
    vm->vm.SetOutput(
        [](absl::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); });
    return;
  }
  vm->vm.SetOutput(
      [output, user](absl::string_view text) { output(user, text.data(), text.size()); });
}

void alea_vm_stats(const alea_vm* vm, alea_stats* out) {
  const alea::vm::Stats in = vm->vm.stats();
  out->instructions = in.instructions;
  out->calls = in.calls;
  out->allocations = in.allocations;
  out->peak_heap_bytes = in.peak_heap_bytes;
  out->heap_bytes_live = in.heap_bytes_live;
  out->bytes_copied = in.bytes_copied;
}

void alea_host_function_init(alea_host_function* function) {
  *function = alea_host_function{};
  function->size = sizeof(alea_host_function);
}

alea_code alea_host_fail(alea_host_call* call, const char* message) {
  call->failed = true;
  call->failure = message == nullptr ? "" : message;
  return ALEA_ABORTED;
}
void* alea_host_user(const alea_host_call* call) { return call->entry->spec.user; }
uint32_t alea_host_site(const alea_host_call* call) { return call->site; }
void** alea_host_site_data(alea_host_call* call) { return &call->entry->sites[call->site]; }

alea_code alea_vm_register_function(alea_vm* vm, const alea_host_function* function,
                                    alea_error** error) {
  using alea::capi::Fail;
  const alea_host_function spec = alea::capi::FromHost(function, alea_host_function_init);
  if (spec.name == nullptr || spec.fn == nullptr) {
    return Fail(error, ALEA_INVALID_ARGUMENT, "a host function needs a name and a function");
  }
  auto& hosts = vm->hosts;
  auto it =
      std::find_if(hosts.begin(), hosts.end(), [&](const auto& h) { return h->name == spec.name; });
  if (it != hosts.end()) {
    // The old entry goes (its user data freed); the VM's native table keeps
    // a pointer to the entry, so the new one takes its place.
    (*it)->ClearSites();
    if ((*it)->spec.free_user != nullptr) (*it)->spec.free_user((*it)->spec.user);
    (*it)->spec = spec;
  } else {
    auto entry = std::make_unique<alea::capi::HostEntry>();
    entry->spec = spec;
    entry->name = spec.name;
    entry->native_name = absl::StrCat(alea::vm::kExternPrefix, spec.name);
    entry->owner = vm;
    it = hosts.insert(hosts.end(), std::move(entry));
  }
  // Bound to the VM as a native when a module declaring it loads (its arity
  // is the declaration's).
  (*it)->signature = spec.signature == nullptr ? "" : spec.signature;
  return ALEA_OK;
}

alea_code alea_vm_register_value(alea_vm* vm, const char* name, alea_value value,
                                 alea_error** error) {
  if (name == nullptr || !alea::capi::ValidValue(value)) {
    return alea::capi::Fail(error, ALEA_INVALID_ARGUMENT, "a value needs a name and a value");
  }
  auto& values = vm->values;
  auto it =
      std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == name; });
  alea_retain(value);
  if (it != values.end()) {
    alea_release(it->second);
    it->second = value;
  } else {
    values.emplace_back(name, value);
  }
  return ALEA_OK;
}

}  // extern "C"
