/* SPDX-License-Identifier: MIT */
/*
** replay_verify.c: rebuilding a recorded session from a replay and checking it tick by tick.
**
** fg_replay_world_config and fg_replay_setup read the `fg.*` metadata record.c writes and rebuild
** the starting state, which must hash as the recording's did. The player then pushes each
** recorded edge before its tick runs, applies reloads at their tick boundary, runs the tick, and
** compares the tick's new motion commands and any checkpoint or final hash with the recording.
**
** Pushing an edge: an edge whose timestamp belongs to its tick is pushed with that tick; an edge
** that arrived late in the recording (its timestamp belongs to an earlier tick) is pushed after
** the tick before it ran, so the buffer moves and flags it exactly as it did then.
**
** With a display rate, the player is a host: its frames advance a host clock by 1/fps seconds,
** jittered, with an occasional long frame the loop clamps; each frame pushes every edge whose time
** has come (as a host polls its devices), then runs the ticks the loop says are due. The state
** hash must come out the same as tick by tick, because only consumed input is authoritative.
*/
#include "base_internal.h"
#include "world_access.h"

#include "framegate/determinism.h"
#include "framegate/loop.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUEUE_CAP 4096u /* records read ahead of the tick being run */

/* {====================================================================== setup */

static const char *meta_get(const fg_replay_reader *r, const char *key) {
    const fg_replay_header *h = fg_replay_reader_header(r);
    size_t n = strlen(key);
    for (uint32_t i = 0; i < h->nmeta; i++)
        if (h->meta[i].key.len == n && memcmp(h->meta[i].key.s, key, n) == 0)
            return h->meta[i].value.s;
    return NULL;
}

static fg_status meta_u32(const fg_replay_reader *r, const char *key, uint32_t lo, uint32_t hi,
                          uint32_t *out, fg_error *err) {
    const char *v = meta_get(r, key);
    char *end = NULL;
    unsigned long long x = v ? strtoull(v, &end, 10) : 0;
    if (!v || !*v || *end || x < lo || x > hi)
        return fg_error_set(err, FG_EFORMAT, "%s: metadata %s: '%s', expected %u..%u (was it "
                            "recorded from a world?)", fg_replay_reader_name(r), key,
                            v ? v : "(missing)", lo, hi);
    *out = (uint32_t)x;
    return FG_OK;
}

fg_status fg_replay_world_config(const fg_replay_reader *r, fg_world_config *cfg,
                                 fg_error *err) {
    const fg_replay_header *h = fg_replay_reader_header(r);
    uint32_t maxe, buffer, motion;
    fg_status st = meta_u32(r, "fg.max_entities", 1, 1000000, &maxe, err);
    if (st == FG_OK) st = meta_u32(r, "fg.buffer", 1, 65536, &buffer, err);
    if (st == FG_OK) st = meta_u32(r, "fg.motion_bytes", 0, 1u << 30, &motion, err);
    if (st != FG_OK) return st;
    const char *button = meta_get(r, "fg.jump_button");
    const char *jump = meta_get(r, "fg.jump");
    fg_jump_config jc = cfg->jump;
    if (button && *button) {
        long long b = 0, c = 0;
        if (!jump || sscanf(jump, "%lld %lld", &b, &c) != 2)
            return fg_error_set(err, FG_EFORMAT, "%s: metadata fg.jump: '%s', expected 'BUFFER "
                                "COYOTE'", fg_replay_reader_name(r), jump ? jump : "(missing)");
        jc.buffer_ticks = b;
        jc.coyote_ticks = c;
    }
    cfg->tick_rate = h->tick_rate;
    cfg->seed = h->seed;
    cfg->max_entities = maxe;
    cfg->buffer_capacity = buffer;
    cfg->motion_bytes = motion;
    cfg->jump = jc;
    cfg->jump_button = button && *button ? button : NULL;
    const char *action = meta_get(r, "fg.jump_action");
    cfg->jump_action = action && *action && cfg->jump_button ? action : NULL;
    /* Absent in replays older than the stage: the default for the world they describe. */
    const char *ground = meta_get(r, "fg.ground");
    if (!ground || !*ground)
        cfg->ground = FG_GROUND_DEFAULT;
    else if (!strcmp(ground, "stage"))
        cfg->ground = FG_GROUND_STAGE;
    else if (!strcmp(ground, "contacts"))
        cfg->ground = FG_GROUND_CONTACTS;
    else
        return fg_error_set(err, FG_EFORMAT, "%s: metadata fg.ground: '%s', expected 'stage' "
                            "or 'contacts'", fg_replay_reader_name(r), ground);
    return FG_OK;
}

