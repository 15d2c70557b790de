/* SPDX-License-Identifier: MIT */
/* test_replication.c: persistent state vs transient events, late join, predicted actions with
** authority confirmation or rollback, and a lossy, delayed transport that neither duplicates nor
** loses a confirmed event. */
#include "fg_test.h"

#include <stdio.h>
#include <string.h>

/* {====================================================================== a hook recorder */

enum { MAX_EVENTS = 8192 };

typedef struct rec_event {
    fg_rep_node node;
    char kind; /* 'v' replicated value, 'a' action, 'r' rollback */
    uint32_t id;
    int64_t value;
    uint32_t seq;
    int run;
    int reason;
} rec_event;

typedef struct recorder {
    rec_event ev[MAX_EVENTS];
    int n;
    char last_rollback[200];
    fg_rep_session *s;   /* for the re-entry check */
    bool try_reentry;
    fg_status reentry_status;
    char reentry_msg[FG_ERROR_MAX];
} recorder;

static void push(recorder *r, rec_event e) {
    assert_true(r->n < MAX_EVENTS);
    r->ev[r->n++] = e;
}

static void on_value(void *ud, fg_rep_node node, uint32_t p, const char *name, int64_t v) {
    (void)name;
    recorder *r = ud;
    push(r, (rec_event){.node = node, .kind = 'v', .id = p, .value = v});
    if (r->try_reentry) {
        fg_error err;
        r->reentry_status = fg_rep_set(r->s, FG_REP_NODE_AUTHORITY, name, v, &err);
        snprintf(r->reentry_msg, sizeof r->reentry_msg, "%s", fg_error_message(&err));
        r->try_reentry = false;
    }
}

static void on_action(void *ud, fg_rep_node node, uint32_t a, const char *name, uint32_t seq,
                      fg_rep_run run) {
    (void)name;
    push(ud, (rec_event){.node = node, .kind = 'a', .id = a, .seq = seq, .run = (int)run});
}

static void on_rollback(void *ud, fg_rep_node node, uint32_t a, const char *name, uint32_t seq,
                        fg_rep_reason reason, const char *text) {
    (void)name;
    recorder *r = ud;
    push(r, (rec_event){.node = node, .kind = 'r', .id = a, .seq = seq, .reason = (int)reason});
    snprintf(r->last_rollback, sizeof r->last_rollback, "%s", text);
}

static fg_rep_hooks hooks_of(recorder *r) {
    fg_rep_hooks h = {on_value, on_action, on_rollback, r};
    return h;
}

static int count(const recorder *r, fg_rep_node node, char kind, int run) {
    int c = 0;
    for (int i = 0; i < r->n; i++)
        c += r->ev[i].node == node && r->ev[i].kind == kind && (run < 0 || r->ev[i].run == run);
    return c;
}

/* The values node received through on_replicated for property p, in order. */
static int values_seen(const recorder *r, fg_rep_node node, uint32_t p, int64_t *out, int max) {
    int c = 0;
    for (int i = 0; i < r->n && c < max; i++)
        if (r->ev[i].node == node && r->ev[i].kind == 'v' && r->ev[i].id == p)
            out[c++] = r->ev[i].value;
    return c;
}

/* }====================================================================== */

/* {====================================================================== fixtures */

/* Declared in an order different from their sorted order, on purpose. */
static const fg_rep_property_def props[] = {
    {"weapon", 0, 0, 3, FG_REP_COND_SIMULATED_ONLY},
    {"target_locked", 0, 0, 1, FG_REP_COND_SIMULATED_ONLY},
    {"stance", 0, 0, 5, FG_REP_COND_ALL},
};
static const fg_rep_action_def acts[] = {{"dash", 30}};
static const fg_rep_spec spec = {props, 3, acts, 1};

enum { P_STANCE = 0, P_TARGET = 1, P_WEAPON = 2 }; /* ids: sorted names */

