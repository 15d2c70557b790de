/* SPDX-License-Identifier: MIT */
/*
** world_hash.c: the world's state hash (fg_world_hash), taken every tick by hosts, recorders
** and netplay sessions, and the memos that keep it cheap.
**
** The hash reads a few hundred words per entity. They go through a fold (fg_fold: each word
** multiplied by its own odd constant, the products summed), whose multiplies run side by side,
** instead of a chain of dependent mixes; the fold then goes into the hasher. Fields are fed one at
** a time, never as raw struct bytes. The fold is linear: a run of words placed where the fold's k
** is K adds K * a + b to its sum, whatever K is (fg_fold_run, base.h). So the words of an entity
** that rarely change (its id and flags, its frozen window, its combat state, its layers' queues
** and instances but for the elapsed tick, its resources) are folded once into runs kept per
** entity slot, keyed by a copy of the bytes they are read from; a tick that left those bytes as
** they were adds each run in three operations and folds only the words that changed, each at the
** k it always had. The value is the one a fold of every word gives (fg_world_hash_fresh).
*/
#include "internal.h"

#include <string.h>

static inline void mix(fg_fold *f, uint64_t v) { fg_fold_u64(f, v); }

static inline void mix2(fg_fold *f, uint32_t lo, uint32_t hi) {
    fg_fold_u64(f, (uint64_t)lo | (uint64_t)hi << 32);
}

/* {====================================================================== words that change */

/* The last tick's input and jump decision are state too: a rule or a host reads them between
** ticks. The last request decision is not: it is a report (like the trace), and a request a
** failing rule dropped leaves the world as if it was never made. */
static void hash_last(fg_fold *f, const fg_entity_state *es) {
    const fg_tick_input *in = &es->last_input;
    mix(f, (uint64_t)in->tick);
    mix2(f, in->first, in->count);
    mix2(f, in->pressed, in->released);
    mix2(f, in->held, in->dir);
    const fg_jump_decision *j = &es->last_jump;
    mix(f, (uint64_t)j->result);
    if (j->result != FG_JUMP_NO_PRESS) {
        mix(f, (uint64_t)j->tick);
        mix(f, j->press.id);
        mix(f, (uint64_t)j->press_tick);
        mix(f, (uint64_t)j->last_grounded);
        mix(f, (uint64_t)j->window);
        mix(f, (uint64_t)j->press_until);
    }
}

/* An input buffer: its held state and counters, the digest of every edge it consumed, and which
** stored edges gameplay has consumed since (the buffer's digest of their ids). The stored edges
** are a suffix of the digested ones, fixed by the count. Pending edges are not hashed. */
static void hash_buffer(fg_fold *f, const fg_buffer *b, uint64_t digest) {
    mix2(f, b->capacity, b->count);
    mix2(f, b->held, (uint32_t)b->dir | (uint32_t)b->facing << 8);
    mix(f, (uint64_t)b->current_tick);
    mix(f, b->dropped);
    mix(f, digest);
    for (uint32_t held = b->held; held; held &= held - 1)
        mix(f, (uint64_t)b->held_since[__builtin_ctz(held)]);
    /* Which stored edges gameplay consumed: a digest the buffer keeps up to date. */
    mix(f, b->consumed_digest);
}

/* A running action's elapsed tick and duration, then its completed loops: the two words of its
** instance that move every tick (a one-tick idle loops every tick), so they are folded fresh at
** their place in the layers run. */
static inline uint64_t span_word(const fg_instance *i) {
    return (uint64_t)(uint32_t)i->elapsed | (uint64_t)(uint32_t)i->duration << 32;
}

/* }====================================================================== */

/* {====================================================================== memos */

/* The combat state's fold through the entity's memo: on a hit the same sum and k as
** fg_combat_fold(f, c). A fold starting at k adds (sum of scrambled words times their own k) =
** k * A + B and advances k by n * D, whatever k is; two folds from k = 0 and k = 1 give A and B. */
static void fold_combat(fg_combat_memo *m, fg_fold *f, const fg_combat *c) {
    if (!m->valid || memcmp(&m->seen, c, sizeof *c) != 0) {
        fg_fold zero = {0, 0}, one = {0, 1};
        fg_combat_fold(&zero, c);
        fg_combat_fold(&one, c);
        memcpy(&m->seen, c, sizeof *c); /* bytes, padding included: what the key compares */
        m->base = zero.sum;
        m->start_mul = one.sum - zero.sum;
        m->k_advance = zero.k;
        m->valid = true;
    }
    f->sum += f->k * m->start_mul + m->base;
    f->k += m->k_advance;
}

