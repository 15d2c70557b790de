/* SPDX-License-Identifier: MIT */
/*
** snapshot.c: what a snapshot must be before a world takes it back. A snapshot is plain bytes the
** host hands in (from disk, the network, an old take), so it is read as adversarial: the checksum
** catches damage, and every index, count, enum and bool the tick or a read could follow is
** checked against the world's limits and the rulesets the snapshot names. Values the tick only
** adds to (positions, clocks) are held to ranges that keep its arithmetic from overflowing.
** Nothing here writes to the world: fg_world_restore copies only after this passed.
*/
#include "snapshot.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Ticks, times and positions a restored world may hold: far beyond any match (2^40 ticks is
** 580 years at 60 Hz) and far enough from the type's end that the tick's sums stay exact. */
#define TICK_LIMIT ((int64_t)1 << 40)
#define FX_LIMIT FG_POSITION_MAX

static inline uint64_t word_at(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Eight lanes of two sums each (Fletcher's, 64 bits wide): a word adds to its lane's sum and the
** sum to the lane's sum of sums, so a change to any one word changes the first, and words swapped
** or moved change the second. Two additions a word and no chain longer than one addition: the
** compiler spreads the lanes over vector registers, and a 26 KB snapshot takes a few hundred
** nanoseconds (a rollback saves every tick). A check against damage, not against a forger: the
** field checks are that. The lanes and the tail end in a hash with the header's fields. */
uint64_t fg_snapshot_checksum(const fg_snapshot_header *h, const void *body) {
    const unsigned char *p = body;
    size_t n = (size_t)h->size;
    /* Lanes in locals, not arrays: an array of sums is kept in memory across the loop. */
    uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    uint64_t b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0, b7 = 0;
    while (n >= 64) {
        a0 += word_at(p), a1 += word_at(p + 8), a2 += word_at(p + 16), a3 += word_at(p + 24);
        a4 += word_at(p + 32), a5 += word_at(p + 40), a6 += word_at(p + 48), a7 += word_at(p + 56);
        b0 += a0, b1 += a1, b2 += a2, b3 += a3, b4 += a4, b5 += a5, b6 += a6, b7 += a7;
        p += 64;
        n -= 64;
    }
    const uint64_t a[8] = {a0, a1, a2, a3, a4, a5, a6, a7}, b[8] = {b0, b1, b2, b3, b4, b5, b6, b7};
    uint64_t tail[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    memcpy(tail, p, n);
    fg_hasher hs = fg_hasher_begin(0x736e6170u);
    fg_hash_u64(&hs, h->layout);
    fg_hash_u64(&hs, h->entities);
    fg_hash_u64(&hs, h->size);
    for (int i = 0; i < 8; i++) {
        fg_hash_u64(&hs, a[i]);
        fg_hash_u64(&hs, b[i]);
        fg_hash_u64(&hs, tail[i]);
    }
    return fg_hasher_end(&hs);
}

typedef struct checker {
    const fg_world *w;
    fg_error *err;
    const fg_world_state *st;
    uint32_t n;
} checker;

static bool is_bool(const void *p) {
    unsigned char c;
    memcpy(&c, p, 1);
    return c <= 1;
}

static bool tick_ok(fg_tick t) { return t > -TICK_LIMIT && t < TICK_LIMIT; }
static bool fx_ok(fg_fx v) { return v >= -FX_LIMIT && v <= FX_LIMIT; }
#define BOUNCE_V FG_BOUNCE_V_MAX
static bool bounce_v_ok(fg_fx v, fg_fx lo) { return v >= lo && v <= BOUNCE_V; }

static fg_status bad(checker *c, const char *fmt, const char *what, long long v) {
    char field[96];
    snprintf(field, sizeof field, fmt, what);
    return fg_error_set(c->err, FG_EFORMAT, "snapshot: %s is %lld, out of range: the snapshot is "
                        "damaged or from another build", field, v);
}

#define CHECK(cond, field, v)                                                                  \
    do {                                                                                       \
        if (!(cond)) return bad(c, "%s", field, (long long)(v));                               \
    } while (0)

static fg_status check_state(checker *c) {
    const fg_world_state *st = c->st;
    if (st->layout != c->w->state->layout)
        return fg_error_set(c->err, FG_EFORMAT, "snapshot: world.layout is %016llx, expected "
                            "%016llx: the snapshot is damaged", (unsigned long long)st->layout,
                            (unsigned long long)c->w->state->layout);
    CHECK(st->nentities == c->n, "world.entities", st->nentities);
    CHECK(st->nslots >= (c->w->nversions ? 1u : 0u) && st->nslots <= FG_MAX_RULE_SLOTS,
          "world.slots", st->nslots);
    for (uint32_t i = 0; i < st->nslots; i++)
        if (st->slot_version[i] >= c->w->nversions)
            return fg_error_set(c->err, FG_EMISMATCH, "snapshot: uses ruleset version %u, this "
                                "world has %u", st->slot_version[i], c->w->nversions);
    CHECK(st->tick >= 0 && st->tick < TICK_LIMIT, "world.tick", st->tick);
    for (uint32_t i = 0; i < st->stage.nplatforms && i < FG_STAGE_MAX_PLATFORMS; i++)
        CHECK(is_bool(&st->stage.platforms[i].one_way), "stage.platforms one_way", 2);
    char path[64], msg[160];
    if (fg_stage_problem(&st->stage, path, sizeof path, msg, sizeof msg))
        return fg_error_set(c->err, FG_EFORMAT, "snapshot: %s: %s: the snapshot is damaged or "
                            "from another build", path, msg);
    return FG_OK;
}

/* An action id of ruleset r, or (when none_ok) FG_NO_ACTION. */
static bool action_ok(const fg_ruleset *r, uint32_t a, bool none_ok) {
    return (none_ok && a == FG_NO_ACTION) || (r && a < r->nactions);
}

static fg_status check_decision(checker *c, const fg_decision *d, const fg_ruleset *r) {
    if (d->kind == 0 && d->tick == 0 && d->entity == 0 && d->action == 0 && !d->rule_text[0])
        return FG_OK; /* never decided */
    CHECK(d->kind <= FG_DECIDE_EXPIRED, "last_decision.kind", d->kind);
    /* FG_R_WINDOW_NEEDS_VAR is the last reason: a snapshot taken after any decision must
    ** restore. */
    CHECK(d->reason <= FG_R_WINDOW_NEEDS_VAR, "last_decision.reason", d->reason);
    CHECK(d->source <= FG_REQ_QUEUE, "last_decision.source", d->source);
    CHECK(d->layer < FG_MAX_LAYERS, "last_decision.layer", d->layer);
    CHECK(d->window_on <= FG_ON_CONTACT, "last_decision.window_on", d->window_on);
    CHECK(d->contact <= FG_ON_CONTACT, "last_decision.contact", d->contact);
    CHECK(d->resource >= -1 && d->resource < FG_MAX_RESOURCES, "last_decision.resource",
          d->resource);
    CHECK(d->group_have >= -1 && d->group_have < FG_MAX_GROUPS, "last_decision.group_have",
          d->group_have);
    CHECK(d->group_need >= -1 && d->group_need < FG_MAX_GROUPS, "last_decision.group_need",
          d->group_need);
    /* Names are looked up in whichever version is current when it is read: keep ids in the
    ** widest range, the table size. */
    (void)r;
    CHECK(d->action < FG_MAX_ACTIONS || d->action == FG_NO_ACTION, "last_decision.action",
          d->action);
    CHECK(d->current < FG_MAX_ACTIONS || d->current == FG_NO_ACTION, "last_decision.current",
          d->current);
    CHECK(d->other < FG_MAX_ACTIONS || d->other == FG_NO_ACTION, "last_decision.other", d->other);
    CHECK(memchr(d->rule_text, 0, sizeof d->rule_text) != NULL, "last_decision.rule_text length",
          sizeof d->rule_text);
    return FG_OK;
}

static fg_status check_entity(checker *c, uint32_t i, const fg_entity_state *e) {
    char field[64];
#define FIELD(...) (snprintf(field, sizeof field, __VA_ARGS__), field)
    CHECK(e->id == i + 1, FIELD("e%u.id", i + 1), e->id);
    CHECK(e->facing <= FG_FACING_LEFT, FIELD("e%u.facing", e->id), e->facing);
    CHECK(e->contact <= 1, FIELD("e%u.contact", e->id), e->contact);
    CHECK(e->rules_slot < c->st->nslots || (c->st->nslots == 0 && e->rules_slot == 0),
          FIELD("e%u.rules_slot", e->id), e->rules_slot);
    /* A world without rules runs no actions: every action id below must then be none. */
    const fg_ruleset *now =
        c->st->nslots ? c->w->versions[c->st->slot_version[e->rules_slot]] : NULL;
    CHECK(e->npending <= FG_PENDING_REQUESTS, FIELD("e%u.pending count", e->id), e->npending);
    for (uint32_t k = 0; k < e->npending; k++) {
        CHECK(action_ok(now, e->pending[k].action, false), FIELD("e%u.pending[%u].action", e->id, k),
              e->pending[k].action);
        CHECK(e->pending[k].source <= FG_REQ_QUEUE, FIELD("e%u.pending[%u].source", e->id, k),
              e->pending[k].source);
    }
    const fg_fx xs[] = {e->x, e->y, e->vx, e->vy, e->prev_x, e->prev_y};
    for (int k = 0; k < 6; k++) CHECK(fx_ok(xs[k]), FIELD("e%u.position", e->id), xs[k]);
    CHECK(is_bool(&e->ground.has_history) && is_bool(&e->ground.permission_spent) &&
              is_bool(&e->ground.left_ground) && is_bool(&e->ground.grounded),
          FIELD("e%u.ground flags", e->id), 2);
    CHECK(tick_ok(e->ground.last_grounded) && tick_ok(e->ground.landed_at),
          FIELD("e%u.ground ticks", e->id), e->ground.last_grounded);
    CHECK((unsigned)e->last_jump.result <= FG_JUMP_REFUSED, FIELD("e%u.last_jump", e->id),
          e->last_jump.result);
    const fg_stage *sg = &c->st->stage;
    uint32_t sup = e->support & FG_SUPPORT_INDEX;
    CHECK(e->support == FG_SUPPORT_NONE || e->support == FG_SUPPORT_FLOOR ||
              (e->support == (FG_SUPPORT_PLATFORM | sup) && sup < sg->nplatforms) ||
              (e->support == (FG_SUPPORT_BLOCK | sup) && sup < sg->nblocks),
          FIELD("e%u.support", e->id), e->support);
    CHECK(e->drop <= sg->nplatforms, FIELD("e%u.drop", e->id), e->drop);
    CHECK(e->landed <= 1, FIELD("e%u.landed", e->id), e->landed);
    CHECK(e->queued_layers < (1u << FG_MAX_LAYERS), FIELD("e%u.queued_layers", e->id),
          e->queued_layers);
    for (uint32_t l = 0; l < FG_MAX_LAYERS; l++) {
        const fg_instance *in = &e->layers[l];
        if (in->action != FG_NO_ACTION) {
            CHECK(in->version < c->w->nversions, FIELD("e%u.layers[%u].version", e->id, l),
                  in->version);
            const fg_ruleset *r = c->w->versions[in->version];
            CHECK(l < r->nlayers, FIELD("e%u.layers[%u] (rules have fewer layers)", e->id, l), l);
            CHECK(in->action < r->nactions, FIELD("e%u.layers[%u].action", e->id, l), in->action);
        }
        CHECK(in->contact <= FG_ON_CONTACT, FIELD("e%u.layers[%u].contact", e->id, l), in->contact);
        CHECK(in->elapsed >= 0,
              FIELD("e%u.layers[%u].elapsed", e->id, l), in->elapsed);
        CHECK(in->duration >= 0, FIELD("e%u.layers[%u].duration", e->id, l), in->duration);
        CHECK(in->cycle >= 0, FIELD("e%u.layers[%u].cycle", e->id, l), in->cycle);
        CHECK(in->seq >= 0 && in->seq < TICK_LIMIT, FIELD("e%u.layers[%u].seq", e->id, l), in->seq);
        CHECK(tick_ok(in->started), FIELD("e%u.layers[%u].started", e->id, l), in->started);
        bool emptied = false;
        for (uint32_t k = 0; k < FG_QUEUE_MAX; k++) {
            const fg_queued *q = &e->queued[l][k];
            CHECK(action_ok(now, q->action, true), FIELD("e%u.queued[%u][%u].action", e->id, l, k),
                  q->action);
            if (q->action == FG_NO_ACTION) { /* an empty place: the rest is not read */
                emptied = true;
                continue;
            }
            /* The tick keeps a queue packed, and the hash stops at its first empty place. */
            CHECK(!emptied, FIELD("e%u.queued[%u][%u].action (behind an empty place)",
                                  e->id, l, k), q->action);
            /* tick.c keeps two flags in the top bits (behind, patient) */
            CHECK((q->source & 0x3Fu) <= FG_REQ_QUEUE,
                  FIELD("e%u.queued[%u][%u].source", e->id, l, k), q->source);
            CHECK(q->why <= FG_R_WAIT_CONTACT, FIELD("e%u.queued[%u][%u].why", e->id, l, k),
                  q->why);
            CHECK(q->waited >= 0 && q->limit >= 0,
                  FIELD("e%u.queued[%u][%u].waited", e->id, l, k), q->waited);
            CHECK(tick_ok(q->made), FIELD("e%u.queued[%u][%u].made", e->id, l, k), q->made);
        }
        CHECK(((e->queued_layers >> l) & 1u) == (e->queued[l][0].action != FG_NO_ACTION),
              FIELD("e%u.queued_layers (bit %u against its queue)", e->id, l), e->queued_layers);
        CHECK(e->next_seq[l] >= 0 && e->next_seq[l] < TICK_LIMIT,
              FIELD("e%u.next_seq[%u]", e->id, l), e->next_seq[l]);
        CHECK(tick_ok(e->started_tick[l]), FIELD("e%u.started_tick[%u]", e->id, l),
              e->started_tick[l]);
    }
    for (uint32_t r = 0; now && r < now->nresources; r++)
        CHECK(e->res[r] >= 0 && e->res[r] <= now->resources[r].max,
              FIELD("e%u.res.%s", e->id, now->resources[r].name), e->res[r]);
    CHECK(tick_ok(e->frozen_from) && tick_ok(e->frozen_until), FIELD("e%u.frozen", e->id),
          e->frozen_until);
    CHECK(e->opponent <= c->n, FIELD("e%u.opponent", e->id), e->opponent);
    const fg_combat *k = &e->combat;
    CHECK(k->owner <= c->n && k->grabbed_by <= c->n, FIELD("e%u.combat.owner", e->id), k->owner);
    CHECK(k->grab_layer < FG_MAX_LAYERS, FIELD("e%u.combat.grab_layer", e->id), k->grab_layer);
    CHECK(k->grab_def < FG_MAX_THROW_DEFS, FIELD("e%u.combat.grab_def", e->id), k->grab_def);
    CHECK(k->launched <= 1, FIELD("e%u.combat.launched", e->id), k->launched);
    CHECK(k->knockdown <= FG_KNOCKDOWN_HARD, FIELD("e%u.combat.knockdown", e->id), k->knockdown);
    CHECK(fx_ok(k->push_left), FIELD("e%u.combat.push_left", e->id), k->push_left);
    /* Bounces: only on a launched entity, the fields of a kind not armed at zero (the hash folds
    ** them only while one is armed), velocities and stun in their declared ranges. */
    const fg_bounce_state *bs = &k->bounce;
    bool wall = bs->armed & 1u, ground = bs->armed & 2u;
    CHECK(bs->armed <= FG_BOUNCE_ARMED_ALL && (!bs->armed || k->launched),
          FIELD("e%u.combat.bounce.armed", e->id), bs->armed);
    CHECK(bs->armed ? bs->side == 1 || bs->side == 2 : bs->side == 0,
          FIELD("e%u.combat.bounce.side", e->id), bs->side);
    CHECK(bs->armed ? bs->by >= 1 && bs->by <= c->n : bs->by == 0,
          FIELD("e%u.combat.bounce.by", e->id), bs->by);
    CHECK(bs->reserved == 0, FIELD("e%u.combat.bounce.reserved", e->id), bs->reserved);
    CHECK(bs->used <= FG_BOUNCE_LIMIT_MAX && (!bs->used || k->combo > 0),
          FIELD("e%u.combat.bounce.used", e->id), bs->used);
    CHECK(wall ? bounce_v_ok(bs->wall_vx, 0) : bs->wall_vx == 0,
          FIELD("e%u.combat.bounce.wall_vx", e->id), bs->wall_vx);
    CHECK(wall ? bounce_v_ok(bs->wall_vy, -BOUNCE_V) : bs->wall_vy == 0,
          FIELD("e%u.combat.bounce.wall_vy", e->id), bs->wall_vy);
    CHECK(wall ? bs->wall_stun >= 0 && bs->wall_stun <= FG_HIT_MAX_TICKS : bs->wall_stun == 0,
          FIELD("e%u.combat.bounce.wall_stun", e->id), bs->wall_stun);
    CHECK(ground ? bounce_v_ok(bs->ground_vx, -BOUNCE_V) : bs->ground_vx == 0,
          FIELD("e%u.combat.bounce.ground_vx", e->id), bs->ground_vx);
    CHECK(ground ? bs->ground_vy > 0 && bounce_v_ok(bs->ground_vy, 0) : bs->ground_vy == 0,
          FIELD("e%u.combat.bounce.ground_vy", e->id), bs->ground_vy);
    CHECK(ground ? bs->ground_stun >= 0 && bs->ground_stun <= FG_HIT_MAX_TICKS
                 : bs->ground_stun == 0,
          FIELD("e%u.combat.bounce.ground_stun", e->id), bs->ground_stun);
    CHECK(tick_ok(k->throw_invuln_until) && tick_ok(k->tech_until),
          FIELD("e%u.combat ticks", e->id), k->tech_until);
    /* Variables stay in their declared ranges; the ones a ruleset does not declare hold 0. */
    for (uint32_t v = 0; v < FG_MAX_VARS; v++) {
        const fg_var_def *d = now && v < now->nvars ? &now->vars[v] : NULL;
        CHECK(d ? k->vars[v] >= d->min && k->vars[v] <= d->max : k->vars[v] == 0,
              FIELD("e%u.combat.vars[%u]", e->id, v), k->vars[v]);
    }
    CHECK(k->reserved == 0, FIELD("e%u.combat.reserved", e->id), k->reserved);
    /* The tick reads the combat state only while combat_live says so (internal.h). */
    CHECK(e->combat_live == fg_entity_in_combat(e),
          FIELD("e%u.combat_live (against push_left, combo and launched)", e->id),
          e->combat_live);
    for (uint32_t h = 0; h < FG_HIT_LOG; h++) {
        CHECK(k->log[h].target <= c->n, FIELD("e%u.combat.log[%u].target", e->id, h),
              k->log[h].target);
        CHECK(((k->log_used >> h) & 1u) == (k->log[h].target != 0),
              FIELD("e%u.combat.log_used (bit %u against log[%u])", e->id, h, h), k->log_used);
        CHECK(k->log[h].layer < FG_MAX_LAYERS, FIELD("e%u.combat.log[%u].layer", e->id, h),
              k->log[h].layer);
        CHECK(k->log[h].def < FG_MAX_HIT_DEFS, FIELD("e%u.combat.log[%u].def", e->id, h),
              k->log[h].def);
        CHECK(tick_ok(k->log[h].last), FIELD("e%u.combat.log[%u].last", e->id, h),
              k->log[h].last);
    }
    return check_decision(c, &e->last_decision, now);
#undef FIELD
}

/* An entity's buffer, and the last tick's input the entity record points into it with. */
static fg_status check_buffer(checker *c, const fg_entity_state *es, const unsigned char *bytes,
                              uint32_t nactions) {
    fg_entity id = es->id;
    char field[64];
    fg_buffer head, *b = &head;
    memcpy(&head, bytes, sizeof head);
#define FIELD(...) (snprintf(field, sizeof field, __VA_ARGS__), field)
    uint32_t cap = c->w->buffer_capacity;
    CHECK(b->capacity == cap, FIELD("e%u.buffer.capacity", id), b->capacity);
    CHECK(b->head < 2 * cap, FIELD("e%u.buffer.head", id), b->head);
    CHECK(b->count <= cap, FIELD("e%u.buffer.count", id), b->count);
    CHECK(b->pending_count <= cap, FIELD("e%u.buffer.pending", id), b->pending_count);
    CHECK(b->dir >= 1 && b->dir <= 9, FIELD("e%u.buffer.dir", id), b->dir);
    CHECK(b->pushed_dir >= 1 && b->pushed_dir <= 9, FIELD("e%u.buffer.pushed_dir", id),
          b->pushed_dir);
    CHECK(b->facing <= FG_FACING_LEFT, FIELD("e%u.buffer.facing", id), b->facing);
    /* Every tick consumes its input, so at a tick boundary the buffer's last consumed tick is
    ** the world's last tick (a world that ran none: the tick before its first). */
    CHECK(b->current_tick == c->st->tick - 1, FIELD("e%u.buffer.current_tick", id),
          b->current_tick);
    const fg_tick_input *in = &es->last_input;
    CHECK(in->count <= b->count && in->first <= b->count - in->count,
          FIELD("e%u.last_input.count", id), in->count);
    CHECK(b->last_time_us == INT64_MIN || /* nothing pushed yet */
              (b->last_time_us > -fg_us_max(c->w->tick_rate) / 2 &&
               b->last_time_us < fg_us_max(c->w->tick_rate) / 2),
          FIELD("e%u.buffer.last_time_us", id), b->last_time_us);
    for (uint32_t k = 0; k < FG_INPUT_MAX_ACTIONS; k++)
        CHECK(tick_ok(b->held_since[k]), FIELD("e%u.buffer.held_since[%u]", id, k),
              b->held_since[k]);
    fg_edge_id prev = 0;
    for (uint32_t k = 0; k < b->count + b->pending_count; k++) {
        fg_edge edge, *e = &edge;
        memcpy(&edge, bytes + offsetof(fg_buffer, edges) + sizeof edge * ((b->head + k) % (2 * cap)),
               sizeof edge);
        CHECK(e->kind <= FG_EDGE_DIR, FIELD("e%u.buffer.edges[%u].kind", id, k), e->kind);
        CHECK(e->kind == FG_EDGE_DIR || e->action < nactions,
              FIELD("e%u.buffer.edges[%u].action", id, k), e->action);
        CHECK(e->dir >= 1 && e->dir <= 9, FIELD("e%u.buffer.edges[%u].dir", id, k), e->dir);
        CHECK(e->kind != FG_EDGE_DIR || (e->prev_dir >= 1 && e->prev_dir <= 9),
              FIELD("e%u.buffer.edges[%u].prev_dir", id, k), e->prev_dir);
        CHECK(e->facing <= FG_FACING_LEFT, FIELD("e%u.buffer.edges[%u].facing", id, k), e->facing);
        CHECK(e->source <= FG_SOURCE_SCRIPT, FIELD("e%u.buffer.edges[%u].source", id, k),
              e->source);
        CHECK(tick_ok(e->tick), FIELD("e%u.buffer.edges[%u].tick", id, k), e->tick);
        CHECK(k == 0 || e->id > prev, FIELD("e%u.buffer.edges[%u].id", id, k), e->id);
        prev = e->id;
    }
    CHECK(b->count + b->pending_count == 0 || b->next_id > prev, FIELD("e%u.buffer.next_id", id),
          b->next_id);
    return FG_OK;
#undef FIELD
}

fg_status fg_snapshot_check(const fg_world *w, const fg_snapshot_header *h, const void *body,
                            fg_error *err) {
    checker ck = {w, err, NULL, h->entities}, *c = &ck;
    if (fg_snapshot_checksum(h, body) != h->check)
        return fg_error_set(err, FG_EFORMAT, "snapshot: checksum mismatch (%016llx, the bytes "
                            "give %016llx): the snapshot was damaged or edited",
                            (unsigned long long)h->check,
                            (unsigned long long)fg_snapshot_checksum(h, body));
    /* Copies, not casts: the body need not be aligned. */
    fg_world_state st;
    const unsigned char *p = body;
    memcpy(&st, p, sizeof st);
    ck.st = &st;
    fg_status s = check_state(c);
    if (s != FG_OK) return s;
    s = fg_projectile_check(w, p + ((sizeof(fg_world_state) + 15) & ~(size_t)15), h->entities, err);
    if (s != FG_OK) return s;
    p += fg_world_snapshot_bytes(w, 0);
    const unsigned char *ents = p, *bufs = ents + sizeof(fg_entity_state) * h->entities;
    const unsigned char *ledgers = bufs + w->buffer_stride * h->entities;
    const unsigned char *motions = ledgers + w->ledger_stride * h->entities;
    fg_entity_state e;
    for (uint32_t i = 0; i < h->entities; i++) {
        memcpy(&e, ents + sizeof e * i, sizeof e);
        if ((s = check_entity(c, i, &e)) != FG_OK) return s;
        const fg_ruleset *r = st.nslots ? w->versions[st.slot_version[e.rules_slot]] : NULL;
        if ((s = check_buffer(c, &e, bufs + w->buffer_stride * i, w->names.count)) != FG_OK)
            return s;
        size_t lsize = fg_dispatcher_size(FG_MAX_LAYERS, FG_MAX_MARKERS);
        if (fg_dispatcher_check(ledgers + w->ledger_stride * i, lsize, FG_MAX_LAYERS,
                                FG_MAX_MARKERS, err) != FG_OK) {
            fg_error_prefix(err, "snapshot: e%u.ledger", e.id);
            return FG_EFORMAT;
        }
        if (r && r->motion_set && fg_motion_state_check(r->motion_set, motions + w->motion_stride * i,
                                                   w->motion_stride, err) != FG_OK) {
            fg_error_prefix(err, "snapshot: e%u", e.id);
            return FG_EFORMAT;
        }
    }
    return FG_OK;
}
