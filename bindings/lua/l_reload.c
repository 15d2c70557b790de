/* SPDX-License-Identifier: MIT */
/*
** l_reload.c: hot reload during a playtest. world:reload() builds the new ruleset completely on
** the side (load in the sandbox, validate, compile, on_reload) and swaps it in between two ticks
** only if all of it succeeded; otherwise the old rules keep running and the message names file,
** line and field. world:what_if() re-runs recent input against the rules in a shadow world and
** lists the decisions that now come out differently. fg.watcher() tells a playtest host when a
** rules file was saved (inotify on Linux, stat polling elsewhere) and reads keys from a terminal.
**
** A reload replaces the Rules the world's store holds for the slot, so the old ruleset's request
** rule and hooks are no longer reachable: nothing registered by the old rules runs again.
*/
#define _DEFAULT_SOURCE /* inotify, termios, poll, nanosleep, st_mtim */
#include "fg_lua.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#if defined(__unix__) || defined(__APPLE__)
#define FG_HAVE_POSIX 1
#include <poll.h>
#include <termios.h>
#include <unistd.h>
#endif
#if defined(__linux__)
#define FG_HAVE_INOTIFY 1
#include <sys/inotify.h>
#endif

#define WATCHER_T "framegate.Watcher"

/* {====================================================================== helpers */

static int push_store_rules(lua_State *L, int world_idx) {
    lua_getiuservalue(L, world_idx, 1);
    lua_getfield(L, -1, "rules");
    lua_remove(L, -2);
    return lua_gettop(L);
}

static void push_hex(lua_State *L, uint64_t h) {
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    lua_pushstring(L, hex);
}

/* The slot named by the argument at idx: nil (the first), a 1-based index or a ruleset name. */
static uint32_t check_slot(lua_State *L, int idx, int rules) {
    if (lua_isnoneornil(L, idx)) return 0;
    if (lua_type(L, idx) == LUA_TNUMBER) {
        lua_Integer i = luaL_checkinteger(L, idx);
        luaL_argcheck(L, i >= 1 && i <= (lua_Integer)luaL_len(L, rules), idx, "no such rules slot");
        return (uint32_t)(i - 1);
    }
    const char *name = luaL_checkstring(L, idx);
    for (lua_Integer i = 1; lua_rawgeti(L, rules, i) != LUA_TNIL; i++) {
        fg_lua_rules *lr = fg_lua_test_rules(L, -1);
        lua_pop(L, 1);
        if (lr && strcmp(fg_ruleset_name(lr->rules), name) == 0) return (uint32_t)(i - 1);
    }
    lua_pop(L, 1);
    return (uint32_t)luaL_argerror(L, idx, lua_pushfstring(L, "no rules named '%s'", name));
}

/* fg_action_diff's callback: appends the path to the list on top of the stack. */
static void push_path(void *ud, const char *path) {
    lua_State *L = ud;
    lua_pushstring(L, path);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
}

/* Pushes { added = {...}, removed = {...}, changed = {...}, fields = { name = {...} } }: action
** names, sorted, and for each changed action the paths of the fields that differ. */
static void push_changes(lua_State *L, const fg_ruleset *old, const fg_ruleset *now) {
    lua_createtable(L, 0, 4);
    lua_newtable(L);
    lua_newtable(L);
    lua_newtable(L);
    lua_newtable(L);
    int fields = lua_gettop(L), changed = fields - 1, removed = fields - 2, added = fields - 3;
    lua_Integer na = 0, nr = 0, nc = 0;
    for (uint32_t i = 0; i < fg_ruleset_action_count(now); i++) {
        const fg_action_def *a = fg_ruleset_action(now, i);
        int j = fg_ruleset_find_action(old, a->name);
        if (j < 0) {
            lua_pushstring(L, a->name);
            lua_rawseti(L, added, ++na);
            continue;
        }
        const fg_action_def *was = fg_ruleset_action(old, (uint32_t)j);
        if (fg_action_diff(was, a, NULL, NULL) == 0) continue;
        lua_newtable(L);
        fg_action_diff(was, a, push_path, L);
        lua_setfield(L, fields, a->name);
        lua_pushstring(L, a->name);
        lua_rawseti(L, changed, ++nc);
    }
    for (uint32_t i = 0; i < fg_ruleset_action_count(old); i++) {
        const fg_action_def *a = fg_ruleset_action(old, i);
        if (fg_ruleset_find_action(now, a->name) < 0) {
            lua_pushstring(L, a->name);
            lua_rawseti(L, removed, ++nr);
        }
    }
    lua_setfield(L, -5, "fields");
    lua_setfield(L, -4, "changed");
    lua_setfield(L, -3, "removed");
    lua_setfield(L, -2, "added");
}