/* The stable memo's key (internal.h): each field compared as bytes, so a field written behind
** the world's back is seen like any other change. An instance is keyed without its elapsed tick,
** duration and loop count, which move every tick and are folded fresh. */
#define SPAN_AT offsetof(fg_instance, elapsed)
#define SPAN_END (offsetof(fg_instance, cycle) + sizeof(int32_t))
#define SAME(field, from) (memcmp(m->field, from, sizeof m->field) == 0)
#define KEEP(field, from) memcpy(m->field, from, sizeof m->field)

_Static_assert(offsetof(fg_entity_state, id) == 0 && offsetof(fg_entity_state, facing) < FG_MEMO_HEAD &&
                   offsetof(fg_entity_state, contact) < FG_MEMO_HEAD &&
                   offsetof(fg_entity_state, rules_slot) < FG_MEMO_HEAD &&
                   offsetof(fg_entity_state, support) < FG_MEMO_HEAD &&
                   offsetof(fg_entity_state, drop) < FG_MEMO_HEAD &&
                   offsetof(fg_entity_state, landed) < FG_MEMO_HEAD,
               "the head key holds the id and the flags the head run reads");
_Static_assert(offsetof(fg_ground, has_history) < 4 && offsetof(fg_ground, permission_spent) < 4 &&
                   offsetof(fg_ground, left_ground) < 4 && offsetof(fg_ground, grounded) < 4 &&
                   offsetof(fg_ground, last_grounded) >= 4,
               "the ground key is its first four bytes, the flags");
_Static_assert(sizeof(((fg_stable_memo *)0)->layers[0]) + (SPAN_END - SPAN_AT) ==
                       sizeof(fg_instance) &&
                   offsetof(fg_instance, duration) == SPAN_AT + 4 &&
                   offsetof(fg_instance, cycle) == SPAN_AT + 8,
               "an instance's key is its bytes but elapsed, duration and cycle");

static bool layer_key_equal(const unsigned char *key, const fg_instance *i) {
    const unsigned char *p = (const unsigned char *)i;
    return memcmp(key, p, SPAN_AT) == 0 &&
           memcmp(key + SPAN_AT, p + SPAN_END, sizeof(fg_instance) - SPAN_END) == 0;
}

/* The queues of the declared layers (the others are never written). */
#define QUEUES_BYTES(nlayers) ((size_t)(nlayers) * sizeof(fg_queued) * FG_QUEUE_MAX)

static bool stable_hit(const fg_stable_memo *m, const fg_entity_state *es, uint32_t nlayers) {
    if (!m->valid || m->nlayers != nlayers || !SAME(head, es) ||
        m->opponent != es->opponent || m->frozen_from != es->frozen_from ||
        m->frozen_until != es->frozen_until || !SAME(ground, &es->ground) ||
        m->landed_at != es->ground.landed_at || !SAME(started_tick, es->started_tick) ||
        !SAME(next_seq, es->next_seq) || !SAME(res, es->res))
        return false;
    for (uint32_t l = 0; l < nlayers; l++)
        if (!layer_key_equal(m->layers[l], &es->layers[l])) return false;
    return memcmp(m->queued, es->queued, QUEUES_BYTES(nlayers)) == 0;
}

static inline uint64_t queued_word(const fg_queued *q) {
    return (uint64_t)q->action | (uint64_t)q->source << 16 | (uint64_t)q->why << 24;
}

static void run_queued_rest(fg_fold_run *r, const fg_queued *q) {
    fg_fold_run_u64(r, (uint64_t)(uint32_t)q->waited | (uint64_t)(uint32_t)q->limit << 32);
    fg_fold_run_u64(r, (uint64_t)q->made);
}

