/* SPDX-License-Identifier: MIT */
/*
** world_hash.c: the world's state hash (fg_world_hash), taken every tick by hosts, recorders
** and netplay sessions, and the parts that keep it cheap.
**
** The hash reads a few hundred words per entity. They go through a fold (fg_fold: each word
** multiplied by its own odd constant, the products summed), whose multiplies run side by side,
** instead of a chain of dependent mixes; the fold then goes into the hasher, and after each
** entity's words the folds of its dispatch ledger and its matcher are mixed into the hasher too.
** Fields are fed one at a time, never as raw struct bytes.
**
** Read at the end of a tick, an entity's words would be fetched from memory a second time (the
** tick has moved on to other entities since), and a hash of many entities would wait on memory
** more than it computes. So the tick folds each entity's part where it last changes it, while
** its record is still in the cache: the matcher's fold right after its step (tick.c input phase,
** and again after a command retires a motion), the record's words and the ledger's fold as the
** entity's last phase ends (tick.c finish_entities). The fold is linear: a run of words placed
** where the fold's k is K adds K * a + b to its sum, whatever K is (fg_fold_run, base.h), so a
** part is folded without knowing where its entity will start, and the hash adds the parts in id
** order in three operations each, then mixes the ledger and matcher folds in turn. The value is
** the one a fold of every word in order gives (fg_world_hash_fresh).
**
** The parts hold until anything but a tick changes the world: fg_world_note_change (every host
** write: position, facing, resources, team, spawn, stage, rules added, restore, contact reports,
** requests), a reload and the start of each tick set them aside (fg_hash_keep, internal.h), and
** a hash then folds each entity as the tick would and keeps the parts it folded. A tick folds
** them only when the hash was taken since the tick before, so a world nobody hashes pays nothing
** for them.
**
** Within a record, the words a tick rarely writes (the jump decision, the combat state, the
** layers but their timers, the resources) are folded on their own and kept (fg_hash_kept) until
** a write marks the entity (fg_world_hash_touch, or fg_world_hash_touch_layers for the layers
** alone): most ticks never fetch their lines. The words of the last input and the buffer that
** only an edge changes are kept beside them from one tick without an edge to the next (the input
** memo), and each matcher's fold is kept in its part and moved by its clocks on such a tick
** (fg_motion_kept_step, motion_fold.c).
*/
#include "base_internal.h"
#include "internal.h"
#include "motion_internal.h"

#define HASH_SEED 0x66726D67u

/* For the folds the block loop of fg_world_hash_parts runs for every entity, which the compiler
** would otherwise leave out of line as that loop grows (a call an entity each). */
#if defined(__GNUC__)
#define HOT_INLINE __attribute__((always_inline)) static inline
#else
#define HOT_INLINE static inline
#endif


static inline void mix(fg_fold *f, uint64_t v) { fg_fold_u64(f, v); }

/* An entity's words are accumulated as a run from where the entity starts, without a multiply
** per word (fg_fold_acc, base.h). */
typedef fg_fold_acc acc;

static inline void run(acc *x, uint64_t v) { fg_fold_acc_u64(x, v); }

static inline void run2(acc *x, uint32_t lo, uint32_t hi) {
    run(x, (uint64_t)lo | (uint64_t)hi << 32);
}

static inline fg_fold_run acc_run(const acc *x) { return fg_fold_acc_run(x); }

static inline void mix2(fg_fold *f, uint32_t lo, uint32_t hi) {
    fg_fold_u64(f, (uint64_t)lo | (uint64_t)hi << 32);
}

/* {====================================================================== an entity's words */

/* The last tick's input and jump decision are state too: a rule or a host reads them between
** ticks. The last request decision is not: it is a report (like the trace), and a request a
** failing rule dropped leaves the world as if it was never made. */
static inline void fold_jump(acc *r, const fg_entity_state *es) {
    const fg_jump_decision *j = &es->last_jump;
    run(r, (uint64_t)j->result);
    if (j->result != FG_JUMP_NO_PRESS) {
        run(r, (uint64_t)j->tick);
        run(r, j->press.id);
        run(r, (uint64_t)j->press_tick);
        run(r, (uint64_t)j->last_grounded);
        run(r, (uint64_t)j->window);
        run(r, (uint64_t)j->press_until);
    }
}

