/* SPDX-License-Identifier: MIT */
/*
** fg_lua.h: shared declarations of the Lua bindings. The bindings translate between Lua values
** and the runtime's structs; they never decide gameplay.
**
** Each layer's bindings live in their own l_<layer>.c and expose one opener that adds the
** layer's functions to the module table on top of the stack and registers its metatables.
*/
#ifndef FG_LUA_H
#define FG_LUA_H

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "framegate.h"

/* Opens the module table (what `require "framegate"` returns). [-0, +1, m] */
int luaopen_framegate(lua_State *L);

/* Registers the module in package.preload so scripts of a host state can require it. [-0, +0, m] */
void fg_lua_preload(lua_State *L);

/* Layer openers: each adds fields to the module table at the top of the stack. [-0, +0, m] */
void fg_lua_open_input(lua_State *L);
void fg_lua_open_motion(lua_State *L);
void fg_lua_open_gate(lua_State *L);
void fg_lua_open_world(lua_State *L);
void fg_lua_open_rules(lua_State *L);
void fg_lua_open_replay(lua_State *L);
void fg_lua_open_locomotion(lua_State *L);
void fg_lua_open_replication(lua_State *L);
/* Wraps the state's allocator for the budgets and adds fg.limits, fg.sandboxed. */
void fg_lua_open_sandbox(lua_State *L);
/* fg.rules (l_load.c). */
void fg_lua_open_load(lua_State *L);
/* world:reload, world:what_if, fg.watcher. */
void fg_lua_open_reload(lua_State *L);
void fg_lua_open_determinism(lua_State *L);

/* {====================================================================== worlds */

#define FG_LUA_WORLD_T "framegate.World"
#define FG_LUA_ENTITY_T "framegate.Entity"

struct fg_lua_recording; /* l_determinism.c */

/* The World userdata. */
typedef struct fg_lua_world {
    fg_world *w;
    lua_State *L;      /* the thread running w:advance, for the request-rule hook */
    int self;          /* stack index of the World userdata during w:advance */
    fg_tick presented; /* presentation hooks have seen every tick before this one */
    uint64_t rule_calls, hook_calls; /* calls into Lua, for w:stats() */
    struct fg_lua_recording *recording; /* w:record in progress (kept alive by the world) */
} fg_lua_world;

