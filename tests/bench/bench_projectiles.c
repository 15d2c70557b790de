/* SPDX-License-Identifier: MIT */
/*
** bench_projectiles.c: what projectiles cost a tick. Two fighters far apart on a wide stage and
** 500 projectiles in flight (the whole tick measured, then the same world without them, so the
** difference is theirs); then 250 against 250 head-on, clashing until none is left. Prints
** figures; asserts nothing about time.
**
**   bench_projectiles           full run (build with the release preset to measure)
**   bench_projectiles --smoke   a tiny run so CI keeps it compiling and working
*/
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include <stdio.h>
#include <string.h>

#include "bench_util.h"
#include "fg_test.h"
#include "framegate/projectile.h"
#include "rules_fixture.h"

static fg_box px_box(int x, int y, int w, int h) {
    return (fg_box){FG_FX(x), FG_FX(y), FG_FX(w), FG_FX(h)};
}

/* A fighter with a default hurt box and one projectile kind: 4 px a tick, a minute of life. */
static fg_ruleset *rules(void) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("bench", NULL);
    fg_ruleset_add_button(b, "LP", NULL);
    fgt_resource(b, "health", 1000, 1000);
    fg_physics_def p = fg_physics_def_default();
    p.stage_min = FG_FX(-16000);
    p.stage_max = FG_FX(16000);
    fg_ruleset_set_physics(b, &p);
    fg_ruleset_add_default_box(b, NULL, FG_BOX_HURT, px_box(-20, 0, 40, 100), NULL);
    fg_action_def a = fgt_neutral("idle", 0);
    fgt_add(b, &a);
    a = fgt_action("hitstun", 0, 0, 1);
    fgt_add(b, &a);
    a = fgt_action("blockstun", 0, 0, 1);
    fgt_add(b, &a);
    fg_projectile_def d = fg_projectile_def_default("ball");
    d.vx = FG_FX(4);
    d.lifetime = 3600;
    d.boxes[d.nboxes++] = (fg_box_def){FG_BOX_HIT, 0, 3600, px_box(-8, 40, 16, 16), 0};
    d.hit.damage = 1;
    fg_ruleset_add_projectile(b, &d, NULL);
    return fgt_build(b);
}

static fg_world *world(fg_ruleset *r, fg_entity *p1, fg_entity *p2) {
    fg_world_config c = fg_world_config_default();
    c.rules = r;
    c.max_projectiles = 512;
    c.trace_capacity = 0;
    fg_world *w = fg_world_create(&c, NULL);
    fg_spawn s;
    memset(&s, 0, sizeof s);
    s.grounded = true;
    s.x = FG_FX(-15000);
    fg_world_spawn(w, &s, p1, NULL);
    s.x = FG_FX(15000);
    s.facing = FG_FACING_LEFT;
    fg_world_spawn(w, &s, p2, NULL);
    return w;
}

static double run(fg_world *w, int ticks) {
    double t0 = fg_bench_now_ns();
    for (int t = 0; t < ticks; t++) fg_world_advance(w, NULL);
    return (fg_bench_now_ns() - t0) / ticks;
}

int main(int argc, char **argv) {
    bool smoke = fg_bench_smoke(argc, argv);
    int ticks = smoke ? 20 : 600, n = smoke ? 50 : 500;
    fg_ruleset *r = rules();
    fg_entity p1, p2;

    /* Baseline: the two fighters alone. */
    fg_world *w = world(r, &p1, &p2);
    double base = run(w, ticks);
    fg_world_destroy(w);

    /* n in flight, all e1's (they never clash), spread 20 px apart on four lanes. */
    w = world(r, &p1, &p2);
    for (int i = 0; i < n; i++)
        fg_world_spawn_projectile(w, p1, "ball", FG_FX(-14000 + 20 * i), FG_FX(40 * (i % 4)),
                                  FG_FACING_RIGHT, NULL, NULL);
    double flying = run(w, ticks);
    printf("%-46s %4u live  %9.0f ns/tick  (%6.0f without)  %6.1f ns per projectile-tick\n",
           "in flight, no contact", fg_world_projectile_count(w), flying, base,
           (flying - base) / n);
    fg_world_destroy(w);

    /* n / 2 against n / 2 head-on: they clash pair by pair until none is left. */
    w = world(r, &p1, &p2);
    for (int i = 0; i < n / 2; i++) {
        fg_world_spawn_projectile(w, p1, "ball", FG_FX(-10 - 20 * i), 0, FG_FACING_RIGHT, NULL,
                                  NULL);
        fg_world_spawn_projectile(w, p2, "ball", FG_FX(10 + 20 * i), 0, FG_FACING_LEFT, NULL,
                                  NULL);
    }
    int t = 0;
    double t0 = fg_bench_now_ns();
    while (fg_world_projectile_count(w) > 0 && t < 20000) {
        fg_world_advance(w, NULL);
        t++;
    }
    double clash = (fg_bench_now_ns() - t0) / (t ? t : 1);
    printf("%-46s %4d ticks  %9.0f ns/tick  (%u left, %llu refused)\n",
           "head-on until all clashed", t, clash, fg_world_projectile_count(w),
           (unsigned long long)fg_world_projectiles_refused(w));
    fg_world_destroy(w);
    fg_ruleset_unref(r);
    return 0;
}