/* Folds the stable words into the memo's runs, in the order and at the offsets the entity's fold
** has them, and keeps the bytes they came from. Layers the ruleset does not declare are never
** written (a reload keeps the layers), so they are neither folded nor keyed. */
static void stable_build(fg_stable_memo *m, const fg_entity_state *es, uint32_t nlayers) {
    KEEP(head, es);
    m->opponent = es->opponent;
    m->frozen_from = es->frozen_from;
    m->frozen_until = es->frozen_until;
    KEEP(ground, &es->ground);
    m->landed_at = es->ground.landed_at;
    KEEP(started_tick, es->started_tick);
    KEEP(next_seq, es->next_seq);
    KEEP(res, es->res);
    memcpy(m->queued, es->queued, QUEUES_BYTES(nlayers));
    for (uint32_t l = 0; l < nlayers; l++) {
        const unsigned char *i = (const unsigned char *)&es->layers[l];
        memcpy(m->layers[l], i, SPAN_AT);
        memcpy(m->layers[l] + SPAN_AT, i + SPAN_END, sizeof(fg_instance) - SPAN_END);
    }
    m->nlayers = nlayers;

    fg_fold_run r = {0, 0, 0};
    fg_fold_run_u64(&r, es->id);
    fg_fold_run_u64(&r, (uint64_t)es->facing | (uint64_t)es->contact << 8 |
                            (uint64_t)es->rules_slot << 16 | (uint64_t)es->opponent << 32);
    fg_fold_run_u64(&r, (uint64_t)es->support | (uint64_t)es->drop << 8 |
                            (uint64_t)es->landed << 16);
    m->head_run = r;

    const fg_ground *g = &es->ground;
    fg_fold_run gr = {0, 0, 0};
    fg_fold_run_u64(&gr, (uint64_t)g->has_history | (uint64_t)g->permission_spent << 8 |
                             (uint64_t)g->left_ground << 16 | (uint64_t)g->grounded << 24);
    gr.k += FG_FOLD_STEP; /* g->last_grounded, folded fresh */
    fg_fold_run_u64(&gr, (uint64_t)g->landed_at);
    m->ground_run = gr;

    fg_fold_run fr = {0, 0, 0};
    fg_fold_run_u64(&fr, (uint64_t)es->frozen_from);
    fg_fold_run_u64(&fr, (uint64_t)es->frozen_until);
    m->frozen_run = fr;

    fg_fold_run lr = {0, 0, 0};
    for (uint32_t l = 0; l < nlayers; l++) {
        const fg_instance *inst = &es->layers[l];
        const fg_queued *q = &es->queued[l][0];
        fg_fold_run_u64(&lr, queued_word(q));
        fg_fold_run_u64(&lr, (uint64_t)es->next_seq[l]);
        fg_fold_run_u64(&lr, (uint64_t)es->started_tick[l]);
        fg_fold_run_u64(&lr, (uint64_t)inst->action | (uint64_t)inst->version << 16 |
                                 (uint64_t)inst->contact << 32);
        m->hole[l] = lr.k; /* span_word(inst) goes here, then inst->cycle */
        lr.k += 2 * FG_FOLD_STEP;
        fg_fold_run_u64(&lr, (uint64_t)inst->seq);
        fg_fold_run_u64(&lr, (uint64_t)inst->started);
        if (q->action != FG_NO_ACTION) run_queued_rest(&lr, q);
        /* Requests waiting behind the head, only when there are some (see statediff.c). */
        for (uint32_t j = 1; j < FG_QUEUE_MAX; j++) {
            q = &es->queued[l][j];
            if (q->action == FG_NO_ACTION) continue;
            fg_fold_run_u64(&lr, queued_word(q));
            run_queued_rest(&lr, q);
        }
    }
    for (int k = 0; k < FG_MAX_RESOURCES; k += 2)
        fg_fold_run_u64(&lr, (uint64_t)(uint32_t)es->res[k] | (uint64_t)(uint32_t)es->res[k + 1]
                                                                 << 32);
    m->layers_run = lr;
    m->valid = true;
}

/* }====================================================================== */

/* {====================================================================== the hash */

