/* SPDX-License-Identifier: MIT */
/*
** bench_reload.c: what a hot reload costs (a ruleset of 50 actions and 30 motions, loaded in the
** sandbox, validated, compiled and swapped into a running world) and what one request-rule call
** costs, with and without the budget hook. Prints figures; asserts nothing about time.
**
**   bench_reload           full run (build with the release preset to measure)
**   bench_reload --smoke   a tiny run so CI keeps it compiling and working
*/
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "fg_lua.h"
#include "fg_test.h"

/* Writes a ruleset of 50 actions, 30 of them requested by 30 motions. */
static size_t write_rules(char *buf, size_t size, int variant) {
    static const char *const seqs[] = {"236", "623", "214", "421", "41236", "63214", "22", "646"};
    static const char *const buttons[] = {"LP", "HP", "LK", "HK"};
    size_t n = (size_t)snprintf(buf, size,
        "local fg = require \"framegate\"\n"
        "return fg.ruleset \"bench\" {\n"
        "  buttons = { \"LP\", \"HP\", \"LK\", \"HK\" },\n"
        "  resources = { health = { max = 1000, start = 1000 }, meter = { max = 300 } },\n"
        "  motions = {\n");
    for (int i = 0; i < 30; i++)
        n += (size_t)snprintf(buf + n, size - n, "    m%02d = { \"%s%s\", window = 15 },\n", i,
                              seqs[i % 8], buttons[i / 8]);
    n += (size_t)snprintf(buf + n, size - n, "  },\n  actions = {\n"
        "    idle = { neutral = true, loop = true, duration = 1 },\n"
        "    hitstun = { duration = 1, interrupts = true },\n"
        "    blockstun = { duration = 1 },\n");
    for (int i = 0; i < 47; i++) {
        const char *name_fmt = i < 30 ? "m%02d" : "a%02d";
        char name[8];
        snprintf(name, sizeof name, name_fmt, i);
        n += (size_t)snprintf(buf + n, size - n,
            "    %s = { startup = %d, active = 2, recovery = %d, tags = { \"attack\" },\n"
            "      markers = { { tick = %d, marker = \"hit\" } },\n"
            "      hit = { damage = %d, range = 70, hitstop = 6 },\n"
            "      cancels = { { from = 4, to = 9, on = \"hit\", into = { \"attack\" } } } },\n",
            name, 4 + i % 5, 10 + variant, 4 + i % 5, 10 + i);
    }
    n += (size_t)snprintf(buf + n, size - n, "  },\n"
        "  request = function(me, req)\n"
        "    if req.action == \"a40\" and me.resources.meter < 100 then return fg.reject(\"meter\") end\n"
        "    return fg.default\n"
        "  end,\n}\n");
    return n;
}

