/* SPDX-License-Identifier: MIT */
/*
** motion_match.c: the matcher: its state's start and the incremental step,
** arbitration between commands completing on the same tick, and command formatting.
**
** Matching is a dynamic programme over prefixes. Each pattern is read in each facing it can have
** (a "track"), which turns its steps into screen directions; the non-final steps of all tracks of
** all patterns form a trie, so 236P, 236K and 214K-read-facing-left share the node for "2, 3"
** once. A node keeps the most recent match of its prefix and the edges it used; a pattern's final
** step turns the match of its last node into a candidate command. A new edge is looked up in an
** index built at compile (direction transition prev -> dir, or button press/release) that lists
** exactly the nodes and final steps it can advance, so a tick costs in proportion to its new
** edges. Keeping the latest match of each prefix is what walking back from the newest edge and
** taking, for each step, the latest edge that still leaves a valid earlier part would find,
** memoised. The state is plain data at offsets fixed by the set, so it is copied with memcpy.
**
** In flags mode the same matches are made, but arbitration keeps every candidate (one per name)
** and nothing is consumed or invalidated; a pattern only refuses to complete again from inputs
** its own last completion used (reuses_own), as MUGEN restarts a command once it fires.
*/
#include "motion_set.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CAND 32

/* {====================================================================== state */

void fg_motion_state_init(const fg_motion_set *set, fg_motion_state *st, fg_tick start_tick) {
    memset(st, 0, set->state_size);
    st->set_hash = set->hash;
    st->size = set->state_size;
    st->last_tick = start_tick;
    st->clock = 0;
    st->dir = 5;
    mpress *press = press_of(st, set);
    for (int b = 0; b < FG_INPUT_MAX_ACTIONS; b++) press[b].tick = start_tick;
    /* The stick starts at neutral: a set holding 5 has been held since the start. */
    for (uint32_t p = 0; p < set->npatterns; p++) {
        const cpattern *P = &set->patterns[p];
        done_of(st, P)->beat = done_of(st, P)->replaces = FG_MOTION_NONE;
        for (int tr = 0; P->final_aux && tr < P->ntracks; tr++)
            final_aux(st, P, tr)->since = P->frozen == FG_MOTION_FROZEN_COUNT ? start_tick : 0;
    }
    for (uint32_t i = 0; i < set->nnodes; i++) {
        const cnode *N = &set->nodes[i];
        if (N->has_aux)
            node_aux(st, N)->since = N->frozen == FG_MOTION_FROZEN_COUNT ? start_tick : 0;
    }
    st->region_stale = REGION_DONE | REGION_PARTS;
    fg_motion_state_refresh(set, st);
}

/* }====================================================================== */

/* {====================================================================== matcher */

/* A link while a step works with it: the full id and tick (0, 0: a skipped step). */
typedef struct wlink {
    fg_edge_id id;
    fg_tick tick;
} wlink;

typedef struct cand {
    uint16_t pattern, replaces;
    uint8_t track, facing, nedges, skipped, level;
    uint8_t reserved[3];
    int32_t spec;
    int64_t t;
    fg_edge_id last;
    wlink chain[FG_MOTION_MAX_EDGES];
} cand;

typedef struct mctx {
    const fg_motion_set *set;
    fg_motion_state *st;
    fg_buffer *buf;
    const fg_motion_profile *prof;
    fg_tick now, prev_tick;
    int64_t clock_now, prev_clock;
    uint32_t ncand;
    bool dirty; /* a field the region fold covers was written this tick */
    bool flags; /* FG_MOTION_MODE_FLAGS: nothing is consumed, so consumed marks are not read */
    cand cands[MAX_CAND];
} mctx;

/* A link as the state keeps it, and back: a node's chain from the id of its match's last edge
** and the tick now, a done record's from the buffer's newest id and its completion tick. */
static inline mlink narrow(wlink l) {
    mlink n = {(uint32_t)l.id, (uint32_t)l.tick};
    return n;
}
static inline wlink widen(mlink l, fg_edge_id newer, fg_tick later) {
    wlink w = {0, 0};
    if (l.id || l.tick) {
        w.id = link_id(l.id, newer);
        w.tick = link_tick(l.tick, later);
    }
    return w;
}
static inline fg_edge_id newest_id(const fg_buffer *b) { return b->next_id - 1; }

/* The unfrozen-tick clock at an edge of this step (ticks skipped since the last step count). */
static inline int64_t edge_clock(const mctx *m, fg_tick tick) {
    int64_t c = m->prev_clock + (tick - m->prev_tick);
    return c < m->clock_now ? c : m->clock_now;
}

static inline int64_t time_of(const mctx *m, uint8_t frozen, fg_tick tick) {
    return frozen == FG_MOTION_FROZEN_COUNT ? tick : edge_clock(m, tick);
}

static inline int64_t now_of(const mctx *m, uint8_t frozen) {
    return frozen == FG_MOTION_FROZEN_COUNT ? m->now : m->clock_now;
}

static inline int64_t press_time(const mctx *m, uint8_t frozen, int b) {
    const mpress *p = &press_of(m->st, m->set)[b];
    return frozen == FG_MOTION_FROZEN_COUNT ? p->tick : p->clock;
}

