/* A C host of Alea (README.md here): compile a program, call it with a
 * random state and a tensor viewed in place, split states on the host,
 * and show an error as Alea reports it. Prints what expected.out holds. */
#include <stdio.h>
#include <string.h>

#include "alea/alea.h"

static const char kSource[] =
    "fn noise(s: RandState, x: Tensor) -> Tensor = x + normal(s, shape(x)) * 0.1\n"
    "fn mean_of(xs: [Float]) -> Float = fold(xs, 0.0, |a, x| a + x) / float(len(xs))\n"
    "fn ratio(a: Int, b: Int) -> Int = a / b\n";

static void report(alea_error* e) {
  printf("error %s", alea_code_name(alea_error_code(e)));
  if (alea_error_line(e) > 0) {
    printf(" at %s:%d:%d", alea_error_file(e), alea_error_line(e), alea_error_column(e));
  }
  printf("\n%s", alea_error_message(e));
  alea_error_free(e);
}

int main(void) {
  alea_module* module = NULL;
  alea_error* e = NULL;
  if (alea_compile(kSource, strlen(kSource), "example.alea", NULL, &module, &e) != ALEA_OK) {
    report(e);
    return 1;
  }
  alea_config config;
  alea_config_init(&config);
  config.max_instructions = 1000000;
  alea_vm* vm = alea_vm_new(&config);
  if (alea_vm_load(vm, module, &e) != ALEA_OK) {
    report(e);
    return 1;
  }
  alea_function *noise = NULL, *mean_of = NULL, *ratio = NULL;
  alea_vm_find(vm, "noise", &noise, NULL);
  alea_vm_find(vm, "mean_of", &mean_of, NULL);
  alea_vm_find(vm, "ratio", &ratio, NULL);
  printf("noise: %s\n", alea_function_signature(noise));

  /* Two states split on the host from key(42): the same as split(key(42)) in Alea. */
  alea_value root = alea_state_from_seed(42), left, right;
  alea_state_split(root, &left, &right, NULL);
  uint32_t key[2];
  alea_state_key(left, key);
  printf("split(key(42)).0 = [%u, %u]\n", key[0], key[1]);

  float data[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  const int64_t shape[1] = {4};
  float out[4];
  alea_value args[2], result;
  args[0] = left;
  alea_tensor_view(ALEA_F32, shape, 1, data, sizeof data, NULL, NULL, &args[1], NULL);
  if (alea_call_into(vm, noise, args, 2, out, sizeof out, &result, &e) != ALEA_OK) report(e);
  printf("noise(left, [1 2 3 4]) = [%.6f %.6f %.6f %.6f]\n", out[0], out[1], out[2], out[3]);
  alea_release(result);
  /* `left` was consumed by the call: passing it again is Alea's own error. */
  if (alea_call(vm, noise, args, 2, &result, &e) != ALEA_OK) report(e);

  alea_value xs[3] = {alea_float(1.0), alea_float(2.0), alea_float(6.0)}, array;
  alea_array(xs, 3, &array, NULL);
  if (alea_call(vm, mean_of, &array, 1, &result, &e) == ALEA_OK) {
    printf("mean_of([1.0, 2.0, 6.0]) = %g\n", result.as.f);
  }
  alea_release(array);

  alea_value ints[2] = {alea_int(1), alea_int(0)};
  if (alea_call(vm, ratio, ints, 2, &result, &e) != ALEA_OK) report(e);

  alea_release(args[1]);
  alea_release(left);
  alea_release(right);
  alea_release(root);
  alea_vm_free(vm);
  alea_module_release(module);
  return 0;
}