/* }====================================================================== */

/* {====================================================================== world:reload */

static int build_from_table(lua_State *L) { return fg_lua_build_rules(L, 1, NULL, 0); }

/* A failed reload: traced, and returned as nil, message. */
/* Returns nil and err's whole message, which the trace notes too; err is cleared. */
static int reload_failed(lua_State *L, fg_lua_world *lw, fg_error *err) {
    lua_pushnil(L);
    fg_lua_push_error(L, err);
    fg_world_note_error(lw->w, 0, lua_pushfstring(L, "reload failed: %s", lua_tostring(L, -1)));
    lua_pop(L, 1);
    return 2;
}

/* world:reload([source [, slot]]) -> info | nil, message
** source: nil (the slot's rules, read again from their files), a path, a declaration table or a
** Rules value; slot: a 1-based index or a ruleset name (default: the first). */
static int world_reload(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    if (lw->L) return luaL_error(L, "world:reload: not during a tick (call it between ticks)");
    lua_settop(L, 3);
    int rules = push_store_rules(L, 1);
    uint32_t slot = check_slot(L, 3, rules);
    lua_rawgeti(L, rules, (lua_Integer)slot + 1);
    fg_lua_rules *old = fg_lua_test_rules(L, -1);
    if (!old) return luaL_error(L, "world:reload: this world has no rules in slot %d", (int)slot + 1);
    int old_idx = lua_gettop(L);
    fg_error err = {0};
    fg_status st = FG_OK;
    if (lua_isnil(L, 2)) {
        lua_getiuservalue(L, old_idx, 1);
        if (lua_getfield(L, -1, "root") != LUA_TSTRING) {
            fg_error_set(&err, FG_ESTATE, "world:reload: the rules '%s' were not loaded from a "
                         "file; pass a path (world:reload \"rules.lua\")",
                         fg_ruleset_name(old->rules));
            return reload_failed(L, lw, &err);
        }
        lua_replace(L, 2);
        lua_pop(L, 1);
    }
    if (lua_type(L, 2) == LUA_TSTRING) {
        st = fg_lua_load_rules(L, lua_tostring(L, 2), NULL, 0, 0, &err);
    } else if (fg_lua_test_rules(L, 2)) {
        lua_pushvalue(L, 2);
    } else if (lua_istable(L, 2)) {
        lua_pushcfunction(L, build_from_table);
        lua_pushvalue(L, 2);
        if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
            fg_error_set(&err, FG_ERULE, "%s", lua_tostring(L, -1));
            lua_pop(L, 1);
            st = FG_ERULE;
        }
    } else {
        return luaL_typeerror(L, 2, "a path, a ruleset table or Rules");
    }
    if (st != FG_OK) return reload_failed(L, lw, &err);
    int new_idx = lua_gettop(L);
    fg_lua_rules *nr = fg_lua_check_rules(L, new_idx);
    const char *where = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2)
                                                      : fg_ruleset_name(nr->rules);

    /* What the reload did, for the host and for on_reload. */
    lua_createtable(L, 0, 10);
    int info = lua_gettop(L);
    lua_pushstring(L, fg_ruleset_name(nr->rules));
    lua_setfield(L, info, "name");
    lua_pushinteger(L, (lua_Integer)slot + 1);
    lua_setfield(L, info, "slot");
    lua_pushinteger(L, fg_world_tick(lw->w));
    lua_setfield(L, info, "tick");
    lua_pushstring(L, nr->hash_hex);
    lua_setfield(L, info, "hash");
    lua_pushstring(L, old->hash_hex);
    lua_setfield(L, info, "previous_hash");
    lua_getiuservalue(L, new_idx, 1);
    lua_getfield(L, -1, "source_hash");
    lua_setfield(L, info, "source_hash");
    lua_getfield(L, -1, "sources");
    lua_newtable(L);
    if (lua_istable(L, -2)) { /* rules built from a table read no file: no list */
        lua_Integer i = 1;
        for (; lua_rawgeti(L, -2, i) == LUA_TTABLE; i++) {
            lua_getfield(L, -1, "path");
            lua_rawseti(L, -3, i);
            lua_pop(L, 1);
        }
        lua_pop(L, 1); /* the value that ended the list */
    }
    lua_setfield(L, info, "files");
    lua_pop(L, 2);
    push_changes(L, old->rules, nr->rules);
    lua_setfield(L, info, "changes");

    /* on_reload(info) belongs to the transaction: if it fails, nothing is swapped. */
    lua_getiuservalue(L, new_idx, 1);
    if (lua_getfield(L, -1, "on_reload") == LUA_TFUNCTION) {
        lua_remove(L, -2);
        fg_lua_plain_copy(L, info); /* the rule's copy: the host's info stays as built */
        if (fg_lua_call_rule(L, NULL, "on_reload", 1, 1, &err) != FG_OK)
            return reload_failed(L, lw, &err);
        if (lua_type(L, -1) == LUA_TSTRING) lua_setfield(L, info, "message");
        lua_pop(L, lua_gettop(L) - info);
    } else {
        lua_pop(L, 2);
    }

    if (fg_world_replace_rules(lw->w, slot, nr->rules, &err) != FG_OK) {
        fg_error_prefix(&err, "%s", where);
        return reload_failed(L, lw, &err);
    }
    fg_lua_world_set_rules(L, 1, slot, new_idx);
    lua_pushinteger(L, FG_WORLD_MAX_VERSIONS - (lua_Integer)fg_world_version_count(lw->w));
    lua_setfield(L, info, "versions_left");
    lua_pushvalue(L, info);
    return 1;
}

