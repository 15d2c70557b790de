/* SPDX-License-Identifier: MIT */
/*
** motion_compile.c: motion definitions to a compiled set (patterns, the shared prefix trie, the
** edge index, the state layout, the set's hash and lint findings), its accessors and
** fg_motion_describe, which reads a compiled pattern back as words.
*/
#include "motion_set.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* }====================================================================== */

/* {====================================================================== compile */

/* A charge (`[4]`, `~30B`) or timed hold-only step remembers when its set was entered. */
static bool needs_aux(const cstep *c) {
    return (c->trig == FG_MT_LEAVE && c->min_hold > 0) ||
           (c->trig == FG_MT_LEVEL && (c->dirs[0] | c->dirs[1]) && c->min_hold > 0);
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
    /* Inside, a buffer counts the completion tick too (MUGEN's buffer.time): 0 ticks after
    ** the completion is 1 tick asserted. */
    P->buffer = (d->buffer > 0 ? d->buffer : FG_MOTION_DEFAULT_BUFFER) + 1;
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

static uint32_t part_off(const cnode *N) { return N->off; }

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
            proto.prev_node = N->parent;
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
                proto.prev_node = P->path[tr][n - 2];
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
    lint_list finds;
    index_build *ib;
    size_t nitems, npats_cap, nnodes_cap;
} scratch;

static void scratch_free(scratch *sc) {
    fg_free(&sc->alloc, sc->items, sc->nitems * sizeof *sc->items);
    fg_free(&sc->alloc, sc->pats, sc->npats_cap * sizeof *sc->pats);
    fg_free(&sc->alloc, sc->nodes, sc->nnodes_cap * sizeof *sc->nodes);
    fg_free(&sc->alloc, sc->finds.items, sc->finds.cap * sizeof *sc->finds.items);
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
    sc.finds.alloc = sc.alloc;
    sc.ib = fg_alloc(&sc.alloc, sizeof *sc.ib);
    fg_status s = FG_OK;
    if (!sc.items || !sc.ib)
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
    /* State layout (motion_set.h): the header and the node bitmap, which starts in the header's
    ** cache line; the pattern bitmap and the press times; each pattern's last completion and
    ** final-step aux records; the nodes; then, cold, every near-miss record. Every block is a
    ** multiple of 8 bytes. */
    size_t off = FG_MOTION_HEADER_BYTES;
    uint32_t node_bits_off = (uint32_t)off;
    off += 8 * (((size_t)nnodes + 63) / 64);
    uint32_t done_bits_off = (uint32_t)off;
    off += 8 * (((size_t)ndefs + 63) / 64);
    uint32_t press_off = (uint32_t)off;
    off += sizeof(mpress) * FG_INPUT_MAX_ACTIONS;
    for (uint32_t p = 0; p < ndefs; p++) {
        pats[p].off = (uint32_t)off;
        off += align8(done_size(&pats[p]));
        for (int tr = 0; tr < pats[p].ntracks; tr++) {
            pats[p].final_off[tr] = pats[p].final_aux ? (uint32_t)off : 0;
            off += pats[p].final_aux ? sizeof(maux) : 0;
        }
    }
    for (uint32_t i = 0; i < nnodes; i++) {
        sc.nodes[i].off = (uint32_t)off;
        off += align8(node_size(&sc.nodes[i]));
    }
    for (uint32_t i = 0; i < nnodes; i++) {
        sc.nodes[i].miss_off = (uint32_t)off;
        off += sizeof(mmiss);
    }
    for (uint32_t p = 0; p < ndefs; p++)
        for (int tr = 0; tr < pats[p].ntracks; tr++) {
            pats[p].miss_off[tr] = (uint32_t)off;
            off += sizeof(mmiss);
        }
    uint32_t done_fold_off = (uint32_t)off;
    off += sizeof(fg_fold);
    uint32_t done_runs_off = (uint32_t)off;
    off += sizeof(fg_fold_run) * ndefs;
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
    for (uint32_t i = 0; i < nnotes; i++) {
        fg_motion_finding *f = fg_motion_lint_push(&sc.finds);
        if (f) *f = notes[i];
    }
    fg_motion_lint_patterns(pats, ndefs, (uint8_t)mode, &sc.finds);
    if (sc.finds.oom) {
        scratch_free(&sc);
        return fg_error_set(err, FG_ENOMEM, "motion set: out of memory for its lint findings");
    }
    uint32_t nfind = sc.finds.count;
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
    set->press_off = press_off;
    set->done_fold_off = done_fold_off;
    set->done_runs_off = done_runs_off;
    set->aux_nodes = (uint16_t *)(blk + o_aux);
    set->aux_patterns = set->aux_nodes + naux_nodes;
    for (uint32_t i = 0; i < nnodes; i++)
        if (sc.nodes[i].has_aux) set->aux_nodes[set->naux_nodes++] = (uint16_t)i;
    for (uint32_t p = 0; p < ndefs; p++)
        if (pats[p].final_aux) set->aux_patterns[set->naux_patterns++] = (uint16_t)p;
    if (ndefs) memcpy(set->patterns, pats, (size_t)ndefs * sizeof *pats);
    if (nnodes) memcpy(set->nodes, sc.nodes, (size_t)nnodes * sizeof *sc.nodes);
    if (nfind) memcpy(set->findings, sc.finds.items, (size_t)nfind * sizeof *sc.finds.items);
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

void fg_motion_set_destroy(fg_motion_set *set) {
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
    static const char *const kind[] = {"",       "",          "enter ", "leave ",
                                       "press ", "release ", "held ",  "never completes"};
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
    bool never = P->steps[0].trig == FG_MT_NEVER;
    fg_text_append(buf, n, &o, "%s:", never ? "(no input)" : P->notation);
    for (int k = 0; k < P->nsteps; k++) {
        fg_text_append(buf, n, &o, "%s", k ? " > " : " ");
        app_step(set, buf, n, &o, &P->steps[k]);
    }
    fg_text_append(buf, n, &o, " (%s%s; time %d, buffer %d", P->syntax == FG_MOTION_MUGEN ? "mugen" : "numpad",
        P->ntracks == 2 ? ", facing-relative" : "", (int)P->time, (int)P->buffer - 1);
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