static fg_status parse_entity(const fg_replay_reader *r, uint32_t i, fg_spawn *sp, fg_error *err) {
    char key[32];
    snprintf(key, sizeof key, "fg.e%u", i);
    const char *v = meta_get(r, key);
    long long x, y;
    char facing[8];
    int contact;
    unsigned rules, opp;
    if (!v || sscanf(v, "x=%lld y=%lld facing=%7s contact=%d rules=%u opponent=%u", &x, &y,
                     facing, &contact, &rules, &opp) != 6 ||
        (strcmp(facing, "left") && strcmp(facing, "right")) || x < INT32_MIN || x > INT32_MAX ||
        y < INT32_MIN || y > INT32_MAX)
        return fg_error_set(err, FG_EFORMAT, "%s: metadata %s: '%s', expected 'x=.. y=.. "
                            "facing=right|left contact=0|1 rules=.. opponent=..'",
                            fg_replay_reader_name(r), key, v ? v : "(missing)");
    memset(sp, 0, sizeof *sp);
    sp->x = (fg_fx)x;
    sp->y = (fg_fx)y;
    sp->facing = facing[0] == 'l' ? FG_FACING_LEFT : FG_FACING_RIGHT;
    sp->grounded = contact != 0;
    sp->rules = rules;
    sp->opponent = opp < i ? opp : 0;
    return FG_OK;
}

fg_status fg_replay_setup(fg_world *w, const fg_replay_reader *r, fg_error *err) {
    const char *name = fg_replay_reader_name(r);
    const fg_replay_header *h = fg_replay_reader_header(r);
    if (fg_world_entity_count(w) != 0 || fg_world_tick(w) != h->start_tick)
        return fg_error_set(err, FG_ESTATE, "%s: the world must be fresh (tick %lld, no entity) "
                            "to set up the replay; it is at tick %lld with %u entities", name,
                            (long long)h->start_tick, (long long)fg_world_tick(w),
                            fg_world_entity_count(w));
    if (h->tick_rate != fg_world_tick_rate(w) || h->seed != fg_world_seed(w))
        return fg_error_set(err, FG_EMISMATCH, "%s: recorded at %u Hz with seed %llu; the world "
                            "runs at %u Hz with seed %llu", name, h->tick_rate,
                            (unsigned long long)h->seed, fg_world_tick_rate(w),
                            (unsigned long long)fg_world_seed(w));
    uint32_t n, slots;
    fg_status st = meta_u32(r, "fg.entities", 0, fg_world_max_entities(w), &n, err);
    if (st == FG_OK) st = meta_u32(r, "fg.slots", 0, FG_MAX_RULE_SLOTS, &slots, err);
    if (st != FG_OK) return st;
    if (slots != fg_world_slot_count(w))
        return fg_error_set(err, FG_EMISMATCH, "%s: recorded with %u rules slot(s), the world "
                            "has %u", name, slots, fg_world_slot_count(w));
    for (uint32_t s = 0; s < slots; s++) {
        char key[32];
        snprintf(key, sizeof key, "ruleset.%u", s);
        for (uint32_t i = 0; i < h->nhashes; i++) {
            if (strcmp(h->hashes[i].name.s, key) != 0) continue;
            uint64_t have = fg_ruleset_hash(fg_world_slot_rules(w, s));
            if (h->hashes[i].hash != have)
                return fg_error_set(err, FG_EMISMATCH, "%s: replay was recorded with ruleset "
                                    "0x%016llx in slot %u, loaded ruleset is 0x%016llx", name,
                                    (unsigned long long)h->hashes[i].hash, s,
                                    (unsigned long long)have);
        }
    }
    fg_spawn spawns[64];
    for (uint32_t i = 1; i <= n; i++) {
        fg_spawn sp;
        st = parse_entity(r, i, &sp, err);
        if (st != FG_OK) return st;
        if (i <= 64) spawns[i - 1] = sp;
    }
    for (uint32_t i = 1; i <= n; i++) {
        fg_spawn sp;
        if (i <= 64) sp = spawns[i - 1];
        else parse_entity(r, i, &sp, NULL);
        fg_error e2;
        if (fg_world_spawn(w, &sp, NULL, &e2) != FG_OK) {
            fg_error_prefix(&e2, "%s: setting up entity %u", name, i);
            return fg_error_move(err, &e2);
        }
        char key[32];
        snprintf(key, sizeof key, "fg.e%u.res", i);
        const char *res = meta_get(r, key);
        while (res && *res) {
            unsigned k;
            long long v;
            int used = 0;
            if (sscanf(res, "%u=%lld%n", &k, &v, &used) != 2 || v < INT32_MIN || v > INT32_MAX)
                return fg_error_set(err, FG_EFORMAT, "%s: metadata %s: '%s', expected 'INDEX=VALUE "
                                    "...'", name, key, meta_get(r, key));
            if (fg_world_set_resource(w, i, k, (int32_t)v, &e2) != FG_OK) {
                fg_error_prefix(&e2, "%s: setting up entity %u", name, i);
                return fg_error_move(err, &e2);
            }
            res += used;
            while (*res == ' ') res++;
        }
    }
    const char *want = meta_get(r, "fg.start_hash");
    char have[17];
    snprintf(have, sizeof have, "%016llx", (unsigned long long)fg_world_hash(w));
    if (!want || strcmp(want, have) != 0)
        return fg_error_set(err, FG_EMISMATCH, "%s: the starting state differs from the "
                            "recording's (hash %s, recorded %s): the rules or the runtime "
                            "changed what a spawn sets up", name, have, want ? want : "(missing)");
    return FG_OK;
}

