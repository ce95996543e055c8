/* The C API from C: alea.h compiles as C99 and a C host can compile, load,
 * call and read every kind of value. Prints "N passed, M failed". */
#include <stdio.h>
#include <string.h>

#include "alea/alea.h"

static int passed = 0, failed = 0;

#define CHECK(cond)                                                      \
  do {                                                                   \
    if (cond) {                                                          \
      ++passed;                                                          \
    } else {                                                             \
      ++failed;                                                          \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                    \
  } while (0)

static const char kSource[] =
    "fn add(a: Int, b: Int) -> Int = a + b\n"
    "fn scale(x: Tensor, k: Float) -> Tensor = x * k\n"
    "fn pair(s: RandState) -> (Float, RandState) = {\n"
    "  let (sub, s) = next(s);\n"
    "  (item(sum(uniform(sub, [1]))), s)\n"
    "}\n"
    "fn div(a: Int, b: Int) -> Int = a / b\n";

static void append(void* user, const char* text, size_t length) {
  (void)user;
  fwrite(text, 1, length, stdout);
}

int main(void) {
  alea_module* m = NULL;
  alea_error* e = NULL;
  alea_vm* vm;
  alea_config config;
  alea_function *add = NULL, *scale = NULL, *pair = NULL, *div_fn = NULL;
  alea_value args[2], r, t, s, again;
  const float data[3] = {1.0f, 2.0f, 3.0f};
  const int64_t shape[1] = {3};
  float out[3];

  CHECK(alea_version() == ALEA_VERSION_NUMBER);
  if (alea_compile(kSource, strlen(kSource), "c.alea", NULL, &m, &e) != ALEA_OK) {
    fprintf(stderr, "%s", alea_error_message(e));
    return 1;
  }
  alea_config_init(&config);
  config.max_instructions = 1000000;
  config.output = append;
  vm = alea_vm_new(&config);
  CHECK(alea_vm_load(vm, m, NULL) == ALEA_OK);
  CHECK(alea_vm_find(vm, "add", &add, NULL) == ALEA_OK);
  CHECK(alea_vm_find(vm, "scale", &scale, NULL) == ALEA_OK);
  CHECK(alea_vm_find(vm, "pair", &pair, NULL) == ALEA_OK);
  CHECK(alea_vm_find(vm, "div", &div_fn, NULL) == ALEA_OK);

  args[0] = alea_int(40);
  args[1] = alea_int(2);
  CHECK(alea_call(vm, add, args, 2, &r, NULL) == ALEA_OK && r.kind == ALEA_INT && r.as.i == 42);

  CHECK(alea_tensor_view(ALEA_F32, shape, 1, data, sizeof data, NULL, NULL, &t, NULL) == ALEA_OK);
  args[0] = t;
  args[1] = alea_float(0.5);
  CHECK(alea_call_into(vm, scale, args, 2, out, sizeof out, &r, NULL) == ALEA_OK);
  CHECK(out[2] == 1.5f && alea_tensor_shape(r)[0] == 3);
  alea_release(r);
  alea_release(t);

  s = alea_state_from_seed(0);
  CHECK(alea_call(vm, pair, &s, 1, &r, NULL) == ALEA_OK);
  CHECK(r.kind == ALEA_TUPLE && alea_length(r) == 2);
  CHECK(alea_element(r, 0).kind == ALEA_FLOAT && alea_element(r, 0).as.f >= 0.0 &&
        alea_element(r, 0).as.f < 1.0);
  CHECK(alea_state_counter(alea_element(r, 1)) == 1);
  CHECK(alea_state_consumed(s));
  CHECK(alea_call(vm, pair, &s, 1, &again, &e) == ALEA_ABORTED);
  CHECK(strstr(alea_error_message(e), "a RandState is used twice") != NULL);
  alea_error_free(e);
  alea_release(r);
  alea_release(s);

  args[0] = alea_int(1);
  args[1] = alea_int(0);
  CHECK(alea_call(vm, div_fn, args, 2, &r, &e) == ALEA_ABORTED);
  CHECK(strcmp(alea_error_file(e), "c.alea") == 0 && alea_error_line(e) == 7);
  alea_error_free(e);

  alea_vm_free(vm);
  alea_module_release(m);
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