/* Pushes a World userdata with no world yet (lw->w == NULL) and an empty store; its user value
** is { rules = { [slot + 1] = Rules }, committed = { marker = count } } (and, once e:input_into
** has run, names = { [handle + 1] = name }). A world created for it
** calls the rules through fg_lua_world_hooks(lw). [-0, +1, m] */
fg_lua_world *fg_lua_new_world(lua_State *L);
fg_world_hooks fg_lua_world_hooks(fg_lua_world *lw);
/* A World's user value 2 holds what the tick reaches for on every rule and hook call, by integer
** key (a raw index, not a name looked up): the reusable rule views (l_view.c) and, from
** FG_LUA_HOT_HOOKS on, each slot's request and on_event functions (2 * slot + 0 and + 1). */
enum { FG_LUA_HOT_ENTITY_VIEW = 1, FG_LUA_HOT_REQUEST_VIEW = 2, FG_LUA_HOT_HOOKS = 3 };
/* Puts the Rules at rules_idx in a slot of the world's store, and its hooks where the tick reads
** them: every write of the store's rules goes through here. [-0, +0, m] */
void fg_lua_world_set_rules(lua_State *L, int world_idx, uint32_t slot, int rules_idx);
/* Checks that idx is an open World. [-0, +0, v] */
fg_lua_world *fg_lua_check_world(lua_State *L, int idx);
/* Pushes an Entity userdata for id, tied to the World at world_idx. [-0, +1, m] */
void fg_lua_push_entity(lua_State *L, int world_idx, fg_entity id);
/* Checks an Entity userdata; *w receives its (open) world, in which it exists (a restore to an
** earlier tick may have taken it away). [-0, +0, v] */
fg_entity fg_lua_check_entity(lua_State *L, int idx, fg_world **w);
/* Raises "entity N does not exist ...", for an Entity whose world was restored to fewer.
** [-0, +0, v] */
int fg_lua_no_entity(lua_State *L, const fg_world *w, fg_entity e);
/* The same checks for `self` (index 1) of a method of the World or Entity class, for the methods
** a host calls every tick. fg_lua_class and fg_lua_add_methods give every method two upvalues,
** its class's metatable and the class's self cache, so the check compares the metatable with
** upvalue 1 instead of looking the class up by name, and an object already checked is found by
** its address alone; anything else takes the checks above and their messages. Only for methods
** of that class (another class's upvalues would vouch for the wrong type). [-0, +0, v]
** fg_lua_self_entity does not check that the entity still exists: read it through an accessor
** that returns NULL for a missing entity and raise fg_lua_no_entity then. */
fg_lua_world *fg_lua_self_world_checked(lua_State *L);
fg_entity fg_lua_self_entity_checked(lua_State *L, fg_world **w);
/* util.c: the userdata at index 1 when the running method's class (upvalue 1) is its class, else
** NULL; *cached tells whether its address was in the class's self cache. The caller remembers
** an object it found valid and never one that was finalized; __gc forgets it. [-0, +0, -] */
void *fg_lua_self_udata(lua_State *L, bool *cached);
/* A class's self cache is FG_LUA_SELF_SLOTS addresses, indexed by address bits. The hit path
** is inline, as the methods polled every tick take it: three reads through the Lua API and no
** call of our own. A light userdata may carry any address, so only a full one is a hit. */
#define FG_LUA_SELF_SLOTS 8
static inline void *fg_lua_self_cached(lua_State *L) {
    void *p = lua_touserdata(L, 1);
    const void *const *slots = lua_touserdata(L, lua_upvalueindex(2));
    if (p && slots[((uintptr_t)p >> 4) & (FG_LUA_SELF_SLOTS - 1)] == p &&
        lua_type(L, 1) == LUA_TUSERDATA)
        return p;
    return NULL;
}
/* An Entity userdata. The world pointer is a shortcut past the user value, which keeps that
** world alive: queries polled every tick check one userdata rather than two. */
typedef struct fg_lua_entity {
    fg_entity id;
    bool finalized; /* its __gc ran: never in the self cache again (fg_lua_self_udata) */
    fg_lua_world *lw;
} fg_lua_entity;
static inline fg_lua_world *fg_lua_self_world(lua_State *L) {
    fg_lua_world *lw = fg_lua_self_cached(L);
    return lw && lw->w ? lw : fg_lua_self_world_checked(L);
}
static inline fg_entity fg_lua_self_entity(lua_State *L, fg_world **w) {
    const fg_lua_entity *le = fg_lua_self_cached(L);
    if (le && le->lw->w) return *w = le->lw->w, le->id;
    return fg_lua_self_entity_checked(L, w);
}
void fg_lua_self_remember(lua_State *L, const void *p);
void fg_lua_self_forget(lua_State *L, const void *p);
/* An action given by handle (w:action_id) or by name, checked against w's actions: a handle in
** range inline, as the queries polled every tick give it, anything else (names, floats, bad
** values and their messages) in fg_lua_check_action_any. [-0, +0, v] */
int fg_lua_check_action_any(lua_State *L, fg_world *w, int idx);
static inline int fg_lua_check_action(lua_State *L, fg_world *w, int idx) {
    if (lua_isinteger(L, idx)) {
        lua_Integer h = lua_tointeger(L, idx);
        if (h >= 0 && (lua_Unsigned)h < fg_world_action_names(w)->count) return (int)h;
    }
    return fg_lua_check_action_any(L, w, idx);
}
void fg_lua_open_queries(lua_State *L);
/* One tick as a Lua host runs it: the request rule inside, the presentation hooks after (once per
** tick: a tick run again after a rollback presents nothing). `again` marks a re-simulated tick,
** which a recording skips. Used by w:advance, the sync test and the replay player.
** [-0, +0, e] */
fg_status fg_lua_world_step(lua_State *L, int world_idx, bool again, fg_error *err);
/* The same on a World already checked open (lw is the userdata at world_idx). [-0, +0, e] */
fg_status fg_lua_world_step_open(lua_State *L, fg_lua_world *lw, int world_idx, bool again,
                                 fg_error *err);
