/* SPDX-License-Identifier: MIT */
/*
** record.c: recording a world into a replay (framegate/replay.h's container).
**
** A replay holds input, not state, so the recorder makes sure a player can rebuild everything
** else. At open it writes the setup a fresh world needs (entity capacity, buffer capacity, jump
** gate, each entity's spawn position, facing, contact, ruleset slot, opponent and resources) as
** `fg.*` metadata, and proves it: it builds that fresh world and compares its state hash with the
** recorded world's. Per tick it writes the edges the tick consumed (in consumption order, which
** is push order) and the motion commands it produced, a checkpoint every N ticks, and refuses
** what input records cannot carry (state edited between ticks, requests, contact and animation
** reports, a reload it was not told about), naming the tick.
**
** Metadata keys (values are text):
**   fg.entities, fg.max_entities, fg.buffer, fg.motion_bytes, fg.slots   counts and capacities
**   fg.jump_button    the jump gate's button, or empty when the world has none
**   fg.jump           "BUFFER COYOTE", the gate's windows in ticks
**   fg.jump_action    the action the gate starts, or empty
**   fg.ground         the ground mode: "stage" or "contacts"
**   fg.e<N>           "x=<fx> y=<fx> facing=right|left contact=0|1 rules=<slot> opponent=<id>"
**   fg.e<N>.res       "<index>=<value> ..." for resources that differ from their start value
**   fg.start_hash     the state hash before the first tick, 16 hex digits
**   fg.rules.<slot>   the path the slot's ruleset was loaded from
**   fg.file.<slot>.<i>.path / .text   the files it was read from, embedded
** Named hashes: "ruleset.<slot>" (fg_ruleset_hash) and "source.<slot>.<i>" (of each file's text).
*/
#include "base_internal.h"
#include "world_access.h"

#include "framegate/determinism.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_CHECKPOINT_EVERY 60u

struct fg_recorder {
    fg_world *w;
    fg_allocator alloc;
    fg_replay_writer *writer;
    uint32_t every;
    fg_tick start, next; /* the first tick, and the tick fg_recorder_tick expects next */
    uint64_t edits, side_inputs;
    uint16_t slot_version[FG_MAX_RULE_SLOTS];
    fg_edge_id *next_edge; /* per entity slot: the id of the next edge to be consumed */
    uint32_t nentities, max_entities;
    bool failed, finished;
};

/* {====================================================================== setup */

/* The configuration of a fresh world with this world's layout. */
static fg_world_config fresh_config(const fg_world *w) {
    fg_world_config c = fg_world_config_default();
    c.tick_rate = fg_world_tick_rate(w);
    c.seed = fg_world_seed(w);
    c.max_entities = fg_world_max_entities(w);
    c.buffer_capacity = fg_world_buffer_capacity(w);
    c.trace_capacity = 0;
    c.motion_bytes = fg_world_motion_bytes(w);
    c.allocator = fg_world_allocator(w);
    c.rules = fg_world_slot_count(w) ? fg_world_slot_rules(w, 0) : NULL;
    if (!c.rules) {
        c.buttons = NULL;
        c.nbuttons = 0;
    }
    fg_jump_config jump;
    const char *button = fg_world_jump_button(w, &jump);
    if (button) {
        c.jump_button = button;
        c.jump = jump;
        c.jump_action = fg_world_jump_action(w)[0] ? fg_world_jump_action(w) : NULL;
    }
    c.ground = fg_world_ground_mode(w);
    return c;
}