/* }====================================================================== */

/* {====================================================================== world:what_if */

typedef struct decided {
    fg_tick tick;
    fg_entity entity;
    char action[FG_NAME_MAX];
    uint8_t kind, reason;
    int text; /* index of its text (whole, whatever its length) in the texts table */
    bool matched;
} decided;

/* Pushes a userdata array of the decisions the world's trace holds for ticks [from, to); their
** texts go into the table at `texts`. */
static decided *collect_decisions(lua_State *L, const fg_world *w, fg_tick from, fg_tick to,
                                  int texts, uint32_t *n) {
    uint32_t count = 0;
    for (uint32_t i = 0; i < fg_world_trace_count(w); i++) {
        const fg_trace_record *r = fg_world_trace_at(w, i);
        count += r->kind == FG_TRACE_DECISION && r->tick >= from && r->tick < to;
    }
    decided *d = lua_newuserdatauv(L, sizeof *d * (count ? count : 1), 0);
    *n = 0;
    for (uint32_t i = 0; i < fg_world_trace_count(w); i++) {
        const fg_trace_record *r = fg_world_trace_at(w, i);
        if (r->kind != FG_TRACE_DECISION || r->tick < from || r->tick >= to) continue;
        decided *x = &d[(*n)++];
        const fg_ruleset *rules = fg_world_rules(w, r->entity);
        const fg_action_def *a = rules ? fg_ruleset_action(rules, r->decision.action) : NULL;
        x->tick = r->tick;
        x->entity = r->entity;
        snprintf(x->action, sizeof x->action, "%s", a ? a->name : "?");
        x->kind = r->decision.kind;
        x->reason = r->decision.reason;
        if (rules) fg_lua_push_decision_text(L, rules, &r->decision);
        else lua_pushstring(L, fg_decision_kind_name((fg_decision_kind)x->kind));
        x->text = (int)lua_rawlen(L, texts) + 1;
        lua_rawseti(L, texts, x->text);
        x->matched = false;
    }
    return d;
}

