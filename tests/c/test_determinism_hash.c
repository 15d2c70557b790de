/* SPDX-License-Identifier: MIT */
/*
** test_determinism_hash.c: the state hash covers all authoritative state and nothing else, and
** snapshots restore exactly. The coverage audit flips every byte of the world header and the
** entity records of a snapshot in turn, restores it, and requires the hash to change exactly
** when the field diff reports a hashed field; so a field the hash forgets, or one the diff names
** but the hash ignores, fails the test by name.
*/
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/src/internal.h"
#include "../../runtime/src/snapshot.h"
#include "fg_det_fixture.h"
#include "snapshot_flip.h"

static fg_world_hooks no_hooks(void) {
    fg_world_hooks h;
    memset(&h, 0, sizeof h);
    return h;
}

/* A world that ran `ticks` ticks of seeded random input: buffers, ledgers, queues and matcher
** states all hold something. */
static fg_world *played(fg_ruleset *r, uint64_t seed, int ticks) {
    fg_world *w = fg_det_world(r, seed, NULL, no_hooks());
    assert_non_null(w);
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, seed);
    fg_error err;
    for (int t = 0; t < ticks; t++) {
        if (fg_input_fuzz_tick(&fz, w, &err) != FG_OK) fail_msg("fuzz: %s", fg_error_message(&err));
        assert_int_equal(fg_world_advance(w, &err), FG_OK);
    }
    return w;
}

static void *save(const fg_world *w, size_t *size) {
    *size = fg_world_snapshot_size(w);
    void *p = malloc(fg_world_snapshot_capacity(w));
    assert_non_null(p);
    assert_int_equal(fg_world_save(w, p, *size, NULL), FG_OK);
    return p;
}