/* Builds a fresh world from the setup of `w` and compares the hashes. */
static fg_status check_rebuild(fg_world *w, fg_error *err) {
    fg_world_config c = fresh_config(w);
    const char *buttons[FG_INPUT_MAX_ACTIONS];
    if (!c.rules) {
        const fg_action_names *names = fg_world_action_names(w);
        for (uint32_t i = FG_IN_FIRST_BUTTON; i < names->count; i++)
            buttons[i - FG_IN_FIRST_BUTTON] = names->names[i];
        c.buttons = buttons;
        c.nbuttons = names->count - FG_IN_FIRST_BUTTON;
    }
    fg_error e2;
    fg_world *f = fg_world_create(&c, &e2);
    if (!f) {
        fg_error_prefix(&e2, "recording: cannot build the setup");
        return fg_error_move(err, &e2);
    }
    fg_status st = FG_OK;
    for (uint32_t s = 1; st == FG_OK && s < fg_world_slot_count(w); s++)
        st = fg_world_add_rules(f, fg_world_slot_rules(w, s), NULL, &e2);
    for (uint32_t i = 0; st == FG_OK && i < fg_world_entity_count(w); i++) {
        fg_entity id = i + 1;
        fg_spawn sp = fg_world_spawn_of(w, i);
        if (sp.opponent >= id) sp.opponent = 0;
        st = fg_world_spawn(f, &sp, NULL, &e2);
        const fg_ruleset *r = fg_world_rules(w, id);
        for (uint32_t k = 0; st == FG_OK && r && k < fg_ruleset_resource_count(r); k++) {
            int32_t v = fg_world_resource(w, id, k);
            if (v != fg_ruleset_resource(r, k)->start)
                st = fg_world_set_resource(f, id, k, v, &e2);
        }
    }
    if (st != FG_OK) {
        fg_world_destroy(f);
        fg_error_prefix(&e2, "recording: cannot build the setup");
        return fg_error_move(err, &e2);
    }
    uint64_t want = fg_world_hash(w), got = fg_world_hash(f);
    if (want == got) {
        fg_world_destroy(f);
        return FG_OK;
    }
    /* Name what differs: both worlds have the same layout, so their snapshots compare. */
    char fields[FG_DIFF_LIST_MAX(4)] = "";
    size_t cap = fg_world_snapshot_capacity(w);
    fg_allocator alloc = fg_world_allocator(w);
    void *a = fg_alloc(&alloc, cap), *b = fg_alloc(&alloc, cap);
    fg_state_diff diffs[4];
    uint32_t n = 0;
    if (a && b && fg_world_save(f, a, cap, NULL) == FG_OK &&
        fg_world_save(w, b, cap, NULL) == FG_OK &&
        fg_world_diff(w, a, cap, b, cap, diffs, 4, &n, NULL) == FG_OK)
        fg_state_diff_list(fields, diffs, n < 4 ? n : 4);
    fg_free(&alloc, a, cap);
    fg_free(&alloc, b, cap);
    fg_world_destroy(f);
    return fg_error_set(err, FG_ESTATE,
                        "recording: the state at tick %lld cannot be rebuilt from its setup "
                        "(spawns, positions, facing, resources): %s%s; start recording from a "
                        "freshly spawned world, before its first tick",
                        (long long)fg_world_tick(w), fields[0] ? "set up it would be " : "",
                        fields[0] ? fields : "the hashes differ");
}

/* A pool of text for the metadata, filled once at open. */
typedef struct pool {
    char *buf;
    size_t size, used;
} pool;

static const char *pool_printf(pool *p, const char *fmt, ...) FG_PRINTF(2, 3);
static const char *pool_printf(pool *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(p->buf + p->used, p->size - p->used, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= p->size - p->used) return NULL;
    const char *s = p->buf + p->used;
    p->used += (size_t)n + 1;
    return s;
}

static fg_replay_str str_of(const char *s) { return fg_replay_str_of(s); }

/* }====================================================================== */

/* {====================================================================== open */