/* Everything a later tick can read, entity by entity in id order. Pending requests, pending
** input edges and animation reports are input for ticks not yet run: like a host's polling, they
** take no part in the hash, so it is the same at every display rate (however early a host
** pushed its input). The contact report is hashed: it stays in force until the next one.
** `fresh`: every memo is rebuilt and every ledger folded entry by entry. */
static inline uint64_t world_hash(const fg_world *w, bool fresh) {
    fg_hasher hs = fg_hasher_begin(0x66726D67u);
    fg_fold f = fg_fold_begin(0);
    const fg_world_state *s = w->state;
    mix(&f, (uint64_t)s->tick);
    mix(&f, s->rng.s[0]);
    mix(&f, s->rng.s[1]);
    mix2(&f, s->nentities, s->nslots);
    for (uint32_t i = 0; i < s->nslots; i++) {
        mix(&f, s->slot_version[i]);
        mix(&f, w->versions[s->slot_version[i]]->hash);
    }
    /* The stage, through the fold like the rest (fg_stage_hash is the chained form). */
    const fg_stage *sg = &s->stage;
    mix2(&f, (uint32_t)sg->wall_min, (uint32_t)sg->wall_max);
    mix2(&f, (uint32_t)sg->floor, sg->nplatforms | sg->nblocks << 8);
    for (uint32_t i = 0; i < sg->nplatforms && i < FG_STAGE_MAX_PLATFORMS; i++) {
        const fg_platform *p = &sg->platforms[i];
        mix2(&f, (uint32_t)p->x, (uint32_t)p->y);
        mix2(&f, (uint32_t)p->w, p->one_way);
    }
    for (uint32_t i = 0; i < sg->nblocks && i < FG_STAGE_MAX_BLOCKS; i++) {
        const fg_block *b = &sg->blocks[i];
        mix2(&f, (uint32_t)b->x, (uint32_t)b->y);
        mix2(&f, (uint32_t)b->w, (uint32_t)b->h);
    }
    fg_stable_memo scratch;
    fg_combat_memo scratch_combat;
    for (uint32_t slot = 0; slot < s->nentities; slot++) {
        const fg_entity_state *es = &w->entities[slot];
        const fg_ruleset *rules = s->nslots > 0 ? fg_world_rules_of(w, es) : NULL;
        uint32_t nlayers = rules ? rules->nlayers : 0;
        fg_stable_memo *m = fresh ? &scratch : &w->hash_memo[slot].stable;
        fg_combat_memo *cm = fresh ? &scratch_combat : &w->hash_memo[slot].combat;
        if (fresh) cm->valid = false;
        if (fresh || !stable_hit(m, es, nlayers)) stable_build(m, es, nlayers);
        fg_fold_add_run(&f, &m->head_run);
        mix2(&f, (uint32_t)es->x, (uint32_t)es->y);
        mix2(&f, (uint32_t)es->vx, (uint32_t)es->vy);
        mix2(&f, (uint32_t)es->prev_x, (uint32_t)es->prev_y);
        f.sum += fg_fold_scramble((uint64_t)es->ground.last_grounded) * (f.k + FG_FOLD_STEP);
        fg_fold_add_run(&f, &m->ground_run);
        hash_last(&f, es);
        fg_fold_add_run(&f, &m->frozen_run);
        fold_combat(cm, &f, &es->combat);
        uint64_t layers_k = f.k;
        fg_fold_add_run(&f, &m->layers_run);
        for (uint32_t l = 0; l < nlayers; l++) {
            const fg_instance *inst = &es->layers[l];
            uint64_t at = layers_k + m->hole[l];
            f.sum += fg_fold_scramble(span_word(inst)) * at +
                     fg_fold_scramble((uint64_t)inst->cycle) * (at + FG_FOLD_STEP);
        }
        hash_buffer(&f, fg_world_buffer_at(w, slot), es->input_digest);
        if (fresh)
            fg_dispatcher_hash_fresh(fg_world_ledger_at(w, slot), &hs);
        else
            fg_dispatcher_hash(fg_world_ledger_at(w, slot), &hs);
        if (rules) fg_motion_state_hash(rules->motion_set, fg_world_motion_at(w, slot), &hs);
    }
    fg_projectile_fold(w, &f);
    fg_hash_fold_end(&hs, &f);
    return fg_hasher_end(&hs);
}

uint64_t fg_world_hash(const fg_world *w) { return world_hash(w, false); }

uint64_t fg_world_hash_fresh(const fg_world *w) { return world_hash(w, true); }

/* }====================================================================== */