/* The combat state (hit_internal.h), field by field; of the hit log, the entries with a target
** (the empty ones are never read). */
static inline void fold_combat(acc *r, const fg_combat *c) {
    run(r, (uint64_t)c->team | (uint64_t)c->owner << 32);
    run2(r, (uint32_t)c->push_left, (uint32_t)c->combo);
    run2(r, (uint32_t)c->combo_damage, (uint32_t)c->juggle);
    run(r, (uint64_t)c->knockdown | (uint64_t)c->launched << 8 | (uint64_t)c->grab_layer << 16 |
               (uint64_t)c->grab_def << 24 | (uint64_t)c->grabbed_by << 32);
    run(r, (uint64_t)c->throw_invuln_until);
    run(r, (uint64_t)c->tech_until);
    run(r, (uint64_t)c->grab_seq);
    for (int i = 0; i < FG_MAX_VARS; i += 2) run2(r, (uint32_t)c->vars[i], (uint32_t)c->vars[i + 1]);
    for (uint32_t used = c->log_used; used; used &= used - 1) {
        uint32_t i = (uint32_t)__builtin_ctz(used);
        const fg_hit_log *l = &c->log[i];
        run(r, (uint64_t)i | (uint64_t)l->target << 8 | (uint64_t)l->layer << 40 |
                   (uint64_t)l->count << 48 | (uint64_t)l->def << 56);
        run(r, (uint64_t)l->last);
    }
    if (c->bounce.armed || c->bounce.used) {
        uint64_t bounce[FG_BOUNCE_WORDS];
        for (uint32_t i = 0, n = fg_bounce_words(&c->bounce, bounce); i < n; i++)
            run(r, bounce[i]);
    }
}

/* An input buffer: its held state and counters, the digest of every edge it consumed, and which
** stored edges gameplay has consumed since (the buffer's digest of their ids). The stored edges
** are a suffix of the digested ones, fixed by the count. Pending edges are not hashed. */
static inline void fold_buffer(acc *r, const fg_buffer *b, uint64_t digest, bool live) {
    run2(r, b->capacity, b->count);
    run2(r, b->held, (uint32_t)b->dir | (uint32_t)b->facing << 8);
    run(r, live ? (uint64_t)b->current_tick : 0);
    run(r, b->dropped);
    run(r, digest);
    for (uint32_t held = b->held; held; held &= held - 1)
        run(r, (uint64_t)b->held_since[__builtin_ctz(held)]);
    /* Which stored edges gameplay consumed: a digest the buffer keeps up to date. */
    run(r, live ? b->consumed_digest : 0);
}

/* The buffer's words that change on every tick (its tick, at place 2 of its n, and its consumed
** digest, the last), added in place to a run that ends with them. */
static inline void add_buffer_live(acc *s, const fg_buffer *b, uint64_t n) {
    uint64_t t = fg_fold_scramble((uint64_t)b->current_tick);
    s->a += t + fg_fold_scramble(b->consumed_digest);
    s->c += t * (n - 3);
}

static inline uint64_t queued_word(const fg_queued *q) {
    return (uint64_t)q->action | (uint64_t)q->source << 16 | (uint64_t)q->why << 24;
}

static inline void fold_queued_rest(acc *r, const fg_queued *q) {
    run2(r, (uint32_t)q->waited, (uint32_t)q->limit);
    run(r, (uint64_t)q->made);
}

/* Each declared layer: the head of its queue, its sequence counter and start tick, its running
** action, the requests waiting behind the head (only when there are some, see statediff.c);
** then the resources. Layers the ruleset does not declare are never written (a reload keeps the
** layers), so they are not folded. With `timed` false, each layer's elapsed time and cycle count
** go in as 0 (which adds nothing but their place): the kept fold, which the words that change
** every tick join afterwards (add_timed). */
static inline uint64_t timer_word(const fg_instance *inst) {
    return (uint64_t)(uint32_t)inst->elapsed | (uint64_t)(uint32_t)inst->duration << 32;
}

