/* SPDX-License-Identifier: MIT */
/*
** l_sandbox.c: where rules run. Rule files are loaded as text only, each into an environment of
** its own over a frozen base of safe functions; blocked names raise a message that says so; a
** file may split off parts of the ruleset with a sandboxed include; and every call of a rule or
** hook runs under an instruction budget and a memory cap that the script cannot swallow. Reading
** rule files, includes and building the Rules from them is l_load.c's job.
**
** Rules run in the host's own Lua state (they are functions the world calls while it ticks), so
** the sandbox is a set of environments, not a second state. What that costs the host is listed
** in one place, open_sandbox(): the allocator is wrapped (to count bytes) and the string
** metatable's __index no longer reaches string.dump.
**
** Determinism: `pairs` and `next` in rules visit keys in sorted order (numbers, then strings
** bytewise, then false and true), because Lua's string hash is seeded per state and raw
** iteration order may differ between two runs; `math.random` draws from the world's seeded RNG.
*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "fg_lua.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SANDBOX_KEY "framegate.sandbox"   /* registry: { base=, envmeta=, fg=, marker= } */
#define MODULE_KEY "framegate.module"     /* registry: the module table */
#define BUDGET_KEY "framegate.budget"     /* registry: the userdata that owns the budget */
#define PROTECTED "framegate: protected"  /* __metatable of every table the sandbox freezes */

/* Default limits: a request rule is a few dozen instructions and allocates a verdict; loading a
** ruleset of 50 actions runs some thousands of instructions. */
#define CALL_STEPS 1000000
#define CALL_MEMORY (4 * 1024 * 1024)
#define LOAD_STEPS 20000000
#define LOAD_MEMORY (64 * 1024 * 1024)
#define HEAP_MEMORY ((int64_t)512 * 1024 * 1024)
#define CALL_WALL_MS 1000
#define LOAD_WALL_MS 10000
#define HOOK_EVERY 1000                   /* instructions between two checks of the budget */
#define ERROR_SLACK (256 * 1024)          /* what reporting an overrun may still allocate */
/* An overrun's message is made without allocating (the heap may be what ran out), in fixed
** buffers sized for the worst case, so nothing in it is ever cut: a head of bounded parts
** (sources are LUA_IDSIZE at most), then up to FRAMES traceback lines, each with a function
** name shortened to FRAME_NAME bytes with "..." (as Lua shortens a long source name). */
#define FRAMES 8
#define FRAME_NAME 64
#define FRAME_LINE (2 * LUA_IDSIZE + FRAME_NAME + 64)
#define TRACE_HEAD 384
#define TRACE_MAX (TRACE_HEAD + 64 + FRAMES * (FRAME_LINE + 2))

/* {====================================================================== budgets */

enum { TRIP_NONE = 0, TRIP_STEPS = 1, TRIP_MEMORY = 2, TRIP_HEAP = 3, TRIP_WALL = 4 };

/* One per Lua state, owned by a registry userdata and reached through the allocator's ud, so
** the count hook and the allocator find it without a table lookup. */
typedef struct fg_lua_budget {
    lua_Alloc alloc; /* the allocator wrapped */
    void *alloc_ud;
    int64_t in_use;  /* bytes the state holds, as its allocator sees them */
    /* The budgeted call running now (active), if any. */
    int active;
    int tripped;     /* TRIP_*: the call is over budget; every further instruction errors */
    int soft;        /* grew past the cap: judged after a collection at the next instruction */
    lua_State *L;    /* the thread running it */
    const void *caller; /* the call frame (CallInfo) that made the call: the rule's own frames
                           are those above it */
    int64_t base;    /* in_use when it began */
    int64_t cap;     /* bytes it may add */
    int64_t steps;   /* instructions left */
    int64_t limit_steps;
    int every;       /* the count hook's period */
    int64_t refused; /* size of the last refused allocation */
    fg_world *world; /* math.random draws from it; NULL: not available */
    const char *what;
    int64_t deadline_ns; /* the wall-time backstop of the call, on the monotonic clock */
    int64_t wall_ms;
    /* Limits set with fg.limits. */
    int64_t call_steps, call_memory, load_steps, load_memory;
    int64_t heap;    /* the whole state may hold this much while rules run */
    int64_t call_wall_ms, load_wall_ms;
    char msg[TRACE_MAX];
} fg_lua_budget;

/* What a nested budgeted call saves of the one it interrupts. */
typedef struct budget_frame {
    int active, tripped, soft, every;
    lua_State *L;
    const void *caller;
    int64_t base, cap, steps, limit_steps, deadline_ns, wall_ms;
    fg_world *world;
    const char *what;
    lua_Hook hook;
    int mask, count;
} budget_frame;

/* The monotonic clock, for the wall-time backstop only: it never decides an outcome that an
** honest rule can reach (the instruction budget trips long before it on any machine). */
static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
static void budget_hook(lua_State *L, lua_Debug *ar);

static fg_lua_budget *budget_of(lua_State *L) {
    void *ud;
    return lua_getallocf(L, &ud) == budget_alloc ? ud : NULL;
}

