/* Alea's C API: compile, load and call Alea from any language with a C FFI.
 *
 * In the manner of lua.h and wren.h: opaque handles, plain C types, no
 * exceptions, nothing of the implementation's libraries in sight. Everything
 * the C++ API (alea/vm.h) offers goes through here.
 *
 *   alea_module* m = NULL;
 *   alea_error* e = NULL;
 *   const char* src = "fn twice(x: Int) -> Int = 2 * x\n";
 *   if (alea_compile(src, strlen(src), "twice.alea", NULL, &m, &e) != ALEA_OK) {
 *     fputs(alea_error_message(e), stderr);  // file:line:col: error: ...
 *     alea_error_free(e);
 *   }
 *   alea_vm* vm = alea_vm_new(NULL);
 *   alea_vm_load(vm, m, NULL);
 *   alea_function* twice = NULL;
 *   alea_vm_find(vm, "twice", &twice, NULL);
 *   alea_value arg = alea_int(21), result;
 *   alea_call(vm, twice, &arg, 1, &result, NULL);  // result.as.i == 42
 *   alea_vm_free(vm);
 *   alea_module_release(m);
 *
 * Conventions:
 * - A function that can fail returns an alea_code (ALEA_OK is 0) and takes
 *   `alea_error** error` last: on failure, when `error` is not NULL, it
 *   receives an error object the caller frees with alea_error_free. Out
 *   parameters are written only on success.
 * - An alea_value holding an object (a string, tensor, state, tuple, array,
 *   record or variant) holds one reference to it. A value a function returns
 *   through an out parameter is the caller's to alea_release; a value passed
 *   in is borrowed (the callee retains what it keeps).
 * - An alea_vm is driven by one thread at a time (alea_vm_interrupt excepted).
 *   Modules and values are immutable (a RandState's consumed flag aside,
 *   which is atomic) and may be shared by VMs on several threads.
 */
#ifndef ALEA_ALEA_H_
#define ALEA_ALEA_H_

#include <stddef.h>
#include <stdint.h>

#define ALEA_VERSION_MAJOR 0
#define ALEA_VERSION_MINOR 2
#define ALEA_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH, as alea_version() returns it. */
#define ALEA_VERSION_NUMBER \
  (ALEA_VERSION_MAJOR * 10000 + ALEA_VERSION_MINOR * 100 + ALEA_VERSION_PATCH)

#if defined(_WIN32)
#define ALEA_API
#else
#define ALEA_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library linked (compare with ALEA_VERSION_NUMBER, the
 * version of the header compiled against), and as text: "0.2.0". */
ALEA_API int alea_version(void);
ALEA_API const char* alea_version_string(void);

/* ---- Errors ------------------------------------------------------------ */

typedef enum alea_code {
  ALEA_OK = 0,
  ALEA_INVALID_ARGUMENT = 1,    /* a compile error; arguments that do not fit */
  ALEA_NOT_FOUND = 2,           /* no such function, extern or import */
  ALEA_FAILED_PRECONDITION = 3, /* no module loaded; a function of an earlier load */
  ALEA_RESOURCE_EXHAUSTED = 4,  /* heap budget, call depth, instruction budget */
  ALEA_CANCELLED = 5,           /* alea_vm_interrupt */
  ALEA_ABORTED = 6,             /* any other run-time error of the program */
  ALEA_OUT_OF_RANGE = 7,        /* a result too large or too deep for where it goes */
  ALEA_INTERNAL = 8,
  /* Not a code: it makes every int a value of the type, so that the library
   * (C++) reads whatever number a host passes without undefined behaviour.
   * The same in each enum below. */
  ALEA_CODE_INT_RANGE_ = -2147483647 - 1
} alea_code;

typedef struct alea_error alea_error;

ALEA_API alea_code alea_error_code(const alea_error* error);
/* The whole message: for anything the program did, the diagnostic exactly as
 * `alea run` prints it ("file:line:col: error: ..." with the source line). */
ALEA_API const char* alea_error_message(const alea_error* error);
/* Where the first diagnostic points: its file ("" when it has none) and its
 * 1-based line and column (0 when it has none). */
