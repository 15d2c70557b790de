/* SPDX-License-Identifier: MIT */
/*
** test_lua_hash_parts.c: the state hash's kept parts never go stale. A tick folds each entity's
** part of the hash as it goes (world_hash.c), each dispatch ledger keeps a fold per channel that
** every change updates, and a ledger's whole fold is kept until the tick writes that ledger;
** fg_world_hash_fresh folds every word from scratch, and the two must agree on every tick:
** - the stress fighter (two layers, queued requests, hits, a Lua rule) under fuzzed input with
**   rollbacks;
** - the sample duelists (hits, juggles, throws and their techs, fireballs, a Lua request rule)
**   under fuzzed input, hashed on most ticks but not all, with a host writing between ticks:
**   positions, facing, resources, contact reports, requests, projectiles, the stage, reloads
**   and restores, each of which must set the kept parts aside;
** - every byte of an entity record written directly, once the parts are set aside;
** - a snapshot whose kept ledger folds were tampered with;
** - the kept folds of the words a tick rarely writes, which only a marked write refolds.
*/
#include "fg_lua.h"
#include "fg_test.h"

#include <stdlib.h>
#include <string.h>

#include "../../runtime/src/internal.h"
#include "../../runtime/src/motion_set.h"
#include "framegate/projectile.h"
#include "../../runtime/src/snapshot.h"

#define RULES FG_TESTS_DIR "/bench/stress_rules.lua"
#define DUEL FG_SAMPLES_DIR "/duel/rules.lua"
#define FIGHTERS 6

typedef struct stress {
    lua_State *L;
    fg_world *w;
} stress;

static stress open_world(const char *rules, int fighters, uint64_t seed) {
    stress s;
    s.L = luaL_newstate();
    assert_non_null(s.L);
    luaL_openlibs(s.L);
    fg_lua_preload(s.L);
    const char *code = "local path, n, seed = ...\n"
                       "local fg = require 'framegate'\n"
                       "local w = fg.world { rules = path, entities = n, seed = seed }\n"
                       "for i = 1, n do\n"
                       "  w:spawn { x = i % 2 == 1 and -35 or 35,\n"
                       "            facing = i % 2 == 1 and 'right' or 'left' }\n"
                       "end\n"
                       "return w\n";
    if (luaL_loadstring(s.L, code) != LUA_OK) fail_msg("%s", lua_tostring(s.L, -1));
    lua_pushstring(s.L, rules);
    lua_pushinteger(s.L, fighters);
    lua_pushinteger(s.L, (lua_Integer)seed);
    if (lua_pcall(s.L, 3, 1, 0) != LUA_OK) fail_msg("world: %s", lua_tostring(s.L, -1));
    s.w = fg_lua_check_world(s.L, 1)->w;
    return s;
}

static stress open_stress(uint64_t seed) { return open_world(RULES, FIGHTERS, seed); }

static void step(stress *s, fg_input_fuzz *fz) {
    fg_error err;
    if (fg_input_fuzz_tick(fz, s->w, &err) != FG_OK) fail_msg("fuzz: %s", fg_error_message(&err));
    if (fg_lua_world_step(s->L, 1, false, &err) != FG_OK) fail_msg("advance: %s", fg_error_message(&err));
}

static void *save(const fg_world *w, size_t *size) {
    *size = fg_world_snapshot_size(w);
    void *p = malloc(fg_world_snapshot_capacity(w));
    assert_non_null(p);
    assert_int_equal(fg_world_save(w, p, *size, NULL), FG_OK);
    return p;
}

static void assert_fresh(const fg_world *w, const char *when, int tick) {
    uint64_t kept = fg_world_hash(w), fresh = fg_world_hash_fresh(w);
    if (kept != fresh)
        fail_msg("%s %d: kept %016llx, fresh %016llx", when, tick, (unsigned long long)kept,
                 (unsigned long long)fresh);
}