/* When ptr is NULL, osize is a type tag, not a size: the block is new. Shrinking never fails
** (Lua relies on it); growth past the cap is let through up to twice the cap and judged at the
** next instruction, after a collection, so garbage is not mistaken for growth; growth past that
** is refused at once, and Lua retries once after an emergency collection. */
static void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    fg_lua_budget *b = ud;
    int64_t old = ptr ? (int64_t)osize : 0;
    if (nsize == 0) {
        b->alloc(b->alloc_ud, ptr, osize, 0);
        b->in_use -= old;
        return NULL;
    }
    if (b->active && (int64_t)nsize > old) {
        int64_t after = b->in_use + ((int64_t)nsize - old) - b->base;
        int64_t ceiling = b->cap * 2 + (b->tripped ? ERROR_SLACK : 0);
        if (b->in_use + ((int64_t)nsize - old) > b->heap + (b->tripped ? ERROR_SLACK : 0)) {
            /* The whole heap: what rules keep between calls adds up here. Refused once for the
            ** emergency collection, then for good. */
            if (b->refused == (int64_t)nsize && !b->tripped) {
                b->tripped = TRIP_HEAP;
                lua_sethook(b->L, budget_hook, LUA_MASKCOUNT | LUA_MASKLINE, 1);
            }
            b->refused = (int64_t)nsize;
            return NULL;
        }
        if (after > ceiling) {
            /* The same request refused twice is the retry after the emergency collection; a
            ** request bigger than the whole allowance can never fit. */
            bool hopeless = (int64_t)nsize - old > b->cap * 2;
            if ((hopeless || b->refused == (int64_t)nsize) && !b->tripped) {
                b->tripped = TRIP_MEMORY;
                lua_sethook(b->L, budget_hook, LUA_MASKCOUNT | LUA_MASKLINE, 1);
            }
            b->refused = (int64_t)nsize;
            return NULL;
        }
        if (after > b->cap && !b->tripped && !b->soft) {
            b->soft = 1;
            lua_sethook(b->L, budget_hook, LUA_MASKCOUNT, 1);
        }
    }
    void *p = b->alloc(b->alloc_ud, ptr, osize, nsize);
    if (p) b->in_use += (int64_t)nsize - old;
    return p;
}

/* Appends the frames of the running rule (those above the frame that made the budgeted call)
** to buf, from `level` up. The rule's own function is named `what`. Frames are told apart by
** lua_Debug's i_ci, which lua_getstack sets: reading a pointer costs the call nothing, where
** marking the boundary with a frame of our own would cost a C call on every rule call. */
/* name, or its first FRAME_NAME bytes (whole characters) and "..." in out. */
static const char *frame_name(char out[FRAME_NAME + 4], const char *name) {
    size_t len = strlen(name);
    if (len <= FRAME_NAME) return name;
    len = FRAME_NAME;
    while (len > 0 && ((unsigned char)name[len] & 0xC0) == 0x80) len--;
    memcpy(out, name, len);
    memcpy(out + len, "...", 4);
    return out;
}

static size_t append_frames(lua_State *L, int level, const void *caller, const char *what,
                            char *buf, size_t n, size_t size) {
    lua_Debug ar;
    char lines[FRAMES][FRAME_LINE], name[FRAME_NAME + 4];
    int count = 0, more = 0, walked = 0;
    /* lua_getstack walks from the top, so a walk to level n costs n: stopping after a bounded
    ** number of levels keeps a traceback of a deep recursion cheap (it is built once per frame
    ** as an overrun unwinds). */
    for (; lua_getstack(L, level, &ar); level++) {
        if (caller && (const void *)ar.i_ci == caller) break;
        if (++walked > 100) {
            more = -1;
            break;
        }
        if (count == FRAMES) {
            more++;
            continue;
        }
        lua_getinfo(L, "Sln", &ar);
        if (*ar.what == 'C' && (!ar.name || strcmp(ar.namewhat, "metamethod") == 0)) continue;
        char *line = lines[count++];
        if (*ar.what == 'C')
            snprintf(line, FRAME_LINE, "[C]: in function '%s'", frame_name(name, ar.name));
        else if (ar.name && *ar.namewhat)
            snprintf(line, FRAME_LINE, "%s:%d: in %s '%s'", ar.short_src, ar.currentline,
                     ar.namewhat, frame_name(name, ar.name));
        else if (*ar.what == 'm')
            snprintf(line, FRAME_LINE, "%s:%d: in main chunk", ar.short_src, ar.currentline);
        else
            snprintf(line, FRAME_LINE, "%s:%d: in function <%s:%d>", ar.short_src,
                     ar.currentline, ar.short_src, ar.linedefined);
    }
    /* The bottom frame is the rule itself, called from C: give it the hook's name. */
    if (count > 0 && what && !more) {
        char *last = lines[count - 1];
        char *in = strstr(last, ": in function <");
        if (in) snprintf(in, FRAME_LINE - (size_t)(in - last), ": in %s", what);
    }
    if (count == 0) return n;
    n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "\nrule traceback:");
    for (int i = 0; i < count && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "\n\t%s", lines[i]);
    if (more > 0 && n < size) n += (size_t)snprintf(buf + n, size - n, "\n\t(%d more)", more);
    else if (more < 0 && n < size) n += (size_t)snprintf(buf + n, size - n, "\n\t(more than 90 more)");
    return n < size ? n : size - 1;
}

