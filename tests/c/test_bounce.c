/* SPDX-License-Identifier: MIT */
/*
** test_bounce.c: wall and ground bounces through the C builder and the real tick. A launched
** target bounces off the wall once with the declared velocity (and hits the other wall later
** without bouncing again), off the ground once instead of landing, not at all when nothing is
** declared; a later hit replaces what an earlier one armed; combat.bounce_limit refuses a
** bounce past it until the combo ends; the validator names each bad value;
** a reload report names the fields; a snapshot taken mid-bounce restores to the same hashes, the
** sync test rolls back through bounces at every distance, a restore refuses a damaged bounce
** state by name, and every byte of an armed bounce state moves the hash exactly when the field
** diff says a hashed field changed. Nothing allocates per tick.
*/
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/src/internal.h"
#include "../../runtime/src/snapshot.h"
#include "framegate/determinism.h"
#include "rules_fixture.h"
#include "snapshot_flip.h"

static fg_box px_box(int x, int y, int w, int h) {
    return (fg_box){FG_FX(x), FG_FX(y), FG_FX(w), FG_FX(h)};
}

static fg_bounce_def bounce_def(int vx, int vy, int stun) {
    return (fg_bounce_def){true, FG_FX(vx), FG_FX(vy), stun};
}

/* A tall hit box 20..80 in front that launches: vx, vy pixels per tick. */
static fg_action_def launcher(const char *name, int vx, int vy) {
    fg_action_def a = fgt_action(name, 3, 2, 10);
    a.boxes[a.nboxes++] = (fg_box_def){FG_BOX_HIT, 3, 4, px_box(20, 0, 60, 140), 0};
    memset(&a.hit, 0, sizeof a.hit);
    a.hit.enabled = true;
    a.hit.damage = 50;
    a.hit.hitstun = 20;
    a.hit.launch_vx = FG_FX(vx);
    a.hit.launch_vy = FG_FX(vy);
    snprintf(a.hit.reaction, sizeof a.hit.reaction, "launched");
    a.hit.knockdown = FG_KNOCKDOWN_SOFT;
    return a;
}

/* The bouncer: no bodies pushing (min_gap 0, no push boxes), walls at -100 and 100, gravity
** half a pixel per tick.
**   wallblast  launch 8, 6; wall bounce 10, 10, stun 60
**   slam       launch 2, 6; ground bounce 3, 5, stun 25
**   both       launch 8, 6; wall bounce 4, 3 (stun: the hitstun); ground bounce 2, 6, stun 30
**   plain      launch 8, 6, no bounce
**   poke       a juggle hit everywhere in front, no launch, no bounce */
static fg_ruleset_builder *bouncer_limited(int bounce_limit) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("bouncer", NULL);
    fg_combat_def combat = fg_combat_def_default();
    combat.bounce_limit = bounce_limit;
    fg_ruleset_set_combat(b, &combat);
    const char *buttons[] = {"LP", "HP"};
    for (int i = 0; i < 2; i++) fg_ruleset_add_button(b, buttons[i], NULL);
    fgt_resource(b, "health", 1000, 1000);
    fg_physics_def p = fg_physics_def_default();
    p.min_gap = 0;
    p.stage_min = FG_FX(-100);
    p.stage_max = FG_FX(100);
    fg_ruleset_set_physics(b, &p);
    assert_int_equal(fg_ruleset_add_default_box(b, NULL, FG_BOX_HURT, px_box(-20, 0, 40, 100),
                                                NULL), FG_OK);
    fg_action_def a = fgt_neutral("idle", 0);
    fgt_add(b, &a);
    a = fgt_action("hitstun", 0, 0, 1);
    fgt_add(b, &a);
    a = fgt_action("blockstun", 0, 0, 1);
    fgt_add(b, &a);
    a = fgt_action("launched", 0, 0, 120);
    snprintf(a.group, sizeof a.group, "airborne");
    a.interrupts = true;
    fgt_add(b, &a);
    a = fgt_action("knockdown", 0, 0, 1);
    fgt_add(b, &a);
    a = launcher("wallblast", 8, 6);
    a.hit.wall_bounce = bounce_def(10, 10, 60);
    fgt_add(b, &a);
    a = launcher("slam", 2, 6);
    a.hit.ground_bounce = bounce_def(3, 5, 25);
    fgt_add(b, &a);
    a = launcher("both", 8, 6);
    a.hit.wall_bounce = bounce_def(4, 3, 0);
    a.hit.ground_bounce = bounce_def(2, 6, 30);
    fgt_add(b, &a);
    a = launcher("plain", 8, 6);
    fgt_add(b, &a);
    a = fgt_action("poke", 1, 1, 1);
    a.boxes[a.nboxes++] = (fg_box_def){FG_BOX_HIT, 1, 1, px_box(0, 0, 200, 400), 0};
    memset(&a.hit, 0, sizeof a.hit);
    a.hit.enabled = true;
    a.hit.damage = 10;
    a.hit.hitstun = 20;
    snprintf(a.hit.air_reaction, sizeof a.hit.air_reaction, "launched");
    fgt_add(b, &a);
    return b;
}

