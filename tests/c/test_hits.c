/* SPDX-License-Identifier: MIT */
/*
** test_hits.c: hits as data, scenario by scenario, through the C builder and the real tick: a
** crossup, lows and overheads against crouching and standing guards, a launcher into a juggle that
** stops at the limit (with its reason in the trace), trades under both rules, a multi-hit move and
** its interval, throws teched on the window's last tick and one past it, invulnerability, damage
** scaling over a combo, contacts independent of the entities' creation order, the validator's
** messages, and no allocation per tick with boxes live.
*/
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_fixture.h"

static fg_box px_box(int x, int y, int w, int h) {
    return (fg_box){FG_FX(x), FG_FX(y), FG_FX(w), FG_FX(h)};
}

static void add_box(fg_action_def *a, fg_box_kind kind, int from, int to, fg_box b) {
    a->boxes[a->nboxes++] = (fg_box_def){kind, from, to, b, 0};
}

static fg_hit_def strike(int damage, int hitstop, int hitstun, int blockstun) {
    fg_hit_def h;
    memset(&h, 0, sizeof h);
    h.enabled = true;
    h.damage = damage;
    h.hitstop = hitstop;
    h.hitstun = hitstun;
    h.blockstun = blockstun;
    return h;
}

/* The brawler: round numbers. Hurt box 40 wide centred on the origin, 100 tall; crouching 60
** tall (the crouch action's own box); airborne 40x80 from 10 up (the airborne group's default).
** Every attack has hitstop 0 unless a test says otherwise. */
static fg_ruleset_builder *brawler(const fg_combat_def *combat) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("brawler", NULL);
    const char *buttons[] = {"LP", "HP", "LK", "HK"};
    for (int i = 0; i < 4; i++) fg_ruleset_add_button(b, buttons[i], NULL);
    fgt_resource(b, "health", 1000, 1000);
    fgt_resource(b, "meter", 300, 0);
    fg_combat_def c = combat ? *combat : fg_combat_def_default();
    fg_ruleset_set_combat(b, &c);
    assert_int_equal(fg_ruleset_add_default_box(b, NULL, FG_BOX_HURT, px_box(-20, 0, 40, 100),
                                                NULL), FG_OK);
    assert_int_equal(fg_ruleset_add_default_box(b, "airborne", FG_BOX_HURT,
                                                px_box(-20, 10, 40, 80), NULL), FG_OK);
    fg_action_def a = fgt_neutral("idle", 0);
    fgt_add(b, &a);
    a = fgt_neutral("crouch", 2); /* its own hurt box replaces the default: 60 tall */
    a.priority = 1;
    add_box(&a, FG_BOX_HURT, 0, 0, px_box(-20, 0, 40, 60));
    fgt_add(b, &a);
    a = fgt_neutral("walk_back", 4);
    fgt_add(b, &a);
    a = fgt_action("hitstun", 0, 0, 1);
    fgt_add(b, &a);
    a = fgt_action("blockstun", 0, 0, 1);
    fgt_add(b, &a);
    a = fgt_action("launched", 0, 0, 120);
    snprintf(a.group, sizeof a.group, "airborne");
    fgt_add(b, &a);
    a = fgt_action("thrown", 0, 0, 1);
    fgt_add(b, &a);
    a = fgt_action("knockdown", 0, 0, 1);
    fgt_add(b, &a);

    /* jab: a mid at head height, reach 20..60 in front */
    a = fgt_action("jab", 3, 2, 6);
    snprintf(a.input, sizeof a.input, "LP");
    add_box(&a, FG_BOX_HIT, 3, 4, px_box(20, 50, 40, 20));
    a.hit = strike(100, 0, 30, 8);
    a.hit.meter_gain = 10;
    a.hit.meter_target = 5;
    fgt_add(b, &a);
    /* low: at the feet, guard low */
    a = fgt_action("low", 3, 2, 8);
    add_box(&a, FG_BOX_HIT, 3, 4, px_box(20, 0, 40, 20));
    a.hit = strike(60, 0, 15, 10);
    a.hit.guard = FG_GUARD_LOW;
    fgt_add(b, &a);
    /* overhead: high, guard overhead */
    a = fgt_action("overhead", 3, 2, 8);
    add_box(&a, FG_BOX_HIT, 3, 4, px_box(20, 50, 40, 40));
    a.hit = strike(70, 0, 15, 10);
    a.hit.guard = FG_GUARD_OVERHEAD;
    fgt_add(b, &a);
    /* crossup: its box reaches behind the attacker */
    a = fgt_action("crossup", 1, 2, 4);
    add_box(&a, FG_BOX_HIT, 1, 2, px_box(-60, 0, 60, 100));
    a.hit = strike(50, 0, 15, 10);
    fgt_add(b, &a);
    /* launcher: sends the target up into "launched" */
    a = fgt_action("launcher", 3, 2, 10);
    add_box(&a, FG_BOX_HIT, 3, 4, px_box(20, 0, 40, 120));
    a.hit = strike(80, 0, 20, 10);
    a.hit.launch_vy = FG_FX(8);
    snprintf(a.hit.reaction, sizeof a.hit.reaction, "launched");
    a.hit.knockdown = FG_KNOCKDOWN_SOFT;
    fgt_add(b, &a);
    /* poke: a fast tall hit for juggles, one juggle point */
    a = fgt_action("poke", 1, 1, 1);
    add_box(&a, FG_BOX_HIT, 1, 1, px_box(0, 0, 80, 400));
    a.hit = strike(20, 0, 20, 10);
    a.hit.juggle = 1;
    fgt_add(b, &a);
    /* multi: live ticks 3..11, three hits three ticks apart */
    a = fgt_action("multi", 3, 9, 5);
    add_box(&a, FG_BOX_HIT, 3, 11, px_box(0, 0, 80, 100));
    a.hit = strike(10, 0, 10, 10);
    a.hit.hits = 3;
    a.hit.interval = 3;
    fgt_add(b, &a);
    /* reversal: strike-invulnerable on its ticks 0..5 */
    a = fgt_action("reversal", 6, 2, 10);
    a.ninvuln = 1;
    a.invuln[0] = (fg_invuln_def){0, 5, true, false};
    fgt_add(b, &a);
    /* grab: a throw box, tech window 7 ticks, the tech is pressing the grab (HK) */
    a = fgt_action("grab", 3, 2, 20);
    snprintf(a.input, sizeof a.input, "HK");
    add_box(&a, FG_BOX_THROW, 3, 4, px_box(0, 0, 60, 100));
    a.throw_def.enabled = true;
    a.throw_def.damage = 120;
    a.throw_def.tech_window = 7;
    a.throw_def.stun = 20;
    snprintf(a.throw_def.reaction, sizeof a.throw_def.reaction, "thrown");
    fgt_add(b, &a);
    /* high: a box above the crouching hurt box (which ends 60 up) */
    a = fgt_action("high", 3, 2, 8);
    add_box(&a, FG_BOX_HIT, 3, 4, px_box(20, 70, 40, 20));
    a.hit = strike(40, 0, 15, 10);
    fgt_add(b, &a);
    /* heavy: slower than the jab, higher priority */
    a = fgt_action("heavy", 3, 2, 12);
    add_box(&a, FG_BOX_HIT, 3, 4, px_box(20, 50, 40, 20));
    a.hit = strike(150, 0, 20, 10);
    a.hit.priority = 2;
    fgt_add(b, &a);
    return b;
}