/* Formats the overrun message at the running instruction (level 0) into b->msg. */
static void describe_overrun(lua_State *L, fg_lua_budget *b, lua_Debug *ar) {
    lua_getinfo(L, "Sl", ar);
    size_t n;
    const char *what = b->what ? b->what : "rule";
    if (b->tripped == TRIP_STEPS)
        n = (size_t)snprintf(b->msg, sizeof b->msg, "%s:%d: framegate: %s ran past its budget "
                             "of %lld instructions (an endless loop?)", ar->short_src,
                             ar->currentline, what, (long long)b->limit_steps);
    else if (b->tripped == TRIP_HEAP)
        n = (size_t)snprintf(b->msg, sizeof b->msg, "%s:%d: framegate: %s pushed the Lua heap "
                             "past its cap of %lld bytes (what rules keep between calls adds "
                             "up)", ar->short_src, ar->currentline, what, (long long)b->heap);
    else if (b->tripped == TRIP_WALL)
        n = (size_t)snprintf(b->msg, sizeof b->msg, "%s:%d: framegate: %s ran past its time "
                             "limit of %lld ms", ar->short_src, ar->currentline, what,
                             (long long)b->wall_ms);
    else
        n = (size_t)snprintf(b->msg, sizeof b->msg, "%s:%d: framegate: %s went over its "
                             "memory cap of %lld bytes", ar->short_src, ar->currentline, what,
                             (long long)b->cap);
    if (n >= sizeof b->msg) n = sizeof b->msg - 1;
    append_frames(L, 0, b->caller, b->what, b->msg, n, sizeof b->msg);
}

/* The count hook. Once a call is over budget it re-arms itself on every instruction and line,
** so a pcall inside the rule catches the error only to meet it again at its next instruction. */
static void budget_hook(lua_State *L, lua_Debug *ar) {
    fg_lua_budget *b = budget_of(L);
    if (!b || !b->active || b->L != L) return;
    if (!b->tripped) {
        if (b->soft) {
            b->soft = 0;
            lua_gc(L, LUA_GCCOLLECT); /* garbage is not growth */
            if (b->in_use - b->base <= b->cap) {
                lua_sethook(L, budget_hook, LUA_MASKCOUNT, b->every);
                return;
            }
            b->tripped = TRIP_MEMORY;
        } else {
            if (ar->event != LUA_HOOKCOUNT) return;
            b->steps -= b->every;
            if (now_ns() > b->deadline_ns) {
                b->tripped = TRIP_WALL;
            } else if (b->steps > 0) {
                if (b->steps < b->every) {
                    b->every = (int)b->steps;
                    lua_sethook(L, budget_hook, LUA_MASKCOUNT, b->every);
                }
                return;
            } else {
                b->tripped = TRIP_STEPS;
            }
        }
        lua_sethook(L, budget_hook, LUA_MASKCOUNT | LUA_MASKLINE, 1);
    }
    if (!b->msg[0]) describe_overrun(L, b, ar);
    lua_pushstring(L, b->msg);
    lua_error(L);
}

static void budget_begin(lua_State *L, fg_lua_budget *b, budget_frame *f, int64_t steps,
                         int64_t memory, int64_t wall_ms, fg_world *world, const char *what) {
    f->active = b->active;
    f->tripped = b->tripped;
    f->soft = b->soft;
    f->every = b->every;
    f->L = b->L;
    f->caller = b->caller;
    f->base = b->base;
    f->cap = b->cap;
    f->steps = b->steps;
    f->limit_steps = b->limit_steps;
    f->deadline_ns = b->deadline_ns;
    f->wall_ms = b->wall_ms;
    f->world = b->world;
    f->what = b->what;
    f->hook = lua_gethook(L);
    f->mask = lua_gethookmask(L);
    f->count = lua_gethookcount(L);
    b->active = 1;
    b->tripped = TRIP_NONE;
    b->soft = 0;
    b->L = L;
    lua_Debug ar;
    b->caller = lua_getstack(L, 0, &ar) ? (const void *)ar.i_ci : NULL;
    b->base = b->in_use;
    b->cap = memory;
    b->steps = b->limit_steps = steps;
    b->wall_ms = wall_ms;
    b->deadline_ns = now_ns() + wall_ms * 1000000;
    b->every = steps < HOOK_EVERY ? (int)steps : HOOK_EVERY;
    b->refused = 0;
    b->world = world;
    b->what = what;
    b->msg[0] = '\0';
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, b->every);
}

static void budget_end(lua_State *L, fg_lua_budget *b, const budget_frame *f) {
    lua_sethook(L, f->hook, f->mask, f->count);
    b->active = f->active;
    b->tripped = f->tripped;
    b->soft = f->soft;
    b->every = f->every;
    b->L = f->L;
    b->caller = f->caller;
    b->base = f->base;
    b->cap = f->cap;
    b->steps = f->steps;
    b->limit_steps = f->limit_steps;
    b->deadline_ns = f->deadline_ns;
    b->wall_ms = f->wall_ms;
    b->world = f->world;
    b->what = f->what;
}

/* Message handler: the message plus the rule's own frames (not the host's). A budget overrun
** keeps the message made where it happened, whatever the script did with the error since. */
static int rule_handler(lua_State *L) {
    fg_lua_budget *b = budget_of(L);
    if (b && b->active && b->tripped) {
        if (!b->msg[0]) {
            /* A refused allocation raised as an ordinary error (a C library's buffer): the
            ** stack is still here, so say where. */
            lua_Debug ar;
            int level = 1;
            while (lua_getstack(L, level, &ar)) {
                lua_getinfo(L, "S", &ar);
                if (*ar.what != 'C') break;
                level++;
            }
            if (lua_getstack(L, level, &ar)) describe_overrun(L, b, &ar);
        }
        if (b->msg[0]) {
            lua_pushstring(L, b->msg);
            return 1;
        }
    }
    /* The message is kept whole (a ruleset's findings can run long); only the frames are
    ** formatted here. */
    /* No __tostring: it would be the rule's own code, run while an error is being raised. */
    if (lua_type(L, 1) == LUA_TSTRING || lua_type(L, 1) == LUA_TNUMBER)
        lua_pushvalue(L, 1);
    else
        lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    char frames[TRACE_MAX];
    frames[0] = '\0';
    append_frames(L, 1, b && b->active ? b->caller : NULL, b && b->active ? b->what : NULL,
                  frames, 0, sizeof frames);
    lua_pushstring(L, frames);
    lua_concat(L, 2);
    return 1;
}