/* An input time in integer microseconds at idx, or an argument error (fg_lua_bad_time, out of
** line: every pushed edge takes the check). [-0, +0, v] */
int fg_lua_bad_time(lua_State *L, int idx);
static inline int64_t fg_lua_check_time(lua_State *L, int idx) {
    int ok;
    lua_Integer t = lua_tointegerx(L, idx, &ok);
    if (!ok) fg_lua_bad_time(L, idx);
    return t;
}
/* l_determinism.c: a recording's work before and after each tick, and its end when the world
** closes. */
fg_status fg_lua_recording_before(lua_State *L, int world_idx, fg_lua_world *lw, fg_error *err);
fg_status fg_lua_recording_after(lua_State *L, int world_idx, fg_lua_world *lw, fg_error *err);
void fg_lua_recording_drop(fg_lua_world *lw);
/* Swaps the ruleset of a slot for the Rules at rules_idx, in the world (fg_world_replace_rules)
** and in the world's store, so its hooks run from the next tick. A recording in progress records
** the reload before the next tick, with the Rules' sources. [-0, +0, m] */
fg_status fg_lua_world_replace_rules(lua_State *L, int world_idx, uint32_t slot, int rules_idx,
                                     fg_error *err);
/* Adds the gameplay methods (requests, decisions, meter, ...) and fg.cue. [-0, +0, m] */
void fg_lua_open_play(lua_State *L);
/* l_combat.c: p:combat(), p:boxes(), p:team(), p:owner(). */
void fg_lua_open_combat(lua_State *L);
/* l_stage.c: w:stage, w:ground_mode, entity:support. */
void fg_lua_open_stage(lua_State *L);
/* l_vars.c: fg.set, fg.add (proposals from a request rule), p:var(), p:vars(). */
void fg_lua_open_vars(lua_State *L);
/* rules:vars(): the declared variables. [-0, +1, m] */
int fg_lua_push_rules_vars(lua_State *L, const fg_ruleset *r);

/* Read-only views (l_view.c). They read the world when indexed. push_view makes a new one (for
** entity:view()); the rule views are the world's reusable ones, re-pointed for each call, so a
** rule call allocates nothing. world_idx is the World userdata, hot its user value 2 (pushed
** by the caller, which reaches for the hooks there too). [-0, +1, m] */
void fg_lua_push_view(lua_State *L, int world_idx, fg_entity e);
void fg_lua_push_rule_view(lua_State *L, int world_idx, int hot, fg_entity e);
void fg_lua_push_request_view(lua_State *L, int world_idx, int hot, const fg_decision *d);
void fg_lua_open_view(lua_State *L);
/* Checks that idx is an entity view (a rule's `me`) of an open world; *w receives the world.
** [-0, +0, v] */
fg_entity fg_lua_check_view_entity(lua_State *L, int idx, fg_world **w);
/* An event table for a presentation hook. [-0, +1, m] */
void fg_lua_push_event(lua_State *L, const fg_world *w, const fg_event *ev);
/* Pushes a decision's text (fg_decision_describe), whole whatever its length. [-0, +1, m] */
void fg_lua_push_decision_text(lua_State *L, const fg_ruleset *r, const fg_decision *d);
/* Pushes a trace record's line (fg_world_trace_format), whole whatever its length. [-0, +1, m] */
void fg_lua_push_trace_line(lua_State *L, const fg_world *w, const fg_trace_record *r);
/* The world and entity fg.cue emits for, set around each presentation hook call (w NULL: none,
** and fg.cue raises). One per Lua state, kept in its registry. [-0, +0, m] */
typedef struct fg_lua_cue_target {
    fg_world *w;
    fg_entity e;
} fg_lua_cue_target;
fg_lua_cue_target *fg_lua_cue_target_of(lua_State *L);
/* Calls the rule or hook below nargs arguments, protected, under the sandbox's budgets (an
** instruction budget and a memory cap per call; see l_sandbox.c). `what` names it in messages
** ("request rule"); math.random inside it draws from rng (NULL: not available). On failure err
** holds "file:line: message" plus the rule's own frames, and nothing is left on the stack.
** [-(nargs+1), +nresults|0, -] */
fg_status fg_lua_call_rule(lua_State *L, fg_world *rng, const char *what, int nargs, int nresults,
                           fg_error *err);