/* Near-miss figures are for explanations: kept in 32 bits, saturated. */
static inline int32_t sat32(int64_t v) {
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* Keeps the deepest failure, or a newer one once the old one is stale. */
static void record(mmiss *ms, int32_t stale_after, fg_tick tick, int step, uint8_t reason,
                   int64_t value, int64_t limit, uint16_t other, uint8_t facing) {
    if (ms->valid && step < ms->step && tick - ms->tick <= stale_after) return;
    ms->valid = 1;
    ms->tick = tick;
    ms->step = (uint8_t)step;
    ms->reason = reason;
    ms->value = sat32(value);
    ms->limit = sat32(limit);
    ms->other = other;
    ms->facing = facing;
}

/* The motion whose recent command used edge id, if a chord of P may take the edge over. */
static int upgrade_source(const mctx *m, const cpattern *P, uint16_t pid, fg_edge_id id) {
    const fg_motion_set *set = m->set;
    for (uint32_t q = 0; q < set->npatterns; q++) {
        const cpattern *Q = &set->patterns[q];
        const mdone *d = done_of(m->st, Q);
        if (!d->valid || d->tick < m->now - m->prof->chord_window ||
            (d->flags & FG_MOTION_CMD_UPGRADE))
            continue;
        if (rank_cmp(Q, (uint16_t)q, Q->spec, P, pid, P->spec) <= 0) continue;
        const mlink *dl = done_links(m->st, Q);
        for (int i = 0; i < d->nedges; i++)
            if (dl[i].id == (uint32_t)id) return (int)q;
    }
    return -1;
}

/* Is a match marked taken still usable by a chord of P (ranked above the command that took it,
** within the chord window)? Returns the motion to replace, or -1. */
static int taken_usable(const mctx *m, const mpart *q, const cpattern *P, uint16_t pid) {
    if (!q->taken || !P) return -1;
    uint16_t qid = (uint16_t)(q->taken - 1);
    const cpattern *Q = &m->set->patterns[qid];
    const mdone *d = done_of(m->st, Q);
    if (!d->valid || d->tick < m->now - m->prof->chord_window) return -1;
    if (rank_cmp(Q, qid, Q->spec, P, pid, P->spec) <= 0) return -1;
    return qid;
}

typedef struct chord_pick {
    fg_edge_id id;
    fg_tick tick;
    uint8_t action;
    int16_t upgrade;
} chord_pick;

static bool assign_chord(const cstep *S, const chord_pick *c, int nc, int g, uint32_t used,
                         int *pick) {
    if (g >= S->ngroups || g >= FG_MOTION_MAX_CHORD)
        return (used & 1u) != 0; /* the newest press must be part of it */
    for (int i = 0; i < nc; i++) {
        if (used & BIT(i)) continue;
        if (!(S->groups[g] & BIT(c[i].action))) continue;
        pick[g] = i;
        if (assign_chord(S, c, nc, g + 1, used | BIT(i), pick)) return true;
    }
    return false;
}

/* Finds one press (or release) per group within the chord window ending at e, all after
** `after`. A final step (P != NULL) may take over a press a lower-ranked command used within the
** window. Fills links sorted by id. */
static bool find_chord(const mctx *m, const cpattern *P, uint16_t pid, const cstep *S,
                       const fg_edge *e, uint32_t pos, fg_edge_id after, wlink *links,
                       int *replaces, int64_t *fail_value) {
    uint8_t kind = S->trig == FG_MT_PRESS ? FG_EDGE_PRESS : FG_EDGE_RELEASE;
    int64_t w = m->prof->chord_window;
    chord_pick c[8];
    int nc = 0;
    c[nc].id = e->id;
    c[nc].tick = e->tick;
    c[nc].action = e->action;
    c[nc].upgrade = -1;
    nc++;
    *fail_value = -1;
    for (uint32_t i = pos; i-- > 0 && nc < 8;) {
        const fg_edge *x = fg_buffer_at(m->buf, i);
        if (x->id <= after) break;
        if (x->tick < e->tick - w) {
            /* Too early: remember how far, for the explanation. */
            if (x->kind == kind && (S->buttons & BIT(x->action))) *fail_value = e->tick - x->tick;
            break;
        }
        if (x->kind != kind || !(S->buttons & BIT(x->action))) continue;
        int up = -1;
        if ((x->flags & FG_EDGE_CONSUMED) && !m->flags) {
            up = P ? upgrade_source(m, P, pid, x->id) : -1;
            if (up < 0) continue;
        }
        c[nc].id = x->id;
        c[nc].tick = x->tick;
        c[nc].action = x->action;
        c[nc].upgrade = (int16_t)up;
        nc++;
    }
    int pick[FG_MOTION_MAX_CHORD];
    if (!assign_chord(S, c, nc, 0, 0, pick)) return false;
    *replaces = -1;
    for (int g = 0; g < S->ngroups && g < FG_MOTION_MAX_CHORD; g++) {
        links[g].id = c[pick[g]].id;
        links[g].tick = c[pick[g]].tick;
        if (c[pick[g]].upgrade >= 0) *replaces = c[pick[g]].upgrade;
    }
    for (int i = 1; i < S->ngroups && i < FG_MOTION_MAX_CHORD; i++) /* by id */
        for (int j = i; j > 0 && links[j - 1].id > links[j].id; j--) {
            wlink tmp = links[j];
            links[j] = links[j - 1];
            links[j - 1] = tmp;
        }
    return true;
}

/* Tries to complete one step with edge e (at buffer position pos): a node's step, which updates
** the node's match, or a pattern's final step, which adds a candidate command.
**
** The state offsets it reads and writes (fixed by the set at compile, see motion_set.h):
**   node N at N->off:        mpart (its latest match: time of the last step, time of the
**                            first, the edge that completed it, valid/open/skipped/taken), then
**                            mlink[chain_len] (the edges the match used, oldest first), then
**                            maux when a step of it is a charge (when the stick entered the
**                            charged set); at N->miss_off, in the cold part, its mmiss (why it
**                            last failed, diagnostics only)
**   pattern P, per track tr: P->final_off[tr]: maux when the final step is a charge;
**                            P->miss_off[tr]: mmiss of the final step; P->off: mdone (the last
**                            completion) and its mlink[nedges]
** en->prev_off / en->prev2_off name the parent's (and a skippable diagonal's grandparent's)
** mpart, which a step extends; 0 means the step is the first. */
static void try_step(mctx *m, const mentry *en, const fg_edge *e, uint32_t pos) {
    const fg_motion_set *set = m->set;
    fg_motion_state *st = m->st;
    /* An edge another command already used cannot start or extend a match (MUGEN's flag mode
    ** lets every command see every edge). */
    if ((e->flags & FG_EDGE_CONSUMED) && !m->flags) return;
    const cpattern *P = NULL;
    const cnode *N = NULL, *prev1 = NULL, *prev2 = NULL;
    const cstep *S;
    int f, depth = en->depth;
    uint8_t frozen;
    int32_t stale;
    mmiss *miss;
    maux *aux;
    /* A final step belongs to one pattern and one track (the facing it was read in); a node's
    ** step is shared by every pattern whose prefix it is, read in screen directions (track 0). */
    if (en->final) {
        P = &set->patterns[en->target];
        S = &P->steps[P->nsteps - 1];
        f = en->track;
        frozen = P->frozen;
        stale = P->time;
        miss = final_miss(st, P, en->track);
        aux = P->final_aux ? final_aux(st, P, en->track) : NULL;
        if (P->nsteps >= 2) prev1 = &set->nodes[P->path[en->track][P->nsteps - 2]];
        if (en->prev2_off) prev2 = &set->nodes[P->path[en->track][P->nsteps - 3]];
    } else {
        N = &set->nodes[en->target];
        S = &N->step;
        f = 0;
        frozen = N->frozen;
        stale = N->time;
        miss = node_miss(st, N);
        aux = N->has_aux ? node_aux(st, N) : NULL;
        if (N->parent != FG_MOTION_NONE) prev1 = &set->nodes[N->parent];
        if (en->prev2_off) prev2 = &set->nodes[prev1->parent];
    }
    uint8_t facing = (uint8_t)en->track;
    int64_t t = time_of(m, frozen, e->tick);
    /* The earlier match it can extend: the parent's, or the grandparent's over a skippable
    ** diagonal when the profile is lenient. */
    const cnode *opt[2];
    int nopt = 0, taken_from = -1;
    if (prev1) {
        /* A match whose edges a command took serves only a chord that may take it over. */
        const mpart *q1 = node_part(st, prev1);
        int t1 = S->ngroups > 1 ? taken_usable(m, q1, P, en->target) : -1;
        if (q1->valid && (!q1->taken || t1 >= 0)) {
            opt[nopt++] = prev1;
            if (q1->taken) taken_from = t1;
        }
        if (prev2 && m->prof->lenient_directions && node_part(st, prev2)->valid &&
            !node_part(st, prev2)->taken)
            opt[nopt++] = prev2;
        if (nopt == 0) return;
    }
    /* A charge (`[4]6`, `~30B`): the set or the button must have been held long enough before
    ** it was let go. */
    if (S->min_hold > 0 && (S->trig == FG_MT_LEAVE || S->trig == FG_MT_RELEASE)) {
        int64_t since = S->trig == FG_MT_LEAVE ? aux->since : press_time(m, frozen, e->action);
        int64_t held = t - since;
        if (held < S->min_hold) {
            record(miss, stale, e->tick, depth, FG_MOTION_FAIL_CHARGE, held, S->min_hold,
                   FG_MOTION_NONE, facing);
            return;
        }
    }
    /* `/X, Y`: X must still be held when Y happens. */
    if (S->hold[f] || S->hold_buttons) {
        bool ok = (!S->hold[f] || (S->hold[f] & DBIT(e->dir))) &&
                  (st->held & S->hold_buttons) == S->hold_buttons;
        if (!ok) {
            record(miss, stale, e->tick, depth, FG_MOTION_FAIL_HOLD, e->dir, 0, FG_MOTION_NONE,
                   facing);
            return;
        }
    }
    wlink chord[FG_MOTION_MAX_CHORD];
    int replaces = -1;
    const cnode *chosen = NULL;
    int64_t start = t;
    uint8_t fail = FG_MOTION_FAIL_NONE;
    int64_t fvalue = 0, flimit = 0;
    /* Each earlier match in turn (the parent's first): the first that keeps within the step's
    ** gap, the pattern's window and strictness, and completes a chord if the step is one, is
    ** extended; the first failure is what the near-miss reports. */
    for (int i = 0; i < (prev1 ? nopt : 1); i++) {
        fg_edge_id after = 0;
        if (prev1) {
            const mpart *q = node_part(st, opt[i]);
            int64_t end = q->open ? t : q->t;
            int64_t st0 = (q->open && opt[i]->depth == 0) ? t : q->start;
            int64_t glim = gap_limit(S, m->prof);
            /* The window is checked where a pattern completes: nodes are shared by patterns
            ** whose windows differ, and a match too old for the window cannot be rescued by an
            ** older one anyway. */
            int64_t tlim = P ? time_limit(P->time, m->prof) : 0;
            uint8_t fl = FG_MOTION_FAIL_NONE;
            int64_t v = 0, l = 0;
            if (glim && t - end > glim) {
                fl = FG_MOTION_FAIL_GAP;
                v = t - end;
                l = glim;
            } else if (tlim && t - st0 > tlim) {
                fl = FG_MOTION_FAIL_TIME;
                v = t - st0;
                l = tlim;
            } else if ((S->flags & FG_MS_STRICT) && e->id > q->edge + 1) {
                fl = FG_MOTION_FAIL_STRICT;
                v = (int64_t)(e->id - q->edge - 1);
            }
            if (fl != FG_MOTION_FAIL_NONE) {
                if (fail == FG_MOTION_FAIL_NONE) {
                    fail = fl;
                    fvalue = v;
                    flimit = l;
                }
                continue;
            }
            start = st0;
            after = q->edge;
        }
        if (S->ngroups > 1) {
            int64_t cv;
            if (!find_chord(m, P, en->target, S, e, pos, after, chord, &replaces, &cv)) {
                if (fail == FG_MOTION_FAIL_NONE) {
                    fail = FG_MOTION_FAIL_CHORD;
                    fvalue = cv;
                    flimit = m->prof->chord_window;
                }
                continue;
            }
        }
        chosen = prev1 ? opt[i] : NULL;
        if (chosen == prev1 && taken_from >= 0) replaces = taken_from;
        fail = FG_MOTION_FAIL_NONE;
        break;
    }
    if (fail != FG_MOTION_FAIL_NONE) {
        record(miss, stale, e->tick, depth, fail, fvalue, flimit, FG_MOTION_NONE, facing);
        return;
    }
    /* The edge chain: the earlier match's, a blank for a skipped step, then this step's. */
    wlink links[FG_MOTION_MAX_EDGES];
    int nl = 0;
    uint8_t skipped = 0;
    if (chosen) {
        const mlink *src = node_chain(st, chosen);
        const mpart *cq = node_part(st, chosen);
        nl = chosen->chain_len;
        for (int i = 0; i < nl; i++) links[i] = widen(src[i], cq->edge, m->now);
        skipped = cq->skipped;
        if (chosen != prev1) {
            skipped++;
            for (int i = 0; i < prev1->step.nedges; i++) {
                links[nl].id = 0;
                links[nl].tick = 0;
                nl++;
            }
        }
    }
    if (S->ngroups > 1) {
        for (int g = 0; g < S->ngroups; g++) links[nl++] = chord[g];
    } else {
        links[nl].id = e->id;
        links[nl].tick = e->tick;
        nl++;
    }
    /* A final step makes a candidate; the step of fg_motion_step ranks the candidates of the
    ** tick afterwards, so a better one sharing these edges can still win. A pattern read in both
    ** facings only completes in the track of the facing the edge was stamped with. */
    if (P) {
        if (P->ntracks == 2 && e->facing != en->track) {
            record(miss, stale, e->tick, depth, FG_MOTION_FAIL_FACING, e->facing, 0,
                   FG_MOTION_NONE, facing);
            return;
        }
        if (m->ncand == MAX_CAND) return;
        cand *c = &m->cands[m->ncand++];
        memset(c, 0, sizeof *c);
        c->pattern = en->target;
        c->replaces = replaces >= 0 ? (uint16_t)replaces : FG_MOTION_NONE;
        c->track = en->track;
        c->facing = e->facing;
        c->nedges = (uint8_t)nl;
        c->skipped = skipped;
        c->spec = P->spec + 16 * skipped;
        c->t = t;
        c->last = e->id;
        for (int i = 0; i < nl; i++) c->chain[i] = links[i];
        return;
    }
    /* A node keeps only its latest match: a newer match of the same prefix is never worse for any
    ** pattern through it (it is later, so it leaves more of every window). The validity bit and
    ** `dirty` keep the hash fold's cache honest. */
    mpart *q = node_part(st, N);
    m->dirty = true;
    bit_set(node_bits(st, m->set), (uint32_t)(N - m->set->nodes));
    q->valid = 1;
    q->open = S->trig == FG_MT_HOLD;
    q->skipped = skipped;
    q->t = t;
    q->start = prev1 ? start : t;
    q->edge = e->id;
    mlink *dst = node_chain(st, N);
    for (int i = 0; i < nl; i++) dst[i] = narrow(links[i]);
}

static void run_entries(mctx *m, uint32_t first, uint32_t count, const fg_edge *e, uint32_t pos) {
    const mentry *list = m->set->entries + first;
    const uint8_t *base = (const uint8_t *)m->st;
    const uint64_t *bits = node_bits(m->st, m->set);
    for (uint32_t i = 0; i < count; i++) {
        const mentry *en = &list[i];
        switch (en->role) {
        case R_CLOSE: {
            const cnode *N = &m->set->nodes[en->target];
            mpart *q = node_part(m->st, N);
            if (bit_get(bits, en->target) && q->open) { /* the bit first: see below */
                m->dirty = true;
                q->open = 0;
                q->t = time_of(m, N->frozen, e->tick);
                if (N->depth == 0) q->start = q->t;
            }
            break;
        }
        case R_SINCE: {
            maux *ax;
            uint8_t frozen;
            if (en->final) {
                const cpattern *P = &m->set->patterns[en->target];
                ax = final_aux(m->st, P, en->track);
                frozen = P->frozen;
            } else {
                const cnode *N = &m->set->nodes[en->target];
                ax = node_aux(m->st, N);
                frozen = N->frozen;
            }
            ax->since = time_of(m, frozen, e->tick);
            ax->edge = e->id;
            m->dirty = true;
            break;
        }
        default:
            /* Most entries are for steps whose earlier part is not matched: a bit of the
            ** header's line says so (it mirrors the mpart's valid flag). */
            if (en->prev_off && !bit_get(bits, en->prev_node) &&
                !(en->prev2_off && m->prof->lenient_directions &&
                  ((const mpart *)(base + en->prev2_off))->valid))
                break;
            try_step(m, en, e, pos);
            break;
        }
    }
}

static void process_edge(mctx *m, const fg_edge *e, uint32_t pos) {
    fg_motion_state *st = m->st;
    const fg_motion_set *set = m->set;
    if (e->kind == FG_EDGE_DIR) {
        if (e->prev_dir >= 1 && e->prev_dir <= 9 && e->dir >= 1 && e->dir <= 9)
            run_entries(m, set->dir_first[e->prev_dir][e->dir],
                        set->dir_count[e->prev_dir][e->dir], e, pos);
        st->held = (st->held & ~FG_IN_DIRECTION_MASK) | fg_bits_of_numpad(e->dir);
        st->dir = e->dir;
    } else if (e->action < FG_INPUT_MAX_ACTIONS) {
        if (e->kind == FG_EDGE_PRESS) {
            run_entries(m, set->press_first[e->action], set->press_count[e->action], e, pos);
            st->held |= BIT(e->action);
            mpress *p = &press_of(st, set)[e->action];
            p->tick = e->tick;
            p->clock = edge_clock(m, e->tick);
        } else {
            run_entries(m, set->release_first[e->action], set->release_count[e->action], e, pos);
            st->held &= ~BIT(e->action);
        }
    }
}

/* Node i's match loses its place when it used one of the consumed edges `ids` (lo: the oldest). */
static void invalidate_node(mctx *m, uint32_t i, fg_edge_id lo, const fg_edge_id *ids,
                            const uint16_t *owner, int n) {
    const cnode *N = &m->set->nodes[i];
    mpart *q = node_part(m->st, N);
    if (q->edge < lo) return;
    const mlink *ch = node_chain(m->st, N);
    int hit = -1;
    for (int k = 0; k < N->chain_len && hit < 0; k++)
        for (int j = 0; j < n && hit < 0; j++)
            if ((ch[k].id || ch[k].tick) && ch[k].id == (uint32_t)ids[j]) hit = j;
    if (hit < 0) return;
    if (N->chord_child && !q->taken) {
        q->taken = (uint16_t)(owner[hit] + 1);
    } else {
        memset(q, 0, sizeof *q);
        bit_clear(node_bits(m->st, m->set), i);
    }
}

/* Clears the matches that used any of the consumed edges (owner[i]: the motion that used
** ids[i]). A match a chord could still complete from is only marked: the chord may take over
** the command within the chord window (236P then a second punch: the EX version). Only matched
** nodes are read: their bitmap sits in the header's line, a node's match may not. */
static void invalidate(mctx *m, const fg_edge_id *ids, const uint16_t *owner, int n) {
    if (n == 0) return;
    fg_edge_id lo = ids[0];
    for (int i = 1; i < n; i++)
        if (ids[i] < lo) lo = ids[i];
    const fg_motion_set *set = m->set;
    const uint64_t *valid = node_bits(m->st, set);
    for (uint32_t w = 0; w * 64 < set->nnodes; w++)
        for (uint64_t bits = valid[w]; bits; bits &= bits - 1)
            invalidate_node(m, w * 64 + (uint32_t)__builtin_ctzll(bits), lo, ids, owner, n);
}

/* Drops matches that can no longer complete inside any window of the patterns through them.
** One node per tick keeps it cheap and keeps the hashed state small. True when it changed a
** field the region fold covers. */
static bool sweep(mctx *m) {
    const fg_motion_set *set = m->set;
    if (set->nnodes == 0) return false;
    /* The modulo only when a reload left fewer nodes: two divisions a fighter-tick showed. */
    uint32_t i = m->st->sweep;
    if (i >= set->nnodes) i %= set->nnodes;
    m->st->sweep = (uint16_t)(i + 1 == set->nnodes ? 0 : i + 1);
    /* The validity bit sits in the header's line: a node without a match is not read. */
    if (!bit_get(node_bits(m->st, set), i)) return false;
    const cnode *N = &set->nodes[i];
    mpart *q = node_part(m->st, N);
    if (q->taken) {
        const mdone *d = done_of(m->st, &set->patterns[q->taken - 1]);
        if (!d->valid || d->tick < m->now - m->prof->chord_window) {
            memset(q, 0, sizeof *q);
            bit_clear(node_bits(m->st, set), i);
            return true;
        }
        return false;
    }
    if (q->open && N->depth == 0) return false;
    int64_t now = now_of(m, N->frozen), tlim = time_limit(N->time, m->prof);
    if (now - q->start > tlim) {
        memset(q, 0, sizeof *q);
        bit_clear(node_bits(m->st, set), i);
        record(node_miss(m->st, N), N->time, m->now, N->depth + 1, FG_MOTION_FAIL_EXPIRED,
               now - q->start, tlim, FG_MOTION_NONE, 0);
        return true;
    }
    return false;
}

static void level_candidates(mctx *m) {
    const fg_motion_set *set = m->set;
    fg_motion_state *st = m->st;
    for (uint32_t i = 0; i < set->nlevels && m->ncand < MAX_CAND; i++) {
        uint16_t pid = set->levels[i];
        const cpattern *P = &set->patterns[pid];
        const cstep *S = &P->steps[0];
        int tr = P->ntracks == 2 ? st->facing : 0;
        bool ok = true;
        int64_t since = INT64_MAX;
        if (S->dirs[tr]) {
            ok = (S->dirs[tr] & DBIT(st->dir)) != 0;
            if (ok && P->final_aux) since = final_aux(st, P, tr)->since;
        }
        for (int g = 0; ok && g < S->ngroups; g++) {
            uint32_t h = st->held & S->groups[g];
            ok = h != 0;
            for (int b = FG_IN_FIRST_BUTTON; ok && b < FG_INPUT_MAX_ACTIONS; b++)
                if ((h & BIT(b)) && (since == INT64_MAX || press_time(m, P->frozen, b) > since))
                    since = press_time(m, P->frozen, b);
        }
        if (!ok) continue;
        if (S->min_hold > 0) { /* held through `since`..now, both ticks included */
            int64_t held = since == INT64_MAX ? 0 : now_of(m, P->frozen) - since + 1;
            if (held < S->min_hold) continue;
        }
        cand *c = &m->cands[m->ncand++];
        memset(c, 0, sizeof *c);
        c->pattern = pid;
        c->replaces = FG_MOTION_NONE;
        c->track = (uint8_t)tr;
        c->facing = st->facing;
        c->level = 1;
        c->spec = P->spec;
        c->t = now_of(m, P->frozen);
        c->last = UINT64_MAX;
    }
}

static int cand_cmp(const fg_motion_set *set, const cand *a, const cand *b) {
    int r = rank_cmp2(&set->patterns[a->pattern], a->pattern, a->spec, a->skipped,
                      &set->patterns[b->pattern], b->pattern, b->spec, b->skipped);
    if (r) return r;
    return a->last < b->last ? -1 : a->last > b->last;
}

/* Flags mode: would candidate c complete P again from inputs P's last completion used? */
static bool reuses_own(const fg_motion_state *st, const cpattern *P, const cand *c) {
    const mdone *d = done_of(st, P);
    if (!d->valid) return false;
    const mlink *dl = done_links(st, P);
    fg_edge_id last = 0, first = UINT64_MAX;
    for (int i = 0; i < d->nedges; i++) /* c->last is this tick's edge: newer than all of them */
        if (link_id(dl[i].id, c->last) > last) last = link_id(dl[i].id, c->last);
    for (int i = 0; i < c->nedges; i++)
        if (c->chain[i].id && c->chain[i].id < first) first = c->chain[i].id;
    return first <= last;
}

/* Flags mode: is a command of that name among out[0..n) already? */
static bool name_listed(const fg_motion_set *set, const fg_motion_command *out, uint32_t n,
                        const char *name) {
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(set->patterns[out[i].motion].name, name) == 0) return true;
    return false;
}