/* Calls the function below nargs arguments, protected, under a budget. On failure err holds
** "file:line: message" and the rule's frames, and nothing is left on the stack. */
static fg_status budget_pcall(lua_State *L, fg_lua_budget *b, int nargs, int nresults,
                              int64_t steps, int64_t memory, int64_t wall_ms, fg_world *world,
                              const char *what, fg_error *err) {
    int fidx = lua_gettop(L) - nargs;
    lua_pushvalue(L, fidx); /* kept below, to name the rule when memory runs out */
    lua_pushcfunction(L, rule_handler);
    lua_rotate(L, fidx, 2); /* copy, handler, f, args */
    budget_frame f;
    if (b) budget_begin(L, b, &f, steps, memory, wall_ms, world, what);
    int st = lua_pcall(L, nargs, nresults, fidx + 1);
    int tripped = b ? b->tripped : TRIP_NONE;
    if (b) {
        /* The budget's message, if it made one, wins over what the script turned it into. */
        if (st != LUA_OK && tripped && b->msg[0]) {
            lua_pop(L, 1);
            lua_pushstring(L, b->msg);
        }
        budget_end(L, b, &f);
    }
    if (st == LUA_OK) {
        lua_rotate(L, fidx, -2);
        lua_pop(L, 2);
        return FG_OK;
    }
    if (st == LUA_ERRMEM) {
        /* No message handler runs for memory errors: name the rule from its definition. */
        lua_Debug ar;
        lua_pushvalue(L, fidx);
        lua_getinfo(L, ">S", &ar);
        char where[LUA_IDSIZE + 24];
        if (ar.linedefined > 0) snprintf(where, sizeof where, "%s:%d", ar.short_src, ar.linedefined);
        else snprintf(where, sizeof where, "%s", ar.short_src);
        if (b && tripped == TRIP_HEAP)
            fg_error_set(err, FG_ERULE, "%s: framegate: %s pushed the Lua heap past its cap of "
                         "%lld bytes (an allocation of %lld bytes was refused; what rules keep "
                         "between calls adds up)", where, what ? what : "rule",
                         (long long)b->heap, (long long)b->refused);
        else if (b)
            fg_error_set(err, FG_ERULE, "%s: framegate: %s went over its memory cap of %lld "
                         "bytes (an allocation of %lld bytes was refused)", where,
                         what ? what : "rule", (long long)memory, (long long)b->refused);
        else
            fg_error_set(err, FG_ERULE, "%s: framegate: %s: not enough memory", where,
                         what ? what : "rule");
    } else {
        const char *msg = lua_tostring(L, -1);
        fg_error_set(err, FG_ERULE, "%s", msg ? msg : "rule failed");
        /* Kept as Lua gave it: a failed load is raised from it with the file named in full. */
        if (msg) {
            lua_pushvalue(L, -1);
            lua_setfield(L, LUA_REGISTRYINDEX, FG_LUA_FULL_ERROR_KEY);
        }
    }
    lua_settop(L, fidx - 1);
    return FG_ERULE;
}

fg_status fg_lua_call_rule(lua_State *L, fg_world *rng, const char *what, int nargs, int nresults,
                           fg_error *err) {
    fg_lua_budget *b = budget_of(L);
    return budget_pcall(L, b, nargs, nresults, b ? b->call_steps : CALL_STEPS,
                        b ? b->call_memory : CALL_MEMORY, b ? b->call_wall_ms : CALL_WALL_MS, rng,
                        what, err);
}

fg_status fg_lua_call_load(lua_State *L, int nargs, int nresults, const char *what,
                           fg_error *err) {
    fg_lua_budget *b = budget_of(L);
    return budget_pcall(L, b, nargs, nresults, b ? b->load_steps : LOAD_STEPS,
                        b ? b->load_memory : LOAD_MEMORY, b ? b->load_wall_ms : LOAD_WALL_MS, NULL,
                        what, err);
}

int64_t fg_lua_memory_in_use(lua_State *L) {
    fg_lua_budget *b = budget_of(L);
    return b ? b->in_use : -1;
}

/* The budget's owner: restores the wrapped allocator when the state closes, then frees the
** budget with it. Objects freed after this go straight to the original allocator. */
static int budget_gc(lua_State *L) {
    fg_lua_budget **owner = lua_touserdata(L, 1);
    if (owner && *owner) {
        fg_lua_budget *b = *owner;
        *owner = NULL;
        lua_setallocf(L, b->alloc, b->alloc_ud);
        b->alloc(b->alloc_ud, b, sizeof *b, 0);
    }
    return 0;
}

static void install_budget(lua_State *L) {
    if (lua_getfield(L, LUA_REGISTRYINDEX, BUDGET_KEY) != LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    void *ud;
    lua_Alloc prev = lua_getallocf(L, &ud);
    fg_lua_budget **owner = lua_newuserdatauv(L, sizeof *owner, 0);
    *owner = NULL;
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, budget_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, BUDGET_KEY);
    fg_lua_budget *b = prev(ud, NULL, LUA_TUSERDATA, sizeof *b);
    if (!b) {
        luaL_error(L, "framegate: out of memory");
        return;
    }
    memset(b, 0, sizeof *b);
    b->alloc = prev;
    b->alloc_ud = ud;
    b->call_steps = CALL_STEPS;
    b->call_memory = CALL_MEMORY;
    b->load_steps = LOAD_STEPS;
    b->load_memory = LOAD_MEMORY;
    b->heap = HEAP_MEMORY;
    b->call_wall_ms = CALL_WALL_MS;
    b->load_wall_ms = LOAD_WALL_MS;
    /* Every block allocated so far is counted by Lua itself; start from its count. */
    b->in_use = (int64_t)lua_gc(L, LUA_GCCOUNT) * 1024 + lua_gc(L, LUA_GCCOUNTB);
    *owner = b;
    lua_setallocf(L, budget_alloc, b);
}

