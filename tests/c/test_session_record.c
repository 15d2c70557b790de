/* SPDX-License-Identifier: MIT */
/*
** test_session_record.c: input records. A world fed the records taken from another world's
** consumed edges differs from it only in what a record does not keep (timestamps inside the tick,
** the source, the late flag), never in gameplay; the wire form round-trips; adversarial bytes
** are refused with a message; an overflowing tick keeps its end state.
*/
#include "fg_test.h"

#include <stdlib.h>
#include <string.h>

static const char *const buttons[] = {"LP", "HP", "LK", "HK"};

static fg_world *make_world(void) {
    fg_world_config c = fg_world_config_default();
    c.buttons = buttons;
    c.nbuttons = 4;
    c.seed = 3;
    fg_error err;
    fg_world *w = fg_world_create(&c, &err);
    assert_non_null(w);
    fg_spawn sp = {0};
    sp.grounded = true;
    sp.x = FG_FX(-35);
    assert_int_equal(fg_world_spawn(w, &sp, NULL, &err), FG_OK);
    sp.x = FG_FX(35);
    sp.facing = FG_FACING_LEFT;
    assert_int_equal(fg_world_spawn(w, &sp, NULL, &err), FG_OK);
    return w;
}

/* What a record may lose: the paths of fields that carry sub-tick time, the source or the late
** flag (the entity's input digest folds all three of every consumed edge). Anything else
** differing is a bug. */
static bool lossy_field(const fg_state_diff *d) {
    static const char *const suffixes[] = {".time_us", ".source", ".last_time_us", ".late",
                                           ".input_digest"};
    size_t n = strlen(d->path);
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t m = strlen(suffixes[i]);
        if (n >= m && strcmp(d->path + n - m, suffixes[i]) == 0) return true;
    }
    if (n >= 6 && strcmp(d->path + n - 6, ".flags") == 0) {
        unsigned a = (unsigned)strtoul(d->a, NULL, 16), b = (unsigned)strtoul(d->b, NULL, 16);
        return (a ^ b) == FG_EDGE_LATE;
    }
    return false;
}

static void records_keep_gameplay(void **state) {
    (void)state;
    fg_world *raw = make_world(), *fed = make_world();
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 5);
    fg_error err;
    fg_input_record prev[2];
    size_t size = fg_world_snapshot_size(raw);
    void *a = malloc(size), *b = malloc(size);
    fg_state_diff diffs[64];
    uint64_t lossy = 0, edges = 0;
    for (fg_tick t = 0; t < 3000; t++) {
        assert_int_equal(fg_input_fuzz_tick(&fz, raw, &err), FG_OK);
        assert_int_equal(fg_world_advance(raw, &err), FG_OK);
        for (uint32_t p = 0; p < 2; p++) {
            fg_input_record r;
            const fg_tick_input *ti = fg_world_last_input(raw, p + 1);
            assert_int_equal(fg_input_record_of_tick(fg_world_buffer(raw, p + 1), ti,
                                                     t ? &prev[p] : NULL, &r, &err),
                             FG_OK);
            assert_int_equal(fg_input_record_check(&r, t ? &prev[p] : NULL, 4, &err), FG_OK);
            edges += r.nedges;
            /* Through the wire form, as a peer gets it. */
            uint8_t wire[FG_INPUT_RECORD_WIRE_MAX];
            size_t n = fg_input_record_encode(&r, wire), used = 0;
            fg_input_record back;
            assert_int_equal(fg_input_record_decode(wire, n, &used, t ? &prev[p] : NULL, 4, &back,
                                                    &err),
                             FG_OK);
            assert_int_equal(used, n);
            assert_true(fg_input_record_equal(&r, &back));
            if (fg_input_record_push(&back, fed, p + 1, t, &err) != FG_OK)
                fail_msg("tick %lld: %s", (long long)t, fg_error_message(&err));
            prev[p] = r;
        }
        assert_int_equal(fg_world_advance(fed, &err), FG_OK);
        assert_int_equal(fg_world_save(raw, a, size, &err), FG_OK);
        assert_int_equal(fg_world_save(fed, b, size, &err), FG_OK);
        uint32_t count = 0;
        assert_int_equal(fg_world_diff(raw, a, size, b, size, diffs, 64, &count, &err), FG_OK);
        for (uint32_t i = 0; i < count && i < 64; i++) {
            if (!lossy_field(&diffs[i]))
                fail_msg("tick %lld: %s: %s vs %s", (long long)t, diffs[i].path, diffs[i].a,
                         diffs[i].b);
            lossy++;
        }
    }
    assert_true(edges > 1000); /* the fuzz pressed, released and rolled motions */
    assert_true(lossy > 0);    /* and timestamps differ, so the check above had work */
    free(a);
    free(b);
    fg_world_destroy(raw);
    fg_world_destroy(fed);
}

