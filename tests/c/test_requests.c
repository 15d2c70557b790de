/* SPDX-License-Identifier: MIT */
/*
** test_requests.c: the request layer against running actions. Cancel windows on both sides of
** each edge for every contact kind, the buffer policy, queue expiry and replacement, costs,
** hitstop (the queue during a freeze, and no cancel through the state a hit replaced), layers,
** groups, host request rules, transitions in the trace, and the frame meter of an exchange.
**
** Timing used throughout: a request made between ticks is decided at the start of the next tick,
** after running actions advanced. An action accepted on tick T is on its tick 0 there, so when
** nothing freezes, a request made before tick T + k meets it on its tick k.
*/
#include "rules_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEAR 70 /* inside the reach of every attack */
#define FAR 300 /* outside it: attacks whiff */

static char text_buf[256];
#define TEXT(d, dec) fgt_text((d), (dec), text_buf, sizeof text_buf)

/* Runs `ticks` ticks, then requests `action` for e and runs the tick that decides it. */
static const fg_decision *request_at(fgt_duel *d, fg_entity e, fg_tick tick, const char *action) {
    fgt_run(d, (int)(tick - fg_world_tick(d->w)));
    fgt_request(d, e, action);
    fgt_run(d, 1);
    const fg_decision *dec = NULL;
    for (int i = 0; fgt_decision(d, e, tick, i); i++) {
        const fg_decision *x = fgt_decision(d, e, tick, i);
        if (x->action == fgt_id(d->r, action) && x->source != FG_REQ_QUEUE) dec = x;
    }
    if (!dec) fail_msg("no decision about %s on tick %lld", action, (long long)tick);
    return dec;
}

/* {====================================================================== cancel windows */

typedef struct window_case {
    const char *target;
    int from, to;
    fg_contact on;
} window_case;

/* The probe's windows, as the fixture declares them. */
static const window_case PROBE[] = {
    {"a_hit", 6, 9, FG_ON_HIT},         {"a_block", 7, 10, FG_ON_BLOCK},
    {"a_whiff", 8, 11, FG_ON_WHIFF},    {"a_contact", 9, 12, FG_ON_CONTACT},
    {"a_always", 10, 14, FG_ON_ALWAYS},
};

static bool contact_opens(fg_contact on, fg_contact outcome) {
    switch (on) {
    case FG_ON_ALWAYS: return true;
    case FG_ON_CONTACT: return outcome == FG_ON_HIT || outcome == FG_ON_BLOCK;
    default: return on == outcome;
    }
}

/* A fresh duel where the probe (started on tick 0) hits, is blocked, or whiffs on tick 4. */
static fgt_duel probe_duel(fg_contact outcome) {
    fgt_duel d = fgt_duel_new(fgt_fighter(), outcome == FG_ON_WHIFF ? FAR : NEAR, NULL, NULL);
    if (outcome == FG_ON_BLOCK) fgt_hold(&d, d.p2, 4);
    fgt_request(&d, d.p1, "probe");
    return d;
}

static void cancel_window_opens_on_its_first_and_last_tick_only_for_its_contact(void **state) {
    (void)state;
    const fg_contact outcomes[] = {FG_ON_HIT, FG_ON_BLOCK, FG_ON_WHIFF};
    int accepted = 0, rejected = 0;
    for (size_t o = 0; o < 3; o++)
        for (size_t k = 0; k < sizeof PROBE / sizeof PROBE[0]; k++) {
            const window_case *wc = &PROBE[k];
            const int ticks[4] = {wc->from - 1, wc->from, wc->to, wc->to + 1};
            for (int i = 0; i < 4; i++) {
                fgt_duel d = probe_duel(outcomes[o]);
                const fg_decision *dec = request_at(&d, d.p1, ticks[i], wc->target);
                bool open = ticks[i] >= wc->from && ticks[i] <= wc->to &&
                            contact_opens(wc->on, outcomes[o]);
                char where[160];
                snprintf(where, sizeof where, "%s at probe tick %d, attack %s: %s", wc->target,
                         ticks[i], fg_contact_name(outcomes[o]), TEXT(&d, dec));
                if (open) {
                    if (dec->kind != FG_DECIDE_ACCEPTED || dec->reason != FG_R_CANCEL)
                        fail_msg("expected a cancel: %s", where);
                    assert_int_equal(dec->window_from, wc->from);
                    assert_int_equal(dec->window_to, wc->to);
                    assert_int_equal(dec->window_on, wc->on);
                    assert_int_equal(dec->elapsed, ticks[i]);
                    assert_string_equal(fgt_running(&d, d.p1, 0), wc->target);
                    accepted++;
                } else {
                    if (dec->kind != FG_DECIDE_REJECTED || dec->reason != FG_R_WINDOW_CLOSED)
                        fail_msg("expected a closed window: %s", where);
                    assert_string_equal(fgt_running(&d, d.p1, 0), "probe");
                    rejected++;
                }
                fgt_duel_free(&d);
            }
        }
    /* Each window opens for its first and last tick under the outcomes it names. */
    assert_int_equal(accepted, 2 * (1 + 1 + 1 + 2 + 3));
    assert_int_equal(rejected, 60 - accepted);
}

static void closed_window_says_why_in_words(void **state) {
    (void)state;
    fgt_duel d = probe_duel(FG_ON_WHIFF);
    const fg_decision *dec = request_at(&d, d.p1, 7, "a_hit");
    assert_string_equal(TEXT(&d, dec), "rejected: probe is in recovery (tick 7 of 20); cancel "
                                       "window 6-9 opens on hit, last attack whiffed");
    dec = request_at(&d, d.p1, 15, "a_always");
    assert_string_equal(TEXT(&d, dec), "rejected: probe is in recovery (tick 15 of 20); cancel "
                                       "window 10-14 has closed");
    fgt_duel_free(&d);

    d = probe_duel(FG_ON_HIT);
    dec = request_at(&d, d.p1, 8, "a_block");
    assert_string_equal(TEXT(&d, dec), "rejected: probe is in recovery (tick 8 of 20); cancel "
                                       "window 7-10 opens on block, last attack hit");
    dec = request_at(&d, d.p1, 9, "a_hit");
    assert_string_equal(TEXT(&d, dec), "accepted: a_hit cancels probe at tick 9 (window 6-9 on "
                                       "hit)");
    fgt_duel_free(&d);

    d = probe_duel(FG_ON_BLOCK);
    dec = request_at(&d, d.p1, 5, "a_always");
    assert_string_equal(TEXT(&d, dec), "rejected: probe is in active (tick 5 of 20); cancel "
                                       "window 10-14 is not open yet");
    dec = request_at(&d, d.p1, 6, "fireball");
    assert_int_equal(dec->reason, FG_R_NO_CANCEL);
    assert_string_equal(TEXT(&d, dec), "rejected: probe is in recovery (tick 6 of 20); it has no "
                                       "cancel into fireball");
    fgt_duel_free(&d);
}