/* fg.limits([{instructions=, memory=, load_instructions=, load_memory=, heap=, wall_ms=,
** load_wall_ms=}]) -> the limits now. Host-side only: rules cannot reach it. */
enum { LIMITS = 7 };
static const char *const limit_keys[LIMITS] = {"instructions", "memory", "load_instructions",
                                               "load_memory", "heap", "wall_ms", "load_wall_ms"};

static int64_t *limit_field(fg_lua_budget *b, int i) {
    int64_t *fields[LIMITS] = {&b->call_steps, &b->call_memory, &b->load_steps, &b->load_memory,
                               &b->heap, &b->call_wall_ms, &b->load_wall_ms};
    return fields[i];
}

static int l_limits(lua_State *L) {
    fg_lua_budget *b = budget_of(L);
    if (!b) return luaL_error(L, "framegate: budgets are off (the state's allocator was replaced)");
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        int64_t next[LIMITS];
        for (int i = 0; i < LIMITS; i++) {
            next[i] = fg_lua_opt_int_field(L, 1, limit_keys[i], *limit_field(b, i));
            int64_t most = i >= 5 ? INT64_MAX / 1000000 : LUA_MAXINTEGER; /* ms to ns */
            if (next[i] < 1 || next[i] > most)
                return fg_lua_range_error(L, lua_pushfstring(L, "limits.%s", limit_keys[i]),
                                          next[i], 1, most, NULL);
        }
        for (int i = 0; i < LIMITS; i++) *limit_field(b, i) = next[i];
    }
    lua_createtable(L, 0, LIMITS);
    for (int i = 0; i < LIMITS; i++) {
        lua_pushinteger(L, *limit_field(b, i));
        lua_setfield(L, -2, limit_keys[i]);
    }
    return 1;
}

int64_t fg_lua_heap_cap(lua_State *L) {
    fg_lua_budget *b = budget_of(L);
    return b ? b->heap : -1;
}

void fg_lua_budget_charge(lua_State *L, double steps, const char *what) {
    fg_lua_budget *b = budget_of(L);
    if (!b || !b->active || b->L != L || b->tripped) return;
    if (steps < (double)b->steps) {
        b->steps -= (int64_t)steps;
        return;
    }
    /* The work is refused before it starts: a C function cannot be interrupted once running. */
    b->tripped = TRIP_STEPS;
    lua_Debug ar;
    size_t n = 0;
    if (lua_getstack(L, 1, &ar)) {
        lua_getinfo(L, "Sl", &ar);
        n = (size_t)snprintf(b->msg, sizeof b->msg, "%s:%d: framegate: %s would cost about %.3g "
                             "instructions, more than the %lld the %s has left", ar.short_src,
                             ar.currentline, what, steps, (long long)b->steps,
                             b->what ? b->what : "rule");
        if (n >= sizeof b->msg) n = sizeof b->msg - 1;
        append_frames(L, 1, b->caller, b->what, b->msg, n, sizeof b->msg);
    }
    lua_sethook(L, budget_hook, LUA_MASKCOUNT | LUA_MASKLINE, 1);
    lua_pushstring(L, b->msg);
    lua_error(L);
}

/* }====================================================================== */

/* {====================================================================== deterministic order */

typedef struct sort_key {
    int rank;        /* 0 number, 1 string, 2 boolean */
    int isint;
    lua_Integer i;
    lua_Number n;
    const char *s;
    size_t len;
    int slot;        /* index in the keys table */
} sort_key;

static int key_cmp(const sort_key *a, const sort_key *b) {
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    switch (a->rank) {
    case 0:
        if (a->isint && b->isint) return a->i < b->i ? -1 : a->i > b->i;
        {
            lua_Number x = a->isint ? (lua_Number)a->i : a->n;
            lua_Number y = b->isint ? (lua_Number)b->i : b->n;
            if (x != y) return x < y ? -1 : 1;
            return a->isint - b->isint;
        }
    case 1: {
        size_t m = a->len < b->len ? a->len : b->len;
        int c = memcmp(a->s, b->s, m);
        if (c) return c;
        return a->len < b->len ? -1 : a->len > b->len;
    }
    default: return a->i < b->i ? -1 : a->i > b->i;
    }
}

static int key_qsort_cmp(const void *a, const void *b) { return key_cmp(a, b); }

/* Reads the value at idx as a key; raises for keys without a stable order. */
static void read_key(lua_State *L, int idx, sort_key *k) {
    memset(k, 0, sizeof *k);
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        k->rank = 0;
        k->isint = lua_isinteger(L, idx);
        if (k->isint) k->i = lua_tointeger(L, idx);
        else k->n = lua_tonumber(L, idx);
        break;
    case LUA_TSTRING:
        k->rank = 1;
        k->s = lua_tolstring(L, idx, &k->len);
        break;
    case LUA_TBOOLEAN:
        k->rank = 2;
        k->i = lua_toboolean(L, idx);
        break;
    default:
        luaL_error(L, "framegate: a key of type %s has no stable order in rules (iterate a "
                   "list with ipairs instead)", luaL_typename(L, idx));
    }
}

