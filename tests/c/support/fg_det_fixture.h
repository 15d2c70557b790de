/* SPDX-License-Identifier: MIT */
/*
** fg_det_fixture.h: a small fighter built in C (no Lua) for the determinism suites: buttons LP
** and HP, one body layer, health and meter, idle / walk / crouch, a jab (LP) that hits, a
** fireball (236HP) it cancels into on hit, hitstun and blockstun, two variables (stance 0..3 from
** 1, charge from 12345 in a wide range, so the hash audit's flips of their bytes stay in range).
** Two of them face each other.
*/
#ifndef FG_DET_FIXTURE_H
#define FG_DET_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "framegate.h"

/* jab_damage varies the ruleset (a "reload" to another version). */
static inline fg_ruleset *fg_det_rules(int32_t jab_damage) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("boxer", NULL);
    fg_error err;
    fg_ruleset_add_button(b, "LP", &err);
    fg_ruleset_add_button(b, "HP", &err);
    fg_ruleset_add_layer(b, "body", &err);
    fg_resource_def health = {"health", 1000, 1000, 0, 1};
    fg_resource_def meter = {"meter", 100, 0, 0, 1};
    fg_ruleset_add_resource(b, &health, &err);
    fg_ruleset_add_resource(b, &meter, &err);

    fg_action_def idle = fg_action_def_default("idle");
    idle.neutral = idle.loop = true;
    fg_ruleset_add_action(b, &idle, &err);
    fg_action_def walk = fg_action_def_default("walk");
    walk.neutral = walk.loop = true;
    walk.hold_dir = 6;
    walk.nmoves = 1;
    walk.moves[0] = (fg_move_def){.from = 0, .to = 0, .vx = FG_FX(3)};
    fg_ruleset_add_action(b, &walk, &err);
    fg_action_def crouch = fg_action_def_default("crouch");
    crouch.neutral = crouch.loop = true;
    crouch.hold_dir = 2;
    crouch.priority = 1;
    fg_ruleset_add_action(b, &crouch, &err);

    fg_action_def jab = fg_action_def_default("jab");
    jab.startup = 3;
    jab.active = 2;
    jab.recovery = 5;
    jab.duration = 0;
    snprintf(jab.input, sizeof jab.input, "LP");
    jab.ntags = 1;
    snprintf(jab.tags[0], sizeof jab.tags[0], "normal");
    jab.nmarkers = 1;
    jab.markers[0].tick = 3;
    snprintf(jab.markers[0].name, sizeof jab.markers[0].name, "hit");
    jab.hit = (fg_hit_def){.enabled = true, .range = FG_FX(80), .damage = jab_damage, .hitstop = 4,
                           .hitstun = 10, .blockstun = 6, .meter_gain = 10};
    jab.ncancels = 1;
    jab.cancels[0].from = 3;
    jab.cancels[0].to = 9;
    jab.cancels[0].on = FG_ON_HIT;
    jab.cancels[0].buffer = 3;
    jab.cancels[0].ntargets = 1;
    snprintf(jab.cancels[0].targets[0], sizeof jab.cancels[0].targets[0], "special");
    fg_ruleset_add_action(b, &jab, &err);

    fg_action_def fireball = fg_action_def_default("fireball");
    fireball.startup = 8;
    fireball.active = 2;
    fireball.recovery = 20;
    fireball.duration = 0;
    snprintf(fireball.input, sizeof fireball.input, "236HP");
    fireball.ntags = 1;
    snprintf(fireball.tags[0], sizeof fireball.tags[0], "special");
    fireball.nmarkers = 1;
    fireball.markers[0].tick = 8;
    snprintf(fireball.markers[0].name, sizeof fireball.markers[0].name, "hit");
    fireball.hit = (fg_hit_def){.enabled = true, .range = FG_FX(400), .damage = 60, .hitstop = 5,
                                .hitstun = 18, .blockstun = 12, .meter_gain = 20};
    fg_ruleset_add_action(b, &fireball, &err);

    fg_action_def hitstun = fg_action_def_default("hitstun");
    hitstun.interrupts = true;
    fg_ruleset_add_action(b, &hitstun, &err);
    fg_action_def blockstun = fg_action_def_default("blockstun");
    fg_ruleset_add_action(b, &blockstun, &err);

    fg_var_def stance = fg_var_def_default("stance");
    stance.min = 0;
    stance.max = 3;
    stance.start = 1;
    fg_ruleset_add_var(b, &stance, &err);
    fg_var_def charge = fg_var_def_default("charge");
    charge.min = -1000000000;
    charge.max = 1000000000;
    charge.start = 12345;
    fg_ruleset_add_var(b, &charge, &err);

    fg_physics_def p = fg_physics_def_default();
    p.min_gap = FG_FX(40);
    p.stage_min = FG_FX(-400);
    p.stage_max = FG_FX(400);
    fg_ruleset_set_physics(b, &p);
    fg_findings *findings = NULL;
    fg_ruleset *r = fg_findings_create(NULL, &findings, &err) == FG_OK
                        ? fg_ruleset_build(b, findings, &err)
                        : NULL;
    if (!r) {
        fprintf(stderr, "fixture rules: %s\n", fg_error_message(&err));
        for (uint32_t i = 0; i < fg_findings_count(findings); i++)
            fprintf(stderr, "  %s: %s\n", fg_findings_get(findings, i).path,
                    fg_findings_get(findings, i).message);
    }
    fg_findings_destroy(findings);
    fg_ruleset_builder_destroy(b);
    return r;
}

/* Two boxers at -35 and 35 facing each other (the world keeps its own reference to rules). */
/* The same in a given ground mode (a host reporting contacts uses FG_GROUND_CONTACTS). */
static inline fg_world *fg_det_world_in(fg_ruleset *rules, uint64_t seed,
                                        const fg_allocator *alloc, fg_world_hooks hooks,
                                        fg_ground_mode ground) {
    fg_world_config c = fg_world_config_default();
    c.ground = ground;
    c.rules = rules;
    c.seed = seed;
    c.hooks = hooks;
    if (alloc) c.allocator = *alloc;
    fg_world *w = fg_world_create(&c, NULL);
    if (!w) return NULL;
    fg_spawn a = {FG_FX(-35), 0, FG_FACING_RIGHT, true, 0, 0};
    fg_spawn b = {FG_FX(35), 0, FG_FACING_LEFT, true, 0, 0};
    if (fg_world_spawn(w, &a, NULL, NULL) != FG_OK || fg_world_spawn(w, &b, NULL, NULL) != FG_OK) {
        fg_world_destroy(w);
        return NULL;
    }
    return w;
}

static inline fg_world *fg_det_world(fg_ruleset *rules, uint64_t seed, const fg_allocator *alloc,
                                     fg_world_hooks hooks) {
    return fg_det_world_in(rules, seed, alloc, hooks, FG_GROUND_DEFAULT);
}

#endif