/* Records a hook's failure in the world's trace, whole (the tick goes on), and clears err. */
void fg_lua_report_hook_error(fg_world *w, fg_entity e, fg_error *err);
/* Loads rules in the sandbox, protected, under the load budget: the file at path (or `text`,
** read as that file, when not NULL); includes resolve relative to path's folder, and come from
** the table at index `map` (path -> text; 0: from disk) when given, as a replay needs. Pushes the
** Rules on success; on failure pushes nothing and err names file, line and field. [-0, +1|0, -] */
fg_status fg_lua_load_rules(lua_State *L, const char *path, const char *text, size_t len,
                            int map, fg_error *err);
/* Calls the function below nargs arguments like fg_lua_call_rule, under the load budget.
** [-(nargs+1), +nresults|0, -] */
fg_status fg_lua_call_load(lua_State *L, int nargs, int nresults, const char *what,
                           fg_error *err);
/* Pushes a fresh sandbox environment for one rules file. ctx (if not 0) is a load's context:
** `include` is then a closure of the given function over it; without, include is blocked.
** [-0, +1, m] */
void fg_lua_sandbox_env(lua_State *L, int ctx, lua_CFunction include);
/* Bytes the state's allocator holds now (the budgets' count), or -1 without budgets. */
int64_t fg_lua_memory_in_use(lua_State *L);
/* __pairs for read-only views: the viewed table's keys in sorted order. */
int fg_lua_view_pairs(lua_State *L);
/* Loads a rules file into a Rules userdata. The Rules remember every file read (path and text)
** for replays: rules:sources(). [-0, +1, v] */
void fg_lua_load_rules_file(lua_State *L, const char *path);
/* The same from text already in memory (a replay's embedded source); `path` names it in
** messages and anchors includes. [-0, +1, v] */
void fg_lua_load_rules_source(lua_State *L, const char *path, const char *text, size_t len);

/* l_determinism.c: a hash as 16 hex digits, and a list of {path=, a=, b=, hashed=, text=} for
** state diffs. [-0, +1, m] */
void fg_lua_push_hex(lua_State *L, uint64_t h);
void fg_lua_push_diffs(lua_State *L, const fg_state_diff *d, uint32_t n);
/* l_session.c: fg.link, fg.session (and fg.enet when built with ENet). [-0, +0, m] */
void fg_lua_open_session(lua_State *L);

/* An open replay reader (framegate.replay_reader, l_replay.c). [-0, +0, v] */
fg_replay_reader *fg_lua_check_replay_reader(lua_State *L, int idx);

/* }====================================================================== */

/* {====================================================================== rules */

/* The Rules userdata: a compiled ruleset, plus (in its user value) the declaration's functions. */
typedef struct fg_lua_rules {
    fg_ruleset *rules;
    char hash_hex[17];
} fg_lua_rules;

fg_lua_rules *fg_lua_check_rules(lua_State *L, int idx);
fg_lua_rules *fg_lua_test_rules(lua_State *L, int idx);
/* Compiles the declaration at decl into a Rules userdata; chunk names its source in messages,
** source_hash (0 if none) is the hash of the files it came from.
** [-0, +1, v] */
int fg_lua_build_rules(lua_State *L, int decl, const char *chunk, uint64_t source_hash);
/* fg.replication{...} (l_replication.c): a replication session from a table at index 1. */
int fg_lua_replication_new(lua_State *L);
/* Reads a request rule's result at idx into a verdict; false (with err) when it is not one. */
bool fg_lua_read_verdict(lua_State *L, int idx, fg_verdict *out, fg_error *err);

/* }====================================================================== */

/* {====================================================================== helpers */

/* Creates metatable tname (with __name) whose __index is a table of methods, plus the given
** metamethods (__gc, __tostring, ...); each function gets the upvalues fg_lua_self_udata reads.
** Leaves nothing on the stack. [-0, +0, m] */
void fg_lua_class(lua_State *L, const char *tname, const luaL_Reg *methods, const luaL_Reg *meta);
void fg_lua_add_methods(lua_State *L, const char *tname, const luaL_Reg *methods);