static void cancel_through_a_tag_after_hitstop_lands_on_the_tick_after_the_freeze(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), NEAR, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    fgt_run(&d, 5); /* the jab connects on tick 4; both freeze for ticks 5-10 */
    assert_int_equal(fg_world_frozen_for(d.w, d.p1), 6);
    assert_int_equal(fg_world_frozen_for(d.w, d.p2), 6);
    const fg_decision *dec = request_at(&d, d.p1, 11, "fireball");
    assert_int_equal(dec->kind, FG_DECIDE_ACCEPTED);
    assert_string_equal(TEXT(&d, dec), "accepted: fireball cancels jab at tick 5 (window 4-12 on "
                                       "hit)");
    assert_string_equal(fgt_running(&d, d.p1, 0), "fireball");
    fgt_duel_free(&d);
}

/* }====================================================================== */

/* {====================================================================== buffer and queue */

/* A slow attack whose always-open window 8-15 into specials buffers 3 ticks. */
static fg_ruleset *slow_rules(void) {
    fg_ruleset_builder *b = fgt_fighter_builder(NULL);
    fg_action_def a = fgt_action("slow", 8, 2, 10);
    fgt_cancel(&a, 8, 15, FG_ON_ALWAYS, 3, "special");
    fgt_add(b, &a);
    return fgt_build(b);
}

static void request_within_buffer_waits_and_one_tick_earlier_is_refused(void **state) {
    (void)state;
    /* 3 ticks before the window: queued, and it starts on the window's first tick. */
    fgt_duel d = fgt_duel_new(slow_rules(), FAR, NULL, NULL);
    fgt_request(&d, d.p1, "slow");
    const fg_decision *dec = request_at(&d, d.p1, 5, "fireball");
    assert_int_equal(dec->kind, FG_DECIDE_QUEUED);
    assert_int_equal(dec->reason, FG_R_WAIT_WINDOW);
    assert_int_equal(dec->wait, 3);
    assert_string_equal(TEXT(&d, dec), "queued: fireball waits 3 ticks for slow's window 8-15");
    fgt_run(&d, 2);
    assert_string_equal(fgt_running(&d, d.p1, 0), "slow");
    assert_null(fgt_decision(&d, d.p1, 7, 0)); /* waiting is silent */
    fgt_run(&d, 1);
    dec = fgt_decision(&d, d.p1, 8, 0);
    assert_non_null(dec);
    assert_int_equal(dec->source, FG_REQ_QUEUE);
    assert_string_equal(TEXT(&d, dec), "accepted: fireball cancels slow at tick 8 (window 8-15 on "
                                       "always)");
    assert_string_equal(fgt_running(&d, d.p1, 0), "fireball");
    fgt_duel_free(&d);

    /* 4 ticks before: refused, nothing waits, slow runs on. */
    d = fgt_duel_new(slow_rules(), FAR, NULL, NULL);
    fgt_request(&d, d.p1, "slow");
    dec = request_at(&d, d.p1, 4, "fireball");
    assert_int_equal(dec->kind, FG_DECIDE_REJECTED);
    assert_int_equal(dec->reason, FG_R_WINDOW_CLOSED);
    assert_string_equal(TEXT(&d, dec), "rejected: slow is in startup (tick 4 of 20); cancel "
                                       "window 8-15 is not open yet");
    fgt_run(&d, 10);
    assert_int_equal(fgt_decision_count(&d, d.p1), 2);
    assert_string_equal(fgt_running(&d, d.p1, 0), "slow");
    fgt_duel_free(&d);
}

static void queued_request_expires_when_its_window_never_opens(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), FAR, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    const fg_decision *dec = request_at(&d, d.p1, 1, "fireball");
    assert_string_equal(TEXT(&d, dec), "queued: fireball waits 3 ticks for jab's window 4-12");
    /* Ticks 4 and 5 are active: whether the window opens depends on contact, still unknown. */
    fgt_run(&d, 4);
    assert_int_equal(fgt_decision_count(&d, d.p1), 2);
    assert_int_equal(fg_world_phase(d.w, d.p1, 0), FG_PHASE_BUFFERED);
    /* Tick 6: the jab whiffed; the window will not open. */
    fgt_run(&d, 1);
    dec = fgt_decision(&d, d.p1, 6, 0);
    assert_non_null(dec);
    assert_int_equal(dec->kind, FG_DECIDE_EXPIRED);
    assert_int_equal(dec->reason, FG_R_WAITED_OUT);
    assert_string_equal(TEXT(&d, dec), "expired: fireball waited 5 ticks; jab's window 4-12 needs "
                                       "hit, last attack whiffed");
    fgt_run(&d, 20);
    assert_int_equal(fgt_decision_count(&d, d.p1), 3);
    assert_string_equal(fgt_running(&d, d.p1, 0), "idle");
    fgt_duel_free(&d);
}

/* The "latest" queue policy: a newer request replaces the waiting one, and the trace says the
** policy decided. */
static void newer_request_replaces_the_queued_one(void **state) {
    (void)state;
    fg_ruleset_builder *b = fgt_fighter_builder(NULL);
    fg_queue_policy latest = {.depth = 1, .order = FG_QUEUE_LATEST, .expiry = 0};
    fg_ruleset_set_queue(b, &latest);
    fgt_duel d = fgt_duel_new(fgt_build(b), NEAR, NULL, NULL);
    fgt_set_meter(&d, d.p1, 100);
    fgt_request(&d, d.p1, "jab");
    const fg_decision *dec = request_at(&d, d.p1, 1, "fireball");
    assert_int_equal(dec->kind, FG_DECIDE_QUEUED);
    /* The same action again refreshes the wait without a replacement. */
    request_at(&d, d.p1, 2, "fireball");
    assert_int_equal(fgt_decision_count(&d, d.p1), 3);
    request_at(&d, d.p1, 3, "shoryuken");
    const fg_decision *queued = fgt_decision(&d, d.p1, 3, 0);
    const fg_decision *replaced = fgt_decision(&d, d.p1, 3, 1);
    assert_non_null(replaced);
    assert_int_equal(queued->kind, FG_DECIDE_QUEUED);
    assert_int_equal(replaced->kind, FG_DECIDE_REPLACED);
    assert_int_equal(replaced->reason, FG_R_SUPERSEDED);
    assert_int_equal(replaced->action, fgt_id(d.r, "fireball"));
    assert_int_equal(replaced->other, fgt_id(d.r, "shoryuken"));
    assert_string_equal(TEXT(&d, replaced), "replaced: fireball by shoryuken (queue: latest)");
    /* The jab connects on tick 4 and freezes both until tick 11: the shoryuken comes out then. */
    fgt_run(&d, 10);
    dec = fgt_decision(&d, d.p1, 11, 0);
    assert_non_null(dec);
    assert_string_equal(TEXT(&d, dec), "accepted: shoryuken cancels jab at tick 5 (window 4-12 on "
                                       "hit)");
    assert_string_equal(fgt_running(&d, d.p1, 0), "shoryuken");
    assert_int_equal(fg_world_resource(d.w, d.p1, (uint32_t)fg_ruleset_find_resource(d.r,
                                                                                     "meter")), 0);
    fgt_duel_free(&d);
}