ALEA_API const char* alea_error_file(const alea_error* error);
ALEA_API int alea_error_line(const alea_error* error);
ALEA_API int alea_error_column(const alea_error* error);
ALEA_API void alea_error_free(alea_error* error);
/* "ALEA_ABORTED"... for a code. */
ALEA_API const char* alea_code_name(alea_code code);

/* ---- Values ------------------------------------------------------------ */

typedef enum alea_kind {
  ALEA_UNIT = 0,
  ALEA_INT = 1,
  ALEA_FLOAT = 2,
  ALEA_BOOL = 3,
  ALEA_STR = 4,
  ALEA_TENSOR = 5,
  ALEA_RANDSTATE = 6,
  ALEA_TUPLE = 7,
  ALEA_ARRAY = 8,
  ALEA_RECORD = 9,
  ALEA_VARIANT = 10,
  ALEA_KIND_INT_RANGE_ = -2147483647 - 1
} alea_kind;

typedef enum alea_dtype {
  ALEA_F32 = 0,
  ALEA_I32 = 1,
  ALEA_U32 = 2,
  ALEA_BOOL8 = 3,
  ALEA_DTYPE_INT_RANGE_ = -2147483647 - 1
} alea_dtype;

typedef struct alea_object alea_object;

/* A value: the kind and, for Int, Float and Bool, the value itself; for the
 * other kinds but Unit, a reference to an immutable object. */
typedef struct alea_value {
  alea_kind kind;
  union {
    int64_t i;
    double f;
    int b;
    alea_object* object;
  } as;
} alea_value;

static inline alea_value alea_unit(void) {
  alea_value v;
  v.kind = ALEA_UNIT;
  v.as.i = 0;
  return v;
}
static inline alea_value alea_int(int64_t i) {
  alea_value v;
  v.kind = ALEA_INT;
  v.as.i = i;
  return v;
}
static inline alea_value alea_float(double f) {
  alea_value v;
  v.kind = ALEA_FLOAT;
  v.as.f = f;
  return v;
}
static inline alea_value alea_bool(int b) {
  alea_value v;
  v.kind = ALEA_BOOL;
  v.as.b = b != 0;
  return v;
}

/* One more reference to the value's object, and one less (the object goes
 * with its last). Both do nothing for Unit, Int, Float and Bool. */
ALEA_API alea_value alea_retain(alea_value value);
ALEA_API void alea_release(alea_value value);

/* A Str: a copy of `length` bytes of UTF-8 text. */
ALEA_API alea_value alea_str(const char* text, size_t length);
/* A Str's bytes (not NUL-terminated when it holds a NUL) and length. */
ALEA_API const char* alea_str_data(alea_value str, size_t* length);

/* A tensor of `dtype` and shape `shape[0..ndim)` (row-major) holding a copy of
 * the `bytes` bytes at `data`, which must be exactly the shape's elements (4
 * bytes each, 1 for ALEA_BOOL8, whose bytes must be 0 or 1). */
ALEA_API alea_code alea_tensor_copy(alea_dtype dtype, const int64_t* shape, int ndim,
                                    const void* data, size_t bytes, alea_value* out,
                                    alea_error** error);
/* The same without a copy: the tensor reads the host's memory in place and
 * never writes it. The memory must stay alive and unchanged until `release`
 * is called (with `context`) when the tensor's last reference goes; a NULL
 * `release` promises it lives as long as every call given the tensor runs.
 * `data` must be aligned to the element size. */
ALEA_API alea_code alea_tensor_view(alea_dtype dtype, const int64_t* shape, int ndim,
                                    const void* data, size_t bytes, void (*release)(void* context),
                                    void* context, alea_value* out, alea_error** error);
ALEA_API alea_dtype alea_tensor_dtype(alea_value tensor);
ALEA_API int alea_tensor_ndim(alea_value tensor);
ALEA_API const int64_t* alea_tensor_shape(alea_value tensor);
ALEA_API int64_t alea_tensor_size(alea_value tensor); /* elements */
/* The elements, read-only, and their byte count. A tensor a call returns
 * owns them, 64-byte aligned, for as long as it lives. */