const char *fg_replay_rules_path(const fg_replay_reader *r, uint32_t slot) {
    char key[32];
    snprintf(key, sizeof key, "fg.rules.%u", slot);
    return meta_get(r, key);
}

uint32_t fg_replay_rules_files(const fg_replay_reader *r, uint32_t slot, fg_replay_file *out,
                               uint32_t max) {
    const fg_replay_header *h = fg_replay_reader_header(r);
    uint32_t n = 0;
    for (;; n++) {
        char pk[48], tk[48];
        snprintf(pk, sizeof pk, "fg.file.%u.%u.path", slot, n);
        snprintf(tk, sizeof tk, "fg.file.%u.%u.text", slot, n);
        const fg_replay_meta *pm = NULL, *tm = NULL;
        for (uint32_t i = 0; i < h->nmeta; i++) {
            if (strcmp(h->meta[i].key.s, pk) == 0) pm = &h->meta[i];
            if (strcmp(h->meta[i].key.s, tk) == 0) tm = &h->meta[i];
        }
        if (!pm || !tm) break;
        if (out && n < max) {
            out[n].path = pm->value;
            out[n].text = tm->value;
        }
    }
    return n;
}

/* }====================================================================== */

/* {====================================================================== the player */

/* A record read ahead of its tick (reload records are never read ahead). */
typedef struct queued {
    uint8_t type;
    uint32_t entity;
    fg_tick tick;
    int64_t time_us;
    uint8_t kind, action, dir, source;
    uint32_t motion;
    uint64_t hash;
} queued;

typedef struct fifo {
    queued *items;
    uint32_t head, count, cap;
} fifo;

static queued *fifo_front(fifo *f) { return f->count ? &f->items[f->head] : NULL; }
static void fifo_pop(fifo *f) {
    f->head = (f->head + 1) % f->cap;
    f->count--;
}
static queued *fifo_push(fifo *f) {
    if (f->count == f->cap) return NULL;
    return &f->items[(f->head + f->count++) % f->cap];
}

struct fg_player {
    fg_world *w;
    fg_replay_reader *r;
    fg_player_options opt;
    fg_allocator alloc;
    fifo inputs, others;
    bool reader_done;
    fg_loop loop;
    int64_t host_us;
    fg_rng jitter;
    uint32_t due;
    fg_player_status status;
};

