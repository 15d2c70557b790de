/* SPDX-License-Identifier: MIT */
/*
** ruleset.c: the ruleset builder, the validator and the compiler to the flat runtime form.
**
** Building is transactional: declarations are copied into the builder, fg_ruleset_build checks
** everything and reports every finding with its path, and only a complete success produces a
** ruleset. Ids are assigned from names sorted bytewise, so the order in which a script declared
** things (or the order Lua's pairs produced them) never changes an id.
*/
#include "ruleset_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BUTTONS (FG_INPUT_MAX_ACTIONS - FG_IN_FIRST_BUTTON)

struct fg_ruleset_builder {
    fg_allocator alloc;
    char name[FG_NAME_MAX];
    uint64_t source_hash;
    uint32_t nbuttons, nlayers, nresources, nactions, cap_actions, nmotions;
    char buttons[MAX_BUTTONS][FG_IN_NAME_MAX];
    char layers[FG_MAX_LAYERS][FG_NAME_MAX];
    fg_resource_def resources[FG_MAX_RESOURCES];
    fg_action_def *actions;
    fg_motion_rt motions[FG_MAX_MOTIONS];
    fg_physics_def physics;
    fg_stage stage;
    bool has_stage;
    fg_queue_policy queue;
    fg_motion_mode command_mode;
    struct {
        char name[FG_IN_NAME_MAX];
        char members[FG_MAX_TARGETS][FG_IN_NAME_MAX];
        uint32_t n;
    } groups[FG_MOTION_MAX_GROUPS];
    uint32_t ngroups;
    fg_builder_hits hits; /* default boxes and combat rules (ruleset_hits.c) */
    bool failed; /* a declaration was refused: build will refuse too */
    fg_error first_error;
};

/* {====================================================================== defaults */

fg_action_def fg_action_def_default(const char *name) {
    fg_action_def a;
    memset(&a, 0, sizeof a);
    snprintf(a.name, sizeof a.name, "%s", name ? name : "");
    a.recovery = 1;
    a.duration = 1;
    snprintf(a.group, sizeof a.group, "grounded");
    return a;
}

fg_queue_policy fg_queue_policy_default(void) {
    fg_queue_policy q;
    q.depth = 3;
    q.order = FG_QUEUE_FIFO;
    q.expiry = 0;
    return q;
}

const char *fg_queue_order_name(fg_queue_order o) {
    return o == FG_QUEUE_LATEST ? "latest" : o == FG_QUEUE_FIFO ? "fifo" : "unknown";
}

fg_physics_def fg_physics_def_default(void) {
    fg_physics_def p;
    p.gravity = -FG_FX(1) / 2;
    p.ground_y = 0;
    p.min_gap = FG_FX(40);
    p.stage_min = FG_FX(-400);
    p.stage_max = FG_FX(400);
    return p;
}

/* }====================================================================== */

/* {====================================================================== builder */

fg_ruleset_builder *fg_ruleset_builder_create(const char *name, const fg_allocator *alloc) {
    fg_allocator a = alloc && alloc->realloc ? *alloc : fg_allocator_default();
    fg_ruleset_builder *b = fg_alloc(&a, sizeof *b);
    if (!b) return NULL;
    b->alloc = a;
    snprintf(b->name, sizeof b->name, "%s", name ? name : "rules");
    b->physics = fg_physics_def_default();
    b->queue = fg_queue_policy_default();
    b->hits.combat = fg_combat_def_default();
    return b;
}

void fg_ruleset_builder_destroy(fg_ruleset_builder *b) {
    if (!b) return;
    fg_allocator a = b->alloc;
    fg_error_clear(&b->first_error);
    fg_free(&a, b->actions, sizeof(fg_action_def) * b->cap_actions);
    fg_free(&a, b, sizeof *b);
}

/* The builder keeps its own copy of the first error; err gets the message itself (a move). */
static void refusev(fg_ruleset_builder *b, fg_error *err, fg_status code, const char *fmt,
                    va_list ap) {
    fg_error local;
    fg_error_setv(&local, code, fmt, ap);
    if (!b->failed) fg_error_copy(&b->first_error, &local);
    b->failed = true;
    if (err) *err = local;
    else fg_error_clear(&local);
}

static fg_status refuse(fg_ruleset_builder *b, fg_error *err, fg_status code, const char *fmt,
                        ...) FG_PRINTF(4, 5);

static fg_status refuse(fg_ruleset_builder *b, fg_error *err, fg_status code, const char *fmt,
                        ...) {
    va_list ap;
    va_start(ap, fmt);
    refusev(b, err, code, fmt, ap);
    va_end(ap);
    return code;
}

static bool name_ok(const char *s, size_t max) {
    size_t n = s ? strlen(s) : 0;
    return n > 0 && n < max;
}

fg_status fg_ruleset_add_button(fg_ruleset_builder *b, const char *name, fg_error *err) {
    if (!name_ok(name, FG_IN_NAME_MAX))
        return refuse(b, err, FG_EINVAL, "buttons: '%s' must be 1 to %d characters",
                      name ? name : "", FG_IN_NAME_MAX - 1);
    if (b->nbuttons == MAX_BUTTONS)
        return refuse(b, err, FG_ENOMEM, "buttons: at most %d", MAX_BUTTONS);
    snprintf(b->buttons[b->nbuttons++], FG_IN_NAME_MAX, "%s", name);
    return FG_OK;
}

fg_status fg_ruleset_add_layer(fg_ruleset_builder *b, const char *name, fg_error *err) {
    if (!name_ok(name, FG_NAME_MAX))
        return refuse(b, err, FG_EINVAL, "layers: '%s' must be 1 to %d characters",
                      name ? name : "", FG_NAME_MAX - 1);
    for (uint32_t i = 0; i < b->nlayers; i++)
        if (strcmp(b->layers[i], name) == 0)
            return refuse(b, err, FG_EINVAL, "layers: '%s' is declared twice", name);
    if (b->nlayers == FG_MAX_LAYERS)
        return refuse(b, err, FG_ENOMEM, "layers: at most %d", FG_MAX_LAYERS);
    snprintf(b->layers[b->nlayers++], FG_NAME_MAX, "%s", name);
    return FG_OK;
}

fg_status fg_ruleset_add_resource(fg_ruleset_builder *b, const fg_resource_def *r, fg_error *err) {
    if (!name_ok(r->name, FG_NAME_MAX))
        return refuse(b, err, FG_EINVAL, "resources: name '%s' must be 1 to %d characters",
                      r->name, FG_NAME_MAX - 1);
    for (uint32_t i = 0; i < b->nresources; i++)
        if (strcmp(b->resources[i].name, r->name) == 0)
            return refuse(b, err, FG_EINVAL, "resources.%s: declared twice", r->name);
    if (b->nresources == FG_MAX_RESOURCES)
        return refuse(b, err, FG_ENOMEM, "resources: at most %d", FG_MAX_RESOURCES);
    b->resources[b->nresources++] = *r;
    return FG_OK;
}

