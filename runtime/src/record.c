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
#include "internal.h"

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
    c.tick_rate = w->tick_rate;
    c.seed = w->seed;
    c.max_entities = w->max_entities;
    c.buffer_capacity = w->buffer_capacity;
    c.trace_capacity = 0;
    c.motion_bytes = (uint32_t)w->motion_stride;
    c.allocator = w->alloc;
    c.rules = w->state->nslots ? w->versions[w->state->slot_version[0]] : NULL;
    if (!c.rules) {
        c.buttons = NULL;
        c.nbuttons = 0;
    }
    if (w->jump_action >= 0) {
        c.jump_button = w->names.names[w->jump_action];
        c.jump = w->jump;
        c.jump_action = w->jump_action_name[0] ? w->jump_action_name : NULL;
    }
    c.ground = w->ground_mode;
    return c;
}

/* Builds a fresh world from the setup of `w` and compares the hashes. */
static fg_status check_rebuild(fg_world *w, fg_error *err) {
    fg_world_config c = fresh_config(w);
    const char *buttons[FG_INPUT_MAX_ACTIONS];
    if (!c.rules) {
        for (uint32_t i = FG_IN_FIRST_BUTTON; i < w->names.count; i++)
            buttons[i - FG_IN_FIRST_BUTTON] = w->names.names[i];
        c.buttons = buttons;
        c.nbuttons = w->names.count - FG_IN_FIRST_BUTTON;
    }
    fg_error e2;
    fg_world *f = fg_world_create(&c, &e2);
    if (!f) return fg_error_set(err, e2.code, "recording: cannot build the setup: %s", e2.msg);
    fg_status st = FG_OK;
    for (uint32_t s = 1; st == FG_OK && s < w->state->nslots; s++)
        st = fg_world_add_rules(f, w->versions[w->state->slot_version[s]], NULL, &e2);
    for (uint32_t i = 0; st == FG_OK && i < w->state->nentities; i++) {
        const fg_entity_state *es = &w->entities[i];
        fg_spawn sp = {es->x, es->y, (fg_facing)es->facing, es->contact != 0, es->rules_slot,
                       es->opponent < es->id ? es->opponent : 0};
        st = fg_world_spawn(f, &sp, NULL, &e2);
        const fg_ruleset *r = fg_world_rules_of(w, es);
        for (uint32_t k = 0; st == FG_OK && r && k < r->nresources; k++)
            if (es->res[k] != r->resources[k].start)
                st = fg_world_set_resource(f, es->id, k, es->res[k], &e2);
    }
    if (st != FG_OK) {
        fg_world_destroy(f);
        return fg_error_set(err, st, "recording: cannot build the setup: %s", e2.msg);
    }
    uint64_t want = fg_world_hash(w), got = fg_world_hash(f);
    if (want == got) {
        fg_world_destroy(f);
        return FG_OK;
    }
    /* Name what differs: both worlds have the same layout, so their snapshots compare. */
    char fields[FG_ERROR_MAX] = "";
    size_t cap = fg_world_snapshot_capacity(w), len = 0;
    void *a = fg_alloc(&w->alloc, cap), *b = fg_alloc(&w->alloc, cap);
    fg_state_diff diffs[4];
    uint32_t n = 0;
    if (a && b && fg_world_save(f, a, cap, NULL) == FG_OK &&
        fg_world_save(w, b, cap, NULL) == FG_OK &&
        fg_world_diff(w, a, cap, b, cap, diffs, 4, &n, NULL) == FG_OK)
        for (uint32_t i = 0; i < n && i < 4; i++) {
            int k = snprintf(fields + len, sizeof fields - len, "%s%s: %s vs %s", i ? ", " : "",
                             diffs[i].path, diffs[i].a, diffs[i].b);
            if (k > 0) len += (size_t)k;
            if (len >= sizeof fields) break;
        }
    fg_free(&w->alloc, a, cap);
    fg_free(&w->alloc, b, cap);
    fg_world_destroy(f);
    return fg_error_set(err, FG_ESTATE,
                        "recording: the state at tick %lld cannot be rebuilt from its setup "
                        "(spawns, positions, facing, resources): %s%s; start recording from a "
                        "freshly spawned world, before its first tick",
                        (long long)w->state->tick, fields[0] ? "set up it would be " : "",
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
    for (uint32_t i = 0; i < o.nrules; i++)
        if (o.rules[i].slot >= w->state->nslots)
            return fg_error_set(err, FG_ENOTFOUND, "recording: rules[%u].slot %u does not exist "
                                "(%u loaded)", i, o.rules[i].slot, w->state->nslots);
    if (w->nhost_events > 0)
        return fg_error_set(err, FG_ESTATE, "recording: %u animation report(s) wait for the next "
                            "tick; a replay cannot carry them", w->nhost_events);
    for (uint32_t i = 0; i < w->state->nentities; i++)
        if (w->entities[i].npending > 0)
            return fg_error_set(err, FG_ESTATE, "recording: entity %u has requests waiting for "
                                "the next tick; a replay records input edges only", i + 1);
    fg_status st = check_rebuild(w, err);
    if (st != FG_OK) return st;

    fg_allocator a = o.alloc ? *o.alloc : w->alloc;
    uint32_t n = w->state->nentities;
    uint32_t nfiles = 0;
    for (uint32_t i = 0; i < o.nrules; i++) nfiles += o.rules[i].nfiles;
    uint32_t nmeta = 11 + 2 * n + o.nrules + 2 * nfiles + o.nmeta;
    uint32_t nhashes = w->state->nslots + nfiles;
    size_t pool_size = 512 + (size_t)n * 320 + (size_t)(o.nrules + nfiles) * 96 +
                       (size_t)w->state->nslots * 32;
    pool p = {fg_alloc(&a, pool_size), pool_size, 0};
    fg_replay_meta *meta = fg_alloc(&a, sizeof *meta * nmeta);
    fg_replay_named_hash *hashes = fg_alloc(&a, sizeof *hashes * (nhashes ? nhashes : 1));
    fg_recorder *r = fg_alloc(&a, sizeof *r);
    fg_edge_id *next_edge = fg_alloc(&a, sizeof(fg_edge_id) * w->max_entities);
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
    META("fg.max_entities", pool_printf(&p, "%u", w->max_entities));
    META("fg.buffer", pool_printf(&p, "%u", w->buffer_capacity));
    META("fg.motion_bytes", pool_printf(&p, "%zu", w->motion_stride));
    META("fg.slots", pool_printf(&p, "%u", w->state->nslots));
    META("fg.jump_button", w->jump_action >= 0 ? w->names.names[w->jump_action] : "");
    META("fg.jump_action", w->jump_action_name);
    META("fg.ground", fg_ground_mode_name(w->ground_mode));
    META("fg.jump", pool_printf(&p, "%lld %lld", (long long)w->jump.buffer_ticks,
                                (long long)w->jump.coyote_ticks));
    META("fg.start_hash",
         pool_printf(&p, "%016llx", (unsigned long long)fg_world_hash(w)));
    for (uint32_t i = 0; i < n; i++) {
        const fg_entity_state *es = &w->entities[i];
        META(pool_printf(&p, "fg.e%u", i + 1),
             pool_printf(&p, "x=%d y=%d facing=%s contact=%d rules=%u opponent=%u", es->x, es->y,
                         es->facing == FG_FACING_LEFT ? "left" : "right", es->contact ? 1 : 0,
                         es->rules_slot, es->opponent));
        const fg_ruleset *rs = w->state->nslots ? fg_world_rules_of(w, es) : NULL;
        char res[256] = "";
        size_t len = 0;
        for (uint32_t k = 0; rs && k < rs->nresources && len < sizeof res; k++)
            if (es->res[k] != rs->resources[k].start) {
                int q = snprintf(res + len, sizeof res - len, "%s%u=%d", len ? " " : "", k,
                                 es->res[k]);
                if (q > 0) len += (size_t)q;
            }
        META(pool_printf(&p, "fg.e%u.res", i + 1), pool_printf(&p, "%s", res));
    }
    uint32_t h = 0;
    for (uint32_t s = 0; s < w->state->nslots; s++) {
        hashes[h].name = str_of(pool_printf(&p, "ruleset.%u", s));
        hashes[h].hash = w->versions[w->state->slot_version[s]]->hash;
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
    hd.tick_rate = w->tick_rate;
    hd.seed = w->seed;
    hd.start_tick = w->state->tick;
    hd.ruleset_hash = w->state->nslots ? w->versions[w->state->slot_version[0]]->hash : 0;
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
    r->start = r->next = w->state->tick;
    r->edits = w->edits;
    r->side_inputs = w->side_inputs;
    memcpy(r->slot_version, w->state->slot_version, sizeof r->slot_version);
    r->next_edge = next_edge;
    r->nentities = n;
    r->max_entities = w->max_entities;
    /* A fresh world has consumed no edge; ids start at 1. */
    for (uint32_t i = 0; i < w->max_entities; i++) next_edge[i] = 1;
    *out = r;
    r = NULL;
    next_edge = NULL;
done:
    fg_free(&a, p.buf, pool_size);
    fg_free(&a, meta, sizeof *meta * nmeta);
    fg_free(&a, hashes, sizeof *hashes * (nhashes ? nhashes : 1));
    fg_free(&a, r, sizeof *r);
    fg_free(&a, next_edge, sizeof(fg_edge_id) * w->max_entities);
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
    fg_tick t = w->state->tick - 1;
    if (w->edits != r->edits)
        return fail(r, fg_error_set(err, FG_ESTATE, "recording: the world was edited (%s) before "
                                    "tick %lld; a replay carries input, not edits: finish the "
                                    "recording before editing and start a new one after",
                                    w->edit_what ? w->edit_what : "?", (long long)t));
    if (w->side_inputs != r->side_inputs)
        return fail(r, fg_error_set(err, FG_ESTATE, "recording: a %s was made before tick %lld; "
                                    "a replay carries input edges only",
                                    w->side_input_what ? w->side_input_what : "?", (long long)t));
    if (t != r->next)
        return fail(r, fg_error_set(err, FG_ESTATE, "recording: tick %lld ran, the recorder "
                                    "expected tick %lld (call fg_recorder_tick after every "
                                    "fg_world_advance)", (long long)t, (long long)r->next));
    for (uint32_t s = 0; s < w->state->nslots; s++)
        if (w->state->slot_version[s] != r->slot_version[s])
            return fail(r, fg_error_set(err, FG_ESTATE, "recording: the rules of slot %u changed "
                                        "before tick %lld without fg_world_record_reload; the "
                                        "replay could not load them", s, (long long)t));
    for (uint32_t i = 0; i < r->nentities; i++) {
        const fg_entity_state *es = &w->entities[i];
        const fg_buffer *b = fg_world_buffer_at(w, i);
        for (uint32_t j = 0; j < es->last_input.count; j++) {
            const fg_edge *e = fg_buffer_at(b, es->last_input.first + j);
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
    if (w->state->nslots > 0)
        for (uint32_t i = 0; i < r->nentities; i++)
            for (uint32_t c = 0; c < w->ncommands[i]; c++) {
                const fg_motion_command *cmd = &w->commands[(size_t)i * FG_COMMANDS_PER_TICK + c];
                if (cmd->age != 0) continue;
                fg_replay_command rc = {i + 1, t, cmd->motion};
                st = fg_replay_write_command(r->writer, rc, err);
                if (st != FG_OK) return fail(r, st);
            }
    r->next = t + 1;
    /* The final hash is the hash after the last recorded tick: ask the world to take it before
    ** anything changes it, instead of hashing every tick. */
    w->watch_boundary = true;
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
    if (slot >= w->state->nslots)
        return fg_error_set(err, FG_ENOTFOUND, "recording: reload of slot %u, which does not "
                            "exist (%u loaded)", slot, w->state->nslots);
    if (w->state->slot_version[slot] == r->slot_version[slot])
        return fg_error_set(err, FG_ESTATE, "recording: slot %u was not reloaded since the last "
                            "tick (call fg_world_replace_rules first)", slot);
    if (nfiles == 0 || !files)
        return fg_error_set(err, FG_EINVAL, "recording: a reload needs the new ruleset's files, "
                            "so the replay can load them");
    fg_replay_reload rec;
    rec.tick = w->state->tick;
    rec.old_hash = w->versions[r->slot_version[slot]]->hash;
    rec.new_hash = w->versions[w->state->slot_version[slot]]->hash;
    rec.nfiles = nfiles;
    rec.files = files;
    st = fg_replay_write_reload(r->writer, &rec, err);
    if (st != FG_OK) return st;
    r->slot_version[slot] = w->state->slot_version[slot];
    return FG_OK;
}

fg_status fg_recorder_clamp(fg_recorder *r, int64_t clamped_us, fg_error *err) {
    fg_status st = check_usable(r, err);
    if (st != FG_OK) return st;
    if (clamped_us <= 0) return FG_OK;
    return fg_replay_write_clamp(r->writer, r->w->state->tick, clamped_us, err);
}

fg_status fg_recorder_finish(fg_recorder *r, fg_error *err) {
    fg_status st = check_usable(r, err);
    if (st != FG_OK) return st;
    if (r->next == r->start)
        return fg_error_set(err, FG_ESTATE, "recording: no tick was recorded");
    /* The hash after the last recorded tick: the world may have changed since, and then it was
    ** taken just before the change. */
    fg_world *w = r->w;
    uint64_t last = !w->watch_boundary && w->boundary_tick == r->next ? w->boundary_hash
                                                                     : fg_world_hash(w);
    st = fg_replay_write_final(r->writer, r->next - 1, last, err);
    if (st == FG_OK) st = fg_replay_writer_finish(r->writer, err);
    if (st != FG_OK) return fail(r, st);
    r->finished = true;
    return FG_OK;
}

void fg_recorder_destroy(fg_recorder *r) {
    if (!r) return;
    r->w->watch_boundary = false;
    fg_allocator a = r->alloc;
    fg_replay_writer_destroy(r->writer);
    fg_free(&a, r->next_edge, sizeof(fg_edge_id) * r->max_entities);
    fg_free(&a, r, sizeof *r);
}

fg_tick fg_recorder_ticks(const fg_recorder *r) { return r->next - r->start; }

bool fg_recorder_edited(const fg_recorder *r, const char **what) {
    const fg_world *w = r->w;
    if (w->edits != r->edits) {
        if (what) *what = w->edit_what;
        return true;
    }
    if (w->side_inputs != r->side_inputs) {
        if (what) *what = w->side_input_what;
        return true;
    }
    return false;
}

int fg_recorder_unrecorded_reload(const fg_recorder *r) {
    for (uint32_t s = 0; s < r->w->state->nslots; s++)
        if (r->w->state->slot_version[s] != r->slot_version[s]) return (int)s;
    return -1;
}

/* }====================================================================== */
