/* SPDX-License-Identifier: MIT */
/*
** rules_fixture.h: building rulesets and duels from C in a few lines, for the action, request
** and behavior suites. The helpers assert (through cmocka) on anything that should not fail, so a
** test reads as the rule it checks rather than as setup.
**
** The test fighter (fgt_fighter) is small and has round numbers:
**
**   body layer   idle (neutral), walk_back (hold 4), crouch (hold 2)
**                jab      4/2/7 (input LP), hits on tick 4 (hitstop 6, hitstun 13, blockstun 9), cancel
**                         window 4-12 on hit into "special", buffer 4
**                probe    4/2/14, hits on tick 4 with no hitstop (hitstun and blockstun 30); one
**                         window per contact kind, buffer 0:
**                           6-9 on hit into a_hit      7-10 on block into a_block
**                           8-11 on whiff into a_whiff 9-12 on contact into a_contact
**                           10-14 always into a_always
**                stance   2/0/20, window 2-21 always into "normal" (jab, probe)
**                fireball 13/2/31 (special)      shoryuken 3/10/28, costs 100 meter (special)
**                super    5/6/40, costs 200 meter, interrupts the other layers
**                jump     airborne, 4/0/56, rises on tick 4     dash 2/10/6 (movement)
**                hitstun (interrupts), blockstun
**   upper layer  upper_idle (neutral), taunt 10/20/10, forbids "movement"
**   resources    health 1000, meter 0 of 300
*/
#ifndef FG_RULES_FIXTURE_H
#define FG_RULES_FIXTURE_H

#include "fg_test.h"

/* {====================================================================== actions */

fg_action_def fgt_action(const char *name, int startup, int active, int recovery);
/* A neutral looping state of one tick, chosen while `hold` (numpad, 0 = none) is held. */
fg_action_def fgt_neutral(const char *name, int hold);
void fgt_tag(fg_action_def *a, const char *tag);
/* A cancel window; `into` is a space-separated list of action names or tags. */
void fgt_cancel(fg_action_def *a, int from, int to, fg_contact on, int buffer, const char *into);
void fgt_marker(fg_action_def *a, int tick, const char *name);
void fgt_cost(fg_action_def *a, const char *resource, int amount);
/* A "hit" marker on `tick` and what it does (range in pixels). */
void fgt_hit(fg_action_def *a, int tick, int range, int damage, int hitstop, int hitstun,
             int blockstun);
void fgt_add(fg_ruleset_builder *b, const fg_action_def *a);
void fgt_resource(fg_ruleset_builder *b, const char *name, int max, int start);
/* Builds, fails the test with every finding if the build fails, and frees the builder. */
/* An empty findings list (asserts it could be made); fg_findings_destroy frees it. */
fg_findings *fgt_findings(void);
fg_ruleset *fgt_build(fg_ruleset_builder *b);

/* The builder of the test fighter, for a test that adds to it before building. */
fg_ruleset_builder *fgt_fighter_builder(const fg_allocator *alloc);
fg_ruleset *fgt_fighter(void);

/* }====================================================================== */

/* {====================================================================== duels */

typedef struct fgt_duel {
    fg_ruleset *r; /* the duel's reference */
    fg_world *w;
    fg_entity p1, p2; /* p1 at x = -35 facing right, p2 at -35 + distance facing left */
} fgt_duel;

/* Two fighters `distance` pixels apart (70 is inside every attack's reach, 300 outside). Takes
** over the caller's reference to r. hooks and alloc may be NULL. */
fgt_duel fgt_duel_new(fg_ruleset *r, int distance, const fg_world_hooks *hooks,
                      const fg_allocator *alloc);
void fgt_duel_free(fgt_duel *d);

uint32_t fgt_id(const fg_ruleset *r, const char *name);
const char *fgt_name(const fg_ruleset *r, uint32_t id);
/* Asks for an action; it is decided at the start of the next tick. */
void fgt_request(fgt_duel *d, fg_entity e, const char *action);
void fgt_run(fgt_duel *d, int ticks);
/* Holds a direction (numpad, relative to the entity's facing) from the next tick on. */
void fgt_hold(fgt_duel *d, fg_entity e, int numpad);
void fgt_set_meter(fgt_duel *d, fg_entity e, int value);

/* The n-th (from 0) decision about e's requests made on tick t, or NULL. */
const fg_decision *fgt_decision(const fgt_duel *d, fg_entity e, fg_tick t, int nth);
/* How many decisions about e the trace holds. */
int fgt_decision_count(const fgt_duel *d, fg_entity e);
/* The words of a decision. */
const char *fgt_text(const fgt_duel *d, const fg_decision *dec, char *buf, size_t size);
/* The action running on e's layer now, by name ("(none)" when nothing runs). */
const char *fgt_running(const fgt_duel *d, fg_entity e, uint32_t layer);

/* }====================================================================== */

#endif