static int health(const fgt_duel *d, fg_entity e) {
    return fg_world_resource(d->w, e, (uint32_t)fg_ruleset_find_resource(d->r, "health"));
}

static fg_combat_view combat(const fgt_duel *d, fg_entity e) {
    fg_combat_view v;
    assert_int_equal(fg_world_combat(d->w, e, &v, NULL), FG_OK);
    return v;
}

/* Runs until e's action on the body is `name` (at most `limit` ticks). */
static void run_until_running(fgt_duel *d, fg_entity e, const char *name, int limit) {
    for (int i = 0; i < limit; i++) {
        if (!strcmp(fgt_running(d, e, 0), name)) return;
        fgt_run(d, 1);
    }
    fail_msg("e%u never ran %s (runs %s)", e, name, fgt_running(d, e, 0));
}

/* The last trace line of a kind about entity e, formatted. */
static const char *last_trace(const fgt_duel *d, fg_entity e, fg_trace_kind kind, char *buf,
                              size_t size) {
    buf[0] = '\0';
    for (uint32_t i = 0; i < fg_world_trace_count(d->w); i++) {
        const fg_trace_record *r = fg_world_trace_at(d->w, i);
        if (r->kind == kind && r->entity == e) fg_world_trace_format(d->w, r, buf, size);
    }
    return buf;
}

/* {====================================================================== guards */