fg_status fg_player_create(fg_world *w, fg_replay_reader *r, const fg_player_options *opt,
                           fg_player **out, fg_error *err) {
    fg_player_options o;
    memset(&o, 0, sizeof o);
    if (opt) o = *opt;
    if (!out || !w || !r)
        return fg_error_set(err, FG_EINVAL, "replay player: world, reader and out are required");
    *out = NULL;
    const fg_replay_header *h = fg_replay_reader_header(r);
    if (h->tick_rate != fg_world_tick_rate(w))
        return fg_error_set(err, FG_EMISMATCH, "%s: recorded at %u Hz, the world runs at %u Hz",
                            fg_replay_reader_name(r), h->tick_rate, fg_world_tick_rate(w));
    if (fg_world_tick(w) != h->start_tick)
        return fg_error_set(err, FG_ESTATE, "%s: starts at tick %lld, the world is at tick %lld "
                            "(set it up with fg_replay_setup)", fg_replay_reader_name(r),
                            (long long)h->start_tick, (long long)fg_world_tick(w));
    if (o.fps > 100000 || o.jitter_pct > 90)
        return fg_error_set(err, FG_EINVAL, "replay player: fps %u (expected 0..100000) or "
                            "jitter %u%% (expected 0..90)", o.fps, o.jitter_pct);
    fg_allocator a = o.alloc ? *o.alloc : fg_world_allocator(w);
    fg_player *p = fg_alloc(&a, sizeof *p);
    queued *items = fg_alloc(&a, sizeof(queued) * QUEUE_CAP * 2);
    if (!p || !items) {
        fg_free(&a, p, sizeof *p);
        fg_free(&a, items, sizeof(queued) * QUEUE_CAP * 2);
        return fg_error_set(err, FG_ENOMEM, "replay player: out of memory");
    }
    p->w = w;
    p->r = r;
    p->opt = o;
    p->alloc = a;
    p->inputs = (fifo){items, 0, 0, QUEUE_CAP};
    p->others = (fifo){items + QUEUE_CAP, 0, 0, QUEUE_CAP};
    fg_replay_reader_rewind(r);
    const fg_replay_stats *rs = fg_replay_reader_stats(r);
    p->status.tick = fg_world_tick(w);
    p->status.last_tick = rs->has_final ? rs->final_tick : -1;
    p->status.last_good_tick = -1;
    p->status.divergent_tick = -1;
    if (o.fps) {
        fg_loop_config lc = fg_loop_config_default();
        lc.tick_rate = fg_world_tick_rate(w);
        fg_loop_init(&p->loop, &lc, NULL);
        p->jitter = fg_rng_seeded(o.jitter_seed ? o.jitter_seed : 1);
        p->host_us = 1000000; /* any origin: the loop maps it to world time 0 */
        fg_loop_frame(&p->loop, p->host_us, &p->due, NULL);
    }
    *out = p;
    return FG_OK;
}

void fg_player_destroy(fg_player *p) {
    if (!p) return;
    fg_allocator a = p->alloc;
    fg_free(&a, p->inputs.items, sizeof(queued) * QUEUE_CAP * 2);
    fg_free(&a, p, sizeof *p);
}

const fg_player_status *fg_player_get_status(const fg_player *p) { return &p->status; }

static fg_status diverge(fg_player *p, fg_tick tick, uint64_t expected, uint64_t got,
                         fg_error *err, const char *fmt, ...) FG_PRINTF(6, 7);
static fg_status diverge(fg_player *p, fg_tick tick, uint64_t expected, uint64_t got,
                         fg_error *err, const char *fmt, ...) {
    p->status.diverged = true;
    p->status.divergent_tick = tick;
    p->status.expected = expected;
    p->status.got = got;
    va_list ap;
    va_start(ap, fmt);
    fg_error_setv(err, FG_EMISMATCH, fmt, ap);
    va_end(ap);
    fg_error_prefix(err, "%s: tick %lld", fg_replay_reader_name(p->r), (long long)tick);
    return FG_EMISMATCH;
}

