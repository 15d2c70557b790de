/* SPDX-License-Identifier: MIT */
/*
** test_error.c: fg_error carries a message of any length. Up to FG_ERROR_MAX - 1 bytes it stays
** inline; a longer one arrives whole, byte for byte, through fg_error_set, fg_error_prefix
** chains, fg_error_copy and the runtime's own wrapping, and fg_error_clear frees it (the
** sanitizer build's leak check proves nothing is left). When the heap copy cannot be made, the
** message is cut at a word, never inside a UTF-8 character, and says how many bytes it lost.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <cmocka.h>

#include "framegate/base.h"
#include "framegate/replay.h"

/* n bytes of "word0 word1 ..." with the last bytes "THE_END". */
static char *words(size_t n) {
    char *s = malloc(n + 1);
    size_t at = 0;
    for (unsigned i = 0; at < n; i++) {
        int k = snprintf(s + at, n + 1 - at, "word%u ", i);
        at += (size_t)k < n + 1 - at ? (size_t)k : n - at;
    }
    memcpy(s + n - 7, "THE_END", 8);
    return s;
}

/* Rule: a 5,000-byte message set in one call reads back byte-identical. */
static void a_long_message_arrives_whole(void **state) {
    (void)state;
    char *text = words(5000);
    fg_error err;
    assert_int_equal(fg_error_set(&err, FG_EFORMAT, "%s", text), FG_EFORMAT);
    assert_int_equal(err.code, FG_EFORMAT);
    assert_int_equal(strlen(fg_error_message(&err)), 5000);
    assert_string_equal(fg_error_message(&err), text);
    fg_error_clear(&err);
    assert_int_equal(err.code, FG_OK);
    assert_string_equal(fg_error_message(&err), "");
    free(text);
}

/* Rule: a chain of prefixes (file, field, value) around a long message loses nothing, and a
** prefix that is itself long is kept too. */
static void a_prefix_chain_keeps_everything(void **state) {
    (void)state;
    char *text = words(3000), *field = words(1500);
    fg_error err;
    fg_error_set(&err, FG_EINVAL, "%d is past the end (%s)", 14, text);
    fg_error_prefix(&err, "actions.%s.cancels[%d].to", field, 1);
    fg_error_prefix(&err, "chars/ryu.lua:%d", 12);
    size_t want_len = strlen("chars/ryu.lua:12: actions.") + 1500 +
                      strlen(".cancels[1].to: 14 is past the end (") + 3000 + 1;
    char *want = malloc(want_len + 1);
    snprintf(want, want_len + 1, "chars/ryu.lua:12: actions.%s.cancels[1].to: 14 is past the end (%s)",
             field, text);
    assert_int_equal(strlen(fg_error_message(&err)), want_len);
    assert_string_equal(fg_error_message(&err), want);
    assert_int_equal(err.code, FG_EINVAL);
    fg_error_clear(&err);
    free(want);
    free(field);
    free(text);
}

/* Rule: a prefix that pushes a short message past the inline buffer spills it whole; one that
** keeps it short stays inline and exact. */
static void a_prefix_crosses_the_inline_size(void **state) {
    (void)state;
    char *head = words(FG_ERROR_MAX - 4);
    fg_error err;
    fg_error_set(&err, FG_ERULE, "%s", "x");
    fg_error_prefix(&err, "%s", head); /* head + ": x" is FG_ERROR_MAX - 1 bytes: inline */
    assert_int_equal(strlen(fg_error_message(&err)), FG_ERROR_MAX - 1);
    fg_error_prefix(&err, "%s", "r"); /* one byte too many for the inline buffer */
    assert_int_equal(strlen(fg_error_message(&err)), FG_ERROR_MAX + 2);
    assert_memory_equal(fg_error_message(&err), "r: ", 3);
    assert_memory_equal(fg_error_message(&err) + 3, head, strlen(head));
    assert_string_equal(fg_error_message(&err) + 3 + strlen(head), ": x");
    fg_error_clear(&err);
    free(head);
}

/* Rule: fg_error_copy makes an independent copy: the original can be cleared first. */
static void a_copy_outlives_its_original(void **state) {
    (void)state;
    char *text = words(2000);
    fg_error a, b;
    fg_error_set(&a, FG_EMISMATCH, "%s", text);
    assert_int_equal(fg_error_copy(&b, &a), FG_EMISMATCH);
    fg_error_clear(&a);
    assert_string_equal(fg_error_message(&b), text);
    assert_int_equal(b.code, FG_EMISMATCH);
    fg_error_clear(&b);
    free(text);
}