/* Counts what the run went through, so the test proves it exercised the kept parts. */
typedef struct seen {
    int queued, second_layer, combos, ledger_entries, restores;
    int64_t seq[FIGHTERS]; /* the second layer's action sequence on the tick before */
} seen;

static void note(const fg_world *w, seen *n) {
    for (uint32_t i = 0; i < w->state->nentities && i < FIGHTERS; i++) {
        const fg_entity_state *es = &w->entities[i];
        n->queued += es->queued[0][0].action != FG_NO_ACTION ||
                     es->queued[1][0].action != FG_NO_ACTION;
        n->second_layer += es->layers[1].seq != n->seq[i];
        n->seq[i] = es->layers[1].seq;
        n->combos += es->combat.combo > 0;
        n->ledger_entries += fg_dispatcher_ledger_count(fg_world_ledger_at(w, i), 0) > 0;
    }
}

/* Every tick of a fuzzed match, with a rollback (restore to an earlier snapshot and play those
** ticks again) every few dozen ticks: the kept hash is the fresh one. */
static void kept_parts_equal_a_fresh_hash_every_tick(void **state) {
    (void)state;
    stress s = open_stress(3);
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 3);
    seen n = {0};
    void *snap = NULL;
    size_t size = 0;
    fg_input_fuzz at_snap = fz;
    for (int t = 0; t < 1500; t++) {
        step(&s, &fz);
        assert_fresh(s.w, "tick", t);
        note(s.w, &n);
        if (t % 41 == 0) {
            free(snap);
            snap = save(s.w, &size);
            at_snap = fz;
        } else if (t % 67 == 0) {
            assert_int_equal(fg_world_restore(s.w, snap, size, NULL), FG_OK);
            fz = at_snap;
            assert_fresh(s.w, "restore at tick", t);
            n.restores++;
        }
    }
    print_message("queued %d, second layer starts %d, combo ticks %d, ledgers in use %d, "
                  "restores %d\n", n.queued, n.second_layer, n.combos, n.ledger_entries,
                  n.restores);
    assert_true(n.queued > 0);
    assert_true(n.second_layer > 0);
    assert_true(n.combos > 0);
    assert_true(n.ledger_entries > 0);
    assert_true(n.restores > 10);
    free(snap);
    lua_close(s.L);
}

/* The tick folds the parts sixteen entities at a time: in worlds of neighbouring pairs (block by
** block of the movement pass) and in others (after the whole pass), across several blocks and a
** short last one, the sum it builds is the fresh hash every tick. */
static void parts_folded_in_blocks_equal_a_fresh_hash(void **state) {
    (void)state;
    const int sizes[] = {40, 37}; /* paired, and not (the last fighter has no neighbour) */
    for (int i = 0; i < 2; i++) {
        stress s = open_world(RULES, sizes[i], 11);
        fg_input_fuzz fz;
        fg_input_fuzz_init(&fz, 11);
        for (int t = 0; t < 300; t++) {
            step(&s, &fz);
            assert_fresh(s.w, sizes[i] == 40 ? "paired tick" : "unpaired tick", t);
        }
        assert_int_equal(s.w->pairs, i == 0 ? 1 : 2); /* both ways of running the tick ran */
        lua_close(s.L);
    }
}