static inline void fold_layers(acc *r, const fg_entity_state *es, uint32_t nlayers, bool timed) {
    for (uint32_t l = 0; l < nlayers; l++) {
        const fg_instance *inst = &es->layers[l];
        const fg_queued *q = &es->queued[l][0];
        run(r, queued_word(q));
        run(r, (uint64_t)es->next_seq[l]);
        run(r, (uint64_t)es->started_tick[l]);
        run(r, (uint64_t)inst->action | (uint64_t)inst->version << 16 |
                   (uint64_t)inst->contact << 32);
        run(r, timed ? timer_word(inst) : 0);
        run(r, timed ? (uint64_t)inst->cycle : 0);
        run(r, (uint64_t)inst->seq);
        run(r, (uint64_t)inst->started);
        if (q->action == FG_NO_ACTION) continue; /* an empty queue: nothing waits behind */
        fold_queued_rest(r, q);
        /* A queue is packed (tick.c pops by moving the rest up; a restore refuses a request
        ** after an empty place), so the first empty place ends it: the places behind, nearly
        ** always empty, are never fetched. */
        for (uint32_t j = 1; j < FG_QUEUE_MAX; j++) {
            q = &es->queued[l][j];
            if (q->action == FG_NO_ACTION) break;
            run(r, queued_word(q));
            fold_queued_rest(r, q);
        }
    }
    for (int k = 0; k < FG_MAX_RESOURCES; k += 2)
        run2(r, (uint32_t)es->res[k], (uint32_t)es->res[k + 1]);
}

/* The words of the layers with every queue empty (8 per layer) and the resources. */
static inline uint64_t layers_words(uint32_t nlayers) { return 8u * nlayers + FG_MAX_RESOURCES / 2; }

/* Adds each layer's elapsed-time word (its 5th) and cycle word (its 6th) to a kept fold in which
** `tail` words follow the layers and resources: a word with m words after it adds its scrambled
** value to a, and that times m to c. */
HOT_INLINE void add_timed(acc *s, const fg_entity_state *es, uint32_t nlayers, uint64_t tail) {
    for (uint32_t l = 0; l < nlayers; l++) {
        const fg_instance *inst = &es->layers[l];
        uint64_t e = fg_fold_scramble(timer_word(inst));
        uint64_t y = fg_fold_scramble((uint64_t)inst->cycle);
        uint64_t after = tail + layers_words(nlayers) - 5 - 8u * l; /* after the elapsed time */
        s->a += e + y;
        s->c += (e + y) * after - y;
    }
}

#ifdef FG_HASH_CHECK
#include <stdio.h>
#include <stdlib.h>
/* Builds that check the kept folds (cmake -DFG_HASH_CHECK=ON; the sanitizer preset) stop at the
** first one a write left unmarked: a missing fg_world_hash_touch. */
static void check_kept(const fg_world *w, uint32_t slot, const fg_fold_run *kept,
                       const fg_fold_run *fresh) {
    if (kept->a == fresh->a && kept->b == fresh->b && kept->k == fresh->k) return;
    fprintf(stderr, "framegate: tick %lld: entity %u: a kept hash fold is stale "
                    "(a write without fg_world_hash_touch)\n",
            (long long)w->state->tick, slot + 1);
    abort();
}
#endif

/* The head of the record: its words, with its ground and last input. The ones that change nearly
** every tick (position, velocity, last position, last grounded tick, last input) are at places
** 3-5, 7 and 9-12: fold_head leaves them out of the kept fold, add_live adds them. */
enum { HEAD_WORDS = 13 };

