/* SPDX-License-Identifier: MIT */
/*
** motion_explain.c: why a motion did not come out (fg_motion_explain, fg_motion_miss_format) and
** the lint of a set: patterns another one always beats, patterns that can never complete.
*/
#include "motion_set.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Does B's step j, entering a set outside a's, leave a's set whenever it completes? It does when
** it comes strictly (nothing in between) after a direction step of B inside a's set: the stick
** was there. `66` (6, >5, >6) leaves 6 on its 5, so it completes `F, F` (F, >~F, >F). */
static bool leaves_by_entering(const cstep *a, const cpattern *B, int j, int f) {
    const cstep *b = &B->steps[j];
    if (a->min_hold > 0 || j == 0 || !(b->flags & FG_MS_STRICT)) return false;
    if (b->trig != FG_MT_HOLD && b->trig != FG_MT_ENTER) return false;
    const cstep *p = &B->steps[j - 1];
    if (p->trig != FG_MT_HOLD && p->trig != FG_MT_ENTER) return false;
    uint16_t S = a->dirs[f];
    return p->dirs[f] && (p->dirs[f] & ~S) == 0 && (b->dirs[f] & S) == 0;
}

/* A first step entering a's set, implied by b leaving a set inside it: the stick was there, and
** got there by an edge (the stick starts at neutral, which b's set must not hold). Never for a
** pattern's last step: that edge is not one B uses, so the two would not share an input. */
static bool entered_before(const cstep *a, const cstep *b, int f, bool exact) {
    uint16_t da = a->dirs[f], db = b->dirs[f];
    if (a->hold[f] || a->hold_buttons || !db || (db & DBIT(5))) return false;
    return exact ? da == db : (db & ~da) == 0;
}

/* Can A's LEAVE step a share the edge of B's step k (which A's next step uses)? B's step k enters
** a set outside a's right after B's step k-1 entered one inside it, so that edge, or one between
** the two, leaves a's set: `~D, DF` completes on `2, 3`. */
static bool leaves_into(const cstep *a, const cpattern *B, int k, int f) {
    if (a->trig != FG_MT_LEAVE || a->min_hold > 0 || (a->flags & FG_MS_STRICT) || a->hold[f] ||
        a->hold_buttons || k < 1 || k >= B->nsteps)
        return false;
    const cstep *b = &B->steps[k], *p = &B->steps[k - 1];
    if ((b->trig != FG_MT_HOLD && b->trig != FG_MT_ENTER) ||
        (p->trig != FG_MT_HOLD && p->trig != FG_MT_ENTER))
        return false;
    uint16_t S = a->dirs[f];
    return p->dirs[f] && (p->dirs[f] & ~S) == 0 && (b->dirs[f] & S) == 0;
}