static fg_ruleset_builder *bouncer(void) { return bouncer_limited(0); }

/* p1 at x1 facing right, p2 at x2 facing left. */
static fgt_duel placed(int x1, int x2, const fg_allocator *alloc) {
    fgt_duel d = fgt_duel_new(fgt_build(bouncer()), 60, NULL, alloc);
    assert_int_equal(fg_world_set_position(d.w, d.p1, FG_FX(x1), 0, NULL), FG_OK);
    assert_int_equal(fg_world_set_position(d.w, d.p2, FG_FX(x2), 0, NULL), FG_OK);
    return d;
}

static fg_fx pos_x(const fgt_duel *d, fg_entity e) {
    fg_fx x, y;
    fg_world_position(d->w, e, &x, &y);
    return x;
}

static fg_fx pos_y(const fgt_duel *d, fg_entity e) {
    fg_fx x, y;
    fg_world_position(d->w, e, &x, &y);
    return y;
}

static fg_combat_view combat(const fgt_duel *d, fg_entity e) {
    fg_combat_view v;
    assert_int_equal(fg_world_combat(d->w, e, &v, NULL), FG_OK);
    return v;
}

/* The bounce events of the last tick (at most one expected): its kind, or 0. */
static const fg_event *bounce_event(const fgt_duel *d) {
    const fg_event *found = NULL;
    for (uint32_t i = 0; i < fg_world_event_count(d->w); i++) {
        const fg_event *ev = fg_world_event_at(d->w, i);
        if (ev->kind != FG_EVENT_BOUNCE) continue;
        assert_null(found);
        found = ev;
    }
    return found;
}

/* The last trace line of a kind, formatted ("" when there is none). */
static const char *last_line(const fgt_duel *d, fg_trace_kind kind, char *buf, size_t size) {
    buf[0] = '\0';
    for (uint32_t i = 0; i < fg_world_trace_count(d->w); i++) {
        const fg_trace_record *r = fg_world_trace_at(d->w, i);
        if (r->kind == kind) fg_world_trace_format(d->w, r, buf, size);
    }
    return buf;
}

/* {====================================================================== bounces */