ALEA_API const void* alea_tensor_data(alea_value tensor, size_t* bytes);
/* 4 for every dtype but ALEA_BOOL8 (1); its name: "f32", "i32", "u32", "bool". */
ALEA_API size_t alea_dtype_size(alea_dtype dtype);
ALEA_API const char* alea_dtype_name(alea_dtype dtype);

/* A tuple of `count` (2 or more) values, an array of `count` values of one
 * type (any count; an empty array fits any array type), a record of the type
 * `type` declares (`names[i]` is the field `fields[i]`, in any order), a
 * value of the variant `type` made by `constructor` with its fields in
 * declaration order. `type` is the type as Alea prints it: "Params",
 * "Option(Int)". Each retains what it is given. Whether the parts fit is
 * checked where the value is used (a call, a registered value). */
ALEA_API alea_code alea_tuple(const alea_value* elements, size_t count, alea_value* out,
                              alea_error** error);
ALEA_API alea_code alea_array(const alea_value* elements, size_t count, alea_value* out,
                              alea_error** error);
ALEA_API alea_code alea_record(const char* type, const char* const* names, const alea_value* fields,
                               size_t count, alea_value* out, alea_error** error);
ALEA_API alea_code alea_variant(const char* type, const char* constructor, const alea_value* fields,
                                size_t count, alea_value* out, alea_error** error);
/* A tuple's or array's elements, a record's or variant's fields: their count
 * and the i-th (borrowed: valid while `value` is; alea_retain to keep it).
 * 0 and Unit for another kind or an index past the end. */
ALEA_API size_t alea_length(alea_value value);
ALEA_API alea_value alea_element(alea_value value, size_t i);
/* A record's or variant's type ("Option(Int)"), a variant's constructor (a
 * record's is its type's name), a record's i-th field name; "" otherwise. */
ALEA_API const char* alea_type_name(alea_value value);
ALEA_API const char* alea_constructor(alea_value value);
ALEA_API const char* alea_field_name(alea_value value, size_t i);

/* Writes the type of `value` as Alea spells it ("Int", "Tensor(f32)",
 * "(Int, Str)", "[Float]", "Option(Int)"; an empty array is "[?]") into
 * `buffer` (NUL-terminated, cut to `size`); returns the full length. */
ALEA_API size_t alea_describe(alea_value value, char* buffer, size_t size);

/* ---- Random states -------------------------------------------------------
 * A RandState is used once, here as in Alea: passing it to a call, or to one
 * of the functions below, consumes it (and every copy of it: copies are the
 * same state); using it again is the error "a RandState is used twice". Each
 * function makes fresh states with the numbers the language's own function
 * of that name gives (JAX's Threefry-2x32, partitionable). */

/* `key(seed)`: JAX's jax.random.key(seed). */
ALEA_API alea_value alea_state_from_seed(int64_t seed);
/* A state from a JAX key's data (`jax.random.key_data(k)`, uint32[2]). */
ALEA_API alea_value alea_state_from_key(uint32_t key0, uint32_t key1);
/* The key data a JAX program would use for this state (its effective key:
 * a state advanced by `next` stands for fold_in(key, n)), its stream counter
 * and whether it was consumed. Reading does not consume. */
ALEA_API void alea_state_key(alea_value state, uint32_t key[2]);
ALEA_API uint32_t alea_state_counter(alea_value state);
ALEA_API int alea_state_consumed(alea_value state);
ALEA_API alea_code alea_state_split(alea_value state, alea_value* first, alea_value* second,
                                    alea_error** error);
/* split_n: `count` states into `out[0..count)`. */
ALEA_API alea_code alea_state_split_n(alea_value state, size_t count, alea_value* out,
                                      alea_error** error);
/* next: (the next state of the stream, the advanced stream). */
ALEA_API alea_code alea_state_next(alea_value state, alea_value* sub, alea_value* rest,
                                   alea_error** error);