static fg_rep_session *make(const fg_rep_config *cfg, recorder *r) {
    fg_rep_session *s = NULL;
    fg_error err;
    if (fg_rep_create(&spec, cfg, NULL, &s, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
    fg_rep_hooks h = hooks_of(r);
    assert_int_equal(fg_rep_set_hooks(s, FG_REP_NODE_AUTHORITY, &h, NULL), FG_OK);
    assert_int_equal(fg_rep_set_hooks(s, FG_REP_NODE_OWNER, &h, NULL), FG_OK);
    r->s = s;
    return s;
}

static void advance(fg_rep_session *s, int n) {
    for (int i = 0; i < n; i++) assert_int_equal(fg_rep_advance(s, NULL), FG_OK);
}

static uint64_t hash_of(const fg_rep_session *s) {
    fg_hasher h = fg_hasher_begin(3);
    fg_rep_hash(s, &h);
    return fg_hasher_end(&h);
}

static int64_t get(const fg_rep_session *s, fg_rep_node node, const char *p) {
    int64_t v = -1;
    assert_int_equal(fg_rep_get(s, node, p, &v, NULL), FG_OK);
    return v;
}

static recorder rec; /* large: static storage */

static void rec_reset(void) { memset(&rec, 0, sizeof rec); }

/* }====================================================================== */

/* Rule: ids follow names sorted bytewise, whatever the declaration order. */
static void ids_follow_sorted_names(void **state) {
    (void)state;
    rec_reset();
    fg_rep_config cfg = fg_rep_config_default();
    fg_rep_session *s = make(&cfg, &rec);
    assert_int_equal(fg_rep_property_id(s, "stance"), P_STANCE);
    assert_int_equal(fg_rep_property_id(s, "target_locked"), P_TARGET);
    assert_int_equal(fg_rep_property_id(s, "weapon"), P_WEAPON);
    assert_int_equal(fg_rep_property_id(s, "nope"), -1);
    assert_string_equal(fg_rep_property(s, P_WEAPON)->name, "weapon");
    assert_int_equal(fg_rep_property(s, P_WEAPON)->max, 3);
    assert_int_equal(fg_rep_action_id(s, "dash"), 0);
    assert_int_equal(fg_rep_action(s, 0)->cooldown_ticks, 30);
    fg_rep_destroy(s);
}

/* Rule: persistent state set by the owner is applied at once on the owner, then on the authority,
** then on observers; an observer joining later receives the current values (and only those that
** differ from the declared initial value fire its hook) but none of the dashes before it. */
static void late_join_sees_persistent_state_but_no_past_dash(void **state) {
    (void)state;
    rec_reset();
    fg_rep_config cfg = fg_rep_config_default(); /* latency 3, no loss */
    fg_rep_session *s = make(&cfg, &rec);
    fg_rep_hooks h = hooks_of(&rec);
    fg_rep_link link = {2, 0.0};
    fg_rep_node early;
    assert_int_equal(fg_rep_join(s, link, &h, &early, NULL), FG_OK);
    assert_int_equal(early, 2);

    assert_int_equal(fg_rep_set(s, FG_REP_NODE_OWNER, "target_locked", 1, NULL), FG_OK);
    assert_int_equal(fg_rep_set(s, FG_REP_NODE_OWNER, "weapon", 2, NULL), FG_OK);
    assert_int_equal(get(s, FG_REP_NODE_OWNER, "target_locked"), 1); /* local, at once */
    assert_int_equal(get(s, FG_REP_NODE_AUTHORITY, "target_locked"), 0);
    fg_rep_try t;
    assert_int_equal(fg_rep_try_action(s, "dash", &t, NULL), FG_OK);
    assert_true(t.started);
    assert_int_equal(count(&rec, FG_REP_NODE_OWNER, 'a', FG_REP_RUN_PREDICTED), 1);
    advance(s, 3);
    assert_int_equal(get(s, FG_REP_NODE_AUTHORITY, "target_locked"), 1);
    assert_int_equal(get(s, early, "target_locked"), 0); /* not yet: one more hop */
    advance(s, 20);
    assert_int_equal(get(s, early, "target_locked"), 1);
    assert_int_equal(get(s, early, "weapon"), 2);
    assert_int_equal(count(&rec, early, 'a', FG_REP_RUN_REPLICATED), 1);
    assert_int_equal(count(&rec, FG_REP_NODE_AUTHORITY, 'a', FG_REP_RUN_AUTHORITY), 1);
    assert_int_equal(count(&rec, FG_REP_NODE_OWNER, 'a', FG_REP_RUN_CONFIRMED), 1);
    /* The owner ran its own change once, locally; SimulatedOnly sends it nothing back. */
    assert_int_equal(count(&rec, FG_REP_NODE_OWNER, 'v', -1), 2);
    assert_int_equal(count(&rec, FG_REP_NODE_AUTHORITY, 'v', -1), 2);

    /* Change the weapon back to its initial value, then a late observer joins. */
    assert_int_equal(fg_rep_set(s, FG_REP_NODE_OWNER, "weapon", 0, NULL), FG_OK);
    advance(s, 10);
    fg_rep_node late;
    assert_int_equal(fg_rep_join(s, link, &h, &late, NULL), FG_OK);
    assert_int_equal(late, 3);
    advance(s, 10);
    assert_int_equal(get(s, late, "target_locked"), 1);
    assert_int_equal(get(s, late, "weapon"), 0);
    int64_t seen[8];
    assert_int_equal(values_seen(&rec, late, P_TARGET, seen, 8), 1);
    assert_int_equal(seen[0], 1);
    assert_int_equal(values_seen(&rec, late, P_WEAPON, seen, 8), 0); /* still the initial value */
    assert_int_equal(count(&rec, late, 'a', -1), 0);                 /* the old dash: never */
    assert_int_equal(values_seen(&rec, early, P_WEAPON, seen, 8), 2);
    assert_int_equal(seen[0], 2);
    assert_int_equal(seen[1], 0);

    /* A dash after the join reaches both observers, once each. */
    advance(s, 30);
    assert_int_equal(fg_rep_try_action(s, "dash", &t, NULL), FG_OK);
    assert_true(t.started);
    advance(s, 20);
    assert_int_equal(count(&rec, late, 'a', FG_REP_RUN_REPLICATED), 1);
    assert_int_equal(count(&rec, early, 'a', FG_REP_RUN_REPLICATED), 2);
    assert_int_equal(count(&rec, FG_REP_NODE_OWNER, 'a', FG_REP_RUN_REPLICATED), 0);
    assert_int_equal(count(&rec, FG_REP_NODE_AUTHORITY, 'a', FG_REP_RUN_REPLICATED), 0);
    fg_rep_destroy(s);
}

/* Rule: when the authority's cooldown has not run out, it rejects the owner's predicted dash; the
** owner rolls back with a reason and takes the authority's cooldown; observers never see it. */
static void dash_rejected_by_authority_cooldown_rolls_back_on_owner(void **state) {
    (void)state;
    rec_reset();
    fg_rep_config cfg = fg_rep_config_default();
    fg_rep_session *s = make(&cfg, &rec);
    fg_rep_hooks h = hooks_of(&rec);
    fg_rep_node obs;
    assert_int_equal(fg_rep_join(s, (fg_rep_link){1, 0.0}, &h, &obs, NULL), FG_OK);
    /* A server-side rule (a stun, say) holds the dash until tick 100 on the authority only. */
    assert_int_equal(fg_rep_set_cooldown(s, FG_REP_NODE_AUTHORITY, "dash", 100, NULL), FG_OK);
    fg_rep_try t;
    assert_int_equal(fg_rep_try_action(s, "dash", &t, NULL), FG_OK);
    assert_true(t.started);
    assert_int_equal(t.seq, 1);
    fg_tick ready;
    assert_int_equal(fg_rep_cooldown(s, FG_REP_NODE_OWNER, "dash", &ready, NULL), FG_OK);
    assert_int_equal(ready, 30); /* the owner's own prediction */
    advance(s, 5);
    assert_int_equal(count(&rec, FG_REP_NODE_OWNER, 'r', -1), 0); /* the answer is in flight */
    advance(s, 1);
    assert_int_equal(count(&rec, FG_REP_NODE_OWNER, 'r', -1), 1);
    const rec_event *rb = NULL;
    for (int i = 0; i < rec.n; i++)
        if (rec.ev[i].kind == 'r') rb = &rec.ev[i];
    assert_int_equal(rb->seq, 1);
    assert_int_equal(rb->reason, FG_REP_REASON_COOLDOWN);
    assert_string_equal(rec.last_rollback,
                        "dash #1 rejected by the authority: its cooldown runs until tick 100");
    assert_int_equal(fg_rep_cooldown(s, FG_REP_NODE_OWNER, "dash", &ready, NULL), FG_OK);
    assert_int_equal(ready, 100);
    fg_rep_stats st;
    assert_int_equal(fg_rep_stats_of(s, FG_REP_NODE_OWNER, &st, NULL), FG_OK);
    assert_int_equal(st.predicted, 1);
    assert_int_equal(st.rejected, 1);
    assert_int_equal(st.confirmed, 0);
    assert_int_equal(st.pending, 0);
    assert_int_equal(count(&rec, FG_REP_NODE_AUTHORITY, 'a', -1), 0);
    advance(s, 10);
    assert_int_equal(count(&rec, obs, 'a', -1), 0);
    /* The owner now waits for the authority's cooldown before predicting again. */
    assert_int_equal(fg_rep_try_action(s, "dash", &t, NULL), FG_OK);
    assert_false(t.started);
    assert_int_equal(t.ready_tick, 100);
    advance(s, (int)(100 - fg_rep_tick(s)));
    assert_int_equal(fg_rep_try_action(s, "dash", &t, NULL), FG_OK);
    assert_true(t.started);
    assert_int_equal(t.seq, 2);
    advance(s, 10);
    assert_int_equal(count(&rec, FG_REP_NODE_OWNER, 'a', FG_REP_RUN_CONFIRMED), 1);
    assert_int_equal(count(&rec, obs, 'a', FG_REP_RUN_REPLICATED), 1);
    fg_rep_destroy(s);
}

/* Rule: the broadcast of a confirmed action goes to observers only: the owner's link carries the
** request, the answer and their two acks, nothing more; the authority and the owner run it once. */
static void broadcast_skips_the_authority_and_the_owner(void **state) {
    (void)state;
    rec_reset();
    fg_rep_config cfg = fg_rep_config_default(); /* no loss */
    fg_rep_session *s = make(&cfg, &rec);
    fg_rep_hooks h = hooks_of(&rec);
    fg_rep_node obs;
    assert_int_equal(fg_rep_join(s, (fg_rep_link){2, 0.0}, &h, &obs, NULL), FG_OK);
    fg_rep_try t;
    assert_int_equal(fg_rep_try_action(s, "dash", &t, NULL), FG_OK);
    advance(s, 20);
    fg_rep_stats own, ob;
    fg_rep_stats_of(s, FG_REP_NODE_OWNER, &own, NULL);
    fg_rep_stats_of(s, obs, &ob, NULL);
    assert_int_equal(own.sent, 4);     /* request, its ack, the confirmation, its ack */
    assert_int_equal(own.delivered, 4);
    assert_int_equal(ob.sent, 2);      /* the event and its ack */
    assert_int_equal(count(&rec, FG_REP_NODE_AUTHORITY, 'a', -1), 1);
    assert_int_equal(count(&rec, FG_REP_NODE_OWNER, 'a', FG_REP_RUN_PREDICTED), 1);
    assert_int_equal(count(&rec, FG_REP_NODE_OWNER, 'a', FG_REP_RUN_CONFIRMED), 1);
    assert_int_equal(count(&rec, obs, 'a', FG_REP_RUN_REPLICATED), 1);
    fg_rep_destroy(s);
}

/* Rule: a local cooldown stops the owner from predicting at all (nothing sent). */
static void owner_local_cooldown_refuses_without_sending(void **state) {
    (void)state;
    rec_reset();
    fg_rep_config cfg = fg_rep_config_default();
    fg_rep_session *s = make(&cfg, &rec);
    fg_rep_try t;
    assert_int_equal(fg_rep_try_action(s, "dash", &t, NULL), FG_OK);
    assert_true(t.started);
    advance(s, 10);
    fg_rep_stats before;
    fg_rep_stats_of(s, FG_REP_NODE_OWNER, &before, NULL);
    assert_int_equal(fg_rep_try_action(s, "dash", &t, NULL), FG_OK);
    assert_false(t.started);
    assert_int_equal(t.ready_tick, 30);
    fg_rep_stats after;
    fg_rep_stats_of(s, FG_REP_NODE_OWNER, &after, NULL);
    assert_int_equal(after.sent, before.sent);
    assert_int_equal(after.predicted, 1);
    assert_int_equal(count(&rec, FG_REP_NODE_OWNER, 'a', FG_REP_RUN_PREDICTED), 1);
    fg_rep_destroy(s);
}

/* Rule: with latency and heavy loss on every link, each observer runs exactly the dashes the
** authority confirmed, once each, in order; every prediction is answered; persistent state
** converges to the last value. */
static void latency_and_loss_do_not_duplicate_or_lose_a_dash(void **state) {
    (void)state;
    rec_reset();
    fg_rep_config cfg = fg_rep_config_default();
    cfg.owner_link = (fg_rep_link){4, 0.3};
    cfg.seed = 12345;
    fg_rep_session *s = make(&cfg, &rec);
    fg_rep_hooks h = hooks_of(&rec);
    fg_rep_node obs[3];
    const fg_rep_link links[3] = {{1, 0.3}, {5, 0.45}, {9, 0.2}};
    for (int i = 0; i < 3; i++)
        assert_int_equal(fg_rep_join(s, links[i], &h, &obs[i], NULL), FG_OK);
    /* Short cooldowns on both sides so that requests and answers cross often. */
    int64_t last_weapon = 0;
    for (int t = 0; t < 1500; t++) {
        fg_rep_try tr;
        assert_int_equal(fg_rep_try_action(s, "dash", &tr, NULL), FG_OK);
        if (t % 7 == 0) {
            last_weapon = (t / 7) % 4;
            assert_int_equal(fg_rep_set(s, FG_REP_NODE_OWNER, "weapon", last_weapon, NULL), FG_OK);
        }
        advance(s, 1);
    }
    advance(s, 400); /* drain: no new traffic, retransmissions finish the job */

    uint32_t auth_seqs[256];
    int na = 0;
    for (int i = 0; i < rec.n; i++)
        if (rec.ev[i].node == FG_REP_NODE_AUTHORITY && rec.ev[i].kind == 'a') {
            assert_true(na < 256);
            auth_seqs[na++] = rec.ev[i].seq;
        }
    /* At most 50 (1500 ticks, cooldown 30); retransmission delays make the authority reject
    ** some predictions, which is not what this test is about. */
    assert_true(na >= 30);
    for (int k = 0; k < 3; k++) {
        int m = 0;
        for (int i = 0; i < rec.n; i++)
            if (rec.ev[i].node == obs[k] && rec.ev[i].kind == 'a') {
                assert_int_equal(rec.ev[i].run, FG_REP_RUN_REPLICATED);
                assert_true(m < na);
                if (rec.ev[i].seq != auth_seqs[m])
                    fail_msg("observer %u: dash %d has seq %u, the authority ran %u", obs[k], m,
                             rec.ev[i].seq, auth_seqs[m]);
                m++;
            }
        assert_int_equal(m, na);
        assert_int_equal(get(s, obs[k], "weapon"), last_weapon);
        fg_rep_stats st;
        fg_rep_stats_of(s, obs[k], &st, NULL);
        assert_true(st.lost > 0);
        assert_true(st.retransmitted > 0);
        assert_true(st.duplicates + st.out_of_order > 0); /* the receiver did discard some */
    }
    fg_rep_stats own;
    fg_rep_stats_of(s, FG_REP_NODE_OWNER, &own, NULL);
    assert_int_equal(own.pending, 0);
    assert_int_equal(own.confirmed + own.rejected, own.predicted);
    assert_int_equal(own.confirmed, (uint32_t)na);
    assert_true(own.lost > 0);
    assert_int_equal(get(s, FG_REP_NODE_AUTHORITY, "weapon"), last_weapon);
    fg_rep_destroy(s);
}

/* Rule: the run is a function of the seed: same seed and calls, same hash; another seed loses
** other messages. */
static void same_seed_same_run(void **state) {
    (void)state;
    uint64_t hashes[3];
    uint64_t lost[3];
    const uint64_t seeds[3] = {7, 7, 8};
    for (int k = 0; k < 3; k++) {
        rec_reset();
        fg_rep_config cfg = fg_rep_config_default();
        cfg.owner_link = (fg_rep_link){2, 0.25};
        cfg.seed = seeds[k];
        fg_rep_session *s = make(&cfg, &rec);
        fg_rep_node o;
        assert_int_equal(fg_rep_join(s, (fg_rep_link){3, 0.25}, NULL, &o, NULL), FG_OK);
        for (int t = 0; t < 300; t++) {
            fg_rep_try tr;
            fg_rep_try_action(s, "dash", &tr, NULL);
            if (t % 11 == 0) fg_rep_set(s, FG_REP_NODE_OWNER, "target_locked", t % 2, NULL);
            advance(s, 1);
        }
        hashes[k] = hash_of(s);
        fg_rep_stats st;
        fg_rep_stats_of(s, FG_REP_NODE_AUTHORITY, &st, NULL);
        lost[k] = st.lost;
        fg_rep_destroy(s);
    }
    assert_true(hashes[0] == hashes[1]);
    assert_true(hashes[0] != hashes[2]);
    assert_true(lost[0] == lost[1]);
    assert_true(lost[0] > 0 && lost[2] > 0);
}

/* Rule: a COND_ALL property reaches the owner too, but an update already in flight when the owner
** changed it does not undo the owner's own change. SimulatedOnly state set by the authority never
** reaches the owner. */
static void cond_all_reaches_owner_without_undoing_its_change(void **state) {
    (void)state;
    rec_reset();
    fg_rep_config cfg = fg_rep_config_default(); /* latency 3 */
    fg_rep_session *s = make(&cfg, &rec);
    assert_int_equal(fg_rep_set(s, FG_REP_NODE_AUTHORITY, "stance", 2, NULL), FG_OK);
    assert_int_equal(fg_rep_set(s, FG_REP_NODE_AUTHORITY, "weapon", 3, NULL), FG_OK);
    advance(s, 10);
    assert_int_equal(get(s, FG_REP_NODE_OWNER, "stance"), 2);
    assert_int_equal(get(s, FG_REP_NODE_OWNER, "weapon"), 0);
    /* Crossing changes: the authority sets 4 while the owner sets 1. */
    assert_int_equal(fg_rep_set(s, FG_REP_NODE_AUTHORITY, "stance", 4, NULL), FG_OK);
    assert_int_equal(fg_rep_set(s, FG_REP_NODE_OWNER, "stance", 1, NULL), FG_OK);
    for (int t = 0; t < 12; t++) {
        advance(s, 1);
        assert_int_equal(get(s, FG_REP_NODE_OWNER, "stance"), 1); /* never flickers to 4 */
    }
    assert_int_equal(get(s, FG_REP_NODE_AUTHORITY, "stance"), 1); /* the later request wins */
    int64_t seen[8];
    int n = values_seen(&rec, FG_REP_NODE_OWNER, P_STANCE, seen, 8);
    assert_int_equal(n, 2);
    assert_int_equal(seen[0], 2);
    assert_int_equal(seen[1], 1);
    fg_rep_destroy(s);
}

/* Rule: every error a caller can cause names the thing, the value and what was expected, and
** leaves the session unchanged. */
static void errors_name_the_problem_and_change_nothing(void **state) {
    (void)state;
    rec_reset();
    fg_rep_config cfg = fg_rep_config_default();
    cfg.max_observers = 1;
    cfg.channel_capacity = 2;
    fg_rep_session *s = make(&cfg, &rec);
    fg_rep_node obs;
    assert_int_equal(fg_rep_join(s, (fg_rep_link){2, 0.0}, NULL, &obs, NULL), FG_OK);
    advance(s, 2);
    uint64_t h0 = hash_of(s);
    fg_error err;

    assert_int_equal(fg_rep_set(s, obs, "weapon", 1, &err), FG_ESTATE);
    assert_string_equal(fg_error_message(&err), "replication: observer 2 cannot set 'weapon': observers only "
                                 "receive replicated state");
    assert_int_equal(fg_rep_set(s, FG_REP_NODE_OWNER, "wepon", 1, &err), FG_ENOTFOUND);
    assert_string_equal(fg_error_message(&err), "replication: no property 'wepon' (declared: stance, "
                                 "target_locked, weapon)");
    assert_int_equal(fg_rep_set(s, FG_REP_NODE_OWNER, "weapon", 7, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replication: weapon: 7 is outside [0, 3]");
    assert_int_equal(fg_rep_set(s, 9, "weapon", 1, &err), FG_ENOTFOUND);
    assert_string_equal(fg_error_message(&err), "replication: node 9 is not joined");
    fg_rep_try t;
    assert_int_equal(fg_rep_try_action(s, "dodge", &t, &err), FG_ENOTFOUND);
    assert_string_equal(fg_error_message(&err), "replication: no action 'dodge' (declared: dash)");
    assert_int_equal(fg_rep_join(s, (fg_rep_link){2, 0.0}, NULL, NULL, &err), FG_ENOMEM);
    assert_string_equal(fg_error_message(&err), "replication: cannot join, all 1 observer slots are taken "
                                 "(max_observers)");
    assert_int_equal(fg_rep_join(s, (fg_rep_link){0, 0.0}, NULL, NULL, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err),
                        "replication: join link.latency_ticks: 0, expected 1 to 1000");
    assert_int_equal(fg_rep_join(s, (fg_rep_link){1, 1.5}, NULL, NULL, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replication: join link.loss: 1.5, expected a value in [0, 1)");
    assert_int_equal(fg_rep_leave(s, FG_REP_NODE_OWNER, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replication: node 1 is the owner; only observers leave");
    assert_true(hash_of(s) == h0);

    /* A full channel refuses the request before anything is applied or predicted. */
    assert_int_equal(fg_rep_set(s, FG_REP_NODE_OWNER, "weapon", 1, NULL), FG_OK);
    assert_int_equal(fg_rep_set(s, FG_REP_NODE_OWNER, "weapon", 2, NULL), FG_OK);
    uint64_t h1 = hash_of(s);
    int events = rec.n;
    assert_int_equal(fg_rep_set(s, FG_REP_NODE_OWNER, "weapon", 3, &err), FG_ENOMEM);
    assert_string_equal(fg_error_message(&err), "replication: owner cannot set 'weapon': 2 requests await an ack "
                                 "(channel_capacity)");
    assert_int_equal(fg_rep_try_action(s, "dash", &t, &err), FG_ENOMEM);
    assert_string_equal(fg_error_message(&err), "replication: owner cannot try 'dash': 2 requests await the "
                                 "authority (channel_capacity)");
    assert_int_equal(get(s, FG_REP_NODE_OWNER, "weapon"), 2);
    assert_true(hash_of(s) == h1);
    assert_int_equal(rec.n, events);

    /* A hook may read but not change the session. */
    advance(s, 10);
    rec.try_reentry = true;
    assert_int_equal(fg_rep_set(s, FG_REP_NODE_AUTHORITY, "target_locked", 1, NULL), FG_OK);
    assert_int_equal(rec.reentry_status, FG_ESTATE);
    assert_string_equal(rec.reentry_msg, "replication: fg_rep_set called from inside a hook; "
                                         "hooks may read the session but not change it");
    assert_int_equal(get(s, FG_REP_NODE_AUTHORITY, "target_locked"), 1);
    fg_rep_destroy(s);
}

/* Rule: a bad declaration or config is refused with its name and value, and nothing is
** allocated. */
static void bad_declarations_are_refused(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator alloc = fg_test_counting_allocator(&counter);
    fg_rep_config cfg = fg_rep_config_default();
    fg_rep_session *s = NULL;
    fg_error err;
    struct {
        fg_rep_property_def p[2];
        uint32_t n;
        const char *msg;
    } rows[] = {
        {{{"weapon", 5, 0, 3, 0}}, 1,
         "replication: property 'weapon': initial 5 is outside [0, 3]"},
        {{{"weapon", 0, 4, 3, 0}}, 1, "replication: property 'weapon': min 4 is above max 3"},
        {{{"a", 0, 0, 1, 0}, {"a", 0, 0, 1, 0}}, 2, "replication: property 'a' is declared twice"},
        {{{"", 0, 0, 1, 0}}, 1, "replication: properties[1]: name '' must be 1 to 31 bytes"},
        {{{"abcdefghijklmnopqrstuvwxyz0123456", 0, 0, 1, 0}}, 1,
         "replication: properties[1]: name 'abcdefghijklmnopqrstuvwxyz0123456' must be 1 to 31 "
         "bytes"},
        {{{"x", 0, 0, 1, (fg_rep_condition)5}}, 1,
         "replication: property 'x': condition 5, expected FG_REP_COND_SIMULATED_ONLY (0) or "
         "FG_REP_COND_ALL (1)"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fg_rep_spec sp = {rows[i].p, rows[i].n, acts, 1};
        assert_int_equal(fg_rep_create(&sp, &cfg, &alloc, &s, &err), FG_EINVAL);
        assert_string_equal(fg_error_message(&err), rows[i].msg);
        assert_null(s);
    }
    fg_rep_action_def twice[2] = {{"dash", 1}, {"dash", 2}};
    fg_rep_spec sp = {props, 3, twice, 2};
    assert_int_equal(fg_rep_create(&sp, &cfg, &alloc, &s, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replication: action 'dash' is declared twice");
    fg_rep_config bad = cfg;
    bad.owner_link.loss = -0.1;
    assert_int_equal(fg_rep_create(&spec, &bad, &alloc, &s, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replication: owner_link.loss: -0.1, expected a value in [0, 1)");
    bad = cfg;
    bad.max_observers = 65;
    assert_int_equal(fg_rep_create(&spec, &bad, &alloc, &s, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replication: max_observers: 65, expected 0 to 64");
    bad = cfg;
    bad.channel_capacity = 0;
    assert_int_equal(fg_rep_create(&spec, &bad, &alloc, &s, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replication: channel_capacity: 0, expected 1 to 65536");
    assert_int_equal(counter.allocations, 0);
    counter.fail_after = 1; /* the session, then the block fails */
    assert_int_equal(fg_rep_create(&spec, &cfg, &alloc, &s, &err), FG_ENOMEM);
    assert_non_null(strstr(fg_error_message(&err), "bytes for 6 nodes"));
    assert_null(s);
    assert_int_equal(counter.live_bytes, 0);
}

/* Rule: after creation nothing allocates: joins, leaves, loss, retransmissions, hooks. */
static void no_allocation_after_create(void **state) {
    (void)state;
    rec_reset();
    fg_counting_allocator counter;
    fg_allocator alloc = fg_test_counting_allocator(&counter);
    fg_rep_config cfg = fg_rep_config_default();
    cfg.owner_link = (fg_rep_link){3, 0.2};
    fg_rep_session *s;
    assert_int_equal(fg_rep_create(&spec, &cfg, &alloc, &s, NULL), FG_OK);
    size_t allocs = counter.allocations;
    fg_rep_hooks h = hooks_of(&rec);
    fg_rep_node o = 0;
    for (int t = 0; t < 600; t++) {
        if (t % 100 == 10)
            assert_int_equal(fg_rep_join(s, (fg_rep_link){2, 0.2}, &h, &o, NULL), FG_OK);
        if (t % 100 == 80) assert_int_equal(fg_rep_leave(s, o, NULL), FG_OK);
        fg_rep_try tr;
        fg_rep_try_action(s, "dash", &tr, NULL);
        if (t % 5 == 0) fg_rep_set(s, FG_REP_NODE_OWNER, "target_locked", (t / 5) % 2, NULL);
        advance(s, 1);
    }
    assert_int_equal(counter.allocations, allocs);
    fg_rep_destroy(s);
    assert_int_equal(counter.live_bytes, 0);
}

/* Rule: an observer that left receives nothing more; a new join gets a new id and starts fresh. */
static void leaving_stops_delivery_and_ids_are_not_reused(void **state) {
    (void)state;
    rec_reset();
    fg_rep_config cfg = fg_rep_config_default();
    fg_rep_session *s = make(&cfg, &rec);
    fg_rep_hooks h = hooks_of(&rec);
    fg_rep_node a, b;
    assert_int_equal(fg_rep_join(s, (fg_rep_link){3, 0.0}, &h, &a, NULL), FG_OK);
    fg_rep_try t;
    fg_rep_try_action(s, "dash", &t, NULL);
    advance(s, 4); /* the broadcast is on its way to a */
    assert_int_equal(fg_rep_leave(s, a, NULL), FG_OK);
    advance(s, 20);
    assert_int_equal(count(&rec, a, 'a', -1), 0);
    assert_false(fg_rep_connected(s, a, NULL));
    fg_error err;
    int64_t v;
    assert_int_equal(fg_rep_get(s, a, "weapon", &v, &err), FG_ENOTFOUND);
    assert_int_equal(fg_rep_join(s, (fg_rep_link){3, 0.0}, &h, &b, NULL), FG_OK);
    assert_true(b != a);
    fg_rep_role role;
    assert_int_equal(fg_rep_role_of(s, b, &role, NULL), FG_OK);
    assert_int_equal(role, FG_REP_ROLE_OBSERVER);
    assert_string_equal(fg_rep_role_name(role), "observer");
    advance(s, 20);
    assert_int_equal(count(&rec, b, 'a', -1), 0);
    fg_rep_destroy(s);
}

/* Rule: an observer whose reliable channel overflows is disconnected, with the reason, and the
** others carry on. */
static void reliable_overflow_disconnects_only_that_observer(void **state) {
    (void)state;
    rec_reset();
    fg_rep_config cfg = fg_rep_config_default();
    cfg.channel_capacity = 4;
    cfg.owner_link = (fg_rep_link){1, 0.0};
    fg_rep_action_def quick[1] = {{"dash", 1}};
    fg_rep_spec sp = {props, 3, quick, 1};
    fg_rep_session *s = NULL;
    assert_int_equal(fg_rep_create(&sp, &cfg, NULL, &s, NULL), FG_OK);
    fg_rep_hooks h = hooks_of(&rec);
    fg_rep_node good, deaf;
    assert_int_equal(fg_rep_join(s, (fg_rep_link){1, 0.0}, &h, &good, NULL), FG_OK);
    assert_int_equal(fg_rep_join(s, (fg_rep_link){1, 0.999}, &h, &deaf, NULL), FG_OK);
    for (int t = 0; t < 40; t++) {
        fg_rep_try tr;
        assert_int_equal(fg_rep_try_action(s, "dash", &tr, NULL), FG_OK);
        advance(s, 1);
    }
    advance(s, 5);
    const char *why = NULL;
    assert_false(fg_rep_connected(s, deaf, &why));
    assert_string_equal(why, "disconnected: its reliable channel overflowed");
    assert_true(fg_rep_connected(s, good, &why));
    assert_int_equal(count(&rec, good, 'a', FG_REP_RUN_REPLICATED), 40);
    fg_rep_destroy(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ids_follow_sorted_names),
        cmocka_unit_test(late_join_sees_persistent_state_but_no_past_dash),
        cmocka_unit_test(dash_rejected_by_authority_cooldown_rolls_back_on_owner),
        cmocka_unit_test(broadcast_skips_the_authority_and_the_owner),
        cmocka_unit_test(owner_local_cooldown_refuses_without_sending),
        cmocka_unit_test(latency_and_loss_do_not_duplicate_or_lose_a_dash),
        cmocka_unit_test(same_seed_same_run),
        cmocka_unit_test(cond_all_reaches_owner_without_undoing_its_change),
        cmocka_unit_test(errors_name_the_problem_and_change_nothing),
        cmocka_unit_test(bad_declarations_are_refused),
        cmocka_unit_test(no_allocation_after_create),
        cmocka_unit_test(leaving_stops_delivery_and_ids_are_not_reused),
        cmocka_unit_test(reliable_overflow_disconnects_only_that_observer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