static void a_crossup_hits_from_the_other_side(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_build(brawler(NULL)), 70, NULL, NULL);
    /* p1 (facing right) lands behind p2: p2 at 35, p1 at 65, still facing right. */
    fg_world_set_position(d.w, d.p1, FG_FX(65), 0, NULL);
    fgt_hold(&d, d.p2, 4); /* p2 holds back from where it faces: toward the attacker now */
    fgt_request(&d, d.p1, "crossup"); /* busy at once: p1 does not turn around */
    fgt_run(&d, 3);
    assert_int_equal(health(&d, d.p2), 950);
    assert_string_equal(fgt_running(&d, d.p2, 0), "hitstun");
    fgt_duel_free(&d);

    /* The same, holding away from the attacker: blocked. */
    d = fgt_duel_new(fgt_build(brawler(NULL)), 70, NULL, NULL);
    fg_world_set_position(d.w, d.p1, FG_FX(65), 0, NULL);
    fgt_hold(&d, d.p2, 6); /* toward where p2 faces: away from p1, who is behind it */
    fgt_request(&d, d.p1, "crossup");
    fgt_run(&d, 3);
    assert_int_equal(health(&d, d.p2), 1000);
    assert_string_equal(fgt_running(&d, d.p2, 0), "blockstun");
    fgt_duel_free(&d);
}

/* p2 holds `hold` (relative to its facing), p1 attacks with `move`: the health p2 is left with. */
static int attack_against(const char *move, int hold, const char **state_after) {
    static char after[32];
    fgt_duel d = fgt_duel_new(fgt_build(brawler(NULL)), 60, NULL, NULL);
    fgt_hold(&d, d.p2, hold);
    fgt_run(&d, 1);
    fgt_request(&d, d.p1, move);
    fgt_run(&d, 5);
    int h = health(&d, d.p2);
    snprintf(after, sizeof after, "%s", fgt_running(&d, d.p2, 0));
    *state_after = after;
    fgt_duel_free(&d);
    return h;
}

static void a_low_is_blocked_crouching_and_hits_standing(void **state) {
    (void)state;
    const char *st;
    assert_int_equal(attack_against("low", 1, &st), 1000);
    assert_string_equal(st, "blockstun");
    assert_int_equal(attack_against("low", 4, &st), 940);
    assert_string_equal(st, "hitstun");
}

static void an_overhead_is_blocked_standing_and_hits_crouching(void **state) {
    (void)state;
    const char *st;
    assert_int_equal(attack_against("overhead", 4, &st), 1000);
    assert_string_equal(st, "blockstun");
    assert_int_equal(attack_against("overhead", 1, &st), 930);
    assert_string_equal(st, "hitstun");
}

static void a_high_box_whiffs_over_a_crouching_hurt_box(void **state) {
    (void)state;
    const char *st;
    assert_int_equal(attack_against("high", 2, &st), 1000); /* crouching, not blocking */
    assert_string_equal(st, "crouch");
    assert_int_equal(attack_against("high", 5, &st), 960); /* standing */
    assert_string_equal(st, "hitstun");
    /* The jab's box (50..70 up) still meets the crouching box's top (60). */
    assert_int_equal(attack_against("jab", 2, &st), 900);
}

/* }====================================================================== */

/* {====================================================================== juggles, combos */

static void a_launcher_juggles_until_the_limit_with_the_reason_in_the_trace(void **state) {
    (void)state;
    fg_combat_def c = fg_combat_def_default();
    c.juggle_limit = 3;
    fgt_duel d = fgt_duel_new(fgt_build(brawler(&c)), 60, NULL, NULL);
    fgt_request(&d, d.p1, "launcher");
    fgt_run(&d, 5);
    assert_string_equal(fgt_running(&d, d.p2, 0), "launched");
    assert_true(combat(&d, d.p2).launched);
    int landed = 0;
    for (int i = 0; i < 4; i++) {
        run_until_running(&d, d.p1, "idle", 20);
        int before = health(&d, d.p2);
        fgt_request(&d, d.p1, "poke");
        fgt_run(&d, 3);
        landed += health(&d, d.p2) < before;
        if (i < 3) assert_int_equal(combat(&d, d.p2).juggle, i + 1);
    }
    assert_int_equal(landed, 3);
    fg_combat_view v = combat(&d, d.p2);
    assert_int_equal(v.combo, 4); /* the launcher and three pokes */
    assert_int_equal(v.juggle, 3);
    char line[256];
    assert_string_equal(last_trace(&d, d.p2, FG_TRACE_MISS, line, sizeof line) +
                            strcspn(line, "m"),
                        "missed by e1's poke: juggle_limit (juggle 3 of 3)");
    /* Landing ends the juggle and the knockdown keeps p2 down. */
    run_until_running(&d, d.p2, "knockdown", 200);
    assert_false(combat(&d, d.p2).launched);
    assert_int_equal(combat(&d, d.p2).juggle, 0);
    fgt_duel_free(&d);
}

