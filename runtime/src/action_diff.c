/* SPDX-License-Identifier: MIT */
/*
** action_diff.c: what changed between two definitions of one action, field by field, named the
** way a designer writes them ("hit.damage", "cancels[2].to", "boxes[1].w").
**
** A reload reports which actions changed and where; that report is only useful if it never
** misses a field, so every declared field of fg_action_def is compared here, by value (strings
** up to their terminator, lists up to their counts), never as raw bytes: two definitions built
** by different paths (a Lua table, a C builder) may differ in padding and in the bytes after a
** string's end and still be the same action.
*/
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "framegate/action.h"

/* A field added to a definition must be compared here too, or a reload would call the action
** unchanged. The sizes below (on the 64-bit ABIs CI builds) catch the addition at compile time:
** when one fails, compare the new field in the diff_* function of its struct, then update it. */
#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(sizeof(fg_action_def) == 7640, "fg_action_def changed: compare the new field below");
_Static_assert(sizeof(fg_var_effect_def) == 40, "fg_var_effect_def changed: compare it in same_effects");
_Static_assert(sizeof(fg_hit_def) == 192, "fg_hit_def changed: compare it in diff_hit");
_Static_assert(sizeof(fg_bounce_def) == 16, "fg_bounce_def changed: compare it in diff_hit");
_Static_assert(sizeof(fg_throw_def) == 92, "fg_throw_def changed: compare it in diff_throw");
_Static_assert(sizeof(fg_box_def) == 32, "fg_box_def changed: compare it in diff_box");
_Static_assert(sizeof(fg_cancel_def) == 572, "fg_cancel_def changed: compare it in diff_cancel");
_Static_assert(sizeof(fg_marker_def) == 40, "fg_marker_def changed: compare it in diff_marker");
_Static_assert(sizeof(fg_move_def) == 28, "fg_move_def changed: compare it in diff_move");
_Static_assert(sizeof(fg_invuln_def) == 12, "fg_invuln_def changed: compare it in diff_invuln");
_Static_assert(sizeof(fg_spawn_def) == 72, "fg_spawn_def changed: compare it in diff_spawn");
#endif

/* The longest path is a list entry's field ("throw[2].tech_input"); every component is a fixed
** word of this file or a small index, so the buffer cannot be outgrown. */
#define PATH_MAX_LEN 64

typedef struct differ {
    fg_action_diff_fn fn;
    void *ud;
    uint32_t n;
    char prefix[PATH_MAX_LEN]; /* "", "hit.", "cancels[2]." */
} differ;

static void report(differ *d, const char *field) {
    d->n++;
    if (!d->fn) return;
    char path[2 * PATH_MAX_LEN];
    snprintf(path, sizeof path, "%s%s", d->prefix, field);
    d->fn(d->ud, path);
}

static void set_prefix(differ *d, const char *list, int index) {
    if (index < 0) snprintf(d->prefix, sizeof d->prefix, "%s.", list);
    else snprintf(d->prefix, sizeof d->prefix, "%s[%d].", list, index + 1);
}

#define SAME_INT(field, name) \
    do { if (a->field != b->field) report(d, name); } while (0)
#define SAME_STR(field, name) \
    do { if (strncmp(a->field, b->field, sizeof a->field) != 0) report(d, name); } while (0)

static bool same_names(const char (*a)[FG_NAME_MAX], uint32_t na, const char (*b)[FG_NAME_MAX],
                       uint32_t nb) {
    if (na != nb) return false;
    for (uint32_t i = 0; i < na && i < FG_MAX_TARGETS; i++)
        if (strncmp(a[i], b[i], FG_NAME_MAX) != 0) return false;
    return true;
}

static void diff_cancel(differ *d, const fg_cancel_def *a, const fg_cancel_def *b) {
    SAME_INT(from, "from");
    SAME_INT(to, "to");
    SAME_INT(on, "on");
    SAME_INT(buffer, "buffer");
    if (!same_names(a->targets, a->ntargets, b->targets, b->ntargets)) report(d, "into");
    if (strncmp(a->when_var, b->when_var, FG_NAME_MAX) != 0 || a->when_min != b->when_min ||
        a->when_max != b->when_max)
        report(d, "when");
}

static void diff_marker(differ *d, const fg_marker_def *a, const fg_marker_def *b) {
    SAME_INT(tick, "tick");
    SAME_STR(name, "marker");
    SAME_INT(once, "once");
}

static void diff_move(differ *d, const fg_move_def *a, const fg_move_def *b) {
    SAME_INT(from, "from");
    SAME_INT(to, "to");
    SAME_INT(vx, "vx");
    SAME_INT(vy, "vy");
    SAME_INT(ax, "ax");
    SAME_INT(ay, "ay");
    SAME_INT(flags, "flags");
}