/* Pushes into the shadow the edges the live world received after the snapshot: those with ids
** past the newest one the snapshot holds. Returns false if some were already dropped. */
static bool replay_edges(fg_world *live, fg_world *shadow, fg_entity e, fg_error *err,
                         fg_status *st) {
    const fg_buffer *sb = fg_world_buffer(shadow, e), *lb = fg_world_buffer(live, e);
    fg_edge_id last = 0;
    bool any = false;
    for (uint32_t i = 0; i < fg_buffer_count(sb); i++)
        if (!any || fg_buffer_at(sb, i)->id > last) last = fg_buffer_at(sb, i)->id, any = true;
    for (uint32_t i = 0; i < fg_buffer_pending_count(sb); i++)
        if (!any || fg_buffer_pending_at(sb, i)->id > last)
            last = fg_buffer_pending_at(sb, i)->id, any = true;
    bool complete = true;
    uint32_t total = fg_buffer_count(lb) + fg_buffer_pending_count(lb);
    for (uint32_t i = 0; i < total && *st == FG_OK; i++) {
        const fg_edge *ed = i < fg_buffer_count(lb) ? fg_buffer_at(lb, i)
                                                    : fg_buffer_pending_at(lb, i - fg_buffer_count(lb));
        if (any && ed->id <= last) continue;
        if (i == 0 && any && ed->id > last + 1) complete = false;
        if (ed->kind == FG_EDGE_PRESS)
            *st = fg_world_press(shadow, e, ed->action, ed->time_us, (fg_source)ed->source, err);
        else if (ed->kind == FG_EDGE_RELEASE)
            *st = fg_world_release(shadow, e, ed->action, ed->time_us, (fg_source)ed->source, err);
        else
            *st = fg_world_direction(shadow, e, ed->dir, ed->time_us, (fg_source)ed->source, err);
    }
    return complete;
}

typedef struct difference {
    fg_tick tick;
    uint32_t order;
    int text; /* index in the texts table */
} difference;

static int difference_cmp(const void *a, const void *b) {
    const difference *x = a, *y = b;
    if (x->tick != y->tick) return x->tick < y->tick ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* A line built with lua_pushfstring (so whole, whatever its length), kept in the texts table. */
static void add_difference(lua_State *L, int texts, difference *list, uint32_t *n, fg_tick tick,
                           const char *fmt, ...) {
    difference *d = &list[*n];
    d->tick = tick;
    d->order = (*n)++;
    va_list ap;
    va_start(ap, fmt);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    d->text = (int)lua_rawlen(L, texts) + 1;
    lua_rawseti(L, texts, d->text);
}

/* The text of a decision, from the texts table (valid while the table is on the stack). */
static const char *text_of(lua_State *L, int texts, int i) {
    lua_rawgeti(L, texts, i);
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 1);
    return s;
}