/* The default queue is FIFO, three deep: a request made while another waits queues behind it
** (the trace names whom it waits behind), and each starts in turn. */
static void default_fifo_queue_keeps_requests_in_order(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), NEAR, NULL, NULL);
    const fg_queue_policy *q = fg_ruleset_queue(d.r);
    assert_int_equal(q->depth, 3);
    assert_int_equal(q->order, FG_QUEUE_FIFO);
    fgt_set_meter(&d, d.p1, 100);
    fgt_request(&d, d.p1, "jab");
    const fg_decision *dec = request_at(&d, d.p1, 1, "fireball");
    assert_int_equal(dec->kind, FG_DECIDE_QUEUED);
    dec = request_at(&d, d.p1, 3, "shoryuken");
    assert_int_equal(dec->kind, FG_DECIDE_QUEUED);
    assert_int_equal(dec->queue & FG_QUEUE_POS_MASK, 1);
    assert_string_equal(TEXT(&d, dec), "queued: shoryuken waits 1 tick for jab's window 4-12, "
                                       "behind fireball (fifo queue, 2 of 3)");
    /* Nothing was replaced: the fireball comes out when the freeze ends. */
    for (uint32_t i = 0; i < 3; i++) {
        const fg_decision *x = fgt_decision(&d, d.p1, 3, i);
        if (x) assert_int_not_equal(x->kind, FG_DECIDE_REPLACED);
    }
    fgt_run(&d, 10);
    dec = fgt_decision(&d, d.p1, 11, 0);
    assert_non_null(dec);
    assert_string_equal(TEXT(&d, dec), "accepted: fireball cancels jab at tick 5 (window 4-12 on "
                                       "hit)");
    fgt_duel_free(&d);
}

/* A full FIFO queue refuses the newest request with the policy in the message. */
static void full_fifo_queue_refuses_the_newest(void **state) {
    (void)state;
    fg_ruleset_builder *b = fgt_fighter_builder(NULL);
    fg_queue_policy one = {.depth = 1, .order = FG_QUEUE_FIFO, .expiry = 0};
    fg_ruleset_set_queue(b, &one);
    fgt_duel d = fgt_duel_new(fgt_build(b), NEAR, NULL, NULL);
    fgt_set_meter(&d, d.p1, 100);
    fgt_request(&d, d.p1, "jab");
    request_at(&d, d.p1, 1, "fireball");
    const fg_decision *dec = request_at(&d, d.p1, 2, "shoryuken");
    assert_int_equal(dec->kind, FG_DECIDE_REJECTED);
    assert_int_equal(dec->reason, FG_R_QUEUE_FULL);
    assert_string_equal(TEXT(&d, dec), "rejected: shoryuken, layer body's queue is full (fifo, "
                                       "depth 1)");
    fgt_duel_free(&d);
}

/* A snapshot taken right after the last reasons of the list (a full queue) restores: a rollback
** must never meet a decision its own snapshot check refuses. */
static void snapshot_after_a_full_queue_restores(void **state) {
    (void)state;
    fg_ruleset_builder *b = fgt_fighter_builder(NULL);
    fg_queue_policy one = {.depth = 1, .order = FG_QUEUE_FIFO, .expiry = 0};
    fg_ruleset_set_queue(b, &one);
    fgt_duel d = fgt_duel_new(fgt_build(b), NEAR, NULL, NULL);
    fgt_set_meter(&d, d.p1, 100);
    fgt_request(&d, d.p1, "jab");
    request_at(&d, d.p1, 1, "fireball");
    assert_int_equal(request_at(&d, d.p1, 2, "shoryuken")->reason, FG_R_QUEUE_FULL);
    size_t size = fg_world_snapshot_size(d.w);
    unsigned char *snap = malloc(size);
    assert_non_null(snap);
    assert_int_equal(fg_world_save(d.w, snap, size, NULL), FG_OK);
    fgt_run(&d, 10);
    uint64_t first = fg_world_hash(d.w);
    fg_error err = {0};
    assert_int_equal(fg_world_restore(d.w, snap, size, &err), FG_OK);
    assert_string_equal(fg_error_message(&err), "");
    fgt_run(&d, 10);
    assert_int_equal(fg_world_hash(d.w), first);
    free(snap);
    fgt_duel_free(&d);
}

/* An expiry bounds every wait, counted from the request, hitstop included. */
static void queue_expiry_ends_a_long_wait(void **state) {
    (void)state;
    fg_ruleset_builder *b = fgt_fighter_builder(NULL);
    fg_queue_policy q = {.depth = 3, .order = FG_QUEUE_FIFO, .expiry = 5};
    fg_ruleset_set_queue(b, &q);
    fgt_duel d = fgt_duel_new(fgt_build(b), NEAR, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    request_at(&d, d.p1, 1, "fireball"); /* waits for the window (on hit), then the freeze */
    fgt_run(&d, 8);
    const fg_decision *dec = fgt_decision(&d, d.p1, 7, 0);
    assert_non_null(dec);
    assert_int_equal(dec->kind, FG_DECIDE_EXPIRED);
    assert_string_equal(TEXT(&d, dec), "expired: fireball waited 6 ticks (queue expiry 5)");
    fgt_duel_free(&d);
}

/* A queue deeper than the runtime keeps, or a bad order, is a finding with the limit. */
static void queue_policy_is_checked(void **state) {
    (void)state;
    fg_ruleset_builder *b = fgt_fighter_builder(NULL);
    fg_queue_policy q = {.depth = 9, .order = FG_QUEUE_FIFO, .expiry = 601};
    fg_ruleset_set_queue(b, &q);
    fg_findings *f = fgt_findings();
    fg_error err;
    assert_null(fg_ruleset_build(b, f, &err));
    fg_ruleset_builder_destroy(b);
    assert_int_equal(fg_findings_errors(f), 2);
    assert_string_equal(fg_findings_get(f, 0).path, "queue.depth");
    assert_string_equal(fg_findings_get(f, 0).message, "9, expected 1..4 requests per layer");
    assert_string_equal(fg_findings_get(f, 1).path, "queue.expiry");
    assert_string_equal(fg_findings_get(f, 1).message, "601, expected 0..600 ticks (0 = no expiry)");
    fg_findings_destroy(f);
}

/* }====================================================================== */

/* {====================================================================== costs */

static int32_t meter_of(const fgt_duel *d, fg_entity e) {
    return fg_world_resource(d->w, e, (uint32_t)fg_ruleset_find_resource(d->r, "meter"));
}

static void exact_cost_is_accepted_and_short_by_one_is_refused(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), FAR, NULL, NULL);
    fgt_set_meter(&d, d.p1, 99);
    const fg_decision *dec = request_at(&d, d.p1, 0, "shoryuken");
    assert_int_equal(dec->kind, FG_DECIDE_REJECTED);
    assert_int_equal(dec->reason, FG_R_COST);
    assert_int_equal(dec->cost, 100);
    assert_int_equal(dec->have, 99);
    assert_string_equal(TEXT(&d, dec), "rejected: shoryuken costs 100 meter, have 99");
    assert_int_equal(meter_of(&d, d.p1), 99);
    assert_string_equal(fgt_running(&d, d.p1, 0), "idle");

    fgt_set_meter(&d, d.p1, 100);
    dec = request_at(&d, d.p1, 1, "shoryuken");
    assert_int_equal(dec->kind, FG_DECIDE_ACCEPTED);
    assert_string_equal(TEXT(&d, dec), "accepted: shoryuken from idle");
    assert_int_equal(meter_of(&d, d.p1), 0);
    assert_string_equal(fgt_running(&d, d.p1, 0), "shoryuken");
    fgt_duel_free(&d);
}