static int sorted_iter(lua_State *L) {
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(2)) + 1;
    if (lua_rawgeti(L, lua_upvalueindex(1), i) == LUA_TNIL) return 1;
    lua_pushinteger(L, i);
    lua_replace(L, lua_upvalueindex(2));
    lua_pushvalue(L, -1);
    lua_rawget(L, lua_upvalueindex(3));
    return 2;
}

/* Pushes the iterator triple of a sorted walk over the table at idx. */
static int push_sorted_pairs(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    int n = 0;
    lua_newtable(L); /* keys, in raw order first */
    int keys = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, ++n);
    }
    if (n > 1) {
        sort_key *k = lua_newuserdatauv(L, sizeof *k * (size_t)n, 0);
        for (int i = 0; i < n; i++) {
            lua_rawgeti(L, keys, i + 1);
            read_key(L, -1, &k[i]);
            k[i].slot = i + 1;
            lua_pop(L, 1); /* strings stay alive in keys */
        }
        qsort(k, (size_t)n, sizeof *k, key_qsort_cmp);
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; i++) {
            lua_rawgeti(L, keys, k[i].slot);
            lua_rawseti(L, -2, i + 1);
        }
        lua_replace(L, keys);
        lua_pop(L, 1);
    } else if (n == 1) {
        sort_key k;
        lua_rawgeti(L, keys, 1);
        read_key(L, -1, &k);
        lua_pop(L, 1);
    }
    lua_pushinteger(L, 0);
    lua_pushvalue(L, idx);
    lua_pushcclosure(L, sorted_iter, 3);
    lua_pushvalue(L, idx);
    lua_pushnil(L);
    return 3;
}

/* pairs in rules: __pairs if the value has one, else keys in sorted order. */
static int sandbox_pairs(lua_State *L) {
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    return push_sorted_pairs(L, 1);
}

/* next in rules: the smallest key greater than the one given, in the order pairs uses. */
static int sandbox_next(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    sort_key after, best, k;
    int have_after = !lua_isnil(L, 2), have_best = 0;
    if (have_after) read_key(L, 2, &after);
    lua_pushnil(L); /* slot 3: best key */
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        read_key(L, -1, &k);
        if (have_after && key_cmp(&k, &after) <= 0) continue;
        if (have_best && key_cmp(&k, &best) >= 0) continue;
        best = k;
        have_best = 1;
        lua_pushvalue(L, -1);
        lua_replace(L, 3); /* keeps a string key alive while best points into it */
    }
    if (!have_best) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 3);
    lua_rawget(L, 1);
    return 2;
}

/* __pairs of the read-only views rules see: a sorted walk over the viewed table. */
int fg_lua_view_pairs(lua_State *L) {
    if (!lua_getmetatable(L, 1) || lua_getfield(L, -1, "__index") != LUA_TTABLE)
        return luaL_error(L, "framegate: not a view");
    return push_sorted_pairs(L, -1);
}

/* }====================================================================== */

/* {====================================================================== the base of rule files */

static int blocked_call(lua_State *L) {
    return luaL_error(L, "framegate: '%s' is not available in rules",
                      lua_tostring(L, lua_upvalueindex(1)));
}

static void push_blocked(lua_State *L, const char *name) {
    lua_pushstring(L, name);
    lua_pushcclosure(L, blocked_call, 1);
}

static int blocked_field(lua_State *L) {
    const char *k = lua_tostring(L, 2);
    return luaL_error(L, "framegate: '%s.%s' is not available in rules",
                      lua_tostring(L, lua_upvalueindex(1)), k ? k : luaL_typename(L, 2));
}

static int readonly_field(lua_State *L) {
    const char *k = lua_tostring(L, 2);
    return luaL_error(L, "framegate: '%s.%s' is read-only in rules",
                      lua_tostring(L, lua_upvalueindex(1)), k ? k : luaL_typename(L, 2));
}

static int frozen_pairs(lua_State *L) {
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "__index");
    return push_sorted_pairs(L, -1);
}

/* Pushes a library nobody may use: every field access raises. */
static void push_blocked_lib(lua_State *L, const char *name) {
    lua_newtable(L);
    lua_createtable(L, 0, 3);
    lua_pushstring(L, name);
    lua_pushcclosure(L, blocked_field, 1);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, name);
    lua_pushcclosure(L, blocked_field, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushliteral(L, PROTECTED);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
}

/* Replaces the table on top with a read-only proxy of it named `name`. */
static void freeze(lua_State *L, const char *name) {
    lua_newtable(L);
    lua_createtable(L, 0, 4);
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, name);
    lua_pushcclosure(L, readonly_field, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, frozen_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushliteral(L, PROTECTED);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_remove(L, -2);
}

/* Pushes a copy of a standard library (opened if the host has not), minus what rules lose. */
static void push_lib_copy(lua_State *L, const char *name, lua_CFunction open) {
    luaL_requiref(L, name, open, 0);
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, -3)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_settable(L, -4);
    }
    lua_remove(L, -2);
}

static int sandbox_random(lua_State *L) {
    fg_lua_budget *b = budget_of(L);
    fg_world *w = b && b->active ? b->world : NULL;
    if (!w)
        return luaL_error(L, "framegate: math.random draws from the world's RNG: it works inside "
                          "request rules only (loading and presentation may not change the "
                          "world)");
    lua_Integer lo, hi;
    switch (lua_gettop(L)) {
    case 0:
        lua_pushnumber(L, (lua_Number)fg_world_random(w, 0, ((int64_t)1 << 53) - 1) *
                              (1.0 / 9007199254740992.0));
        return 1;
    case 1:
        lo = 1;
        hi = luaL_checkinteger(L, 1);
        break;
    case 2:
        lo = luaL_checkinteger(L, 1);
        hi = luaL_checkinteger(L, 2);
        break;
    default: return luaL_error(L, "wrong number of arguments to 'random'");
    }
    luaL_argcheck(L, lo <= hi, lua_gettop(L), "interval is empty");
    lua_pushinteger(L, fg_world_random(w, lo, hi));
    return 1;
}