/* wallblast from 40 on a target at 80: the target flies at 8 px/tick, is stopped by the wall at
** 100 and bounces back at exactly 10 px/tick, 10 up, in its reaction again for 60 ticks. It
** crosses the stage and meets the other wall: no second bounce, it stays there and lands. */
static void a_launched_target_bounces_off_the_wall_once_with_the_declared_velocity(void **state) {
    (void)state;
    fgt_duel d = placed(40, 80, NULL);
    fgt_request(&d, d.p1, "wallblast");
    int bounces = 0;
    fg_tick bounced_at = -1;
    fg_fx bx = 0, by = 0;
    char line[256];
    for (int t = 0; t < 120; t++) {
        fgt_run(&d, 1);
        const fg_event *ev = bounce_event(&d);
        if (!ev) continue;
        bounces++;
        bounced_at = ev->tick;
        assert_int_equal(ev->bounce, FG_BOUNCE_WALL);
        assert_int_equal(ev->entity, d.p2);
        assert_int_equal(ev->target, d.p1);
        assert_int_equal(ev->x, FG_FX(100));
        assert_int_equal(ev->combo, 1);
        /* The event belongs to the reaction the bounce started. */
        assert_int_equal(ev->seq, d.w->entities[d.p2 - 1].layers[0].seq);
        assert_int_equal(ev->seq, 3); /* idle, the hit's launched, the bounce's launched */
        bx = pos_x(&d, d.p2);
        by = pos_y(&d, d.p2);
        assert_int_equal(bx, FG_FX(100));
        assert_false(combat(&d, d.p2).wall_bounce); /* used up */
        assert_true(combat(&d, d.p2).launched);
        assert_string_equal(fgt_running(&d, d.p2, 0), "launched");
        /* Off the wall: 10 px/tick back, vy 10 less gravity (0.5) on the next tick. */
        fgt_run(&d, 1);
        assert_int_equal(pos_x(&d, d.p2), bx - FG_FX(10));
        assert_int_equal(pos_y(&d, d.p2), by + FG_FX(19) / 2);
        fgt_run(&d, 1);
        assert_int_equal(pos_x(&d, d.p2), bx - FG_FX(20));
        assert_int_equal(pos_y(&d, d.p2), by + FG_FX(19) / 2 + FG_FX(9));
        t += 2;
    }
    assert_int_equal(bounces, 1);
    /* The hit on tick 3 moves it that tick: 88, then 96, then stopped at 100 on tick 5. */
    assert_int_equal(bounced_at, 5);
    assert_string_equal(last_line(&d, FG_TRACE_BOUNCE, line, sizeof line),
                        "t=5 e2 wall bounce at x 100 (armed by e1): vx 10, vy 10, stun 60");
    /* The other wall stopped it without a bounce; it landed and got up. */
    assert_int_equal(pos_x(&d, d.p2), FG_FX(-100));
    assert_int_equal(pos_y(&d, d.p2), 0);
    fg_combat_view v = combat(&d, d.p2);
    assert_false(v.launched);
    assert_false(v.wall_bounce || v.ground_bounce);
    fgt_duel_free(&d);
}

/* The reaction starts again at the bounce with the declared stun: a transition traced as
** "bounced", and the reaction's length is the stun. */
static void the_bounce_starts_the_reaction_again_for_its_stun(void **state) {
    (void)state;
    fgt_duel d = placed(40, 80, NULL);
    fgt_request(&d, d.p1, "wallblast");
    fgt_run(&d, 6); /* ticks 0..5: the bounce on tick 5 */
    const fg_instance *body = &d.w->entities[d.p2 - 1].layers[0];
    assert_int_equal(body->started, 5);
    assert_int_equal(body->duration, 60);
    bool traced = false;
    char line[256];
    for (uint32_t i = 0; i < fg_world_trace_count(d.w); i++) {
        const fg_trace_record *r = fg_world_trace_at(d.w, i);
        if (r->kind != FG_TRACE_TRANSITION || r->code != FG_TR_BOUNCED) continue;
        fg_world_trace_format(d.w, r, line, sizeof line);
        assert_non_null(strstr(line, "launched -> launched (bounced"));
        traced = true;
    }
    assert_true(traced);
    fgt_duel_free(&d);
}

/* slam from -40 on a target at 0: it flies 2 px/tick away and would land on tick 25; it bounces
** instead, up at 5 and on at 3 px/tick, once; the next landing is a landing (the knockdown). */
static void a_launched_target_bounces_off_the_ground_once_instead_of_landing(void **state) {
    (void)state;
    fgt_duel d = placed(-40, 0, NULL);
    fgt_request(&d, d.p1, "slam");
    int bounces = 0, landings = 0;
    fg_tick bounced_at = -1, landed_at = -1;
    for (int t = 0; t < 100; t++) {
        bool was_launched = combat(&d, d.p2).launched;
        fgt_run(&d, 1);
        if (was_launched && !combat(&d, d.p2).launched) {
            landings++;
            landed_at = fg_world_tick(d.w) - 1;
        }
        const fg_event *ev = bounce_event(&d);
        if (!ev) continue;
        bounces++;
        bounced_at = ev->tick;
        assert_int_equal(ev->bounce, FG_BOUNCE_GROUND);
        assert_int_equal(ev->y, 0);
        assert_int_equal(fg_world_support(d.w, d.p2), FG_SUPPORT_NONE);
        fg_fx x0 = pos_x(&d, d.p2);
        assert_true(combat(&d, d.p2).launched);
        assert_false(combat(&d, d.p2).ground_bounce);
        fgt_run(&d, 1);
        assert_int_equal(pos_y(&d, d.p2), FG_FX(9) / 2); /* 5 - 0.5 */
        assert_int_equal(pos_x(&d, d.p2), x0 + FG_FX(3)); /* onward: away from p1 */
        t++;
    }
    assert_int_equal(bounces, 1);
    assert_int_equal(landings, 1);
    assert_true(landed_at > bounced_at);
    /* Up at 6 less 0.5 each tick from the hit's tick 3: 23 moves to the floor, ticks 3..25. */
    assert_int_equal(bounced_at, 25);
    /* The landing after the bounce is the one that knocks down. */
    assert_string_equal(fgt_running(&d, d.p2, 0), "idle");
    fgt_duel_free(&d);
}