ALEA_API alea_code alea_state_fold_in(alea_value state, uint32_t data, alea_value* out,
                                      alea_error** error);

/* ---- Modules ----------------------------------------------------------- */

typedef struct alea_module alea_module;

/* The text of a file an `import` names, supplied by the host: `text` (UTF-8,
 * `length` bytes) is copied, then `release(text, context)` is called if set. */
typedef struct alea_import {
  const char* text;
  size_t length;
  void (*release)(const char* text, void* context);
  void* context;
} alea_import;

/* Reads `path` (as the import resolves it: relative to the importing file's
 * directory) for the compiler: returns 0 and fills `out`, or a nonzero errno
 * value (ENOENT...) that the diagnostic reports. */
typedef int (*alea_import_fn)(void* user, const char* path, alea_import* out);

typedef struct alea_compile_options {
  size_t size;           /* sizeof(alea_compile_options): alea_compile_options_init sets it */
  alea_import_fn import; /* NULL: imports are read from the file system */
  void* import_user;
  /* 1: the program runs without a host, as under `alea run`: an `extern`
   * declaration is a compile error. Default 0. */
  int no_host;
  /* 1: only `main` and what it reaches are compiled, and no function can be
   * found by name (a program to run, not a library to call). Default 0. */
  int main_only;
  /* Where the warnings of a compile that succeeds go, rendered as `alea run`
   * prints them (those of one that fails are part of its error). NULL:
   * dropped. */
  void (*warnings)(void* user, const char* text, size_t length);
  void* warnings_user;
} alea_compile_options;
ALEA_API void alea_compile_options_init(alea_compile_options* options);

/* Checks and compiles `source` (the root file, named `file_name` in
 * diagnostics; imports are relative to its directory). Every non-generic
 * top-level function of it can be called by name; `main` is not required.
 * A compile error is ALEA_INVALID_ARGUMENT with every diagnostic rendered. */
ALEA_API alea_code alea_compile(const char* source, size_t length, const char* file_name,
                                const alea_compile_options* options, alea_module** out,
                                alea_error** error);
/* The program in the file at `path`: a `.aleac` module (told by its first
 * bytes) or source, compiled with `options`. Errors are diagnostics:
 * "cannot open `PATH`: REASON" (ALEA_NOT_FOUND; past 256 MiB too), "`PATH` is
 * not a valid module: byte N: ..." or the compile's (ALEA_INVALID_ARGUMENT). */
ALEA_API alea_code alea_module_from_file(const char* path, const alea_compile_options* options,
                                         alea_module** out, alea_error** error);
/* Whether the module has a `main`, and whether that main `uses rng` (draws
 * from the stream alea_vm_run_main's seed makes). */
ALEA_API int alea_module_has_main(const alea_module* module);
ALEA_API int alea_module_main_uses_rng(const alea_module* module);

/* A module from the bytes of a `.aleac` file (`alea build`, or
 * alea_module_to_bytes), without the compiler. Malformed bytes are
 * ALEA_INVALID_ARGUMENT "malformed module: byte N: ..."; what the module
 * means is verified when a VM loads it. */
ALEA_API alea_code alea_module_from_bytes(const void* bytes, size_t length, alea_module** out,
                                          alea_error** error);
/* The module's bytes (with the sources its errors quote), to free with
 * alea_free; NULL when out of memory. A NULL module gives the bytes of a
 * module with nothing in it. */
ALEA_API void* alea_module_to_bytes(const alea_module* module, size_t* length);
ALEA_API void alea_free(void* memory);
ALEA_API alea_module* alea_module_retain(alea_module* module);
ALEA_API void alea_module_release(alea_module* module);
/* The callable functions, by name. */
ALEA_API size_t alea_module_function_count(const alea_module* module);
ALEA_API const char* alea_module_function_name(const alea_module* module, size_t i);

/* ---- Virtual machines --------------------------------------------------- */

typedef struct alea_vm alea_vm;
typedef struct alea_function alea_function;