/* Raises err's whole message as a Lua error positioned at the calling Lua code. err is cleared
** first (its heap copy freed), since the error jumps past the C frame that owns it. [-0, +0, v] */
int fg_lua_raise(lua_State *L, fg_error *err);
/* Raises the string on top of the stack like luaL_error: positioned at the calling Lua code, any
** length. [-1, +0, v] */
int fg_lua_raise_top(lua_State *L);
/* Pushes err's whole message and clears err, for a function that returns nil, message. [-0, +1, m] */
void fg_lua_push_error(lua_State *L, fg_error *err);
/* A layer argument: its name or its index (0 = the first layer), absent = 0. Raises an argument
** error naming the layers, or the range. */
uint32_t fg_lua_opt_layer(lua_State *L, int idx, const fg_ruleset *r);
/* l_motion.c: pushes a motion's explanation, "fired: ..." or the near-miss line, and a table
** of its numbers { fired, reason, step, reached, steps, value, limit, tick, other }. */
int fg_lua_push_explanation(lua_State *L, const fg_motion_set *set,
                            const fg_motion_command *fired, const fg_motion_miss *miss);
/* Registry: the Lua message of the last rule or load that failed, before the sandbox added to it,
** which fg_lua_raise_load_error names the file in. */
#define FG_LUA_FULL_ERROR_KEY "framegate.full_error"
/* Raises the message of a rules load that just failed with the file named in full even where
** Lua shortened it; err is cleared like fg_lua_raise does. */
int fg_lua_raise_load_error(lua_State *L, const char *path, fg_error *err);

/* Reads an optional integer field of the table at index t without allocating; a wrong value
** raises "callee.field: expected ..., got ..." (fg_lua_field_error). [-0, +0, v] */
lua_Integer fg_lua_opt_int_field(lua_State *L, int t, const char *field, lua_Integer def);
/* Reads an optional number field. [-0, +0, v] */
lua_Number fg_lua_opt_num_field(lua_State *L, int t, const char *field, lua_Number def);
/* l_sandbox.c: charges the running budgeted call `steps` instructions for work a C function is
** about to do; over budget, raises the overrun (naming `what`) instead. No-op outside a call. */
void fg_lua_budget_charge(lua_State *L, double steps, const char *what);
int64_t fg_lua_heap_cap(lua_State *L);
/* l_guard.c: the sandbox's replacements (charged C functions, xpcall, setmetatable), applied to
** the library copy on top of the stack (or the base table at `base`). */
void fg_lua_guard_string(lua_State *L);
void fg_lua_guard_table(lua_State *L);
void fg_lua_guard_utf8(lua_State *L);
void fg_lua_guard_base(lua_State *L, int base);
/* A deep copy of the table at idx through raw access, without metatables. [-0, +1, e] */
void fg_lua_plain_copy(lua_State *L, int idx);
/* l_files.c: reads a regular file without blocking (true, the text pushed; false, the reason
** pushed); whether a path resolves inside the real folder root (true, nothing pushed; false, the
** reason pushed). */
bool fg_lua_read_file(lua_State *L, const char *path);
bool fg_lua_check_inside(lua_State *L, const char *root, const char *path);
/* l_number.c: numbers into the runtime, range-checked with a message naming `what`. */
lua_Integer fg_lua_check_range(lua_State *L, int idx, const char *what, lua_Integer lo,
                               lua_Integer hi);
lua_Number fg_lua_check_finite(lua_State *L, int idx, const char *what, lua_Number lo,
                               lua_Number hi);
/* A position or speed in units (within +-FG_POSITION_MAX), as fixed point. */
fg_fx fg_lua_check_fx(lua_State *L, int idx, const char *what);
fg_fx fg_lua_fx_field(lua_State *L, int t, const char *field, lua_Number def);
fg_entity fg_lua_check_entity_id(lua_State *L, int idx, const char *what);
lua_Integer fg_lua_range_field(lua_State *L, int t, const char *field, lua_Integer def,
                               lua_Integer lo, lua_Integer hi);