/* Every byte of an entity record written directly, then the kept parts set aside as the world's
** own writes do: the hash follows, and writing the byte back gives the first hash again. The
** ruleset slot is skipped (it indexes the slot table); the ground flags are bools, flipped in
** their low bit. */
static void a_write_to_any_record_byte_is_seen(void **state) {
    (void)state;
    stress s = open_stress(5);
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 5);
    for (int t = 0; t < 300; t++) step(&s, &fz);
    for (uint32_t e = 0; e < 2; e++) {
        unsigned char *rec = (unsigned char *)&s.w->entities[e];
        uint64_t h0 = fg_world_hash(s.w);
        size_t ground = offsetof(fg_entity_state, ground);
        int moved = 0;
        for (size_t at = 0; at < sizeof(fg_entity_state); at++) {
            if (at == offsetof(fg_entity_state, rules_slot)) continue;
            bool is_bool = at >= ground && at < ground + 4 * sizeof(bool);
            unsigned char old = rec[at];
            rec[at] ^= is_bool ? 0x01 : 0xA5;
            fg_world_hash_forget(s.w->hash_keep); /* what every write by the world does */
            uint64_t kept = fg_world_hash(s.w);
            if (kept != fg_world_hash_fresh(s.w))
                fail_msg("entity %u byte %zu: the kept hash missed the write", e + 1, at);
            moved += kept != h0;
            rec[at] = old;
            fg_world_hash_forget(s.w->hash_keep);
            if (fg_world_hash(s.w) != h0)
                fail_msg("entity %u byte %zu: writing it back did not give the hash back", e + 1,
                         at);
        }
        print_message("entity %u: %d of %zu bytes move the hash\n", e + 1, moved,
                      sizeof(fg_entity_state));
        assert_true(moved > 300);
    }
    lua_close(s.L);
}

/* {====================================================================== host writes */

/* What the duel run went through, so the test proves it exercised each kind of change. */
typedef struct duel_seen {
    int hits, throws, projectiles, live, writes, unhashed, restores, reloads;
} duel_seen;

/* The duel's rules as the file says, or (variant) with its sweep, launcher and grab motions kept
** live for a few ticks after they complete (`buffer`): another motion set, so a reload between
** the two starts every matcher afresh, and a live command that starts its action is retired. */
static fg_ruleset *load_rules(lua_State *L, const char *path, bool variant) {
    const char *code = "local path, variant = ...\n"
                       "local f = assert(io.open(path, 'rb'))\n"
                       "local text = f:read('a')\n"
                       "f:close()\n"
                       "if variant then\n"
                       "  text = text:gsub('priority = 1 }', 'priority = 1, buffer = 4 }')\n"
                       "             :gsub('priority = 2 }', 'priority = 2, buffer = 6 }')\n"
                       "end\n"
                       "return require('framegate').rules(path, text)\n";
    if (luaL_loadstring(L, code) != LUA_OK) fail_msg("%s", lua_tostring(L, -1));
    lua_pushstring(L, path);
    lua_pushboolean(L, variant);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) fail_msg("rules: %s", lua_tostring(L, -1));
    fg_ruleset *r = fg_lua_check_rules(L, -1)->rules;
    fg_ruleset_ref(r);
    lua_pop(L, 1);
    return r;
}

/* One host write between ticks, by kind; the kept hash must follow it. Returns what it did, for
** the failure message. */
static const char *host_write(stress *s, int kind, fg_ruleset *const rules[2], int *version) {
    fg_world *w = s->w;
    fg_entity e = (fg_entity)(1 + kind % fg_world_entity_count(w));
    fg_fx x, y;
    fg_world_position(w, e, &x, &y);
    switch (kind % 8) {
    case 0:
        assert_int_equal(fg_world_set_position(w, e, x + FG_FX(1), y, NULL), FG_OK);
        return "set position";
    case 1:
        assert_int_equal(fg_world_set_facing(w, e, fg_world_facing(w, e) == FG_FACING_LEFT
                                                       ? FG_FACING_RIGHT : FG_FACING_LEFT,
                                             NULL),
                         FG_OK);
        return "set facing";
    case 2: {
        int32_t v = fg_world_resource(w, e, 0);
        assert_int_equal(fg_world_set_resource(w, e, 0, v > 3 ? v - 3 : v + 3, NULL), FG_OK);
        return "set resource";
    }
    case 3:
        (void)fg_world_report_contact(w, e, !w->entities[e - 1].contact, NULL);
        return "contact report";
    case 4: {
        int fb = fg_ruleset_find_action(fg_world_rules(w, e), "fireball");
        assert_true(fb >= 0);
        (void)fg_world_request(w, e, (uint32_t)fb, FG_REQ_SCRIPT, NULL);
        return "request";
    }
    case 5:
        (void)fg_world_spawn_projectile(w, e, "fireball", x, y + FG_FX(20),
                                        fg_world_facing(w, e), NULL, NULL);
        return "projectile spawned";
    case 6: {
        fg_stage st = *fg_world_stage(w);
        st.wall_max -= FG_FX(1);
        assert_int_equal(fg_world_set_stage(w, &st, NULL), FG_OK);
        return "stage";
    }
    default:
        *version ^= 1;
        assert_int_equal(fg_world_replace_rules(w, 0, rules[*version], NULL), FG_OK);
        return "reload";
    }
}