static void damage_scaling_over_a_five_hit_combo_matches_the_table(void **state) {
    (void)state;
    fg_combat_def c = fg_combat_def_default();
    c.nscaling = 4;
    const int32_t table[] = {100, 80, 60, 50};
    memcpy(c.scaling, table, sizeof table);
    fgt_duel d = fgt_duel_new(fgt_build(brawler(&c)), 60, NULL, NULL);
    int expect[] = {100, 80, 60, 50, 50}; /* the last entry repeats */
    int total = 0;
    for (int i = 0; i < 5; i++) {
        run_until_running(&d, d.p1, "idle", 20);
        int before = health(&d, d.p2);
        fgt_request(&d, d.p1, "jab");
        fgt_run(&d, 5);
        assert_int_equal(before - health(&d, d.p2), expect[i]);
        total += expect[i];
        assert_int_equal(combat(&d, d.p2).combo, i + 1);
    }
    assert_int_equal(combat(&d, d.p2).combo_damage, total);
    /* Once p2 recovers, the next hit starts a new combo at full damage. */
    run_until_running(&d, d.p2, "idle", 60);
    int before = health(&d, d.p2);
    fgt_request(&d, d.p1, "jab");
    fgt_run(&d, 5);
    assert_int_equal(before - health(&d, d.p2), 100);
    assert_int_equal(combat(&d, d.p2).combo, 1);
    fgt_duel_free(&d);
}

static void a_multi_hit_move_hits_at_its_interval(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_build(brawler(NULL)), 60, NULL, NULL);
    fgt_request(&d, d.p1, "multi");
    int hits_at[4] = {-1, -1, -1, -1}, n = 0;
    for (int t = 0; t < 20; t++) {
        fgt_run(&d, 1);
        for (uint32_t i = 0; i < fg_world_event_count(d.w); i++) {
            const fg_event *ev = fg_world_event_at(d.w, i);
            if (ev->kind == FG_EVENT_HIT && n < 4) hits_at[n++] = (int)ev->tick;
        }
    }
    assert_int_equal(n, 3);
    assert_int_equal(hits_at[1] - hits_at[0], 3);
    assert_int_equal(hits_at[2] - hits_at[1], 3);
    assert_int_equal(health(&d, d.p2), 970);
    fgt_duel_free(&d);
}

static void invulnerable_ticks_make_a_hit_whiff(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_build(brawler(NULL)), 60, NULL, NULL);
    fgt_request(&d, d.p2, "reversal");
    fgt_request(&d, d.p1, "jab");
    fgt_run(&d, 12);
    assert_int_equal(health(&d, d.p2), 1000);
    fgt_duel_free(&d);
    /* Past its invulnerable ticks (0..5) the same jab lands. */
    d = fgt_duel_new(fgt_build(brawler(NULL)), 60, NULL, NULL);
    fgt_request(&d, d.p2, "reversal");
    fgt_run(&d, 4);
    fgt_request(&d, d.p1, "jab"); /* its box lives on its ticks 3-4: p2's ticks 7-8 */
    fgt_run(&d, 6);
    assert_int_equal(health(&d, d.p2), 900);
    fgt_duel_free(&d);
}

/* }====================================================================== */

/* {====================================================================== trades, order */

static void simultaneous_jabs_trade(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_build(brawler(NULL)), 60, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    fgt_request(&d, d.p2, "jab");
    fgt_run(&d, 5);
    assert_int_equal(health(&d, d.p1), 900);
    assert_int_equal(health(&d, d.p2), 900);
    /* Each takes the other's whole hitstun (30 ticks), whichever side is applied first. */
    fgt_run(&d, 25);
    assert_string_equal(fgt_running(&d, d.p1, 0), "hitstun");
    assert_string_equal(fgt_running(&d, d.p2, 0), "hitstun");
    fgt_duel_free(&d);
}

