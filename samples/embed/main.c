/* SPDX-License-Identifier: MIT */
/*
** The engine programmer's view: a short C program, no Lua of its own, that embeds framegate.
**
**   1. build a ruleset (here with the C builder; a Lua ruleset goes through the Lua module)
**   2. create a world, spawn two fighters, bind device controls
**   3. each display frame: feed device input with its timestamp, run the fixed-step loop
**   4. drain committed events and cues for the renderer and audio; interpolate with alpha
**
** Build it against the installed package:
**   cmake -S samples/embed -B build-embed -DCMAKE_PREFIX_PATH=<prefix> && cmake --build build-embed
**   cc samples/embed/main.c $(pkg-config --cflags --libs framegate) -o embed
*/
#include <framegate.h>
#include <stdio.h>
#include <stdlib.h>

enum { KEY_LEFT = 1, KEY_RIGHT, KEY_DOWN, KEY_UP, KEY_PUNCH };

static fg_ruleset *build_rules(void) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("embedded", NULL);
    fg_ruleset_add_button(b, "LP", NULL);
    fg_resource_def health = {"health", 100, 100, 0, 1};
    fg_ruleset_add_resource(b, &health, NULL);

    fg_action_def idle = fg_action_def_default("idle");
    idle.neutral = true;
    idle.loop = true;
    fg_ruleset_add_action(b, &idle, NULL);

    fg_action_def walk = fg_action_def_default("walk");
    walk.hold_dir = 6; /* chosen while forward is held */
    walk.neutral = walk.loop = true;
    walk.nmoves = 1;
    walk.moves[0] = (fg_move_def){.from = 0, .to = 0, .vx = FG_FX(3)};
    fg_ruleset_add_action(b, &walk, NULL);

    fg_action_def jab = fg_action_def_default("jab");
    snprintf(jab.input, sizeof jab.input, "LP");
    jab.startup = 4, jab.active = 2, jab.recovery = 7;
    jab.nmarkers = 1;
    jab.markers[0].tick = 4;
    snprintf(jab.markers[0].name, sizeof jab.markers[0].name, "hit");
    jab.hit = (fg_hit_def){.enabled = true, .range = FG_FX(70), .damage = 10, .hitstop = 6,
                           .hitstun = 13, .blockstun = 9};
    fg_ruleset_add_action(b, &jab, NULL);

    fg_action_def stun = fg_action_def_default("hitstun");
    stun.interrupts = true;
    fg_ruleset_add_action(b, &stun, NULL);
    fg_action_def block = fg_action_def_default("blockstun");
    fg_ruleset_add_action(b, &block, NULL);

    /* Every finding, each whole: err alone holds only the first. */
    fg_findings *findings = NULL;
    fg_error err;
    fg_ruleset *r = fg_findings_create(NULL, &findings, &err) == FG_OK
                        ? fg_ruleset_build(b, findings, &err)
                        : NULL;
    fg_ruleset_builder_destroy(b);
    if (!r && fg_findings_count(findings) == 0) fprintf(stderr, "rules: %s\n", fg_error_message(&err));
    for (uint32_t i = 0; i < fg_findings_count(findings); i++) {
        fg_finding x = fg_findings_get(findings, i);
        fprintf(stderr, "rules: %s: %s%s\n", x.path,
                x.severity == FG_SEVERITY_WARNING ? "warning: " : "", x.message);
    }
    fg_findings_destroy(findings);
    return r;
}

/* A recorded device stream: (host time in microseconds, control, down). */
typedef struct device_event {
    int64_t us;
    uint32_t control;
    bool down;
} device_event;

static const device_event stream[] = {
    {100000, KEY_RIGHT, true}, {400000, KEY_RIGHT, false},
    {450000, KEY_PUNCH, true}, {453000, KEY_PUNCH, false}, /* a 3 ms tap, shorter than a frame */
};

int main(void) {
    fg_error err;
    fg_ruleset *rules = build_rules();
    if (!rules) return 1;

    fg_world_config cfg = fg_world_config_default();
    cfg.rules = rules; /* the world keeps its own reference */
    fg_world *w = fg_world_create(&cfg, &err);
    fg_ruleset_unref(rules);
    if (!w) {
        fprintf(stderr, "world: %s\n", fg_error_message(&err));
        return 1;
    }
    fg_spawn s1 = {.x = FG_FX(-60)}, s2 = {.x = FG_FX(60), .facing = FG_FACING_LEFT};
    fg_entity p1, p2;
    fg_world_spawn(w, &s1, &p1, &err);
    fg_world_spawn(w, &s2, &p2, &err);

    fg_input_map *map = fg_world_input_map(w, p1);
    fg_input_map_bind(map, KEY_LEFT, FG_IN_LEFT, NULL);
    fg_input_map_bind(map, KEY_RIGHT, FG_IN_RIGHT, NULL);
    fg_input_map_bind(map, KEY_DOWN, FG_IN_DOWN, NULL);
    fg_input_map_bind(map, KEY_UP, FG_IN_UP, NULL);
    fg_input_map_bind(map, KEY_PUNCH, (uint32_t)fg_world_action_id(w, "LP"), NULL);

    fg_loop loop;
    fg_loop_init(&loop, NULL, &err);
    int health = fg_ruleset_find_resource(fg_world_rules(w, p2), "health");

    /* The display runs at an uneven ~144 fps: frames of 6 or 8 ms. */
    size_t next = 0;
    int frames = 0;
    for (int64_t now = 0; now <= 1000000; now += (frames++ % 2) ? 6000 : 8000) {
        uint32_t due;
        fg_loop_frame(&loop, now, &due, &err);
        /* Poll devices: every edge keeps its own timestamp, whatever frame saw it. */
        while (next < sizeof stream / sizeof stream[0] && stream[next].us <= now) {
            const device_event *e = &stream[next++];
            if (fg_world_device_control(w, p1, e->control, e->down,
                                        fg_loop_map_time(&loop, e->us), &err) != FG_OK)
                fprintf(stderr, "input: %s\n", fg_error_message(&err));
        }
        while (due--) {
            fg_world_advance(w, &err);
            fg_loop_tick_done(&loop);
            /* Committed events only: drive effects and audio from these. */
            for (uint32_t i = 0; i < fg_world_event_count(w); i++) {
                const fg_event *ev = fg_world_event_at(w, i);
                printf("tick %3lld: e%u %s -> target e%u, %s\n", (long long)ev->tick, ev->entity,
                       fg_world_marker_name(w, ev->entity, ev->marker), ev->target,
                       ev->contact == FG_ON_HIT ? "hit" : ev->contact ? "blocked" : "missed");
            }
        }
        /* Interpolate the presentation between the last two committed states. */
        if (frames % 40 == 0) {
            fg_fx x;
            fg_world_position(w, p1, &x, NULL);
            char state[96];
            fg_world_describe_layer(w, p1, 0, state, sizeof state);
            printf("frame %3d  alpha %.2f  e1 x %6.1f  %s\n", frames, fg_loop_alpha(&loop),
                   (double)x / FG_FX_ONE, state);
        }
    }
    int32_t left = fg_world_resource(w, p2, (uint32_t)health);
    printf("e2 health %d, %lld ticks, state hash %016llx\n", left, (long long)fg_world_tick(w),
           (unsigned long long)fg_world_hash(w));
    fg_world_destroy(w);
    return left < 100 ? 0 : 1; /* the tap, shorter than a frame, must have landed */
}