/* world:what_if{ from = snapshot [, rules = path|Rules] [, slot = ] } -> report
** Restores the snapshot (taken earlier with world:save()) into a shadow world, gives it the rules
** the world runs now (or `rules` for `slot`), replays the input edges the world received since,
** runs it up to the world's tick and compares its request decisions with the ones the world's
** trace recorded. The live world is not touched. */
static int world_what_if(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    if (lw->L) return luaL_error(L, "world:what_if: not during a tick");
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_getfield(L, 2, "from") != LUA_TSTRING)
        return luaL_error(L, "world:what_if: field 'from' must be a snapshot (world:save())");
    int snap = lua_gettop(L);
    int live_rules = push_store_rules(L, 1);
    lua_getfield(L, 2, "slot");
    uint32_t slot = check_slot(L, -1, live_rules);
    lua_pop(L, 1);
    int alt = 0;
    if (lua_getfield(L, 2, "rules") == LUA_TSTRING) {
        fg_error err = {0};
        if (fg_lua_load_rules(L, lua_tostring(L, -1), NULL, 0, 0, &err) != FG_OK)
            return fg_lua_raise(L, &err);
        alt = lua_gettop(L);
    } else if (!lua_isnil(L, -1)) {
        fg_lua_check_rules(L, -1);
        alt = lua_gettop(L);
    }

    fg_lua_world *sw = fg_lua_new_world(L);
    int shadow = lua_gettop(L);
    fg_world_hooks hooks = fg_lua_world_hooks(sw);
    fg_error err = {0};
    sw->w = fg_world_clone(lw->w, &hooks, &err);
    if (!sw->w) return fg_lua_raise(L, &err);
    size_t size;
    const char *p = lua_tolstring(L, snap, &size);
    if (fg_world_restore(sw->w, p, size, &err) != FG_OK) return fg_lua_raise(L, &err);
    fg_tick from = fg_world_tick(sw->w), to = fg_world_tick(lw->w);
    if (from > to)
        return luaL_error(L, "world:what_if: the snapshot is of tick %d, after the world's "
                          "tick %d", (int)from, (int)to);
    /* The shadow runs the rules the world runs now, from the snapshot's tick on. */
    for (lua_Integer i = 1; lua_rawgeti(L, live_rules, i) != LUA_TNIL; i++) {
        if (alt && (uint32_t)(i - 1) == slot) {
            lua_pop(L, 1);
            lua_pushvalue(L, alt);
        }
        fg_lua_rules *r = fg_lua_check_rules(L, -1);
        fg_lua_world_set_rules(L, shadow, (uint32_t)(i - 1), -1);
        lua_pop(L, 1);
        if (fg_world_replace_rules(sw->w, (uint32_t)(i - 1), r->rules, &err) != FG_OK)
            return fg_lua_raise(L, &err);
    }
    lua_pop(L, 1);

    bool complete = true;
    fg_status st = FG_OK;
    for (fg_entity e = 1; e <= fg_world_entity_count(lw->w) && st == FG_OK; e++)
        if (fg_world_entity_exists(sw->w, e)) complete &= replay_edges(lw->w, sw->w, e, &err, &st);
    if (st != FG_OK) return fg_lua_raise(L, &err);
    sw->L = L;
    sw->self = shadow;
    for (fg_tick t = from; t < to && st == FG_OK; t++) st = fg_world_advance(sw->w, &err);
    sw->L = NULL;
    if (st != FG_OK) return fg_lua_raise(L, &err);

    uint32_t nl, ns;
    lua_newtable(L);
    int texts = lua_gettop(L);
    decided *was = collect_decisions(L, lw->w, from, to, texts, &nl);
    decided *now = collect_decisions(L, sw->w, from, to, texts, &ns);
    difference *diff = lua_newuserdatauv(L, sizeof *diff * (ns + nl + 1), 0);
    uint32_t nd = 0;
    /* Decisions are matched in order by (tick, entity, action); what is left unmatched on
    ** either side happened only with the old or only with the new rules. */
    for (uint32_t i = 0; i < ns; i++) {
        decided *d = &now[i], *match = NULL;
        for (uint32_t j = 0; j < nl && !match; j++)
            if (!was[j].matched && was[j].tick == d->tick && was[j].entity == d->entity &&
                strcmp(was[j].action, d->action) == 0)
                match = &was[j];
        if (!match) continue;
        match->matched = d->matched = true;
        if (match->kind == d->kind && match->reason == d->reason) continue;
        if (match->kind != d->kind)
            add_difference(L, texts, diff, &nd, d->tick, "tick %I: e%I %s now %s (was %s)",
                           (lua_Integer)d->tick, (lua_Integer)d->entity, d->action,
                           text_of(L, texts, d->text), text_of(L, texts, match->text));
        else
            add_difference(L, texts, diff, &nd, d->tick, "tick %I: e%I %s still %s, now %s (was %s)",
                           (lua_Integer)d->tick, (lua_Integer)d->entity, d->action,
                           fg_decision_kind_name((fg_decision_kind)d->kind),
                           text_of(L, texts, d->text), text_of(L, texts, match->text));
    }
    for (uint32_t i = 0; i < ns; i++)
        if (!now[i].matched)
            add_difference(L, texts, diff, &nd, now[i].tick, "tick %I: e%I %s is now requested: "
                           "%s (no such request before)", (lua_Integer)now[i].tick,
                           (lua_Integer)now[i].entity, now[i].action,
                           text_of(L, texts, now[i].text));
    for (uint32_t j = 0; j < nl; j++)
        if (!was[j].matched)
            add_difference(L, texts, diff, &nd, was[j].tick, "tick %I: e%I %s is no longer "
                           "requested (was %s)", (lua_Integer)was[j].tick,
                           (lua_Integer)was[j].entity, was[j].action,
                           text_of(L, texts, was[j].text));
    qsort(diff, nd, sizeof *diff, difference_cmp);
    lua_createtable(L, 0, 8);
    int report = lua_gettop(L);
    lua_createtable(L, (int)nd, 0);
    for (uint32_t i = 0; i < nd; i++) {
        lua_rawgeti(L, texts, diff[i].text);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, report, "lines");
    lua_pushinteger(L, nd);
    lua_setfield(L, report, "differences");
    lua_pushinteger(L, from);
    lua_setfield(L, report, "from");
    lua_pushinteger(L, to);
    lua_setfield(L, report, "to");
    lua_pushboolean(L, complete);
    lua_setfield(L, report, "complete");
    push_hex(L, fg_world_hash(lw->w));
    lua_setfield(L, report, "hash");
    push_hex(L, fg_world_hash(sw->w));
    lua_setfield(L, report, "shadow_hash");
    fg_world_destroy(sw->w);
    sw->w = NULL;
    return 1;
}

/* }====================================================================== */

/* {====================================================================== watcher */

#define WATCH_MAX 64