static bool done_has(const fg_motion_state *st, const cpattern *Q, fg_edge_id id) {
    const mdone *d = done_of(st, Q);
    const mlink *dl = done_links(st, Q);
    for (int i = 0; d->valid && i < d->nedges; i++)
        if (dl[i].id == (uint32_t)id) return true;
    return false;
}

static void fill_command(const fg_motion_set *set, fg_motion_command *c, uint16_t pid,
                         const wlink *links, int nl, fg_tick tick, uint8_t facing) {
    const cpattern *P = &set->patterns[pid];
    memset(c, 0, sizeof *c);
    c->motion = pid;
    c->beat = FG_MOTION_NONE;
    c->replaces = FG_MOTION_NONE;
    c->why = FG_MOTION_WHY_ALONE;
    c->priority = P->priority;
    c->tick = tick;
    c->facing = facing;
    for (int i = 0; i < nl && c->nedges < FG_MOTION_MAX_EDGES; i++) {
        /* Skipped steps leave 0; one DIR edge may serve two steps (~D then DF on 2 -> 3). */
        if (!links[i].id || (c->nedges && c->edges[c->nedges - 1] == links[i].id)) continue;
        c->edges[c->nedges] = links[i].id;
        c->edge_ticks[c->nedges] = links[i].tick;
        c->nedges++;
    }
}