static void under_the_priority_rule_the_higher_priority_wins_the_trade(void **state) {
    (void)state;
    fg_combat_def c = fg_combat_def_default();
    c.trade_priority = true;
    fgt_duel d = fgt_duel_new(fgt_build(brawler(&c)), 60, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    fgt_request(&d, d.p2, "heavy");
    fgt_run(&d, 5);
    assert_int_equal(health(&d, d.p1), 850); /* the heavy landed */
    assert_int_equal(health(&d, d.p2), 1000);
    char line[256];
    last_trace(&d, d.p2, FG_TRACE_MISS, line, sizeof line);
    assert_non_null(strstr(line, "missed by e1's jab: lost_trade"));
    fgt_duel_free(&d);
}

/* Two worlds with the same fighters spawned in the opposite order: the same contacts. */
static void contacts_do_not_depend_on_creation_order(void **state) {
    (void)state;
    fg_ruleset *r = fgt_build(brawler(NULL));
    int damage[2][2]; /* [world][role]: damage taken by the left and right fighter */
    fg_fx where[2][2];
    for (int order = 0; order < 2; order++) {
        fg_world_config c = fg_world_config_default();
        c.rules = r;
        fg_world *w = fg_world_create(&c, NULL);
        fg_spawn s;
        memset(&s, 0, sizeof s);
        s.grounded = true;
        fg_entity left = 0, right = 0;
        for (int k = 0; k < 2; k++) {
            bool is_left = (k == 0) == (order == 0);
            s.x = is_left ? FG_FX(-30) : FG_FX(30);
            s.facing = is_left ? FG_FACING_RIGHT : FG_FACING_LEFT;
            fg_entity e;
            assert_int_equal(fg_world_spawn(w, &s, &e, NULL), FG_OK);
            if (is_left) left = e;
            else right = e;
        }
        fg_world_request(w, left, (uint32_t)fg_ruleset_find_action(r, "jab"), FG_REQ_SCRIPT, NULL);
        fg_world_request(w, right, (uint32_t)fg_ruleset_find_action(r, "heavy"), FG_REQ_SCRIPT,
                         NULL);
        int n = 0;
        for (int t = 0; t < 6; t++) {
            fg_world_advance(w, NULL);
            for (uint32_t i = 0; i < fg_world_event_count(w); i++) {
                const fg_event *ev = fg_world_event_at(w, i);
                if (ev->kind != FG_EVENT_HIT) continue;
                int role = ev->target == left ? 0 : 1;
                damage[order][role] = ev->damage;
                where[order][role] = ev->x;
                n++;
            }
        }
        assert_int_equal(n, 2);
        fg_world_destroy(w);
    }
    assert_int_equal(damage[0][0], 150);
    assert_int_equal(damage[0][1], 100);
    assert_memory_equal(damage[0], damage[1], sizeof damage[0]);
    assert_memory_equal(where[0], where[1], sizeof where[0]);
    fg_ruleset_unref(r);
}

/* A third fighter on the ground at x (whole units), facing left. */
static fg_entity spawn_left_facing(fgt_duel *d, int x) {
    fg_spawn s;
    memset(&s, 0, sizeof s);
    s.grounded = true;
    s.x = FG_FX(x);
    s.facing = FG_FACING_LEFT;
    fg_entity e;
    assert_int_equal(fg_world_spawn(d->w, &s, &e, NULL), FG_OK);
    return e;
}

/* Teams: one swing hits every entity of the other team its box touches, never a teammate. */
static void a_box_hits_every_enemy_it_touches_and_no_teammate(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_build(brawler(NULL)), 60, NULL, NULL);
    fg_entity p3 = spawn_left_facing(&d, 30);
    fg_entity p4 = spawn_left_facing(&d, -60); /* behind p1: out of the jab's reach */
    fg_world_set_team(d.w, d.p1, 1, NULL);
    fg_world_set_team(d.w, d.p2, 2, NULL);
    fg_world_set_team(d.w, p3, 2, NULL);
    fg_world_set_team(d.w, p4, 2, NULL);
    fgt_request(&d, d.p2, "jab"); /* p2 and p3 are teammates: p2's jab must not touch p3 */
    fgt_request(&d, d.p1, "jab");
    fgt_run(&d, 5);
    int hp = fg_ruleset_find_resource(d.r, "health");
    assert_int_equal(fg_world_resource(d.w, p3, (uint32_t)hp), 900);   /* hit by p1 */
    assert_int_equal(fg_world_resource(d.w, d.p2, (uint32_t)hp), 900); /* hit by p1 */
    assert_int_equal(fg_world_resource(d.w, p4, (uint32_t)hp), 1000);  /* out of reach */
    assert_int_equal(health(&d, d.p1), 900);                            /* p2's jab traded */
    fgt_duel_free(&d);
}

/* Teams given after the world has played without any, and teams brought back by a restore into
** a world that has played without them since: the next swing still finds every enemy (the tick
** reads no team while none is set, and looks again after a team is set or a state restored). */
static void teams_set_or_restored_later_are_seen_by_the_next_swing(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_build(brawler(NULL)), 60, NULL, NULL);
    fg_entity p3 = spawn_left_facing(&d, 30);
    int hp = fg_ruleset_find_resource(d.r, "health");
    fgt_run(&d, 3); /* no team yet */
    fg_world_set_team(d.w, d.p1, 1, NULL);
    fg_world_set_team(d.w, p3, 2, NULL);
    size_t size = fg_world_snapshot_size(d.w);
    unsigned char *snap = malloc(size);
    assert_int_equal(fg_world_save(d.w, snap, size, NULL), FG_OK);
    fgt_request(&d, d.p1, "jab");
    fgt_run(&d, 5);
    assert_int_equal(fg_world_resource(d.w, p3, (uint32_t)hp), 900); /* hit: not p1's opponent */
    /* Back to the state with teams, from a world that played a while without any. */
    fg_world_set_team(d.w, d.p1, 0, NULL);
    fg_world_set_team(d.w, p3, 0, NULL);
    fgt_run(&d, 3);
    assert_int_equal(fg_world_restore(d.w, snap, size, NULL), FG_OK);
    assert_int_equal(fg_world_resource(d.w, p3, (uint32_t)hp), 1000);
    fgt_request(&d, d.p1, "jab");
    fgt_run(&d, 5);
    assert_int_equal(fg_world_resource(d.w, p3, (uint32_t)hp), 900);
    free(snap);
    fgt_duel_free(&d);
}

