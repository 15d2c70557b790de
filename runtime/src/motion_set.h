/* SPDX-License-Identifier: MIT */
/*
** motion_set.h: the compiled motion set and the matcher state's layout, shared by the files that
** build it (motion_compile.c), run it (motion_match.c), explain and lint it (motion_explain.c) and
** script it (motion_script.c). Not installed: the public view is framegate/motion.h.
**
** The state is plain data at offsets the set fixes at compile, laid out by how often a tick reads
** it (docs/architecture.md, "Memory layout"): the header and the first word of the node validity
** bitmap in one cache line (all a tick of an idle matcher reads: the step, the expiry sweep, the
** refresh and the hash), then the rest of the bitmaps and the press times; then each pattern's
** done block and each trie node's match, which a step reads; last the near-miss records, which
** only a failed step writes and only an explanation reads.
*/
#ifndef FG_MOTION_SET_H
#define FG_MOTION_SET_H

#include "motion_internal.h"

#include <stdio.h>
#include <string.h>

#define BIT(a) (1u << (a))
#define DBIT(d) ((uint16_t)(1u << (d)))
#define NO_AUX 0xFFu

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

/* An edge a match used, in 8 bytes: the low 32 bits of its id and of its tick. A match spans far
** less than 2^32 edges and ticks, so the full values come back from a later id and tick the
** state keeps (link_id, link_tick); the state hash folds these same 32-bit halves. In a node's
** chain {0, 0} is a step a lenient profile skipped. */
typedef struct mlink {
    uint32_t id, tick;
} mlink;

/* The full id of a stored link, given an id at least as new whose distance is below 2^32. */
static inline fg_edge_id link_id(uint32_t lo, fg_edge_id newer) {
    return newer - (uint32_t)((uint32_t)newer - lo);
}
static inline fg_tick link_tick(uint32_t lo, fg_tick later) {
    return later - (fg_tick)(uint32_t)((uint32_t)later - lo);
}

typedef struct maux { /* when the stick last entered a charge or level set */
    int64_t since;
    fg_edge_id edge;
} maux;

typedef struct mmiss { /* diagnostics only: not hashed */
    fg_tick tick;
    int32_t value, limit; /* saturated at the int32_t range (explanations only) */
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

/* When a button last went down, in ticks and on the unfrozen clock: one pair per action id, so a
** held button's two words share a line. */
typedef struct mpress {
    fg_tick tick;
    int64_t clock;
} mpress;

/* The header: 56 bytes, followed by the node validity bitmap, so that the first cache line holds
** all a tick reads of an idle matcher. */
struct fg_motion_state {
    uint64_t set_hash;
    uint32_t size;
    uint16_t nlive; /* live done records: at most FG_MOTION_MAX_PATTERNS */
    uint16_t sweep; /* round-robin cursor of the expiry sweep: a node id */
    fg_tick last_tick;
    int64_t clock; /* unfrozen ticks so far: the clock of FROZEN_SKIP patterns */
    uint32_t held; /* action bits held, as the edges were read */
    uint8_t dir, facing;
    uint8_t region_stale; /* REGION_* bits: see region_sum */
    uint8_t reserved;
    /* The fold of every pattern's and node's hashed fields. The calls that change them mark it
    ** stale; fg_motion_state_refresh recomputes it (a world does at the end of each tick), so a
    ** hash costs the header, and a matcher nobody hashes pays nothing for it. The fold goes
    ** through the patterns' completions first, then the partial matches: the fold as it stands
    ** after the completions is kept too (done_fold, in the cold tail), so a tick that changed
    ** only partial matches (the common change: an edge, an expiry) refolds only those; and each
    ** completion's words are kept as a run (done_runs), taken again where the record is written,
    ** so a new completion refolds one record, not every one. */
    uint64_t region_sum, region_k;
};

#define FG_MOTION_HEADER_BYTES 56
_Static_assert(sizeof(struct fg_motion_state) == FG_MOTION_HEADER_BYTES,
               "the matcher header and the first bitmap word fill one cache line");

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
    uint32_t final_off[2]; /* per track: maux when final_aux (else 0) */
    uint32_t miss_off[2];  /* per track: the final step's mmiss, in the cold part */
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
    uint32_t off; /* state block: mpart, mlink[chain_len], maux when has_aux */
    uint32_t miss_off; /* its mmiss, in the cold part */
} cnode;

