/* SPDX-License-Identifier: MIT */
/*
** vars.c: per-entity variables. The ruleset declares them (checked, sorted by name, hashed);
** every entity holds its values in its combat state, so they are hashed, snapshotted and diffed
** with it. Request rules propose changes while they decide; the gate commits the tick's
** proposals in the order they were made, each traced, so a replay or a rollback re-simulation
** that runs the same rules makes the same changes.
*/
#include "internal.h"

#include <stdio.h>
#include <string.h>

#define VAR_LIMIT 1000000000 /* the widest range a variable may declare */

/* {====================================================================== declaring */

fg_var_def fg_var_def_default(const char *name) {
    fg_var_def v;
    memset(&v, 0, sizeof v);
    if (name) snprintf(v.name, sizeof v.name, "%s", name);
    v.min = -1000000;
    v.max = 1000000;
    return v;
}

const char *fg_var_op_name(fg_var_op op) {
    return op == FG_VAR_SET ? "set" : op == FG_VAR_ADD ? "add" : "?";
}

fg_status fg_ruleset_add_var(fg_ruleset_builder *b, const fg_var_def *v, fg_error *err) {
    fg_builder_hits *bh = fg_ruleset_builder_hits(b);
    if (!memchr(v->name, '\0', sizeof v->name) || v->name[0] == '\0') {
        return fg_ruleset_builder_refuse(b, err, FG_EINVAL, "vars: a name must be 1 to %d characters",
                 (int)sizeof v->name - 1);
    }
    for (uint32_t i = 0; i < bh->nvars; i++)
        if (!strcmp(bh->vars[i].name, v->name)) {
            return fg_ruleset_builder_refuse(b, err, FG_EINVAL, "vars.%s: declared twice", v->name);
        }
    if (bh->nvars == FG_MAX_VARS) {
        return fg_ruleset_builder_refuse(b, err, FG_ENOMEM, "vars.%s: at most %d variables per ruleset", v->name,
                 FG_MAX_VARS);
    }
    bh->vars[bh->nvars] = *v;
    if (v->flag) {
        bh->vars[bh->nvars].min = 0;
        bh->vars[bh->nvars].max = 1;
    }
    bh->nvars++;
    return FG_OK;
}

/* The names the ruleset declares, for a message ("armed, charge, stance" or "none declared"). */
static const char *var_list(const fg_ruleset *r, char *buf, size_t size) {
    buf[0] = '\0';
    for (uint32_t i = 0; i < r->nvars; i++)
        snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? ", " : "", r->vars[i].name);
    return r->nvars ? buf : "none declared";
}

/* Cancel windows with a variable condition: the variable by id, its range checked. */
static void resolve_windows(fg_ruleset *r, uint32_t action, fg_findings *f) {
    const fg_action_def *a = &r->defs[action];
    char path[160], names[FG_MAX_VARS * FG_NAME_MAX + 16];
    for (uint32_t k = 0; k < a->ncancels && k < FG_MAX_CANCELS; k++) {
        const fg_cancel_def *c = &a->cancels[k];
        fg_window_rt *w = &r->rt[action].windows[k];
        w->when_var = -1;
        if (!c->when_var[0]) continue;
        snprintf(path, sizeof path, "actions.%s.cancels[%u].when.%s", a->name, k + 1, c->when_var);
        int id = fg_ruleset_find_var(r, c->when_var);
        if (id < 0) {
            fg_findings_addf(f, false, path, "'%s' is not a variable of '%s' (vars: %s)",
                             c->when_var, r->name, var_list(r, names, sizeof names));
            continue;
        }
        if (c->when_min > c->when_max) {
            fg_findings_addf(f, false, path, "min %d is above max %d", c->when_min, c->when_max);
            continue;
        }
        w->when_var = (int8_t)id;
        w->when_min = c->when_min;
        w->when_max = c->when_max;
    }
}