/* Reads the next record into a queue, applying a reload of `now` on the way. Returns false when
** nothing more can be read before tick `now` runs (a reload of a later tick, a full queue, the
** end). */
static fg_status read_one(fg_player *p, fg_tick now, bool *more, fg_error *err) {
    *more = false;
    if (p->reader_done) return FG_OK;
    fg_replay_record rec;
    fg_status st = fg_replay_peek(p->r, &rec, err);
    if (st != FG_OK) return st;
    if (rec.type == FG_REPLAY_END) {
        p->reader_done = true;
        return FG_OK;
    }
    if (rec.type == FG_REPLAY_RELOAD) {
        if (rec.as.reload.tick > now) return FG_OK;
        st = fg_replay_next(p->r, &rec, err);
        if (st != FG_OK) return st;
        if (p->opt.inputs_only) { /* the world runs the rules it was given */
            *more = true;
            return FG_OK;
        }
        if (rec.as.reload.tick < now)
            return diverge(p, now, 0, 0, err, "a reload of tick %lld comes after that tick ran",
                           (long long)rec.as.reload.tick);
        if (!p->opt.reload)
            return fg_error_set(err, FG_ESTATE, "%s: a hot reload at tick %lld (to ruleset "
                                "0x%016llx), and this player cannot load rules",
                                fg_replay_reader_name(p->r), (long long)now,
                                (unsigned long long)rec.as.reload.new_hash);
        uint32_t slot = UINT32_MAX;
        for (uint32_t s = 0; s < fg_world_slot_count(p->w); s++)
            if (fg_ruleset_hash(fg_world_slot_rules(p->w, s)) == rec.as.reload.old_hash)
                slot = s;
        if (slot == UINT32_MAX)
            return diverge(p, now, rec.as.reload.old_hash, 0, err, "a reload from ruleset "
                           "0x%016llx, which no slot runs", (unsigned long long)
                           rec.as.reload.old_hash);
        st = p->opt.reload(p->opt.ud, p->w, slot, &rec.as.reload, err);
        if (st != FG_OK) return st;
        uint64_t got = fg_ruleset_hash(fg_world_slot_rules(p->w, slot));
        if (got != rec.as.reload.new_hash)
            return diverge(p, now, rec.as.reload.new_hash, got, err, "the reloaded ruleset "
                           "hashes 0x%016llx, the recording's was 0x%016llx",
                           (unsigned long long)got, (unsigned long long)rec.as.reload.new_hash);
        p->status.reloads++;
        *more = true;
        return FG_OK;
    }
    fifo *f = rec.type == FG_REPLAY_INPUT ? &p->inputs : &p->others;
    if (f->count == f->cap) return FG_OK;
    st = fg_replay_next(p->r, &rec, err);
    if (st != FG_OK) return st;
    queued *q = fifo_push(f);
    memset(q, 0, sizeof *q);
    q->type = (uint8_t)rec.type;
    switch (rec.type) {
    case FG_REPLAY_INPUT:
        q->entity = rec.as.input.entity;
        q->tick = rec.as.input.tick;
        q->time_us = rec.as.input.time_us;
        q->kind = rec.as.input.kind;
        q->action = rec.as.input.action;
        q->dir = rec.as.input.dir;
        q->source = rec.as.input.source;
        break;
    case FG_REPLAY_COMMAND:
        q->entity = rec.as.command.entity;
        q->tick = rec.as.command.tick;
        q->motion = rec.as.command.motion;
        break;
    case FG_REPLAY_CHECKPOINT:
    case FG_REPLAY_FINAL:
        q->tick = rec.as.checkpoint.tick;
        q->hash = rec.as.checkpoint.hash;
        break;
    case FG_REPLAY_CLAMP:
        q->tick = rec.as.clamp.tick;
        q->time_us = rec.as.clamp.clamped_us;
        break;
    default: break;
    }
    *more = true;
    return FG_OK;
}

/* The tick of a record (the end marker has none). */
static fg_tick record_tick(const fg_replay_record *rec) {
    switch (rec->type) {
    case FG_REPLAY_INPUT: return rec->as.input.tick;
    case FG_REPLAY_COMMAND: return rec->as.command.tick;
    case FG_REPLAY_CHECKPOINT: return rec->as.checkpoint.tick;
    case FG_REPLAY_FINAL: return rec->as.final.tick;
    case FG_REPLAY_CLAMP: return rec->as.clamp.tick;
    case FG_REPLAY_RELOAD: return rec->as.reload.tick;
    default: return INT64_MAX;
    }
}

/* Reads every record of ticks <= now (applying reloads of `now`). */
static fg_status read_through(fg_player *p, fg_tick now, fg_error *err) {
    for (;;) {
        if (p->reader_done) return FG_OK;
        fg_replay_record rec;
        fg_status st = fg_replay_peek(p->r, &rec, err);
        if (st != FG_OK) return st;
        if (rec.type == FG_REPLAY_END) {
            p->reader_done = true;
            return FG_OK;
        }
        if (record_tick(&rec) > now) return FG_OK;
        bool more;
        st = read_one(p, now, &more, err);
        if (st != FG_OK) return st;
        if (!more) {
            /* A full queue: the records of this tick must still fit. */
            if (!p->reader_done)
                return fg_error_set(err, FG_ENOMEM, "%s: tick %lld holds more than %u records",
                                    fg_replay_reader_name(p->r), (long long)now, QUEUE_CAP);
            return FG_OK;
        }
    }
}