enum { R_CLOSE = 0, R_LEAVE = 1, R_ENTER = 2, R_SINCE = 3, R_PRESS = 4, R_RELEASE = 5 };

typedef struct mentry {
    uint16_t target; /* node id, or pattern id for a final step */
    uint8_t role, depth, track, final;
    uint16_t prev_node; /* the node whose mpart is at prev_off: its validity bit is in the
                           header's line, so most entries stop without reading the mpart */
    uint32_t prev_off;  /* state offset of the parent's mpart (0: first step) */
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
    uint32_t done_fold_off; /* fg_fold: the region fold after the completions (region_sum) */
    uint32_t done_runs_off; /* fg_fold_run per pattern: the words of its completion */
    uint32_t press_off; /* mpress[FG_INPUT_MAX_ACTIONS] */
    uint32_t naux_nodes, naux_patterns;
    uint16_t *aux_nodes, *aux_patterns;
};

static inline size_t align8(size_t n) { return (n + 7u) & ~(size_t)7u; }

static inline size_t done_size(const cpattern *P) {
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
    return (mmiss *)at(st, N->miss_off);
}
static inline mpart *node_part(const fg_motion_state *st, const cnode *N) {
    return (mpart *)at(st, N->off);
}
static inline mlink *node_chain(const fg_motion_state *st, const cnode *N) {
    return (mlink *)(at(st, N->off) + sizeof(mpart));
}
static inline maux *node_aux(const fg_motion_state *st, const cnode *N) {
    return (maux *)((uint8_t *)node_chain(st, N) + (size_t)N->chain_len * sizeof(mlink));
}
static inline size_t node_size(const cnode *N) {
    return sizeof(mpart) + (size_t)N->chain_len * sizeof(mlink) + (N->has_aux ? sizeof(maux) : 0);
}
static inline mmiss *final_miss(const fg_motion_state *st, const cpattern *P, int tr) {
    return (mmiss *)at(st, P->miss_off[tr]);
}
static inline maux *final_aux(const fg_motion_state *st, const cpattern *P, int tr) {
    return (maux *)at(st, P->final_off[tr]);
}
static inline mpress *press_of(const fg_motion_state *st, const fg_motion_set *set) {
    return (mpress *)at(st, set->press_off);
}
/* What region_stale says changed since the region fold: every completion (its run is taken again
** from the record), the partial matches, a completion whose run was taken again at its write. */
#define REGION_DONE 1u
#define REGION_PARTS 2u
#define REGION_RUNS 4u
static inline fg_fold_run *done_runs_of(const fg_motion_state *st, const fg_motion_set *set) {
    return (fg_fold_run *)at(st, set->done_runs_off);
}
static inline fg_fold *done_fold_of(const fg_motion_state *st, const fg_motion_set *set) {
    return (fg_fold *)at(st, set->done_fold_off);
}
/* The validity bitmaps (see fg_motion_set): set and cleared with every valid flag. */
static inline uint64_t *node_bits(const fg_motion_state *st, const fg_motion_set *set) {
    return (uint64_t *)at(st, set->node_bits_off);
}
static inline uint64_t *done_bits(const fg_motion_state *st, const fg_motion_set *set) {
    return (uint64_t *)at(st, set->done_bits_off);
}
static inline bool bit_get(const uint64_t *bits, uint32_t i) {
    return (bits[i >> 6] >> (i & 63)) & 1u;
}
static inline void bit_set(uint64_t *bits, uint32_t i) { bits[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void bit_clear(uint64_t *bits, uint32_t i) {
    bits[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

/* }====================================================================== */

/* {====================================================================== shared helpers */

/* "hadouken (236P)", or "236P" when the name is the notation. */
static inline void pattern_title(const cpattern *P, char *buf, size_t n) {
    if (strcmp(P->name, P->notation) == 0) snprintf(buf, n, "%s", P->notation);
    else snprintf(buf, n, "%s (%s)", P->name, P->notation);
}

static inline bool dir_trig(uint8_t trig) {
    return trig == FG_MT_HOLD || trig == FG_MT_ENTER || trig == FG_MT_LEAVE;
}

static const fg_motion_profile standard_profile = {
    "standard", 0, 0, 3, false, FG_SOCD_NEUTRAL, FG_SOCD_UP_WINS};


static inline int64_t gap_limit(const cstep *S, const fg_motion_profile *prof) {
    if (S->gap <= 0) return 0;
    int64_t g = (int64_t)S->gap + prof->gap_extra;
    return g < 1 ? 1 : g;
}

static inline int64_t time_limit(int32_t time, const fg_motion_profile *prof) {
    int64_t t = (int64_t)time + prof->time_extra;
    return t < 1 ? 1 : t;
}

/* The findings of a set while it is built: they grow as they come, with no cap (memory running
** out sets oom and the build fails rather than keep fewer). */
typedef struct lint_list {
    fg_allocator alloc;
    fg_motion_finding *items;
    uint32_t count, cap;
    bool oom;
} lint_list;

/* motion_explain.c: a zeroed slot at the end of the list, or NULL (oom set). */
fg_motion_finding *fg_motion_lint_push(lint_list *l);
/* motion_explain.c: the findings of a set's patterns in its mode (fg_motion_mode), appended to
** out. */
void fg_motion_lint_patterns(const cpattern *pats, uint32_t np, uint8_t mode, lint_list *out);

/* }====================================================================== */

/* {====================================================================== ranking */

/* Rank of a completion: priority, then inputs, then specificity, then id. A completion that
** skipped steps (lenient profile) has that many fewer inputs; spec carries the skips too. */
static inline int rank_cmp2(const cpattern *a, uint16_t ia, int32_t spec_a, int skip_a,
                            const cpattern *b, uint16_t ib, int32_t spec_b, int skip_b) {
    if (a->priority != b->priority) return a->priority > b->priority ? -1 : 1;
    if (a->len - skip_a != b->len - skip_b) return a->len - skip_a > b->len - skip_b ? -1 : 1;
    if (spec_a != spec_b) return spec_a < spec_b ? -1 : 1;
    if (ia != ib) return ia < ib ? -1 : 1;
    return 0;
}

static inline int rank_cmp(const cpattern *a, uint16_t ia, int32_t spec_a, const cpattern *b,
                    uint16_t ib, int32_t spec_b) {
    if (a->priority != b->priority) return a->priority > b->priority ? -1 : 1;
    if (a->len != b->len) return a->len > b->len ? -1 : 1;
    if (spec_a != spec_b) return spec_a < spec_b ? -1 : 1;
    if (ia != ib) return ia < ib ? -1 : 1;
    return 0;
}

static inline uint8_t why_between(const cpattern *w, int32_t sw, int kw, const cpattern *l,
                                  int32_t sl, int kl) {
    if (w->priority != l->priority) return FG_MOTION_WHY_PRIORITY;
    if (w->len - kw != l->len - kl) return FG_MOTION_WHY_LENGTH;
    if (sw != sl) return FG_MOTION_WHY_SPECIFICITY;
    return FG_MOTION_WHY_ORDER;
}

static inline int why_text(char *buf, size_t n, uint8_t why, const cpattern *w, int32_t sw,
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

/* motion_fold.c: keeps pattern p's run of the region fold after its completion record was
** written (the step calls it wherever it writes one). */
void fg_motion_done_written(const fg_motion_set *set, fg_motion_state *st, uint32_t p);

/* }====================================================================== */

#endif
