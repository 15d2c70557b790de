/* SPDX-License-Identifier: MIT */
/*
** motion_fold.c: the matcher's part of the state hash. A matcher state is the largest part of an
** entity's, and a world hashed every tick folds every matcher every tick, so the fold is kept up
** to date as the step writes (the region fold, refreshed from what changed), and a world keeps
** the matcher's fold between ticks and moves it by the clocks on a tick without an edge
** (fg_motion_kept_step). Every authoritative field is still fed, one at a time.
*/
#include "base_internal.h"
#include "motion_set.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The world hashes every entity's matcher every tick, and it is the largest part of the world's
** state, so its words go through a fold (fg_fold: independent multiplies summed, base.h) rather
** than a chain of dependent mixes, and validity flags go 64 to a word. Every authoritative field
** is still fed, one at a time. */
static void fold_aux(fg_fold *f, const maux *ax) {
    fg_fold_u64(f, (uint64_t)ax->since);
    fg_fold_u64(f, ax->edge);
}

/* A link as one word: edge id and tick, each in 32 bits, as the state keeps them (motion_set.h). */
static inline uint64_t link_word(const mlink *l) {
    return (uint64_t)l->id | (uint64_t)l->tick << 32;
}

/* The words of pattern p's completion, as a run. */
static fg_fold_run done_run(const fg_motion_set *set, const fg_motion_state *st, uint32_t p) {
    const cpattern *P = &set->patterns[p];
    const mdone *d = done_of(st, P);
    fg_fold_acc x = {0, 0, 0};
    fg_fold_acc_u64(&x, p);
    fg_fold_acc_u64(&x, (uint64_t)d->tick);
    fg_fold_acc_u64(&x, (uint64_t)d->time);
    fg_fold_acc_u64(&x, (uint64_t)d->beat | (uint64_t)d->replaces << 16 | (uint64_t)d->live << 32 |
                            (uint64_t)d->why << 40 | (uint64_t)d->facing << 48 |
                            (uint64_t)d->flags << 56);
    fg_fold_acc_u64(&x, d->nedges);
    const mlink *dl = done_links(st, P);
    for (int i = 0; i < d->nedges; i++) fg_fold_acc_u64(&x, link_word(&dl[i]));
    return fg_fold_acc_run(&x);
}

/* Keeps pattern p's run after its completion record was written. */
void fg_motion_done_written(const fg_motion_set *set, fg_motion_state *st, uint32_t p) {
    done_runs_of(st, set)[p] = done_run(set, st, p);
    st->region_stale |= REGION_RUNS;
}

/* The completions' part of the region fold from their kept runs, in pattern order. */
static void region_fold_runs(const fg_motion_set *set, const fg_motion_state *st, fg_fold *f) {
    const uint64_t *done = done_bits(st, set);
    const fg_fold_run *runs = done_runs_of(st, set);
    for (uint32_t w = 0; w < (set->npatterns + 63) / 64; w++)
        for (uint64_t bits = done[w]; bits; bits &= bits - 1)
            fg_fold_add_run(f, &runs[w * 64 + (uint32_t)__builtin_ctzll(bits)]);
}

/* The completions of the patterns with a done record (found through the validity bitmap), each
** folded from its record. */
static void region_fold_done(const fg_motion_set *set, const fg_motion_state *st, fg_fold *f) {
    const uint64_t *done = done_bits(st, set);
    for (uint32_t w = 0; w < (set->npatterns + 63) / 64; w++)
        for (uint64_t bits = done[w]; bits; bits &= bits - 1) {
            fg_fold_run r = done_run(set, st, w * 64 + (uint32_t)__builtin_ctzll(bits));
            fg_fold_add_run(f, &r);
        }
}

