/* SPDX-License-Identifier: MIT */
/*
** The engine programmer's view with a designer's Lua rules: a C program that loads
** samples/duel/rules.lua through framegate/lua.h, runs a duel from a recorded device stream and
** reloads the rules whenever the file changes, with a what-if report of the last second.
**
**   embed_lua [RULES] [--seconds N] [--realtime]
**
** RULES defaults to samples/duel/rules.lua. --realtime paces the frames with the wall clock, so
** an edit saved while it runs is picked up (the display time itself stays the recorded one).
**
** Build it against the installed package:
**   cmake -S samples/embed -B build-embed -DCMAKE_PREFIX_PATH=<prefix> && cmake --build build-embed
**   cc samples/embed/lua_rules.c $(pkg-config --cflags --libs framegate-lua) -o embed_lua
*/
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <framegate/lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { KEY_LEFT = 1, KEY_RIGHT, KEY_DOWN, KEY_UP, KEY_PUNCH };

/* One second of a player's device stream, repeated: walk in, then a jab into a fireball motion
** (down, down-forward, forward + punch). Times in microseconds within the second. */
typedef struct device_event {
    int64_t us;
    uint32_t control;
    bool down;
} device_event;

static const device_event second[] = {
    {0, KEY_RIGHT, true},       {150000, KEY_RIGHT, false}, {300000, KEY_PUNCH, true},
    {303000, KEY_PUNCH, false}, {400000, KEY_DOWN, true},   {433000, KEY_RIGHT, true},
    {450000, KEY_DOWN, false},  {483000, KEY_PUNCH, true},  {486000, KEY_PUNCH, false},
    {520000, KEY_RIGHT, false},
};

static void bind_keys(fg_world *w, fg_entity p) {
    fg_input_map *map = fg_world_input_map(w, p);
    fg_input_map_bind(map, KEY_LEFT, FG_IN_LEFT, NULL);
    fg_input_map_bind(map, KEY_RIGHT, FG_IN_RIGHT, NULL);
    fg_input_map_bind(map, KEY_DOWN, FG_IN_DOWN, NULL);
    fg_input_map_bind(map, KEY_UP, FG_IN_UP, NULL);
    fg_input_map_bind(map, KEY_PUNCH, (uint32_t)fg_world_action_id(w, "LP"), NULL);
}

/* Reloads the rules and prints what changed, then what the last second would have done. */
static void reload(fg_lua_host *s, const void *snap, size_t size) {
    fg_lua_reload_info info;
    fg_error err;
    if (fg_lua_host_reload(s, NULL, 0, &info, &err) != FG_OK) {
        printf("reload failed, the old rules keep running:\n%s\n", fg_error_message(&err));
        return;
    }
    printf("t=%lld reload: ok, '%s' hash %s; %u added, %u changed, %u removed\n",
           (long long)info.tick, info.name, info.hash, info.added, info.changed, info.removed);
    fg_lua_what_if report;
    if (fg_lua_host_what_if(s, snap, size, &report, &err) != FG_OK) {
        printf("what-if: %s\n", fg_error_message(&err));
        return;
    }
    printf("what-if: ticks %lld-%lld against the new rules: %u difference%s\n",
           (long long)report.from, (long long)report.to - 1, report.differences,
           report.differences == 1 ? "" : "s");
    for (uint32_t i = 0; i < report.differences; i++)
        printf("  %s\n", fg_lua_host_what_if_line(s, i));
}

int main(int argc, char **argv) {
    const char *path = "samples/duel/rules.lua";
    int seconds = 3;
    bool realtime = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--realtime") == 0) realtime = true;
        else path = argv[i];
    }
    if (seconds < 1 || seconds > 3600) {
        fprintf(stderr, "embed_lua: --seconds %d: expected 1..3600\n", seconds);
        return 2;
    }

    fg_error err;
    fg_lua_options opt = fg_lua_options_default();
    opt.seed = 7;
    opt.trace_capacity = 16384; /* the what-if report reads the decisions from the trace */
    fg_lua_host *s = fg_lua_host_load_file(path, &opt, &err);
    if (!s) {
        fprintf(stderr, "embed_lua: %s\n", fg_error_message(&err));
        return 1;
    }
    fg_world *w = fg_lua_host_world(s);
    fg_spawn s1 = {.x = FG_FX(-35)}, s2 = {.x = FG_FX(35), .facing = FG_FACING_LEFT};
    fg_entity p1, p2;
    if (fg_world_spawn(w, &s1, &p1, &err) != FG_OK || fg_world_spawn(w, &s2, &p2, &err) != FG_OK) {
        fprintf(stderr, "embed_lua: %s\n", fg_error_message(&err));
        fg_lua_host_destroy(s);
        return 1;
    }
    bind_keys(w, p1);
    printf("embed_lua: rules %s ('%s'), %u Hz\n", path,
           fg_ruleset_name(fg_lua_host_ruleset(s)), fg_world_tick_rate(w));
    fflush(stdout); /* a watcher of this output knows the rules are loaded */

    /* A snapshot at the start of every second: the what-if report re-runs from the last one. */
    size_t snap_size = fg_world_snapshot_capacity(w);
    void *snap = malloc(snap_size);
    size_t snap_used = 0;
    fg_loop loop;
    fg_loop_init(&loop, NULL, &err);
    size_t next = 0;
    int64_t base = 0;
    int status = 0;
    for (int64_t now = 0; now <= (int64_t)seconds * 1000000; now += 8000) { /* 125 fps */
        uint32_t due;
        fg_loop_frame(&loop, now, &due, &err);
        for (;;) {
            const device_event *e = &second[next];
            if (base + e->us > now) break;
            fg_world_device_control(w, p1, e->control, e->down,
                                    fg_loop_map_time(&loop, base + e->us), NULL);
            if (++next == sizeof second / sizeof second[0]) next = 0, base += 1000000;
        }
        while (due--) {
            if (fg_world_tick(w) % fg_world_tick_rate(w) == 0 && snap &&
                fg_world_save(w, snap, snap_size, NULL) == FG_OK)
                snap_used = fg_world_snapshot_size(w);
            if (fg_lua_host_advance(s, &err) != FG_OK) {
                fprintf(stderr, "embed_lua: %s\n", fg_error_message(&err));
                status = 1;
                goto done;
            }
            fg_loop_tick_done(&loop);
            for (uint32_t i = 0; i < fg_world_cue_count(w); i++) {
                const fg_cue *c = fg_world_cue_at(w, i);
                printf("tick %3lld: e%u cue %s\n", (long long)c->tick, c->entity, c->name);
            }
            fg_world_cues_clear(w);
        }
        if (fg_lua_host_files_changed(s) && snap_used) reload(s, snap, snap_used);
        if (realtime) nanosleep(&(struct timespec){0, 8000000}, NULL);
    }
    int health = fg_ruleset_find_resource(fg_lua_host_ruleset(s), "health");
    printf("e2 health %d, %lld ticks, state hash %016llx\n",
           health >= 0 ? fg_world_resource(w, p2, (uint32_t)health) : -1,
           (long long)fg_world_tick(w), (unsigned long long)fg_world_hash(w));
done:
    free(snap);
    fg_lua_host_destroy(s);
    return status;
}