/* An action's variable changes: each variable by id, a set's value in its range. */
static void resolve_effects(fg_ruleset *r, uint32_t action, fg_findings *f) {
    const fg_action_def *a = &r->defs[action];
    fg_action_rt *rt = &r->rt[action];
    char path[160], names[FG_MAX_VARS * FG_NAME_MAX + 16];
    rt->nvar_effects = 0;
    if (a->nvar_effects > FG_MAX_VAR_EFFECTS) {
        snprintf(path, sizeof path, "actions.%s", a->name);
        fg_findings_addf(f, false, path, "%u variable changes, at most %d (on_start and on_hit "
                         "together)", a->nvar_effects, FG_MAX_VAR_EFFECTS);
        return;
    }
    for (uint32_t k = 0; k < a->nvar_effects; k++) {
        const fg_var_effect_def *e = &a->var_effects[k];
        if (e->when > FG_VAR_ON_HIT || e->op > FG_VAR_ADD) { /* only C can write these */
            snprintf(path, sizeof path, "actions.%s.var_effects[%u]", a->name, k + 1);
            fg_findings_addf(f, false, path, "when %u, op %u: expected FG_VAR_ON_START or "
                             "FG_VAR_ON_HIT, and FG_VAR_SET or FG_VAR_ADD", e->when, e->op);
            continue;
        }
        snprintf(path, sizeof path, "actions.%s.%s.%s.%.*s", a->name,
                 e->when == FG_VAR_ON_HIT ? "on_hit" : "on_start",
                 e->op == FG_VAR_ADD ? "add" : "set", (int)sizeof e->var, e->var);
        int id = fg_ruleset_find_var(r, e->var);
        if (id < 0) {
            fg_findings_addf(f, false, path, "'%.*s' is not a variable of '%s' (vars: %s)",
                             (int)sizeof e->var, e->var, r->name,
                             var_list(r, names, sizeof names));
        } else if (e->op == FG_VAR_SET &&
                   (e->value < r->vars[id].min || e->value > r->vars[id].max)) {
            fg_findings_addf(f, false, path, "%d, expected a value in %d..%d", e->value,
                             r->vars[id].min, r->vars[id].max);
        } else if (e->op == FG_VAR_ADD && (e->value < -VAR_LIMIT * 2 || e->value > VAR_LIMIT * 2)) {
            fg_findings_addf(f, false, path, "%d, expected -%d..%d", e->value, VAR_LIMIT * 2,
                             VAR_LIMIT * 2);
        } else {
            rt->var_effects[rt->nvar_effects].var = (uint8_t)id;
            rt->var_effects[rt->nvar_effects].when = e->when;
            rt->var_effects[rt->nvar_effects].op = e->op;
            rt->var_effects[rt->nvar_effects].value = e->value;
            rt->nvar_effects++;
        }
    }
}

void fg_vars_finish(fg_ruleset *r, const fg_builder_hits *bh, fg_findings *f) {
    char path[96];
    r->nvars = 0;
    for (uint32_t i = 0; i < bh->nvars; i++) {
        const fg_var_def *v = &bh->vars[i];
        bool ok = true;
        if (v->min < -VAR_LIMIT || v->max > VAR_LIMIT) {
            snprintf(path, sizeof path, "vars.%s.%s", v->name, v->min < -VAR_LIMIT ? "min" : "max");
            fg_findings_addf(f, false, path, "%d, expected -%d..%d",
                             v->min < -VAR_LIMIT ? v->min : v->max, VAR_LIMIT, VAR_LIMIT);
            ok = false;
        } else if (v->max < v->min) {
            snprintf(path, sizeof path, "vars.%s.max", v->name);
            fg_findings_addf(f, false, path, "%d is below min (%d)", v->max, v->min);
            ok = false;
        } else if (v->start < v->min || v->start > v->max) {
            snprintf(path, sizeof path, "vars.%s.start", v->name);
            fg_findings_addf(f, false, path, "%d, expected a value in %d..%d", v->start, v->min,
                             v->max);
            ok = false;
        }
        if (!ok) continue;
        /* Sorted by name as they come: ids never depend on the order of the declaration. */
        uint32_t at = r->nvars;
        while (at > 0 && strcmp(r->vars[at - 1].name, v->name) > 0) {
            r->vars[at] = r->vars[at - 1];
            at--;
        }
        r->vars[at] = *v;
        r->nvars++;
    }
    for (uint32_t i = 0; i < r->nactions; i++) {
        resolve_windows(r, i, f);
        resolve_effects(r, i, f);
    }
}