fg_status fg_ruleset_add_action(fg_ruleset_builder *b, const fg_action_def *a, fg_error *err) {
    if (!name_ok(a->name, FG_NAME_MAX))
        return refuse(b, err, FG_EINVAL, "actions: name '%s' must be 1 to %d characters", a->name,
                      FG_NAME_MAX - 1);
    if (b->nactions == FG_MAX_ACTIONS)
        return refuse(b, err, FG_ENOMEM, "actions: at most %d", FG_MAX_ACTIONS);
    if (b->nactions == b->cap_actions) {
        uint32_t cap = b->cap_actions ? b->cap_actions * 2 : 16;
        fg_action_def *p = fg_realloc(&b->alloc, b->actions, sizeof *p * b->cap_actions,
                                      sizeof *p * cap);
        if (!p) return refuse(b, err, FG_ENOMEM, "actions: out of memory");
        b->actions = p;
        b->cap_actions = cap;
    }
    b->actions[b->nactions++] = *a;
    return FG_OK;
}

fg_status fg_ruleset_add_motion(fg_ruleset_builder *b, const fg_motion_def *def, fg_error *err) {
    const char *name = def ? def->name : NULL;
    if (!name_ok(name, FG_NAME_MAX))
        return refuse(b, err, FG_EINVAL, "motions: name '%s' must be 1 to %d characters",
                      name ? name : "", FG_NAME_MAX - 1);
    if (!name_ok(def->notation, FG_MOTION_NOTATION_MAX))
        return refuse(b, err, FG_EINVAL, "motions.%s: notation must be 1 to %d characters", name,
                      FG_MOTION_NOTATION_MAX - 1);
    if (b->nmotions == FG_MAX_MOTIONS)
        return refuse(b, err, FG_ENOMEM, "motions: at most %d", FG_MAX_MOTIONS);
    fg_motion_rt *m = &b->motions[b->nmotions++];
    m->def = *def;
    snprintf(m->name, sizeof m->name, "%s", name);
    snprintf(m->notation, sizeof m->notation, "%s", def->notation);
    return FG_OK;
}

fg_status fg_ruleset_add_group(fg_ruleset_builder *b, const char *name, const char *const *buttons,
                               uint32_t n, fg_error *err) {
    if (!name_ok(name, FG_IN_NAME_MAX))
        return refuse(b, err, FG_EINVAL, "groups: name '%s' must be 1 to %d characters",
                      name ? name : "", FG_IN_NAME_MAX - 1);
    if (b->ngroups == FG_MOTION_MAX_GROUPS)
        return refuse(b, err, FG_ENOMEM, "groups: at most %d", FG_MOTION_MAX_GROUPS);
    if (n == 0 || n > FG_MAX_TARGETS)
        return refuse(b, err, FG_EINVAL, "groups.%s: %u buttons, expected 1..%d", name, n,
                      FG_MAX_TARGETS);
    for (uint32_t i = 0; i < n; i++)
        if (!name_ok(buttons[i], FG_IN_NAME_MAX))
            return refuse(b, err, FG_EINVAL, "groups.%s[%u]: '%s' is not a button name", name,
                          i + 1, buttons[i] ? buttons[i] : "");
    snprintf(b->groups[b->ngroups].name, FG_IN_NAME_MAX, "%s", name);
    for (uint32_t i = 0; i < n; i++)
        snprintf(b->groups[b->ngroups].members[i], FG_IN_NAME_MAX, "%s", buttons[i]);
    b->groups[b->ngroups].n = n;
    b->ngroups++;
    return FG_OK;
}

void fg_ruleset_set_physics(fg_ruleset_builder *b, const fg_physics_def *p) { b->physics = *p; }

void fg_ruleset_set_stage(fg_ruleset_builder *b, const fg_stage *s) {
    b->stage = *s;
    b->has_stage = true;
}

void fg_ruleset_set_queue(fg_ruleset_builder *b, const fg_queue_policy *q) { b->queue = *q; }

void fg_ruleset_set_command_mode(fg_ruleset_builder *b, fg_motion_mode mode) {
    b->command_mode = mode;
}
void fg_ruleset_set_source_hash(fg_ruleset_builder *b, uint64_t hash) { b->source_hash = hash; }

fg_builder_hits *fg_ruleset_builder_hits(fg_ruleset_builder *b) { return &b->hits; }

fg_status fg_ruleset_builder_refuse(fg_ruleset_builder *b, fg_error *err, fg_status code,
                                    const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    refusev(b, err, code, fmt, ap);
    va_end(ap);
    return code;
}

/* }====================================================================== */

/* {====================================================================== validation */

static void finding(fg_findings *f, bool warning, const char *path, const char *fmt, ...)
    FG_PRINTF(4, 5);
static void finding(fg_findings *f, bool warning, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fg_findings_vaddf(f, warning, path, fmt, ap);
    va_end(ap);
}

static int cmp_action_def(const void *a, const void *b) {
    return strcmp(((const fg_action_def *)a)->name, ((const fg_action_def *)b)->name);
}

static int cmp_layer(const void *a, const void *b) { return strcmp(a, b); }

static int cmp_resource(const void *a, const void *b) {
    return strcmp(((const fg_resource_def *)a)->name, ((const fg_resource_def *)b)->name);
}

static int cmp_motion(const void *a, const void *b) {
    const fg_motion_rt *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->notation, y->notation);
}

