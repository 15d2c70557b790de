/* SPDX-License-Identifier: MIT */
/* counting_alloc.c: an fg_allocator that counts, for "no allocation per tick" tests. It takes its
** blocks from the default allocator, so a counted world gets the same memory as any other (the
** huge pages of a big arena among it) and a benchmark made with it measures the same thing. */
#include "fg_test.h"

static void *counting_realloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
    fg_counting_allocator *c = ud;
    fg_allocator d = fg_allocator_default();
    if (new_size == 0) {
        if (ptr) {
            c->frees++;
            c->live_bytes -= old_size;
        }
        return d.realloc(d.ud, ptr, old_size, 0);
    }
    if (c->fail_after == 0) return NULL;
    if (c->fail_after > 0) c->fail_after--;
    void *p = d.realloc(d.ud, ptr, old_size, new_size);
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
