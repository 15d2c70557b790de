/* SPDX-License-Identifier: MIT */
/*
** fg_sample_world.h: the sample duel (samples/duel/rules.lua, two fighters at -35 and 35 facing
** each other) in a Lua state, for C suites and benchmarks that link the bindings. The World
** userdata stays at stack index 1, so fg_lua_world_step runs its request rule and hooks.
*/
#ifndef FG_SAMPLE_WORLD_H
#define FG_SAMPLE_WORLD_H

#include <stdio.h>
#include <stdlib.h>

#include "fg_lua.h"

typedef struct fg_sample {
    lua_State *L;
    fg_world *w;
} fg_sample;

static inline const char *fg_sample_rules_path(void) {
    static char path[1024];
    const char *dir = getenv("FG_SAMPLES");
#ifdef FG_SAMPLES_DIR
    if (!dir || !*dir) dir = FG_SAMPLES_DIR;
#endif
    if (!dir || !*dir) dir = "samples";
    snprintf(path, sizeof path, "%s/duel/rules.lua", dir);
    return path;
}

/* A world running `rules` (a path; NULL: the sample's) or, when `source` is given, rules compiled
** from that text. Returns {NULL, NULL} and prints the error on failure. */
static inline fg_sample fg_sample_open_with(const char *source, uint64_t seed) {
    fg_sample s = {NULL, NULL};
    lua_State *L = luaL_newstate();
    if (!L) return s;
    luaL_openlibs(L);
    fg_lua_preload(L);
    const char *code =
        "local path, source, seed = ...\n"
        "local fg = require 'framegate'\n"
        "local rules = source and fg.load_rules_source('planted.lua', source) or path\n"
        "local w = fg.world { rules = rules, seed = seed }\n"
        "w:spawn { x = -35 }\n"
        "w:spawn { x = 35, facing = 'left' }\n"
        "return w\n";
    if (luaL_loadstring(L, code) != LUA_OK) goto fail;
    lua_pushstring(L, fg_sample_rules_path());
    if (source) lua_pushstring(L, source);
    else lua_pushnil(L);
    lua_pushinteger(L, (lua_Integer)seed);
    if (lua_pcall(L, 3, 1, 0) != LUA_OK) goto fail;
    s.L = L;
    s.w = fg_lua_check_world(L, 1)->w;
    return s;
fail:
    fprintf(stderr, "sample world: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return s;
}

static inline fg_sample fg_sample_open(uint64_t seed) { return fg_sample_open_with(NULL, seed); }

static inline fg_status fg_sample_step(fg_sample *s, fg_error *err) {
    return fg_lua_world_step(s->L, 1, false, err);
}

/* For fg_synctest_config.advance / fg_player_options.advance (ud = the fg_sample). */
static inline fg_status fg_sample_advance(void *ud, fg_world *w, bool again, fg_error *err) {
    (void)w;
    fg_sample *s = ud;
    return fg_lua_world_step(s->L, 1, again, err);
}

static inline void fg_sample_close(fg_sample *s) {
    if (s->L) lua_close(s->L);
    s->L = NULL;
    s->w = NULL;
}

/* The sample's source text (malloc'd), for planting a change in it. */
static inline char *fg_sample_source(void) {
    FILE *f = fopen(fg_sample_rules_path(), "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf) buf[n] = '\0';
    fclose(f);
    return buf;
}

#endif
