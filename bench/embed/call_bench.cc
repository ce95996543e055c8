// One call of a trivial function from the host: Alea's C API, Alea's C++
// API and Lua 5.4's lua_call, side by side (bench/embed/README.md).
#include <cstring>

#include "alea/alea.h"
#include "alea/compiler.h"
#include "alea/vm.h"
#include "benchmark/benchmark.h"

extern "C" {
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
}

namespace {

constexpr char kAlea[] =
    "fn add(a: Int, b: Int) -> Int = a + b\n"
    "fn addf(a: Float, b: Float) -> Float = a + b\n"
    "fn first(x: Tensor) -> Float = item(x[0])\n";

// kAlea compiled and loaded into a VM through the C API, and one function of it.
struct Loaded {
  explicit Loaded(const char* name) {
    alea_compile(kAlea, std::strlen(kAlea), "bench.alea", nullptr, &module, nullptr);
    vm = alea_vm_new(nullptr);
    alea_vm_load(vm, module, nullptr);
    alea_vm_find(vm, name, &function, nullptr);
  }
  ~Loaded() {
    alea_vm_free(vm);
    alea_module_release(module);
  }
  alea_module* module = nullptr;
  alea_vm* vm = nullptr;
  alea_function* function = nullptr;
};

// add(i, 1) through the C API: the arguments in an array, the result in a value.
void BM_CApiAddInt(benchmark::State& state) {
  Loaded add("add");
  int64_t i = 0;
  for (auto _ : state) {
    alea_value args[2] = {alea_int(i), alea_int(1)};
    alea_value r;
    if (alea_call(add.vm, add.function, args, 2, &r, nullptr) != ALEA_OK) {
      state.SkipWithError("call failed");
    }
    i = r.as.i;
  }
  benchmark::DoNotOptimize(i);
}
BENCHMARK(BM_CApiAddInt);

void BM_CApiAddFloat(benchmark::State& state) {
  Loaded add("addf");
  double x = 0;
  for (auto _ : state) {
    alea_value args[2] = {alea_float(x), alea_float(1.0)};
    alea_value r;
    if (alea_call(add.vm, add.function, args, 2, &r, nullptr) != ALEA_OK) {
      state.SkipWithError("call failed");
    }
    x = r.as.f;
  }
  benchmark::DoNotOptimize(x);
}
BENCHMARK(BM_CApiAddFloat);

// A 1-element tensor viewed in place, its element read back as a Float.
void BM_CApiTensorView(benchmark::State& state) {
  Loaded first("first");
  float data[1] = {2.0f};
  const int64_t shape[1] = {1};
  alea_value t;
  alea_tensor_view(ALEA_F32, shape, 1, data, sizeof data, nullptr, nullptr, &t, nullptr);
  double x = 0;
  for (auto _ : state) {
    alea_value r;
    if (alea_call(first.vm, first.function, &t, 1, &r, nullptr) != ALEA_OK) {
      state.SkipWithError("call failed");
    }
    x += r.as.f;
  }
  benchmark::DoNotOptimize(x);
  alea_release(t);
}
BENCHMARK(BM_CApiTensorView);

void BM_CppApiAddInt(benchmark::State& state) {
  alea::StatusOr<alea::Module> m = alea::Compile(kAlea, "bench.alea");
  alea::Vm vm;
  (void)vm.Load(*m);
  alea::StatusOr<alea::Function> add =
      vm.Find("add", {{alea::Type::kInt, alea::Type::kInt}, alea::Type::kInt});
  int64_t i = 0;
  for (auto _ : state) {
    alea::StatusOr<alea::Value> r = vm.Call(*add, {alea::Value::Int(i), alea::Value::Int(1)});
    if (!r.ok()) state.SkipWithError("call failed");
    i = r->AsInt();
  }
  benchmark::DoNotOptimize(i);
}
BENCHMARK(BM_CppApiAddInt);

// The peer: lua_call of function(a, b) return a + b end, its arguments
// pushed and its result popped, as a Lua host does it.
void BM_LuaCallAddInt(benchmark::State& state) {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  luaL_dostring(L, "function add(a, b) return a + b end");
  lua_Integer i = 0;
  for (auto _ : state) {
    lua_getglobal(L, "add");
    lua_pushinteger(L, i);
    lua_pushinteger(L, 1);
    lua_call(L, 2, 1);
    i = lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  benchmark::DoNotOptimize(i);
  lua_close(L);
}
BENCHMARK(BM_LuaCallAddInt);

// Lua with the function already on the stack (a host keeping a reference).
void BM_LuaCallAddIntKept(benchmark::State& state) {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  luaL_dostring(L, "function add(a, b) return a + b end");
  lua_getglobal(L, "add");
  lua_Integer i = 0;
  for (auto _ : state) {
    lua_pushvalue(L, -1);
    lua_pushinteger(L, i);
    lua_pushinteger(L, 1);
    lua_call(L, 2, 1);
    i = lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  benchmark::DoNotOptimize(i);
  lua_close(L);
}
BENCHMARK(BM_LuaCallAddIntKept);

}  // namespace

BENCHMARK_MAIN();