/* Only a ruleset that declares variables hashes them: the hash of every other stays as it was. */
void fg_vars_hash(fg_hasher *hs, const fg_ruleset *r) {
    if (r->nvars == 0) return;
    fg_hash_u64(hs, r->nvars);
    for (uint32_t i = 0; i < r->nvars; i++) {
        const fg_var_def *v = &r->vars[i];
        fg_hash_str(hs, v->name);
        fg_hash_u64(hs, v->flag);
        fg_hash_i64(hs, v->min);
        fg_hash_i64(hs, v->max);
        fg_hash_i64(hs, v->start);
    }
    for (uint32_t i = 0; i < r->nactions; i++)
        for (uint32_t k = 0; k < r->rt[i].nwindows; k++) {
            const fg_window_rt *w = &r->rt[i].windows[k];
            if (w->when_var < 0) continue;
            fg_hash_u64(hs, (uint64_t)i << 16 | k << 8 | (uint8_t)w->when_var);
            fg_hash_i64(hs, w->when_min);
            fg_hash_i64(hs, w->when_max);
        }
}

uint32_t fg_ruleset_var_count(const fg_ruleset *r) { return r->nvars; }

const fg_var_def *fg_ruleset_var(const fg_ruleset *r, uint32_t id) {
    return id < r->nvars ? &r->vars[id] : NULL;
}

int fg_ruleset_find_var(const fg_ruleset *r, const char *name) {
    for (uint32_t i = 0; name && i < r->nvars; i++)
        if (!strcmp(r->vars[i].name, name)) return (int)i;
    return -1;
}

/* }====================================================================== */

/* {====================================================================== entity values */

void fg_vars_spawn(const fg_ruleset *r, fg_entity_state *es) {
    memset(es->combat.vars, 0, sizeof es->combat.vars);
    for (uint32_t i = 0; i < r->nvars; i++) es->combat.vars[i] = r->vars[i].start;
}

static int32_t clamp_to(const fg_var_def *v, int64_t x) {
    return x < v->min ? v->min : x > v->max ? v->max : (int32_t)x;
}

/* A reload keeps every value whose variable still exists (by name, kept in its new range); new
** variables start at their start value. */
void fg_vars_reload(const fg_ruleset *old, const fg_ruleset *r, fg_entity_state *es) {
    int32_t next[FG_MAX_VARS] = {0};
    for (uint32_t i = 0; i < r->nvars; i++) {
        int was = fg_ruleset_find_var(old, r->vars[i].name);
        next[i] = was < 0 ? r->vars[i].start : clamp_to(&r->vars[i], es->combat.vars[was]);
    }
    memcpy(es->combat.vars, next, sizeof next);
}

int32_t fg_world_var(const fg_world *w, fg_entity e, uint32_t var) {
    const fg_entity_state *es = fg_world_entity(w, e);
    if (!es || w->state->nslots == 0 || var >= fg_world_rules_of(w, es)->nvars) return 0;
    return es->combat.vars[var];
}

/* }====================================================================== */

/* {====================================================================== proposals */

void fg_vars_rule_begin(fg_world *w, const fg_entity_state *es) {
    w->rule_entity = es->id;
    w->rule_first = w->nproposals;
}

/* A rule that failed has its proposals dropped with the rest of what it asked for. */
void fg_vars_rule_end(fg_world *w, bool failed) {
    if (failed) w->nproposals = w->rule_first;
    w->rule_entity = 0;
}