static fg_status open_common(fg_recorder **out, fg_world *w, const char *path,
                             fg_replay_sink_fn sink, void *ud, const fg_record_options *opt,
                             fg_error *err) {
    fg_record_options o;
    memset(&o, 0, sizeof o);
    if (opt) o = *opt;
    if (!out || !w) return fg_error_set(err, FG_EINVAL, "recording: world and out are required");
    *out = NULL;
    for (uint32_t i = 0; i < o.nmeta; i++)
        if (o.meta[i].key.len >= 3 && memcmp(o.meta[i].key.s, "fg.", 3) == 0)
            return fg_error_set(err, FG_EINVAL, "recording: meta[%u].key '%.*s': keys starting "
                                "with 'fg.' are the recorder's own", i, (int)o.meta[i].key.len,
                                o.meta[i].key.s);
    uint32_t nslots = fg_world_slot_count(w);
    for (uint32_t i = 0; i < o.nrules; i++)
        if (o.rules[i].slot >= nslots)
            return fg_error_set(err, FG_ENOTFOUND, "recording: rules[%u].slot %u does not exist "
                                "(%u loaded)", i, o.rules[i].slot, nslots);
    fg_candidate host[FG_HOST_EVENTS];
    uint32_t nhost = fg_world_host_events_capture(w, host);
    if (nhost > 0)
        return fg_error_set(err, FG_ESTATE, "recording: %u animation report(s) wait for the next "
                            "tick; a replay cannot carry them", nhost);
    for (uint32_t i = 0; i < fg_world_entity_count(w); i++)
        if (fg_world_pending_count(w, i) > 0)
            return fg_error_set(err, FG_ESTATE, "recording: entity %u has requests waiting for "
                                "the next tick; a replay records input edges only", i + 1);
    fg_status st = check_rebuild(w, err);
    if (st != FG_OK) return st;

    fg_allocator a = o.alloc ? *o.alloc : fg_world_allocator(w);
    uint32_t n = fg_world_entity_count(w), max_entities = fg_world_max_entities(w);
    uint32_t nfiles = 0;
    for (uint32_t i = 0; i < o.nrules; i++) nfiles += o.rules[i].nfiles;
    uint32_t nmeta = 11 + 2 * n + o.nrules + 2 * nfiles + o.nmeta;
    uint32_t nhashes = nslots + nfiles;
    size_t pool_size = 512 + (size_t)n * 320 + (size_t)(o.nrules + nfiles) * 96 +
                       (size_t)nslots * 32;
    pool p = {fg_alloc(&a, pool_size), pool_size, 0};
    fg_replay_meta *meta = fg_alloc(&a, sizeof *meta * nmeta);
    fg_replay_named_hash *hashes = fg_alloc(&a, sizeof *hashes * (nhashes ? nhashes : 1));
    fg_recorder *r = fg_alloc(&a, sizeof *r);
    fg_edge_id *next_edge = fg_alloc(&a, sizeof(fg_edge_id) * max_entities);
    if (!p.buf || !meta || !hashes || !r || !next_edge) {
        st = fg_error_set(err, FG_ENOMEM, "recording: out of memory");
        goto done;
    }
    uint32_t m = 0;
#define META(k, v)                                                                                \
    do {                                                                                          \
        const char *k_ = (k), *v_ = (v);                                                          \
        if (!k_ || !v_) {                                                                         \
            st = fg_error_set(err, FG_ENOMEM, "recording: metadata too long");                    \
            goto done;                                                                            \
        }                                                                                         \
        meta[m].key = str_of(k_);                                                                 \
        meta[m].value = str_of(v_);                                                               \
        m++;                                                                                      \
    } while (0)
    META("fg.entities", pool_printf(&p, "%u", n));
    fg_jump_config jump;
    const char *jump_button = fg_world_jump_button(w, &jump);
    META("fg.max_entities", pool_printf(&p, "%u", max_entities));
    META("fg.buffer", pool_printf(&p, "%u", fg_world_buffer_capacity(w)));
    META("fg.motion_bytes", pool_printf(&p, "%u", fg_world_motion_bytes(w)));
    META("fg.slots", pool_printf(&p, "%u", nslots));
    META("fg.jump_button", jump_button ? jump_button : "");
    META("fg.jump_action", fg_world_jump_action(w));
    META("fg.ground", fg_ground_mode_name(fg_world_ground_mode(w)));
    META("fg.jump", pool_printf(&p, "%lld %lld", (long long)jump.buffer_ticks,
                                (long long)jump.coyote_ticks));
    META("fg.start_hash",
         pool_printf(&p, "%016llx", (unsigned long long)fg_world_hash(w)));
    for (uint32_t i = 0; i < n; i++) {
        fg_spawn sp = fg_world_spawn_of(w, i);
        META(pool_printf(&p, "fg.e%u", i + 1),
             pool_printf(&p, "x=%d y=%d facing=%s contact=%d rules=%u opponent=%u", sp.x, sp.y,
                         sp.facing == FG_FACING_LEFT ? "left" : "right", sp.grounded ? 1 : 0,
                         sp.rules, sp.opponent));
        const fg_ruleset *rs = fg_world_rules(w, i + 1);
        char res[256] = "";
        size_t len = 0;
        for (uint32_t k = 0; rs && k < fg_ruleset_resource_count(rs) && len < sizeof res; k++) {
            int32_t v = fg_world_resource(w, i + 1, k);
            if (v != fg_ruleset_resource(rs, k)->start) {
                int q = snprintf(res + len, sizeof res - len, "%s%u=%d", len ? " " : "", k, v);
                if (q > 0) len += (size_t)q;
            }
        }
        META(pool_printf(&p, "fg.e%u.res", i + 1), pool_printf(&p, "%s", res));
    }
    uint32_t h = 0;
    for (uint32_t s = 0; s < nslots; s++) {
        hashes[h].name = str_of(pool_printf(&p, "ruleset.%u", s));
        hashes[h].hash = fg_ruleset_hash(fg_world_slot_rules(w, s));
        if (!hashes[h].name.s) {
            st = fg_error_set(err, FG_ENOMEM, "recording: metadata too long");
            goto done;
        }
        h++;
    }
    for (uint32_t i = 0; i < o.nrules; i++) {
        const fg_record_rules *rr = &o.rules[i];
        if (rr->path) META(pool_printf(&p, "fg.rules.%u", rr->slot), rr->path);
        for (uint32_t f = 0; f < rr->nfiles; f++) {
            const fg_replay_file *file = &rr->files[f];
            const char *pk = pool_printf(&p, "fg.file.%u.%u.path", rr->slot, f);
            const char *tk = pool_printf(&p, "fg.file.%u.%u.text", rr->slot, f);
            const char *hk = pool_printf(&p, "source.%u.%u", rr->slot, f);
            if (!pk || !tk || !hk) {
                st = fg_error_set(err, FG_ENOMEM, "recording: metadata too long");
                goto done;
            }
            meta[m].key = str_of(pk);
            meta[m++].value = file->path;
            meta[m].key = str_of(tk);
            meta[m++].value = file->text;
            hashes[h].name = str_of(hk);
            hashes[h++].hash = fg_hash64(file->text.s, file->text.len, 0);
        }
    }
    for (uint32_t i = 0; i < o.nmeta; i++) meta[m++] = o.meta[i];
#undef META

    fg_replay_header hd;
    memset(&hd, 0, sizeof hd);
    hd.tick_rate = fg_world_tick_rate(w);
    hd.seed = fg_world_seed(w);
    hd.start_tick = fg_world_tick(w);
    hd.ruleset_hash = nslots ? fg_ruleset_hash(fg_world_slot_rules(w, 0)) : 0;
    hd.nhashes = h;
    hd.hashes = hashes;
    hd.nmeta = m;
    hd.meta = meta;
    fg_replay_write_options wo = {&a, o.chunk_size};
    memset(r, 0, sizeof *r);
    st = path ? fg_replay_writer_create_file(path, &hd, &wo, &r->writer, err)
              : fg_replay_writer_create_sink(&hd, sink, ud, &wo, &r->writer, err);
    if (st != FG_OK) goto done;
    r->w = w;
    r->alloc = a;
    r->every = o.checkpoint_every ? o.checkpoint_every : DEFAULT_CHECKPOINT_EVERY;
    r->start = r->next = fg_world_tick(w);
    r->edits = fg_world_edits(w, NULL);
    r->side_inputs = fg_world_side_inputs(w, NULL);
    for (uint32_t s = 0; s < nslots; s++) r->slot_version[s] = fg_world_slot_version(w, s);
    r->next_edge = next_edge;
    r->nentities = n;
    r->max_entities = max_entities;
    /* A fresh world has consumed no edge; ids start at 1. */
    for (uint32_t i = 0; i < max_entities; i++) next_edge[i] = 1;
    *out = r;
    r = NULL;
    next_edge = NULL;
done:
    fg_free(&a, p.buf, pool_size);
    fg_free(&a, meta, sizeof *meta * nmeta);
    fg_free(&a, hashes, sizeof *hashes * (nhashes ? nhashes : 1));
    fg_free(&a, r, sizeof *r);
    fg_free(&a, next_edge, sizeof(fg_edge_id) * max_entities);
    return st;
}