/* What a VM's programs may do with files (read_text, write_text, load_csv,
 * save_csv, load_npy, save_npy). Under a root, a path may not leave it: an
 * absolute path, `..` above it or a symbolic link on the way is refused. */
typedef enum alea_file_access {
  ALEA_FILES_NONE = 0,
  ALEA_FILES_READ_ONLY = 1,  /* under `files_root` */
  ALEA_FILES_READ_WRITE = 2, /* under `files_root` */
  ALEA_FILES_FULL = 3,       /* anywhere: what `alea run` gives */
  ALEA_FILES_INT_RANGE_ = -2147483647 - 1
} alea_file_access;

/* Where `print`'s text goes: chunks, flushed at the end of every call. */
typedef void (*alea_output_fn)(void* user, const char* text, size_t length);

typedef struct alea_config {
  size_t size;             /* sizeof(alea_config): alea_config_init sets it */
  uint64_t max_heap_bytes; /* live heap objects; 0 = unlimited (default) */
  uint64_t max_call_depth; /* nested non-tail calls; default 1,000,000 */
  /* Instructions per call (and per load's top-level lets); 0 = unlimited.
   * An operation on a whole tensor is one instruction: bound tensor work
   * with max_heap_bytes and, for wall time, alea_vm_interrupt. */
  uint64_t max_instructions;
  int threads;            /* for large tensor and random ops; results never depend on it */
  int jit;                /* JIT tensor kernels (bitwise equal to the reference); default 1 */
  alea_file_access files; /* default ALEA_FILES_NONE */
  const char* files_root; /* copied */
  alea_output_fn output;  /* NULL: standard output */
  void* output_user;
} alea_config;
ALEA_API void alea_config_init(alea_config* config);

/* A VM with `config` (NULL: the defaults); NULL when out of memory. */
ALEA_API alea_vm* alea_vm_new(const alea_config* config);
ALEA_API void alea_vm_free(alea_vm* vm);

/* Loads `module` (replacing any earlier one) and computes its top-level
 * `let`s; checks its `extern` declarations against what was registered
 * (ALEA_NOT_FOUND for a missing one, ALEA_INVALID_ARGUMENT for another type).
 * The VM keeps what it needs of the module. */
ALEA_API alea_code alea_vm_load(alea_vm* vm, const alea_module* module, alea_error** error);

/* The function `name` of the loaded module. The handle belongs to the VM and
 * stays valid until alea_vm_free; after another load, calling it is
 * ALEA_FAILED_PRECONDITION. A function that takes or returns a function
 * cannot be found (ALEA_INVALID_ARGUMENT). */
ALEA_API alea_code alea_vm_find(alea_vm* vm, const char* name, alea_function** out,
                                alea_error** error);
ALEA_API const char* alea_function_name(const alea_function* function);
/* "(Int, Tensor(f32)) -> Float": a `uses rng` function shows its ambient
 * stream as one more, last, RandState parameter, which a call passes. */
ALEA_API const char* alea_function_signature(const alea_function* function);
ALEA_API size_t alea_function_arity(const alea_function* function);
/* The kind of parameter `i` (ALEA_UNIT past the last) and of the result: what
 * a binding needs to convert a host value before the call (an integer where a
 * Float is taken). */
ALEA_API alea_kind alea_function_param_kind(const alea_function* function, size_t i);
ALEA_API alea_kind alea_function_result_kind(const alea_function* function);

/* Calls `function` with `args[0..count)` (borrowed; a RandState among them is
 * consumed). The whole list is checked (count, each value's type, a tensor's
 * dtype, states not consumed nor given twice) before anything is consumed.
 * On success *result is the result, the caller's to release. A failed call
 * leaves the VM usable. */
ALEA_API alea_code alea_call(alea_vm* vm, const alea_function* function, const alea_value* args,
                             size_t count, alea_value* result, alea_error** error);
/* The same for a function returning a Tensor, whose elements are written
 * into `buffer` (`capacity` bytes, aligned to the element size): *result is
 * then a view of `buffer` giving the shape (release it as any value). A
 * result larger than `capacity` is ALEA_OUT_OF_RANGE, after the call ran. */
