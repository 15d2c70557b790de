/* SPDX-License-Identifier: MIT */
/* counting_alloc.c: an fg_allocator that counts, for "no allocation per tick" tests. */
#include "fg_test.h"

#include <stdlib.h>

static void *counting_realloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
    fg_counting_allocator *c = ud;
    if (new_size == 0) {
        if (ptr) {
            c->frees++;
            c->live_bytes -= old_size;
        }
        free(ptr);
        return NULL;
    }
    if (c->fail_after == 0) return NULL;
    if (c->fail_after > 0) c->fail_after--;
    void *p = realloc(ptr, new_size);
    if (!p) return NULL;
    c->allocations++;
    c->live_bytes += new_size - (ptr ? old_size : 0);
    if (c->live_bytes > c->peak_bytes) c->peak_bytes = c->live_bytes;
    return p;
}

fg_allocator fg_test_counting_allocator(fg_counting_allocator *c) {
    c->allocations = c->frees = c->live_bytes = c->peak_bytes = 0;
    c->fail_after = -1;
    fg_allocator a = {counting_realloc, c};
    return a;
}
