/* SPDX-License-Identifier: MIT */
/*
** framegate/lua.h: Lua rules from C. A Lua host is a sandboxed Lua state running one world whose
** rules come from a Lua file or string, exactly as `framegate run` and the Lua module run them:
** the request rule and presentation hooks are called under the sandbox's budgets, a reload is
** built on the side and swapped in only when it succeeded, and a what-if report re-runs stored
** input against the current rules in a shadow world.
**
** The engine keeps using the whole C API on fg_lua_host_world() (spawn, device input, events,
** snapshots, the state hash) and advances with fg_lua_host_advance(), which runs the Lua rules;
** fg_world_advance() on a host's world would skip them.
**
** Link with `framegate::lua` (CMake) or `pkg-config --cflags --libs framegate-lua`.
*/
#ifndef FRAMEGATE_LUA_H
#define FRAMEGATE_LUA_H

#include "framegate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fg_lua_host fg_lua_host;

/* The sandbox's budgets; 0 keeps the default. A rule call (a request rule, a hook) may run
** `instructions` VM instructions and add `memory` bytes; loading a ruleset (the file, its
** includes, on_reload) may run `load_instructions` and add `load_memory`. */
typedef struct fg_lua_limits {
    int64_t instructions;
    int64_t memory;
    int64_t load_instructions;
    int64_t load_memory;
} fg_lua_limits;

/* How a host is made: the sandbox's limits and the world's configuration (0 keeps the
** default of fg_world_config_default()). */
typedef struct fg_lua_options {
    fg_lua_limits limits;
    uint32_t tick_rate;       /* logic ticks per second */
    uint64_t seed;            /* the world's RNG (math.random in rules) */
    uint32_t max_entities;
    uint32_t buffer_capacity; /* input edges kept per entity */
    uint32_t trace_capacity;  /* trace records kept (the what-if report reads them) */
} fg_lua_options;

/* What a successful reload did. The strings stay valid until the next call on the host. */
typedef struct fg_lua_reload_info {
    const char *name;    /* the ruleset's name */
    const char *hash;    /* the new ruleset's hash, 16 hex digits */
    fg_tick tick;        /* the tick boundary it took effect at */
    uint32_t added, changed, removed; /* actions, compared with the previous rules */
    const char *message; /* what on_reload returned, or NULL */
} fg_lua_reload_info;

/* A what-if report: the decisions of ticks [from, to) re-run against the current rules, from a
** snapshot, compared with what the live world decided. Read its lines with
** fg_lua_host_what_if_line(); they stay valid until the next call on the host. */
typedef struct fg_lua_what_if {
    fg_tick from, to;
    uint32_t differences; /* lines */
    bool complete;        /* false when some input of the range was no longer stored */
} fg_lua_what_if;

FG_API fg_lua_options fg_lua_options_default(void);

/* Loads the rules file at path (includes resolve beside it) into a new host. NULL on failure,
** with err naming the file, line and field. */
FG_API fg_lua_host *fg_lua_host_load_file(const char *path, const fg_lua_options *opt,
                                                fg_error *err);
/* The same from text in memory; `name` names it in messages and anchors includes. */
FG_API fg_lua_host *fg_lua_host_load_string(const char *name, const char *text, size_t len,
                                                  const fg_lua_options *opt, fg_error *err);
FG_API void fg_lua_host_destroy(fg_lua_host *s);

/* The host's world, for every fg_world_* call but advancing. Owned by the host. */
FG_API fg_world *fg_lua_host_world(fg_lua_host *s);
/* The rules now running (changes at a reload). */
FG_API const fg_ruleset *fg_lua_host_ruleset(const fg_lua_host *s);

/* One tick: motion, the Lua request rule, the commit gate, then the presentation hooks. A rule
** that fails drops only its own request (the world's trace has its message); an error here means
** the tick itself could not run, and the world is unchanged. */
FG_API fg_status fg_lua_host_advance(fg_lua_host *s, fg_error *err);

/* Reloads the rules at the next tick boundary: read again from their files (text NULL), or from
** text (the host's rules path still names it). On failure the old rules keep running and
** err names file, line and field. info may be NULL. */
FG_API fg_status fg_lua_host_reload(fg_lua_host *s, const char *text, size_t len,
                                       fg_lua_reload_info *info, fg_error *err);
/* True when a file the rules were read from (the rules file or an include) changed on disk
** since the last load or reload: the cue for a hot reload. Never blocks. */
FG_API bool fg_lua_host_files_changed(fg_lua_host *s);

/* Re-runs the input stored since `snapshot` (an fg_world_save() buffer of this world) against the
** current rules in a shadow world; the live world is untouched. */
FG_API fg_status fg_lua_host_what_if(fg_lua_host *s, const void *snapshot, size_t size,
                                        fg_lua_what_if *report, fg_error *err);
/* Line i (0-based) of the last what-if report ("tick 11: e1 hadouken now rejected (was ...)"),
** or NULL past the end. */
FG_API const char *fg_lua_host_what_if_line(const fg_lua_host *s, uint32_t i);

#ifdef __cplusplus
}
#endif

#endif