/* Step 2 of fg_motion_step: the tick's context, its clocks advanced. */
static inline void begin_step(mctx *m, const fg_motion_set *set, fg_motion_state *st,
                              fg_buffer *buf, const fg_tick_input *in,
                              const fg_motion_ctx *ctx) {
    m->set = set;
    m->st = st;
    m->buf = buf;
    m->prof = ctx && ctx->profile ? ctx->profile : &standard_profile;
    m->now = in->tick;
    m->prev_tick = st->last_tick;
    m->prev_clock = st->clock;
    m->clock_now = st->clock + (in->tick - st->last_tick - 1) + (ctx && ctx->frozen ? 0 : 1);
    m->ncand = 0;
    m->dirty = false;
    m->flags = set->mode == FG_MOTION_MODE_FLAGS;
    st->facing = buf->facing;
}

/* fg_motion_step on a tick with no edge, no level step and no live command: what the full step
** does then (the clocks, the sweep), without its frame. */
static void quiet_step(const fg_motion_set *set, fg_motion_state *st, fg_buffer *buf,
                       const fg_tick_input *in, const fg_motion_ctx *ctx) {
    mctx m;
    begin_step(&m, set, st, buf, in, ctx);
    st->last_tick = in->tick;
    st->clock = m.clock_now;
    if (sweep(&m)) st->region_stale |= REGION_PARTS;
}