/* A hit declaring both: off the wall first (4 back, 3 up, stun = the hit's hitstun, 20), then off
** the ground the way the wall sent it (2 px/tick toward -x, 6 up). */
static void a_wall_bounce_then_a_ground_bounce_go_the_way_the_wall_sent_it(void **state) {
    (void)state;
    fgt_duel d = placed(40, 80, NULL);
    fgt_request(&d, d.p1, "both");
    int kinds[4] = {0}, n = 0;
    for (int t = 0; t < 120 && n < 4; t++) {
        fgt_run(&d, 1);
        const fg_event *ev = bounce_event(&d);
        if (!ev) continue;
        kinds[n++] = ev->bounce;
        const fg_instance *body = &d.w->entities[d.p2 - 1].layers[0];
        assert_int_equal(body->duration, ev->bounce == FG_BOUNCE_WALL ? 20 : 30);
        if (ev->bounce != FG_BOUNCE_GROUND) continue;
        fg_fx x0 = pos_x(&d, d.p2);
        fgt_run(&d, 1);
        assert_int_equal(pos_x(&d, d.p2), x0 - FG_FX(2));
        assert_int_equal(pos_y(&d, d.p2), FG_FX(11) / 2);
    }
    assert_int_equal(n, 2);
    assert_int_equal(kinds[0], FG_BOUNCE_WALL);
    assert_int_equal(kinds[1], FG_BOUNCE_GROUND);
    fgt_duel_free(&d);
}

/* plain launches exactly like wallblast but declares nothing: pinned at the wall, no event, no
** bounce state, and its landing is an ordinary one. */
static void no_bounce_when_none_is_declared(void **state) {
    (void)state;
    fgt_duel d = placed(40, 80, NULL);
    fgt_request(&d, d.p1, "plain");
    int events = 0;
    for (int t = 0; t < 60; t++) {
        fgt_run(&d, 1);
        events += bounce_event(&d) != NULL;
        fg_combat_view v = combat(&d, d.p2);
        assert_false(v.wall_bounce || v.ground_bounce);
        fg_bounce_state zero;
        memset(&zero, 0, sizeof zero);
        assert_memory_equal(&d.w->entities[d.p2 - 1].combat.bounce, &zero, sizeof zero);
        if (t >= 6 && v.launched) assert_int_equal(pos_x(&d, d.p2), FG_FX(100));
    }
    assert_int_equal(events, 0);
    assert_false(combat(&d, d.p2).launched);
    fgt_duel_free(&d);
}

/* slam arms a ground bounce; a poke that lands before the landing declares none and replaces
** it: the target lands. */
static void a_later_hit_replaces_what_an_earlier_one_armed(void **state) {
    (void)state;
    fgt_duel d = placed(-40, 0, NULL);
    fgt_request(&d, d.p1, "slam");
    fgt_run(&d, 5);
    assert_true(combat(&d, d.p2).ground_bounce);
    fgt_run(&d, 10); /* slam's recovery ends on tick 14 */
    fgt_request(&d, d.p1, "poke");
    fgt_run(&d, 3);
    assert_int_equal(combat(&d, d.p2).combo, 2);
    assert_false(combat(&d, d.p2).ground_bounce);
    int events = 0;
    for (int t = 0; t < 60; t++) {
        fgt_run(&d, 1);
        events += bounce_event(&d) != NULL;
    }
    assert_int_equal(events, 0);
    assert_false(combat(&d, d.p2).launched);
    fgt_duel_free(&d);
}