static fg_status push_input(fg_player *p, const queued *q, fg_error *err) {
    fg_world *w = p->w;
    uint32_t rate = fg_world_tick_rate(w);
    if (q->entity == 0 || q->entity > fg_world_entity_count(w))
        return diverge(p, q->tick, 0, 0, err, "input for entity %u, which does not exist (%u "
                       "spawned)", q->entity, fg_world_entity_count(w));
    fg_tick at = fg_tick_of_us(q->time_us, rate);
    if (q->time_us < 0 || q->time_us > fg_us_max(rate) || at > q->tick)
        return diverge(p, q->tick, 0, 0, err, "e%u's input at %lld us belongs to tick %lld, after "
                       "the tick %lld it was recorded in", q->entity, (long long)q->time_us,
                       (long long)at, (long long)q->tick);
    fg_buffer *b = fg_world_input_buffer(w, q->entity - 1);
    fg_error e2;
    if (fg_buffer_push(b, (fg_edge_kind)q->kind, q->action, q->dir, q->time_us, at,
                       (fg_source)q->source, NULL, &e2) != FG_OK) {
        diverge(p, q->tick, 0, 0, err, "e%u's recorded input cannot be pushed: %s", q->entity,
                fg_error_message(&e2));
        fg_error_clear(&e2);
        return FG_EMISMATCH;
    }
    const fg_edge *e = fg_buffer_pending_at(b, b->pending_count - 1);
    if (e->tick != q->tick)
        return diverge(p, q->tick, 0, 0, err, "e%u's input lands on tick %lld", q->entity,
                       (long long)e->tick);
    p->status.inputs++;
    return FG_OK;
}

/* With a display rate: pushes edges whose time has come, in order, stopping at the first that
** must wait (a late edge waits for the tick before its own to have run). */
static fg_status push_early(fg_player *p, fg_error *err) {
    fg_tick now = fg_world_tick(p->w);
    for (;;) {
        queued *q = fifo_front(&p->inputs);
        if (!q) {
            bool more;
            fg_status st = read_one(p, now, &more, err);
            if (st != FG_OK) return st;
            if (!more) return FG_OK;
            continue;
        }
        if (q->time_us > p->loop.sim_us) return FG_OK;
        bool late = fg_tick_of_us(q->time_us, fg_world_tick_rate(p->w)) < q->tick;
        if (late && q->tick > now) return FG_OK;
        fg_status st = push_input(p, q, err);
        if (st != FG_OK) return st;
        fifo_pop(&p->inputs);
    }
}

static int64_t frame_us(fg_player *p) {
    int64_t base = 1000000 / (int64_t)p->opt.fps;
    /* Now and then a frame far longer than the loop accepts (a hitch): clamped, counted. */
    if (fg_rng_range(&p->jitter, 0, 199) == 0) return 400000;
    int64_t j = base * (int64_t)p->opt.jitter_pct / 100;
    return base + (j ? fg_rng_range(&p->jitter, -j, j) : 0);
}

static void describe_command(const fg_world *w, uint32_t entity, uint32_t motion, char *buf,
                             size_t size) {
    const char *name = NULL;
    const fg_ruleset *rules = entity >= 1 ? fg_world_rules(w, entity) : NULL;
    if (rules) name = fg_motion_name(fg_ruleset_motions(rules), motion);
    if (name) snprintf(buf, size, "e%u %s", entity, name);
    else snprintf(buf, size, "e%u motion #%u", entity, motion);
}

/* Inputs only: the tick's other records are read past; the final one still ends the replay. */
static void skip_others(fg_player *p, fg_tick t) {
    for (queued *q; (q = fifo_front(&p->others)) && q->tick <= t; fifo_pop(&p->others))
        if (q->type == FG_REPLAY_FINAL) p->status.done = true;
}