/* The sample duelists under fuzzed input: hits, juggles, throws, fireballs. The hash is taken on
** most ticks but not every one (a tick after one nobody hashed does not fold the parts), a host
** write comes every few ticks, and a rollback every few dozen: after each, and on every hashed
** tick, the kept hash is the fresh one. */
static void kept_parts_follow_every_host_write(void **state) {
    (void)state;
    stress s = open_world(DUEL, 4, 11);
    fg_ruleset *rules[2] = {load_rules(s.L, DUEL, false), load_rules(s.L, DUEL, true)};
    int version = 0;
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 11);
    duel_seen n = {0};
    void *snap = NULL;
    size_t size = 0;
    fg_input_fuzz at_snap = fz;
    for (int t = 0; t < 3000; t++) {
        step(&s, &fz);
        const fg_world *w = s.w;
        for (uint32_t i = 0; i < w->state->nentities; i++) {
            n.hits += w->entities[i].combat.combo > 0;
            n.throws += w->entities[i].combat.grabbed_by != 0;
            n.live += fg_world_motion_at(w, i)->nlive > 0;
        }
        n.projectiles += fg_world_projectile_count(w) > 0;
        if (t % 5 == 1) { /* nobody hashes this tick */
            n.unhashed++;
            continue;
        }
        assert_fresh(s.w, "tick", t);
        if (t % 53 == 0) {
            free(snap);
            snap = save(s.w, &size);
            at_snap = fz;
        } else if (t % 89 == 0) {
            uint64_t before = fg_world_hash(s.w);
            assert_int_equal(fg_world_restore(s.w, snap, size, NULL), FG_OK);
            fz = at_snap;
            assert_fresh(s.w, "restore at tick", t);
            n.restores += fg_world_hash(s.w) != before;
        } else if (t % 7 == 3) {
            int kind = (t / 7) % 8;
            uint64_t before = fg_world_hash(s.w);
            const char *what = host_write(&s, kind, rules, &version);
            assert_fresh(s.w, what, t);
            n.writes += fg_world_hash(s.w) != before;
            n.reloads += kind == 7;
        }
    }
    print_message("hit ticks %d, throw ticks %d, projectile ticks %d, live command ticks %d, "
                  "writes that moved the hash %d, unhashed ticks %d, restores %d, reloads %d\n",
                  n.hits, n.throws, n.projectiles, n.live, n.writes, n.unhashed, n.restores,
                  n.reloads);
    assert_true(n.hits > 0);
    assert_true(n.throws > 0);
    assert_true(n.projectiles > 0);
    assert_true(n.live > 0);
    assert_true(n.writes > 100);
    assert_true(n.restores > 10);
    assert_true(n.reloads > 10);
    free(snap);
    lua_close(s.L);
    fg_ruleset_unref(rules[0]);
    fg_ruleset_unref(rules[1]);
}

/* }====================================================================== */

