/* SPDX-License-Identifier: MIT */
/*
** test_motion_hash_cache.c: the matcher keeps the fold of its patterns' and nodes' hashed fields
** up to date as it changes them, so a world hashes a state by its header. If any change forgot
** to refresh the fold, the state hash would miss real differences: this suite recomputes the
** fold from scratch after every step of long random streams and compares.
*/
#include "fg_test.h"
#include "../../runtime/src/motion_internal.h"

#include <stdlib.h>

static const char *BUTTONS[] = {"LP", "HP", "LK", "HK"};

static fg_motion_set *compile(void) {
    fg_motion_buttons b;
    assert_int_equal(fg_motion_buttons_init(&b, BUTTONS, 4, NULL, 0, NULL), FG_OK);
    static const char *const notations[][2] = {
        {"hadouken", "236P"}, {"shoryuken", "623P"}, {"tatsu", "214K"}, {"dash", "66"},
        {"super", "236236P"}, {"charge", "[4]6P"}, {"chord", "LP+LK"}, {"release", "236]P["},
        {"jab", "LP"}, {"sweep", "2HK"}, {"hold", "/D"}, {"mugen", "~D, DF, F, HP"},
    };
    fg_motion_def defs[12];
    for (int i = 0; i < 12; i++) {
        defs[i] = (fg_motion_def){0};
        defs[i].name = notations[i][0];
        defs[i].notation = notations[i][1];
        defs[i].buffer = i % 3 == 0 ? 4 : 0; /* some commands stay asserted a while */
    }
    fg_motion_set *set = NULL;
    fg_error err;
    if (fg_motion_set_compile(&b, defs, 12, NULL, &set, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
    return set;
}

/* Rule: after every step (edges or not, commands or not, retirements), the cached fold equals
** the fold recomputed from the whole state. */
static void cached_fold_matches_a_recomputed_one_after_every_step(void **state) {
    (void)state;
    fg_motion_set *set = compile();
    fg_buffer *buf = malloc(fg_buffer_size(32));
    fg_motion_state *st = malloc(fg_motion_state_size(set));
    for (uint64_t seed = 1; seed <= 20; seed++) {
        fg_buffer_init(buf, 32, -1, NULL);
        fg_motion_state_init(set, st, -1);
        assert_int_equal(fg_motion_state_region_check(set, st), 1);
        fg_rng r = fg_rng_seeded(seed);
        uint32_t held = 0;
        int dir = 5;
        for (fg_tick t = 0; t < 2000; t++) {
            int64_t us = t * 1000;
            int events = (int)fg_rng_range(&r, 0, 6) == 0 ? (int)fg_rng_range(&r, 1, 3) : 0;
            for (int k = 0; k < events; k++) {
                if (fg_rng_range(&r, 0, 1)) {
                    int d = (int)fg_rng_range(&r, 1, 9);
                    if (d == dir) continue;
                    fg_buffer_push(buf, FG_EDGE_DIR, 0, d, us + k, t, 0, NULL, NULL);
                    dir = d;
                } else {
                    int a = FG_IN_FIRST_BUTTON + (int)fg_rng_range(&r, 0, 3);
                    bool down = held & (1u << a);
                    fg_buffer_push(buf, down ? FG_EDGE_RELEASE : FG_EDGE_PRESS, a, 0, us + k, t, 0,
                                   NULL, NULL);
                    held ^= 1u << a;
                }
            }
            fg_tick_input in;
            fg_buffer_consume_for_tick(buf, t, &in, NULL);
            fg_motion_command out[16];
            uint32_t n = 0;
            fg_motion_ctx ctx = {NULL, fg_rng_range(&r, 0, 20) == 0};
            assert_int_equal(fg_motion_step(set, st, buf, &in, &ctx, out, 16, &n, NULL), FG_OK);
            if (n && fg_rng_range(&r, 0, 1)) fg_motion_retire(set, st, out[0].motion);
            /* The hash of a stale state (folded on the fly) equals the refreshed one. */
            fg_hasher before = fg_hasher_begin(1), after = fg_hasher_begin(1);
            fg_motion_state_hash(set, st, &before);
            if (fg_rng_range(&r, 0, 3)) fg_motion_state_refresh(set, st);
            fg_motion_state_hash(set, st, &after);
            assert_int_equal(fg_hasher_end(&before), fg_hasher_end(&after));
            if (fg_motion_state_region_check(set, st) != 1)
                fail_msg("seed %llu tick %lld: the cached fold is stale", (unsigned long long)seed,
                         (long long)t);
        }
    }
    free(buf);
    free(st);
    fg_motion_set_destroy(set);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cached_fold_matches_a_recomputed_one_after_every_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