static inline void head_words(const fg_entity_state *es, uint64_t w[HEAD_WORDS]) {
    const fg_ground *g = &es->ground;
    const fg_tick_input *in = &es->last_input;
    w[0] = es->id;
    w[1] = (uint64_t)es->facing | (uint64_t)es->contact << 8 | (uint64_t)es->rules_slot << 16 |
           (uint64_t)es->opponent << 32;
    w[2] = (uint64_t)es->support | (uint64_t)es->drop << 8 | (uint64_t)es->landed << 16;
    w[3] = (uint64_t)(uint32_t)es->x | (uint64_t)(uint32_t)es->y << 32;
    w[4] = (uint64_t)(uint32_t)es->vx | (uint64_t)(uint32_t)es->vy << 32;
    w[5] = (uint64_t)(uint32_t)es->prev_x | (uint64_t)(uint32_t)es->prev_y << 32;
    w[6] = (uint64_t)g->has_history | (uint64_t)g->permission_spent << 8 |
           (uint64_t)g->left_ground << 16 | (uint64_t)g->grounded << 24;
    w[7] = (uint64_t)g->last_grounded;
    w[8] = (uint64_t)g->landed_at;
    w[9] = (uint64_t)in->tick;
    w[10] = (uint64_t)in->first | (uint64_t)in->count << 32;
    w[11] = (uint64_t)in->pressed | (uint64_t)in->released << 32;
    w[12] = (uint64_t)in->held | (uint64_t)in->dir << 32;
}

/* The head's words, then the jump decision's. With `live` false the words that change nearly
** every tick go in as 0 (which adds nothing but their place): the kept fold, which add_live
** completes. */
static inline void fold_head(acc *r, const fg_entity_state *es, bool live) {
    uint64_t w[HEAD_WORDS];
    head_words(es, w);
    if (!live) /* written out rather than looped: a loop here is not unrolled at -O2 */
        w[3] = w[4] = w[5] = w[7] = w[9] = w[10] = w[11] = w[12] = 0;
    run(r, w[0]), run(r, w[1]), run(r, w[2]), run(r, w[3]), run(r, w[4]), run(r, w[5]);
    run(r, w[6]), run(r, w[7]), run(r, w[8]), run(r, w[9]), run(r, w[10]), run(r, w[11]);
    run(r, w[12]);
    fold_jump(r, es);
}

/* The live words (places 3-5, 7 and 9-12 of the head) joined to a kept run of n words that
** starts with the head: a word at place p adds its scrambled value x to a, and x (n - 1 - p) to
** c. Without `input`, the last input's places 10-12 are left out (they are in the input memo,
** below). */
HOT_INLINE void add_live(acc *s, const fg_entity_state *es, bool input) {
    uint64_t w[HEAD_WORDS];
    head_words(es, w);
    uint64_t x3 = fg_fold_scramble(w[3]), x4 = fg_fold_scramble(w[4]);
    uint64_t x5 = fg_fold_scramble(w[5]), x7 = fg_fold_scramble(w[7]);
    uint64_t x9 = fg_fold_scramble(w[9]);
    uint64_t m = s->n - 1, sum = x3 + x4 + x5 + x7 + x9;
    s->a += sum;
    /* x3 (m - 3) + ... + x9 (m - 9), with one multiply: the places' weights are shifts and adds. */
    s->c += sum * m - (3 * x3 + 4 * x4 + 5 * x5 + 7 * x7 + 9 * x9);
    if (input) {
        uint64_t x10 = fg_fold_scramble(w[10]), x11 = fg_fold_scramble(w[11]);
        uint64_t x12 = fg_fold_scramble(w[12]);
        uint64_t in = x10 + x11 + x12;
        s->a += in;
        s->c += in * m - (10 * x10 + 11 * x11 + 12 * x12);
    }
}

/* The input memo: the kept run joined with the words of an entity that change only on a tick that
** reads an edge (its last input's first edge, presses and releases, held buttons: places 10-12
** of the head; its buffer's words but its tick and consumed digest), as a run of the whole record
** (the kept run's words, then the buffer's bn) with every word that changes on a quiet tick at 0.
** Taken on a tick without an edge, it holds on each next tick without one while every part held
** as the tick began (so no unseen tick read an edge) and the kept run holds. It is kept with the
** buffer's facing (a turn changes the buffer's word without an edge); NO_MEMO: none is kept. */
#define NO_MEMO 0xFF