/* A snapshot's ledger fold cells are not trusted: garbage in them restores to the hash the
** world had when the snapshot was taken. */
static void tampered_ledger_folds_restore_to_the_true_hash(void **state) {
    (void)state;
    stress s = open_stress(9);
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 9);
    for (int t = 0; t < 200; t++) step(&s, &fz);
    uint64_t h = fg_world_hash(s.w);
    size_t size;
    unsigned char *snap = save(s.w, &size);
    for (int t = 0; t < 50; t++) step(&s, &fz);
    assert_int_not_equal(fg_world_hash(s.w), h);
    const fg_world *w = s.w;
    size_t ledgers = sizeof(fg_snapshot_header) + fg_world_snapshot_bytes(w, 0) +
                     w->state->nentities * (sizeof(fg_entity_state) + w->buffer_stride);
    const fg_dispatcher *d = fg_world_ledger_at(w, 0);
    size_t folds = offsetof(fg_dispatcher, cells) +
                   sizeof(fg_ledger_cell) * (d->channels + (size_t)d->channels * d->capacity);
    for (uint32_t i = 0; i < w->state->nentities; i++)
        memset(snap + ledgers + w->ledger_stride * i + folds, 0x5A,
               sizeof(fg_ledger_cell) * d->channels);
    fg_snapshot_header hd;
    memcpy(&hd, snap, sizeof hd);
    hd.check = fg_snapshot_checksum(&hd, snap + sizeof hd);
    memcpy(snap, &hd, sizeof hd);
    assert_int_equal(fg_world_restore(s.w, snap, size, NULL), FG_OK);
    assert_int_equal(fg_world_hash(s.w), h);
    assert_fresh(s.w, "tampered restore", 0);
    free(snap);
    lua_close(s.L);
}

/* The folds of the words a tick rarely writes (facing, ground, combat, layers, jump) are kept
** between ticks: a write the tick does not mark leaves them stale, which shows the kept fold is
** what the hash used, and fg_world_hash_touch (what every such write in the tick calls) brings
** them back. Builds with FG_HASH_CHECK stop at a stale kept fold, so they skip the first half. */
static void kept_folds_hold_until_a_write_marks_them(void **state) {
    (void)state;
    stress s = open_stress(11);
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 11);
    for (int t = 0; t < 120; t++) {
        step(&s, &fz);
        (void)fg_world_hash(s.w);
    }
    int stale = 0, marked = 0;
    for (int t = 0; t < 60; t++) {
        fg_entity_state *es = &s.w->entities[t % FIGHTERS];
        es->combat.vars[FG_MAX_VARS - 1] += 1; /* a word the tick never writes in these rules */
        bool mark = t % 2 == 1;
#ifdef FG_HASH_CHECK
        mark = true;
#endif
        if (mark) fg_world_hash_touch(s.w, es);
        step(&s, &fz);
        uint64_t kept = fg_world_hash(s.w), fresh = fg_world_hash_fresh(s.w);
        if (mark) {
            if (kept != fresh) fail_msg("tick %d: a marked write left the kept hash stale", t);
            marked++;
        } else {
            stale += kept != fresh;
            fg_world_hash_forget(s.w->hash_keep); /* the kept folds start over */
            assert_int_equal(fg_world_hash(s.w), fg_world_hash_fresh(s.w));
        }
    }
    print_message("%d unmarked writes went unseen by the kept hash, %d marked ones were seen\n",
                  stale, marked);
#ifndef FG_HASH_CHECK
    assert_true(stale >= 25); /* each unmarked write: only a touch of its own would refold it */
#endif
    assert_true(marked >= 30);
    lua_close(s.L);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kept_parts_equal_a_fresh_hash_every_tick),
        cmocka_unit_test(parts_folded_in_blocks_equal_a_fresh_hash),
        cmocka_unit_test(kept_parts_follow_every_host_write),
        cmocka_unit_test(a_write_to_any_record_byte_is_seen),
        cmocka_unit_test(tampered_ledger_folds_restore_to_the_true_hash),
        cmocka_unit_test(kept_folds_hold_until_a_write_marks_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