/* string.rep in rules: a result bigger than what the call may still allocate is refused here,
** where the position is known, rather than by the allocator (a memory error has no traceback). */
static int sandbox_rep(lua_State *L) {
    size_t len, lsep;
    luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    fg_lua_budget *b = budget_of(L);
    if (b && b->active && n > 0 && !b->tripped) {
        double total = (double)len * (double)n + (double)lsep * (double)(n - 1);
        if (total > (double)(b->cap - (b->in_use - b->base))) {
            lua_Debug ar;
            b->tripped = TRIP_MEMORY;
            if (lua_getstack(L, 1, &ar)) describe_overrun(L, b, &ar);
            lua_sethook(L, budget_hook, LUA_MASKCOUNT | LUA_MASKLINE, 1);
            lua_pushstring(L, b->msg);
            return lua_error(L);
        }
    }
    /* The C loop runs n times even when nothing is copied ("" repeated). */
    if (n > 0) fg_lua_budget_charge(L, (double)n + (double)len * (double)n, "string.rep");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static bool is_protected(lua_State *L, int idx) {
    if (!lua_getmetatable(L, idx)) return false;
    lua_getfield(L, -1, "__metatable");
    const char *m = lua_tostring(L, -1);
    bool yes = m && strcmp(m, PROTECTED) == 0;
    lua_pop(L, 2);
    return yes;
}

/* rawset, except on the environments and libraries the sandbox froze. */
static int sandbox_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    if (is_protected(L, 1))
        return luaL_error(L, "framegate: rawset on a protected table is not available in rules");
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

/* getmetatable, except that the metatables of strings and of the runtime's objects (views,
** events, verdicts: userdata, one metatable per process) stay out of reach. */
static int sandbox_getmetatable(lua_State *L) {
    luaL_checkany(L, 1);
    if (lua_type(L, 1) == LUA_TSTRING || lua_type(L, 1) == LUA_TUSERDATA) {
        lua_pushliteral(L, PROTECTED);
        return 1;
    }
    if (!lua_getmetatable(L, 1)) {
        lua_pushnil(L);
        return 1;
    }
    luaL_getmetafield(L, 1, "__metatable");
    return 1;
}

/* load in rules: text only, into a fresh environment unless one is given. */
static int sandbox_load(lua_State *L) {
    size_t len;
    const char *text = lua_tolstring(L, 1, &len);
    if (!text)
        return luaL_error(L, "framegate: load in rules takes a string (a reader function is not "
                          "available)");
    const char *name = luaL_optstring(L, 2, "=(load)");
    const char *mode = luaL_optstring(L, 3, "t");
    fg_lua_budget_charge(L, (double)len, "load"); /* compiling is C work */
    if (!strchr(mode, 't'))
        return luaL_error(L, "framegate: load of binary chunks is not available in rules");
    if (luaL_loadbufferx(L, text, len, name, "t") != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    if (!lua_isnone(L, 4)) lua_pushvalue(L, 4);
    else fg_lua_sandbox_env(L, 0, NULL);
    lua_setupvalue(L, -2, 1);
    return 1;
}

static int sandbox_require(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    if (strcmp(name, "framegate") != 0)
        return luaL_error(L, "framegate: require \"%s\" is not available in rules (split a "
                          "ruleset with include \"file.lua\")", name);
    lua_getfield(L, LUA_REGISTRYINDEX, SANDBOX_KEY);
    lua_getfield(L, -1, "fg");
    return 1;
}

static int global_assign(lua_State *L) {
    const char *k = lua_tostring(L, 2);
    return luaL_error(L, "framegate: assigning the global '%s' in a rules file; declare it local "
                      "(local %s = ...)", k ? k : "?", k ? k : "name");
}

/* The names of the module rules may use: building a ruleset, verdicts, cues and pure helpers.
** The rest (worlds, files, replays) is the host's. */
static const char *const rules_api[] = {
    "ruleset", "default", "accept", "reject", "queue", "cue", "set", "add",
    "version", "ms", "us_of_tick", "tick_of_us", "relative", NULL,
};

/* Builds the sandbox of this state: the frozen base every rule file's environment reads through,
** the metatable of those environments, and the module as rules see it. */
static void build_sandbox(lua_State *L) {
    lua_createtable(L, 0, 4); /* the sandbox record */
    int sb = lua_gettop(L);
    lua_createtable(L, 0, 40); /* base */
    int base = lua_gettop(L);

    luaL_requiref(L, LUA_GNAME, luaopen_base, 0);
    static const char *const kept[] = {"assert", "error",   "ipairs",   "pcall",  "xpcall",
                                       "select", "tonumber", "tostring", "type",   "rawequal",
                                       "rawlen", "rawget",  "print",    "setmetatable",
                                       "_VERSION", NULL};
    for (const char *const *k = kept; *k; k++) {
        lua_getfield(L, -1, *k);
        lua_setfield(L, base, *k);
    }
    lua_pop(L, 1);
    static const luaL_Reg own[] = {
        {"pairs", sandbox_pairs},   {"next", sandbox_next},
        {"rawset", sandbox_rawset}, {"getmetatable", sandbox_getmetatable},
        {"load", sandbox_load},     {"require", sandbox_require},
        {NULL, NULL},
    };
    luaL_setfuncs(L, own, 0);
    fg_lua_guard_base(L, base);
    static const char *const blocked[] = {"dofile", "loadfile", "collectgarbage", "warn", NULL};
    for (const char *const *k = blocked; *k; k++) {
        push_blocked(L, *k);
        lua_setfield(L, base, *k);
    }
    static const char *const blocked_libs[] = {"io", "os", "debug", "package", "coroutine", NULL};
    for (const char *const *k = blocked_libs; *k; k++) {
        push_blocked_lib(L, *k);
        lua_setfield(L, base, *k);
    }

    push_lib_copy(L, LUA_STRLIBNAME, luaopen_string);
    push_blocked(L, "string.dump");
    lua_setfield(L, -2, "dump");
    lua_getfield(L, -1, "rep");
    lua_pushcclosure(L, sandbox_rep, 1);
    lua_setfield(L, -2, "rep");
    fg_lua_guard_string(L);
    /* Strings' methods go through the shared string metatable: point its __index at this copy
    ** (which falls back on the real library for anything added later), so `("").dump` is
    ** blocked too. The host sees the same functions, except dump. */
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_newtable(L);
        lua_pushnil(L);
        while (lua_next(L, -5)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_settable(L, -4);
        }
        lua_createtable(L, 0, 1);
        luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 0);
        lua_setfield(L, -2, "__index");
        lua_setmetatable(L, -2);
        lua_setfield(L, -2, "__index");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    freeze(L, "string");
    lua_setfield(L, base, "string");

    push_lib_copy(L, LUA_TABLIBNAME, luaopen_table);
    fg_lua_guard_table(L);
    freeze(L, "table");
    lua_setfield(L, base, "table");

    push_lib_copy(L, LUA_MATHLIBNAME, luaopen_math);
    lua_pushcfunction(L, sandbox_random);
    lua_setfield(L, -2, "random");
    push_blocked(L, "math.randomseed");
    lua_setfield(L, -2, "randomseed");
    freeze(L, "math");
    lua_setfield(L, base, "math");

    push_lib_copy(L, LUA_UTF8LIBNAME, luaopen_utf8);
    fg_lua_guard_utf8(L);
    freeze(L, "utf8");
    lua_setfield(L, base, "utf8");

    lua_pushvalue(L, base);
    lua_setfield(L, sb, "base");

    /* The environments' metatable: reads fall through to the base, writes are errors. */
    lua_createtable(L, 0, 3);
    lua_pushvalue(L, base);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, global_assign);
    lua_setfield(L, -2, "__newindex");
    lua_pushliteral(L, PROTECTED);
    lua_setfield(L, -2, "__metatable");
    lua_setfield(L, sb, "envmeta");

    /* The module as rules see it. */
    lua_newtable(L);
    if (lua_getfield(L, LUA_REGISTRYINDEX, MODULE_KEY) == LUA_TTABLE) {
        for (const char *const *k = rules_api; *k; k++) {
            lua_getfield(L, -1, *k);
            lua_setfield(L, -3, *k);
        }
    }
    lua_pop(L, 1);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "fg");
    lua_pushcclosure(L, blocked_field, 1);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    freeze(L, "fg");
    lua_setfield(L, sb, "fg");

    lua_pop(L, 1); /* base */
    lua_setfield(L, LUA_REGISTRYINDEX, SANDBOX_KEY);
}