/* A world whose rules had no hit or throw box (the `range` shorthand) looks for them once a
** reload brings some: placing skips that walk only while no version of the world's rules has
** such a box. */
static void a_reload_that_brings_hit_boxes_makes_them_hit(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), 60, NULL, NULL);
    fgt_run(&d, 2);
    fg_ruleset_builder *b = fgt_fighter_builder(NULL);
    fg_action_def a = fgt_action("box_jab", 3, 2, 6);
    add_box(&a, FG_BOX_HIT, 3, 4, px_box(0, 0, 100, 100));
    a.hit = strike(100, 0, 30, 8);
    fgt_add(b, &a);
    fg_ruleset *boxed = fgt_build(b);
    fg_error err;
    assert_int_equal(fg_world_replace_rules(d.w, 0, boxed, &err), FG_OK);
    assert_int_equal(fg_world_request(d.w, d.p1, fgt_id(boxed, "box_jab"), FG_REQ_AI, &err),
                     FG_OK);
    fgt_run(&d, 6);
    int hp = fg_ruleset_find_resource(boxed, "health");
    assert_int_equal(fg_world_resource(d.w, d.p2, (uint32_t)hp), 900);
    fg_ruleset_unref(boxed);
    fgt_duel_free(&d);
}

/* }====================================================================== */

/* {====================================================================== throws */

/* Grabs p2 and presses the tech `after` ticks after the grab tick; returns p2's health. */
static int grab_and_tech(int after, fg_trace_record *last) {
    fgt_duel d = fgt_duel_new(fgt_build(brawler(NULL)), 40, NULL, NULL);
    fgt_request(&d, d.p1, "grab");
    fg_tick grab = -1;
    for (int i = 0; i < 10 && grab < 0; i++) {
        fgt_run(&d, 1);
        if (combat(&d, d.p2).grabbed_by == d.p1) grab = fg_world_tick(d.w) - 1;
    }
    assert_true(grab >= 0);
    assert_string_equal(fgt_running(&d, d.p2, 0), "thrown");
    /* The press lands on tick grab + after. */
    while (fg_world_tick(d.w) < grab + after) fgt_run(&d, 1);
    int hk = fg_world_action_id(d.w, "HK");
    int64_t us = fg_us_of_tick(fg_world_tick(d.w), fg_world_tick_rate(d.w));
    assert_int_equal(fg_world_press(d.w, d.p2, hk, us, FG_SOURCE_SCRIPT, NULL), FG_OK);
    fgt_run(&d, 3);
    memset(last, 0, sizeof *last);
    for (uint32_t i = 0; i < fg_world_trace_count(d.w); i++) {
        const fg_trace_record *r = fg_world_trace_at(d.w, i);
        if (r->kind == FG_TRACE_THROW && r->entity == d.p2) *last = *r;
    }
    int h = health(&d, d.p2);
    fgt_duel_free(&d);
    return h;
}

static void a_throw_is_teched_on_the_windows_last_tick_and_lands_one_past_it(void **state) {
    (void)state;
    fg_trace_record r;
    assert_int_equal(grab_and_tech(7, &r), 1000); /* window: the 7 ticks after the grab */
    assert_int_equal(r.code, FG_THROW_TECHED);
    assert_int_equal(grab_and_tech(8, &r), 880);
    assert_int_equal(r.code, FG_THROW_LANDED);
    assert_int_equal(grab_and_tech(1, &r), 1000);
    assert_int_equal(r.code, FG_THROW_TECHED);
}

static void a_throw_misses_a_target_in_a_stun(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_build(brawler(NULL)), 40, NULL, NULL);
    fgt_request(&d, d.p2, "jab");
    fgt_run(&d, 5); /* p1 is in hitstun now */
    assert_string_equal(fgt_running(&d, d.p1, 0), "hitstun");
    run_until_running(&d, d.p2, "idle", 20);
    assert_string_equal(fgt_running(&d, d.p1, 0), "hitstun");
    fgt_request(&d, d.p2, "grab");
    run_until_running(&d, d.p2, "grab", 20);
    fgt_run(&d, 4);
    assert_int_equal(combat(&d, d.p1).grabbed_by, 0);
    fgt_duel_free(&d);
}