/* Raises "what: unknown field 'k'" for the bytewise-smallest key of table t not in the
** NULL-terminated `known`, and an error for a key that is not a string. [-0, +0, v] */
void fg_lua_check_fields(lua_State *L, int t, const char *what, const char *const *known);
/* Reads an optional string field (pointer valid while the table is alive). [-0, +0, v] */
const char *fg_lua_opt_str_field(lua_State *L, int t, const char *field, const char *def);
/* Reads an optional boolean field. [-0, +0, v] */
int fg_lua_opt_bool_field(lua_State *L, int t, const char *field, int def);

/* }====================================================================== */

/* {====================================================================== the field reader */

/* Reads the fields of Lua tables with the path of the field being read, so an error names it:
** `locomotion.wall_ticks: 0 is out of range, expected 1-65535`. By default the first error
** raises (after `chunk` when given, else at the calling Lua code). A reader with `notes` (the
** stack index of a list) collects "path: message" findings instead and goes on with defaults;
** fg_lua_reader_fail then raises what `summary` pushes. */
typedef struct fg_lua_reader {
    lua_State *L;
    const char *chunk; /* put in front of a raised message (the file read), or NULL */
    const char *name;  /* what is read, once known (for a summary) */
    int notes;         /* 0: raise at the first error; else the list collecting findings */
    int extra;         /* a stack index the reader's user keeps beside it, or 0 */
    void (*summary)(struct fg_lua_reader *rd); /* pushes the message of a failed read */
    int box;           /* stack index of the path buffer */
    char *path;        /* the field being read */
    size_t len, cap;
} fg_lua_reader;

/* Starts a reader whose path is `root` ("" or NULL: none yet). Pushes the path buffer, which
** must stay on the stack while the reader is used. [-0, +1, m] */
void fg_lua_reader_init(fg_lua_reader *rd, lua_State *L, const char *root, const char *chunk);
/* Appends a segment (".name", "[3]") and returns the length to restore with _pop. */
size_t fg_lua_reader_push(fg_lua_reader *rd, const char *fmt, ...) FG_PRINTF(2, 3);
void fg_lua_reader_pop(fg_lua_reader *rd, size_t old);
/* A field that cannot be read: noted (or raised). [-0, +0, v] */
void fg_lua_reader_note(fg_lua_reader *rd, const char *fmt, ...) FG_PRINTF(2, 3);
/* fg_lua_reader_note with a failed call's whole message; err is cleared. [-0, +0, v] */
void fg_lua_reader_note_error(fg_lua_reader *rd, fg_error *err);
/* A structure that cannot be read: raises. [-0, +0, v] */
int fg_lua_reader_fail(fg_lua_reader *rd, const char *fmt, ...) FG_PRINTF(2, 3);
/* Notes "V is out of range, expected LO-HI[ unit]" for the current path. */
void fg_lua_reader_range(fg_lua_reader *rd, lua_Integer v, lua_Integer lo, lua_Integer hi,
                         const char *unit);
/* "LO-HI", or "LO to HI" when LO is negative: the one way a range is written. */
void fg_lua_range_text(char *buf, size_t size, lua_Integer lo, lua_Integer hi);
/* Raises "path: V is out of range, expected LO-HI[ unit]" at the calling Lua code. */
int fg_lua_range_error(lua_State *L, const char *path, lua_Integer v, lua_Integer lo,
                       lua_Integer hi, const char *unit);
/* Writes "string 'x'", "12", "nil"... for messages (a long string shown by its start). */
const char *fg_lua_describe_value(lua_State *L, int idx, char *buf, size_t size);
/* Pushes the string keys of the table at idx sorted bytewise (a new list); returns the count.
** A key that is not a string fails. [-0, +1, v] */
int fg_lua_reader_keys(fg_lua_reader *rd, int idx);
/* The same without a reader: pushes the sorted list and returns its length, or, at a key that
** is not a string, pushes that key instead and returns -1 for the caller's own message. Sorting
** is n log n, so no table a script builds makes it slow. [-0, +1, m] */
lua_Integer fg_lua_sorted_keys(lua_State *L, int t);
/* Notes every key of the table at idx that is not in the NULL-terminated `allowed`. */
void fg_lua_reader_only(fg_lua_reader *rd, int idx, const char *const *allowed);
/* Pushes field k of table t; false when it is nil. [-0, +1, -] */
bool fg_lua_reader_get(fg_lua_reader *rd, int t, const char *k);
/* Optional fields of table t: def when absent (or unreadable, once noted). */
lua_Integer fg_lua_read_int(fg_lua_reader *rd, int t, const char *k, lua_Integer def,
                            lua_Integer lo, lua_Integer hi);