/* Pushes a fresh environment for one file; ctx (if not 0) is the load's context, which makes
** `include` (a closure of the loader's include over ctx) available. */
void fg_lua_sandbox_env(lua_State *L, int ctx, lua_CFunction include) {
    if (ctx) ctx = lua_absindex(L, ctx);
    if (lua_getfield(L, LUA_REGISTRYINDEX, SANDBOX_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        build_sandbox(L);
        lua_getfield(L, LUA_REGISTRYINDEX, SANDBOX_KEY);
    }
    lua_createtable(L, 0, 2);
    if (ctx && include) {
        lua_pushvalue(L, ctx);
        lua_pushcclosure(L, include, 1);
        lua_setfield(L, -2, "include");
    } else {
        push_blocked(L, "include");
        lua_setfield(L, -2, "include");
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, -2, "_G");
    lua_getfield(L, -2, "envmeta");
    lua_setmetatable(L, -2);
    lua_remove(L, -2);
}

/* }====================================================================== */

/* {====================================================================== sandboxed chunks */

/* fg.sandboxed(text [, chunkname]) -> the chunk's results: runs text as a rules file would run
** (fresh environment, load budget), without building a ruleset. For trying the sandbox. */
static int l_sandboxed(lua_State *L) {
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, "=(sandboxed)");
    lua_settop(L, 2);
    if (luaL_loadbufferx(L, text, len, name, "t") != LUA_OK) return lua_error(L);
    fg_lua_sandbox_env(L, 0, NULL);
    lua_setupvalue(L, -2, 1);
    fg_error err = {0};
    if (fg_lua_call_load(L, 0, LUA_MULTRET, "sandboxed chunk", &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return lua_gettop(L) - 2;
}

/* }====================================================================== */

void fg_lua_open_sandbox(lua_State *L) {
    install_budget(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, MODULE_KEY);
    /* A new module table (a second luaopen) gets a new rules view. */
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, SANDBOX_KEY);
    static const luaL_Reg funcs[] = {
        {"limits", l_limits},
        {"sandboxed", l_sandboxed},
        {NULL, NULL},
    };
    luaL_setfuncs(L, funcs, 0);
}