/* Recomputes a snapshot's checksum after an edit made on purpose. */
/* Every byte of the world header (tick, RNG) and of every entity record: flipped, the hash
** changes if and only if the diff names a hashed field. A flip that takes a field out of its
** range is refused by the restore; the byte is then flipped in its lowest bit instead, and a
** byte no flip gets past is counted as range-checked. */
static void hash_changes_exactly_when_a_hashed_field_differs(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world *w = played(r, 11, 400);
    /* A stage with platforms and a block, so their fields are in use. */
    fg_stage stage = fg_stage_default();
    stage.nplatforms = 2;
    stage.platforms[0] = (fg_platform){FG_FX(-100), FG_FX(60), FG_FX(80), true};
    stage.platforms[1] = (fg_platform){FG_FX(50), FG_FX(120), FG_FX(40), false};
    stage.nblocks = 1;
    stage.blocks[0] = (fg_block){FG_FX(200), 0, FG_FX(30), FG_FX(50)};
    assert_int_equal(fg_world_set_stage(w, &stage, NULL), FG_OK);
    fg_world_set_position(w, 1, FG_FX(-60), FG_FX(60), NULL); /* on platform 1 */
    assert_int_equal(fg_world_support(w, 1), FG_SUPPORT_PLATFORM | 0);
    size_t size;
    unsigned char *orig = save(w, &size);
    unsigned char *flip = malloc(size);
    uint64_t h0 = fg_world_hash(w);
    const size_t header = sizeof(fg_snapshot_header); /* before the arena's sections */
    size_t state_bytes = fg_world_snapshot_bytes(w, 0);
    size_t ents = header + state_bytes;
    /* Bytes that would make the snapshot unusable rather than different: the layout, the
    ** entity and slot counts and slot versions (restore refuses them), and each record's
    ** ruleset slot (it indexes the slot table). */
    size_t checked = 0, hashed_changes = 0, refused = 0, stage_changes = 0;
    const size_t stage_at = header + offsetof(fg_world_state, stage);
    for (size_t at = header; at < ents + sizeof(fg_entity_state) * 2; at++) {
        if (at < ents) {
            size_t off = at - header;
            /* The counts and slot versions are refused by restore; the stage is checked. */
            if (off >= offsetof(fg_world_state, nentities) &&
                off < offsetof(fg_world_state, stage))
                continue;
            if (off < offsetof(fg_world_state, tick)) continue;
        } else {
            size_t off = (at - ents) % sizeof(fg_entity_state);
            if (off == offsetof(fg_entity_state, rules_slot)) continue;
        }
        /* A bool may only hold 0 or 1 (anything else is undefined behaviour to read). */
        size_t rec = at >= ents ? (at - ents) % sizeof(fg_entity_state) : SIZE_MAX;
        size_t ground = offsetof(fg_entity_state, ground);
        bool is_bool = rec != SIZE_MAX && rec >= ground && rec < ground + 4 * sizeof(bool);
        char what[96];
        snprintf(what, sizeof what, "byte %zu (entity record offset %zu)", at,
                 rec == SIZE_MAX ? 0 : rec);
        fgt_flip res = fgt_flip_byte(w, orig, flip, size, at, is_bool ? 0x01 : 0xA5, h0, what);
        if (res == FGT_FLIP_REFUSED) {
            refused++;
            continue;
        }
        bool changed = res == FGT_FLIP_CHANGED;
        checked++;
        hashed_changes += changed;
        if (at >= stage_at && at < stage_at + sizeof(fg_stage)) stage_changes += changed;
    }
    print_message("%zu bytes flipped, %zu changed the hash, %zu refused by the range checks\n",
                  checked, hashed_changes, refused);
    /* Most of a record is fields in use; unused layers, padding, the rest of a rule's text
    ** after its end and pending requests are not hashed. */
    assert_true(hashed_changes > 300);
    /* floor, walls, two platforms and a block: at least one byte of each field moves the hash. */
    assert_true(stage_changes >= 3 * 3 + 2 * 4 + 4);
    fg_world_restore(w, orig, size, NULL);
    assert_int_equal(fg_world_hash(w), h0);
    free(orig);
    free(flip);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

/* The hash's parts, folded by each tick: a world that has folded them through a whole match
** hashes like a clone made on that tick (which has none yet), tick by tick, while combos start
** and end; and a combat field written directly, once the parts are set aside (as every write by
** the world's own functions does), changes the hash, and set back gives the earlier hash. */
static void kept_parts_hash_like_a_fresh_world(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world *w = fg_det_world(r, 5, NULL, no_hooks());
    assert_non_null(w);
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 5);
    fg_error err;
    int combo_ticks = 0;
    for (int t = 0; t < 1500; t++) {
        assert_int_equal(fg_input_fuzz_tick(&fz, w, &err), FG_OK);
        assert_int_equal(fg_world_advance(w, &err), FG_OK);
        uint64_t h = fg_world_hash(w);
        if (t % 3 == 0) { /* a fresh clone now and then: clones cost an allocation */
            fg_world *c = fg_world_clone(w, NULL, &err);
            assert_non_null(c);
            assert_int_equal(fg_world_hash(c), h);
            fg_world_destroy(c);
        }
        for (uint32_t i = 0; i < w->state->nentities; i++)
            combo_ticks += w->entities[i].combat.combo > 0;
    }
    assert_true(combo_ticks > 10); /* the run did change the combat state */
    fg_entity_state *es = &w->entities[0];
    uint64_t before = fg_world_hash(w);
    int32_t juggle = es->combat.juggle;
    es->combat.juggle = juggle + 7;
    fg_world_hash_forget(w->hash_keep);
    uint64_t changed = fg_world_hash(w);
    assert_int_not_equal(changed, before);
    es->combat.juggle = juggle;
    fg_world_hash_forget(w->hash_keep);
    assert_int_equal(fg_world_hash(w), before);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

/* Input buffers, dispatch ledgers and matcher states: each changes the hash when it differs. */
static void hash_covers_buffers_ledgers_and_matchers(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world *a = played(r, 5, 300), *b = played(r, 5, 300);
    assert_int_equal(fg_world_hash(a), fg_world_hash(b));
    size_t size;
    unsigned char *snap = save(a, &size);
    fg_world *w = a;
    /* A stored edge's CONSUMED flag (gameplay consumed it), in entity 2's buffer. The buffer
    ** keeps a digest of its consumed edges up to date through fg_buffer_consume, which is the
    ** way gameplay consumes one. */
    fg_buffer *buf = fg_world_buffer_at(w, 1);
    assert_true(buf->count > 0);
    uint32_t unconsumed = buf->count;
    for (uint32_t i = 0; i < buf->count; i++)
        if (!(fg_buffer_at(buf, i)->flags & FG_EDGE_CONSUMED)) unconsumed = i;
    assert_true(unconsumed < buf->count);
    fg_edge_ref ref = {fg_buffer_at(buf, unconsumed)->id};
    assert_int_equal(fg_buffer_consume(buf, ref, NULL), FG_OK);
    fg_world_hash_forget(w->hash_keep); /* written behind the world's back: its parts are stale */
    assert_int_not_equal(fg_world_hash(w), fg_world_hash(b));
    fg_world_restore(w, snap, size, NULL);
    /* The held state of a buffer. */
    buf->held ^= 1u << 5;
    fg_world_hash_forget(w->hash_keep);
    assert_int_not_equal(fg_world_hash(w), fg_world_hash(b));
    fg_world_restore(w, snap, size, NULL);
    /* A dispatch ledger: a new live sequence on a channel. */
    fg_dispatcher *led = fg_world_ledger_at(w, 0);
    assert_int_equal(fg_dispatcher_begin(led, 1, fg_dispatcher_live(led, 1) + 1, NULL), FG_OK);
    fg_world_hash_forget(w->hash_keep);
    assert_int_not_equal(fg_world_hash(w), fg_world_hash(b));
    fg_world_restore(w, snap, size, NULL);
    /* A matcher state: a partial match given up early. */
    fg_motion_state_init(fg_world_rules(w, 1)->motion_set, fg_world_motion_at(w, 0),
                         fg_world_tick(w) - 1);
    fg_world_hash_forget(w->hash_keep);
    assert_int_not_equal(fg_world_hash(w), fg_world_hash(b));
    fg_world_restore(w, snap, size, NULL);
    assert_int_equal(fg_world_hash(w), fg_world_hash(b));
    /* Pending input (pushed, not yet consumed) is not state yet. */
    assert_int_equal(fg_world_press(w, 1, fg_world_action_id(w, "HP"),
                                    fg_us_of_tick(fg_world_tick(w) + 3, 60), FG_SOURCE_DEVICE,
                                    NULL) == FG_OK || true, 1);
    assert_int_equal(fg_world_request(w, 2, 0, FG_REQ_SCRIPT, NULL), FG_OK);
    assert_int_equal(fg_world_hash(w), fg_world_hash(b));
    free(snap);
    fg_world_destroy(a);
    fg_world_destroy(b);
    fg_ruleset_unref(r);
}

/* Two worlds told apart by one field differ; the hash of a world is never a constant. */
static void hash_is_never_a_constant(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world *a = fg_det_world(r, 1, NULL, no_hooks()), *b = fg_det_world(r, 2, NULL, no_hooks());
    assert_int_not_equal(fg_world_hash(a), 0);
    assert_int_not_equal(fg_world_hash(a), fg_world_hash(b)); /* the seed (RNG) */
    fg_world *c = fg_det_world(r, 1, NULL, no_hooks());
    assert_int_equal(fg_world_hash(a), fg_world_hash(c));
    assert_int_equal(fg_world_set_resource(c, 2, 1, 5, NULL), FG_OK);
    assert_int_not_equal(fg_world_hash(a), fg_world_hash(c));
    fg_world_advance(a, NULL);
    assert_int_not_equal(fg_world_hash(a), fg_world_hash(b));
    fg_world_destroy(a);
    fg_world_destroy(b);
    fg_world_destroy(c);
    fg_ruleset_unref(r);
}

/* Across many seeds: a snapshot taken at a random tick, restored after more ticks, continues
** bit-identically (the same hash every tick after, the same snapshot bytes at the end). */
static void restore_continues_bit_identically_across_seeds(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    for (uint64_t seed = 1; seed <= 200; seed++) {
        fg_world *w = fg_det_world(r, seed, NULL, no_hooks());
        fg_input_fuzz fz;
        fg_input_fuzz_init(&fz, seed);
        fg_rng pick = fg_rng_seeded(seed);
        int at = (int)fg_rng_range(&pick, 0, 120), len = (int)fg_rng_range(&pick, 1, 90);
        for (int t = 0; t < at; t++) {
            fg_input_fuzz_tick(&fz, w, NULL);
            fg_world_advance(w, NULL);
        }
        /* Pending input pushed before the snapshot comes back with it. */
        fg_input_fuzz_tick(&fz, w, NULL);
        size_t size;
        unsigned char *snap = save(w, &size);
        fg_input_fuzz at_snap = fz;
        uint64_t hashes[100];
        fg_world_advance(w, NULL);
        hashes[0] = fg_world_hash(w);
        for (int t = 1; t < len; t++) {
            fg_input_fuzz_tick(&fz, w, NULL);
            fg_world_advance(w, NULL);
            hashes[t] = fg_world_hash(w);
        }
        size_t end_size;
        unsigned char *end = save(w, &end_size);
        assert_int_equal(fg_world_restore(w, snap, size, NULL), FG_OK);
        fz = at_snap;
        fg_world_advance(w, NULL);
        for (int t = 0; t < len; t++) {
            if (t > 0) {
                fg_input_fuzz_tick(&fz, w, NULL);
                fg_world_advance(w, NULL);
            }
            if (fg_world_hash(w) != hashes[t])
                fail_msg("seed %llu: tick %d after the restore differs",
                         (unsigned long long)seed, t);
        }
        unsigned char *again = save(w, &end_size);
        fg_state_diff d[4];
        uint32_t n = 0;
        assert_int_equal(fg_world_diff(w, end, end_size, again, end_size, d, 4, &n, NULL), FG_OK);
        if (n) fail_msg("seed %llu: %s: %s vs %s", (unsigned long long)seed, d[0].path, d[0].a,
                        d[0].b);
        free(snap);
        free(end);
        free(again);
        fg_world_destroy(w);
    }
    fg_ruleset_unref(r);
}

/* A snapshot holds the spawned entities only; restoring one of fewer entities removes the rest. */
static void snapshot_grows_with_the_spawned_entities(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world_config c = fg_world_config_default();
    c.rules = r;
    fg_world *w = fg_world_create(&c, NULL);
    size_t none = fg_world_snapshot_size(w);
    fg_spawn sp = {0, 0, FG_FACING_RIGHT, true, 0, 0};
    fg_world_spawn(w, &sp, NULL, NULL);
    size_t one = fg_world_snapshot_size(w);
    unsigned char *snap1 = malloc(one);
    fg_world_save(w, snap1, one, NULL);
    fg_world_spawn(w, &sp, NULL, NULL);
    size_t two = fg_world_snapshot_size(w);
    assert_true(one > none);
    assert_int_equal(two - one, one - none);
    assert_true(fg_world_snapshot_capacity(w) >= two * 3);
    fg_error err;
    unsigned char *small = malloc(two);
    assert_int_equal(fg_world_save(w, small, one, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "need"));
    assert_int_equal(fg_world_restore(w, snap1, one, NULL), FG_OK);
    assert_int_equal(fg_world_entity_count(w), 1);
    /* A short buffer for its entity count is refused, the world unchanged. */
    uint64_t h = fg_world_hash(w);
    assert_int_equal(fg_world_restore(w, snap1, one - 8, &err), FG_EFORMAT);
    assert_non_null(strstr(fg_error_message(&err), "for 1 entities, expected"));
    assert_int_equal(fg_world_hash(w), h);
    free(snap1);
    free(small);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

/* A queue is packed (the tick pops by moving the rest up), and the hash stops at a queue's first
** empty place: a snapshot with a request behind an empty place is refused, naming that place,
** and the world is left as it was. */
static void restore_refuses_a_request_behind_an_empty_place(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world *w = played(r, 5, 120);
    fg_entity_state *es = fg_world_entity(w, 1);
    if (!es) fail_msg("entity 1 is missing");
    fg_queued kept[FG_QUEUE_MAX];
    for (uint32_t k = 0; k < FG_QUEUE_MAX; k++) kept[k] = es->queued[0][k];
    uint32_t kept_layers = es->queued_layers;
    for (uint32_t k = 0; k < FG_QUEUE_MAX; k++) es->queued[0][k].action = FG_NO_ACTION;
    es->queued[0][1] = (fg_queued){.action = 0, .made = fg_world_tick(w) - 1};
    es->queued_layers &= ~1u;
    size_t size;
    unsigned char *gap = save(w, &size);
    for (uint32_t k = 0; k < FG_QUEUE_MAX; k++) es->queued[0][k] = kept[k];
    es->queued_layers = kept_layers;
    fg_world_hash_forget(w->hash_keep);
    uint64_t h = fg_world_hash(w);
    fg_error err;
    assert_int_equal(fg_world_restore(w, gap, size, &err), FG_EFORMAT);
    assert_non_null(strstr(fg_error_message(&err), "e1.queued[0][1].action (behind an empty place)"));
    assert_int_equal(fg_world_hash(w), h);
    /* The same request at the head is a queue like any other. */
    es->queued[0][0] = es->queued[0][1] = (fg_queued){.action = 0, .made = fg_world_tick(w) - 1};
    for (uint32_t k = 1; k < FG_QUEUE_MAX; k++) es->queued[0][k].action = FG_NO_ACTION;
    es->queued_layers |= 1u;
    unsigned char *packed = save(w, &size);
    assert_int_equal(fg_world_restore(w, packed, size, &err), FG_OK);
    free(gap);
    free(packed);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

/* The hit log's used bits are what the hash and the tick read the log through: a snapshot whose
** bits disagree with the entries is refused, naming the bit, and the world is left as it was. */
static void restore_refuses_hit_log_bits_that_disagree(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world *w = played(r, 5, 120);
    fg_entity_state *es = fg_world_entity(w, 2);
    if (!es) fail_msg("entity 2 is missing");
    uint8_t kept = es->combat.log_used;
    for (uint32_t i = 0; i < FG_HIT_LOG; i++) /* the tick keeps them */
        assert_int_equal((kept >> i) & 1u, es->combat.log[i].target != 0);
    es->combat.log_used ^= 1u; /* bit 0 now says the opposite of log[0] */
    size_t size;
    unsigned char *bad = save(w, &size);
    es->combat.log_used = kept;
    fg_world_hash_forget(w->hash_keep);
    uint64_t before = fg_world_hash(w);
    fg_error err;
    assert_int_equal(fg_world_restore(w, bad, size, &err), FG_EFORMAT);
    assert_non_null(strstr(fg_error_message(&err), "e2.combat.log_used (bit 0 against log[0])"));
    assert_int_equal(fg_world_hash(w), before);
    free(bad);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

/* The diff names fields by path, with values people read: actions by name, positions in px. */
static void diff_names_the_fields_that_differ(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world *w = fg_det_world(r, 3, NULL, no_hooks());
    size_t size;
    unsigned char *a = save(w, &size);
    fg_world_set_resource(w, 2, 1, 40, NULL);
    fg_world_set_position(w, 1, FG_FX(-120), 0, NULL);
    int lp = fg_world_action_id(w, "LP");
    fg_world_press(w, 1, lp, 5, FG_SOURCE_DEVICE, NULL);
    unsigned char *b = save(w, &size);
    fg_state_diff d[32];
    uint32_t n = 0;
    assert_int_equal(fg_world_diff(w, a, size, b, size, d, 32, &n, NULL), FG_OK);
    char all[4096] = "";
    for (uint32_t i = 0; i < n && i < 32; i++) {
        char line[256];
        fg_state_diff_format(&d[i], line, sizeof line);
        strcat(all, line);
        strcat(all, "\n");
    }
    assert_string_equal(all, "e1.x: -35 vs -120\n"
                             "e1.prev_x: -35 vs -120\n"
                             "e1.buffer.pending_count: 0 vs 1 (not in the hash)\n"
                             "e1.buffer.next_id: 1 vs 2 (not in the hash)\n"
                             "e1.buffer.last_time_us: -9223372036854775808 vs 5 (not in the "
                             "hash)\n"
                             "e1.buffer.pushed_held: none vs LP (not in the hash)\n"
                             "e2.res.meter: 0 vs 40\n");
    /* The tick that consumes the press starts the jab: named by action. */
    fg_world_advance(w, NULL);
    unsigned char *c = save(w, &size);
    assert_int_equal(fg_world_diff(w, b, size, c, size, d, 32, &n, NULL), FG_OK);
    bool tick = false, jab = false;
    for (uint32_t i = 0; i < n && i < 32; i++) {
        tick |= strcmp(d[i].path, "tick") == 0 && strcmp(d[i].a, "0") == 0 &&
                strcmp(d[i].b, "1") == 0;
        jab |= strcmp(d[i].path, "e1.layers[0].action") == 0 && strcmp(d[i].a, "idle") == 0 &&
               strcmp(d[i].b, "jab") == 0;
    }
    assert_true(tick);
    assert_true(jab);
    free(a);
    free(b);
    free(c);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

/* Bad input to the diff is refused with a message and nothing written. */
static void diff_refuses_what_is_not_a_snapshot_of_this_world(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world *w = played(r, 3, 10);
    size_t size;
    unsigned char *a = save(w, &size);
    fg_state_diff d[2];
    memset(d, 0x5A, sizeof d);
    uint32_t n = 77;
    fg_error err;
    assert_int_equal(fg_world_diff(w, a, size, a + 1, size - 1, d, 2, &n, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "diff: snapshot b is not 8-byte aligned (copy it into memory "
                                 "from malloc)");
    unsigned char *bad = malloc(size);
    memcpy(bad, a, size);
    memset(bad, 0, 4);
    assert_int_equal(fg_world_diff(w, a, size, bad, size, d, 2, &n, &err), FG_EFORMAT);
    assert_string_equal(fg_error_message(&err), "diff: snapshot b: bad magic 0x00000000, not a world snapshot");
    fg_world_config c = fg_world_config_default();
    c.rules = r;
    c.buffer_capacity = 8;
    fg_world *other = fg_world_create(&c, NULL);
    assert_int_equal(fg_world_diff(other, a, size, a, size, d, 2, &n, &err), FG_EMISMATCH);
    assert_non_null(strstr(fg_error_message(&err), "another layout"));
    assert_int_equal(n, 77);
    assert_int_equal(d[0].path[0], 0x5A);
    free(a);
    free(bad);
    fg_world_destroy(w);
    fg_world_destroy(other);
    fg_ruleset_unref(r);
}

/* Save, restore and hash allocate nothing. */
static void save_restore_and_hash_do_not_allocate(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator alloc = fg_test_counting_allocator(&counter);
    fg_ruleset *r = fg_det_rules(20);
    fg_world *w = fg_det_world(r, 4, &alloc, no_hooks());
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 4);
    size_t cap = fg_world_snapshot_capacity(w);
    void *snap = malloc(cap);
    size_t warm = counter.allocations;
    for (int t = 0; t < 300; t++) {
        fg_input_fuzz_tick(&fz, w, NULL);
        fg_world_advance(w, NULL);
        size_t size = fg_world_snapshot_size(w);
        fg_world_save(w, snap, size, NULL);
        (void)fg_world_hash(w);
        fg_world_restore(w, snap, size, NULL);
    }
    assert_int_equal(counter.allocations, warm);
    free(snap);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

/* When every fighter fights its neighbour, movement, push, facing, combo end and the frame meter
** run pair by pair in one pass (tick.c move_phase). A twin forced to run them phase by phase
** (the order any other world uses) must hash the same on every tick and keep the same meter. */
static void pair_by_pair_ticks_equal_phase_by_phase(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    for (uint64_t seed = 1; seed <= 6; seed++) {
        fg_world *a = fg_det_world(r, seed, NULL, no_hooks());
        fg_world *b = fg_det_world(r, seed, NULL, no_hooks());
        assert_non_null(a);
        assert_non_null(b);
        fg_input_fuzz fa, fb;
        fg_input_fuzz_init(&fa, seed);
        fg_input_fuzz_init(&fb, seed);
        for (int t = 0; t < 600; t++) {
            assert_int_equal(fg_input_fuzz_tick(&fa, a, NULL), FG_OK);
            assert_int_equal(fg_input_fuzz_tick(&fb, b, NULL), FG_OK);
            b->pairs = 2; /* as if the opponents did not pair up */
            assert_int_equal(fg_world_advance(a, NULL), FG_OK);
            assert_int_equal(fg_world_advance(b, NULL), FG_OK);
            assert_int_equal(a->pairs, 1); /* a really ran pair by pair */
            if (fg_world_hash(a) != fg_world_hash(b)) fail_msg("seed %llu, tick %d: hashes differ",
                                                               (unsigned long long)seed, t);
            for (fg_entity e = 1; e <= 2; e++)
                assert_int_equal(fg_world_meter_at(a, e, t), fg_world_meter_at(b, e, t));
        }
        fg_world_destroy(a);
        fg_world_destroy(b);
    }
    fg_ruleset_unref(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hash_changes_exactly_when_a_hashed_field_differs),
        cmocka_unit_test(hash_covers_buffers_ledgers_and_matchers),
        cmocka_unit_test(hash_is_never_a_constant),
        cmocka_unit_test(kept_parts_hash_like_a_fresh_world),
        cmocka_unit_test(restore_continues_bit_identically_across_seeds),
        cmocka_unit_test(snapshot_grows_with_the_spawned_entities),
        cmocka_unit_test(restore_refuses_a_request_behind_an_empty_place),
        cmocka_unit_test(restore_refuses_hit_log_bits_that_disagree),
        cmocka_unit_test(diff_names_the_fields_that_differ),
        cmocka_unit_test(diff_refuses_what_is_not_a_snapshot_of_this_world),
        cmocka_unit_test(save_restore_and_hash_do_not_allocate),
        cmocka_unit_test(pair_by_pair_ticks_equal_phase_by_phase),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