/* combat.bounce_limit = 1: both's wall bounce uses the combo's one bounce, so its ground bounce is
** refused (traced with the numbers) and the target lands; once the combo is over, a new one
** bounces again. */
static void the_bounce_limit_refuses_a_bounce_past_it_until_the_combo_ends(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_build(bouncer_limited(1)), 60, NULL, NULL);
    fg_world_set_position(d.w, d.p1, FG_FX(40), 0, NULL);
    fg_world_set_position(d.w, d.p2, FG_FX(80), 0, NULL);
    fgt_request(&d, d.p1, "both");
    int bounces = 0, max_used = 0;
    for (int t = 0; t < 100; t++) {
        fgt_run(&d, 1);
        bounces += bounce_event(&d) != NULL;
        if (combat(&d, d.p2).bounces > max_used) max_used = combat(&d, d.p2).bounces;
    }
    assert_int_equal(bounces, 1);
    assert_int_equal(max_used, 1);
    char line[256];
    assert_non_null(strstr(last_line(&d, FG_TRACE_BOUNCE, line, sizeof line),
                           "ground bounce refused (armed by e1): bounce_limit (1 of 1 bounces "
                           "this combo)"));
    fg_combat_view v = combat(&d, d.p2);
    assert_false(v.launched || v.wall_bounce || v.ground_bounce);
    assert_int_equal(v.combo, 0); /* landed, got up: the combo is over */
    assert_int_equal(v.bounces, 0);
    /* A new combo: the wall bounce again. */
    fg_world_set_position(d.w, d.p1, FG_FX(40), 0, NULL);
    fg_world_set_position(d.w, d.p2, FG_FX(80), 0, NULL);
    fgt_request(&d, d.p1, "wallblast");
    for (int t = 0; t < 10; t++) {
        fgt_run(&d, 1);
        bounces += bounce_event(&d) != NULL;
    }
    assert_int_equal(bounces, 2);
    assert_int_equal(combat(&d, d.p2).bounces, 1);
    fgt_duel_free(&d);
}

/* }====================================================================== */

/* {====================================================================== data */

static void bounce_mistakes_name_the_path_and_the_value(void **state) {
    (void)state;
    fg_ruleset_builder *b = bouncer();
    fg_action_def a = launcher("bad", 8, 6);
    a.hit.wall_bounce = bounce_def(-2, 5, 0);
    a.hit.ground_bounce = bounce_def(1, 0, 700);
    fgt_add(b, &a);
    a = launcher("sloppy", 8, 6);
    a.hit.wall_bounce.vx = FG_FX(3); /* not enabled */
    fgt_add(b, &a);
    fg_findings *f = fgt_findings();
    fg_error err;
    assert_null(fg_ruleset_build(b, f, &err));
    char all[2048] = "";
    for (uint32_t i = 0; i < fg_findings_count(f); i++) {
        fg_finding x = fg_findings_get(f, i);
        snprintf(all + strlen(all), sizeof all - strlen(all), "%s: %s\n", x.path, x.message);
    }
    assert_non_null(strstr(all, "actions.bad.hit.wall_bounce.vx: -2, expected 0..4096 (pixels "
                                "per tick away from the wall)"));
    assert_non_null(strstr(all, "actions.bad.hit.ground_bounce.vy: 0, expected more than 0, up "
                                "to 4096 (pixels per tick up: it leaves the ground)"));
    assert_non_null(strstr(all, "actions.bad.hit.ground_bounce.stun: 700, expected 0..600 ticks "
                                "(0: the hit's hitstun)"));
    assert_non_null(strstr(all, "actions.sloppy.hit.wall_bounce: vx, vy or stun set but enabled "
                                "is false"));
    fg_findings_destroy(f);
    fg_ruleset_builder_destroy(b);
    b = bouncer_limited(101);
    f = fgt_findings();
    assert_null(fg_ruleset_build(b, f, &err));
    assert_string_equal(fg_findings_get(f, 0).path, "combat.bounce_limit");
    assert_string_equal(fg_findings_get(f, 0).message, "101, expected 0..100");
    fg_findings_destroy(f);
    fg_ruleset_builder_destroy(b);
}

static void collect(void *ud, const char *path) {
    char *text = ud;
    size_t len = strlen(text);
    snprintf(text + len, 256 - len, "%s%s", len ? " " : "", path);
}