static void resources_never_go_negative(void **state) {
    (void)state;
    static const char *const costly[] = {"shoryuken", "super", "shoryuken", "jab", "super"};
    for (int start = 0; start <= 300; start += 50) {
        fgt_duel d = fgt_duel_new(fgt_fighter(), FAR, NULL, NULL);
        fgt_set_meter(&d, d.p1, start);
        int spent = 0;
        for (int i = 0; i < 5; i++) {
            int32_t before = meter_of(&d, d.p1);
            const fg_decision *dec = request_at(&d, d.p1, fg_world_tick(d.w), costly[i]);
            int32_t after = meter_of(&d, d.p1);
            assert_true(after >= 0);
            if (dec->kind == FG_DECIDE_ACCEPTED) spent += before - after;
            else assert_int_equal(after, before);
            fgt_run(&d, 60); /* back to idle */
        }
        assert_int_equal(meter_of(&d, d.p1), start - spent);
        fgt_duel_free(&d);
    }
}

/* }====================================================================== */

/* {====================================================================== hitstop */

static void request_during_hitstop_waits_for_the_freeze_and_is_not_lost(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), NEAR, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    const fg_decision *dec = request_at(&d, d.p1, 7, "fireball");
    assert_int_equal(dec->kind, FG_DECIDE_QUEUED);
    assert_int_equal(dec->reason, FG_R_WAIT_HITSTOP);
    assert_string_equal(TEXT(&d, dec), "queued: fireball waits 4 ticks of hitstop");
    assert_int_equal(fg_world_meter_at(d.w, d.p1, 7), FG_PHASE_HITSTOP);
    fgt_run(&d, 3);
    assert_string_equal(fgt_running(&d, d.p1, 0), "jab");
    fgt_run(&d, 1);
    dec = fgt_decision(&d, d.p1, 11, 0);
    assert_non_null(dec);
    assert_string_equal(TEXT(&d, dec), "accepted: fireball cancels jab at tick 5 (window 4-12 on "
                                       "hit)");
    assert_string_equal(fgt_running(&d, d.p1, 0), "fireball");
    fgt_duel_free(&d);
}

/* The Castagne bug: a fighter in a state with an open cancel window is hit; a request made during
** the hitstop must meet the hitstun, not the window of the state the hit replaced. */
static void request_during_hitstop_cannot_use_the_replaced_states_window(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), NEAR, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    fgt_request(&d, d.p2, "stance");
    fgt_run(&d, 4);
    /* On tick 4 the stance's window would let p2 start a jab. */
    fg_decision before = fg_world_evaluate(d.w, d.p2, fgt_id(d.r, "jab"), FG_REQ_AI);
    assert_int_equal(before.kind, FG_DECIDE_ACCEPTED);
    assert_int_equal(before.reason, FG_R_CANCEL);
    fgt_run(&d, 1); /* p1's jab hits p2 on tick 4 */
    assert_string_equal(fgt_running(&d, d.p2, 0), "hitstun");
    const fg_decision *dec = request_at(&d, d.p2, 6, "jab");
    assert_int_equal(dec->reason, FG_R_WAIT_HITSTOP);
    fgt_run(&d, 5); /* the freeze ends on tick 11 */
    dec = fgt_decision(&d, d.p2, 11, 0);
    assert_non_null(dec);
    assert_int_equal(dec->kind, FG_DECIDE_REJECTED);
    assert_int_equal(dec->reason, FG_R_NO_CANCEL);
    assert_int_equal(dec->current, fgt_id(d.r, "hitstun"));
    assert_string_equal(TEXT(&d, dec), "rejected: fighter is in hitstun (tick 1 of 13); it has "
                                       "no cancel into jab");
    fgt_run(&d, 5);
    assert_string_equal(fgt_running(&d, d.p2, 0), "hitstun");
    fgt_duel_free(&d);
}

/* A fighter hit during its attack's startup had a request queued for that attack's window: the
** request now meets the hitstun, and its refusal is recorded, not dropped silently. */
static void hit_during_startup_puts_the_queued_request_against_the_hitstun(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), NEAR, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    fgt_run(&d, 2);
    fgt_request(&d, d.p2, "jab");
    const fg_decision *dec = request_at(&d, d.p2, 3, "fireball");
    assert_string_equal(TEXT(&d, dec), "queued: fireball waits 3 ticks for jab's window 4-12");
    fgt_run(&d, 1); /* p1's jab hits on tick 4, during p2's startup */
    assert_string_equal(fgt_running(&d, d.p2, 0), "hitstun");
    fgt_run(&d, 7);
    dec = fgt_decision(&d, d.p2, 11, 0);
    assert_non_null(dec);
    assert_int_equal(dec->kind, FG_DECIDE_REJECTED);
    assert_int_equal(dec->reason, FG_R_NO_CANCEL);
    assert_string_equal(TEXT(&d, dec), "rejected: fighter is in hitstun (tick 1 of 13); it has "
                                       "no cancel into fireball");
    fgt_run(&d, 30);
    for (uint32_t i = 0; i < fg_world_trace_count(d.w); i++) {
        const fg_trace_record *r = fg_world_trace_at(d.w, i);
        if (r->kind == FG_TRACE_TRANSITION && r->entity == d.p2)
            assert_int_not_equal(r->c, (int64_t)fgt_id(d.r, "fireball"));
    }
    fgt_duel_free(&d);
}

