/* SPDX-License-Identifier: MIT */
/* test_base.c: exact time mapping, hashing, CRC and the RNG. */
#include "fg_test.h"

#include <string.h>

static const uint32_t rates[] = {30, 60, 120, 144, 240};

/* Rule: the tick of a timestamp is floor(us * rate / 1e6), exactly, even after 24 hours. */
static void time_mapping_has_no_drift_after_24_hours(void **state) {
    (void)state;
    const int64_t day_us = 24LL * 3600 * 1000000;
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        uint32_t r = rates[i];
        assert_int_equal(fg_tick_of_us(day_us, r), 24LL * 3600 * r);
        assert_int_equal(fg_tick_of_us(day_us - 1, r), 24LL * 3600 * r - 1);
        for (fg_tick t = 24LL * 3600 * r - 1000; t < 24LL * 3600 * r + 1000; t++) {
            int64_t us = fg_us_of_tick(t, r);
            assert_int_equal(fg_tick_of_us(us, r), t);
            assert_int_equal(fg_tick_of_us(us - 1, r), t - 1);
        }
    }
}

/* Rule: negative times (before the origin) floor toward minus infinity. */
static void time_mapping_floors_negative_times(void **state) {
    (void)state;
    assert_int_equal(fg_tick_of_us(-1, 60), -1);
    assert_int_equal(fg_tick_of_us(-16667, 60), -2);
    assert_int_equal(fg_tick_of_us(-16666, 60), -1);
}

/* Rule: hashing is order-sensitive and length-aware. */
static void hash_depends_on_order_and_length(void **state) {
    (void)state;
    fg_hasher a = fg_hasher_begin(1), b = fg_hasher_begin(1);
    fg_hash_u64(&a, 1);
    fg_hash_u64(&a, 2);
    fg_hash_u64(&b, 2);
    fg_hash_u64(&b, 1);
    assert_true(fg_hasher_end(&a) != fg_hasher_end(&b));
    assert_true(fg_hash64("ab", 2, 0) != fg_hash64("ab\0", 3, 0));
    assert_true(fg_hash64("ab", 2, 0) != fg_hash64("ab", 2, 1));
    assert_true(fg_hash64("abcdefghi", 9, 7) == fg_hash64("abcdefghi", 9, 7));
}

/* Rule: CRC-32 is the IEEE polynomial (known check value of "123456789"). */
static void crc32_matches_the_standard_check_value(void **state) {
    (void)state;
    assert_int_equal(fg_crc32(0, "123456789", 9), 0xCBF43926u);
    uint32_t part = fg_crc32(0, "12345", 5);
    assert_int_equal(fg_crc32(part, "6789", 4), 0xCBF43926u);
}

/* Rule: the RNG is a pure function of its seed; ranges stay inside their bounds. */
static void rng_is_seeded_and_bounded(void **state) {
    (void)state;
    fg_rng a = fg_rng_seeded(42), b = fg_rng_seeded(42), c = fg_rng_seeded(43);
    int differ = 0;
    for (int i = 0; i < 100; i++) {
        uint64_t x = fg_rng_next(&a);
        assert_true(x == fg_rng_next(&b));
        differ += x != fg_rng_next(&c);
    }
    assert_true(differ > 90);
    int seen[7] = {0};
    for (int i = 0; i < 7000; i++) {
        int64_t v = fg_rng_range(&a, -3, 3);
        assert_true(v >= -3 && v <= 3);
        seen[v + 3]++;
    }
    for (int i = 0; i < 7; i++) assert_true(seen[i] > 800 && seen[i] < 1200);
    double u = fg_rng_unit(&a);
    assert_true(u >= 0.0 && u < 1.0);
}

/* Rule: error messages are formatted, prefixed and cleared without overflow or cut. */
static void errors_carry_formatted_messages(void **state) {
    (void)state;
    fg_error err;
    assert_int_equal(fg_error_set(&err, FG_EINVAL, "x: %d is negative", -3), FG_EINVAL);
    fg_error_prefix(&err, "rules.lua:%d", 12);
    assert_string_equal(fg_error_message(&err), "rules.lua:12: x: -3 is negative");
    assert_int_equal(fg_error_set(NULL, FG_ESTATE, "ignored"), FG_ESTATE);
    char big[2000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = 0;
    fg_error_set(&err, FG_EINVAL, "%s", big);
    assert_string_equal(fg_error_message(&err), big); /* longer than FG_ERROR_MAX, whole */
    fg_error_clear(&err);
    assert_int_equal(err.code, FG_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(time_mapping_has_no_drift_after_24_hours),
        cmocka_unit_test(time_mapping_floors_negative_times),
        cmocka_unit_test(hash_depends_on_order_and_length),
        cmocka_unit_test(crc32_matches_the_standard_check_value),
        cmocka_unit_test(rng_is_seeded_and_bounded),
        cmocka_unit_test(errors_carry_formatted_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