lua_Number fg_lua_read_num(fg_lua_reader *rd, int t, const char *k, lua_Number def,
                           lua_Number lo, lua_Number hi);
/* Pixels (fractions allowed, within +-30000) as 16.16 fixed point. */
fg_fx fg_lua_read_fx(fg_lua_reader *rd, int t, const char *k, fg_fx def);
bool fg_lua_read_bool(fg_lua_reader *rd, int t, const char *k, bool def);
/* The string stays valid while the table is alive. */
const char *fg_lua_read_str(fg_lua_reader *rd, int t, const char *k, const char *def);
/* A string copied into out (shorter than size). */
void fg_lua_read_name(fg_lua_reader *rd, int t, const char *k, char *out, size_t size);
/* A name or a list of at most max names into out. */
uint32_t fg_lua_read_names(fg_lua_reader *rd, int t, const char *k, char (*out)[FG_NAME_MAX],
                           uint32_t max);
/* Starts a reader whose root is the name the running C function was called by ("dispatch" for
** d:dispatch{...}). [-0, +1, m] */
void fg_lua_reader_callee(fg_lua_reader *rd, lua_State *L);
/* Raises "callee.field: message" at the calling Lua code (a field of an options argument).
** [-0, +0, v] */
int fg_lua_field_error(lua_State *L, const char *field, const char *fmt, ...) FG_PRINTF(3, 4);
/* l_hits.c: an action's boxes, invulnerability, hit and throw; the ruleset's default boxes and
** combat rules. */
void fg_lua_read_action_hits(fg_lua_reader *rd, int t, fg_action_def *a);
void fg_lua_read_ruleset_hits(fg_lua_reader *rd, int idx, fg_ruleset_builder *b);
/* l_hits.c: a hit definition at the top of the stack; a `boxes` list of table t (a box
** without a kind is of kind `def`; FG_BOX_KINDS: it must say). */
void fg_lua_read_hit_fields(fg_lua_reader *rd, fg_hit_def *h);
void fg_lua_read_box_list(fg_lua_reader *rd, int t, fg_box_def *boxes, uint32_t *nboxes,
                          uint32_t max, int32_t duration, fg_box_kind def);
/* l_projectile.c: the ruleset's `projectiles`, an action's `spawn`, the world's methods. */
void fg_lua_read_projectiles(fg_lua_reader *rd, int idx, fg_ruleset_builder *b);
void fg_lua_read_spawn(fg_lua_reader *rd, int t, fg_action_def *a);
void fg_lua_open_projectiles(lua_State *L);
/* l_vars.c: the declaration's `vars`; a cancel window's `when = { stance = 2 }`. */
void fg_lua_read_ruleset_vars(fg_lua_reader *rd, int idx, fg_ruleset_builder *b);
void fg_lua_read_window_when(fg_lua_reader *rd, int t, fg_cancel_def *c);
/* The same, back as tables (rules:action). [-0, +0, m] */
void fg_lua_push_action_hits(lua_State *L, const fg_action_def *a);
/* gaps = { 12, 12, 8 } of the motion table t into def->gaps (l_motion.c). */
void fg_lua_read_motion_gaps(fg_lua_reader *rd, int t, fg_motion_def *def);
/* l_stage.c: a stage table (at t) read over *s, which holds the defaults; its checks noted
** with their path (`stage.platforms[2].w: ...`). The stage back as a table. [-0, +0, v] */
void fg_lua_read_stage(fg_lua_reader *rd, int t, fg_stage *s);
void fg_lua_push_stage(lua_State *L, const fg_stage *s);
/* Fails unless the value at idx is a table ("expected <what>, got ..."). */
void fg_lua_reader_table(fg_lua_reader *rd, int idx, const char *what);

/* }====================================================================== */

#endif
