/* SPDX-License-Identifier: MIT */
/*
** base_internal.h: allocation of a public flat block that frees itself, the moves of an
** fg_error between a checker and its caller, and FG_NOINLINE. Not installed.
**
** Dispatchers and playback owners are plain blocks the caller may also place in its own memory
** (fg_*_init) and that snapshots copy byte for byte, so their allocator cannot live inside them.
** fg_alloc_kept stores a copy of the allocator in a header just before the block, which lets
** fg_*_destroy take the object alone, like every other destroy.
*/
#ifndef FG_BASE_INTERNAL_H
#define FG_BASE_INTERNAL_H

#include "framegate/base.h"

#include <stddef.h>

/* Kept out of line: a function the tick calls once per entity whose inlining would cost its
** caller saved registers, or a boundary tools/icount.lua finds by name. */
#if defined(__GNUC__)
#define FG_NOINLINE __attribute__((noinline))
#else
#define FG_NOINLINE
#endif

/* Zero-filled block of size bytes (NULL on failure) that remembers a (NULL: the default). */
void *fg_alloc_kept(const fg_allocator *a, size_t size);
/* Frees a block from fg_alloc_kept with the allocator it remembers; NULL is ignored. */
void fg_free_kept(void *ptr, size_t size);

/* An fg_error ready for a callee that may fail without writing it, set field by field: zeroing
** the whole struct would cost FG_ERROR_MAX bytes of stores on paths that run every tick. */
static inline void fg_error_blank(fg_error *e) {
    e->code = FG_OK;
    e->buf[0] = '\0';
    e->spill = NULL;
}

/* Hands src's message, heap copy included, over to dst (NULL: released) and returns its code;
** src is not read again. The way a checker's error reaches the caller after fg_error_prefix. */
static inline fg_status fg_error_move(fg_error *dst, fg_error *src) {
    fg_status code = src->code;
    if (dst) *dst = *src;
    else fg_error_clear(src);
    return code;
}

#endif