/* One tick of the matcher, the hot path of the input layer:
**   1. check the call (a state of another set, a tick that is not newer: refused, nothing
**      changes);
**   2. advance the clocks: `clock` counts unfrozen ticks, so patterns declared `frozen = skip`
**      do not see hitstop pass;
**   3. feed each new edge of the tick to the steps the edge index lists for it (process_edge ->
**      run_entries -> try_step): cost follows the edges, not the number of motions;
**   4. level steps (`/D` held) are checked once per tick, then expired matches swept;
**   5. rank the tick's candidates and accept them best first: in consume mode a candidate that
**      shares an edge with a better one loses to it (and says so), in flag mode each name
**      fires once; accepted commands consume their edges and are remembered as done;
**   6. re-assert commands whose buffer is still live, so a request can wait for its window. */
fg_status fg_motion_step(const fg_motion_set *set, fg_motion_state *st, fg_buffer *buf,
                         const fg_tick_input *in, const fg_motion_ctx *ctx,
                         fg_motion_command *out, uint32_t max, uint32_t *nout, fg_error *err) {
    if (nout) *nout = 0;
    if (!set || !st || !buf || !in)
        return fg_error_set(err, FG_EINVAL, "motion step: set, state, buffer and input are "
                            "required");
    if (st->set_hash != set->hash || st->size != set->state_size)
        return fg_error_set(err, FG_EMISMATCH,
                            "motion step: the state was initialised for another motion set "
                            "(hash %016llx, expected %016llx); re-initialise it after a reload",
                            (unsigned long long)st->set_hash, (unsigned long long)set->hash);
    if (in->tick <= st->last_tick)
        return fg_error_set(err, FG_ESTATE,
                            "motion step: tick %lld is not after the last stepped tick %lld",
                            (long long)in->tick, (long long)st->last_tick);
    if (max && !out)
        return fg_error_set(err, FG_EINVAL, "motion step: out is NULL but max is %u", max);
    if (ctx && ctx->profile) {
        fg_status s = fg_motion_profile_check(ctx->profile, err);
        if (s != FG_OK) return s;
    }
    /* Most ticks: no edge, no level step, no live command: the clocks and the sweep only. */
    if (in->count == 0 && !set->nlevels && !st->nlive) {
        quiet_step(set, st, buf, in, ctx);
        if (nout) *nout = 0;
        return FG_OK;
    }
    mctx m;
    begin_step(&m, set, st, buf, in, ctx);
    for (uint32_t i = 0; i < in->count; i++) {
        const fg_edge *e = fg_buffer_at(buf, in->first + i);
        if (!e) break;
        process_edge(&m, e, in->first + i);
    }
    if (set->nlevels) level_candidates(&m);
    st->last_tick = in->tick;
    st->clock = m.clock_now;
    /* Whether anything the region hash covers may change this tick: new edges, candidates, or an
    ** expiry (of a partial match here, of a command's buffer below). A command its buffer still
    ** asserts changes nothing while it stays asserted. */
    bool changed = m.dirty || m.ncand > 0;
    changed |= sweep(&m);
    uint32_t n = 0;
    if (m.ncand) {
        /* Best first; a candidate sharing an edge with a better one loses to it. */
        int order[MAX_CAND];
        for (uint32_t i = 0; i < m.ncand; i++) order[i] = (int)i;
        for (uint32_t i = 1; i < m.ncand; i++)
            for (uint32_t j = i; j > 0 && cand_cmp(set, &m.cands[order[j]],
                                                   &m.cands[order[j - 1]]) < 0; j--) {
                int tmp = order[j];
                order[j] = order[j - 1];
                order[j - 1] = tmp;
            }
        int acc[MAX_CAND];
        uint8_t acc_why[MAX_CAND];
        uint16_t acc_beat[MAX_CAND];
        int nacc = 0;
        fg_edge_id taken[MAX_CAND * FG_MOTION_MAX_EDGES];
        int taken_by[MAX_CAND * FG_MOTION_MAX_EDGES];
        int ntaken = 0;
        for (uint32_t oi = 0; oi < m.ncand; oi++) {
            const cand *c = &m.cands[order[oi]];
            const cpattern *P = &set->patterns[c->pattern];
            mmiss *ms = final_miss(st, P, c->track);
            int loser_of = -1;
            bool dup = false;
            for (int a = 0; a < nacc; a++) {
                const cand *w = &m.cands[acc[a]];
                if (w->pattern == c->pattern) dup = true;
                else if (strcmp(set->patterns[w->pattern].name, P->name) == 0) loser_of = a;
            }
            if (dup) continue; /* the same pattern twice in one tick: the first counts */
            if (m.flags) {
                /* One command per name (alternatives), and a command never completes again
                ** from inputs it already used (MUGEN restarts a command once it completes). */
                if (loser_of >= 0 || (!c->level && reuses_own(st, P, c))) continue;
                if ((uint32_t)nacc == max) {
                    record(ms, P->time, m.now, P->nsteps - 1, FG_MOTION_FAIL_LOST, 0, 0,
                           FG_MOTION_NONE, c->track);
                    continue;
                }
                acc[nacc] = order[oi];
                acc_why[nacc] = FG_MOTION_WHY_ALONE;
                acc_beat[nacc] = FG_MOTION_NONE;
                nacc++;
                continue;
            }
            /* Inputs another command or layer already took. */
            int consumed_other = -1;
            bool consumed = false;
            for (int i = 0; i < c->nedges && !consumed; i++) {
                if (!c->chain[i].id) continue;
                const fg_edge *x = fg_buffer_find(buf, c->chain[i].id);
                if (!x || !(x->flags & FG_EDGE_CONSUMED)) continue;
                if (c->replaces != FG_MOTION_NONE &&
                    done_has(st, &set->patterns[c->replaces], c->chain[i].id))
                    continue;
                consumed = true;
                for (uint32_t q = 0; q < set->npatterns; q++)
                    if (done_has(st, &set->patterns[q], c->chain[i].id)) {
                        consumed_other = (int)q;
                        break;
                    }
            }
            if (consumed) {
                record(ms, P->time, m.now, P->nsteps - 1, FG_MOTION_FAIL_CONSUMED, 0, 0,
                       consumed_other >= 0 ? (uint16_t)consumed_other : FG_MOTION_NONE,
                       c->track);
                continue;
            }
            for (int i = 0; i < c->nedges && loser_of < 0; i++)
                for (int t = 0; t < ntaken; t++)
                    if (c->chain[i].id && taken[t] == c->chain[i].id) {
                        loser_of = taken_by[t];
                        break;
                    }
            if (loser_of >= 0) {
                const cand *w = &m.cands[acc[loser_of]];
                const cpattern *W = &set->patterns[w->pattern];
                uint8_t why = why_between(W, w->spec, w->skipped, P, c->spec, c->skipped);
                if (acc_beat[loser_of] == FG_MOTION_NONE) {
                    acc_beat[loser_of] = c->pattern;
                    acc_why[loser_of] = why;
                }
                record(ms, P->time, m.now, P->nsteps - 1, FG_MOTION_FAIL_LOST, why, 0, w->pattern,
                       c->track);
                continue;
            }
            if ((uint32_t)nacc == max) {
                record(ms, P->time, m.now, P->nsteps - 1, FG_MOTION_FAIL_LOST, 0, 0, FG_MOTION_NONE,
                       c->track);
                continue;
            }
            acc[nacc] = order[oi];
            acc_why[nacc] = FG_MOTION_WHY_ALONE;
            acc_beat[nacc] = FG_MOTION_NONE;
            for (int i = 0; i < c->nedges; i++)
                if (c->chain[i].id) {
                    taken[ntaken] = c->chain[i].id;
                    taken_by[ntaken] = nacc;
                    ntaken++;
                }
            nacc++;
        }
        for (int a = 0; a < nacc; a++) {
            const cand *c = &m.cands[acc[a]];
            const cpattern *P = &set->patterns[c->pattern];
            fg_motion_command *cmd = &out[n++];
            fill_command(set, cmd, c->pattern, c->chain, c->nedges, m.now, c->facing);
            cmd->why = acc_why[a];
            cmd->beat = acc_beat[a];
            if (c->level) cmd->flags |= FG_MOTION_CMD_LEVEL;
            if (c->replaces != FG_MOTION_NONE) {
                cmd->flags |= FG_MOTION_CMD_UPGRADE;
                cmd->replaces = c->replaces;
                mdone *rd = done_of(st, &set->patterns[c->replaces]);
                if (rd->live) {
                    rd->live = 0;
                    st->nlive--;
                    fg_motion_done_written(set, st, c->replaces);
                }
            }
            for (int i = 0; i < cmd->nedges && !m.flags; i++) {
                fg_edge_ref ref = {cmd->edges[i]};
                (void)fg_buffer_consume(buf, ref, NULL); /* an upgrade's edge is consumed already */
            }
            for (int tr = 0; tr < P->ntracks; tr++) /* it fired: old misses are history */
                memset(final_miss(st, P, tr), 0, sizeof(mmiss));
            if (c->level) continue;
            mdone *d = done_of(st, P);
            if (d->live) st->nlive--;
            d->valid = 1;
            bit_set(done_bits(st, set), c->pattern);
            d->live = P->buffer > 1;
            if (d->live) st->nlive++;
            d->tick = m.now;
            d->time = c->t;
            d->beat = cmd->beat;
            d->replaces = cmd->replaces;
            d->why = cmd->why;
            d->facing = cmd->facing;
            d->flags = cmd->flags;
            d->nedges = cmd->nedges;
            mlink *dl = done_links(st, P);
            for (int i = 0; i < cmd->nedges; i++)
                dl[i] = narrow((wlink){cmd->edges[i], cmd->edge_ticks[i]});
            fg_motion_done_written(set, st, c->pattern);
        }
        uint16_t owners[MAX_CAND * FG_MOTION_MAX_EDGES];
        for (int i = 0; i < ntaken; i++) owners[i] = m.cands[acc[taken_by[i]]].pattern;
        invalidate(&m, taken, owners, ntaken);
    }
    /* Commands still asserted by their buffer. */
    if (st->nlive) {
        for (uint32_t p = 0; p < set->npatterns; p++) {
            const cpattern *P = &set->patterns[p];
            mdone *d = done_of(st, P);
            if (!d->live || d->tick == m.now) continue;
            int64_t age = now_of(&m, P->frozen) - d->time;
            if (age >= P->buffer) {
                d->live = 0;
                st->nlive--;
                fg_motion_done_written(set, st, p);
                continue;
            }
            if (n == max || (m.flags && name_listed(set, out, n, P->name))) continue;
            fg_motion_command *cmd = &out[n++];
            /* A done record's links are edges, never skipped steps. */
            const mlink *dl = done_links(st, P);
            wlink links[FG_MOTION_MAX_EDGES];
            int nl = d->nedges < FG_MOTION_MAX_EDGES ? d->nedges : FG_MOTION_MAX_EDGES;
            for (int i = 0; i < nl; i++) {
                links[i].id = link_id(dl[i].id, newest_id(buf));
                links[i].tick = link_tick(dl[i].tick, d->tick);
            }
            fill_command(set, cmd, (uint16_t)p, links, nl, d->tick, d->facing);
            /* Expiry follows the pattern's clock; the age reported is in ticks, so a command
            ** re-asserted through hitstop never looks new. */
            int64_t ticks = m.now - d->tick;
            cmd->age = (uint16_t)(ticks > 65535 ? 65535 : ticks);
            cmd->why = d->why;
            cmd->beat = d->beat;
            cmd->replaces = d->replaces;
            cmd->flags = d->flags;
        }
    }
    if (changed) st->region_stale |= REGION_PARTS;
    if (nout) *nout = n;
    return FG_OK;
}

