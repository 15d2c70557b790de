/* SPDX-License-Identifier: MIT */
/*
** fg_test.h: helpers shared by the C suites: cmocka includes in the right order and a counting
** allocator that proves a code path does not allocate.
*/
#ifndef FG_TEST_H
#define FG_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "framegate.h"

/* Counts every call through an fg_allocator; fails the next allocation on request. */
typedef struct fg_counting_allocator {
    size_t allocations; /* calls that allocated or grew */
    size_t frees;
    size_t live_bytes;
    size_t peak_bytes;
    long fail_after; /* -1: never fail; n: the (n+1)th allocation returns NULL */
} fg_counting_allocator;

fg_allocator fg_test_counting_allocator(fg_counting_allocator *c);

#endif
