/* A benchmark as people write them: its own main, command-line sizes, timers, a checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

#define N 1000000
#define REPS 10

static double now(void)
{
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return tv.tv_sec + 1e-6 * tv.tv_usec;
}

void daxpy(int n, double alpha, const double *restrict x, double *restrict y)
{
  for (int i = 0; i < n; i++)
    y[i] = alpha * x[i] + y[i];
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : N;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    x[i] = 1.0;
    y[i] = 2.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  double start = now();
  for (int r = 0; r < REPS; r++)
    daxpy(n, 3.0, x, y);
  double seconds = now() - start;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += y[i];
  printf("daxpy n=%d: %.3f GB/s (checksum %g)\n", n, 24.0 * n * REPS / seconds / 1e9, sum);
  free(x);
  free(y);
  return 0;
}