/* Every aux record, and the nodes with a partial match (each with its index). */
static void region_fold_parts(const fg_motion_set *set, const fg_motion_state *st, fg_fold *f) {
    for (uint32_t i = 0; i < set->naux_patterns; i++) {
        const cpattern *P = &set->patterns[set->aux_patterns[i]];
        for (int tr = 0; tr < P->ntracks; tr++) fold_aux(f, final_aux(st, P, tr));
    }
    const uint64_t *nodes = node_bits(st, set);
    for (uint32_t w = 0; w < (set->nnodes + 63) / 64; w++)
        for (uint64_t bits = nodes[w]; bits; bits &= bits - 1) {
            uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
            const cnode *N = &set->nodes[i];
            const mpart *q = node_part(st, N);
            fg_fold_u64(f, (uint64_t)i << 32 | 1u);
            fg_fold_u64(f, (uint64_t)q->t);
            fg_fold_u64(f, (uint64_t)q->start);
            fg_fold_u64(f, q->edge);
            fg_fold_u64(f, (uint64_t)q->open | (uint64_t)q->skipped << 8 |
                               (uint64_t)q->taken << 16);
            const mlink *ch = node_chain(st, N);
            for (int k = 0; k < N->chain_len; k++) fg_fold_u64(f, link_word(&ch[k]));
        }
    for (uint32_t i = 0; i < set->naux_nodes; i++)
        fold_aux(f, node_aux(st, &set->nodes[set->aux_nodes[i]]));
}

static void region_fold(const fg_motion_set *set, const fg_motion_state *st, fg_fold *f) {
    region_fold_done(set, st, f);
    region_fold_parts(set, st, f);
}

/* The region fold brought up to date, from the kept fold of the completions while they did not
** change. */
static void region_update(const fg_motion_set *set, fg_motion_state *st) {
    fg_fold f = fg_fold_begin(0);
    fg_fold *done = done_fold_of(st, set);
    if (st->region_stale & REGION_DONE) { /* every run taken again from its record */
        const uint64_t *bits = done_bits(st, set);
        for (uint32_t p = 0; p < set->npatterns; p++)
            if (bit_get(bits, p)) done_runs_of(st, set)[p] = done_run(set, st, p);
    }
    if (st->region_stale & (REGION_DONE | REGION_RUNS)) {
        region_fold_runs(set, st, &f);
        *done = f;
    } else {
        f = *done;
    }
    region_fold_parts(set, st, &f);
    st->region_sum = f.sum;
    st->region_k = f.k;
    st->region_stale = 0;
}

void fg_motion_state_region_forget(fg_motion_state *st) {
    st->region_stale = REGION_DONE | REGION_PARTS;
}

void fg_motion_state_refresh(const fg_motion_set *set, fg_motion_state *st) {
    if (st->region_stale) region_update(set, st);
}

void fg_motion_state_hash(const fg_motion_set *set, const fg_motion_state *st, fg_hasher *hs) {
    fg_fold f = fg_motion_state_fold(set, st);
    fg_hash_fold_end(hs, &f);
}

fg_fold fg_motion_state_fold(const fg_motion_set *set, const fg_motion_state *st) {
    uint64_t sum = st->region_sum, k = st->region_k;
    if (st->region_stale) { /* not refreshed: fold it here, the same value */
        fg_fold r = fg_fold_begin(0);
        region_fold(set, st, &r);
        sum = r.sum;
        k = r.k;
    }
#ifdef FG_HASH_CHECK
    else { /* builds that check kept folds (world_hash.c): a change left unmarked stops here */
        fg_fold r = fg_fold_begin(0);
        region_fold(set, st, &r);
        if (r.sum != sum || r.k != k) {
            fprintf(stderr, "framegate: the matcher's kept region fold is stale (a change that "
                            "did not set region_stale)\n");
            abort();
        }
    }
#endif
    /* A run of the header's words without a multiply each, placed after the set's hash. */
    fg_fold_acc x = {0, 0, 0};
    fg_fold_acc_u64(&x, (uint64_t)st->last_tick);
    fg_fold_acc_u64(&x, (uint64_t)st->clock);
    fg_fold_acc_u64(&x, st->held);
    fg_fold_acc_u64(&x, (uint64_t)st->dir | (uint64_t)st->facing << 8 | (uint64_t)st->nlive << 16);
    fg_fold_acc_u64(&x, st->sweep);
    const mpress *press = press_of(st, set);
    for (uint32_t held = st->held; held; held &= held - 1) {
        int b = __builtin_ctz(held);
        fg_fold_acc_u64(&x, (uint64_t)press[b].tick);
        fg_fold_acc_u64(&x, (uint64_t)press[b].clock);
    }
    fg_fold_acc_u64(&x, sum);
    fg_fold_acc_u64(&x, k);
    fg_fold f = fg_fold_begin(st->set_hash);
    fg_fold_run r = fg_fold_acc_run(&x);
    fg_fold_add_run(&f, &r);
    return f;
}

