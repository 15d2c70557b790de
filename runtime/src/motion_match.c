/*
** motion_match.c: steps to a compiled set, the incremental matcher, arbitration between commands
** completing on the same tick, near-miss explanations, lint and the script runner.
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
*/
#include "motion_internal.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIT(a) (1u << (a))
#define DBIT(d) ((uint16_t)(1u << (d)))
#define NO_AUX 0xFFu
#define MAX_CAND 32
#define MAX_FINDINGS 64

/* {====================================================================== state layout */

typedef struct mpart { /* a matched prefix: steps 0..k */
    int64_t t;         /* time of step k (last tick held while open), in the pattern's clock */
    int64_t start;     /* time of step 0 */
    fg_edge_id edge;   /* the edge that completed step k */
    uint8_t valid, open, skipped;
    uint8_t reserved;
    uint16_t taken; /* 1 + the motion whose command used its edges: only a chord ranked above it
                       may still complete from here, within the chord window */
    uint8_t reserved2[2];
} mpart;

typedef struct mlink {
    fg_edge_id id; /* 0: a step skipped by a lenient profile */
    fg_tick tick;
} mlink;

typedef struct maux { /* when the stick last entered a charge or level set */
    int64_t since;
    fg_edge_id edge;
} maux;

typedef struct mmiss { /* diagnostics only: not hashed */
    fg_tick tick;
    int64_t value, limit;
    uint16_t other;
    uint8_t valid, reason, step, facing;
    uint8_t reserved[2];
} mmiss;

typedef struct mdone { /* the last completion; re-asserted while live (buffer) */
    fg_tick tick;
    int64_t time;
    uint16_t beat, replaces;
    uint8_t valid, live, why, facing, nedges, flags;
    uint8_t reserved[6];
} mdone;

struct fg_motion_state {
    uint64_t set_hash;
    uint64_t size;
    fg_tick last_tick;
    int64_t clock; /* unfrozen ticks so far: the clock of FROZEN_SKIP patterns */
    uint32_t held; /* action bits held, as the edges were read */
    uint32_t nlive;
    uint32_t sweep; /* round-robin cursor of the expiry sweep */
    uint8_t dir, facing;
    uint8_t reserved[2];
    fg_tick press_tick[FG_INPUT_MAX_ACTIONS];
    int64_t press_clock[FG_INPUT_MAX_ACTIONS];
    /* The fold of every pattern's and node's hashed fields. The calls that change them mark it
    ** stale; fg_motion_state_refresh recomputes it (a world does at the end of each tick), so a
    ** hash costs the header, and a matcher nobody hashes pays nothing for it. */
    uint64_t region_sum, region_k;
    uint64_t region_stale;
};

/* }====================================================================== */

/* {====================================================================== compiled set */

typedef struct cstep {
    uint8_t trig, flags, ngroups, reserved0;
    uint8_t edge_off, nedges;
    uint8_t reserved[2];
    uint16_t dirs[2], hold[2]; /* absolute sets when read facing right [0] / left [1] */
    uint32_t hold_buttons, buttons;
    uint32_t groups[FG_MOTION_MAX_CHORD];
    int32_t min_hold, gap;
    char label[FG_MOTION_LABEL_MAX];
} cstep;

typedef struct cpattern {
    char name[FG_MOTION_NAME_MAX];
    char notation[FG_MOTION_NOTATION_MAX];
    int32_t priority, time, buffer, charge, gap;
    int32_t spec; /* alternatives accepted over all steps: fewer is more specific */
    uint8_t syntax, frozen, nsteps, ntracks, nedges, has_priority, level, final_aux;
    uint8_t len; /* inputs for ranking: edges plus `/X` holds */
    uint8_t reserved[7];
    uint32_t off;          /* state block of the last completion: mdone, mlink[nedges] */
    uint32_t final_off[2]; /* per track: mmiss, then maux when final_aux */
    uint16_t path[2][FG_MOTION_MAX_STEPS]; /* per track: the node of each non-final step */
    cstep steps[FG_MOTION_MAX_STEPS];
} cpattern;

/* A prefix shared by every (pattern, track) that starts with the same steps read in the same
** screen directions, with the same gaps and clock. */
typedef struct cnode {
    cstep step;      /* its last step, in screen directions: dirs[0] and hold[0] */
    uint16_t parent; /* FG_MOTION_NONE at depth 0 */
    uint8_t depth, frozen, chain_len, has_aux;
    uint8_t chord_child; /* a pattern's final step here is a chord (it may take over a press) */
    uint8_t reserved;
    int32_t time; /* the largest `time` of the patterns through it: when its match expires */
    uint32_t off; /* state block: mmiss, mpart, mlink[chain_len], maux when has_aux */
} cnode;

enum { R_CLOSE = 0, R_LEAVE = 1, R_ENTER = 2, R_SINCE = 3, R_PRESS = 4, R_RELEASE = 5 };

typedef struct mentry {
    uint16_t target; /* node id, or pattern id for a final step */
    uint8_t role, depth, track, final;
    uint8_t reserved[2];
    uint32_t prev_off;  /* state offset of the parent's mpart (0: first step): most stop here */
    uint32_t prev2_off; /* the grandparent's, when the parent is a skippable diagonal, else 0 */
} mentry;

struct fg_motion_set {
    fg_allocator alloc;
    size_t block_size;
    uint64_t hash;
    size_t state_size;
    uint32_t npatterns, nnodes, nentries, nfindings, nlevels;
    int32_t max_buffer;
    uint8_t mode; /* FG_MOTION_MODE_CONSUME or FG_MOTION_MODE_FLAGS */
    fg_motion_buttons buttons;
    uint32_t dir_first[10][10], dir_count[10][10];
    uint32_t press_first[FG_INPUT_MAX_ACTIONS], press_count[FG_INPUT_MAX_ACTIONS];
    uint32_t release_first[FG_INPUT_MAX_ACTIONS], release_count[FG_INPUT_MAX_ACTIONS];
    cpattern *patterns;
    cnode *nodes;
    mentry *entries;
    fg_motion_finding *findings;
    uint16_t *levels;
    /* Bitmaps in the state of which nodes hold a partial match and which patterns a done
    ** record, and the nodes and patterns that keep an aux record: the hash fold visits only
    ** those, not every node of the trie. */
    uint32_t node_bits_off, done_bits_off;
    uint32_t naux_nodes, naux_patterns;
    uint16_t *aux_nodes, *aux_patterns;
};

static size_t align8(size_t n) { return (n + 7u) & ~(size_t)7u; }

static size_t done_size(const cpattern *P) {
    return sizeof(mdone) + (size_t)P->nedges * sizeof(mlink);
}