fg_status fg_recorder_create_sink(fg_world *w, fg_replay_sink_fn sink, void *ud,
                                  const fg_record_options *opt, fg_recorder **out, fg_error *err) {
    if (!sink) return fg_error_set(err, FG_EINVAL, "recording: a sink is required");
    return open_common(out, w, NULL, sink, ud, opt, err);
}

fg_status fg_recorder_create_file(fg_world *w, const char *path, const fg_record_options *opt,
                                  fg_recorder **out, fg_error *err) {
    if (!path) return fg_error_set(err, FG_EINVAL, "recording: a path is required");
    return open_common(out, w, path, NULL, NULL, opt, err);
}

/* }====================================================================== */

/* {====================================================================== per tick */

static fg_status fail(fg_recorder *r, fg_status st) {
    r->failed = true;
    return st;
}

static fg_status check_usable(const fg_recorder *r, fg_error *err) {
    if (r->finished) return fg_error_set(err, FG_ESTATE, "recording: already finished");
    if (r->failed)
        return fg_error_set(err, FG_ESTATE, "recording: stopped by an earlier error; the replay "
                            "is cut short at tick %lld", (long long)r->next - 1);
    return FG_OK;
}

fg_status fg_recorder_tick(fg_recorder *r, fg_error *err) {
    fg_status st = check_usable(r, err);
    if (st != FG_OK) return st;
    fg_world *w = r->w;
    fg_tick t = fg_world_tick(w) - 1;
    const char *what = NULL;
    if (fg_world_edits(w, &what) != r->edits)
        return fail(r, fg_error_set(err, FG_ESTATE, "recording: the world was edited (%s) before "
                                    "tick %lld; a replay carries input, not edits: finish the "
                                    "recording before editing and start a new one after",
                                    what ? what : "?", (long long)t));
    if (fg_world_side_inputs(w, &what) != r->side_inputs)
        return fail(r, fg_error_set(err, FG_ESTATE, "recording: a %s was made before tick %lld; "
                                    "a replay carries input edges only",
                                    what ? what : "?", (long long)t));
    if (t != r->next)
        return fail(r, fg_error_set(err, FG_ESTATE, "recording: tick %lld ran, the recorder "
                                    "expected tick %lld (call fg_recorder_tick after every "
                                    "fg_world_advance)", (long long)t, (long long)r->next));
    uint32_t nslots = fg_world_slot_count(w);
    for (uint32_t s = 0; s < nslots; s++)
        if (fg_world_slot_version(w, s) != r->slot_version[s])
            return fail(r, fg_error_set(err, FG_ESTATE, "recording: the rules of slot %u changed "
                                        "before tick %lld without fg_world_record_reload; the "
                                        "replay could not load them", s, (long long)t));
    for (uint32_t i = 0; i < r->nentities; i++) {
        const fg_tick_input *in = fg_world_last_input(w, i + 1);
        const fg_buffer *b = fg_world_buffer(w, i + 1);
        for (uint32_t j = 0; j < in->count; j++) {
            const fg_edge *e = fg_buffer_at(b, in->first + j);
            if (e->id != r->next_edge[i])
                return fail(r, fg_error_set(err, FG_ESTATE, "recording: entity %u consumed more "
                                            "edges in tick %lld than its buffer keeps (%u); edge "
                                            "%llu was lost", i + 1, (long long)t, b->capacity,
                                            (unsigned long long)r->next_edge[i]));
            r->next_edge[i] = e->id + 1;
            st = fg_replay_write_input(r->writer, fg_replay_input_of_edge(i + 1, e), err);
            if (st != FG_OK) return fail(r, st);
        }
    }
    if (nslots > 0)
        for (uint32_t i = 0; i < r->nentities; i++) {
            const fg_motion_command *cmds;
            uint32_t ncmds = fg_world_commands(w, i, &cmds);
            for (uint32_t c = 0; c < ncmds; c++) {
                const fg_motion_command *cmd = &cmds[c];
                if (cmd->age != 0) continue;
                fg_replay_command rc = {i + 1, t, cmd->motion};
                st = fg_replay_write_command(r->writer, rc, err);
                if (st != FG_OK) return fail(r, st);
            }
        }
    r->next = t + 1;
    /* The final hash is the hash after the last recorded tick: ask the world to take it before
    ** anything changes it, instead of hashing every tick. */
    fg_world_watch_boundary(w, true);
    if ((t - r->start + 1) % r->every == 0) {
        st = fg_replay_write_checkpoint(r->writer, t, fg_world_hash(w), err);
        if (st == FG_OK) st = fg_replay_writer_flush(r->writer, err);
        if (st != FG_OK) return fail(r, st);
    }
    return FG_OK;
}