typedef struct watched {
    const char *path; /* kept alive by the watcher's user value, a table of the paths */
    long long mtime_ns, size, ino;
    bool exists;
} watched;

typedef struct watcher {
    int fd; /* inotify, or -1 when polling */
    int nfiles;
    watched files[WATCH_MAX];
    bool keyboard;
#ifdef FG_HAVE_POSIX
    bool raw;
    struct termios saved;
#endif
    bool closed;
} watcher;

static void stat_file(watched *f) {
    struct stat st;
    f->exists = stat(f->path, &st) == 0;
    if (!f->exists) {
        f->mtime_ns = f->size = f->ino = 0;
        return;
    }
#if defined(__APPLE__)
    f->mtime_ns = (long long)st.st_mtimespec.tv_sec * 1000000000LL + st.st_mtimespec.tv_nsec;
#else
    f->mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
#endif
    f->size = (long long)st.st_size;
    f->ino = (long long)st.st_ino;
}

static watcher *check_watcher(lua_State *L, int idx) {
    watcher *w = luaL_checkudata(L, idx, WATCHER_T);
    if (w->closed) luaL_error(L, "attempt to use a closed watcher");
    return w;
}

static void watcher_release(watcher *w) {
    if (w->closed) return;
    w->closed = true;
#ifdef FG_HAVE_INOTIFY
    if (w->fd >= 0) close(w->fd);
#endif
#ifdef FG_HAVE_POSIX
    if (w->raw) tcsetattr(0, TCSANOW, &w->saved);
#endif
    w->fd = -1;
}

/* Watches the folders of the files: editors often save by writing a new file and renaming it
** over the old one, which an inotify watch on the file itself would lose. */
static void watch_dirs(watcher *w) {
#ifdef FG_HAVE_INOTIFY
    if (w->fd < 0) return;
    for (int i = 0; i < w->nfiles; i++) {
        const char *path = w->files[i].path, *slash = strrchr(path, '/');
        char *dir = slash ? malloc((size_t)(slash - path) + 1) : NULL;
        if (dir) {
            memcpy(dir, path, (size_t)(slash - path));
            dir[slash - path] = '\0';
        }
        inotify_add_watch(w->fd, dir ? dir : ".",
                          IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE);
        free(dir);
    }
#else
    (void)w;
#endif
}

/* watcher:set(paths): the files to watch from now on (their current state is the baseline). */
static int watcher_set(lua_State *L) {
    watcher *w = check_watcher(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 2);
    luaL_argcheck(L, n <= WATCH_MAX, 2, "too many files (at most 64)");
    lua_createtable(L, (int)n, 0); /* the paths, whatever their length, owned by the watcher */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, 2, i);
        luaL_checkstring(L, -1);
        lua_pushstring(L, lua_tostring(L, -1)); /* a string, even from a number */
        lua_rawseti(L, -3, i);
        lua_pop(L, 1);
    }
    w->nfiles = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        watched *f = &w->files[w->nfiles++];
        f->path = lua_tostring(L, -1);
        stat_file(f);
        lua_pop(L, 1);
    }
    lua_setiuservalue(L, 1, 1);
    watch_dirs(w);
    return 0;
}

/* fg.watcher{ files = {...}, keyboard = false, poll = false } -> Watcher. keyboard = true puts
** the terminal in raw mode (restored by close) so wait() returns keys as they are typed. */
static int l_watcher(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    watcher *w = lua_newuserdatauv(L, sizeof *w, 1);
    memset(w, 0, sizeof *w);
    w->fd = -1;
    luaL_setmetatable(L, WATCHER_T);
#ifdef FG_HAVE_INOTIFY
    if (!fg_lua_opt_bool_field(L, 1, "poll", 0)) w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#endif
#ifdef FG_HAVE_POSIX
    if (fg_lua_opt_bool_field(L, 1, "keyboard", 0) && isatty(0)) {
        struct termios raw;
        if (tcgetattr(0, &w->saved) == 0) {
            raw = w->saved;
            raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
            raw.c_cc[VMIN] = 0;
            raw.c_cc[VTIME] = 0;
            w->raw = tcsetattr(0, TCSANOW, &raw) == 0;
            w->keyboard = w->raw;
        }
    }
#endif
    lua_pushcfunction(L, watcher_set);
    lua_pushvalue(L, -2);
    if (lua_getfield(L, 1, "files") != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
    }
    lua_call(L, 2, 0);
    return 1;
}