HOT_INLINE void take_input(fg_hash_kept *k, const fg_entity_state *es, const fg_buffer *b) {
    acc bs = {0, 0, 0};
    fold_buffer(&bs, b, es->input_digest, false);
    uint64_t w[HEAD_WORDS];
    head_words(es, w);
    uint64_t x10 = fg_fold_scramble(w[10]), x11 = fg_fold_scramble(w[11]);
    uint64_t x12 = fg_fold_scramble(w[12]);
    uint64_t n = k->all_n + bs.n;
    k->in_a = k->all_a + bs.a + x10 + x11 + x12;
    k->in_c = k->all_c + bs.n * k->all_a + bs.c + x10 * (n - 11) + x11 * (n - 12) +
              x12 * (n - 13);
    k->in_bn = (uint8_t)bs.n;
    k->in_facing = b->facing;
}

/* The head without its live words, then the freeze and the combat state: the first kept fold. */
static inline void fold_head_combat(acc *r, const fg_entity_state *es) {
    fold_head(r, es, false);
    run(r, (uint64_t)es->frozen_from);
    run(r, (uint64_t)es->frozen_until);
    fold_combat(r, &es->combat);
}

/* The head (and its jump decision's 7), the freeze, the combat state, the layers with empty queues
** and the resources. */
_Static_assert(HEAD_WORDS + 7 + 2 + 7 + FG_MAX_VARS / 2 + 2 * FG_HIT_LOG + FG_BOUNCE_WORDS +
                       8 * FG_MAX_LAYERS + FG_MAX_RESOURCES / 2 <= UINT8_MAX,
               "fg_hash_kept counts an entity's kept words in a byte");

/* Everything a later tick can read of one entity, as a run from where the entity starts. With
** k, the words that rarely change are taken from its kept folds while they hold (`now` is the
** keep's count of changes), and kept there when refolded: the head and combat state (hc), and
** while no request waits, those with the layers (all), to which the words that change every tick
** are added in place (add_live, add_timed). */
static fg_fold_run fold_record(const fg_world *w, uint32_t slot, uint32_t nlayers, fg_hash_kept *k,
                               uint64_t now) {
    const fg_entity_state *es = &w->entities[slot];
    acc r = {0, 0, 0};
    if (!k) {
        fold_head(&r, es, true);
        run(&r, (uint64_t)es->frozen_from);
        run(&r, (uint64_t)es->frozen_until);
        fold_combat(&r, &es->combat);
        fold_layers(&r, es, nlayers, true);
    } else {
        bool hold = k->at == now;
        if (!hold) {
            fold_head_combat(&r, es);
            k->hc_a = r.a, k->hc_c = r.c, k->hc_n = (uint8_t)r.n;
        }
        r = (acc){k->hc_a, k->hc_c, k->hc_n};
        k->at = now;
        if (!es->queued_layers && (!hold || !k->layers_ok)) {
            acc s = r;
            fold_layers(&s, es, nlayers, false);
            /* More words than that: queued_layers disagrees with a queue; fold it live. */
            k->layers_ok = s.n == k->hc_n + layers_words(nlayers);
            k->all_a = s.a, k->all_c = s.c, k->all_n = (uint8_t)s.n;
            k->nlayers = (uint8_t)nlayers;
        } else if (es->queued_layers) {
            k->layers_ok = 0;
        }
        k->in_facing = NO_MEMO; /* the kept run's length may have changed */
        if (k->layers_ok) {
            r = (acc){k->all_a, k->all_c, k->all_n};
            add_live(&r, es, true);
            add_timed(&r, es, nlayers, 0);
        } else {
            add_live(&r, es, true);
            fold_layers(&r, es, nlayers, true);
        }
    }
    fold_buffer(&r, fg_world_buffer_at(w, slot), es->input_digest, true);
    fg_fold_run out = acc_run(&r);
#ifdef FG_HASH_CHECK
    if (k) {
        fg_fold_run fresh = fold_record(w, slot, nlayers, NULL, 0);
        check_kept(w, slot, &out, &fresh);
    }
#endif
    return out;
}