/* }====================================================================== */

/* {====================================================================== layers and groups */

static void upper_layer_action_forbids_tagged_actions_on_the_body(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), FAR, NULL, NULL);
    const fg_decision *dec = request_at(&d, d.p1, 0, "taunt");
    assert_string_equal(TEXT(&d, dec), "accepted: taunt from upper_idle");
    dec = request_at(&d, d.p1, 2, "dash");
    assert_int_equal(dec->reason, FG_R_FORBIDDEN);
    assert_string_equal(TEXT(&d, dec), "rejected: dash is forbidden while taunt runs on layer "
                                       "upper");
    assert_string_equal(fgt_running(&d, d.p1, 0), "idle");
    /* An untagged action runs beside the taunt. */
    dec = request_at(&d, d.p1, 3, "jab");
    assert_int_equal(dec->kind, FG_DECIDE_ACCEPTED);
    assert_string_equal(fgt_running(&d, d.p1, 0), "jab");
    assert_string_equal(fgt_running(&d, d.p1, 1), "taunt");
    /* The taunt's last tick is 39: still forbidden. On tick 40 it has ended and the dash is
    ** free again. */
    dec = request_at(&d, d.p1, 39, "dash");
    assert_int_equal(dec->reason, FG_R_FORBIDDEN);
    dec = request_at(&d, d.p1, 40, "dash");
    assert_int_equal(dec->kind, FG_DECIDE_ACCEPTED);
    assert_string_equal(fgt_running(&d, d.p1, 1), "upper_idle");
    assert_string_equal(fgt_running(&d, d.p1, 0), "dash");
    fgt_duel_free(&d);
}

static bool has_transition(const fgt_duel *d, fg_entity e, fg_tick t, uint32_t layer,
                           const char *from, const char *to, fg_transition_reason why) {
    for (uint32_t i = 0; i < fg_world_trace_count(d->w); i++) {
        const fg_trace_record *r = fg_world_trace_at(d->w, i);
        if (r->kind != FG_TRACE_TRANSITION || r->entity != e || r->tick != t) continue;
        if (r->a == layer && r->b == (int64_t)fgt_id(d->r, from) &&
            r->c == (int64_t)fgt_id(d->r, to) && r->code == why)
            return true;
    }
    return false;
}

static void interrupting_action_ends_the_other_layers(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), FAR, NULL, NULL);
    fgt_set_meter(&d, d.p1, 200);
    request_at(&d, d.p1, 0, "taunt");
    const fg_decision *dec = request_at(&d, d.p1, 3, "super");
    assert_int_equal(dec->kind, FG_DECIDE_ACCEPTED);
    assert_string_equal(fgt_running(&d, d.p1, 0), "super");
    assert_string_equal(fgt_running(&d, d.p1, 1), "upper_idle");
    assert_true(has_transition(&d, d.p1, 3, 1, "taunt", "upper_idle", FG_TR_INTERRUPTED));
    fgt_duel_free(&d);

    /* A hit (hitstun interrupts) ends the taunt of the fighter it lands on. */
    d = fgt_duel_new(fgt_fighter(), NEAR, NULL, NULL);
    fgt_request(&d, d.p2, "taunt");
    fgt_request(&d, d.p1, "jab");
    fgt_run(&d, 5);
    assert_string_equal(fgt_running(&d, d.p2, 0), "hitstun");
    assert_string_equal(fgt_running(&d, d.p2, 1), "upper_idle");
    assert_true(has_transition(&d, d.p2, 4, 1, "taunt", "upper_idle", FG_TR_INTERRUPTED));
    fgt_duel_free(&d);
}

static void grounded_action_is_refused_while_airborne(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), FAR, NULL, NULL);
    request_at(&d, d.p1, 0, "jump");
    const fg_decision *dec = request_at(&d, d.p1, 10, "jab");
    assert_int_equal(dec->reason, FG_R_WRONG_GROUP);
    assert_string_equal(TEXT(&d, dec), "rejected: jab needs grounded, fighter is airborne");
    fg_fx x, y;
    fg_world_position(d.w, d.p1, &x, &y);
    assert_true(y > 0);
    /* Landing returns the fighter to the ground group; the jab is accepted again. */
    while (strcmp(fgt_running(&d, d.p1, 0), "jump") == 0) fgt_run(&d, 1);
    fg_world_position(d.w, d.p1, &x, &y);
    assert_int_equal(y, 0);
    dec = request_at(&d, d.p1, fg_world_tick(d.w), "jab");
    assert_int_equal(dec->kind, FG_DECIDE_ACCEPTED);
    fgt_duel_free(&d);
}

/* A feint whose window into normals is open from its first tick. */
static fg_ruleset *feint_rules(void) {
    fg_ruleset_builder *b = fgt_fighter_builder(NULL);
    fg_action_def a = fgt_action("feint", 3, 0, 10);
    fgt_cancel(&a, 0, 12, FG_ON_ALWAYS, 0, "normal");
    fgt_add(b, &a);
    return fgt_build(b);
}

