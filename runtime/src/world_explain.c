/* SPDX-License-Identifier: MIT */
/*
** world_explain.c: "why didn't my motion fire", asked of one fighter in a running world. The
** near-miss report of the motion layer (fg_motion_explain), read from the entity's real matcher
** state and buffer instead of a script replayed into a fresh one, so what a designer sees is what
** the fighter's inputs did.
*/
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* The motion a name asks about: a motion's own name, or an action requested by an input. */
static int motion_named(const fg_ruleset *r, const char *name) {
    const fg_motion_set *set = r->motion_set;
    uint32_t n = set ? fg_motion_count(set) : 0;
    for (uint32_t m = 0; m < n; m++)
        if (strcmp(fg_motion_name(set, m), name) == 0) return (int)m;
    int a = fg_ruleset_find_action(r, name);
    if (a >= 0 && set && r->rt[a].motion != FG_NO_ACTION) return r->rt[a].motion;
    return -1;
}

fg_status fg_world_explain(const fg_world *w, fg_entity e, const char *name,
                           fg_motion_explanation *out, fg_error *err) {
    const fg_entity_state *es = w ? fg_world_entity(w, e) : NULL;
    if (!es) return fg_error_set(err, FG_EINVAL, "explain: entity %u does not exist", e);
    if (w->state->nslots == 0)
        return fg_error_set(err, FG_EINVAL, "explain: this world has no rules");
    const fg_ruleset *r = fg_world_rules_of(w, es);
    int key = name ? motion_named(r, name) : -1;
    if (key < 0)
        return fg_error_set(err, FG_EINVAL, "explain: '%s' is neither a motion nor an action "
                            "with an input in rules '%s'", name ? name : "", r->name);
    memset(out, 0, sizeof *out);
    const fg_motion_set *set = r->motion_set;
    const char *mname = fg_motion_name(set, (uint32_t)key);
    uint32_t slot = es->id - 1;
    /* Alternatives under one name are several patterns: the one that got furthest speaks. */
    bool have = false;
    for (uint32_t m = 0; m < fg_motion_count(set); m++) {
        if (strcmp(fg_motion_name(set, m), mname) != 0) continue;
        for (uint32_t i = 0; i < w->ncommands[slot]; i++) {
            const fg_motion_command *c = &w->commands[(size_t)slot * FG_COMMANDS_PER_TICK + i];
            if (c->motion == m && c->age == 0) {
                out->fired = true;
                out->command = *c;
            }
        }
        fg_motion_miss miss;
        fg_motion_explain(set, fg_world_motion_at(w, slot), NULL, m, &miss);
        if (!have || miss.reached > out->miss.reached) out->miss = miss;
        have = true;
    }
    return FG_OK;
}