/* fold_record while the entity's kept folds hold and no request waits, as on nearly every tick:
** the kept run of all but the live words, those added in place, then the buffer; on a tick
** without an edge, the kept run and the input memo (`held`: every part held as the tick began),
** with the words that change every tick added in place. Small enough to sit inside the block
** loop below without the call. False: the caller takes fold_record. */
HOT_INLINE bool fold_record_kept(const fg_world *w, uint32_t slot, fg_hash_kept *k, uint64_t now,
                                 bool held, fg_fold_run *out) {
    const fg_entity_state *es = &w->entities[slot];
    if (k->at != now || es->queued_layers || !k->layers_ok) return false;
    uint32_t nlayers = k->nlayers; /* the ruleset's: a change of rules sets the kept folds aside */
    const fg_buffer *b = fg_world_buffer_at(w, slot);
    acc r;
    if (es->last_input.count == 0) {
        if (!held || b->facing != k->in_facing) take_input(k, es, b);
        uint64_t bn = k->in_bn;
        r = (acc){k->in_a, k->in_c, k->all_n + bn};
        add_live(&r, es, false);
        /* Unrolled for the usual layer counts. */
        if (nlayers == 2) add_timed(&r, es, 2, bn);
        else if (nlayers == 1) add_timed(&r, es, 1, bn);
        else add_timed(&r, es, nlayers, bn);
        add_buffer_live(&r, b, bn);
    } else {
        k->in_facing = NO_MEMO; /* the tick read an edge */
        r = (acc){k->all_a, k->all_c, k->all_n};
        add_live(&r, es, true);
        add_timed(&r, es, nlayers, 0);
        fold_buffer(&r, b, es->input_digest, true);
    }
    *out = acc_run(&r);
#ifdef FG_HASH_CHECK
    fg_fold_run fresh = fold_record(w, slot, nlayers, NULL, 0);
    check_kept(w, slot, out, &fresh);
#endif
    return true;
}

static inline uint32_t nlayers_of(const fg_world *w, uint32_t slot) {
    return w->state->nslots > 0 ? fg_world_rules_of(w, &w->entities[slot])->nlayers : 0;
}

/* }====================================================================== */

/* {====================================================================== the parts */

/* The lines the fold reads while the kept folds hold that the tick's last pass over the entity
** did not (tick.c finish_entities: facing, combo end and the frame meter read the head of the
** record and its layers just before): its ground and last input, the head of its input buffer,
** its kept folds and its part. By the end of a tick of thousands of entities they have left the
** nearest cache since the entity's input phase. Fetched two entities ahead. */
static inline void prefetch_part(const fg_world *w, uint32_t slot) {
    const fg_entity_state *es = &w->entities[slot];
    __builtin_prefetch(&es->ground); /* and the last input, in the same line */
    __builtin_prefetch(fg_world_buffer_at(w, slot));
    __builtin_prefetch(&w->hash_keep->kept[slot]);
    __builtin_prefetch(&w->hash_keep->parts[slot]);
}

/* The parts of entities [from, to), folded and added to the keep's sum (ledger and matcher folds
** mixed into its hasher in turn), the sum held in registers across them. Like the hash's other
** entry points (fg_world_hash_ledger_written, fg_world_hash, the matcher's fg_motion_kept_step),
** kept out of line: tools/icount.lua counts the hash's share of the instructions by their names. */
FG_NOINLINE
void fg_world_hash_parts(const fg_world *w, uint32_t from, uint32_t to) {
    fg_hash_keep *keep = w->hash_keep;
    fg_fold_run all = keep->all;
    fg_hasher hs = keep->all_hs;
    uint32_t next = keep->next, n = w->state->nentities;
    bool motion = w->state->nslots > 0; /* without rules, no entity has a matcher */
    for (uint32_t slot = from; slot < to; slot++) {
        if (slot + 2 < n) prefetch_part(w, slot + 2);
        fg_hash_part *p = &keep->parts[slot];
        fg_fold_run run;
        if (!fold_record_kept(w, slot, &keep->kept[slot], keep->changes, keep->held, &run))
            run = fold_record(w, slot, nlayers_of(w, slot), &keep->kept[slot], keep->changes);
        if (p->ledger_at != keep->changes) {
            p->ledger = fg_dispatcher_fold(fg_world_ledger_at(w, slot));
            p->ledger_at = keep->changes;
        }
        /* Out of order, the sum stops short of the count, and the hash folds every entity
        ** again. */
        if (slot != next) continue;
        next++;
        fg_fold_run_append(&all, &run);
        fg_hash_fold_end(&hs, &p->ledger);
        if (motion) fg_hash_fold_end(&hs, &p->motion.fold);
    }
    keep->all = all;
    keep->all_hs = hs;
    keep->next = next;
}

