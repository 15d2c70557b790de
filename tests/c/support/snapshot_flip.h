/* SPDX-License-Identifier: MIT */
/*
** snapshot_flip.h: the hash coverage audits' one step. A test saves a world, then flips its
** snapshot byte by byte: each flipped snapshot is restored, and the state hash must change
** exactly when the field diff names a hashed field. Refused flips must change nothing.
*/
#ifndef FG_TEST_SNAPSHOT_FLIP_H
#define FG_TEST_SNAPSHOT_FLIP_H

#include <stddef.h>
#include <stdint.h>

#include "framegate/world.h"

/* Recomputes a snapshot's checksum after a test edited its bytes. */
void fgt_reseal(unsigned char *snapshot);

typedef enum fgt_flip {
    FGT_FLIP_REFUSED,   /* the restore refused the byte xor mask and the byte xor 1 */
    FGT_FLIP_UNCHANGED, /* restored; the hash is h0 and the diff names no hashed field */
    FGT_FLIP_CHANGED    /* restored; the hash moved and the diff names a hashed field */
} fgt_flip;

/* Flips byte `at` of the snapshot `orig` (size bytes) with `mask` (when the restore refuses the
** result, with 1 instead: a field out of its range) into `scratch`, restores it into w, fails
** the test naming `what` when the hash and the diff disagree, and restores `orig` again. h0 is
** the hash of `orig`. */
fgt_flip fgt_flip_byte(fg_world *w, const unsigned char *orig, unsigned char *scratch, size_t size,
                       size_t at, unsigned char mask, uint64_t h0, const char *what);

#endif
