/* SPDX-License-Identifier: MIT */
/*
** framegate/vars.h: per-entity variables. A ruleset declares them (integers and flags, each with
** a range and a start value); every entity of that ruleset has its own values, part of the
** world's state (hashed, snapshotted, diffed, replayed). Nothing writes them directly: a request
** rule proposes a change while it decides, and the gate commits the proposals of the tick, in
** the order they were made, after the tick's contacts. Rules, hooks and hosts read them.
*/
#ifndef FRAMEGATE_VARS_H
#define FRAMEGATE_VARS_H

#include "framegate/action.h"
#include "framegate/world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FG_MAX_VARS 8           /* variables a ruleset may declare */
#define FG_VAR_PROPOSALS 8      /* changes one call of a request rule may propose */

typedef struct fg_var_def {
    char name[FG_NAME_MAX];
    bool flag;      /* a flag: 0 (false) or 1 (true); min and max are then 0 and 1 */
    int32_t min, max; /* the range every value stays in */
    int32_t start;  /* the value at spawn */
} fg_var_def;

/* A fresh integer variable: range -1,000,000..1,000,000, start 0. */
FG_API fg_var_def fg_var_def_default(const char *name);
/* Declares a variable (ids follow sorted names). The range and start are checked when the
** ruleset is built: `vars.stance.start: 5, expected a value in 0..2`. */
FG_API fg_status fg_ruleset_add_var(fg_ruleset_builder *b, const fg_var_def *v, fg_error *err);
FG_API uint32_t fg_ruleset_var_count(const fg_ruleset *r);
FG_API const fg_var_def *fg_ruleset_var(const fg_ruleset *r, uint32_t id);
FG_API int fg_ruleset_find_var(const fg_ruleset *r, const char *name); /* -1 if unknown */

typedef enum fg_var_op {
    FG_VAR_SET = 0, /* the value; outside the range it is refused when proposed */
    FG_VAR_ADD = 1  /* added to the value the variable has when the gate commits, kept in range */
} fg_var_op;
FG_API const char *fg_var_op_name(fg_var_op op); /* "set", "add" */

/* An entity's variable now (0 for an unknown entity or variable). */
FG_API int32_t fg_world_var(const fg_world *w, fg_entity e, uint32_t var);
/* Proposes a change to one of the entity's variables. Only the request rule deciding for that
** entity may propose (from inside fg_world_hooks.request); the gate commits the change at the
** end of the tick's contacts, whatever the rule's verdict. A rule that fails has its proposals
** dropped with its candidates. Refused (nothing proposed) with a message: outside a request
** rule, for another entity, an unknown variable, a `set` outside the range, more than
** FG_VAR_PROPOSALS in one call. */
FG_API fg_status fg_world_propose_var(fg_world *w, fg_entity e, uint32_t var, fg_var_op op,
                                      int32_t value, fg_error *err);

#ifdef __cplusplus
}
#endif
#endif