static int find_def(const fg_action_def *defs, uint32_t n, const char *name) {
    size_t lo = 0, hi = n;
    while (lo < hi) { /* defs are sorted: binary search */
        size_t mid = (lo + hi) / 2;
        int c = strcmp(defs[mid].name, name);
        if (c == 0) return (int)mid;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

bool fg_action_has_tag(const fg_action_def *a, const char *tag) {
    for (uint32_t i = 0; i < a->ntags; i++)
        if (strcmp(a->tags[i], tag) == 0) return true;
    return false;
}

/* Resolves a cancel target (an action name or a tag) into action ids. False if it names nothing. */
static bool resolve_target(const fg_action_def *defs, uint32_t n, const char *target,
                           fg_action_set *out) {
    int id = find_def(defs, n, target);
    if (id >= 0) {
        fg_action_set_add(out, (uint32_t)id);
        return true;
    }
    bool any = false;
    for (uint32_t i = 0; i < n; i++)
        if (fg_action_has_tag(&defs[i], target)) {
            fg_action_set_add(out, i);
            any = true;
        }
    return any;
}

/* names: n strings of FG_NAME_MAX bytes each. */
static int index_of(const void *names, uint32_t n, const char *name) {
    for (uint32_t i = 0; i < n; i++)
        if (strcmp((const char *)names + (size_t)i * FG_NAME_MAX, name) == 0) return (int)i;
    return -1;
}

/* Checks one action's own fields. */
static void check_queue(const fg_queue_policy *q, fg_findings *f) {
    if (q->depth < 1 || q->depth > FG_QUEUE_MAX)
        finding(f, false, "queue.depth", "%u, expected 1..%d requests per layer", q->depth,
                FG_QUEUE_MAX);
    if (q->order != FG_QUEUE_FIFO && q->order != FG_QUEUE_LATEST)
        finding(f, false, "queue.order", "%d, expected fifo or latest", (int)q->order);
    if (q->expiry < 0 || q->expiry > 600)
        finding(f, false, "queue.expiry", "%d, expected 0..600 ticks (0 = no expiry)", q->expiry);
}

/* A follow-up starts only through a window: one no window leads to could never start. */
static void check_followups(const fg_ruleset *r, fg_findings *f) {
    for (uint32_t i = 0; i < r->nactions; i++) {
        if (!r->rt[i].followup) continue;
        bool reached = false;
        for (uint32_t k = 0; k < r->nactions && !reached; k++)
            for (uint32_t w = 0; w < r->rt[k].nwindows && !reached; w++)
                reached = k != i && fg_action_set_has(&r->rt[k].windows[w].into, i);
        if (!reached) {
            char path[96];
            snprintf(path, sizeof path, "actions.%s.followup", r->defs[i].name);
            finding(f, false, path, "no cancel window of another action leads to %s, so it could "
                    "never start (add it to a window's into, e.g. cancels = { { from =, to =, "
                    "into = { \"%s\" } } })", r->defs[i].name, r->defs[i].name);
        }
    }
}

static void check_action(const fg_ruleset *r, const fg_action_def *a, fg_findings *f) {
    char path[96];
    const char *n = a->name;
    const char *counts[3] = {"startup", "active", "recovery"};
    const int32_t vals[3] = {a->startup, a->active, a->recovery};
    for (int i = 0; i < 3; i++)
        if (vals[i] < 0) {
            snprintf(path, sizeof path, "actions.%s.%s", n, counts[i]);
            finding(f, false, path, "%d, expected a count of ticks >= 0", vals[i]);
        }
    /* With a negative phase the length is meaningless: windows, markers and moves are not
    ** measured against it (each would repeat the same mistake with a wrong number). */
    bool phases_ok = a->startup >= 0 && a->active >= 0 && a->recovery >= 0;
    int32_t duration = a->startup + a->active + a->recovery;
    if (phases_ok && duration < 1) {
        snprintf(path, sizeof path, "actions.%s", n);
        finding(f, false, path, "lasts %d ticks, expected at least 1", duration);
    }
    bool known = phases_ok && duration >= 1;
    if (!known) duration = INT32_MAX;
    for (uint32_t i = 0; i < a->ncancels; i++) {
        const fg_cancel_def *c = &a->cancels[i];
        if (c->from < 0) {
            snprintf(path, sizeof path, "actions.%s.cancels[%u].from", n, i + 1);
            finding(f, false, path, "%d, expected a tick >= 0", c->from);
        }
        if (c->to < c->from) {
            snprintf(path, sizeof path, "actions.%s.cancels[%u].to", n, i + 1);
            finding(f, false, path, "%d is before from (%d)", c->to, c->from);
        } else if (c->to >= duration) {
            snprintf(path, sizeof path, "actions.%s.cancels[%u].to", n, i + 1);
            finding(f, false, path, "%d is past the end of %s (%d ticks)", c->to, n, duration);
        }
        if (c->buffer < 0) {
            snprintf(path, sizeof path, "actions.%s.cancels[%u].buffer", n, i + 1);
            finding(f, false, path, "%d, expected ticks >= 0", c->buffer);
        }
        if (c->ntargets == 0) {
            snprintf(path, sizeof path, "actions.%s.cancels[%u].into", n, i + 1);
            finding(f, false, path, "is empty, expected action names or tags");
        }
        for (uint32_t t = 0; t < c->ntargets; t++) {
            fg_action_set tmp;
            memset(&tmp, 0, sizeof tmp);
            if (!resolve_target(r->defs, r->nactions, c->targets[t], &tmp)) {
                snprintf(path, sizeof path, "actions.%s.cancels[%u].into[%u]", n, i + 1, t + 1);
                finding(f, false, path, "'%s' is neither an action nor a tag", c->targets[t]);
            }
        }
    }
    for (uint32_t i = 0; known && i < a->nmarkers; i++)
        if (a->markers[i].tick < 0 || a->markers[i].tick >= duration) {
            snprintf(path, sizeof path, "actions.%s.markers[%u].tick", n, i + 1);
            finding(f, false, path, "%d is outside %s (ticks 0-%d)", a->markers[i].tick, n,
                    duration - 1);
        }
    for (uint32_t i = 0; known && i < a->nmoves; i++)
        if (a->moves[i].from < 0 || a->moves[i].to < a->moves[i].from ||
            a->moves[i].to >= duration) {
            snprintf(path, sizeof path, "actions.%s.moves[%u]", n, i + 1);
            finding(f, false, path, "ticks %d-%d are outside %s (ticks 0-%d)", a->moves[i].from,
                    a->moves[i].to, n, duration - 1);
        }
    if (a->landing[0] && find_def(r->defs, r->nactions, a->landing) < 0) {
        snprintf(path, sizeof path, "actions.%s.landing", n);
        finding(f, false, path, "'%s' is not an action", a->landing);
    }
    if (a->landing_recovery < 0 || a->landing_recovery > 600 ||
        (a->landing_recovery > 0 && !a->landing[0])) {
        snprintf(path, sizeof path, "actions.%s.landing_recovery", n);
        finding(f, false, path, a->landing[0] ? "%d, expected ticks 0-600"
                                              : "%d ticks, but no landing action to recover in "
                                                "(landing = \"...\")",
                a->landing_recovery);
    }
    for (uint32_t i = 0; i < a->ncosts; i++) {
        snprintf(path, sizeof path, "actions.%s.cost.%s", n, a->cost_names[i]);
        int rid = -1;
        for (uint32_t k = 0; k < r->nresources; k++)
            if (strcmp(r->resources[k].name, a->cost_names[i]) == 0) rid = (int)k;
        if (rid < 0) finding(f, false, path, "no resource '%s' is declared", a->cost_names[i]);
        if (a->cost[i] < 0) finding(f, false, path, "%d, expected a cost >= 0", a->cost[i]);
    }
    if (a->layer[0] && index_of(r->layers, r->nlayers, a->layer) < 0) {
        snprintf(path, sizeof path, "actions.%s.layer", n);
        finding(f, false, path, "'%s' is not a declared layer", a->layer);
    }
    if (a->next[0] && find_def(r->defs, r->nactions, a->next) < 0) {
        snprintf(path, sizeof path, "actions.%s.next", n);
        finding(f, false, path, "'%s' is not an action", a->next);
    }
    if (a->hold_dir < 0 || a->hold_dir > 9) {
        snprintf(path, sizeof path, "actions.%s.hold", n);
        finding(f, false, path, "%d, expected a numpad direction 1..9", a->hold_dir);
    }
    fg_hits_check(r, a, known ? duration : -1, f);
    for (uint32_t i = 0; i < a->nforbids; i++) {
        fg_action_set tmp;
        memset(&tmp, 0, sizeof tmp);
        if (!resolve_target(r->defs, r->nactions, a->forbids[i], &tmp)) {
            snprintf(path, sizeof path, "actions.%s.forbids[%u]", n, i + 1);
            finding(f, false, path, "'%s' is neither an action nor a tag", a->forbids[i]);
        }
    }
}

/* A window open on the first tick whose targets lead back to its own action on their first tick
** would let an action cancel into itself within one tick. Depth-first search over those edges. */
static bool tick0_cycle(const fg_ruleset *r, uint32_t start, uint32_t at, uint8_t *seen) {
    const fg_action_rt *a = &r->rt[at];
    for (uint32_t w = 0; w < a->nwindows; w++) {
        if (a->windows[w].from != 0) continue;
        for (uint32_t t = 0; t < r->nactions; t++) {
            if (!fg_action_set_has(&a->windows[w].into, t)) continue;
            if (t == start) return true;
            if (seen[t]) continue;
            seen[t] = 1;
            if (tick0_cycle(r, start, t, seen)) return true;
        }
    }
    return false;
}

static void check_resources(const fg_ruleset *r, fg_findings *f) {
    char path[96];
    for (uint32_t i = 0; i < r->nresources; i++) {
        const fg_resource_def *d = &r->resources[i];
        snprintf(path, sizeof path, "resources.%s", d->name);
        if (d->max < 1) finding(f, false, path, "max %d, expected >= 1", d->max);
        else if (d->start < 0 || d->start > d->max)
            finding(f, false, path, "start %d, expected 0..max (%d)", d->start, d->max);
        if (d->regen < 0) finding(f, false, path, "regen %d, expected >= 0", d->regen);
        if (d->regen_every < 1)
            finding(f, false, path, "regen_every %d, expected >= 1 tick", d->regen_every);
    }
}

/* }====================================================================== */

/* {====================================================================== compile */

static void compile_action(fg_ruleset *r, uint32_t id) {
    const fg_action_def *a = &r->defs[id];
    fg_action_rt *rt = &r->rt[id];
    memset(rt, 0, sizeof *rt);
    rt->startup = a->startup;
    rt->active = a->active;
    rt->duration = a->startup + a->active + a->recovery;
    if (rt->duration < 1) rt->duration = 1;
    int layer = a->layer[0] ? index_of(r->layers, r->nlayers, a->layer) : 0;
    rt->layer = (uint8_t)(layer < 0 ? 0 : layer);
    rt->group = (uint8_t)index_of(r->groups, r->ngroups, a->group);
    rt->requires = (int8_t)(a->requires[0] ? index_of(r->groups, r->ngroups, a->requires) : -1);
    rt->loop = a->loop;
    rt->neutral = a->neutral;
    rt->interrupts = a->interrupts;
    rt->followup = a->followup;
    rt->hold_dir = (int8_t)a->hold_dir;
    rt->hold_bits = a->hold_dir ? (uint8_t)fg_bits_of_numpad(a->hold_dir) : 0;
    rt->next_held = FG_NO_ACTION;
    rt->priority = a->priority;
    int next = a->next[0] ? find_def(r->defs, r->nactions, a->next) : -1;
    rt->next = next < 0 ? FG_NO_ACTION : (uint16_t)next;
    rt->motion = FG_NO_ACTION;
    rt->root_motion = (uint8_t)a->root_motion;
    rt->nwindows = (uint8_t)a->ncancels;
    for (uint32_t i = 0; i < a->ncancels; i++) {
        const fg_cancel_def *c = &a->cancels[i];
        fg_window_rt *w = &rt->windows[i];
        w->from = c->from;
        w->to = c->to;
        w->buffer = c->buffer;
        w->on = (uint8_t)c->on;
        w->when_var = -1; /* resolved with the variables (vars.c) */
        for (uint32_t t = 0; t < c->ntargets; t++)
            resolve_target(r->defs, r->nactions, c->targets[t], &w->into);
    }
    rt->nmarkers = (uint8_t)a->nmarkers;
    for (uint32_t i = 0; i < a->nmarkers; i++) {
        rt->markers[i].tick = a->markers[i].tick;
        rt->markers[i].once = a->markers[i].once;
        rt->markers[i].marker =
            (uint16_t)index_of(r->marker_names, r->nmarkers,
                               a->markers[i].name);
        rt->markers[i].is_hit =
            !strcmp(a->markers[i].name, "hit") || !strcmp(a->markers[i].name, "damage");
        /* Seed 000's stamp numbers a marker per appearance: two footsteps in one walk cycle are
        ** occurrences 0 and 1, the next cycle's 2 and 3. The rank orders same-named markers by
        ** tick, then by declaration. */
        uint8_t rank = 0, same = 0;
        for (uint32_t j = 0; j < a->nmarkers; j++) {
            if (strcmp(a->markers[j].name, a->markers[i].name) != 0) continue;
            same++;
            if (a->markers[j].tick < a->markers[i].tick ||
                (a->markers[j].tick == a->markers[i].tick && j < i))
                rank++;
        }
        rt->markers[i].rank = rank;
        rt->markers[i].same = same;
    }
    rt->nmoves = (uint8_t)a->nmoves;
    memcpy(rt->moves, a->moves, sizeof rt->moves);
    int landing = a->landing[0] ? find_def(r->defs, r->nactions, a->landing) : -1;
    rt->landing = landing < 0 ? FG_NO_ACTION : (uint16_t)landing;
    rt->landing_recovery = a->landing_recovery;
    rt->has_gravity = a->has_gravity;
    rt->gravity = a->has_gravity ? a->gravity : 0;
    for (uint32_t i = 0; i < a->ncosts; i++)
        for (uint32_t k = 0; k < r->nresources; k++)
            if (strcmp(r->resources[k].name, a->cost_names[i]) == 0) rt->cost[k] = a->cost[i];
    rt->hit = a->hit;
    fg_hits_compile(r, id);
    for (uint32_t i = 0; i < a->nforbids; i++)
        resolve_target(r->defs, r->nactions, a->forbids[i], &rt->tagged_forbid);
}

/* Collects distinct strings (group names, marker names) in sorted order. */
static uint32_t add_sorted_unique(char (*names)[FG_NAME_MAX], uint32_t n, uint32_t max,
                                  const char *s) {
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return n;
    if (n == max) return n;
    uint32_t at = n;
    while (at > 0 && strcmp(names[at - 1], s) > 0) {
        memcpy(names[at], names[at - 1], FG_NAME_MAX);
        at--;
    }
    snprintf(names[at], FG_NAME_MAX, "%s", s);
    return n + 1;
}

static void free_ruleset(fg_ruleset *r) {
    fg_allocator a = r->alloc;
    fg_free(&a, r->defs, sizeof(fg_action_def) * r->nactions);
    fg_free(&a, r->rt, sizeof(fg_action_rt) * r->nactions);
    fg_free(&a, r->marker_names, FG_NAME_MAX * (size_t)(r->nactions * FG_MAX_MARKERS + 1));
    fg_free(&a, r->motions, sizeof(fg_motion_rt) * (r->nmotions + 1));
    fg_free(&a, r->motion_key, sizeof *r->motion_key * (size_t)(r->nmotions + r->nactions + 1));
    fg_motion_set_destroy(r->motion_set);
    fg_free(&a, r, sizeof *r);
}

/* The content hash: every compiled field that affects gameplay, fed field by field. */
static uint64_t content_hash(const fg_ruleset *r) {
    fg_hasher hs = fg_hasher_begin(0x72756c65u);
    fg_hash_str(&hs, r->name);
    for (uint32_t i = 0; i < r->buttons.count; i++) fg_hash_str(&hs, r->buttons.names[i]);
    for (uint32_t i = 0; i < r->nlayers; i++) fg_hash_str(&hs, r->layers[i]);
    for (uint32_t i = 0; i < r->nresources; i++) {
        const fg_resource_def *d = &r->resources[i];
        fg_hash_str(&hs, d->name);
        fg_hash_i64(&hs, d->max);
        fg_hash_i64(&hs, d->start);
        fg_hash_i64(&hs, d->regen);
        fg_hash_i64(&hs, d->regen_every);
    }
    for (uint32_t i = 0; i < r->nactions; i++) {
        const fg_action_def *a = &r->defs[i];
        const fg_action_rt *rt = &r->rt[i];
        fg_hash_str(&hs, a->name);
        fg_hash_str(&hs, a->input);
        fg_hash_i64(&hs, rt->duration);
        fg_hash_i64(&hs, rt->startup);
        fg_hash_i64(&hs, rt->active);
        fg_hash_u64(&hs, (uint64_t)rt->layer | (uint64_t)rt->group << 8 |
                             (uint64_t)(uint8_t)rt->requires << 16 | (uint64_t)rt->loop << 24 |
                             (uint64_t)rt->neutral << 25 | (uint64_t)rt->interrupts << 26 |
                             (uint64_t)(uint8_t)rt->hold_dir << 32 | (uint64_t)rt->next << 40 |
                             (uint64_t)rt->root_motion << 56);
        fg_hash_i64(&hs, rt->priority);
        for (uint32_t w = 0; w < rt->nwindows; w++) {
            const fg_window_rt *win = &rt->windows[w];
            fg_hash_i64(&hs, win->from);
            fg_hash_i64(&hs, win->to);
            fg_hash_i64(&hs, win->buffer);
            fg_hash_u64(&hs, win->on);
            for (int k = 0; k < FG_ACTION_WORDS; k++) fg_hash_u64(&hs, win->into.w[k]);
        }
        for (uint32_t m = 0; m < rt->nmarkers; m++) {
            fg_hash_i64(&hs, rt->markers[m].tick);
            fg_hash_str(&hs, a->markers[m].name);
            fg_hash_u64(&hs, rt->markers[m].once);
        }
        for (uint32_t m = 0; m < rt->nmoves; m++) {
            fg_hash_i64(&hs, rt->moves[m].from);
            fg_hash_i64(&hs, rt->moves[m].to);
            fg_hash_i64(&hs, rt->moves[m].vx);
            fg_hash_i64(&hs, rt->moves[m].vy);
        }
        for (uint32_t k = 0; k < r->nresources; k++) fg_hash_i64(&hs, rt->cost[k]);
        const fg_hit_def *h = &rt->hit;
        fg_hash_u64(&hs, (uint64_t)h->enabled | (uint64_t)h->low << 1 | (uint64_t)h->overhead << 2);
        fg_hash_i64(&hs, h->range);
        fg_hash_i64(&hs, h->damage);
        fg_hash_i64(&hs, h->hitstop);
        fg_hash_i64(&hs, h->hitstun);
        fg_hash_i64(&hs, h->blockstun);
        fg_hash_i64(&hs, h->meter_gain);
        for (int k = 0; k < FG_ACTION_WORDS; k++) fg_hash_u64(&hs, rt->tagged_forbid.w[k]);
        fg_hits_hash_action(&hs, rt);
        /* Only an action with variable changes hashes them: every other ruleset keeps its hash. */
        if (rt->nvar_effects) {
            fg_hash_u64(&hs, rt->nvar_effects);
            for (uint32_t k = 0; k < rt->nvar_effects; k++) {
                fg_hash_u64(&hs, (uint64_t)rt->var_effects[k].var |
                                     (uint64_t)rt->var_effects[k].when << 8 |
                                     (uint64_t)rt->var_effects[k].op << 16);
                fg_hash_i64(&hs, rt->var_effects[k].value);
            }
        }
    }
    fg_hits_hash(&hs, r);
    fg_vars_hash(&hs, r);
    fg_hash_u64(&hs, r->motion_set ? fg_motion_set_hash(r->motion_set) : 0);
    /* Added to the hash only where they differ from what rulesets had before they existed, so
    ** the hash of every ruleset that does not use them stays what it was. */
    for (uint32_t i = 0; i < r->nactions; i++)
        if (r->rt[i].followup) fg_hash_str(&hs, r->defs[i].name);
    fg_queue_policy qd = fg_queue_policy_default();
    if (r->queue.depth != qd.depth || r->queue.order != qd.order || r->queue.expiry != qd.expiry) {
        fg_hash_u64(&hs, r->queue.depth);
        fg_hash_u64(&hs, (uint64_t)r->queue.order);
        fg_hash_i64(&hs, r->queue.expiry);
    }
    /* Movement data added with the stage: hashed only where used, like the queue above. */
    for (uint32_t i = 0; i < r->nactions; i++) {
        const fg_action_rt *rt = &r->rt[i];
        for (uint32_t m = 0; m < rt->nmoves; m++)
            if (rt->moves[m].ax || rt->moves[m].ay || rt->moves[m].flags) {
                fg_hash_u64(&hs, (uint64_t)i << 8 | m);
                fg_hash_i64(&hs, rt->moves[m].ax);
                fg_hash_i64(&hs, rt->moves[m].ay);
                fg_hash_u64(&hs, rt->moves[m].flags);
            }
        if (rt->landing != FG_NO_ACTION || rt->has_gravity) {
            fg_hash_u64(&hs, (uint64_t)i << 32 | rt->landing);
            fg_hash_i64(&hs, rt->landing_recovery);
            fg_hash_i64(&hs, rt->has_gravity ? rt->gravity : INT64_MIN);
        }
    }
    if (r->stage.nplatforms || r->stage.nblocks) fg_stage_hash(&r->stage, &hs);
    const fg_physics_def *p = &r->physics;
    fg_hash_i64(&hs, p->gravity);
    fg_hash_i64(&hs, p->ground_y);
    fg_hash_i64(&hs, p->min_gap);
    fg_hash_i64(&hs, p->stage_min);
    fg_hash_i64(&hs, p->stage_max);
    return fg_hasher_end(&hs);
}

/* The first action (by id) whose inline `input` is the same notation as action i's: actions
** written with the same notation share one motion, and the state decides which one it asks
** for (see fg_route_motion). */
static uint32_t inline_owner(const fg_ruleset *r, uint32_t i) {
    for (uint32_t k = 0; k < i; k++)
        if (strcmp(r->defs[k].input, r->defs[i].input) == 0) return k;
    return i;
}

/* Compiles the motion patterns: the declared motions, plus one per action whose `input` is a
** notation rather than a motion's name (named after the action). Each pattern is compiled alone
** first so that a bad one is reported with its own path, then all together. */
static void compile_motions(fg_ruleset *r, const fg_ruleset_builder *b, fg_findings *f,
                            bool check_only) {
    const char *buttons[MAX_BUTTONS];
    uint32_t nbuttons = r->buttons.count - FG_IN_FIRST_BUTTON;
    for (uint32_t i = 0; i < nbuttons; i++) buttons[i] = r->buttons.names[FG_IN_FIRST_BUTTON + i];
    fg_motion_group_def gdefs[FG_MOTION_MAX_GROUPS];
    const char *members[FG_MOTION_MAX_GROUPS][FG_MAX_TARGETS];
    for (uint32_t g = 0; g < b->ngroups; g++) {
        for (uint32_t i = 0; i < b->groups[g].n; i++) members[g][i] = b->groups[g].members[i];
        gdefs[g].name = b->groups[g].name;
        gdefs[g].members = members[g];
        gdefs[g].nmembers = b->groups[g].n;
    }
    fg_motion_buttons mb;
    fg_error err = {0};
    if (fg_motion_buttons_init(&mb, buttons, nbuttons, b->ngroups ? gdefs : NULL, b->ngroups,
                               &err) != FG_OK) {
        finding(f, false, "groups", "%s", fg_error_message(&err));
        fg_error_clear(&err);
        return;
    }
    uint32_t cap = r->nmotions + r->nactions;
    fg_motion_def *defs = fg_alloc(&r->alloc, sizeof *defs * (cap ? cap : 1));
    char (*paths)[96] = fg_alloc(&r->alloc, sizeof *paths * (cap ? cap : 1));
    r->motion_key = fg_alloc(&r->alloc, sizeof *r->motion_key * (size_t)(cap + 1));
    if (!defs || !paths || !r->motion_key) {
        finding(f, false, "motions", "out of memory");
        fg_free(&r->alloc, defs, sizeof *defs * (cap ? cap : 1));
        fg_free(&r->alloc, paths, sizeof *paths * (cap ? cap : 1));
        return;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->nmotions; i++) {
        defs[n] = r->motions[i].def;
        defs[n].name = r->motions[i].name;
        defs[n].notation = r->motions[i].notation;
        snprintf(paths[n++], 96, "motions.%s", r->motions[i].name);
    }
    for (uint32_t i = 0; i < r->nactions; i++) {
        const fg_action_def *a = &r->defs[i];
        if (!a->input[0] || inline_owner(r, i) != i) continue; /* a shared notation: once */
        bool named = false;
        for (uint32_t m = 0; m < r->nmotions; m++) named |= strcmp(r->motions[m].name, a->input) == 0;
        if (named) continue;
        memset(&defs[n], 0, sizeof defs[n]);
        defs[n].name = a->name;
        defs[n].notation = a->input;
        snprintf(paths[n++], 96, "actions.%s.input", a->name);
    }
    for (uint32_t i = 0; i < n; i++) {
        fg_motion_set *one = NULL;
        if (fg_motion_set_compile(&mb, &defs[i], 1, &r->alloc, &one, &err) != FG_OK) {
            finding(f, false, paths[i], "%s", fg_error_message(&err));
            fg_error_clear(&err);
        }
        fg_motion_set_destroy(one);
    }
    fg_motion_options opts = {b->command_mode, NULL};
    if (check_only) {
        fg_free(&r->alloc, defs, sizeof *defs * (cap ? cap : 1));
        fg_free(&r->alloc, paths, sizeof *paths * (cap ? cap : 1));
        return;
    }
    if (fg_findings_errors(f) == 0 &&
        fg_motion_set_compile_with(&mb, defs, n, &opts, &r->alloc, &r->motion_set, &err) != FG_OK) {
        finding(f, false, "motions", "%s", fg_error_message(&err));
        fg_error_clear(&err);
    }
    fg_free(&r->alloc, defs, sizeof *defs * (cap ? cap : 1));
    fg_free(&r->alloc, paths, sizeof *paths * (cap ? cap : 1));
    if (!r->motion_set) return;
    r->motion_flags = fg_motion_set_mode(r->motion_set) == FG_MOTION_MODE_FLAGS;
    uint32_t lints = 0;
    const fg_motion_finding *lint = fg_motion_lint(r->motion_set, &lints);
    for (uint32_t i = 0; i < lints; i++) finding(f, true, "motions", "%s", lint[i].text);
    /* Which actions each motion requests: the action of the same name, those naming it, and
    ** every action written with the same inline notation (a chain on one button). Alternatives
    ** under one name are several patterns: each maps to the first of its name, the key. */
    uint32_t nm = fg_motion_count(r->motion_set);
    for (uint32_t m = 0; m < nm; m++) {
        r->motion_key[m] = (uint16_t)m;
        for (uint32_t k = 0; k < m; k++)
            if (strcmp(fg_motion_name(r->motion_set, k), fg_motion_name(r->motion_set, m)) == 0) {
                r->motion_key[m] = (uint16_t)k;
                break;
            }
    }
    for (uint32_t i = 0; i < r->nactions; i++) {
        const fg_action_def *a = &r->defs[i];
        const char *motion = a->input[0] ? a->input : a->name;
        bool named = false;
        for (uint32_t m = 0; m < r->nmotions; m++) named |= strcmp(r->motions[m].name, motion) == 0;
        /* An inline notation is a motion named after the first action written with it. */
        if (a->input[0] && !named) motion = r->defs[inline_owner(r, i)].name;
        for (uint32_t m = 0; m < nm; m++)
            if (strcmp(fg_motion_name(r->motion_set, m), motion) == 0) {
                r->rt[i].motion = r->motion_key[m];
                break;
            }
    }
}

/* Refuses a build: err gets the first error finding (or the lack of memory), r is freed. */
static fg_ruleset *refuse_build(fg_ruleset *r, const fg_findings *f, fg_error *err) {
    if (fg_findings_lost(f) > 0)
        fg_error_set(err, FG_ENOMEM, "rules: out of memory recording the validator's findings "
                     "(%u not stored)", fg_findings_lost(f));
    else
        for (uint32_t i = 0; i < fg_findings_count(f); i++) {
            fg_finding x = fg_findings_get(f, i);
            if (x.severity != FG_SEVERITY_ERROR) continue;
            fg_error_set(err, FG_EINVAL, "%s: %s", x.path, x.message);
            break;
        }
    if (r) free_ruleset(r);
    return NULL;
}

/* The build proper, into a list the caller owns or build's own. */
static fg_ruleset *build(fg_ruleset_builder *b, fg_findings *f, fg_error *err);

fg_ruleset *fg_ruleset_build(fg_ruleset_builder *b, fg_findings *findings, fg_error *err) {
    if (findings) {
        fg_findings_clear(findings);
        return build(b, findings, err);
    }
    fg_findings *local;
    if (fg_findings_create(&b->alloc, &local, err) != FG_OK) return NULL;
    fg_ruleset *r = build(b, local, err);
    fg_findings_destroy(local);
    return r;
}

uint32_t fg_ruleset_neutral_scan(const fg_ruleset *r, uint32_t layer, int group, uint32_t held) {
    uint32_t best = r->layer_neutral[layer];
    if (layer == 0 && group == r->airborne && r->air_neutral != FG_NO_ACTION) best = r->air_neutral;
    int32_t best_priority = INT32_MIN;
    for (uint32_t i = r->first_held[layer]; i != FG_NO_ACTION; i = r->rt[i].next_held) {
        const fg_action_rt *a = &r->rt[i];
        if (a->group != group) continue;
        uint32_t want = a->hold_bits;
        if ((held & want) != want) continue;
        if (a->priority > best_priority) {
            best = i;
            best_priority = a->priority;
        }
    }
    return best;
}

static fg_ruleset *build(fg_ruleset_builder *b, fg_findings *f, fg_error *err) {
    if (b->failed) {
        finding(f, false, "rules", "%s", fg_error_message(&b->first_error));
        fg_error_copy(err, &b->first_error);
        return NULL;
    }
    fg_ruleset *r = fg_alloc(&b->alloc, sizeof *r);
    if (!r) {
        fg_error_set(err, FG_ENOMEM, "rules: out of memory");
        return NULL;
    }
    r->refs = 1;
    r->alloc = b->alloc;
    memcpy(r->name, b->name, sizeof r->name);
    r->source_hash = b->source_hash;
    r->physics = b->physics;
    if (b->has_stage) {
        /* The stage's floor and walls are the physics' ground and stage limits. */
        r->stage = b->stage;
        r->physics.ground_y = b->stage.floor;
        r->physics.stage_min = b->stage.wall_min;
        r->physics.stage_max = b->stage.wall_max;
    } else {
        r->stage = fg_stage_default();
        r->stage.floor = b->physics.ground_y;
        r->stage.wall_min = b->physics.stage_min;
        r->stage.wall_max = b->physics.stage_max;
    }
    r->queue = b->queue;
    r->nactions = b->nactions;
    r->nmotions = b->nmotions;
    r->defs = fg_alloc(&r->alloc, sizeof(fg_action_def) * (r->nactions ? r->nactions : 1));
    r->rt = fg_alloc(&r->alloc, sizeof(fg_action_rt) * (r->nactions ? r->nactions : 1));
    r->marker_names = fg_alloc(&r->alloc, FG_NAME_MAX * (size_t)(r->nactions * FG_MAX_MARKERS + 1));
    r->motions = fg_alloc(&r->alloc, sizeof(fg_motion_rt) * (r->nmotions + 1));
    if (!r->defs || !r->rt || !r->marker_names || !r->motions) {
        free_ruleset(r);
        fg_error_set(err, FG_ENOMEM, "rules: out of memory");
        return NULL;
    }

    /* Names in sorted order, then ids. */
    const char *buttons[MAX_BUTTONS];
    for (uint32_t i = 0; i < b->nbuttons; i++) buttons[i] = b->buttons[i];
    fg_error berr = {0};
    if (fg_action_names_init(&r->buttons, buttons, b->nbuttons, &berr) != FG_OK) {
        const char *m = fg_error_message(&berr);
        finding(f, false, "buttons", "%s", m + (strncmp(m, "buttons", 7) == 0 ? 9 : 0));
        fg_error_clear(&berr);
    }
    if (b->nlayers == 0) {
        snprintf(r->layers[0], FG_NAME_MAX, "body");
        r->nlayers = 1;
    } else {
        memcpy(r->layers, b->layers, sizeof r->layers);
        r->nlayers = b->nlayers;
        qsort(r->layers, r->nlayers, FG_NAME_MAX, cmp_layer);
    }
    memcpy(r->resources, b->resources, sizeof r->resources);
    r->nresources = b->nresources;
    qsort(r->resources, r->nresources, sizeof r->resources[0], cmp_resource);
    for (uint32_t k = 0; k < r->nresources; k++) r->regen |= r->resources[k].regen > 0;
    memcpy(r->defs, b->actions, sizeof(fg_action_def) * r->nactions);
    qsort(r->defs, r->nactions, sizeof r->defs[0], cmp_action_def);
    /* The definition a reader gets back states its length as the sum of its phases, whatever a
    ** caller left in `duration` (a C caller who set the phases of a default def left 1). */
    for (uint32_t i = 0; i < r->nactions; i++) {
        fg_action_def *a = &r->defs[i];
        int64_t sum = (int64_t)a->startup + a->active + a->recovery;
        a->duration = sum < 1 ? 1 : sum > INT32_MAX ? INT32_MAX : (int32_t)sum;
    }
    memcpy(r->motions, b->motions, sizeof(fg_motion_rt) * r->nmotions);
    qsort(r->motions, r->nmotions, sizeof r->motions[0], cmp_motion);

    for (uint32_t i = 1; i < r->nactions; i++)
        if (strcmp(r->defs[i - 1].name, r->defs[i].name) == 0) {
            char path[96];
            snprintf(path, sizeof path, "actions.%s", r->defs[i].name);
            finding(f, false, path, "is declared twice");
        }
    /* Several notations under one name are alternatives; the same one twice is a mistake. */
    for (uint32_t i = 1; i < r->nmotions; i++)
        if (strcmp(r->motions[i - 1].name, r->motions[i].name) == 0 &&
            strcmp(r->motions[i - 1].notation, r->motions[i].notation) == 0) {
            char path[96];
            snprintf(path, sizeof path, "motions.%s", r->motions[i].name);
            finding(f, false, path, "'%s' is declared twice", r->motions[i].notation);
        }
    r->ngroups = add_sorted_unique(r->groups, 0, FG_MAX_GROUPS, "airborne");
    r->ngroups = add_sorted_unique(r->groups, r->ngroups, FG_MAX_GROUPS, "grounded");
    for (uint32_t i = 0; i < r->nactions; i++) {
        const fg_action_def *a = &r->defs[i];
        if (a->group[0]) {
            uint32_t before = r->ngroups;
            r->ngroups = add_sorted_unique(r->groups, r->ngroups, FG_MAX_GROUPS, a->group);
            if (r->ngroups == before && index_of(r->groups, r->ngroups, a->group) < 0) {
                char path[96];
                snprintf(path, sizeof path, "actions.%s.group", a->name);
                finding(f, false, path, "'%s': at most %d groups", a->group, FG_MAX_GROUPS);
            }
        } else {
            char path[96];
            snprintf(path, sizeof path, "actions.%s.group", a->name);
            finding(f, false, path, "is empty, expected a state group such as 'grounded'");
        }
        for (uint32_t m = 0; m < a->nmarkers; m++)
            r->nmarkers = add_sorted_unique(r->marker_names, r->nmarkers,
                                            r->nactions * FG_MAX_MARKERS + 1, a->markers[m].name);
    }
    for (uint32_t i = 0; i < r->nactions; i++)
        if (r->defs[i].requires[0] && index_of(r->groups, r->ngroups, r->defs[i].requires) < 0) {
            char path[96];
            snprintf(path, sizeof path, "actions.%s.requires", r->defs[i].name);
            finding(f, false, path, "'%s' is not a state group (groups: grounded, airborne, or "
                    "one an action declares)", r->defs[i].requires);
        }
    check_resources(r, f);
    check_queue(&r->queue, f);
    char spath[96], smsg[160];
    if (fg_stage_problem(&r->stage, spath, sizeof spath, smsg, sizeof smsg))
        finding(f, false, spath, "%s", smsg);
    for (uint32_t i = 0; i < r->nactions; i++) check_action(r, &r->defs[i], f);
    bool clean = fg_findings_errors(f) == 0;
    if (clean) {
        for (uint32_t i = 0; i < r->nactions; i++) compile_action(r, i);
        check_followups(r, f);
        uint8_t *seen = fg_alloc(&r->alloc, r->nactions + 1);
        for (uint32_t i = 0; seen && i < r->nactions; i++) {
            memset(seen, 0, r->nactions + 1);
            if (tick0_cycle(r, i, i, seen)) {
                char path[96];
                snprintf(path, sizeof path, "actions.%s.cancels", r->defs[i].name);
                finding(f, false, path, "a window open on tick 0 leads back to %s on tick 0: it "
                        "could cancel into itself within one tick", r->defs[i].name);
            }
        }
        fg_free(&r->alloc, seen, r->nactions + 1);
        /* Each layer's neutral: the neutral action without a hold direction, lowest id. Its
        ** neutrals with a hold direction are chained in id order. */
        /* An airborne neutral (a fall) is never the layer's neutral: the stage puts a fighter in
        ** it when nothing holds it up. */
        int air = index_of(r->groups, r->ngroups, "airborne");
        r->air_neutral = FG_NO_ACTION;
        for (uint32_t i = 0; i < r->nactions; i++)
            if (r->rt[i].layer == 0 && r->rt[i].neutral && r->rt[i].hold_dir == 0 &&
                (int)r->rt[i].group == air) {
                r->air_neutral = (uint16_t)i;
                break;
            }
        for (uint32_t l = 0; l < r->nlayers; l++) {
            r->layer_neutral[l] = FG_NO_ACTION;
            for (uint32_t i = 0; i < r->nactions; i++)
                if (r->rt[i].layer == l && r->rt[i].neutral && r->rt[i].hold_dir == 0 &&
                    (int)r->rt[i].group != air) {
                    r->layer_neutral[l] = (uint16_t)i;
                    break;
                }
            r->first_held[l] = FG_NO_ACTION;
            for (uint32_t i = r->nactions; i-- > 0;) {
                fg_action_rt *a = &r->rt[i];
                if (a->layer != l || !a->neutral || a->hold_dir == 0) continue;
                a->next_held = r->first_held[l];
                r->first_held[l] = (uint16_t)i;
            }
        }
        if (r->nactions > 0 && r->layer_neutral[0] == FG_NO_ACTION) {
            char path[96];
            snprintf(path, sizeof path, "layers.%s", r->layers[0]);
            finding(f, false, path, "has no neutral action without a hold direction (the "
                    "state the fighter returns to, e.g. idle = { neutral = true })");
        }
        r->health = r->meter = -1;
        for (uint32_t k = 0; k < r->nresources; k++) {
            if (!strcmp(r->resources[k].name, "health")) r->health = (int)k;
            if (!strcmp(r->resources[k].name, "meter")) r->meter = (int)k;
        }
        r->grounded = index_of(r->groups, r->ngroups, "grounded");
        r->airborne = index_of(r->groups, r->ngroups, "airborne");
        for (uint32_t l = 0; l < r->nlayers; l++)
            for (int g = 0; g < FG_MAX_GROUPS; g++)
                for (uint32_t held = 0; held <= FG_IN_DIRECTION_MASK; held++)
                    r->neutral_for[l][g][held] = (uint16_t)fg_ruleset_neutral_scan(r, l, g, held);
        int hs = find_def(r->defs, r->nactions, "hitstun");
        int bs = find_def(r->defs, r->nactions, "blockstun");
        r->hitstun = hs < 0 ? FG_NO_ACTION : (uint16_t)hs;
        r->blockstun = bs < 0 ? FG_NO_ACTION : (uint16_t)bs;
        compile_motions(r, b, f, false);
        fg_hits_finish(r, &b->hits, f);
        fg_vars_finish(r, &b->hits, f);
        for (uint32_t i = 0; i < r->nactions; i++)
            if (r->rt[i].hit.enabled && (hs < 0 || bs < 0)) {
                char path[96];
                snprintf(path, sizeof path, "actions.%s.hit", r->defs[i].name);
                finding(f, false, path, "an attack needs actions named 'hitstun' and "
                        "'blockstun' for its target");
                break;
            }
    }
    /* With other errors the set is not compiled, but each notation is still checked alone, so
    ** one load reports a bad motion beside everything else. */
    if (!clean) compile_motions(r, b, f, true);
    if (fg_findings_errors(f) > 0 || fg_findings_lost(f) > 0) return refuse_build(r, f, err);
    r->hash = content_hash(r);
    return r;
}

/* }====================================================================== */

/* {====================================================================== reading */

void fg_ruleset_ref(fg_ruleset *r) {
    if (r) r->refs++;
}

void fg_ruleset_unref(fg_ruleset *r) {
    if (r && --r->refs == 0) free_ruleset(r);
}

const char *fg_ruleset_name(const fg_ruleset *r) { return r->name; }
uint64_t fg_ruleset_hash(const fg_ruleset *r) { return r->hash; }
const fg_action_names *fg_ruleset_buttons(const fg_ruleset *r) { return &r->buttons; }
uint32_t fg_ruleset_action_count(const fg_ruleset *r) { return r->nactions; }

const fg_action_def *fg_ruleset_action(const fg_ruleset *r, uint32_t id) {
    return id < r->nactions ? &r->defs[id] : NULL;
}

int fg_ruleset_find_action(const fg_ruleset *r, const char *name) {
    return name ? find_def(r->defs, r->nactions, name) : -1;
}

uint32_t fg_ruleset_layer_count(const fg_ruleset *r) { return r->nlayers; }

const char *fg_ruleset_layer_name(const fg_ruleset *r, uint32_t id) {
    return id < r->nlayers ? r->layers[id] : NULL;
}

int fg_ruleset_find_layer(const fg_ruleset *r, const char *name) {
    return name ? index_of(r->layers, r->nlayers, name) : -1;
}

uint32_t fg_ruleset_resource_count(const fg_ruleset *r) { return r->nresources; }

const fg_resource_def *fg_ruleset_resource(const fg_ruleset *r, uint32_t id) {
    return id < r->nresources ? &r->resources[id] : NULL;
}

int fg_ruleset_find_resource(const fg_ruleset *r, const char *name) {
    for (uint32_t i = 0; name && i < r->nresources; i++)
        if (strcmp(r->resources[i].name, name) == 0) return (int)i;
    return -1;
}

const fg_physics_def *fg_ruleset_physics(const fg_ruleset *r) { return &r->physics; }
const fg_stage *fg_ruleset_stage(const fg_ruleset *r) { return &r->stage; }

const fg_queue_policy *fg_ruleset_queue(const fg_ruleset *r) { return &r->queue; }

const fg_motion_set *fg_ruleset_motions(const fg_ruleset *r) { return r->motion_set; }

int fg_ruleset_motion_action(const fg_ruleset *r, uint32_t motion, int group) {
    if (!r->motion_set || motion >= fg_motion_count(r->motion_set)) return -1;
    uint16_t key = r->motion_key[motion];
    int first = -1;
    for (uint32_t a = 0; a < r->nactions; a++) {
        if (r->rt[a].motion != key) continue;
        if (first < 0) first = (int)a;
        /* Prefer the action the entity's group may start (ground or air version). */
        if (r->rt[a].requires < 0 || r->rt[a].requires == group) return (int)a;
    }
    return first;
}

uint32_t fg_ruleset_action_layer(const fg_ruleset *r, uint32_t action) {
    return action < r->nactions ? r->rt[action].layer : 0;
}

bool fg_ruleset_window_allows(const fg_ruleset *r, uint32_t action, uint32_t window,
                              uint32_t target) {
    if (action >= r->nactions || window >= r->rt[action].nwindows) return false;
    return fg_action_set_has(&r->rt[action].windows[window].into, target);
}

const char *fg_contact_name(fg_contact c) {
    switch (c) {
    case FG_ON_ALWAYS: return "always";
    case FG_ON_HIT: return "hit";
    case FG_ON_BLOCK: return "block";
    case FG_ON_WHIFF: return "whiff";
    case FG_ON_CONTACT: return "contact";
    }
    return "unknown";
}

/* }====================================================================== */