static void one_action_starts_per_layer_per_tick(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(feint_rules(), FAR, NULL, NULL);
    fgt_request(&d, d.p1, "feint");
    fgt_request(&d, d.p1, "jab"); /* the feint's window would allow it, a tick later */
    fgt_run(&d, 1);
    const fg_decision *dec = fgt_decision(&d, d.p1, 0, 1);
    assert_non_null(dec);
    assert_int_equal(dec->reason, FG_R_LAYER_TAKEN);
    assert_string_equal(TEXT(&d, dec), "rejected: jab, feint already started on layer body this "
                                       "tick");
    assert_string_equal(fgt_running(&d, d.p1, 0), "feint");
    dec = request_at(&d, d.p1, 1, "jab");
    assert_int_equal(dec->reason, FG_R_CANCEL);
    fgt_duel_free(&d);
    /* The upper layer is another layer: it may start on the same tick as the body. */
    d = fgt_duel_new(fgt_fighter(), FAR, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    fgt_request(&d, d.p1, "taunt");
    fgt_run(&d, 1);
    assert_int_equal(fgt_decision(&d, d.p1, 0, 0)->kind, FG_DECIDE_ACCEPTED);
    assert_int_equal(fgt_decision(&d, d.p1, 0, 1)->kind, FG_DECIDE_ACCEPTED);
    assert_string_equal(fgt_running(&d, d.p1, 0), "jab");
    assert_string_equal(fgt_running(&d, d.p1, 1), "taunt");
    fgt_duel_free(&d);
}

/* }====================================================================== */

/* {====================================================================== request rules */

typedef struct rule_host {
    fg_verdict verdict;
    bool fail;
    int calls;
    fg_decision seen; /* the default decision the rule was shown */
} rule_host;

static bool host_has_rule(void *ud, const fg_world *w, uint32_t slot) {
    (void)ud;
    (void)w;
    (void)slot;
    return true;
}

static fg_status host_request(void *ud, fg_world *w, const fg_decision *dflt, fg_verdict *out,
                              fg_error *err) {
    (void)w;
    rule_host *h = ud;
    h->calls++;
    h->seen = *dflt;
    if (h->fail) return fg_error_set(err, FG_ERULE, "rules.lua:12: attempt to index a nil value");
    *out = h->verdict;
    return FG_OK;
}

static fgt_duel rule_duel(rule_host *h, int distance) {
    fg_world_hooks hooks = {h, host_has_rule, host_request};
    return fgt_duel_new(fgt_fighter(), distance, &hooks, NULL);
}

static fg_verdict verdict(fg_verdict_kind kind, int ticks, const char *text) {
    fg_verdict v;
    memset(&v, 0, sizeof v);
    v.kind = kind;
    v.queue_ticks = ticks;
    snprintf(v.text, sizeof v.text, "%s", text);
    return v;
}

static void rule_accept_overrides_a_closed_window(void **state) {
    (void)state;
    rule_host h = {verdict(FG_VERDICT_DEFAULT, 0, ""), false, 0, {0}};
    fgt_duel d = rule_duel(&h, FAR);
    request_at(&d, d.p1, 0, "jab");
    h.verdict = verdict(FG_VERDICT_ACCEPT, 0, "whiff cancels allowed in training");
    const fg_decision *dec = request_at(&d, d.p1, 8, "fireball");
    /* The rule saw the data's refusal... */
    assert_int_equal(h.seen.kind, FG_DECIDE_REJECTED);
    assert_int_equal(h.seen.reason, FG_R_WINDOW_CLOSED);
    /* ...and overrode it. */
    assert_int_equal(dec->kind, FG_DECIDE_ACCEPTED);
    assert_int_equal(dec->reason, FG_R_RULE_ACCEPT);
    assert_string_equal(TEXT(&d, dec), "accepted by rule: fireball (whiff cancels allowed in "
                                       "training)");
    assert_string_equal(fgt_running(&d, d.p1, 0), "fireball");
    fgt_duel_free(&d);
}

static void rule_accept_cannot_pay_a_cost_the_fighter_lacks(void **state) {
    (void)state;
    rule_host h = {verdict(FG_VERDICT_ACCEPT, 0, "always"), false, 0, {0}};
    fgt_duel d = rule_duel(&h, FAR);
    fgt_set_meter(&d, d.p1, 50);
    /* From idle the data refuses for the cost itself. */
    const fg_decision *dec = request_at(&d, d.p1, 0, "shoryuken");
    assert_int_equal(h.seen.reason, FG_R_COST);
    assert_int_equal(dec->kind, FG_DECIDE_REJECTED);
    assert_int_equal(dec->reason, FG_R_RULE_OVERRIDDEN);
    assert_string_equal(TEXT(&d, dec), "rejected: the rule accepted shoryuken, but it costs 100 "
                                       "meter, have 50");
    assert_int_equal(meter_of(&d, d.p1), 50);
    /* Through a closed window the data stops before the cost; C still checks it. */
    h.verdict = verdict(FG_VERDICT_DEFAULT, 0, "");
    request_at(&d, d.p1, 1, "jab");
    h.verdict = verdict(FG_VERDICT_ACCEPT, 0, "always");
    dec = request_at(&d, d.p1, 9, "shoryuken");
    assert_int_equal(h.seen.reason, FG_R_WINDOW_CLOSED);
    assert_int_equal(dec->reason, FG_R_RULE_OVERRIDDEN);
    assert_int_equal(meter_of(&d, d.p1), 50);
    assert_string_equal(fgt_running(&d, d.p1, 0), "jab");
    fgt_duel_free(&d);
}

static void failing_rule_drops_the_request_and_changes_nothing(void **state) {
    (void)state;
    rule_host h = {verdict(FG_VERDICT_DEFAULT, 0, ""), true, 0, {0}};
    fgt_duel failing = rule_duel(&h, FAR);
    const fg_decision *dec = request_at(&failing, failing.p1, 3, "jab");
    assert_int_equal(h.calls, 1);
    assert_int_equal(dec->kind, FG_DECIDE_REJECTED);
    assert_int_equal(dec->reason, FG_R_RULE_ERROR);
    assert_string_equal(TEXT(&failing, dec), "dropped: jab, the request rule failed: rules.lua:12: "
                                             "attempt to index a nil value");
    bool traced = false;
    for (uint32_t i = 0; i < fg_world_trace_count(failing.w); i++) {
        const fg_trace_record *r = fg_world_trace_at(failing.w, i);
        traced |= r->kind == FG_TRACE_RULE_ERROR && r->tick == 3 &&
                  strstr(fg_world_trace_text(failing.w, r), "rules.lua:12") != NULL;
    }
    assert_true(traced);
    fgt_run(&failing, 10);

    /* The same ticks with no request at all. */
    rule_host quiet = {verdict(FG_VERDICT_DEFAULT, 0, ""), false, 0, {0}};
    fgt_duel none = rule_duel(&quiet, FAR);
    fgt_run(&none, 14);
    assert_int_equal(fg_world_hash(failing.w), fg_world_hash(none.w));

    /* A rule that lets the data decide starts the jab: a different world. */
    fgt_duel deciding = rule_duel(&quiet, FAR);
    request_at(&deciding, deciding.p1, 3, "jab");
    fgt_run(&deciding, 10);
    assert_int_not_equal(fg_world_hash(failing.w), fg_world_hash(deciding.w));
    fgt_duel_free(&failing);
    fgt_duel_free(&none);
    fgt_duel_free(&deciding);
}

static void rule_reject_and_rule_queue_carry_the_rules_words(void **state) {
    (void)state;
    rule_host h = {verdict(FG_VERDICT_REJECT, 0, "round has not started"), false, 0, {0}};
    fgt_duel d = rule_duel(&h, FAR);
    const fg_decision *dec = request_at(&d, d.p1, 0, "jab");
    assert_int_equal(dec->reason, FG_R_RULE_REJECT);
    assert_string_equal(TEXT(&d, dec), "rejected by rule: jab (round has not started)");
    assert_string_equal(fgt_running(&d, d.p1, 0), "idle");

    /* A rule queue waits its ticks, then expires if the data never accepts. */
    h.verdict = verdict(FG_VERDICT_DEFAULT, 0, "");
    request_at(&d, d.p1, 1, "stance"); /* 22 ticks with no window into fireball */
    h.verdict = verdict(FG_VERDICT_QUEUE, 3, "wait for the flash");
    dec = request_at(&d, d.p1, 2, "fireball");
    assert_int_equal(dec->reason, FG_R_RULE_QUEUE);
    assert_string_equal(TEXT(&d, dec), "queued by rule: fireball waits 3 ticks (wait for the "
                                       "flash)");
    fgt_run(&d, 2);
    assert_null(fgt_decision(&d, d.p1, 3, 0));
    assert_null(fgt_decision(&d, d.p1, 4, 0));
    fgt_run(&d, 1);
    dec = fgt_decision(&d, d.p1, 5, 0);
    assert_non_null(dec);
    assert_int_equal(dec->kind, FG_DECIDE_EXPIRED);
    assert_string_equal(TEXT(&d, dec), "expired: fireball waited 3 ticks");
    assert_string_equal(fgt_running(&d, d.p1, 0), "stance");
    fgt_duel_free(&d);
}

/* A request that waited out a hitstop is decided anew, and the rule is asked then: it was never
** shown the request while the fighter was frozen. */
static void rule_is_asked_about_a_request_that_waited_out_hitstop(void **state) {
    (void)state;
    rule_host h = {verdict(FG_VERDICT_DEFAULT, 0, ""), false, 0, {0}};
    fgt_duel d = rule_duel(&h, NEAR);
    request_at(&d, d.p1, 0, "jab");
    int calls = h.calls;
    h.verdict = verdict(FG_VERDICT_REJECT, 0, "no fireballs today");
    const fg_decision *dec = request_at(&d, d.p1, 7, "fireball");
    assert_int_equal(dec->reason, FG_R_WAIT_HITSTOP);
    assert_int_equal(h.calls, calls); /* nothing to decide while frozen */
    fgt_run(&d, 4);
    assert_int_equal(h.calls, calls + 1);
    assert_int_equal(h.seen.reason, FG_R_CANCEL);
    dec = fgt_decision(&d, d.p1, 11, 0);
    assert_non_null(dec);
    assert_string_equal(TEXT(&d, dec), "rejected by rule: fireball (no fireballs today)");
    assert_string_equal(fgt_running(&d, d.p1, 0), "jab");
    fgt_duel_free(&d);
}

/* }====================================================================== */

/* {====================================================================== trace and meter */

/* Every change of a layer's action is in the trace with from, to, tick and reason: checked tick
** by tick against the instances themselves through spawn, holds, requests, an end, a hit, a
** block, an interrupt, a jump and a landing. */
static void every_transition_is_traced_with_from_to_tick_and_reason(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), NEAR, NULL, NULL);
    fg_entity es[2] = {d.p1, d.p2};
    int64_t seq[2][2];
    uint16_t act[2][2];
    for (int e = 0; e < 2; e++)
        for (uint32_t l = 0; l < 2; l++) {
            const fg_instance *inst = fg_world_instance(d.w, es[e], l);
            seq[e][l] = inst->seq;
            act[e][l] = inst->action;
            assert_int_equal(inst->seq, 1);
        }
    int seen[8] = {0};
    for (fg_tick t = 0; t < 140; t++) {
        switch (t) {
        case 0: fgt_request(&d, d.p2, "taunt"); break;
        case 2: fgt_request(&d, d.p1, "jab"); break;           /* hits p2: hitstun, interrupt */
        case 40: fgt_hold(&d, d.p2, 4); break;                  /* walk_back by hold */
        case 44: fgt_request(&d, d.p1, "jab"); break;           /* blocked: blockstun */
        case 70: fgt_hold(&d, d.p2, 5); fgt_request(&d, d.p1, "jump"); break; /* lands later */
        default: break;
        }
        fgt_run(&d, 1);
        for (int e = 0; e < 2; e++)
            for (uint32_t l = 0; l < 2; l++) {
                const fg_instance *inst = fg_world_instance(d.w, es[e], l);
                if (inst->seq == seq[e][l]) continue;
                /* A new action on this layer this tick: its transition is in the trace. */
                const fg_trace_record *found = NULL;
                for (uint32_t i = 0; i < fg_world_trace_count(d.w); i++) {
                    const fg_trace_record *r = fg_world_trace_at(d.w, i);
                    if (r->kind == FG_TRACE_TRANSITION && r->entity == es[e] && r->a == l &&
                        r->d == inst->seq)
                        found = r;
                }
                if (!found) fail_msg("e%u layer %u: action #%lld has no transition", es[e], l,
                                     (long long)inst->seq);
                assert_int_equal(found->tick, t);
                assert_int_equal(found->b, act[e][l]);
                assert_int_equal(found->c, inst->action);
                seen[found->code]++;
                seq[e][l] = inst->seq;
                act[e][l] = inst->action;
            }
    }
    assert_true(seen[FG_TR_REQUEST] >= 4);
    assert_true(seen[FG_TR_ENDED] >= 3);
    assert_true(seen[FG_TR_HOLD] >= 2);
    assert_int_equal(seen[FG_TR_HIT], 1);
    assert_int_equal(seen[FG_TR_BLOCKED], 1);
    assert_int_equal(seen[FG_TR_INTERRUPTED], 1);
    assert_int_equal(seen[FG_TR_LANDED], 1);
    /* And in words. */
    char line[256];
    bool hit_line = false;
    for (uint32_t i = 0; i < fg_world_trace_count(d.w); i++) {
        const fg_trace_record *r = fg_world_trace_at(d.w, i);
        if (r->kind != FG_TRACE_TRANSITION || r->code != FG_TR_HIT) continue;
        fg_world_trace_format(d.w, r, line, sizeof line);
        assert_string_equal(line, "t=6 e2 body: idle -> hitstun (hit, action #2)");
        hit_line = true;
    }
    assert_true(hit_line);
    fgt_duel_free(&d);
}