static void save(const char *path, const char *text, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len) {
        fprintf(stderr, "bench_reload: cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
}

static void check(lua_State *L, int st) {
    if (st != LUA_OK) {
        fprintf(stderr, "bench_reload: %s\n", lua_tostring(L, -1));
        exit(1);
    }
}

int main(int argc, char **argv) {
    bool smoke = fg_bench_smoke(argc, argv);
    int reloads = smoke ? 5 : 200;
    long calls = smoke ? 2000 : 2000000;
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    fg_lua_preload(L);
    static char text[64 * 1024];
    char path[] = "/tmp/fg_bench_reloadXXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 1;
    close(fd);
    save(path, text, write_rules(text, sizeof text, 0));

    /* A running world: w = fg.world{ rules = path }, two fighters, a few ticks. */
    check(L, luaL_dostring(L, "fg = require 'framegate'"));
    lua_getglobal(L, "fg");
    lua_getfield(L, -1, "world");
    lua_createtable(L, 0, 1);
    lua_pushstring(L, path);
    lua_setfield(L, -2, "rules");
    check(L, lua_pcall(L, 1, 1, 0));
    lua_setglobal(L, "w");
    lua_pop(L, 1);
    check(L, luaL_dostring(L, "p1 = w:spawn{ x = -35 } p2 = w:spawn{ x = 35, facing = 'left' } "
                              "w:run(10)"));

    /* Reload: edit the file, then world:reload() (read, sandbox, validate, compile, swap). */
    double *samples = malloc(sizeof *samples * (size_t)reloads);
    for (int i = 0; i < reloads; i++) {
        save(path, text, write_rules(text, sizeof text, 1 + i % 2));
        lua_getglobal(L, "w");
        lua_getfield(L, -1, "reload");
        lua_insert(L, -2);
        double t0 = fg_bench_now_ns();
        check(L, lua_pcall(L, 1, 2, 0));
        samples[i] = fg_bench_now_ns() - t0;
        if (lua_isnil(L, -2)) {
            fprintf(stderr, "bench_reload: reload failed: %s\n", lua_tostring(L, -1));
            return 1;
        }
        lua_pop(L, 2);
        check(L, luaL_dostring(L, "w:run(1)"));
    }
    double median = fg_bench_median(samples, reloads); /* sorts: samples[0] is the best */
    printf("reload of 50 actions and 30 motions: median %.3f ms, best %.3f ms (%d reloads)\n",
           median / 1e6, samples[0] / 1e6, reloads);
    free(samples);

    /* One request-rule call: a rule returning fg.default, its two arguments built once. */
    lua_getglobal(L, "fg");
    lua_getfield(L, -1, "sandboxed");
    lua_pushstring(L, "local fg = require 'framegate'\n"
                      "return function(me, req)\n"
                      "  if req.action == 'super' and me.resources.meter < 300 then\n"
                      "    return fg.reject('full bar')\n"
                      "  end\n"
                      "  return fg.default\n"
                      "end");
    lua_pushstring(L, "@bench/rules.lua");
    check(L, lua_pcall(L, 2, 1, 0));
    int rule = lua_gettop(L);
    check(L, luaL_dostring(L, "return p1:view(), { action = 'jab', source = 'command' }"));
    int me = rule + 1, req = rule + 2;
    fg_error err;
    double t0 = fg_bench_now_ns();
    for (long i = 0; i < calls; i++) {
        lua_pushvalue(L, rule);
        lua_pushvalue(L, me);
        lua_pushvalue(L, req);
        if (fg_lua_call_rule(L, NULL, "request rule", 2, 1, &err) != FG_OK) {
            fprintf(stderr, "bench_reload: %s\n", fg_error_message(&err));
            return 1;
        }
        lua_pop(L, 1);
    }
    double budgeted = (fg_bench_now_ns() - t0) / (double)calls;
    t0 = fg_bench_now_ns();
    for (long i = 0; i < calls; i++) {
        lua_pushvalue(L, rule);
        lua_pushvalue(L, me);
        lua_pushvalue(L, req);
        check(L, lua_pcall(L, 2, 1, 0));
        lua_pop(L, 1);
    }
    double bare = (fg_bench_now_ns() - t0) / (double)calls;
    printf("request-rule call with budgets (count hook, memory cap, handler): %.1f ns\n", budgeted);
    printf("the same call by plain lua_pcall, no budgets:            %.1f ns\n", bare);

    /* The whole path inside a world: a request every tick, decided by the rule (with the view
    ** and request tables the bindings build for it). */
    int ticks = smoke ? 200 : 200000;
    lua_pushinteger(L, ticks);
    lua_setglobal(L, "N");
    check(L, luaL_dostring(L, "for i = 1, 100 do p1:request('m00') w:run(1) end"));
    t0 = fg_bench_now_ns();
    check(L, luaL_dostring(L, "for i = 1, N do p1:request('a40') w:advance() end"));
    double with_rule = (fg_bench_now_ns() - t0) / ticks;
    printf("tick with one request decided by the rule, in a world:  %.0f ns\n", with_rule);
    lua_close(L);
    remove(path);
    return 0;
}