void fg_world_hash_begin_parts(fg_hash_keep *keep) {
    keep->all = (fg_fold_run){0, 0, 0};
    keep->all_hs = fg_hasher_begin(HASH_SEED);
    keep->next = 0;
}

FG_NOINLINE
void fg_world_hash_ledger_written(const fg_world *w, uint32_t slot) {
    fg_hash_keep *keep = w->hash_keep;
    fg_hash_part *p = &keep->parts[slot];
    if (keep->folding) {
        p->ledger = fg_dispatcher_fold(fg_world_ledger_at(w, slot));
        p->ledger_at = keep->changes;
    } else {
        p->ledger_at = 0;
    }
}

/* }====================================================================== */

/* {====================================================================== the hash */

/* Everything a later tick can read, entity by entity in id order. Pending requests, pending
** input edges and animation reports are input for ticks not yet run: like a host's polling, they
** take no part in the hash, so it is the same at every display rate (however early a host
** pushed its input). The contact report is hashed: it stays in force until the next one.
** `fresh`: no kept part is read, and every ledger is folded entry by entry. */
static inline uint64_t world_hash(const fg_world *w, bool fresh) {
    fg_hasher hs = fg_hasher_begin(HASH_SEED);
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
    bool rules = s->nslots > 0;
    fg_hash_keep *keep = w->hash_keep;
    /* In the middle of a tick (a hook hashing), half the entities have moved on: nothing kept. */
    if (keep->in_tick && !keep->ready) fresh = true;
    if (!fresh && !(keep->ready && keep->next == s->nentities)) {
        /* The tick did not add every part up (nobody hashed the tick before, or the world changed
        ** since): fold them now and keep the sum, so a second hash before the next change or
        ** tick (a recorder and a host, a sync check) only adds it. */
        fg_world_hash_begin_parts(keep);
        for (uint32_t slot = 0; rules && slot < s->nentities; slot++) /* as each step would */
            fg_motion_kept_take(&keep->parts[slot].motion,
                                fg_world_rules_of(w, &w->entities[slot])->motion_set,
                                fg_world_motion_at(w, slot));
        fg_world_hash_parts(w, 0, s->nentities);
        keep->ready = true;
    }
    if (!fresh) {
        hs = keep->all_hs; /* the parts, added up as they were folded */
        fg_fold_add_run(&f, &keep->all);
    } else {
        for (uint32_t slot = 0; slot < s->nentities; slot++) {
            const fg_ruleset *r = rules ? fg_world_rules_of(w, &w->entities[slot]) : NULL;
            fg_fold_run part = fold_record(w, slot, r ? r->nlayers : 0, NULL, 0);
            fg_fold_add_run(&f, &part);
            fg_dispatcher_hash_fresh(fg_world_ledger_at(w, slot), &hs);
            if (r) fg_motion_state_hash(r->motion_set, fg_world_motion_at(w, slot), &hs);
        }
    }
    fg_projectile_fold(w, &f);
    fg_hash_fold_end(&hs, &f);
    return fg_hasher_end(&hs);
}

FG_NOINLINE
uint64_t fg_world_hash(const fg_world *w) {
    w->hash_keep->asked = true;
    return world_hash(w, false);
}

uint64_t fg_world_hash_fresh(const fg_world *w) { return world_hash(w, true); }

/* }====================================================================== */