static inline uint8_t *at(const fg_motion_state *st, uint32_t off) { return (uint8_t *)st + off; }
static inline mdone *done_of(const fg_motion_state *st, const cpattern *P) {
    return (mdone *)at(st, P->off);
}
static inline mlink *done_links(const fg_motion_state *st, const cpattern *P) {
    return (mlink *)(at(st, P->off) + sizeof(mdone));
}
static inline mmiss *node_miss(const fg_motion_state *st, const cnode *N) {
    return (mmiss *)at(st, N->off);
}
static inline mpart *node_part(const fg_motion_state *st, const cnode *N) {
    return (mpart *)(at(st, N->off) + sizeof(mmiss));
}
static inline mlink *node_chain(const fg_motion_state *st, const cnode *N) {
    return (mlink *)(at(st, N->off) + sizeof(mmiss) + sizeof(mpart));
}
static inline maux *node_aux(const fg_motion_state *st, const cnode *N) {
    return (maux *)((uint8_t *)node_chain(st, N) + (size_t)N->chain_len * sizeof(mlink));
}
static inline size_t node_size(const cnode *N) {
    return sizeof(mmiss) + sizeof(mpart) + (size_t)N->chain_len * sizeof(mlink) +
           (N->has_aux ? sizeof(maux) : 0);
}
static inline mmiss *final_miss(const fg_motion_state *st, const cpattern *P, int tr) {
    return (mmiss *)at(st, P->final_off[tr]);
}
static inline maux *final_aux(const fg_motion_state *st, const cpattern *P, int tr) {
    return (maux *)(at(st, P->final_off[tr]) + sizeof(mmiss));
}
/* The validity bitmaps (see fg_motion_set): set and cleared with every valid flag. */
static inline uint64_t *node_bits(const fg_motion_state *st, const fg_motion_set *set) {
    return (uint64_t *)at(st, set->node_bits_off);
}
static inline uint64_t *done_bits(const fg_motion_state *st, const fg_motion_set *set) {
    return (uint64_t *)at(st, set->done_bits_off);
}
static inline void bit_set(uint64_t *bits, uint32_t i) { bits[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void bit_clear(uint64_t *bits, uint32_t i) {
    bits[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

/* }====================================================================== */

/* {====================================================================== accessors */

uint32_t fg_motion_count(const fg_motion_set *set) { return set ? set->npatterns : 0; }

const char *fg_motion_name(const fg_motion_set *set, uint32_t id) {
    return set && id < set->npatterns ? set->patterns[id].name : NULL;
}

const char *fg_motion_notation(const fg_motion_set *set, uint32_t id) {
    return set && id < set->npatterns ? set->patterns[id].notation : NULL;
}

int fg_motion_find(const fg_motion_set *set, const char *name) {
    for (uint32_t i = 0; set && name && i < set->npatterns; i++)
        if (strcmp(set->patterns[i].name, name) == 0) return (int)i;
    return -1;
}

const fg_motion_buttons *fg_motion_set_buttons(const fg_motion_set *set) {
    return &set->buttons;
}

uint64_t fg_motion_set_hash(const fg_motion_set *set) { return set->hash; }

const fg_motion_finding *fg_motion_lint(const fg_motion_set *set, uint32_t *count) {
    if (count) *count = set->nfindings;
    return set->findings;
}

size_t fg_motion_state_size(const fg_motion_set *set) { return set->state_size; }

/* "hadouken (236P)", or "236P" when the name is the notation. */
static void pattern_title(const cpattern *P, char *buf, size_t n) {
    if (strcmp(P->name, P->notation) == 0) snprintf(buf, n, "%s", P->notation);
    else snprintf(buf, n, "%s (%s)", P->name, P->notation);
}

/* }====================================================================== */

/* {====================================================================== ranking */

/* Rank of a completion: priority, then inputs, then specificity, then id. A completion that
** skipped steps (lenient profile) has that many fewer inputs; spec carries the skips too. */
static int rank_cmp2(const cpattern *a, uint16_t ia, int32_t spec_a, int skip_a, const cpattern *b,
                     uint16_t ib, int32_t spec_b, int skip_b) {
    if (a->priority != b->priority) return a->priority > b->priority ? -1 : 1;
    if (a->len - skip_a != b->len - skip_b) return a->len - skip_a > b->len - skip_b ? -1 : 1;
    if (spec_a != spec_b) return spec_a < spec_b ? -1 : 1;
    if (ia != ib) return ia < ib ? -1 : 1;
    return 0;
}

static int rank_cmp(const cpattern *a, uint16_t ia, int32_t spec_a, const cpattern *b,
                    uint16_t ib, int32_t spec_b) {
    if (a->priority != b->priority) return a->priority > b->priority ? -1 : 1;
    if (a->len != b->len) return a->len > b->len ? -1 : 1;
    if (spec_a != spec_b) return spec_a < spec_b ? -1 : 1;
    if (ia != ib) return ia < ib ? -1 : 1;
    return 0;
}

static uint8_t why_between(const cpattern *w, int32_t sw, int kw, const cpattern *l, int32_t sl,
                           int kl) {
    if (w->priority != l->priority) return FG_MOTION_WHY_PRIORITY;
    if (w->len - kw != l->len - kl) return FG_MOTION_WHY_LENGTH;
    if (sw != sl) return FG_MOTION_WHY_SPECIFICITY;
    return FG_MOTION_WHY_ORDER;
}

static int why_text(char *buf, size_t n, uint8_t why, const cpattern *w, int32_t sw,
                    const cpattern *l, int32_t sl) {
    switch (why) {
    case FG_MOTION_WHY_PRIORITY:
        return snprintf(buf, n, "priority %d > %d", (int)w->priority, (int)l->priority);
    case FG_MOTION_WHY_LENGTH:
        return snprintf(buf, n, "more inputs (%d > %d)", w->len, l->len);
    case FG_MOTION_WHY_SPECIFICITY:
        return snprintf(buf, n, "more specific (%d alternatives < %d)", (int)sw, (int)sl);
    case FG_MOTION_WHY_ORDER:
        return snprintf(buf, n, "everything equal, lower id");
    default:
        return snprintf(buf, n, "alone");
    }
}

/* }====================================================================== */

/* {====================================================================== compile */

/* A charge (`[4]`, `~30B`) or timed hold-only step remembers when its set was entered. */
static bool needs_aux(const cstep *c) {
    return (c->trig == FG_MT_LEAVE && c->min_hold > 0) ||
           (c->trig == FG_MT_LEVEL && (c->dirs[0] | c->dirs[1]) && c->min_hold > 0);
}

static bool dir_trig(uint8_t trig) {
    return trig == FG_MT_HOLD || trig == FG_MT_ENTER || trig == FG_MT_LEAVE;
}

static int popcount32(uint32_t v) {
    int n = 0;
    while (v) {
        v &= v - 1;
        n++;
    }
    return n;
}

/* Fills a compiled pattern from a def and its steps; layout offsets are set later. */
static fg_status build_pattern(const fg_motion_def *d, const fg_mir *ir, cpattern *P,
                               fg_error *err) {
    memset(P, 0, sizeof *P);
    snprintf(P->name, sizeof P->name, "%s", d->name);
    snprintf(P->notation, sizeof P->notation, "%s", d->notation);
    P->priority = d->has_priority ? d->priority : 0;
    P->has_priority = d->has_priority;
    P->time = d->time > 0 ? d->time : ir->time_default > 0 ? ir->time_default
                                                           : FG_MOTION_DEFAULT_TIME;
    P->buffer = d->buffer > 0 ? d->buffer : FG_MOTION_DEFAULT_BUFFER;
    P->charge = d->charge > 0 ? d->charge : FG_MOTION_DEFAULT_CHARGE;
    P->gap = d->gap;
    P->frozen =
        d->frozen == FG_MOTION_FROZEN_COUNT ? FG_MOTION_FROZEN_COUNT : FG_MOTION_FROZEN_SKIP;
    P->syntax = ir->syntax;
    P->nsteps = ir->nsteps;
    bool two = false;
    int edges = 0;
    for (uint8_t k = 0; k < ir->nsteps; k++) {
        const fg_mstep *m = &ir->steps[k];
        cstep *c = &P->steps[k];
        c->trig = m->trig;
        c->flags = m->flags;
        c->ngroups = m->ngroups;
        for (int f = 0; f < 2; f++) {
            uint16_t rel = f ? fg_motion_mirror_set(m->dirs_rel) : m->dirs_rel;
            uint16_t hrel = f ? fg_motion_mirror_set(m->hold_rel) : m->hold_rel;
            c->dirs[f] = (uint16_t)(rel | m->dirs_abs);
            c->hold[f] = (uint16_t)(hrel | m->hold_abs);
        }
        if (fg_motion_mirror_set(m->dirs_rel) != m->dirs_rel ||
            fg_motion_mirror_set(m->hold_rel) != m->hold_rel)
            two = true;
        c->hold_buttons = m->hold_buttons;
        for (int g = 0; g < m->ngroups; g++) {
            c->groups[g] = m->groups[g];
            c->buttons |= m->groups[g];
        }
        c->min_hold = m->min_hold;
        c->gap = m->gap;
        memcpy(c->label, m->label, sizeof c->label);
        c->edge_off = (uint8_t)edges;
        /* A charge uses its release edge only: the hold before it is a condition (like a
        ** '/X' hold), so an earlier command that used the press cannot block the charge. */
        c->nedges = m->trig == FG_MT_LEVEL || m->trig == FG_MT_NEVER
                        ? 0
                        : (uint8_t)(m->trig == FG_MT_PRESS || m->trig == FG_MT_RELEASE
                                        ? m->ngroups
                                        : 1);
        edges += c->nedges;
        if (dir_trig(c->trig) || c->trig == FG_MT_LEVEL) P->spec += popcount32(c->dirs[0]);
        for (int g = 0; g < c->ngroups; g++) P->spec += popcount32(c->groups[g]);
    }
    if (edges > FG_MOTION_MAX_EDGES) {
        char q[200];
        fg_motion_quote(q, sizeof q, d->notation);
        return fg_error_set(err, FG_EINVAL, "%s: %s uses %d inputs, at most %d are supported",
                            d->name, q, edges, FG_MOTION_MAX_EDGES);
    }
    P->nedges = (uint8_t)edges;
    P->len = (uint8_t)edges;
    for (uint8_t k = 0; k < ir->nsteps; k++)
        if (ir->steps[k].hold_rel || ir->steps[k].hold_abs || ir->steps[k].hold_buttons) P->len++;
    P->ntracks = two ? 2 : 1;
    P->level = ir->nsteps == 1 && ir->steps[0].trig == FG_MT_LEVEL;
    if (P->level) P->buffer = 1; /* as MUGEN: hold-only commands are never buffered */
    P->final_aux = needs_aux(&P->steps[P->nsteps - 1]);
    return FG_OK;
}

static fg_status check_def(const fg_motion_def *d, uint32_t i, fg_error *err) {
    const char *nm = d->name;
    if (!nm || !nm[0] || strlen(nm) >= FG_MOTION_NAME_MAX)
        return fg_error_set(err, FG_EINVAL, "motions[%u]: name '%s' must be 1 to %d characters",
                            i + 1, nm ? nm : "", FG_MOTION_NAME_MAX - 1);
    if (!d->notation)
        return fg_error_set(err, FG_EINVAL, "%s: notation missing, expected a string such as "
                            "\"236P\"", nm);
    struct {
        const char *field;
        int32_t v;
        int32_t lo;
    } nums[] = {{"time", d->time, 0}, {"buffer", d->buffer, 0}, {"gap", d->gap, 0},
                {"charge", d->charge, 0}};
    for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++)
        if (nums[k].v < nums[k].lo || nums[k].v > FG_MOTION_MAX_TICKS)
            return fg_error_set(err, FG_EINVAL, "%s.%s: %d, expected 1..%d ticks (0 = default)",
                                nm, nums[k].field, (int)nums[k].v, FG_MOTION_MAX_TICKS);
    for (int k = 0; k + 1 < FG_MOTION_MAX_STEPS; k++)
        if (d->gaps[k] < 0 || d->gaps[k] > FG_MOTION_MAX_TICKS)
            return fg_error_set(err, FG_EINVAL, "%s.gaps[%d]: %d, expected 1..%d ticks "
                                "(0 = default)", nm, k + 1, (int)d->gaps[k], FG_MOTION_MAX_TICKS);
    if (d->has_priority && (d->priority < -1000000 || d->priority > 1000000))
        return fg_error_set(err, FG_EINVAL, "%s.priority: %d, expected -1000000..1000000", nm,
                            (int)d->priority);
    if ((unsigned)d->frozen > FG_MOTION_FROZEN_COUNT)
        return fg_error_set(err, FG_EINVAL, "%s.frozen: %d, expected skip or count", nm,
                            (int)d->frozen);
    if ((unsigned)d->syntax > FG_MOTION_MUGEN)
        return fg_error_set(err, FG_EINVAL, "%s.syntax: %d, expected auto, numpad or mugen", nm,
                            (int)d->syntax);
    return FG_OK;
}

typedef struct sort_item {
    const fg_motion_def *def;
    uint32_t index, alt; /* the def's place in the caller's list; its alternative */
} sort_item;

static int cmp_defs(const void *a, const void *b) {
    const sort_item *x = a, *y = b;
    int c = strcmp(x->def->name, y->def->name);
    if (c) return c;
    c = strcmp(x->def->notation, y->def->notation);
    if (c) return c;
    if (x->index != y->index) return x->index < y->index ? -1 : 1;
    return x->alt < y->alt ? -1 : x->alt > y->alt;
}

static int entry_phase(uint8_t role) { return role == R_CLOSE || role == R_LEAVE ? 0 : 1; }

/* Within a phase, deeper steps first: an edge must not complete a step and then, through the
** match it just made, the next step too (a leave and an enter of one edge are two phases). */
static int cmp_entries(const void *a, const void *b) {
    const mentry *x = a, *y = b;
    int px = entry_phase(x->role), py = entry_phase(y->role);
    if (px != py) return px - py;
    if (x->depth != y->depth) return y->depth - x->depth;
    if (x->final != y->final) return x->final - y->final;
    if (x->target != y->target) return x->target < y->target ? -1 : 1;
    if (x->track != y->track) return x->track - y->track;
    return x->role - y->role;
}

static bool same_step(const cstep *a, const cstep *b) {
    if (a->trig != b->trig || a->flags != b->flags || a->ngroups != b->ngroups ||
        a->dirs[0] != b->dirs[0] || a->hold[0] != b->hold[0] ||
        a->hold_buttons != b->hold_buttons || a->min_hold != b->min_hold || a->gap != b->gap ||
        a->nedges != b->nedges)
        return false;
    for (int g = 0; g < a->ngroups; g++)
        if (a->groups[g] != b->groups[g]) return false;
    return true;
}

/* Builds the trie of non-final steps. nodes has room for every non-final step of every track. */
static uint32_t build_nodes(cpattern *pats, uint32_t np, cnode *nodes) {
    uint32_t nn = 0;
    for (uint32_t p = 0; p < np; p++) {
        cpattern *P = &pats[p];
        for (int tr = 0; tr < 2; tr++)
            for (int k = 0; k < FG_MOTION_MAX_STEPS; k++) P->path[tr][k] = FG_MOTION_NONE;
        for (uint8_t tr = 0; tr < P->ntracks; tr++) {
            uint16_t parent = FG_MOTION_NONE;
            for (int k = 0; k + 1 < P->nsteps; k++) {
                cstep rs = P->steps[k];
                rs.dirs[0] = rs.dirs[1] = P->steps[k].dirs[tr];
                rs.hold[0] = rs.hold[1] = P->steps[k].hold[tr];
                uint32_t found = nn;
                for (uint32_t i = 0; i < nn; i++)
                    if (nodes[i].parent == parent && nodes[i].frozen == P->frozen &&
                        same_step(&nodes[i].step, &rs)) {
                        found = i;
                        break;
                    }
                if (found == nn) {
                    cnode *N = &nodes[nn++];
                    memset(N, 0, sizeof *N);
                    N->step = rs;
                    N->parent = parent;
                    N->depth = (uint8_t)k;
                    N->frozen = P->frozen;
                    N->chain_len = (uint8_t)(rs.edge_off + rs.nedges);
                    N->has_aux = needs_aux(&rs);
                }
                if (P->time > nodes[found].time) nodes[found].time = P->time;
                P->path[tr][k] = (uint16_t)found;
                parent = (uint16_t)found;
            }
        }
    }
    return nn;
}

/* Visits every index entry: lists 0..99 are prev*10+dir transitions, 100+b button presses,
** 200+b releases. */
typedef void (*entry_fn)(void *ud, int list, const mentry *e);

static void step_entries(const cstep *S, int f, bool has_aux, bool closes, mentry proto,
                         entry_fn fn, void *ud) {
    uint16_t A = S->dirs[f];
    for (int a = 1; a <= 9; a++)
        for (int z = 1; z <= 9; z++) {
            if (a == z) continue;
            bool ina = A & DBIT(a), inz = A & DBIT(z);
            bool enter = !ina && inz, leave = ina && !inz;
            int list = a * 10 + z;
            mentry e = proto;
            switch (S->trig) {
            case FG_MT_HOLD:
                if (enter) e.role = R_ENTER, fn(ud, list, &e);
                if (leave && closes) e.role = R_CLOSE, fn(ud, list, &e);
                break;
            case FG_MT_ENTER:
                if (enter) e.role = R_ENTER, fn(ud, list, &e);
                break;
            case FG_MT_LEAVE:
                if (leave) e.role = R_LEAVE, fn(ud, list, &e);
                if (enter && has_aux) e.role = R_SINCE, fn(ud, list, &e);
                break;
            case FG_MT_LEVEL:
                if (enter && has_aux) e.role = R_SINCE, fn(ud, list, &e);
                break;
            default:
                break;
            }
        }
    if (S->trig == FG_MT_PRESS || S->trig == FG_MT_RELEASE)
        for (int btn = FG_IN_FIRST_BUTTON; btn < FG_INPUT_MAX_ACTIONS; btn++)
            if (S->buttons & BIT(btn)) {
                mentry e = proto;
                e.role = S->trig == FG_MT_PRESS ? R_PRESS : R_RELEASE;
                fn(ud, (S->trig == FG_MT_PRESS ? 100 : 200) + btn, &e);
            }
}

static uint32_t part_off(const cnode *N) { return N->off + (uint32_t)sizeof(mmiss); }

static void for_each_entry(const cpattern *pats, uint32_t np, const cnode *nodes, uint32_t nn,
                           entry_fn fn, void *ud) {
    for (uint32_t i = 0; i < nn; i++) {
        const cnode *N = &nodes[i];
        mentry proto;
        memset(&proto, 0, sizeof proto);
        proto.target = (uint16_t)i;
        proto.depth = N->depth;
        if (N->parent != FG_MOTION_NONE) {
            const cnode *par = &nodes[N->parent];
            proto.prev_off = part_off(par);
            if (par->parent != FG_MOTION_NONE && (par->step.flags & FG_MS_SKIPPABLE))
                proto.prev2_off = part_off(&nodes[par->parent]);
        }
        step_entries(&N->step, 0, N->has_aux, true, proto, fn, ud);
    }
    for (uint32_t p = 0; p < np; p++) {
        const cpattern *P = &pats[p];
        int n = P->nsteps;
        for (uint8_t tr = 0; tr < P->ntracks; tr++) {
            mentry proto;
            memset(&proto, 0, sizeof proto);
            proto.target = (uint16_t)p;
            proto.depth = (uint8_t)(n - 1);
            proto.track = tr;
            proto.final = 1;
            if (n >= 2) {
                proto.prev_off = part_off(&nodes[P->path[tr][n - 2]]);
                if (n >= 3 && (P->steps[n - 2].flags & FG_MS_SKIPPABLE))
                    proto.prev2_off = part_off(&nodes[P->path[tr][n - 3]]);
            }
            step_entries(&P->steps[n - 1], tr, P->final_aux, false, proto, fn, ud);
        }
    }
}

typedef struct index_build {
    uint32_t count[300];
    uint32_t first[300];
    uint32_t fill[300];
    mentry *entries;
} index_build;

static void count_entry(void *ud, int list, const mentry *e) {
    (void)e;
    ((index_build *)ud)->count[list]++;
}

static void fill_entry(void *ud, int list, const mentry *e) {
    index_build *ib = ud;
    ib->entries[ib->first[list] + ib->fill[list]++] = *e;
}

static void lint_set(const cpattern *pats, uint32_t np, uint8_t mode, fg_motion_finding *out,
                     uint32_t *nout);

static uint64_t hash_set(const fg_motion_buttons *b, const cpattern *pats, uint32_t np,
                         uint8_t mode) {
    fg_hasher hs = fg_hasher_begin(0x6d6f74696f6eull);
    if (mode == FG_MOTION_MODE_FLAGS) fg_hash_u64(&hs, mode); /* consume sets hash as before */
    fg_hash_u64(&hs, b->names.count);
    for (uint32_t i = 0; i < b->names.count; i++) fg_hash_str(&hs, b->names.names[i]);
    fg_hash_u64(&hs, b->ngroups);
    for (uint32_t g = 0; g < b->ngroups; g++) {
        fg_hash_str(&hs, b->groups[g].name);
        fg_hash_u64(&hs, b->groups[g].mask);
    }
    fg_hash_u64(&hs, np);
    for (uint32_t p = 0; p < np; p++) {
        const cpattern *P = &pats[p];
        fg_hash_str(&hs, P->name);
        fg_hash_str(&hs, P->notation);
        fg_hash_i64(&hs, P->priority);
        fg_hash_i64(&hs, P->time);
        fg_hash_i64(&hs, P->buffer);
        fg_hash_i64(&hs, P->charge);
        fg_hash_i64(&hs, P->gap);
        fg_hash_u64(&hs, (uint64_t)P->frozen | (uint64_t)P->syntax << 8 |
                             (uint64_t)P->has_priority << 16 | (uint64_t)P->nsteps << 24);
        for (int k = 0; k < P->nsteps; k++) {
            const cstep *S = &P->steps[k];
            fg_hash_u64(&hs, (uint64_t)S->trig | (uint64_t)S->flags << 8 |
                                 (uint64_t)S->ngroups << 16 | (uint64_t)S->dirs[0] << 24 |
                                 (uint64_t)S->dirs[1] << 40);
            fg_hash_u64(&hs, (uint64_t)S->hold[0] | (uint64_t)S->hold[1] << 16 |
                                 (uint64_t)S->hold_buttons << 32);
            for (int g = 0; g < S->ngroups; g++) fg_hash_u64(&hs, S->groups[g]);
            fg_hash_i64(&hs, S->min_hold);
            fg_hash_i64(&hs, S->gap);
        }
    }
    return fg_hasher_end(&hs);
}

/* Scratch memory of one compile, freed on every path. */
typedef struct scratch {
    fg_allocator alloc;
    sort_item *items;
    cpattern *pats;
    cnode *nodes;
    fg_motion_finding *finds;
    index_build *ib;
    size_t nitems, npats_cap, nnodes_cap;
} scratch;

static void scratch_free(scratch *sc) {
    fg_free(&sc->alloc, sc->items, sc->nitems * sizeof *sc->items);
    fg_free(&sc->alloc, sc->pats, sc->npats_cap * sizeof *sc->pats);
    fg_free(&sc->alloc, sc->nodes, sc->nnodes_cap * sizeof *sc->nodes);
    fg_free(&sc->alloc, sc->finds, MAX_FINDINGS * sizeof *sc->finds);
    fg_free(&sc->alloc, sc->ib, sizeof *sc->ib);
}

fg_status fg_motion_set_build(const fg_motion_buttons *buttons, const fg_motion_def *defs,
                              uint32_t ndefs, fg_motion_mode mode, const fg_motion_finding *notes,
                              uint32_t nnotes, const fg_allocator *a, fg_motion_set **out,
                              fg_error *err) {
    if (!buttons || !out || (ndefs && !defs))
        return fg_error_set(err, FG_EINVAL, "motion set: buttons, defs and out are required");
    if (ndefs > FG_MOTION_MAX_PATTERNS)
        return fg_error_set(err, FG_EINVAL, "motions: %u declared, at most %d are supported",
                            ndefs, FG_MOTION_MAX_PATTERNS);
    if ((unsigned)mode > FG_MOTION_MODE_FLAGS)
        return fg_error_set(err, FG_EINVAL, "motion set: mode %d, expected consume or flags",
                            (int)mode);
    if (mode == FG_MOTION_MODE_DEFAULT) mode = FG_MOTION_MODE_CONSUME;
    scratch sc;
    memset(&sc, 0, sizeof sc);
    sc.alloc = a ? *a : fg_allocator_default();
    sc.nitems = (size_t)(ndefs ? ndefs : 1) * FG_MOTION_MAX_ALTS;
    sc.items = fg_alloc(&sc.alloc, sc.nitems * sizeof *sc.items);
    sc.finds = fg_alloc(&sc.alloc, MAX_FINDINGS * sizeof *sc.finds);
    sc.ib = fg_alloc(&sc.alloc, sizeof *sc.ib);
    fg_status s = FG_OK;
    if (!sc.items || !sc.finds || !sc.ib)
        s = fg_error_set(err, FG_ENOMEM, "motion set: out of memory");
    /* Checked and parsed in the caller's order, so the first error is the first bad def. A def
    ** with alternatives (`236P|214P`, a 360) gives one pattern per alternative, all under its
    ** name. */
    uint32_t np = 0;
    fg_mir *alts = sc.items ? fg_alloc(&sc.alloc, FG_MOTION_MAX_ALTS * sizeof *alts) : NULL;
    if (s == FG_OK && !alts) s = fg_error_set(err, FG_ENOMEM, "motion set: out of memory");
    for (uint32_t i = 0; s == FG_OK && i < ndefs; i++) {
        s = check_def(&defs[i], i, err);
        if (s != FG_OK) break;
        uint32_t nalts;
        s = fg_motion_parse_alternatives(defs[i].notation, &defs[i], buttons, alts, &nalts, err);
        if (s != FG_OK) {
            fg_error_prefix(err, "%s", defs[i].name);
            break;
        }
        if (np + nalts > FG_MOTION_MAX_PATTERNS) {
            s = fg_error_set(err, FG_EINVAL, "%s: %u patterns once alternatives are expanded, at "
                             "most %d are supported", defs[i].name, np + nalts,
                             FG_MOTION_MAX_PATTERNS);
            break;
        }
        for (uint32_t k = 0; k < nalts; k++) {
            sc.items[np].def = &defs[i];
            sc.items[np].index = i;
            sc.items[np].alt = k;
            np++;
        }
    }
    if (s == FG_OK) {
        qsort(sc.items, np, sizeof *sc.items, cmp_defs);
        sc.npats_cap = np ? np : 1;
        sc.nnodes_cap = sc.npats_cap * 2 * FG_MOTION_MAX_STEPS;
        sc.pats = fg_alloc(&sc.alloc, sc.npats_cap * sizeof *sc.pats);
        sc.nodes = fg_alloc(&sc.alloc, sc.nnodes_cap * sizeof *sc.nodes);
        if (!sc.pats || !sc.nodes) s = fg_error_set(err, FG_ENOMEM, "motion set: out of memory");
    }
    int32_t max_buffer = 1;
    uint32_t nlevels = 0;
    for (uint32_t i = 0; s == FG_OK && i < np; i++) {
        uint32_t nalts;
        s = fg_motion_parse_alternatives(sc.items[i].def->notation, sc.items[i].def, buttons, alts,
                                         &nalts, err);
        if (s == FG_OK) s = build_pattern(sc.items[i].def, &alts[sc.items[i].alt], &sc.pats[i], err);
        if (s == FG_OK && sc.pats[i].buffer > max_buffer) max_buffer = sc.pats[i].buffer;
        if (s == FG_OK && sc.pats[i].level) nlevels++;
    }
    if (alts) fg_free(&sc.alloc, alts, FG_MOTION_MAX_ALTS * sizeof *alts);
    if (s != FG_OK) {
        scratch_free(&sc);
        return s;
    }
    ndefs = np; /* from here on, one entry per pattern */
    cpattern *pats = sc.pats;
    uint32_t nnodes = build_nodes(pats, ndefs, sc.nodes);
    for (uint32_t p = 0; p < ndefs; p++)
        for (int tr = 0; tr < pats[p].ntracks; tr++)
            if (pats[p].nsteps >= 2 && pats[p].steps[pats[p].nsteps - 1].ngroups > 1)
                sc.nodes[pats[p].path[tr][pats[p].nsteps - 2]].chord_child = 1;
    /* State layout: the header, each pattern's last completion and final-step records, then the
    ** nodes. Every block is a multiple of 8 bytes. */
    size_t off = align8(sizeof(fg_motion_state));
    for (uint32_t p = 0; p < ndefs; p++) {
        pats[p].off = (uint32_t)off;
        off += align8(done_size(&pats[p]));
        for (int tr = 0; tr < pats[p].ntracks; tr++) {
            pats[p].final_off[tr] = (uint32_t)off;
            off += sizeof(mmiss) + (pats[p].final_aux ? sizeof(maux) : 0);
        }
    }
    for (uint32_t i = 0; i < nnodes; i++) {
        sc.nodes[i].off = (uint32_t)off;
        off += align8(node_size(&sc.nodes[i]));
    }
    uint32_t node_bits_off = (uint32_t)off;
    off += 8 * (((size_t)nnodes + 63) / 64);
    uint32_t done_bits_off = (uint32_t)off;
    off += 8 * (((size_t)ndefs + 63) / 64);
    uint32_t naux_nodes = 0, naux_patterns = 0;
    for (uint32_t i = 0; i < nnodes; i++) naux_nodes += sc.nodes[i].has_aux != 0;
    for (uint32_t p = 0; p < ndefs; p++) naux_patterns += pats[p].final_aux != 0;
    index_build *ib = sc.ib;
    for_each_entry(pats, ndefs, sc.nodes, nnodes, count_entry, ib);
    uint32_t nentries = 0;
    for (int l = 0; l < 300; l++) {
        ib->first[l] = nentries;
        nentries += ib->count[l];
    }
    uint32_t nfind = nnotes < MAX_FINDINGS ? nnotes : MAX_FINDINGS;
    if (nfind) memcpy(sc.finds, notes, nfind * sizeof *notes);
    lint_set(pats, ndefs, (uint8_t)mode, sc.finds, &nfind);
    /* One block: the set, patterns, nodes, entries, findings, level ids. */
    size_t o_pat = align8(sizeof(fg_motion_set));
    size_t o_node = align8(o_pat + (size_t)ndefs * sizeof(cpattern));
    size_t o_ent = align8(o_node + (size_t)nnodes * sizeof(cnode));
    size_t o_find = align8(o_ent + (size_t)nentries * sizeof(mentry));
    size_t o_lev = align8(o_find + (size_t)nfind * sizeof(fg_motion_finding));
    size_t o_aux = align8(o_lev + (size_t)nlevels * sizeof(uint16_t));
    size_t total = align8(o_aux + (size_t)(naux_nodes + naux_patterns) * sizeof(uint16_t));
    uint8_t *blk = fg_alloc(&sc.alloc, total);
    if (!blk) {
        scratch_free(&sc);
        return fg_error_set(err, FG_ENOMEM, "motion set: out of memory (%zu bytes)", total);
    }
    fg_motion_set *set = (fg_motion_set *)blk;
    set->alloc = sc.alloc;
    set->block_size = total;
    set->state_size = align8(off);
    set->npatterns = ndefs;
    set->nnodes = nnodes;
    set->nentries = nentries;
    set->nfindings = nfind;
    set->nlevels = nlevels;
    set->max_buffer = max_buffer;
    set->mode = (uint8_t)mode;
    set->buttons = *buttons;
    set->patterns = (cpattern *)(blk + o_pat);
    set->nodes = (cnode *)(blk + o_node);
    set->entries = (mentry *)(blk + o_ent);
    set->findings = (fg_motion_finding *)(blk + o_find);
    set->levels = (uint16_t *)(blk + o_lev);
    set->node_bits_off = node_bits_off;
    set->done_bits_off = done_bits_off;
    set->aux_nodes = (uint16_t *)(blk + o_aux);
    set->aux_patterns = set->aux_nodes + naux_nodes;
    for (uint32_t i = 0; i < nnodes; i++)
        if (sc.nodes[i].has_aux) set->aux_nodes[set->naux_nodes++] = (uint16_t)i;
    for (uint32_t p = 0; p < ndefs; p++)
        if (pats[p].final_aux) set->aux_patterns[set->naux_patterns++] = (uint16_t)p;
    if (ndefs) memcpy(set->patterns, pats, (size_t)ndefs * sizeof *pats);
    if (nnodes) memcpy(set->nodes, sc.nodes, (size_t)nnodes * sizeof *sc.nodes);
    if (nfind) memcpy(set->findings, sc.finds, (size_t)nfind * sizeof *sc.finds);
    ib->entries = set->entries;
    for_each_entry(set->patterns, ndefs, set->nodes, nnodes, fill_entry, ib);
    for (int l = 0; l < 300; l++)
        if (ib->count[l] > 1)
            qsort(set->entries + ib->first[l], ib->count[l], sizeof(mentry), cmp_entries);
    for (int x = 1; x <= 9; x++)
        for (int y = 1; y <= 9; y++) {
            set->dir_first[x][y] = ib->first[x * 10 + y];
            set->dir_count[x][y] = ib->count[x * 10 + y];
        }
    for (int btn = 0; btn < FG_INPUT_MAX_ACTIONS; btn++) {
        set->press_first[btn] = ib->first[100 + btn];
        set->press_count[btn] = ib->count[100 + btn];
        set->release_first[btn] = ib->first[200 + btn];
        set->release_count[btn] = ib->count[200 + btn];
    }
    uint32_t nl = 0;
    for (uint32_t p = 0; p < ndefs; p++)
        if (set->patterns[p].level) set->levels[nl++] = (uint16_t)p;
    set->hash = hash_set(buttons, set->patterns, ndefs, (uint8_t)mode);
    scratch_free(&sc);
    *out = set;
    return FG_OK;
}

fg_status fg_motion_set_compile(const fg_motion_buttons *buttons, const fg_motion_def *defs,
                                uint32_t ndefs, const fg_allocator *a, fg_motion_set **out,
                                fg_error *err) {
    return fg_motion_set_build(buttons, defs, ndefs, FG_MOTION_MODE_CONSUME, NULL, 0, a, out,
                               err);
}

fg_status fg_motion_set_compile_with(const fg_motion_buttons *buttons, const fg_motion_def *defs,
                                     uint32_t ndefs, const fg_motion_options *opts,
                                     const fg_allocator *a, fg_motion_set **out, fg_error *err) {
    return fg_motion_set_build(buttons, defs, ndefs, opts ? opts->mode : FG_MOTION_MODE_DEFAULT,
                               NULL, 0, a, out, err);
}

fg_motion_mode fg_motion_set_mode(const fg_motion_set *set) {
    return (fg_motion_mode)set->mode;
}

void fg_motion_set_free(fg_motion_set *set) {
    if (!set) return;
    fg_allocator alloc = set->alloc;
    fg_free(&alloc, set, set->block_size);
}

/* }====================================================================== */

/* {====================================================================== describe */

static void app_set(char *buf, size_t n, size_t *o, uint16_t right, uint16_t left) {
    bool absolute = right == left && fg_motion_mirror_set(right) != right;
    if (absolute) fg_text_append(buf, n, o, "screen ");
    int count = 0;
    for (int d = 1; d <= 9; d++) count += (right >> d) & 1;
    if (count != 1) fg_text_append(buf, n, o, "{");
    for (int d = 1; d <= 9; d++)
        if (right & DBIT(d)) fg_text_append(buf, n, o, "%d", d);
    if (count != 1) fg_text_append(buf, n, o, "}");
}

static void app_buttons(const fg_motion_set *set, char *buf, size_t n, size_t *o, uint32_t mask) {
    for (uint32_t g = 0; g < set->buttons.ngroups; g++)
        if (set->buttons.groups[g].mask == mask) {
            fg_text_append(buf, n, o, "%s", set->buttons.groups[g].name);
            return;
        }
    bool first = true;
    for (int b = FG_IN_FIRST_BUTTON; b < FG_INPUT_MAX_ACTIONS; b++)
        if (mask & BIT(b)) {
            fg_text_append(buf, n, o, "%s%s", first ? "" : "|", fg_action_names_get(&set->buttons.names, b));
            first = false;
        }
}

/* One step in words, read facing right: `strict leave {147} >= 30 while a`. */
static void app_step(const fg_motion_set *set, char *buf, size_t n, size_t *o, const cstep *S) {
    static const char *const kind[] = {"",       "",      "enter ", "leave ",
                                       "press ", "release ", "held ", "never"};
    if (S->flags & FG_MS_STRICT) fg_text_append(buf, n, o, "strict ");
    fg_text_append(buf, n, o, "%s", kind[S->trig]);
    if (dir_trig(S->trig) || (S->trig == FG_MT_LEVEL && S->dirs[0]))
        app_set(buf, n, o, S->dirs[0], S->dirs[1]);
    for (int g = 0; g < S->ngroups; g++) {
        if (g) fg_text_append(buf, n, o, "+");
        app_buttons(set, buf, n, o, S->groups[g]);
    }
    if (S->flags & FG_MS_SKIPPABLE) fg_text_append(buf, n, o, "?");
    if (S->min_hold > 0) fg_text_append(buf, n, o, " >= %d", (int)S->min_hold);
    if (S->hold[0] || S->hold_buttons) {
        fg_text_append(buf, n, o, " while ");
        if (S->hold[0]) app_set(buf, n, o, S->hold[0], S->hold[1]);
        if (S->hold[0] && S->hold_buttons) fg_text_append(buf, n, o, " ");
        if (S->hold_buttons) app_buttons(set, buf, n, o, S->hold_buttons);
    }
}

size_t fg_motion_describe(const fg_motion_set *set, uint32_t id, char *buf, size_t n) {
    if (!set || id >= set->npatterns) return (size_t)snprintf(buf, n, "(no motion %u)", id);
    const cpattern *P = &set->patterns[id];
    size_t o = 0;
    if (n) buf[0] = '\0';
    fg_text_append(buf, n, &o, "%s:", P->notation);
    for (int k = 0; k < P->nsteps; k++) {
        fg_text_append(buf, n, &o, "%s", k ? " > " : " ");
        app_step(set, buf, n, &o, &P->steps[k]);
    }
    fg_text_append(buf, n, &o, " (%s%s; time %d, buffer %d", P->syntax == FG_MOTION_MUGEN ? "mugen" : "numpad",
        P->ntracks == 2 ? ", facing-relative" : "", (int)P->time, (int)P->buffer);
    bool any_gap = false;
    for (int k = 1; k < P->nsteps; k++) any_gap |= P->steps[k].gap > 0;
    if (any_gap) {
        fg_text_append(buf, n, &o, "; gaps");
        for (int k = 1; k < P->nsteps; k++) fg_text_append(buf, n, &o, " %d", (int)P->steps[k].gap);
    }
    if (P->frozen == FG_MOTION_FROZEN_COUNT) fg_text_append(buf, n, &o, "; counts frozen ticks");
    if (P->has_priority) fg_text_append(buf, n, &o, "; priority %d", (int)P->priority);
    fg_text_append(buf, n, &o, ")");
    return o;
}

/* }====================================================================== */

/* {====================================================================== state */

static void region_update(const fg_motion_set *set, fg_motion_state *st);

void fg_motion_state_init(const fg_motion_set *set, fg_motion_state *st, fg_tick start_tick) {
    memset(st, 0, set->state_size);
    st->set_hash = set->hash;
    st->size = set->state_size;
    st->last_tick = start_tick;
    st->clock = 0;
    st->dir = 5;
    for (int b = 0; b < FG_INPUT_MAX_ACTIONS; b++) st->press_tick[b] = start_tick;
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
    region_update(set, st);
}

/* The world hashes every entity's matcher every tick, and it is the largest part of the world's
** state, so its words go through a fold (fg_fold: independent multiplies summed, base.h) rather
** than a chain of dependent mixes, and validity flags go 64 to a word. Every authoritative field
** is still fed, one at a time. */
static void fold_aux(fg_fold *f, const maux *ax) {
    fg_fold_u64(f, (uint64_t)ax->since);
    fg_fold_u64(f, ax->edge);
}

/* A link as one word: edge id and tick, each in 32 bits (both stay far below 2^32 in any match,
** and a collision would only weaken the hash, never the matcher). */
static inline uint64_t link_word(const mlink *l) {
    return (uint64_t)(uint32_t)l->id | (uint64_t)(uint32_t)l->tick << 32;
}

/* Folds the hashed fields of the patterns with a done record, the nodes with a partial match
** (each with its index, found through the validity bitmaps) and every aux record. */
static void region_fold(const fg_motion_set *set, const fg_motion_state *st, fg_fold *f) {
    const uint64_t *done = done_bits(st, set);
    for (uint32_t w = 0; w < (set->npatterns + 63) / 64; w++)
        for (uint64_t bits = done[w]; bits; bits &= bits - 1) {
            uint32_t p = w * 64 + (uint32_t)__builtin_ctzll(bits);
            const cpattern *P = &set->patterns[p];
            const mdone *d = done_of(st, P);
            fg_fold_u64(f, p);
            fg_fold_u64(f, (uint64_t)d->tick);
            fg_fold_u64(f, (uint64_t)d->time);
            fg_fold_u64(f, (uint64_t)d->beat | (uint64_t)d->replaces << 16 |
                               (uint64_t)d->live << 32 | (uint64_t)d->why << 40 |
                               (uint64_t)d->facing << 48 | (uint64_t)d->flags << 56);
            fg_fold_u64(f, d->nedges);
            const mlink *dl = done_links(st, P);
            for (int i = 0; i < d->nedges; i++) fg_fold_u64(f, link_word(&dl[i]));
        }
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

static void region_update(const fg_motion_set *set, fg_motion_state *st) {
    fg_fold f = fg_fold_begin(0);
    region_fold(set, st, &f);
    st->region_sum = f.sum;
    st->region_k = f.k;
    st->region_stale = 0;
}

void fg_motion_state_refresh(const fg_motion_set *set, fg_motion_state *st) {
    if (st->region_stale) region_update(set, st);
}

void fg_motion_state_hash(const fg_motion_set *set, const fg_motion_state *st, fg_hasher *hs) {
    uint64_t sum = st->region_sum, k = st->region_k;
    if (st->region_stale) { /* not refreshed: fold it here, the same value */
        fg_fold r = fg_fold_begin(0);
        region_fold(set, st, &r);
        sum = r.sum;
        k = r.k;
    }
    fg_fold f = fg_fold_begin(st->set_hash);
    fg_fold_u64(&f, (uint64_t)st->last_tick);
    fg_fold_u64(&f, (uint64_t)st->clock);
    fg_fold_u64(&f, st->held);
    fg_fold_u64(&f, (uint64_t)st->dir | (uint64_t)st->facing << 8 | (uint64_t)st->nlive << 16);
    fg_fold_u64(&f, st->sweep);
    for (uint32_t held = st->held; held; held &= held - 1) {
        int b = __builtin_ctz(held);
        fg_fold_u64(&f, (uint64_t)st->press_tick[b]);
        fg_fold_u64(&f, (uint64_t)st->press_clock[b]);
    }
    fg_fold_u64(&f, sum);
    fg_fold_u64(&f, k);
    fg_hash_fold_end(hs, &f);
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
    fg_fold f = fg_fold_begin(0);
    region_fold(set, st, &f);
    return (f.sum == st->region_sum && f.k == st->region_k) ? 1 : 0;
}

/* }====================================================================== */

/* {====================================================================== matcher */

typedef struct cand {
    uint16_t pattern, replaces;
    uint8_t track, facing, nedges, skipped, level;
    uint8_t reserved[3];
    int32_t spec;
    int64_t t;
    fg_edge_id last;
    mlink chain[FG_MOTION_MAX_EDGES];
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

static const fg_motion_profile standard_profile = {
    "standard", 0, 0, 3, false, FG_SOCD_NEUTRAL, FG_SOCD_UP_WINS};

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

static inline int64_t press_time(const fg_motion_state *st, uint8_t frozen, int b) {
    return frozen == FG_MOTION_FROZEN_COUNT ? st->press_tick[b] : st->press_clock[b];
}

static int64_t gap_limit(const cstep *S, const fg_motion_profile *prof) {
    if (S->gap <= 0) return 0;
    int64_t g = (int64_t)S->gap + prof->gap_extra;
    return g < 1 ? 1 : g;
}

static int64_t time_limit(int32_t time, const fg_motion_profile *prof) {
    int64_t t = (int64_t)time + prof->time_extra;
    return t < 1 ? 1 : t;
}

/* Keeps the deepest failure, or a newer one once the old one is stale. */
static void record(mmiss *ms, int32_t stale_after, fg_tick tick, int step, uint8_t reason,
                   int64_t value, int64_t limit, uint16_t other, uint8_t facing) {
    if (ms->valid && step < ms->step && tick - ms->tick <= stale_after) return;
    ms->valid = 1;
    ms->tick = tick;
    ms->step = (uint8_t)step;
    ms->reason = reason;
    ms->value = value;
    ms->limit = limit;
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
            if (dl[i].id == id) return (int)q;
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
                       const fg_edge *e, uint32_t pos, fg_edge_id after, mlink *links,
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
            mlink tmp = links[j];
            links[j] = links[j - 1];
            links[j - 1] = tmp;
        }
    return true;
}

/* Tries to complete one step with edge e (at buffer position pos): a node's step, which updates
** the node's match, or a pattern's final step, which adds a candidate command. */
static void try_step(mctx *m, const mentry *en, const fg_edge *e, uint32_t pos) {
    const fg_motion_set *set = m->set;
    fg_motion_state *st = m->st;
    if ((e->flags & FG_EDGE_CONSUMED) && !m->flags) return;
    const cpattern *P = NULL;
    const cnode *N = NULL, *prev1 = NULL, *prev2 = NULL;
    const cstep *S;
    int f, depth = en->depth;
    uint8_t frozen;
    int32_t stale;
    mmiss *miss;
    maux *aux;
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
    if (S->min_hold > 0 && (S->trig == FG_MT_LEAVE || S->trig == FG_MT_RELEASE)) {
        int64_t since = S->trig == FG_MT_LEAVE ? aux->since : press_time(st, frozen, e->action);
        int64_t held = t - since;
        if (held < S->min_hold) {
            record(miss, stale, e->tick, depth, FG_MOTION_FAIL_CHARGE, held, S->min_hold,
                   FG_MOTION_NONE, facing);
            return;
        }
    }
    if (S->hold[f] || S->hold_buttons) {
        bool ok = (!S->hold[f] || (S->hold[f] & DBIT(e->dir))) &&
                  (st->held & S->hold_buttons) == S->hold_buttons;
        if (!ok) {
            record(miss, stale, e->tick, depth, FG_MOTION_FAIL_HOLD, e->dir, 0, FG_MOTION_NONE,
                   facing);
            return;
        }
    }
    mlink chord[FG_MOTION_MAX_CHORD];
    int replaces = -1;
    const cnode *chosen = NULL;
    int64_t start = t;
    uint8_t fail = FG_MOTION_FAIL_NONE;
    int64_t fvalue = 0, flimit = 0;
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
    mlink links[FG_MOTION_MAX_EDGES];
    int nl = 0;
    uint8_t skipped = 0;
    if (chosen) {
        const mlink *src = node_chain(st, chosen);
        nl = chosen->chain_len;
        for (int i = 0; i < nl; i++) links[i] = src[i];
        skipped = node_part(st, chosen)->skipped;
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
    for (int i = 0; i < nl; i++) dst[i] = links[i];
}

static void run_entries(mctx *m, uint32_t first, uint32_t count, const fg_edge *e, uint32_t pos) {
    const mentry *list = m->set->entries + first;
    const uint8_t *base = (const uint8_t *)m->st;
    for (uint32_t i = 0; i < count; i++) {
        const mentry *en = &list[i];
        switch (en->role) {
        case R_CLOSE: {
            const cnode *N = &m->set->nodes[en->target];
            mpart *q = node_part(m->st, N);
            if (q->valid && q->open) {
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
            /* Most entries are for steps whose earlier part is not matched: one load each. */
            if (en->prev_off && !((const mpart *)(base + en->prev_off))->valid &&
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
            st->press_tick[e->action] = e->tick;
            st->press_clock[e->action] = edge_clock(m, e->tick);
        } else {
            run_entries(m, set->release_first[e->action], set->release_count[e->action], e, pos);
            st->held &= ~BIT(e->action);
        }
    }
}

/* Clears the matches that used any of the consumed edges. */
/* Clears the matches that used any of the consumed edges (owner[i]: the motion that used
** ids[i]). A match a chord could still complete from is only marked: the chord may take over
** the command within the chord window (236P then a second punch: the EX version). */
static void invalidate(mctx *m, const fg_edge_id *ids, const uint16_t *owner, int n) {
    if (n == 0) return;
    fg_edge_id lo = ids[0];
    for (int i = 1; i < n; i++)
        if (ids[i] < lo) lo = ids[i];
    const fg_motion_set *set = m->set;
    for (uint32_t i = 0; i < set->nnodes; i++) {
        const cnode *N = &set->nodes[i];
        mpart *q = node_part(m->st, N);
        if (!q->valid || q->edge < lo) continue;
        const mlink *ch = node_chain(m->st, N);
        int hit = -1;
        for (int k = 0; k < N->chain_len && hit < 0; k++)
            for (int j = 0; j < n && hit < 0; j++)
                if (ch[k].id && ch[k].id == ids[j]) hit = j;
        if (hit < 0) continue;
        if (N->chord_child && !q->taken) {
            q->taken = (uint16_t)(owner[hit] + 1);
        } else {
            memset(q, 0, sizeof *q);
            bit_clear(node_bits(m->st, set), i);
        }
    }
}

/* Drops matches that can no longer complete inside any window of the patterns through them.
** One node per tick keeps it cheap and keeps the hashed state small. True when it changed a
** field the region fold covers. */
static bool sweep(mctx *m) {
    const fg_motion_set *set = m->set;
    if (set->nnodes == 0) return false;
    uint32_t i = m->st->sweep % set->nnodes;
    m->st->sweep = (i + 1) % set->nnodes;
    const cnode *N = &set->nodes[i];
    mpart *q = node_part(m->st, N);
    if (!q->valid) return false;
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
                if ((h & BIT(b)) && (since == INT64_MAX || press_time(st, P->frozen, b) > since))
                    since = press_time(st, P->frozen, b);
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
    for (int i = 0; i < d->nedges; i++)
        if (dl[i].id > last) last = dl[i].id;
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
        if (dl[i].id == id) return true;
    return false;
}

static void fill_command(const fg_motion_set *set, fg_motion_command *c, uint16_t pid,
                         const mlink *links, int nl, fg_tick tick, uint8_t facing) {
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
    mctx m;
    m.set = set;
    m.st = st;
    m.buf = buf;
    m.prof = ctx && ctx->profile ? ctx->profile : &standard_profile;
    m.now = in->tick;
    m.prev_tick = st->last_tick;
    m.prev_clock = st->clock;
    m.clock_now = st->clock + (in->tick - st->last_tick - 1) + (ctx && ctx->frozen ? 0 : 1);
    m.ncand = 0;
    m.dirty = false;
    m.flags = set->mode == FG_MOTION_MODE_FLAGS;
    st->facing = buf->facing;
    for (uint32_t i = 0; i < in->count; i++) {
        const fg_edge *e = fg_buffer_at(buf, in->first + i);
        if (!e) break;
        process_edge(&m, e, in->first + i);
    }
    if (set->nlevels) level_candidates(&m);
    st->last_tick = in->tick;
    st->clock = m.clock_now;
    /* Whether anything the region hash covers may change this tick: new edges, candidates,
    ** commands still asserted by their buffer, or an expiry. */
    bool changed = m.dirty || m.ncand > 0 || st->nlive > 0;
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
            for (int i = 0; i < cmd->nedges; i++) {
                dl[i].id = cmd->edges[i];
                dl[i].tick = cmd->edge_ticks[i];
            }
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
                continue;
            }
            if (n == max || (m.flags && name_listed(set, out, n, P->name))) continue;
            fg_motion_command *cmd = &out[n++];
            fill_command(set, cmd, (uint16_t)p, done_links(st, P), d->nedges, d->tick, d->facing);
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
    if (changed) st->region_stale = 1;
    if (nout) *nout = n;
    return FG_OK;
}

void fg_motion_retire(const fg_motion_set *set, fg_motion_state *st, uint32_t motion) {
    if (!set || !st || motion >= set->npatterns) return;
    mdone *d = done_of(st, &set->patterns[motion]);
    if (d->live) {
        d->live = 0;
        st->nlive--;
        st->region_stale = 1;
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

/* {====================================================================== explanations */

void fg_motion_explain(const fg_motion_set *set, const fg_motion_state *st,
                       const fg_motion_profile *profile, uint32_t motion, fg_motion_miss *out) {
    memset(out, 0, sizeof *out);
    out->motion = (uint16_t)motion;
    out->other = FG_MOTION_NONE;
    out->tick = -1;
    if (!set || motion >= set->npatterns) return;
    const cpattern *P = &set->patterns[motion];
    const fg_motion_profile *prof = profile ? profile : &standard_profile;
    out->nsteps = P->nsteps;
    int64_t now = P->frozen == FG_MOTION_FROZEN_COUNT ? st->last_tick : st->clock;
    int64_t tlim = time_limit(P->time, prof);
    const mdone *done = done_of(st, P);
    /* Per reading facing: the deepest live match on the pattern's path, and the deepest failure
    ** on it since the pattern last fired. */
    int best_key = -1;
    for (int tr = 0; tr < P->ntracks; tr++) {
        int reached = 0;
        for (int k = P->nsteps - 2; k >= 0 && !reached; k--) {
            const cnode *N = &set->nodes[P->path[tr][k]];
            const mpart *q = node_part(st, N);
            if (!q->valid || q->taken) continue;
            int64_t s0 = (q->open && k == 0) ? now : q->start;
            if (now - s0 <= tlim) reached = k + 1;
        }
        const mmiss *ms = final_miss(st, P, tr);
        if (!ms->valid || (done->valid && ms->tick < done->tick)) ms = NULL;
        for (int k = P->nsteps - 2; k >= 0 && !ms; k--) {
            const mmiss *nm = node_miss(st, &set->nodes[P->path[tr][k]]);
            if (nm->valid && nm->step < P->nsteps && !(done->valid && nm->tick < done->tick))
                ms = nm;
        }
        if (ms && ms->step < reached) ms = NULL;
        int deep = ms ? ms->step + 1 : reached;
        if (deep < reached) deep = reached;
        int key = deep * 2 + (tr == st->facing);
        if (key <= best_key) continue;
        best_key = key;
        out->facing = (uint8_t)(P->ntracks == 2 ? tr : st->facing);
        if (ms) {
            out->reason = ms->reason;
            out->step = ms->step;
            out->reached = ms->reason == FG_MOTION_FAIL_LOST ||
                                   ms->reason == FG_MOTION_FAIL_CONSUMED ||
                                   ms->reason == FG_MOTION_FAIL_FACING
                               ? P->nsteps
                               : ms->step;
            out->value = ms->value;
            out->limit = ms->limit;
            out->other = ms->other;
            out->tick = ms->tick;
            if (P->ntracks == 2) out->facing = (uint8_t)tr;
        } else {
            out->reason = FG_MOTION_FAIL_NONE;
            out->reached = (uint8_t)reached;
            out->step = (uint8_t)reached;
            out->value = out->limit = 0;
            out->other = FG_MOTION_NONE;
            out->tick = -1;
        }
    }
}

static const char *facing_word(int f) { return f == FG_FACING_LEFT ? "left" : "right"; }

size_t fg_motion_miss_format(const fg_motion_set *set, const fg_motion_miss *m, char *buf,
                             size_t n) {
    if (!set || m->motion >= set->npatterns) return (size_t)snprintf(buf, n, "(no motion)");
    const cpattern *P = &set->patterns[m->motion];
    char title[200], other[200], why[96];
    pattern_title(P, title, sizeof title);
    int k = m->step < P->nsteps ? m->step : P->nsteps - 1;
    const char *lab = P->steps[k].label;
    const char *prev = k > 0 ? P->steps[k - 1].label : "";
    switch (m->reason) {
    case FG_MOTION_FAIL_GAP:
        return (size_t)snprintf(buf, n, "%s: step %d (%s) came %lld ticks after %s, max gap %lld",
                                title, k + 1, lab, (long long)m->value, prev,
                                (long long)m->limit);
    case FG_MOTION_FAIL_EXPIRED:
        return (size_t)snprintf(buf, n,
                                "%s: step %d (%s) did not come within %lld ticks of the first "
                                "step",
                                title, k + 1, lab, (long long)m->limit);
    case FG_MOTION_FAIL_TIME:
        return (size_t)snprintf(buf, n,
                                "%s: step %d (%s) came %lld ticks after the first step, time %lld",
                                title, k + 1, lab, (long long)m->value, (long long)m->limit);
    case FG_MOTION_FAIL_STRICT:
        return (size_t)snprintf(buf, n,
                                "%s: step %d (%s) must follow %s with nothing in between, %lld "
                                "other input%s came between",
                                title, k + 1, lab, prev, (long long)m->value,
                                m->value == 1 ? "" : "s");
    case FG_MOTION_FAIL_CHARGE:
        return (size_t)snprintf(buf, n, "%s: step %d (%s) was held %lld ticks, charge needs %lld",
                                title, k + 1, lab, (long long)m->value, (long long)m->limit);
    case FG_MOTION_FAIL_HOLD:
        return (size_t)snprintf(buf, n,
                                "%s: step %d (%s) needs a hold that was not held (stick at %d)",
                                title, k + 1, lab,
                                fg_numpad_relative((int)m->value, (fg_facing)m->facing));
    case FG_MOTION_FAIL_CHORD:
        if (m->value < 0)
            return (size_t)snprintf(buf, n,
                                    "%s: step %d (%s) needs every button of the chord within "
                                    "%lld ticks; one was not pressed",
                                    title, k + 1, lab, (long long)m->limit);
        return (size_t)snprintf(buf, n,
                                "%s: step %d (%s) presses came %lld ticks apart, chord window "
                                "%lld",
                                title, k + 1, lab, (long long)m->value, (long long)m->limit);
    case FG_MOTION_FAIL_FACING:
        return (size_t)snprintf(buf, n,
                                "%s: the motion was done for facing %s, but at step %d (%s) the "
                                "entity faced %s (sides switched mid-motion)",
                                title, facing_word(m->facing), k + 1, lab,
                                facing_word((int)m->value));
    case FG_MOTION_FAIL_CONSUMED:
        if (m->other < set->npatterns) {
            pattern_title(&set->patterns[m->other], other, sizeof other);
            return (size_t)snprintf(buf, n,
                                    "%s: completed on tick %lld but an input it needs was "
                                    "already used by %s",
                                    title, (long long)m->tick, other);
        }
        return (size_t)snprintf(buf, n,
                                "%s: completed on tick %lld but an input it needs was already "
                                "used by another command or layer",
                                title, (long long)m->tick);
    case FG_MOTION_FAIL_LOST:
        if (m->other < set->npatterns) {
            const cpattern *W = &set->patterns[m->other];
            pattern_title(W, other, sizeof other);
            why_text(why, sizeof why, (uint8_t)m->value, W, W->spec, P, P->spec);
            return (size_t)snprintf(buf, n, "%s: completed on tick %lld but lost to %s: %s", title,
                                    (long long)m->tick, other, why);
        }
        return (size_t)snprintf(buf, n,
                                "%s: completed on tick %lld but the command output was full",
                                title, (long long)m->tick);
    default:
        if (m->reached == 0)
            return (size_t)snprintf(buf, n, "%s: nothing matched step 1 (%s) yet", title,
                                    P->steps[0].label);
        if (m->reached >= P->nsteps)
            return (size_t)snprintf(buf, n, "%s: complete", title);
        return (size_t)snprintf(buf, n, "%s: reached step %d (%s) of %d, waiting for step %d (%s)",
                                title, m->reached, P->steps[m->reached - 1].label, P->nsteps,
                                m->reached + 1, P->steps[m->reached].label);
    }
}

/* }====================================================================== */

/* {====================================================================== lint */

/* Does every event completing B's step j also complete A's step i (read in frame f)? */
static bool step_implies(const cpattern *A, int i, const cpattern *B, int j, int f) {
    const cstep *a = &A->steps[i], *b = &B->steps[j];
    uint16_t da = a->dirs[f], db = b->dirs[f];
    switch (a->trig) {
    case FG_MT_HOLD:
        if (!(b->trig == FG_MT_HOLD || b->trig == FG_MT_ENTER) || !db || (db & ~da)) return false;
        break;
    case FG_MT_ENTER:
        if (!(b->trig == FG_MT_HOLD || b->trig == FG_MT_ENTER) || da != db) return false;
        break;
    case FG_MT_LEAVE:
        if (b->trig != FG_MT_LEAVE || da != db || a->min_hold > b->min_hold) return false;
        break;
    case FG_MT_PRESS:
    case FG_MT_RELEASE: {
        if (b->trig != a->trig || a->ngroups > b->ngroups || a->min_hold > b->min_hold)
            return false;
        /* each group of a must contain a distinct group of b */
        int perm[FG_MOTION_MAX_CHORD];
        uint32_t used = 0;
        int g = 0;
        for (int x = 0; x < FG_MOTION_MAX_CHORD; x++) perm[x] = -1;
        while (g >= 0 && g < a->ngroups) {
            int startj = perm[g] + 1;
            if (perm[g] >= 0) used &= ~BIT(perm[g]);
            perm[g] = -1;
            for (int y = startj; y < b->ngroups; y++)
                if (!(used & BIT(y)) && (b->groups[y] & ~a->groups[g]) == 0) {
                    perm[g] = y;
                    used |= BIT(y);
                    break;
                }
            g = perm[g] >= 0 ? g + 1 : g - 1;
        }
        if (g < 0) return false;
        break;
    }
    default:
        return false;
    }
    if ((a->flags & FG_MS_STRICT) && !(b->flags & FG_MS_STRICT)) return false;
    if (a->hold[f] && (!b->hold[f] || (b->hold[f] & ~a->hold[f]))) return false;
    if ((b->hold_buttons & a->hold_buttons) != a->hold_buttons) return false;
    return true;
}

/* Does A complete on B's steps 0..last (ignoring timing), its final step on B's step last? */
static bool maps_onto(const cpattern *A, const cpattern *B, int last, int f) {
    int i = A->nsteps - 1, j = last;
    if (!step_implies(A, i, B, j, f)) return false;
    for (i--, j--; i >= 0; i--, j--) {
        while (j >= 0 && !step_implies(A, i, B, j, f)) j--;
        if (j < 0) return false;
    }
    return true;
}

/* The earliest non-final step of B on which A completes, or -1: A then fires first and uses the
** inputs B needs. */
static int cut_short(const cpattern *A, const cpattern *B) {
    if (A->level || B->level) return -1;
    for (int last = A->nsteps - 1; last + 1 < B->nsteps; last++)
        for (int f = 0; f < 2; f++)
            if (maps_onto(A, B, last, f)) return last;
    return -1;
}

/* Every input completing B also completes A on the same tick (ignoring timing). */
static bool contained(const cpattern *A, const cpattern *B) {
    if (A->level || B->level || A->nsteps > B->nsteps) return false;
    for (int f = 0; f < 2; f++) {
        int i = A->nsteps - 1, j = B->nsteps - 1;
        if (!step_implies(A, i, B, j, f)) continue;
        bool ok = true;
        for (i--, j--; i >= 0 && ok; i--, j--) {
            while (j >= 0 && !step_implies(A, i, B, j, f)) j--;
            if (j < 0) ok = false;
        }
        if (ok) return true;
    }
    return false;
}

static int adv(const cpattern *P, int i, int cap, int from, int to, int f) {
    if (i < cap && P->steps[i].trig == FG_MT_LEAVE) {
        uint16_t S = P->steps[i].dirs[f];
        if ((S & DBIT(from)) && !(S & DBIT(to))) i++;
    }
    if (i < cap && (P->steps[i].trig == FG_MT_HOLD || P->steps[i].trig == FG_MT_ENTER)) {
        uint16_t S = P->steps[i].dirs[f];
        if (!(S & DBIT(from)) && (S & DBIT(to))) i++;
    }
    return i;
}

static int count_dirs(const cpattern *P) {
    int n = 0;
    for (int k = 0; k < P->nsteps; k++) n += dir_trig(P->steps[k].trig);
    return n;
}

/* Shortest stick path (from neutral) on which A and B complete on the same event; returns the
** number of direction changes and writes the path as numpad digits, or -1. */
static int witness(const cpattern *A, const cpattern *B, int f, char *path, size_t n) {
    if (A->level || B->level) return -1;
    const cstep *fa = &A->steps[A->nsteps - 1], *fb = &B->steps[B->nsteps - 1];
    for (int k = 0; k + 1 < A->nsteps; k++)
        if (!dir_trig(A->steps[k].trig) || A->steps[k].hold[f] || A->steps[k].hold_buttons)
            return -1;
    for (int k = 0; k + 1 < B->nsteps; k++)
        if (!dir_trig(B->steps[k].trig) || B->steps[k].hold[f] || B->steps[k].hold_buttons)
            return -1;
    bool dir_final = dir_trig(fa->trig) && dir_trig(fb->trig);
    if (!dir_final) {
        if (fa->trig != fb->trig || (fa->trig != FG_MT_PRESS && fa->trig != FG_MT_RELEASE))
            return -1;
        bool meet = false;
        for (int x = 0; x < fa->ngroups; x++)
            for (int y = 0; y < fb->ngroups; y++) meet |= (fa->groups[x] & fb->groups[y]) != 0;
        if (!meet) return -1;
    }
    int na = A->nsteps, nb = B->nsteps;
    int capa = dir_final ? na : na - 1, capb = dir_final ? nb : nb - 1;
    /* BFS over (i, j, pos); the goal is both prefixes done (button finals) or both finals done on
    ** the same move (direction finals). */
    enum { NS = (FG_MOTION_MAX_STEPS + 1) * (FG_MOTION_MAX_STEPS + 1) * 10 };
    const int none = -1, goal_slot = NS; /* the goal of a direction final has its own slot */
    int dist[NS + 1], parent[NS + 1], queue[NS];
    int goal_pos = 0;
    for (int s = 0; s <= NS; s++) dist[s] = none;
#define SID(i, j, p) (((i) * (FG_MOTION_MAX_STEPS + 1) + (j)) * 10 + (p))
    int head = 0, tail = 0, goal = -1;
    int s0 = SID(0, 0, 5);
    dist[s0] = 0;
    parent[s0] = -1;
    queue[tail++] = s0;
    if (!dir_final && na == 1 && nb == 1) goal = s0;
    while (head < tail && goal < 0) {
        int s = queue[head++];
        int p = s % 10, j = (s / 10) % (FG_MOTION_MAX_STEPS + 1),
            i = s / 10 / (FG_MOTION_MAX_STEPS + 1);
        if (dist[s] > 12) break;
        for (int q = 1; q <= 9 && goal < 0; q++) {
            if (q == p) continue;
            int i2 = adv(A, i, capa, p, q, f), j2 = adv(B, j, capb, p, q, f);
            if (dir_final) {
                if (i2 == na && j2 == nb) {
                    dist[goal_slot] = dist[s] + 1;
                    parent[goal_slot] = s;
                    goal_pos = q;
                    goal = goal_slot;
                    break;
                }
                if (i2 == na || j2 == nb) continue; /* one completed alone */
            }
            int s2 = SID(i2, j2, q);
            if (dist[s2] != none) continue;
            dist[s2] = dist[s] + 1;
            parent[s2] = s;
            queue[tail++] = s2;
            if (!dir_final && i2 == na - 1 && j2 == nb - 1) goal = s2;
        }
    }
#undef SID
    if (goal < 0) return -1;
    char rev[64];
    int nr = 0;
    for (int s = goal; s >= 0 && parent[s] >= 0 && nr < 63; s = parent[s])
        rev[nr++] = (char)('0' + fg_numpad_relative(s == goal_slot ? goal_pos : s % 10,
                                                    (fg_facing)f));
    size_t o = 0;
    for (int i = nr - 1; i >= 0 && o + 1 < n; i--) path[o++] = rev[i];
    if (!dir_final) o += (size_t)snprintf(path + o, n > o ? n - o : 0, "%s", fa->label);
    if (o < n) path[o] = '\0';
    return dist[goal];
}

static bool contradictory(const cpattern *P, int *step) {
    for (int k = 0; k < P->nsteps; k++) {
        const cstep *S = &P->steps[k];
        if (!S->hold[0]) continue;
        if ((S->trig == FG_MT_HOLD || S->trig == FG_MT_ENTER) && !(S->dirs[0] & S->hold[0])) {
            *step = k;
            return true;
        }
        if (S->trig == FG_MT_LEAVE && !(S->hold[0] & ~S->dirs[0])) {
            *step = k;
            return true;
        }
    }
    return false;
}

static void add_finding(fg_motion_finding *out, uint32_t *n, uint8_t kind, uint16_t a, uint16_t b,
                        const char *fmt, ...) FG_PRINTF(6, 7);
static void add_finding(fg_motion_finding *out, uint32_t *n, uint8_t kind, uint16_t a, uint16_t b,
                        const char *fmt, ...) {
    if (*n >= MAX_FINDINGS) return;
    fg_motion_finding *f = &out[(*n)++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->a = a;
    f->b = b;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text, sizeof f->text, fmt, ap);
    va_end(ap);
}

static const char *implicit_rule(const cpattern *W, const cpattern *L) {
    if (W->len != L->len) return "having more inputs";
    if (W->spec != L->spec) return "being more specific";
    return "name order";
}

/* Appends to out[*nout...]: notes read from a .cmd text come first. */
static void lint_set(const cpattern *pats, uint32_t np, uint8_t mode, fg_motion_finding *out,
                     uint32_t *nout) {
    char ta[200], tb[200];
    bool never[FG_MOTION_MAX_PATTERNS] = {false};
    for (uint32_t a = 0; a < np; a++) {
        int k;
        if (contradictory(&pats[a], &k)) {
            pattern_title(&pats[a], ta, sizeof ta);
            never[a] = true;
            add_finding(out, nout, FG_MOTION_LINT_NEVER, (uint16_t)a, FG_MOTION_NONE,
                        "warning: %s can never fire: step %d (%s) needs a direction held that "
                        "its own input excludes",
                        ta, k + 1, pats[a].steps[k].label);
        }
    }
    /* In flags mode nothing is used up and nothing is ranked away: every command its input
    ** completes is true, so only a pattern that contradicts itself can never fire. */
    if (mode == FG_MOTION_MODE_FLAGS) return;
    for (uint32_t a = 0; a < np; a++)
        for (uint32_t b = 0; b < np; b++) {
            if (a == b || never[a] || never[b]) continue;
            const cpattern *A = &pats[a], *B = &pats[b];
            if (strcmp(A->name, B->name) == 0) continue; /* alternatives of one command */
            pattern_title(A, ta, sizeof ta);
            pattern_title(B, tb, sizeof tb);
            int cut = cut_short(A, B);
            if (cut >= 0) {
                add_finding(out, nout, FG_MOTION_LINT_NEVER, (uint16_t)b, (uint16_t)a,
                            "warning: %s can never fire: its step %d (%s) completes %s first, "
                            "which uses the inputs before %s completes. Make %s longer or drop "
                            "it",
                            tb, cut + 1, B->steps[cut].label, ta, B->name, A->name);
                never[b] = true;
                continue;
            }
            bool ab = contained(A, B), ba = contained(B, A);
            int r = rank_cmp(A, (uint16_t)a, A->spec, B, (uint16_t)b, B->spec);
            if (ab && ba) {
                if (a < b && A->priority == B->priority && A->len == B->len &&
                    A->spec == B->spec) {
                    add_finding(out, nout, FG_MOTION_LINT_NEVER, (uint16_t)b, (uint16_t)a,
                                "warning: %s can never fire: %s accepts the same inputs and wins "
                                "by name order",
                                tb, ta);
                    never[b] = true;
                } else if (a < b) {
                    uint32_t loser = r < 0 ? b : a, winner = r < 0 ? a : b;
                    pattern_title(&pats[loser], ta, sizeof ta);
                    pattern_title(&pats[winner], tb, sizeof tb);
                    add_finding(out, nout, FG_MOTION_LINT_NEVER, (uint16_t)loser,
                                (uint16_t)winner,
                                "warning: %s can never fire: %s accepts the same inputs and "
                                "ranks higher",
                                ta, tb);
                    never[loser] = true;
                }
                continue;
            }
            if (ab) { /* A is contained in B: B's completions complete A too */
                if (A->priority > B->priority) {
                    add_finding(out, nout, FG_MOTION_LINT_NEVER, (uint16_t)b, (uint16_t)a,
                                "warning: %s can never fire: every input that completes it also "
                                "completes %s, which has higher priority (%d > %d)",
                                tb, ta, (int)A->priority, (int)B->priority);
                } else if (A->priority == B->priority) {
                    add_finding(out, nout, FG_MOTION_LINT_CONTAINED, (uint16_t)a, (uint16_t)b,
                                "warning: %s is contained in %s: every input that completes %s "
                                "also completes %s, both with priority %d; %s wins only by %s. "
                                "Give them explicit priorities",
                                ta, tb, B->name, A->name, (int)A->priority, B->name,
                                r > 0 ? implicit_rule(B, A) : "name order");
                }
                continue;
            }
            if (ba || a > b || A->priority != B->priority) continue;
            char path[80];
            int lim = (count_dirs(A) > count_dirs(B) ? count_dirs(A) : count_dirs(B)) + 1;
            int w = -1;
            for (int f = 0; f < 2 && w < 0; f++) {
                w = witness(A, B, f, path, sizeof path);
                if (w > lim) w = -1;
            }
            if (w < 0) continue;
            const cpattern *W = r < 0 ? A : B, *L = r < 0 ? B : A;
            add_finding(out, nout, FG_MOTION_LINT_AMBIGUOUS, (uint16_t)a, (uint16_t)b,
                        "warning: %s and %s both complete on %s with priority %d; %s wins only "
                        "by %s. Give the one that should win a higher priority",
                        ta, tb, path, (int)A->priority, W->name, implicit_rule(W, L));
        }
}

/* }====================================================================== */

/* {====================================================================== script runner */

fg_status fg_motion_run_script(const fg_motion_set *set, const char *script,
                               const fg_motion_profile *profile, const fg_allocator *a,
                               fg_motion_run *out, fg_motion_miss *misses, fg_error *err) {
    if (!set || !out) return fg_error_set(err, FG_EINVAL, "run: set and out are required");
    fg_allocator alloc = a ? *a : fg_allocator_default();
    enum { MAXEV = 512 };
    fg_motion_script_event *ev = fg_alloc(&alloc, MAXEV * sizeof *ev);
    if (!ev) return fg_error_set(err, FG_ENOMEM, "run: out of memory");
    uint32_t nev = 0;
    fg_status s = fg_motion_script_parse(script, &set->buttons, ev, MAXEV, &nev, err);
    if (s == FG_OK && profile) s = fg_motion_profile_check(profile, err);
    const uint32_t cap = 256;
    size_t bsize = fg_buffer_size(cap);
    fg_buffer *buf = NULL;
    fg_motion_state *st = NULL;
    fg_motion_command *cmds = NULL;
    size_t csize = (size_t)(set->npatterns ? set->npatterns : 1) * sizeof *cmds;
    if (s == FG_OK) {
        buf = fg_alloc(&alloc, bsize);
        st = fg_alloc(&alloc, set->state_size);
        cmds = fg_alloc(&alloc, csize);
        if (!buf || !st || !cmds) s = fg_error_set(err, FG_ENOMEM, "run: out of memory");
    }
    fg_motion_run run;
    memset(&run, 0, sizeof run);
    if (s == FG_OK) {
        fg_buffer_init(buf, cap, -1, NULL);
        fg_motion_state_init(set, st, -1);
        fg_tick last = nev ? ev[nev - 1].tick : 0;
        for (uint32_t i = 0; i < nev; i++)
            if (ev[i].kind == FG_MOTION_SCRIPT_FREEZE && ev[i].until > last) last = ev[i].until;
        fg_tick end = last + set->max_buffer + 1;
        uint32_t e = 0;
        fg_tick freeze_from[16], freeze_to[16];
        int nfreeze = 0;
        for (fg_tick t = 0; t <= end && s == FG_OK; t++) {
            int k = 0;
            for (; e < nev && ev[e].tick == t && s == FG_OK; e++, k++) {
                const fg_motion_script_event *x = &ev[e];
                int64_t us = fg_us_of_tick(t, FG_TICK_RATE_DEFAULT) + k;
                switch (x->kind) {
                case FG_MOTION_SCRIPT_DIR:
                    s = fg_buffer_push(buf, FG_EDGE_DIR, 0, x->value, us, t, FG_SOURCE_SCRIPT,
                                       NULL, err);
                    break;
                case FG_MOTION_SCRIPT_PRESS:
                case FG_MOTION_SCRIPT_RELEASE:
                    s = fg_buffer_push(buf,
                                       x->kind == FG_MOTION_SCRIPT_PRESS ? FG_EDGE_PRESS
                                                                         : FG_EDGE_RELEASE,
                                       x->action, 0, us, t, FG_SOURCE_SCRIPT, NULL, err);
                    break;
                case FG_MOTION_SCRIPT_FACE:
                    fg_buffer_set_facing(buf, (fg_facing)x->value);
                    break;
                case FG_MOTION_SCRIPT_FREEZE:
                    if (nfreeze < 16) {
                        freeze_from[nfreeze] = x->tick;
                        freeze_to[nfreeze] = x->until;
                        nfreeze++;
                    }
                    break;
                default:
                    break;
                }
            }
            if (s != FG_OK) break;
            fg_tick_input in;
            s = fg_buffer_consume_for_tick(buf, t, &in, err);
            if (s != FG_OK) break;
            fg_motion_ctx ctx = {profile, false};
            for (int f = 0; f < nfreeze; f++)
                if (t >= freeze_from[f] && t <= freeze_to[f]) ctx.frozen = true;
            uint32_t nc = 0;
            s = fg_motion_step(set, st, buf, &in, &ctx, cmds, set->npatterns, &nc, err);
            for (uint32_t i = 0; s == FG_OK && i < nc; i++) {
                if (run.ncommands < FG_MOTION_RUN_MAX) run.commands[run.ncommands++] = cmds[i];
                else run.dropped++;
            }
            run.end_tick = t;
        }
        if (s == FG_OK && misses)
            for (uint32_t i = 0; i < set->npatterns; i++)
                fg_motion_explain(set, st, profile, i, &misses[i]);
    }
    fg_free(&alloc, ev, MAXEV * sizeof *ev);
    fg_free(&alloc, buf, bsize);
    fg_free(&alloc, st, set->state_size);
    fg_free(&alloc, cmds, csize);
    if (s != FG_OK) return s;
    *out = run;
    return FG_OK;
}

/* }====================================================================== */