ALEA_API alea_code alea_call_into(alea_vm* vm, const alea_function* function,
                                  const alea_value* args, size_t count, void* buffer,
                                  size_t capacity, alea_value* result, alea_error** error);

/* Replaces the config's output sink (NULL: standard output). */
ALEA_API void alea_vm_set_output(alea_vm* vm, alea_output_fn output, void* user);

/* Runs `main` of the loaded module (whose top-level lets the load computed),
 * as `alea run` does: `args[0..count)` as its `[Str]` when it takes one, and
 * key(seed) as its stream when it `uses rng`. No main is ALEA_NOT_FOUND;
 * errors as alea_call's. */
ALEA_API alea_code alea_vm_run_main(alea_vm* vm, const char* const* args, size_t count,
                                    int64_t seed, alea_error** error);

/* Thread-safe: the running call stops at its next call or backward jump with
 * ALEA_CANCELLED. A request made while nothing runs stops the next call. */
ALEA_API void alea_vm_interrupt(alea_vm* vm);

typedef struct alea_stats {
  uint64_t instructions; /* executed, over every call so far */
  uint64_t calls;
  uint64_t allocations;
  uint64_t peak_heap_bytes;
  uint64_t heap_bytes_live;
  uint64_t bytes_copied; /* tensor bytes copied only to change their layout */
} alea_stats;
ALEA_API void alea_vm_stats(const alea_vm* vm, alea_stats* out);

/* ---- Host functions and values (`extern fn`, `extern let`) -------------- */

typedef struct alea_host_call alea_host_call;

/* A host function: reads `args[0..count)` (borrowed, of the declared types;
 * a RandState among them is fresh), sets *result (which the VM takes) and
 * returns ALEA_OK, or returns alea_host_fail(call, message). It must not call
 * back into its VM. */
typedef alea_code (*alea_host_fn)(alea_host_call* call, const alea_value* args, size_t count,
                                  alea_value* result);

/* Fails the call: the Alea run-time error "host function `f` failed:
 * MESSAGE" at the call site; alea_call returns ALEA_ABORTED with it. */
ALEA_API alea_code alea_host_fail(alea_host_call* call, const char* message);
/* The user pointer given at registration. */
ALEA_API void* alea_host_user(const alea_host_call* call);
/* The call site (each direct call `f(...)` in the source is one; uses of `f`
 * as a value share one), a number unique in the loaded module, and its data:
 * a pointer slot, NULL at the site's first call, kept until the next load,
 * when `free_site_data` (given at registration) is called on it. */
ALEA_API uint32_t alea_host_site(const alea_host_call* call);
ALEA_API void** alea_host_site_data(alea_host_call* call);

typedef struct alea_host_function {
  size_t size;      /* sizeof(alea_host_function): alea_host_function_init sets it */
  const char* name; /* as `extern fn NAME(...)` declares it */
  /* The declaration's type, as alea_function_signature spells it
   * ("(Float, Float) -> Float"), checked at load (spaces aside; a bare
   * `Tensor` stands for a tensor of any dtype); NULL accepts any. */
  const char* signature;
  alea_host_fn fn;
  void* user;
  void (*free_user)(void* user);           /* when the VM goes or the name is registered again */
  void (*free_site_data)(void* site_data); /* see alea_host_site_data */
} alea_host_function;
ALEA_API void alea_host_function_init(alea_host_function* function);

/* Makes `function` what Alea code declaring `extern fn NAME` calls, in
 * modules loaded afterwards; registering a name again replaces it. */
ALEA_API alea_code alea_vm_register_function(alea_vm* vm, const alea_host_function* function,
                                             alea_error** error);
/* Makes `value` (retained) the value of `extern let NAME: T` in modules
 * loaded afterwards; the load checks it against T. A RandState given here is
 * used by the first module that consumes it. */
ALEA_API alea_code alea_vm_register_value(alea_vm* vm, const char* name, alea_value value,
                                          alea_error** error);

#ifdef __cplusplus
}
#endif

#endif /* ALEA_ALEA_H_ */