void fg_motion_retire(const fg_motion_set *set, fg_motion_state *st, uint32_t motion) {
    if (!set || !st || motion >= set->npatterns) return;
    mdone *d = done_of(st, &set->patterns[motion]);
    if (d->live) {
        d->live = 0;
        st->nlive--;
        fg_motion_done_written(set, st, motion);
    }
}

size_t fg_motion_command_format(const fg_motion_set *set, const fg_motion_command *c, char *buf,
                                size_t n) {
    if (!set || c->motion >= set->npatterns) return (size_t)snprintf(buf, n, "(no motion)");
    const cpattern *P = &set->patterns[c->motion];
    char title[200], other[200], why[96];
    pattern_title(P, title, sizeof title);
    size_t o = 0;
    if (n) buf[0] = '\0';
    fg_text_append(buf, n, &o, "%s on tick %lld", title, (long long)c->tick);
    if (c->age) fg_text_append(buf, n, &o, " (buffered, age %u)", c->age);
    if (c->flags & FG_MOTION_CMD_LEVEL) fg_text_append(buf, n, &o, " (held)");
    if (c->beat != FG_MOTION_NONE && c->beat < set->npatterns) {
        const cpattern *L = &set->patterns[c->beat];
        pattern_title(L, other, sizeof other);
        why_text(why, sizeof why, c->why, P, P->spec, L, L->spec);
        fg_text_append(buf, n, &o, " won over %s: %s", other, why);
    }
    if (c->replaces != FG_MOTION_NONE && c->replaces < set->npatterns) {
        pattern_title(&set->patterns[c->replaces], other, sizeof other);
        fg_text_append(buf, n, &o, ", replaces %s", other);
    }
    return o;
}

/* }====================================================================== */