/* }====================================================================== */

/* {====================================================================== validation */

static void expect_finding(fg_ruleset_builder *b, const char *path, const char *msg) {
    fg_findings *f = fgt_findings();
    fg_ruleset *r = fg_ruleset_build(b, f, NULL);
    fg_ruleset_builder_destroy(b);
    assert_null(r);
    bool found = false;
    for (uint32_t i = 0; i < fg_findings_count(f) && !found; i++)
        found = !strcmp(fg_findings_get(f, i).path, path) &&
                !strcmp(fg_findings_get(f, i).message, msg);
    for (uint32_t i = 0; i < fg_findings_count(f) && !found; i++)
        print_message("%s: %s\n", fg_findings_get(f, i).path, fg_findings_get(f, i).message);
    fg_findings_destroy(f);
    if (!found) fail_msg("no finding %s: %s", path, msg);
}

static void box_mistakes_name_the_path_and_the_value(void **state) {
    (void)state;
    fg_ruleset_builder *b = brawler(NULL);
    fg_action_def a = fgt_action("bad", 3, 2, 8); /* 13 ticks */
    add_box(&a, FG_BOX_HIT, 3, 13, px_box(0, 0, 10, 10));
    a.hit = strike(10, 0, 10, 10);
    fgt_add(b, &a);
    expect_finding(b, "actions.bad.boxes[1].to", "13 is past the end of bad (13 ticks)");

    b = brawler(NULL);
    a = fgt_action("bad", 3, 2, 8);
    add_box(&a, FG_BOX_HURT, 0, 5, px_box(0, 0, -5, 10));
    fgt_add(b, &a);
    expect_finding(b, "actions.bad.boxes[1].w", "-5, expected a size >= 0");

    b = brawler(NULL);
    a = fgt_action("bad", 3, 2, 8);
    add_box(&a, FG_BOX_HIT, 3, 4, px_box(0, 0, 5, 10));
    fgt_add(b, &a);
    expect_finding(b, "actions.bad.boxes[1]", "a hit box needs a hit definition (actions.bad.hit)");

    b = brawler(NULL);
    a = fgt_action("bad", 3, 2, 8);
    add_box(&a, FG_BOX_THROW, 3, 4, px_box(0, 0, 5, 10));
    fgt_add(b, &a);
    expect_finding(b, "actions.bad.boxes[1]",
                   "a throw box needs a throw definition (actions.bad.throw)");

    b = brawler(NULL);
    a = fgt_action("bad", 3, 2, 8);
    add_box(&a, FG_BOX_HIT, 3, 4, px_box(0, 0, 5, 10));
    a.hit = strike(10, 0, 10, 10);
    snprintf(a.hit.reaction, sizeof a.hit.reaction, "lanched");
    fgt_add(b, &a);
    expect_finding(b, "actions.bad.hit.reaction", "'lanched' is not an action");

    b = brawler(NULL);
    a = fgt_action("bad", 3, 2, 8);
    a.ninvuln = 1;
    a.invuln[0] = (fg_invuln_def){-1, 4, true, false};
    fgt_add(b, &a);
    expect_finding(b, "actions.bad.invulnerable[1].from", "-1, expected a tick >= 0");

    b = brawler(NULL);
    fg_ruleset_add_default_box(b, "crouched", FG_BOX_HURT, px_box(0, 0, 1, 1), NULL);
    expect_finding(b, "boxes.crouched", "'crouched' is not a state group (groups: grounded, "
                   "airborne, or one an action declares)");

    fg_error err;
    b = brawler(NULL);
    assert_int_equal(fg_ruleset_add_default_box(b, NULL, FG_BOX_PUSH, px_box(0, 0, 3, -1), &err),
                     FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "boxes.default.push.h: -1, expected a size >= 0");
    fg_ruleset_builder_destroy(b);
}

/* }====================================================================== */

/* {====================================================================== sync test */