fg_status fg_world_record_reload(fg_recorder *r, uint32_t slot, const fg_replay_file *files,
                                 uint32_t nfiles, fg_error *err) {
    fg_status st = check_usable(r, err);
    if (st != FG_OK) return st;
    fg_world *w = r->w;
    if (slot >= fg_world_slot_count(w))
        return fg_error_set(err, FG_ENOTFOUND, "recording: reload of slot %u, which does not "
                            "exist (%u loaded)", slot, fg_world_slot_count(w));
    if (fg_world_slot_version(w, slot) == r->slot_version[slot])
        return fg_error_set(err, FG_ESTATE, "recording: slot %u was not reloaded since the last "
                            "tick (call fg_world_replace_rules first)", slot);
    if (nfiles == 0 || !files)
        return fg_error_set(err, FG_EINVAL, "recording: a reload needs the new ruleset's files, "
                            "so the replay can load them");
    fg_replay_reload rec;
    rec.tick = fg_world_tick(w);
    rec.old_hash = fg_ruleset_hash(fg_world_rules_version(w, r->slot_version[slot]));
    rec.new_hash = fg_ruleset_hash(fg_world_slot_rules(w, slot));
    rec.nfiles = nfiles;
    rec.files = files;
    st = fg_replay_write_reload(r->writer, &rec, err);
    if (st != FG_OK) return st;
    r->slot_version[slot] = (uint16_t)fg_world_slot_version(w, slot);
    return FG_OK;
}