/* Does every event completing B's step j also complete A's step i (read in frame f)? */
static bool step_implies(const cpattern *A, int i, const cpattern *B, int j, int f) {
    const cstep *a = &A->steps[i], *b = &B->steps[j];
    uint16_t da = a->dirs[f], db = b->dirs[f];
    switch (a->trig) {
    case FG_MT_HOLD:
        if (b->trig == FG_MT_LEAVE)
            return i == 0 && A->nsteps > 1 && entered_before(a, b, f, false);
        if (!(b->trig == FG_MT_HOLD || b->trig == FG_MT_ENTER) || !db || (db & ~da)) return false;
        break;
    case FG_MT_ENTER:
        if (b->trig == FG_MT_LEAVE)
            return i == 0 && A->nsteps > 1 && entered_before(a, b, f, true);
        if (!(b->trig == FG_MT_HOLD || b->trig == FG_MT_ENTER) || da != db) return false;
        break;
    case FG_MT_LEAVE:
        if (b->trig == FG_MT_LEAVE) {
            if (da != db || a->min_hold > b->min_hold) return false;
        } else if (!leaves_by_entering(a, B, j, f)) {
            return false;
        }
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

/* Does A complete on B's steps 0..last (ignoring timing), its final step on B's step last? Each
** of A's steps takes one of B's, in order, except a LEAVE that shares the edge of the B step its
** successor took (leaves_into). */
static bool maps_onto(const cpattern *A, const cpattern *B, int last, int f) {
    int i = A->nsteps - 1, j = last;
    if (!step_implies(A, i, B, j, f)) return false;
    int taken = j; /* the B step A's step i+1 took */
    for (i--, j--; i >= 0; i--, j--) {
        if (leaves_into(&A->steps[i], B, taken, f)) {
            j++; /* shares: A's step i takes no B step of its own */
            continue;
        }
        while (j >= 0 && !step_implies(A, i, B, j, f)) j--;
        if (j < 0) return false;
        taken = j;
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
    if (A->level || B->level) return false;
    for (int f = 0; f < 2; f++)
        if (maps_onto(A, B, B->nsteps - 1, f)) return true;
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

fg_motion_finding *fg_motion_lint_push(lint_list *l) {
    if (l->count == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 16;
        fg_motion_finding *items =
            cap > l->cap ? fg_realloc(&l->alloc, l->items, sizeof *items * l->cap,
                                      sizeof *items * cap)
                         : NULL;
        if (!items) {
            l->oom = true;
            return NULL;
        }
        l->items = items;
        l->cap = cap;
    }
    fg_motion_finding *f = &l->items[l->count++];
    memset(f, 0, sizeof *f);
    return f;
}

static void add_finding(lint_list *out, uint8_t kind, uint16_t a, uint16_t b, const char *fmt,
                        ...) FG_PRINTF(5, 6);
static void add_finding(lint_list *out, uint8_t kind, uint16_t a, uint16_t b, const char *fmt,
                        ...) {
    fg_motion_finding *f = fg_motion_lint_push(out);
    if (!f) return;
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
void fg_motion_lint_patterns(const cpattern *pats, uint32_t np, uint8_t mode, lint_list *out) {
    char ta[200], tb[200];
    bool never[FG_MOTION_MAX_PATTERNS] = {false};
    for (uint32_t a = 0; a < np; a++) {
        int k;
        if (contradictory(&pats[a], &k)) {
            pattern_title(&pats[a], ta, sizeof ta);
            never[a] = true;
            add_finding(out, FG_MOTION_LINT_NEVER, (uint16_t)a, FG_MOTION_NONE,
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
                add_finding(out, FG_MOTION_LINT_NEVER, (uint16_t)b, (uint16_t)a,
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
                    add_finding(out, FG_MOTION_LINT_NEVER, (uint16_t)b, (uint16_t)a,
                                "warning: %s can never fire: %s accepts the same inputs and wins "
                                "by name order",
                                tb, ta);
                    never[b] = true;
                } else if (a < b) {
                    uint32_t loser = r < 0 ? b : a, winner = r < 0 ? a : b;
                    pattern_title(&pats[loser], ta, sizeof ta);
                    pattern_title(&pats[winner], tb, sizeof tb);
                    add_finding(out, FG_MOTION_LINT_NEVER, (uint16_t)loser,
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
                    add_finding(out, FG_MOTION_LINT_NEVER, (uint16_t)b, (uint16_t)a,
                                "warning: %s can never fire: every input that completes it also "
                                "completes %s, which has higher priority (%d > %d)",
                                tb, ta, (int)A->priority, (int)B->priority);
                } else if (A->priority == B->priority && r < 0) {
                    /* They share B's last input, so the one ranked higher always takes it. */
                    add_finding(out, FG_MOTION_LINT_NEVER, (uint16_t)b, (uint16_t)a,
                                "warning: %s can never fire: every input that completes it also "
                                "completes %s, which ranks higher by %s. Give %s a higher "
                                "priority or drop it",
                                tb, ta, implicit_rule(A, B), B->name);
                    never[b] = true;
                } else if (A->priority == B->priority) {
                    add_finding(out, FG_MOTION_LINT_CONTAINED, (uint16_t)a, (uint16_t)b,
                                "warning: %s is contained in %s: every input that completes %s "
                                "also completes %s, both with priority %d; %s wins only by %s. "
                                "Give them explicit priorities",
                                ta, tb, B->name, A->name, (int)A->priority, B->name,
                                implicit_rule(B, A));
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
            add_finding(out, FG_MOTION_LINT_AMBIGUOUS, (uint16_t)a, (uint16_t)b,
                        "warning: %s and %s both complete on %s with priority %d; %s wins only "
                        "by %s. Give the one that should win a higher priority",
                        ta, tb, path, (int)A->priority, W->name, implicit_rule(W, L));
        }
}

/* }====================================================================== */
