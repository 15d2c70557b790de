/* SPDX-License-Identifier: MIT */
/*
** test_projectiles.c: projectiles through the C API and the real tick: declared with the builder
** and spawned by an action's marker, read back with fg_world_projectile_at and its boxes; the
** validator's messages; the hash coverage audit over the projectile pool (every byte of every
** live record flipped: the hash changes exactly when the field diff names a hashed field);
** adversarial snapshots refused; no allocation per tick with projectiles flying and clashing.
*/
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/src/internal.h"
#include "../../runtime/src/snapshot.h"
#include "framegate/determinism.h"
#include "framegate/projectile.h"
#include "rules_fixture.h"
#include "snapshot_flip.h"

static fg_box px_box(int x, int y, int w, int h) {
    return (fg_box){FG_FX(x), FG_FX(y), FG_FX(w), FG_FX(h)};
}

/* A thrower: "fire" spawns a fireball 30 px in front on its tick 10 (marker "spawn"); the ball
** flies 10 px a tick for 80 ticks, 50 damage; with `hurt_box`, a fighter's swing may strike it. */
static fg_ruleset_builder *thrower_kind(int durability, bool hurt_box) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("thrower", NULL);
    fg_ruleset_add_button(b, "LP", NULL);
    fgt_resource(b, "health", 1000, 1000);
    assert_int_equal(fg_ruleset_add_default_box(b, NULL, FG_BOX_HURT, px_box(-20, 0, 40, 100),
                                                NULL), FG_OK);
    fg_action_def a = fgt_neutral("idle", 0);
    fgt_add(b, &a);
    a = fgt_action("hitstun", 0, 0, 1);
    fgt_add(b, &a);
    a = fgt_action("blockstun", 0, 0, 1);
    fgt_add(b, &a);
    fg_projectile_def p = fg_projectile_def_default("fireball");
    p.vx = FG_FX(10);
    p.lifetime = 80;
    p.durability = durability;
    p.boxes[p.nboxes++] = (fg_box_def){FG_BOX_HIT, 0, 1000, px_box(-10, 40, 20, 20), 0};
    if (hurt_box)
        p.boxes[p.nboxes++] = (fg_box_def){FG_BOX_HURT, 0, 1000, px_box(-12, 38, 24, 24), 0};
    p.hit.damage = 50;
    p.hit.hitstop = 0;
    assert_int_equal(fg_ruleset_add_projectile(b, &p, NULL), FG_OK);
    a = fgt_action("fire", 10, 1, 50);
    fgt_marker(&a, 10, "spawn");
    snprintf(a.spawn.projectile, sizeof a.spawn.projectile, "fireball");
    a.spawn.x = FG_FX(30);
    fgt_add(b, &a);
    return b;
}

static fg_ruleset_builder *thrower(int durability) { return thrower_kind(durability, false); }

static int health(const fgt_duel *d, fg_entity e) {
    return fg_world_resource(d->w, e, (uint32_t)fg_ruleset_find_resource(d->r, "health"));
}

static void an_action_spawns_one_on_its_marker_tick(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_build(thrower(1)), 335, NULL, NULL); /* -35 and 300 */
    assert_int_equal(fg_world_projectile_capacity(d.w), 64);
    fgt_request(&d, d.p1, "fire");
    fgt_run(&d, 10);
    assert_int_equal(fg_world_projectile_count(d.w), 0);
    fgt_run(&d, 1);
    assert_int_equal(fg_world_projectile_count(d.w), 1);
    fg_projectile_view v;
    assert_true(fg_world_projectile_at(d.w, 0, &v));
    assert_false(fg_world_projectile_at(d.w, 1, &v) && v.id == 0);
    assert_int_equal(v.id, 1);
    assert_int_equal(v.owner, d.p1);
    assert_string_equal(v.name, "fireball");
    assert_int_equal(v.x, FG_FX(-5));
    assert_int_equal(v.age, 0);
    fgt_run(&d, 2);
    assert_true(fg_world_projectile_at(d.w, 0, &v));
    assert_int_equal(v.x, FG_FX(15));
    fg_placed_box boxes[4];
    assert_int_equal(fg_world_projectile_boxes(d.w, 0, boxes, 4), 1);
    assert_int_equal(boxes[0].rect.x0, FG_FX(5));
    assert_int_equal(boxes[0].rect.x1, FG_FX(25));
    /* It reaches e2 (hurt box 280..320) and is spent. */
    fgt_run(&d, 30);
    assert_int_equal(health(&d, d.p2), 950);
    assert_int_equal(fg_world_projectile_count(d.w), 0);
    fgt_duel_free(&d);
}