fg_status fg_recorder_clamp(fg_recorder *r, int64_t clamped_us, fg_error *err) {
    fg_status st = check_usable(r, err);
    if (st != FG_OK) return st;
    if (clamped_us <= 0) return FG_OK;
    return fg_replay_write_clamp(r->writer, fg_world_tick(r->w), clamped_us, err);
}

fg_status fg_recorder_finish(fg_recorder *r, fg_error *err) {
    fg_status st = check_usable(r, err);
    if (st != FG_OK) return st;
    if (r->next == r->start)
        return fg_error_set(err, FG_ESTATE, "recording: no tick was recorded");
    /* The hash after the last recorded tick: the world may have changed since, and then it was
    ** taken just before the change. */
    uint64_t last;
    if (!fg_world_boundary_hash(r->w, r->next, &last)) last = fg_world_hash(r->w);
    st = fg_replay_write_final(r->writer, r->next - 1, last, err);
    if (st == FG_OK) st = fg_replay_writer_finish(r->writer, err);
    if (st != FG_OK) return fail(r, st);
    r->finished = true;
    return FG_OK;
}

void fg_recorder_destroy(fg_recorder *r) {
    if (!r) return;
    fg_world_watch_boundary(r->w, false);
    fg_allocator a = r->alloc;
    fg_replay_writer_destroy(r->writer);
    fg_free(&a, r->next_edge, sizeof(fg_edge_id) * r->max_entities);
    fg_free(&a, r, sizeof *r);
}

fg_tick fg_recorder_ticks(const fg_recorder *r) { return r->next - r->start; }

bool fg_recorder_edited(const fg_recorder *r, const char **what) {
    const char *latest;
    bool edited = fg_world_edits(r->w, &latest) != r->edits;
    if (!edited) edited = fg_world_side_inputs(r->w, &latest) != r->side_inputs;
    if (edited && what) *what = latest;
    return edited;
}

int fg_recorder_unrecorded_reload(const fg_recorder *r) {
    for (uint32_t s = 0, n = fg_world_slot_count(r->w); s < n; s++)
        if (fg_world_slot_version(r->w, s) != r->slot_version[s]) return (int)s;
    return -1;
}

/* }====================================================================== */