/* The header's held buttons, direction, facing, region flags and spare byte, side by side, as one
** word: with the live count, what a quiet step must leave as it was. */
_Static_assert(offsetof(fg_motion_state, dir) == offsetof(fg_motion_state, held) + 4 &&
                   offsetof(fg_motion_state, reserved) == offsetof(fg_motion_state, held) + 7,
               "the header's held, dir, facing, region_stale and reserved make one word");
static inline uint64_t look_of(const fg_motion_state *st) {
    uint64_t v;
    memcpy(&v, &st->held, sizeof v);
    return v;
}

/* What the last tick, the clock and the sweep cursor add to the fold's sum: they are the first,
** second and fifth words of the run fg_motion_state_fold places after the set's hash, each
** multiplied by its own constant. */
static inline uint64_t clock_words(const fg_motion_state *st) {
    const uint64_t k0 = fg_fold_begin(0).k, d = FG_FOLD_STEP;
    return fg_fold_scramble((uint64_t)st->last_tick) * k0 +
           fg_fold_scramble((uint64_t)st->clock) * (k0 + d) +
           fg_fold_scramble((uint64_t)st->sweep) * (k0 + 4 * d);
}

void fg_motion_kept_take(fg_motion_kept *k, const fg_motion_set *set, const fg_motion_state *st) {
    k->fold = fg_motion_state_fold(set, st);
    k->rest = k->fold.sum - clock_words(st);
    /* A stale region matches no later look (no direction is 0xFF): the next step folds again. */
    k->look = st->region_stale ? ~(uint64_t)0 : look_of(st);
    k->nlive = st->nlive;
}

/* Out of line, so that the quiet path of fg_motion_kept_step saves no register. */
FG_NOINLINE
static void kept_refold(fg_motion_kept *k, const fg_motion_set *set, fg_motion_state *st) {
    fg_motion_state_refresh(set, st);
    fg_motion_kept_take(k, set, st);
}

FG_NOINLINE /* a hash entry point, counted by name (world_hash.c, fg_world_hash_parts) */
void fg_motion_kept_step(fg_motion_kept *k, const fg_motion_set *set, fg_motion_state *st,
                         bool quiet) {
    if (quiet && look_of(st) == k->look && st->nlive == k->nlive) {
        k->fold.sum = k->rest + clock_words(st);
#ifdef FG_HASH_CHECK
        fg_fold fresh = fg_motion_state_fold(set, st);
        if (fresh.sum != k->fold.sum || fresh.k != k->fold.k) {
            fprintf(stderr, "framegate: a matcher's fold moved by its clocks differs from a fresh "
                            "one (a step without an edge changed another word)\n");
            abort();
        }
#endif
        return;
    }
    kept_refold(k, set, st);
}

/* The fold from scratch, for tests: equal to the cached one whenever the cache is right. */
uint64_t fg_motion_state_region_check(const fg_motion_set *set, const fg_motion_state *st) {
    for (uint32_t i = 0; i < set->nnodes; i++) {
        bool bit = (node_bits(st, set)[i >> 6] >> (i & 63)) & 1u;
        if (bit != (node_part(st, &set->nodes[i])->valid != 0)) return 0;
    }
    for (uint32_t p = 0; p < set->npatterns; p++) {
        bool bit = (done_bits(st, set)[p >> 6] >> (p & 63)) & 1u;
        if (bit != (done_of(st, &set->patterns[p])->valid != 0)) return 0;
    }
    if (st->region_stale) return 1; /* nothing cached to compare: the hash folds it fresh */
    for (uint32_t p = 0; p < set->npatterns; p++) {
        if (!bit_get(done_bits(st, set), p)) continue;
        fg_fold_run r = done_run(set, st, p), kept = done_runs_of(st, set)[p];
        if (r.a != kept.a || r.b != kept.b || r.k != kept.k) return 0;
    }
    fg_fold d = fg_fold_begin(0);
    region_fold_done(set, st, &d);
    if (d.sum != done_fold_of(st, set)->sum || d.k != done_fold_of(st, set)->k) return 0;
    fg_fold f = fg_fold_begin(0);
    region_fold(set, st, &f);
    return (f.sum == st->region_sum && f.k == st->region_k) ? 1 : 0;
}