/* A reload report names each bounce field as a designer writes it. */
static void a_reload_report_names_the_bounce_fields(void **state) {
    (void)state;
    fg_action_def a = launcher("wallblast", 8, 6), b = a;
    char text[256] = "";
    b.hit.wall_bounce = bounce_def(10, 10, 60);
    fg_action_diff(&a, &b, collect, text);
    assert_string_equal(text, "hit.wall_bounce hit.wall_bounce.vx hit.wall_bounce.vy "
                              "hit.wall_bounce.stun");
    a = b;
    b.hit.wall_bounce.vy = FG_FX(9);
    b.hit.ground_bounce = bounce_def(0, 4, 0);
    text[0] = '\0';
    fg_action_diff(&a, &b, collect, text);
    assert_string_equal(text, "hit.wall_bounce.vy hit.ground_bounce hit.ground_bounce.vy");
}

/* Declaring a bounce changes the ruleset's content hash; the same rules without one hash as
** they did (what replays record). */
static void only_a_declared_bounce_changes_the_content_hash(void **state) {
    (void)state;
    fg_ruleset_builder *b1 = bouncer(), *b2 = bouncer();
    fg_action_def a = launcher("extra", 8, 6);
    fgt_add(b1, &a);
    a.hit.wall_bounce = bounce_def(1, 1, 1);
    fgt_add(b2, &a);
    fg_ruleset *r1 = fgt_build(b1), *r2 = fgt_build(b2);
    assert_int_not_equal(fg_ruleset_hash(r1), fg_ruleset_hash(r2));
    fg_ruleset_unref(r1);
    fg_ruleset_unref(r2);
}

/* }====================================================================== */

/* {====================================================================== determinism */

/* Snapshots taken on every tick of a flight with both bounces (both armed, between the wall and
** the ground, after both): each restores (the restore's checks accept every state a tick makes)
** and replays the rest of the flight to the same hashes tick by tick. */
static void a_restore_in_the_middle_of_a_bounce_replays_it_to_the_same_hashes(void **state) {
    (void)state;
    fgt_duel d = placed(40, 80, NULL);
    fgt_request(&d, d.p1, "both");
    enum { TICKS = 70 };
    size_t size = fg_world_snapshot_size(d.w);
    unsigned char *snaps = malloc(size * TICKS);
    uint64_t hashes[TICKS];
    int bounces = 0, between = 0;
    for (int t = 0; t < TICKS; t++) {
        assert_int_equal(fg_world_save(d.w, snaps + size * (size_t)t, size, NULL), FG_OK);
        fgt_run(&d, 1);
        hashes[t] = fg_world_hash(d.w);
        bounces += bounce_event(&d) != NULL;
        fg_combat_view v = combat(&d, d.p2);
        between += !v.wall_bounce && v.ground_bounce;
    }
    assert_int_equal(bounces, 2);
    assert_true(between > 10);
    for (int from = 0; from < TICKS; from += 3) {
        fg_error err;
        if (fg_world_restore(d.w, snaps + size * (size_t)from, size, &err) != FG_OK)
            fail_msg("tick %d: %s", from, fg_error_message(&err));
        for (int t = from; t < TICKS; t++) {
            fgt_run(&d, 1);
            assert_int_equal(fg_world_hash(d.w), hashes[t]);
        }
    }
    free(snaps);
    fgt_duel_free(&d);
}

/* Every tick rolled back 1..8 ticks and re-simulated, through launches, wall and ground
** bounces and a juggle that replaces an armed bounce: the hashes never diverge. */
static void bounces_survive_rollback_at_every_distance(void **state) {
    (void)state;
    for (uint32_t check = 1; check <= FG_SYNCTEST_MAX_CHECK; check++) {
        fgt_duel d = placed(40, 80, NULL);
        fg_synctest_config cfg = fg_synctest_config_default();
        cfg.check = check;
        fg_synctest *st = NULL;
        fg_error err;
        assert_int_equal(fg_synctest_create(d.w, &cfg, &st, &err), FG_OK);
        struct { int tick; const char *action; } script[] = {
            {0, "both"}, {120, "wallblast"}, {240, "slam"}, {255, "poke"},
        };
        int bounces = 0;
        for (int t = 0; t < 320; t++) {
            for (size_t i = 0; i < sizeof script / sizeof script[0]; i++)
                if (script[i].tick == t)
                    assert_int_equal(fg_world_request(d.w, d.p1, fgt_id(d.r, script[i].action),
                                                      FG_REQ_SCRIPT, &err), FG_OK);
            if (t == 115 || t == 235) { /* back in place for the next launch */
                fg_world_set_position(d.w, d.p1, FG_FX(t == 115 ? 40 : -40), 0, NULL);
                fg_world_set_position(d.w, d.p2, FG_FX(t == 115 ? 80 : 0), 0, NULL);
            }
            if (fg_synctest_advance(st, &err) != FG_OK) {
                char line[512];
                fg_synctest_report_format(fg_synctest_last_report(st), line, sizeof line);
                fail_msg("distance %u, tick %d: %s\n%s", check, t, fg_error_message(&err), line);
            }
            for (uint32_t i = 0; i < fg_world_event_count(d.w); i++)
                bounces += fg_world_event_at(d.w, i)->kind == FG_EVENT_BOUNCE;
        }
        /* both: wall and ground; wallblast: wall; slam: replaced by the poke. */
        assert_int_equal(bounces, 3);
        assert_true(fg_synctest_get_stats(st).compared > 250);
        fg_synctest_destroy(st);
        fgt_duel_free(&d);
    }
}

