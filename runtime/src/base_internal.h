/* SPDX-License-Identifier: MIT */
/*
** base_internal.h: allocation of a public flat block that frees itself. Not installed.
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

/* Zero-filled block of size bytes (NULL on failure) that remembers a (NULL: the default). */
void *fg_alloc_kept(const fg_allocator *a, size_t size);
/* Frees a block from fg_alloc_kept with the allocator it remembers; NULL is ignored. */
void fg_free_kept(void *ptr, size_t size);

#endif