/* watcher:wait(ms) -> changed, keys: waits up to ms milliseconds (returning early when a
** watched file changes or, with keyboard, a key arrives); changed lists the paths whose content
** changed since the last call (in the order given to set), keys the characters typed. */
static int watcher_wait(lua_State *L) {
    watcher *w = check_watcher(L, 1);
    lua_Integer ms = luaL_optinteger(L, 2, 0);
    luaL_argcheck(L, ms >= 0 && ms <= 60000, 2, "0..60000 milliseconds expected");
    char keys[256];
    size_t nkeys = 0;
#ifdef FG_HAVE_POSIX
    struct pollfd fds[2];
    int nfds = 0;
    if (w->fd >= 0) fds[nfds++] = (struct pollfd){.fd = w->fd, .events = POLLIN};
    if (w->keyboard) fds[nfds++] = (struct pollfd){.fd = 0, .events = POLLIN};
    int got = poll(fds, (nfds_t)nfds, (int)ms);
    if (got > 0) {
        for (int i = 0; i < nfds; i++) {
            if (!(fds[i].revents & POLLIN)) continue;
            if (fds[i].fd == 0) {
                ssize_t r = read(0, keys, sizeof keys);
                if (r > 0) nkeys = (size_t)r;
            } else {
                char buf[4096];
                while (read(w->fd, buf, sizeof buf) > 0) {
                    /* drained: the files are compared below */
                }
            }
        }
    }
#else
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
#endif
    lua_newtable(L);
    lua_Integer n = 0;
    for (int i = 0; i < w->nfiles; i++) {
        watched now = w->files[i];
        stat_file(&now);
        if (now.exists && (!w->files[i].exists || now.mtime_ns != w->files[i].mtime_ns ||
                           now.size != w->files[i].size || now.ino != w->files[i].ino)) {
            lua_pushstring(L, now.path);
            lua_rawseti(L, -2, ++n);
        }
        w->files[i] = now;
    }
    lua_pushlstring(L, keys, nkeys);
    return 2;
}

/* watcher:clock() -> microseconds on a monotonic clock (for pacing a playtest). */
static int watcher_clock(lua_State *L) {
    check_watcher(L, 1);
    struct timespec ts;
#ifdef FG_HAVE_POSIX
    clock_gettime(CLOCK_MONOTONIC, &ts);
#else
    timespec_get(&ts, TIME_UTC);
#endif
    lua_pushinteger(L, (lua_Integer)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
    return 1;
}

/* watcher:mode() -> "inotify" or "polling". */
static int watcher_mode(lua_State *L) {
    watcher *w = check_watcher(L, 1);
    lua_pushstring(L, w->fd >= 0 ? "inotify" : "polling");
    return 1;
}

static int watcher_close(lua_State *L) {
    watcher_release(luaL_checkudata(L, 1, WATCHER_T));
    return 0;
}

static int watcher_tostring(lua_State *L) {
    watcher *w = luaL_checkudata(L, 1, WATCHER_T);
    if (w->closed) lua_pushliteral(L, "framegate.Watcher (closed)");
    else lua_pushfstring(L, "framegate.Watcher (%d files, %s)", w->nfiles,
                         w->fd >= 0 ? "inotify" : "polling");
    return 1;
}

/* }====================================================================== */

void fg_lua_open_reload(lua_State *L) {
    static const luaL_Reg world_methods[] = {
        {"reload", world_reload},
        {"what_if", world_what_if},
        {NULL, NULL},
    };
    static const luaL_Reg funcs[] = {{"watcher", l_watcher}, {NULL, NULL}};
    static const luaL_Reg watcher_methods[] = {
        {"set", watcher_set},     {"wait", watcher_wait}, {"clock", watcher_clock},
        {"mode", watcher_mode},   {"close", watcher_close}, {NULL, NULL},
    };
    static const luaL_Reg watcher_meta[] = {
        {"__gc", watcher_close}, {"__close", watcher_close}, {"__tostring", watcher_tostring},
        {NULL, NULL},
    };
    luaL_getmetatable(L, FG_LUA_WORLD_T);
    lua_getfield(L, -1, "__index");
    luaL_setfuncs(L, world_methods, 0);
    lua_pop(L, 2);
    luaL_setfuncs(L, funcs, 0);
    fg_lua_class(L, WATCHER_T, watcher_methods, watcher_meta);
}