fg_status fg_world_propose_var(fg_world *w, fg_entity e, uint32_t var, fg_var_op op,
                               int32_t value, fg_error *err) {
    const fg_entity_state *es = fg_world_entity(w, e);
    if (!es) return fg_world_no_entity(w, e, err);
    if (w->rule_entity == 0)
        return fg_error_set(err, FG_ESTATE, "propose: variables change only through a request "
                            "rule deciding for their entity (not from a hook or between ticks)");
    if (w->rule_entity != e)
        return fg_error_set(err, FG_EINVAL, "propose: the rule decides for entity %u, not %u: a "
                            "rule changes its own entity's variables", w->rule_entity, e);
    const fg_ruleset *r = fg_world_rules_of(w, es);
    if (var >= r->nvars)
        return fg_error_set(err, FG_ENOTFOUND, "propose: variable %u does not exist ('%s' "
                            "declares %u)", var, r->name, r->nvars);
    const fg_var_def *v = &r->vars[var];
    if (op != FG_VAR_SET && op != FG_VAR_ADD)
        return fg_error_set(err, FG_EINVAL, "propose %s: operation %d, expected set or add",
                            v->name, (int)op);
    if (op == FG_VAR_SET && (value < v->min || value > v->max))
        return fg_error_set(err, FG_EINVAL, "set %s: %d, expected a value in %d..%d (vars.%s)",
                            v->name, value, v->min, v->max, v->name);
    if (w->nproposals - w->rule_first >= FG_VAR_PROPOSALS || w->nproposals == w->cap_proposals)
        return fg_error_set(err, FG_ENOMEM, "%s %s: a request rule proposes at most %d changes "
                            "per call", fg_var_op_name(op), v->name, FG_VAR_PROPOSALS);
    fg_var_proposal *p = &w->proposals[w->nproposals++];
    p->slot = e - 1;
    p->var = (uint8_t)var;
    p->op = (uint8_t)op;
    p->value = value;
    return FG_OK;
}

/* An action's own changes (its data, not a rule: nothing to propose), applied when it starts or
** when one of its hits lands. `r` is the ruleset version the action belongs to; the entity's
** values follow its current rules, so a variable is found there by name (the same id unless a
** reload between the start and now renamed the variables). */
void fg_vars_apply(fg_world *w, fg_entity_state *es, const fg_ruleset *r, uint32_t action,
                   fg_var_when when, fg_tick t) {
    const fg_action_rt *a = &r->rt[action];
    if (a->nvar_effects == 0) return;
    const fg_ruleset *cur = fg_world_rules_of(w, es);
    fg_world_hash_touch(w, es);
    for (uint32_t k = 0; k < a->nvar_effects; k++) {
        if (a->var_effects[k].when != when) continue;
        uint32_t id = a->var_effects[k].var;
        if (cur != r) {
            int found = fg_ruleset_find_var(cur, r->vars[id].name);
            if (found < 0) continue;
            id = (uint32_t)found;
        }
        const fg_var_def *v = &cur->vars[id];
        int32_t before = es->combat.vars[id], value = a->var_effects[k].value;
        int64_t next = a->var_effects[k].op == FG_VAR_ADD ? (int64_t)before + value : value;
        es->combat.vars[id] = clamp_to(v, next);
        fg_world_trace4(w, t, es->id, FG_TRACE_VAR, id, before, es->combat.vars[id],
                        a->var_effects[k].op, value);
    }
}

/* The gate: each proposal in the order it was made, against the value left by the ones before
** it. A variable the entity's rules no longer declare (a reload between the proposal and the
** gate cannot happen: reloads swap at tick boundaries) is checked anyway. */
void fg_vars_commit(fg_world *w, fg_tick t) {
    for (uint32_t i = 0; i < w->nproposals; i++) {
        const fg_var_proposal *p = &w->proposals[i];
        fg_entity_state *es = &w->entities[p->slot];
        const fg_ruleset *r = fg_world_rules_of(w, es);
        if (p->var >= r->nvars) continue;
        const fg_var_def *v = &r->vars[p->var];
        fg_world_hash_touch(w, es);
        int32_t before = es->combat.vars[p->var];
        int64_t next = p->op == FG_VAR_ADD ? (int64_t)before + p->value : p->value;
        es->combat.vars[p->var] = clamp_to(v, next);
        fg_world_trace4(w, t, es->id, FG_TRACE_VAR, p->var, before, es->combat.vars[p->var],
                        p->op, p->value);
    }
    w->nproposals = 0;
}

/* }====================================================================== */