static void diff_box(differ *d, const fg_box_def *a, const fg_box_def *b) {
    SAME_INT(kind, "kind");
    SAME_INT(from, "from");
    SAME_INT(to, "to");
    SAME_INT(box.x, "x");
    SAME_INT(box.y, "y");
    SAME_INT(box.w, "w");
    SAME_INT(box.h, "h");
    SAME_INT(def, "def");
}

static void diff_invuln(differ *d, const fg_invuln_def *a, const fg_invuln_def *b) {
    SAME_INT(from, "from");
    SAME_INT(to, "to");
    SAME_INT(strike, "strike");
    SAME_INT(thrown, "throw");
}

static void diff_hit(differ *d, const fg_hit_def *a, const fg_hit_def *b) {
    SAME_INT(enabled, "enabled");
    SAME_INT(range, "range");
    SAME_INT(damage, "damage");
    SAME_INT(chip, "chip");
    SAME_INT(hitstop, "hitstop");
    SAME_INT(hitstop_target, "hitstop_target");
    SAME_INT(hitstun, "hitstun");
    SAME_INT(blockstun, "blockstun");
    SAME_INT(meter_gain, "meter");
    SAME_INT(meter_target, "meter_target");
    SAME_INT(low, "low");
    SAME_INT(overhead, "overhead");
    SAME_INT(guard, "guard");
    SAME_INT(pushback_hit, "pushback.hit");
    SAME_INT(pushback_block, "pushback.block");
    SAME_INT(counter_damage, "counter.damage");
    SAME_INT(counter_hitstun, "counter.hitstun");
    SAME_INT(counter_hitstop, "counter.hitstop");
    SAME_INT(hits, "hits");
    SAME_INT(interval, "interval");
    SAME_INT(priority, "priority");
    SAME_INT(juggle, "juggle");
    SAME_STR(reaction, "reaction");
    SAME_STR(air_reaction, "air_reaction");
    SAME_INT(launch_vx, "launch.vx");
    SAME_INT(launch_vy, "launch.vy");
    SAME_INT(knockdown, "knockdown");
    SAME_INT(wall_bounce.enabled, "wall_bounce");
    SAME_INT(wall_bounce.vx, "wall_bounce.vx");
    SAME_INT(wall_bounce.vy, "wall_bounce.vy");
    SAME_INT(wall_bounce.stun, "wall_bounce.stun");
    SAME_INT(ground_bounce.enabled, "ground_bounce");
    SAME_INT(ground_bounce.vx, "ground_bounce.vx");
    SAME_INT(ground_bounce.vy, "ground_bounce.vy");
    SAME_INT(ground_bounce.stun, "ground_bounce.stun");
}

static void diff_throw(differ *d, const fg_throw_def *a, const fg_throw_def *b) {
    SAME_INT(enabled, "enabled");
    SAME_INT(damage, "damage");
    SAME_INT(tech_window, "tech_window");
    SAME_STR(tech_input, "tech_input");
    SAME_STR(reaction, "reaction");
    SAME_INT(stun, "stun");
    SAME_INT(launch_vx, "launch.vx");
    SAME_INT(launch_vy, "launch.vy");
    SAME_INT(knockdown, "knockdown");
}

/* A list compared entry by entry: a different length is one change of the whole list (the
** entries no longer pair up), equal lengths report each entry's fields. */
#define DIFF_LIST(list, count, max, name, fn)                               \
    do {                                                                    \
        if (a->count != b->count) {                                         \
            report(d, name);                                                \
            break;                                                          \
        }                                                                   \
        for (uint32_t i_ = 0; i_ < a->count && i_ < (max); i_++) {          \
            set_prefix(d, name, (int)i_);                                   \
            fn(d, &a->list[i_], &b->list[i_]);                              \
        }                                                                   \
        d->prefix[0] = '\0';                                                \
    } while (0)

/* Hit and throw definitions: the ones in use are enabled from the first. One in use on both
** sides is spelled `hit.damage`, as the designer writes a single definition; several are
** `hit[2].damage`. */
static uint32_t defs_in_use(const void *defs, size_t stride, size_t enabled_at, uint32_t max) {
    uint32_t n = 0;
    while (n < max && *(const bool *)((const char *)defs + n * stride + enabled_at)) n++;
    return n;
}

typedef void (*def_diff)(differ *d, const void *a, const void *b);
static void hit_entry(differ *d, const void *a, const void *b) { diff_hit(d, a, b); }
static void throw_entry(differ *d, const void *a, const void *b) { diff_throw(d, a, b); }