static void build_and_format(void **state) {
    (void)state;
    fg_input_record r;
    fg_input_record_start(&r, NULL);
    fg_error err;
    assert_int_equal(fg_input_record_add(&r, FG_EDGE_DIR, 2, &err), FG_OK);
    assert_int_equal(fg_input_record_add(&r, FG_EDGE_DIR, 3, &err), FG_OK);
    assert_int_equal(fg_input_record_add(&r, FG_EDGE_DIR, 6, &err), FG_OK);
    assert_int_equal(fg_input_record_add(&r, FG_EDGE_PRESS, 5, &err), FG_OK);
    assert_int_equal(fg_input_record_add(&r, FG_EDGE_PRESS, 5, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "already held"));
    assert_int_equal(fg_input_record_add(&r, FG_EDGE_RELEASE, 6, &err), FG_ESTATE);
    assert_int_equal(fg_input_record_add(&r, FG_EDGE_DIR, 6, &err), FG_ESTATE);
    assert_int_equal(fg_input_record_add(&r, FG_EDGE_DIR, 0, &err), FG_EINVAL);
    assert_int_equal(r.nedges, 4);
    fg_action_names names;
    assert_int_equal(fg_action_names_init(&names, buttons, 4, &err), FG_OK);
    char text[128];
    fg_input_record_format(&r, &names, text, sizeof text);
    assert_string_equal(text, "2 3 6 +HP | held HP, dir 6"); /* ids by sorted name: HK 4, HP 5 */
    uint8_t wire[FG_INPUT_RECORD_WIRE_MAX];
    assert_int_equal(fg_input_record_encode(&r, wire), 5); /* 1 + 4 edges */
    fg_input_record idle;
    fg_input_record_start(&idle, &r);
    assert_int_equal(fg_input_record_encode(&idle, wire), 1);
}

static void overflow_keeps_end_state(void **state) {
    (void)state;
    fg_input_record r;
    fg_input_record_start(&r, NULL);
    fg_error err;
    /* 20 taps of one button in one tick, then the button held. */
    for (int i = 0; i < 10; i++) {
        assert_int_equal(fg_input_record_add(&r, FG_EDGE_PRESS, 4, &err), FG_OK);
        assert_int_equal(fg_input_record_add(&r, FG_EDGE_RELEASE, 4, &err), FG_OK);
    }
    assert_int_equal(fg_input_record_add(&r, FG_EDGE_PRESS, 7, &err), FG_OK);
    assert_int_equal(r.nedges, FG_INPUT_RECORD_EDGES);
    assert_int_equal(r.overflow, 1);
    assert_int_equal(r.held, 1u << 7);
    uint8_t wire[FG_INPUT_RECORD_WIRE_MAX];
    size_t n = fg_input_record_encode(&r, wire), used;
    assert_int_equal(n, FG_INPUT_RECORD_WIRE_MAX);
    fg_input_record back;
    assert_int_equal(fg_input_record_decode(wire, n, &used, NULL, 4, &back, &err), FG_OK);
    assert_true(fg_input_record_equal(&r, &back));
    /* Pushed into a world, the kept edges then the end state. */
    fg_world *w = make_world();
    assert_int_equal(fg_input_record_push(&back, w, 1, 0, &err), FG_OK);
    assert_int_equal(fg_world_advance(w, &err), FG_OK);
    assert_true(fg_world_buffer(w, 1)->held & (1u << 7));
    assert_false(fg_world_buffer(w, 1)->held & (1u << 4));
    assert_int_equal(fg_world_last_input(w, 1)->count, FG_INPUT_RECORD_EDGES + 1);
    fg_world_destroy(w);
}

static void adversarial_bytes(void **state) {
    (void)state;
    fg_input_record out, prev;
    fg_input_record_start(&prev, NULL);
    fg_error err;
    size_t used;
    const uint8_t truncated[] = {0x02, 0x04};
    assert_int_equal(fg_input_record_decode(truncated, 2, &used, &prev, 4, &out, &err),
                     FG_EFORMAT);
    assert_non_null(strstr(fg_error_message(&err), "needs 3"));
    const uint8_t flags[] = {0xC0};
    assert_int_equal(fg_input_record_decode(flags, 1, &used, &prev, 4, &out, &err), FG_EFORMAT);
    const uint8_t too_many[] = {0x0F};
    assert_int_equal(fg_input_record_decode(too_many, 1, &used, &prev, 4, &out, &err),
                     FG_EFORMAT);
    const uint8_t undeclared[] = {0x01, 0x0A}; /* press of button 10, 4 declared */
    assert_int_equal(fg_input_record_decode(undeclared, 2, &used, &prev, 4, &out, &err),
                     FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "button id 10: expected 4..7"));
    const uint8_t release_free[] = {0x01, 0x44};
    assert_int_equal(fg_input_record_decode(release_free, 2, &used, &prev, 4, &out, &err),
                     FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "not held"));
    const uint8_t bad_dir[] = {0x01, 0x80 | 12};
    assert_int_equal(fg_input_record_decode(bad_dir, 2, &used, &prev, 4, &out, &err), FG_EINVAL);
    const uint8_t bad_state[] = {0x30, 0xFF, 0xFF, 0xFF, 0xFF}; /* overflow: all held, dir 15 */
    assert_int_equal(fg_input_record_decode(bad_state, 5, &used, &prev, 4, &out, &err),
                     FG_EINVAL);
    /* Every byte string of up to 3 bytes: decoded or refused, never anything else. */
    for (uint32_t v = 0; v < (1u << 24); v += 97) {
        uint8_t b[3] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16)};
        fg_status st = fg_input_record_decode(b, 3, &used, &prev, 4, &out, &err);
        if (st == FG_OK) assert_int_equal(fg_input_record_check(&out, &prev, 4, NULL), FG_OK);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(records_keep_gameplay),
        cmocka_unit_test(build_and_format),
        cmocka_unit_test(overflow_keeps_end_state),
        cmocka_unit_test(adversarial_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
