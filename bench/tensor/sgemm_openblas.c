/* The matmul anchor of bench/tensor/run: OpenBLAS's cblas_sgemm, one thread,
 * C = A * B for square row-major f32 matrices of each size given.
 *
 *   cc -O2 sgemm_openblas.c -o sgemm_openblas -lopenblas
 *   ./sgemm_openblas [--cpu-time] [--min-seconds S] N...
 *
 * For each N prints one line "N <best> <mean> <core>": the best and the mean
 * over batches of the seconds per call, and the kernel set OpenBLAS picked
 * (OPENBLAS_CORETYPE overrides its CPU detection). Each size runs one untimed
 * call, then batches of about 50 ms until --min-seconds (default 0.5) have
 * passed. Times are CLOCK_MONOTONIC, or with --cpu-time the process's CPU
 * time (CLOCK_PROCESS_CPUTIME_ID: robust on a busy machine, and equal to the
 * wall time for one thread on an idle one). */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Declared by OpenBLAS's cblas.h; repeated here in case another cblas.h is
 * found first. */
extern void openblas_set_num_threads(int num_threads);
extern char *openblas_get_corename(void);

static clockid_t clock_id = CLOCK_MONOTONIC;

static double now(void) {
  struct timespec ts;
  clock_gettime(clock_id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static float *matrix(int n, unsigned seed) {
  float *m = malloc(sizeof(float) * (size_t)n * (size_t)n);
  if (m == NULL) {
    fprintf(stderr, "sgemm_openblas: out of memory\n");
    exit(1);
  }
  unsigned x = seed;
  for (size_t i = 0; i < (size_t)n * (size_t)n; i++) {
    x = x * 1664525u + 1013904223u;
    m[i] = (float)(x >> 8) / 16777216.0f; /* in [0, 1) */
  }
  return m;
}

int main(int argc, char **argv) {
  double min_seconds = 0.5;
  int first = 1;
  for (;;) {
    if (first < argc && strcmp(argv[first], "--cpu-time") == 0) {
      clock_id = CLOCK_PROCESS_CPUTIME_ID;
      first += 1;
    } else if (first + 1 < argc && strcmp(argv[first], "--min-seconds") == 0) {
      min_seconds = atof(argv[first + 1]);
      first += 2;
    } else {
      break;
    }
  }
  if (first >= argc) {
    fprintf(stderr, "usage: sgemm_openblas [--cpu-time] [--min-seconds S] N...\n");
    return 2;
  }
  openblas_set_num_threads(1);
  for (int arg = first; arg < argc; arg++) {
    int n = atoi(argv[arg]);
    if (n <= 0) {
      fprintf(stderr, "sgemm_openblas: bad size '%s'\n", argv[arg]);
      return 2;
    }
    float *a = matrix(n, 1), *b = matrix(n, 2), *c = matrix(n, 3);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    double t0 = now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    double once = now() - t0;
    int batch = once > 0.05 ? 1 : (int)(0.05 / (once > 1e-7 ? once : 1e-7)) + 1;
    double best = once, total = 0.0, start = now();
    int batches = 0;
    float check = 0.0f;
    do {
      t0 = now();
      for (int i = 0; i < batch; i++) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c,
                    n);
        check += c[i % n];
      }
      double per = (now() - t0) / batch;
      if (per < best) best = per;
      total += per;
      batches += 1;
    } while (now() - start < min_seconds);
    if (check != check) fprintf(stderr, "sgemm_openblas: NaN\n"); /* keeps c live */
    printf("%d %.9f %.9f %s\n", n, best, total / batches, openblas_get_corename());
    free(a);
    free(b);
    free(c);
  }
  return 0;
}