/* The thrower's fireball with a hurt box, and a jab for the other side to swing at it. */
static fg_ruleset *thrower_and_jab(void) {
    fg_ruleset_builder *b = thrower_kind(1, true);
    fg_action_def a = fgt_action("jab", 3, 2, 6);
    a.boxes[a.nboxes++] = (fg_box_def){FG_BOX_HIT, 3, 4, px_box(20, 50, 40, 20), 0};
    a.hit.enabled = true;
    a.hit.damage = 5;
    a.hit.hitstun = 10;
    a.hit.blockstun = 5;
    fgt_add(b, &a);
    return fgt_build(b);
}

/* From C: p2's jab meets the fireball's hurt box before its hit box reaches p2. The strike is a
** FG_EVENT_STRUCK event, the fireball (durability 1) is gone, and nobody is hurt. */
static void a_swing_strikes_a_projectiles_hurt_box(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(thrower_and_jab(), 300, NULL, NULL);
    fgt_request(&d, d.p1, "fire");
    bool swung = false;
    int struck = 0;
    for (int t = 0; t < 60; t++) {
        fg_projectile_view v;
        if (!swung && fg_world_projectile_at(d.w, 0, &v) && v.x >= FG_FX(175)) {
            fg_placed_box boxes[4];
            assert_int_equal(fg_world_projectile_boxes(d.w, 0, boxes, 4), 2);
            assert_int_equal(boxes[1].kind, FG_BOX_HURT);
            fgt_request(&d, d.p2, "jab");
            swung = true;
        }
        fgt_run(&d, 1);
        for (uint32_t i = 0; i < fg_world_event_count(d.w); i++) {
            const fg_event *ev = fg_world_event_at(d.w, i);
            if (ev->kind != FG_EVENT_STRUCK) continue;
            assert_int_equal(ev->entity, d.p2);
            assert_int_equal(ev->target, d.p1);
            assert_int_equal(ev->projectile, 1);
            struck++;
        }
    }
    assert_true(swung);
    assert_int_equal(struck, 1);
    assert_int_equal(fg_world_projectile_count(d.w), 0);
    assert_int_equal(health(&d, d.p1), 1000);
    assert_int_equal(health(&d, d.p2), 1000);
    fgt_duel_free(&d);
}

