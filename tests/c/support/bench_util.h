/* SPDX-License-Identifier: MIT */
/*
** bench_util.h: timing and reporting helpers for the benchmarks. Benchmarks print figures; they
** never assert on time. `--smoke` runs a tiny size so CI keeps them building and running.
*/
#ifndef FG_BENCH_UTIL_H
#define FG_BENCH_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double fg_bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline bool fg_bench_smoke(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--smoke") == 0) return true;
    return false;
}

static int fg_bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of n samples (sorts in place). */
static inline double fg_bench_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof v[0], fg_bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