static void frame_meter_of_a_jab_cancelled_into_a_fireball(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), NEAR, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    request_at(&d, d.p1, 2, "fireball"); /* buffered for the window, then for the hitstop */
    fgt_run(&d, 40);
    char buf[2048];
    fg_world_meter_render(d.w, 0, 39, buf, sizeof buf);
    assert_string_equal(buf,
        "ticks 0-39\n"
        "e1   ssbbb======sssssssssssssAArrrrrrrrrrrrrr\n"
        "e2   ....x======xxxxxxxxxxxx.................\n"
        "e1: startup 4, active 1, cancelled after 5\n"
        "legend: . neutral  s startup  A active  r recovery  c cancel window  x stun  = hitstop"
        "  b buffered  ^ airborne\n");
    fgt_duel_free(&d);
}

/* {====================================================================== memory and state */

/* Requests, queues, cancels, hits, stuns and hitstop on every tick: once the world is warm, no
** tick allocates. */
static void deciding_requests_allocates_nothing_per_tick(void **state) {
    (void)state;
    fg_counting_allocator c;
    fg_allocator a = fg_test_counting_allocator(&c);
    rule_host h = {verdict(FG_VERDICT_DEFAULT, 0, ""), false, 0, {0}};
    fg_world_hooks hooks = {&h, host_has_rule, host_request};
    fgt_duel d = fgt_duel_new(fgt_fighter(), NEAR, &hooks, &a);
    fgt_set_meter(&d, d.p1, 300);
    static const char *const script[] = {"jab", "fireball", "probe", "a_hit", "shoryuken",
                                         "taunt", "dash", "stance", "jab", "super"};
    fgt_run(&d, 2);
    size_t before = c.allocations;
    for (int t = 0; t < 600; t++) {
        if (t % 3 == 0) fgt_request(&d, d.p1, script[(t / 3) % 10]);
        if (t % 7 == 0) fgt_request(&d, d.p2, script[(t / 7 + 3) % 10]);
        if (t % 50 == 0) fgt_hold(&d, d.p2, t % 100 ? 4 : 5);
        fgt_run(&d, 1);
    }
    assert_int_equal(c.allocations, before);
    assert_true(fgt_decision_count(&d, d.p1) > 100);
    fgt_duel_free(&d);
    assert_int_equal(c.live_bytes, 0);
}

