/* SPDX-License-Identifier: MIT */
/*
** snapshot.h: the header of a world snapshot (world.c writes and restores it, statediff.c reads
** it in place) and the check a snapshot passes before a restore changes anything (snapshot.c).
** Not installed.
*/
#ifndef FG_SNAPSHOT_H
#define FG_SNAPSHOT_H

#include "internal.h"

#define FG_SNAPSHOT_MAGIC 0x46475753u /* "FGWS" */
/* The byte layout of the arena's sections (the entity record, the input buffer, the dispatch
** ledger, the matcher state), hashed into the world's layout value with its sizes: a change of
** field order that keeps every size bumps it, so a snapshot of the old layout is refused rather
** than misread. 2: the matcher state's cold part and the buffer's first line; 3: the matcher's
** links in 8 bytes; 5: the entity record's ground and last input in one line; 6: the checksum's
** two sums (snapshot.c); 7: the entity record's layers at the head of its second line; 8: an
** action instance's fields in the order a tick reads them; 9: the record's combat note
** (combat_live) in its first line, the start of its freeze with its ground. */
#define FG_SNAPSHOT_LAYOUT 9u

typedef struct fg_snapshot_header {
    uint32_t magic;
    uint32_t entities; /* spawned entities: the slots copied */
    uint64_t layout;
    uint64_t size;     /* bytes after the header */
    uint64_t check;    /* fg_snapshot_checksum of those bytes */
} fg_snapshot_header;

/* The checksum of a snapshot's body, with the header's layout, entity count and size. */
uint64_t fg_snapshot_checksum(const fg_snapshot_header *h, const void *body);

/* Checks a snapshot's body (after the header, h->entities slots) against the world's limits:
** every index, count, enum and bool that the tick or a read could follow. FG_OK or a message
** naming the field and the value. */
fg_status fg_snapshot_check(const fg_world *w, const fg_snapshot_header *h, const void *body,
                            fg_error *err);

#endif