/* Rule: an argument may be the error's own message (the runtime wraps sub-errors this way). */
static void a_message_may_quote_itself(void **state) {
    (void)state;
    fg_error err;
    fg_error_set(&err, FG_EIO, "disk full");
    fg_error_set(&err, FG_EIO, "replay.fgr: %s", fg_error_message(&err));
    assert_string_equal(fg_error_message(&err), "replay.fgr: disk full");
    fg_error_prefix(&err, "%s", fg_error_message(&err));
    assert_string_equal(fg_error_message(&err), "replay.fgr: disk full: replay.fgr: disk full");
    fg_error_clear(&err);
    assert_string_equal(fg_error_message(NULL), "");
}

/* A sink that fails with a long reason: the writer wraps it in its own context. */
static fg_status failing_sink(void *ud, const void *data, size_t len, fg_error *err) {
    (void)data;
    (void)len;
    return fg_error_set(err, FG_EIO, "%s", (const char *)ud);
}

/* Rule: the runtime's wrapping of a callee's error (here the replay writer around its sink)
** keeps the callee's long message whole. */
static void the_runtime_wraps_a_long_message_whole(void **state) {
    (void)state;
    char *reason = words(4000);
    fg_replay_header h;
    memset(&h, 0, sizeof h);
    h.runtime_version = fg_replay_str_of("test");
    h.tick_rate = 60;
    fg_replay_writer *wr = NULL;
    fg_error err;
    /* The file header goes through the sink at once. */
    fg_status st = fg_replay_writer_create_sink(&h, failing_sink, reason, NULL, &wr, &err);
    assert_null(wr);
    assert_int_equal(st, FG_EIO);
    const char *msg = fg_error_message(&err);
    assert_non_null(strstr(msg, ": chunk "));
    assert_string_equal(msg + strlen(msg) - 4000, reason);
    fg_error_clear(&err);
    free(reason);
}

#if defined(__SANITIZE_ADDRESS__)
#define FG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FG_ASAN 1
#endif
#endif

/* Rule: when the heap copy cannot be allocated, the message is cut at a word, ends with a note
** of how many bytes were dropped, and a UTF-8 character is never split. The address space is
** capped for the call so the allocation fails (not under ASan, which maps its shadow memory). */
static void without_memory_the_cut_is_marked(void **state) {
    (void)state;
#ifdef FG_ASAN
    skip();
#else
    char *head = words(700);
    static const char utf8[] = "\xc3\xa9"; /* é, two bytes, no space to cut at */
    char *accents = malloc(2 * 600 + 1);
    for (int i = 0; i < 600; i++) memcpy(accents + 2 * i, utf8, 2);
    accents[1200] = '\0';
    /* The process's size now, plus 16 MiB: a 64 MiB message cannot be copied. */
    unsigned long pages = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (!statm || fscanf(statm, "%lu", &pages) != 1) skip();
    fclose(statm);
    struct rlimit old, low;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    low = old;
    low.rlim_cur = (rlim_t)pages * 4096u + 16u * 1024 * 1024;
    if (low.rlim_cur > old.rlim_max || setrlimit(RLIMIT_AS, &low) != 0) skip();
    const int pad = 64 * 1024 * 1024;
    fg_error err;
    fg_error_set(&err, FG_EINVAL, "%s%*s", head, pad, "!");
    fg_error err2;
    fg_error_set(&err2, FG_EINVAL, "%s%*s", accents, pad, "!");
    setrlimit(RLIMIT_AS, &old);

    const char *m = fg_error_message(&err);
    assert_true(strlen(m) < FG_ERROR_MAX);
    const char *note = strstr(m, " [... ");
    assert_non_null(note);
    assert_int_equal(strncmp(m, head, (size_t)(note - m)), 0);
    assert_true(note[-1] >= '0' && note[-1] <= '9'); /* "word12": cut between words */
    assert_true(head[note - m] == ' ');
    char tail[80];
    snprintf(tail, sizeof tail, " [... %zu more bytes: no memory for the whole message]",
             strlen(head) + (size_t)pad - (size_t)(note - m));
    assert_string_equal(note, tail);

    const char *m2 = fg_error_message(&err2);
    const char *note2 = strstr(m2, " [... ");
    assert_non_null(note2);
    assert_true((note2 - m2) % 2 == 0); /* whole characters only */
    assert_int_equal(memcmp(m2, accents, (size_t)(note2 - m2)), 0);
    fg_error_clear(&err);
    fg_error_clear(&err2);
    free(accents);
    free(head);
#endif
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_long_message_arrives_whole),
        cmocka_unit_test(a_prefix_chain_keeps_everything),
        cmocka_unit_test(a_prefix_crosses_the_inline_size),
        cmocka_unit_test(a_copy_outlives_its_original),
        cmocka_unit_test(a_message_may_quote_itself),
        cmocka_unit_test(the_runtime_wraps_a_long_message_whole),
        cmocka_unit_test(without_memory_the_cut_is_marked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