/* A duel with a launcher and its juggle, a teched throw, a landed throw and a trade, under the
** sync test at every distance 1..8 (every tick rolled back that far and re-simulated): the hashes
** never diverge. */
static void launches_juggles_and_throws_survive_rollback_at_every_distance(void **state) {
    (void)state;
    for (uint32_t check = 1; check <= FG_SYNCTEST_MAX_CHECK; check++) {
        fg_combat_def c = fg_combat_def_default();
        c.juggle_limit = 3;
        fgt_duel d = fgt_duel_new(fgt_build(brawler(&c)), 60, NULL, NULL);
        fg_synctest_config cfg = fg_synctest_config_default();
        cfg.check = check;
        fg_synctest *st = NULL;
        fg_error err;
        assert_int_equal(fg_synctest_create(d.w, &cfg, &st, &err), FG_OK);
        struct { int tick; int who; const char *action; } script[] = {
            {0, 1, "launcher"}, {16, 1, "poke"},  {20, 1, "poke"},   {24, 1, "poke"},
            {28, 1, "poke"},    {80, 1, "jab"},   {80, 2, "heavy"},  {140, 1, "grab"},
            {200, 1, "grab"},   {207, 2, "grab"}, {260, 2, "multi"},
        };
        int max_combo = 0, grabs = 0, misses = 0;
        for (int t = 0; t < 300; t++) {
            for (size_t i = 0; i < sizeof script / sizeof script[0]; i++)
                if (script[i].tick == t)
                    assert_int_equal(fg_world_request(d.w, script[i].who == 1 ? d.p1 : d.p2,
                                                      fgt_id(d.r, script[i].action),
                                                      FG_REQ_SCRIPT, &err), FG_OK);
            if (fg_synctest_advance(st, &err) != FG_OK) {
                char line[512];
                fg_synctest_report_format(fg_synctest_last_report(st), line, sizeof line);
                fail_msg("distance %u, tick %d: %s\n%s", check, t, fg_error_message(&err), line);
            }
            fg_combat_view v = combat(&d, d.p2);
            if (v.combo > max_combo) max_combo = v.combo;
            for (uint32_t i = 0; i < fg_world_event_count(d.w); i++) {
                misses += fg_world_event_at(d.w, i)->miss != 0;
                grabs += fg_world_event_at(d.w, i)->kind == FG_EVENT_THROW;
            }
        }
        assert_true(fg_synctest_get_stats(st).compared > 250);
        assert_int_equal(max_combo, 4); /* the launcher and three pokes: the fourth misses */
        assert_int_equal(misses, 1);
        assert_int_equal(grabs, 2); /* the first landed (120 damage), the second teched */
        assert_true(health(&d, d.p2) <= 1000 - 80 - 3 * 20 - 100 - 120);
        fg_synctest_destroy(st);
        fgt_duel_free(&d);
    }
}

/* }====================================================================== */

/* {====================================================================== allocation */

static void ticks_with_live_boxes_allocate_nothing(void **state) {
    (void)state;
    fg_counting_allocator ca;
    fg_allocator a = fg_test_counting_allocator(&ca);
    fgt_duel d = fgt_duel_new(fgt_build(brawler(NULL)), 60, NULL, &a);
    fgt_run(&d, 2);
    size_t before = ca.allocations;
    const char *moves[] = {"jab", "multi", "launcher", "poke", "grab", "low"};
    for (int i = 0; i < 60; i++) {
        if (i % 10 == 0) fgt_request(&d, d.p1, moves[(i / 10) % 6]);
        if (i % 10 == 5) fgt_request(&d, d.p2, moves[(i / 10 + 2) % 6]);
        fgt_run(&d, 1);
    }
    assert_int_equal(ca.allocations, before);
    assert_true(health(&d, d.p1) + health(&d, d.p2) < 2000); /* something landed */
    fgt_duel_free(&d);
}

/* }====================================================================== */

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_crossup_hits_from_the_other_side),
        cmocka_unit_test(a_low_is_blocked_crouching_and_hits_standing),
        cmocka_unit_test(an_overhead_is_blocked_standing_and_hits_crouching),
        cmocka_unit_test(a_high_box_whiffs_over_a_crouching_hurt_box),
        cmocka_unit_test(a_launcher_juggles_until_the_limit_with_the_reason_in_the_trace),
        cmocka_unit_test(damage_scaling_over_a_five_hit_combo_matches_the_table),
        cmocka_unit_test(a_multi_hit_move_hits_at_its_interval),
        cmocka_unit_test(invulnerable_ticks_make_a_hit_whiff),
        cmocka_unit_test(simultaneous_jabs_trade),
        cmocka_unit_test(under_the_priority_rule_the_higher_priority_wins_the_trade),
        cmocka_unit_test(contacts_do_not_depend_on_creation_order),
        cmocka_unit_test(a_box_hits_every_enemy_it_touches_and_no_teammate),
        cmocka_unit_test(teams_set_or_restored_later_are_seen_by_the_next_swing),
        cmocka_unit_test(a_reload_that_brings_hit_boxes_makes_them_hit),
        cmocka_unit_test(a_throw_is_teched_on_the_windows_last_tick_and_lands_one_past_it),
        cmocka_unit_test(a_throw_misses_a_target_in_a_stun),
        cmocka_unit_test(box_mistakes_name_the_path_and_the_value),
        cmocka_unit_test(launches_juggles_and_throws_survive_rollback_at_every_distance),
        cmocka_unit_test(ticks_with_live_boxes_allocate_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
