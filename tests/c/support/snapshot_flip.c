/* SPDX-License-Identifier: MIT */
/*
** snapshot_flip.c: one byte of a hash coverage audit (snapshot_flip.h).
*/
#include "fg_test.h"

#include <string.h>

#include "../../../runtime/src/snapshot.h"
#include "framegate/determinism.h"
#include "snapshot_flip.h"

void fgt_reseal(unsigned char *snapshot) {
    fg_snapshot_header h;
    memcpy(&h, snapshot, sizeof h);
    h.check = fg_snapshot_checksum(&h, snapshot + sizeof h);
    memcpy(snapshot, &h, sizeof h);
}

fgt_flip fgt_flip_byte(fg_world *w, const unsigned char *orig, unsigned char *scratch, size_t size,
                       size_t at, unsigned char mask, uint64_t h0, const char *what) {
    memcpy(scratch, orig, size);
    scratch[at] ^= mask;
    fgt_reseal(scratch);
    if (fg_world_restore(w, scratch, size, NULL) != FG_OK) {
        assert_int_equal(fg_world_hash(w), h0); /* a refused restore changes nothing */
        scratch[at] = orig[at] ^ 0x01;
        fgt_reseal(scratch);
        if (fg_world_restore(w, scratch, size, NULL) != FG_OK) return FGT_FLIP_REFUSED;
    }
    bool changed = fg_world_hash(w) != h0;
    fg_state_diff diffs[8];
    uint32_t n = 0;
    assert_int_equal(fg_world_diff(w, orig, size, scratch, size, diffs, 8, &n, NULL), FG_OK);
    bool reported = false;
    for (uint32_t i = 0; i < n && i < 8; i++) reported |= diffs[i].hashed;
    if (changed != reported) {
        char line[256] = "(no field)";
        if (n) fg_state_diff_format(&diffs[0], line, sizeof line);
        fail_msg("%s: hash %s, diff: %s", what, changed ? "changed" : "unchanged", line);
    }
    assert_int_equal(fg_world_restore(w, orig, size, NULL), FG_OK);
    return changed ? FGT_FLIP_CHANGED : FGT_FLIP_UNCHANGED;
}
