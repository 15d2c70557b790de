/* SPDX-License-Identifier: MIT */
/*
** app.c: a program of a studio's own project that uses framegate/lua.h, built by the install
** checks against the installed package (pkg-config, CMake) and as a subproject
** (add_subdirectory). It loads the Lua rules given on its command line, runs two fighters for
** 120 ticks with a jab at tick 10 and prints the decision and the state hash.
*/
#include <framegate/lua.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: app RULES\n");
        return 2;
    }
    fg_error err;
    fg_lua_host *s = fg_lua_host_load_file(argv[1], NULL, &err);
    if (!s) {
        fprintf(stderr, "app: %s\n", fg_error_message(&err));
        return 1;
    }
    fg_world *w = fg_lua_host_world(s);
    fg_spawn a = {.x = FG_FX(-35)}, b = {.x = FG_FX(35), .facing = FG_FACING_LEFT};
    fg_entity p1, p2;
    fg_world_spawn(w, &a, &p1, NULL);
    fg_world_spawn(w, &b, &p2, NULL);
    int lp = fg_world_action_id(w, "LP");
    int64_t at = fg_us_of_tick(10, fg_world_tick_rate(w));
    fg_world_press(w, p1, lp, at, FG_SOURCE_DEVICE, NULL);
    fg_world_release(w, p1, lp, at + 3000, FG_SOURCE_DEVICE, NULL);
    for (int i = 0; i < 120; i++) {
        if (fg_lua_host_advance(s, &err) != FG_OK) {
            fprintf(stderr, "app: %s\n", fg_error_message(&err));
            fg_lua_host_destroy(s);
            return 1;
        }
    }
    char text[256] = "no decision";
    const fg_decision *d = fg_world_last_decision(w, p1);
    if (d) fg_decision_describe(fg_lua_host_ruleset(s), d, text, sizeof text);
    printf("t=%lld e1 %s; state hash %016llx\n", d ? (long long)d->tick : -1LL, text,
           (unsigned long long)fg_world_hash(w));
    fg_lua_host_destroy(s);
    return 0;
}