static void diff_defs(differ *d, const char *name, const void *a, const void *b, size_t stride,
                      size_t enabled_at, uint32_t max, def_diff fn) {
    uint32_t na = defs_in_use(a, stride, enabled_at, max);
    uint32_t nb = defs_in_use(b, stride, enabled_at, max);
    uint32_t n = na > nb ? na : nb;
    for (uint32_t i = 0; i < n || (n == 0 && i == 0); i++) {
        set_prefix(d, name, n <= 1 ? -1 : (int)i);
        fn(d, (const char *)a + i * stride, (const char *)b + i * stride);
    }
    d->prefix[0] = '\0';
}

static bool same_costs(const fg_action_def *a, const fg_action_def *b) {
    if (a->ncosts != b->ncosts) return false;
    for (uint32_t i = 0; i < a->ncosts && i < FG_MAX_RESOURCES; i++)
        if (a->cost[i] != b->cost[i] || strncmp(a->cost_names[i], b->cost_names[i], FG_NAME_MAX))
            return false;
    return true;
}

/* The variable changes made at one moment (on start, on hit), in their declared order. */
static bool same_effects(const fg_action_def *a, const fg_action_def *b, uint8_t when) {
    uint32_t i = 0, j = 0;
    for (;;) {
        while (i < a->nvar_effects && i < FG_MAX_VAR_EFFECTS && a->var_effects[i].when != when) i++;
        while (j < b->nvar_effects && j < FG_MAX_VAR_EFFECTS && b->var_effects[j].when != when) j++;
        bool ea = i >= a->nvar_effects || i >= FG_MAX_VAR_EFFECTS;
        bool eb = j >= b->nvar_effects || j >= FG_MAX_VAR_EFFECTS;
        if (ea || eb) return ea && eb;
        const fg_var_effect_def *x = &a->var_effects[i++], *y = &b->var_effects[j++];
        if (x->op != y->op || x->value != y->value || strncmp(x->var, y->var, FG_NAME_MAX))
            return false;
    }
}

static void diff_spawn(differ *d, const fg_spawn_def *a, const fg_spawn_def *b) {
    set_prefix(d, "spawn", -1);
    SAME_STR(projectile, "projectile");
    SAME_STR(marker, "marker");
    SAME_INT(x, "x");
    SAME_INT(y, "y");
    d->prefix[0] = '\0';
}

uint32_t fg_action_diff(const fg_action_def *a, const fg_action_def *b, fg_action_diff_fn fn,
                        void *ud) {
    differ dd = {fn, ud, 0, ""}, *d = &dd;
    SAME_STR(name, "name");
    SAME_INT(startup, "startup");
    SAME_INT(active, "active");
    SAME_INT(recovery, "recovery");
    SAME_INT(duration, "duration");
    SAME_INT(loop, "loop");
    SAME_INT(neutral, "neutral");
    SAME_INT(hold_dir, "hold");
    SAME_INT(priority, "priority");
    SAME_STR(group, "group");
    SAME_STR(requires, "requires");
    SAME_STR(layer, "layer");
    SAME_STR(input, "input");
    SAME_STR(next, "next");
    if (!same_names(a->tags, a->ntags, b->tags, b->ntags)) report(d, "tags");
    DIFF_LIST(cancels, ncancels, FG_MAX_CANCELS, "cancels", diff_cancel);
    DIFF_LIST(markers, nmarkers, FG_MAX_MARKERS, "markers", diff_marker);
    DIFF_LIST(moves, nmoves, FG_MAX_MOVES, "move", diff_move);
    SAME_INT(root_motion, "root_motion");
    if (!same_costs(a, b)) report(d, "cost");
    diff_defs(d, "hit", a->hits, b->hits, sizeof a->hits[0], offsetof(fg_hit_def, enabled),
              FG_MAX_HIT_DEFS, hit_entry);
    diff_defs(d, "throw", a->throws, b->throws, sizeof a->throws[0],
              offsetof(fg_throw_def, enabled), FG_MAX_THROW_DEFS, throw_entry);
    DIFF_LIST(boxes, nboxes, FG_MAX_BOXES, "boxes", diff_box);
    DIFF_LIST(invuln, ninvuln, FG_MAX_INVULN, "invulnerable", diff_invuln);
    SAME_INT(interrupts, "interrupts");
    if (!same_names(a->forbids, a->nforbids, b->forbids, b->nforbids)) report(d, "forbids");
    SAME_STR(landing, "landing");
    SAME_INT(landing_recovery, "landing_recovery");
    if (a->has_gravity != b->has_gravity || (a->has_gravity && a->gravity != b->gravity))
        report(d, "gravity");
    diff_spawn(d, &a->spawn, &b->spawn);
    SAME_INT(followup, "followup");
    if (!same_effects(a, b, FG_VAR_ON_START)) report(d, "on_start");
    if (!same_effects(a, b, FG_VAR_ON_HIT)) report(d, "on_hit");
    return d->n;
}