/* Where e2's bounce state starts in a snapshot. */
static size_t bounce_at(const fg_world *w) {
    return sizeof(fg_snapshot_header) + fg_world_snapshot_bytes(w, 0) +
           sizeof(fg_entity_state) + offsetof(fg_entity_state, combat) +
           offsetof(fg_combat, bounce);
}

/* A restore refuses a bounce state no tick can make, naming the field, and changes nothing. */
static void a_restore_refuses_a_damaged_bounce_state_by_name(void **state) {
    (void)state;
    fgt_duel d = placed(40, 80, NULL);
    fgt_request(&d, d.p1, "both");
    fgt_run(&d, 5);
    size_t size = fg_world_snapshot_size(d.w);
    unsigned char *orig = malloc(size), *bad = malloc(size);
    assert_int_equal(fg_world_save(d.w, orig, size, NULL), FG_OK);
    uint64_t h0 = fg_world_hash(d.w);
    size_t at = bounce_at(d.w);
    struct {
        size_t off;
        int32_t value;
        size_t bytes;
        const char *field;
    } cases[] = {
        {offsetof(fg_bounce_state, armed), 7, 1, "e2.combat.bounce.armed"},
        {offsetof(fg_bounce_state, side), 3, 1, "e2.combat.bounce.side"},
        {offsetof(fg_bounce_state, by), 9, 4, "e2.combat.bounce.by"},
        {offsetof(fg_bounce_state, wall_vx), -FG_FX(1), 4, "e2.combat.bounce.wall_vx"},
        {offsetof(fg_bounce_state, ground_vy), 0, 4, "e2.combat.bounce.ground_vy"},
        {offsetof(fg_bounce_state, wall_stun), 601, 4, "e2.combat.bounce.wall_stun"},
        {offsetof(fg_bounce_state, used), 101, 1, "e2.combat.bounce.used"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(bad, orig, size);
        memcpy(bad + at + cases[i].off, &cases[i].value, cases[i].bytes);
        fgt_reseal(bad);
        fg_error err;
        assert_int_not_equal(fg_world_restore(d.w, bad, size, &err), FG_OK);
        if (!strstr(fg_error_message(&err), cases[i].field))
            fail_msg("case %zu: '%s' does not name %s", i, fg_error_message(&err),
                     cases[i].field);
        assert_int_equal(fg_world_hash(d.w), h0);
    }
    /* A bounce armed on a target that is not launched. */
    memcpy(bad, orig, size);
    bad[sizeof(fg_snapshot_header) + fg_world_snapshot_bytes(d.w, 0) + sizeof(fg_entity_state) +
        offsetof(fg_entity_state, combat) + offsetof(fg_combat, launched)] = 0;
    fgt_reseal(bad);
    fg_error err;
    assert_int_not_equal(fg_world_restore(d.w, bad, size, &err), FG_OK);
    assert_non_null(strstr(fg_error_message(&err), "e2.combat.bounce.armed"));
    assert_int_equal(fg_world_hash(d.w), h0);
    free(orig);
    free(bad);
    fgt_duel_free(&d);
}

/* Every byte of e2's armed bounce state, flipped: the hash changes exactly when the field diff
** names a hashed field, and a value no tick can make is refused. Every field of it moves the
** hash. */
static void the_hash_covers_every_byte_of_an_armed_bounce(void **state) {
    (void)state;
    fgt_duel d = placed(40, 80, NULL);
    fgt_request(&d, d.p1, "both");
    fgt_run(&d, 5);
    size_t size = fg_world_snapshot_size(d.w);
    unsigned char *orig = malloc(size), *flip = malloc(size);
    assert_int_equal(fg_world_save(d.w, orig, size, NULL), FG_OK);
    uint64_t h0 = fg_world_hash(d.w);
    size_t at = bounce_at(d.w), changed = 0, refused = 0;
    char what[64];
    for (size_t k = 0; k < sizeof(fg_bounce_state); k++) {
        snprintf(what, sizeof what, "bounce byte %zu", k);
        fgt_flip r = fgt_flip_byte(d.w, orig, flip, size, at + k, 0xA5, h0, what);
        changed += r == FGT_FLIP_CHANGED;
        refused += r == FGT_FLIP_REFUSED;
    }
    print_message("%zu bounce bytes: %zu moved the hash, %zu refused\n", sizeof(fg_bounce_state),
                  changed, refused);
    /* armed, side, by (4 bytes), six 4-byte values, all in use: at least a byte of each. */
    assert_true(changed >= 3 + 6);
    free(orig);
    free(flip);
    fgt_duel_free(&d);
}

/* A world in which nothing is armed hashes its combat state as before bounces existed: an
** unarmed bounce state gives the fold no words; an armed one gives its words, which its fields
** change. */
static void an_unarmed_bounce_state_adds_nothing_to_the_fold(void **state) {
    (void)state;
    fg_combat c;
    memset(&c, 0, sizeof c);
    c.team = 3;
    c.combo = 2;
    uint64_t a[FG_BOUNCE_WORDS] = {0}, b[FG_BOUNCE_WORDS] = {0};
    assert_int_equal(fg_bounce_words(&c.bounce, a), 0);
    c.bounce.armed = 1;
    c.bounce.side = 1;
    c.bounce.by = 1;
    assert_int_equal(fg_bounce_words(&c.bounce, a), FG_BOUNCE_WORDS);
    c.bounce.by = 2;
    assert_int_equal(fg_bounce_words(&c.bounce, b), FG_BOUNCE_WORDS);
    assert_true(a[0] != b[0]);
    c.bounce.armed = 0;
    assert_int_equal(fg_bounce_words(&c.bounce, b), 0);
}

static void bouncing_allocates_nothing(void **state) {
    (void)state;
    fg_counting_allocator ca;
    fg_allocator a = fg_test_counting_allocator(&ca);
    fgt_duel d = placed(40, 80, &a);
    fgt_run(&d, 2);
    size_t before = ca.allocations;
    fgt_request(&d, d.p1, "both");
    int bounces = 0;
    for (int t = 0; t < 80; t++) {
        fgt_run(&d, 1);
        bounces += bounce_event(&d) != NULL;
    }
    assert_int_equal(bounces, 2);
    assert_int_equal(ca.allocations, before);
    fgt_duel_free(&d);
}

/* }====================================================================== */

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_launched_target_bounces_off_the_wall_once_with_the_declared_velocity),
        cmocka_unit_test(the_bounce_starts_the_reaction_again_for_its_stun),
        cmocka_unit_test(a_launched_target_bounces_off_the_ground_once_instead_of_landing),
        cmocka_unit_test(a_wall_bounce_then_a_ground_bounce_go_the_way_the_wall_sent_it),
        cmocka_unit_test(no_bounce_when_none_is_declared),
        cmocka_unit_test(a_later_hit_replaces_what_an_earlier_one_armed),
        cmocka_unit_test(the_bounce_limit_refuses_a_bounce_past_it_until_the_combo_ends),
        cmocka_unit_test(bounce_mistakes_name_the_path_and_the_value),
        cmocka_unit_test(a_reload_report_names_the_bounce_fields),
        cmocka_unit_test(only_a_declared_bounce_changes_the_content_hash),
        cmocka_unit_test(a_restore_in_the_middle_of_a_bounce_replays_it_to_the_same_hashes),
        cmocka_unit_test(bounces_survive_rollback_at_every_distance),
        cmocka_unit_test(a_restore_refuses_a_damaged_bounce_state_by_name),
        cmocka_unit_test(the_hash_covers_every_byte_of_an_armed_bounce),
        cmocka_unit_test(an_unarmed_bounce_state_adds_nothing_to_the_fold),
        cmocka_unit_test(bouncing_allocates_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
