/* SPDX-License-Identifier: MIT */
/*
** fuzz_snapshot_restore.c: damages a real world snapshot and restores it. The snapshot comes from
** two fighters of the determinism fixture after a scripted exchange (buffers, ledgers, matcher
** states and running actions all hold something). The input is a list of edits: flip or set a
** byte, write a 32-bit word, cut the snapshot short; a flag says whether the checksum is then
** recomputed, so the edits also reach the field checks behind it.
**
** Beyond "never crashes": a refused snapshot leaves the world as it was (same hash) with a
** message; an accepted one runs 120 more ticks with input, and every read the host can make
** (hash, layers, decisions, trace) works.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/src/snapshot.h"
#include "../c/support/fg_det_fixture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok) {
    if (!ok) abort();
}

typedef struct fixture {
    fg_world *w;
    uint8_t *snap, *copy;
    size_t size;
    uint64_t hash;
} fixture;

static void play(fg_world *w, fg_tick from, fg_tick ticks) {
    int lp = fg_world_action_id(w, "LP"), hp = fg_world_action_id(w, "HP");
    for (fg_tick t = from; t < from + ticks; t++) {
        int64_t us = fg_us_of_tick(t + 1, 60);
        switch (t % 24) {
        case 1: fg_world_press(w, 1, lp, us, FG_SOURCE_DEVICE, NULL); break;
        case 3: fg_world_release(w, 1, lp, us, FG_SOURCE_DEVICE, NULL); break;
        case 6: fg_world_direction(w, 1, 2, us, FG_SOURCE_DEVICE, NULL); break;
        case 7: fg_world_direction(w, 1, 3, us, FG_SOURCE_DEVICE, NULL); break;
        case 8: fg_world_direction(w, 1, 6, us, FG_SOURCE_DEVICE, NULL); break;
        case 9: fg_world_press(w, 1, hp, us, FG_SOURCE_DEVICE, NULL); break;
        case 10: fg_world_release(w, 1, hp, us, FG_SOURCE_DEVICE, NULL); break;
        case 12: fg_world_direction(w, 1, 5, us, FG_SOURCE_DEVICE, NULL); break;
        case 14: fg_world_press(w, 2, lp, us, FG_SOURCE_DEVICE, NULL); break;
        case 15: fg_world_release(w, 2, lp, us, FG_SOURCE_DEVICE, NULL); break;
        default: break;
        }
        if (fg_world_advance(w, NULL) != FG_OK) return;
    }
}

static fixture *setup(void) {
    static fixture f;
    if (f.w) return &f;
    fg_ruleset *r = fg_det_rules(40);
    check(r != NULL);
    f.w = fg_det_world(r, 7, NULL, (fg_world_hooks){0});
    fg_ruleset_unref(r);
    check(f.w != NULL);
    play(f.w, 0, 100);
    f.size = fg_world_snapshot_size(f.w);
    f.snap = malloc(f.size);
    f.copy = malloc(f.size);
    check(f.snap && f.copy && fg_world_save(f.w, f.snap, f.size, NULL) == FG_OK);
    f.hash = fg_world_hash(f.w);
    return &f;
}

static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Recomputes the checksum of a (maybe cut) snapshot, as far as its header says. */
static void reseal(uint8_t *buf, size_t len) {
    fg_snapshot_header h;
    if (len < sizeof h) return;
    memcpy(&h, buf, sizeof h);
    if (h.size > len - sizeof h) return;
    h.check = fg_snapshot_checksum(&h, buf + sizeof h);
    memcpy(buf, &h, sizeof h);
}

/* Every read the host makes of a world. */
static void read_everything(fg_world *w) {
    char buf[512];
    fg_world_hash(w);
    for (fg_entity e = 1; e <= fg_world_entity_count(w); e++) {
        for (uint32_t layer = 0; layer < FG_MAX_LAYERS; layer++) {
            fg_world_describe_layer(w, e, layer, buf, sizeof buf);
            fg_world_phase(w, e, layer);
        }
        fg_world_evaluate(w, e, 0, FG_REQ_SCRIPT);
        fg_world_frozen_for(w, e);
        fg_world_last_decision(w, e);
        fg_world_meter_at(w, e, fg_world_tick(w) - 1);
    }
    for (uint32_t i = 0; i < fg_world_trace_count(w); i++)
        fg_world_trace_format(w, fg_world_trace_at(w, i), buf, sizeof buf);
    fg_world_meter_render(w, fg_world_tick(w) - 30, fg_world_tick(w), buf, sizeof buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fixture *f = setup();
    if (size < 1) return 0;
    memcpy(f->copy, f->snap, f->size);
    size_t len = f->size;
    uint8_t flags = data[0];
    size_t at = 1;
    for (; at + 5 <= size; at += 5) {
        uint32_t where = rd32(data + at);
        uint8_t v = data[at + 4];
        size_t off = (where & 0x3FFFFFFFu) % f->size;
        switch (where >> 30) {
        case 0: f->copy[off] ^= v ? v : 1; break;
        case 1: f->copy[off] = v; break;
        case 2: /* a word of all ones or of v repeated */
            off &= ~(size_t)3;
            if (off + 4 <= f->size) memset(f->copy + off, v & 1 ? 0xFF : v, 4);
            break;
        default: len = off; break;
        }
    }
    if (flags & 1) reseal(f->copy, len);
    fg_error err = {0};
    uint64_t before = fg_world_hash(f->w);
    if (fg_world_restore(f->w, f->copy, len, &err) != FG_OK) {
        check(fg_error_message(&err)[0] != '\0');
        check(fg_world_hash(f->w) == before);
        return 0;
    }
    read_everything(f->w);
    play(f->w, fg_world_tick(f->w), 120);
    read_everything(f->w);
    if (fg_world_restore(f->w, f->snap, f->size, &err) != FG_OK) {
        fprintf(stderr, "the original snapshot was refused after a damaged one ran: %s\n", fg_error_message(&err));
        abort();
    }
    check(fg_world_hash(f->w) == f->hash);
    return 0;
}