/* A queued request is authoritative state: it is in the hash and in a snapshot, and a restored
** world decides it the same way. */
static void queued_request_is_hashed_and_survives_a_snapshot(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), NEAR, NULL, NULL);
    fgt_duel plain = fgt_duel_new(fgt_fighter(), NEAR, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    fgt_request(&plain, plain.p1, "jab");
    fgt_run(&plain, 3);
    request_at(&d, d.p1, 2, "fireball"); /* queued for the window */
    assert_int_equal(fg_world_phase(d.w, d.p1, 0), FG_PHASE_BUFFERED);
    assert_int_not_equal(fg_world_hash(d.w), fg_world_hash(plain.w));
    size_t size = fg_world_snapshot_size(d.w);
    unsigned char *snap = malloc(size);
    assert_non_null(snap);
    assert_int_equal(fg_world_save(d.w, snap, size, NULL), FG_OK);
    fgt_run(&d, 20);
    uint64_t first = fg_world_hash(d.w);
    assert_string_equal(fgt_running(&d, d.p1, 0), "fireball");
    assert_int_equal(fg_world_restore(d.w, snap, size, NULL), FG_OK);
    fgt_run(&d, 20);
    assert_int_equal(fg_world_hash(d.w), first);
    assert_string_equal(fgt_running(&d, d.p1, 0), "fireball");
    free(snap);
    fgt_duel_free(&d);
    fgt_duel_free(&plain);
}

/* A request for an action that does not exist, or one more than the tick can take, is refused
** when it is made, with a message, and leaves nothing behind. */
static void bad_requests_are_refused_with_a_message_and_change_nothing(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), FAR, NULL, NULL);
    fgt_run(&d, 2);
    uint64_t before = fg_world_hash(d.w);
    fg_error err;
    uint32_t n = fg_ruleset_action_count(d.r);
    assert_int_equal(fg_world_request(d.w, d.p1, n, FG_REQ_AI, &err), FG_ENOTFOUND);
    char want[128];
    snprintf(want, sizeof want, "request: action id %u does not exist (%u actions)", n, n);
    assert_string_equal(fg_error_message(&err), want);
    assert_int_equal(fg_world_request(d.w, 9, 0, FG_REQ_AI, &err), FG_ENOTFOUND);
    assert_string_equal(fg_error_message(&err), "entity 9 does not exist (2 spawned)");
    for (int i = 0; i < 8; i++)
        assert_int_equal(fg_world_request(d.w, d.p2, fgt_id(d.r, "jab"), FG_REQ_AI, &err), FG_OK);
    assert_int_equal(fg_world_request(d.w, d.p2, fgt_id(d.r, "jab"), FG_REQ_AI, &err),
                     FG_ENOMEM);
    assert_string_equal(fg_error_message(&err), "request: 8 requests already wait for the next tick");
    /* p1 asked for nothing that was kept; p2's eight are decided (one jab, seven refusals). */
    assert_int_equal(fg_world_hash(d.w), before);
    fgt_run(&d, 1);
    assert_int_equal(fgt_decision_count(&d, d.p1), 0);
    assert_int_equal(fgt_decision_count(&d, d.p2), 8);
    fgt_duel_free(&d);
}

/* }====================================================================== */

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cancel_window_opens_on_its_first_and_last_tick_only_for_its_contact),
        cmocka_unit_test(closed_window_says_why_in_words),
        cmocka_unit_test(snapshot_after_a_full_queue_restores),
        cmocka_unit_test(cancel_through_a_tag_after_hitstop_lands_on_the_tick_after_the_freeze),
        cmocka_unit_test(request_within_buffer_waits_and_one_tick_earlier_is_refused),
        cmocka_unit_test(queued_request_expires_when_its_window_never_opens),
        cmocka_unit_test(newer_request_replaces_the_queued_one),
        cmocka_unit_test(default_fifo_queue_keeps_requests_in_order),
        cmocka_unit_test(full_fifo_queue_refuses_the_newest),
        cmocka_unit_test(queue_expiry_ends_a_long_wait),
        cmocka_unit_test(queue_policy_is_checked),
        cmocka_unit_test(exact_cost_is_accepted_and_short_by_one_is_refused),
        cmocka_unit_test(resources_never_go_negative),
        cmocka_unit_test(request_during_hitstop_waits_for_the_freeze_and_is_not_lost),
        cmocka_unit_test(request_during_hitstop_cannot_use_the_replaced_states_window),
        cmocka_unit_test(hit_during_startup_puts_the_queued_request_against_the_hitstun),
        cmocka_unit_test(upper_layer_action_forbids_tagged_actions_on_the_body),
        cmocka_unit_test(interrupting_action_ends_the_other_layers),
        cmocka_unit_test(grounded_action_is_refused_while_airborne),
        cmocka_unit_test(one_action_starts_per_layer_per_tick),
        cmocka_unit_test(rule_accept_overrides_a_closed_window),
        cmocka_unit_test(rule_accept_cannot_pay_a_cost_the_fighter_lacks),
        cmocka_unit_test(failing_rule_drops_the_request_and_changes_nothing),
        cmocka_unit_test(rule_reject_and_rule_queue_carry_the_rules_words),
        cmocka_unit_test(rule_is_asked_about_a_request_that_waited_out_hitstop),
        cmocka_unit_test(every_transition_is_traced_with_from_to_tick_and_reason),
        cmocka_unit_test(frame_meter_of_a_jab_cancelled_into_a_fireball),
        cmocka_unit_test(deciding_requests_allocates_nothing_per_tick),
        cmocka_unit_test(queued_request_is_hashed_and_survives_a_snapshot),
        cmocka_unit_test(bad_requests_are_refused_with_a_message_and_change_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