static fg_status verify(fg_player *p, fg_tick t, fg_error *err) {
    fg_world *w = p->w;
    if (p->opt.inputs_only) {
        skip_others(p, t);
        return FG_OK;
    }
    char a[96], b[96];
    /* The tick's new commands, entity by entity in the order the matcher ranked them. */
    uint32_t nentities = fg_world_slot_count(w) > 0 ? fg_world_entity_count(w) : 0;
    for (uint32_t slot = 0; slot < nentities; slot++) {
        const fg_motion_command *cmds;
        uint32_t ncmds = fg_world_commands(w, slot, &cmds);
        for (uint32_t c = 0; c < ncmds; c++) {
            const fg_motion_command *m = &cmds[c];
            if (m->age != 0) continue;
            queued *q = fifo_front(&p->others);
            describe_command(w, slot + 1, m->motion, b, sizeof b);
            if (!q || q->tick != t || q->type != FG_REPLAY_COMMAND)
                return diverge(p, t, 0, 0, err, "new motion command %s, the recording has none "
                               "more", b);
            if (q->entity != slot + 1 || q->motion != m->motion) {
                describe_command(w, q->entity, q->motion, a, sizeof a);
                return diverge(p, t, 0, 0, err, "new motion command %s, the recording has %s", b,
                               a);
            }
            p->status.commands++;
            fifo_pop(&p->others);
        }
    }
    for (;;) {
        queued *q = fifo_front(&p->others);
        if (!q || q->tick > t) return FG_OK;
        if (q->type == FG_REPLAY_COMMAND) {
            describe_command(w, q->entity, q->motion, a, sizeof a);
            return diverge(p, t, 0, 0, err, "the recording has the motion command %s, the "
                           "re-simulation made none", a);
        }
        if (q->tick < t)
            return diverge(p, t, 0, 0, err, "a %s record of tick %lld is out of place",
                           fg_replay_type_name(q->type), (long long)q->tick);
        if (q->type == FG_REPLAY_CLAMP) {
            p->status.clamped_us += q->time_us;
        } else {
            uint64_t h = fg_world_hash(w);
            const char *what = q->type == FG_REPLAY_FINAL ? "final hash" : "checkpoint";
            if (h != q->hash)
                return diverge(p, t, q->hash, h, err, "state hash %016llx differs from the "
                               "recorded %s %016llx (last verified tick: %lld)",
                               (unsigned long long)h, what, (unsigned long long)q->hash,
                               (long long)p->status.last_good_tick);
            p->status.checkpoints++;
            p->status.last_good_tick = t;
            if (q->type == FG_REPLAY_FINAL) p->status.done = true;
        }
        fifo_pop(&p->others);
    }
}

fg_status fg_player_step(fg_player *p, fg_error *err) {
    if (p->status.diverged)
        return fg_error_set(err, FG_ESTATE, "%s: the re-simulation diverged at tick %lld",
                            fg_replay_reader_name(p->r), (long long)p->status.divergent_tick);
    if (p->status.done)
        return fg_error_set(err, FG_ESTATE, "%s: the replay has ended (tick %lld)",
                            fg_replay_reader_name(p->r), (long long)p->status.tick - 1);
    fg_world *w = p->w;
    fg_tick t = fg_world_tick(w);
    fg_status st;
    if (p->opt.fps) {
        while (p->due == 0) {
            p->host_us += frame_us(p);
            st = fg_loop_frame(&p->loop, p->host_us, &p->due, err);
            if (st != FG_OK) return st;
            p->status.frames++;
            st = push_early(p, err);
            if (st != FG_OK) return st;
        }
    }
    st = read_through(p, t, err);
    if (st != FG_OK) return st;
    /* Every edge of this tick goes in now (late ones, and all of them without a display rate). */
    for (queued *q; (q = fifo_front(&p->inputs)) && q->tick <= t; fifo_pop(&p->inputs)) {
        st = push_input(p, q, err);
        if (st != FG_OK) return st;
    }
    st = p->opt.advance ? p->opt.advance(p->opt.ud, w, false, err) : fg_world_advance(w, err);
    if (st != FG_OK) return st;
    if (p->opt.fps) {
        fg_loop_tick_done(&p->loop);
        p->due--;
        p->status.loop_clamped_us = p->loop.clamped_us;
    }
    p->status.tick = fg_world_tick(w);
    st = verify(p, t, err);
    if (st != FG_OK) return st;
    /* A partial replay (no final record) ends with its last record's tick. */
    if (!p->status.done && p->status.last_tick < 0 && p->reader_done &&
        !fifo_front(&p->others) && !fifo_front(&p->inputs) &&
        t >= fg_replay_reader_stats(p->r)->last_tick)
        p->status.done = true;
    return FG_OK;
}

fg_status fg_player_run(fg_player *p, fg_error *err) {
    while (!p->status.done) {
        fg_status st = fg_player_step(p, err);
        if (st != FG_OK) return st;
    }
    return FG_OK;
}

/* }====================================================================== */
