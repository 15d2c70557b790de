/* SPDX-License-Identifier: MIT */
/*
** test_trace_text.c: the trace keeps a rule error's whole text (framegate/world.h,
** fg_world_trace_text): longer than fg_error keeps inline, with no allocation once the world exists, and
** says so when the text ring's budget cuts or reuses a text.
*/
#include "fg_test.h"
#include "rules_fixture.h"

#include "framegate/world.h"

#include <stdio.h>
#include <string.h>

/* A message of n bytes: words, then " THE_END". */
static void long_message(char *buf, size_t n) {
    size_t i = 0;
    while (i + 12 < n) { /* leaves 8 to 12 bytes for the last word */
        memcpy(buf + i, "word ", 5);
        i += 5;
    }
    snprintf(buf + i, n - i + 1, "%-*s", (int)(n - i), "THE_END");
    buf[n] = '\0';
}

static fg_world *world_with_text(uint32_t bytes, const fg_allocator *alloc) {
    fg_world_config c = fg_world_config_default();
    c.trace_text_bytes = bytes;
    if (alloc) c.allocator = *alloc;
    fg_error err;
    fg_world *w = fg_world_create(&c, &err);
    if (!w) fail_msg("%s", fg_error_message(&err));
    return w;
}

static const fg_trace_record *last_error(const fg_world *w) {
    const fg_trace_record *found = NULL;
    for (uint32_t i = 0; i < fg_world_trace_count(w); i++) {
        const fg_trace_record *r = fg_world_trace_at(w, i);
        if (r->kind == FG_TRACE_RULE_ERROR) found = r;
    }
    return found;
}

/* Rule: a 5,000-byte note is kept whole, and writing notes allocates nothing. */
static void a_long_note_is_kept_whole_without_allocating(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator a = fg_test_counting_allocator(&counter);
    fg_world *w = world_with_text(65536, &a);
    static char msg[5001];
    long_message(msg, 5000);
    size_t allocs = counter.allocations;
    for (int i = 0; i < 100; i++) fg_world_note_error(w, 0, msg);
    assert_int_equal(counter.allocations, allocs);
    const fg_trace_record *r = last_error(w);
    assert_non_null(r);
    assert_int_equal(r->text_len, 5000);
    assert_string_equal(fg_world_trace_text(w, r), msg);
    static char line[6000];
    int n = fg_world_trace_format(w, r, line, sizeof line);
    assert_true(n > 5000 && (size_t)n < sizeof line);
    assert_non_null(strstr(line, "rule error: word word"));
    assert_non_null(strstr(line, "THE_END"));
    fg_world_destroy(w);
}

/* Rule: a text longer than the ring keeps its head, cut at a word, and says what is missing. */
static void a_text_past_the_budget_says_so(void **state) {
    (void)state;
    fg_world *w = world_with_text(256, NULL);
    static char msg[1001];
    long_message(msg, 1000);
    fg_world_note_error(w, 0, msg);
    const char *t = fg_world_trace_text(w, last_error(w));
    assert_true(strlen(t) < 256);
    assert_null(strstr(t, "THE_END"));
    const char *note = strstr(t, " [... ");
    assert_non_null(note);
    assert_true(note > t && note[-1] == 'd'); /* "word": cut between words */
    assert_non_null(strstr(t, "more bytes: the message is longer than world.trace_text_bytes "
                              "(256)]"));
    fg_world_destroy(w);
}

/* Rule: a text the ring has reused reads as a note, never as another text's bytes. */
static void reused_text_is_reported(void **state) {
    (void)state;
    fg_world *w = world_with_text(256, NULL);
    fg_world_note_error(w, 0, "first: an error of the first tick, long enough to matter here");
    const fg_trace_record *first = fg_world_trace_at(w, 0);
    char msg[201];
    long_message(msg, 200);
    fg_world_note_error(w, 0, msg);
    fg_world_note_error(w, 0, msg);
    assert_non_null(strstr(fg_world_trace_text(w, first), "text overwritten by newer trace"));
    assert_string_equal(fg_world_trace_text(w, last_error(w)), msg);
    fg_world_destroy(w);
}

/* Rule: without a text ring, a record says its text was not kept; a bad budget is refused. */
static void no_ring_and_bad_budgets(void **state) {
    (void)state;
    fg_world *w = world_with_text(0, NULL);
    fg_world_note_error(w, 0, "lost");
    assert_non_null(strstr(fg_world_trace_text(w, last_error(w)), "trace_text_bytes 0"));
    fg_world_destroy(w);
    fg_world_config c = fg_world_config_default();
    fg_error err;
    c.trace_text_bytes = 255;
    assert_null(fg_world_create(&c, &err));
    assert_string_equal(fg_error_message(&err), "world.trace_text_bytes: 255, expected 0 or 256..16777216");
    c.trace_text_bytes = FG_TRACE_TEXT_MAX + 1;
    assert_null(fg_world_create(&c, &err));
}

/* A request hook whose error is longer than fg_error keeps inline, handing the text over or not. */
typedef struct long_hook {
    char msg[3001];
    bool hand_over;
} long_hook;

static bool always(void *ud, const fg_world *w, uint32_t slot) {
    (void)ud;
    (void)w;
    (void)slot;
    return true;
}

static fg_status failing_request(void *ud, fg_world *w, const fg_decision *d, fg_verdict *out,
                                 fg_error *err) {
    (void)d;
    (void)out;
    long_hook *h = ud;
    if (h->hand_over) fg_world_trace_hook_error(w, h->msg);
    return fg_error_set(err, FG_ERULE, "%s", h->msg);
}

/* Rule: the rule error record of a failed request hook carries its whole message, whether the
** hook hands it over or only returns it in its fg_error (which keeps any length). */
static void a_hook_error_longer_than_fg_error_is_traced_whole(void **state) {
    (void)state;
    static long_hook h;
    long_message(h.msg, 3000);
    for (int hand = 0; hand < 2; hand++) {
        h.hand_over = hand == 1;
        fg_world_hooks hooks = {&h, always, failing_request};
        fgt_duel d = fgt_duel_new(fgt_fighter(), 300, &hooks, NULL);
        fgt_request(&d, d.p1, "jab");
        fgt_run(&d, 1);
        const fg_trace_record *r = last_error(d.w);
        assert_non_null(r);
        const char *t = fg_world_trace_text(d.w, r);
        assert_string_equal(t, h.msg);
        fgt_duel_free(&d);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_long_note_is_kept_whole_without_allocating),
        cmocka_unit_test(a_text_past_the_budget_says_so),
        cmocka_unit_test(reused_text_is_reported),
        cmocka_unit_test(no_ring_and_bad_budgets),
        cmocka_unit_test(a_hook_error_longer_than_fg_error_is_traced_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