static void the_validator_names_path_and_value(void **state) {
    (void)state;
    fg_ruleset_builder *b = thrower(1);
    fg_projectile_def p = fg_projectile_def_default("fireball");
    fg_error err;
    assert_int_equal(fg_ruleset_add_projectile(b, &p, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "projectiles.fireball: declared twice");
    fg_ruleset_builder_destroy(b);
    b = thrower(0);
    assert_null(fg_ruleset_build(b, NULL, &err));
    fg_ruleset_builder_destroy(b);
    assert_string_equal(fg_error_message(&err), "projectiles.fireball.durability: 0, expected 1..255");
    /* A spawn naming no kind of the ruleset, and one whose marker the action lacks. */
    b = thrower(1);
    fg_action_def a = fgt_action("bad", 2, 0, 2);
    snprintf(a.spawn.projectile, sizeof a.spawn.projectile, "fireblal");
    fgt_marker(&a, 1, "spawn");
    fgt_add(b, &a);
    assert_null(fg_ruleset_build(b, NULL, &err));
    fg_ruleset_builder_destroy(b);
    assert_string_equal(fg_error_message(&err), "actions.bad.spawn.projectile: 'fireblal' is not a projectile "
                                 "(projectiles: fireball)");
}

/* {====================================================================== the coverage audit */

/* Where a snapshot's projectile records start. */
static size_t pool_records_at(void) {
    return sizeof(fg_snapshot_header) + ((sizeof(fg_world_state) + 15) & ~(size_t)15) +
           ((sizeof(fg_projectile_pool) + 15) & ~(size_t)15);
}

/* A duel with three projectiles in flight (one from e1, two from e2, one hit landed). */
static fgt_duel flying(void) {
    fgt_duel d = fgt_duel_new(fgt_build(thrower(2)), 335, NULL, NULL);
    fgt_request(&d, d.p1, "fire");
    fgt_run(&d, 20);
    assert_int_equal(fg_world_spawn_projectile(d.w, d.p2, "fireball", FG_FX(200), FG_FX(100),
                                               FG_FACING_LEFT, NULL, NULL), FG_OK);
    assert_int_equal(fg_world_spawn_projectile(d.w, d.p2, "fireball", FG_FX(100), FG_FX(100),
                                               FG_FACING_RIGHT, NULL, NULL), FG_OK);
    fgt_run(&d, 3);
    assert_int_equal(fg_world_projectile_count(d.w), 3);
    return d;
}

/* Flips every byte of the pool's records; see the_hash_covers_every_field_of_the_pool. */
static void audit_pool(fgt_duel *dp) {
    fg_world *w = dp->w;
    size_t size = fg_world_snapshot_size(w);
    unsigned char *orig = malloc(size), *flip = malloc(size);
    assert_int_equal(fg_world_save(w, orig, size, NULL), FG_OK);
    uint64_t h0 = fg_world_hash(w);
    size_t pool = sizeof(fg_snapshot_header) + ((sizeof(fg_world_state) + 15) & ~(size_t)15);
    size_t recs = pool + ((sizeof(fg_projectile_pool) + 15) & ~(size_t)15);
    size_t end = recs + sizeof(fg_projectile_state) * 3;
    size_t checked = 0, changed_n = 0, refused = 0;
    char what[64];
    for (size_t at = pool; at < end; at++) {
        if (at >= pool + sizeof(fg_projectile_pool) && at < recs) continue; /* alignment */
        snprintf(what, sizeof what, "pool byte %zu", at - pool);
        fgt_flip r = fgt_flip_byte(w, orig, flip, size, at, 0xA5, h0, what);
        if (r == FGT_FLIP_REFUSED) {
            refused++;
            continue;
        }
        checked++;
        changed_n += r == FGT_FLIP_CHANGED;
    }
    print_message("%zu pool bytes flipped, %zu changed the hash, %zu refused\n", checked,
                  changed_n, refused);
    assert_true(changed_n > 100);
    assert_true(refused > 10); /* owner, version, kind, action, layer, facing... */
    assert_int_equal(fg_world_hash(w), h0);
    free(orig);
    free(flip);
}

static void the_hash_covers_every_field_of_the_pool(void **state) {
    (void)state;
    fgt_duel d = flying();
    audit_pool(&d);
    /* Again with the first one struck by a swing (entity 2, layer 0, sequence 5): the fields
    ** of the last strike are hashed only then. */
    size_t size = fg_world_snapshot_size(d.w);
    unsigned char *buf = malloc(size);
    assert_int_equal(fg_world_save(d.w, buf, size, NULL), FG_OK);
    size_t recs = pool_records_at();
    fg_projectile_state p;
    memcpy(&p, buf + recs, sizeof p);
    uint64_t before = fg_world_hash(d.w);
    p.struck_by = 2;
    p.struck_seq = 5;
    memcpy(buf + recs, &p, sizeof p);
    fgt_reseal(buf);
    assert_int_equal(fg_world_restore(d.w, buf, size, NULL), FG_OK);
    assert_true(fg_world_hash(d.w) != before);
    audit_pool(&d);
    free(buf);
    fgt_duel_free(&d);
}

static void a_damaged_pool_is_refused_by_name(void **state) {
    (void)state;
    fgt_duel d = flying();
    size_t size = fg_world_snapshot_size(d.w);
    unsigned char *buf = malloc(size);
    assert_int_equal(fg_world_save(d.w, buf, size, NULL), FG_OK);
    size_t recs = pool_records_at();
    fg_projectile_state p;
    memcpy(&p, buf + recs + sizeof p, sizeof p);
    p.def = 7;
    memcpy(buf + recs + sizeof p, &p, sizeof p);
    fgt_reseal(buf);
    fg_error err;
    assert_int_equal(fg_world_restore(d.w, buf, size, &err), FG_EFORMAT);
    assert_string_equal(fg_error_message(&err), "snapshot: projectiles[1].def is 7, out of range: the snapshot "
                                 "is damaged or from another build");
    free(buf);
    fgt_duel_free(&d);
}

/* }====================================================================== */

static void flying_and_clashing_allocates_nothing(void **state) {
    (void)state;
    fg_counting_allocator ca;
    fg_allocator a = fg_test_counting_allocator(&ca);
    fgt_duel d = fgt_duel_new(fgt_build(thrower(1)), 335, NULL, &a);
    fgt_run(&d, 2);
    size_t before = ca.allocations;
    for (int i = 0; i < 200; i++) {
        if (i % 40 == 0) fgt_request(&d, d.p1, "fire");
        if (i % 40 == 3) fgt_request(&d, d.p2, "fire");
        fgt_run(&d, 1);
    }
    assert_int_equal(ca.allocations, before);
    assert_true(fg_world_trace_count(d.w) > 0);
    fgt_duel_free(&d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_action_spawns_one_on_its_marker_tick),
        cmocka_unit_test(the_validator_names_path_and_value),
        cmocka_unit_test(a_swing_strikes_a_projectiles_hurt_box),
        cmocka_unit_test(the_hash_covers_every_field_of_the_pool),
        cmocka_unit_test(a_damaged_pool_is_refused_by_name),
        cmocka_unit_test(flying_and_clashing_allocates_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
