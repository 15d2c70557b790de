/* SPDX-License-Identifier: MIT */
/* test_locomotion.c: cardinal hysteresis, warping angle, the two-latch pivot and re-pivot, walls,
** start/stop, bad input, hashing and the batch. The threaded run is in
** test_locomotion_thread.c. */
#include "fg_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const fg_cardinal F = FG_CARDINAL_FORWARD, R = FG_CARDINAL_RIGHT, B = FG_CARDINAL_BACKWARD,
                         L = FG_CARDINAL_LEFT;

static fg_cardinal of_letter(char c) {
    return c == 'F' ? F : c == 'R' ? R : c == 'B' ? B : L;
}

/* Velocity of `speed` at `deg` from the yaw (0 = +y, +90 = +x). */
static fg_vec2 dir_of(float deg, float speed) {
    double r = (double)deg * 3.14159265358979323846 / 180.0;
    fg_vec2 v = {(float)(sin(r) * speed), (float)(cos(r) * speed)};
    return v;
}

static fg_loco_input strafe_input(float yaw, float rel_deg) {
    fg_loco_input in;
    memset(&in, 0, sizeof in);
    in.velocity = dir_of(yaw + rel_deg, 4.0f);
    in.acceleration = dir_of(yaw + rel_deg, 10.0f);
    in.actor_yaw = yaw;
    in.aim_yaw = yaw;
    in.strafe = true;
    return in;
}

static fg_loco_input move(float vx, float vy, float ax, float ay) {
    fg_loco_input in;
    memset(&in, 0, sizeof in);
    in.velocity.x = vx;
    in.velocity.y = vy;
    in.acceleration.x = ax;
    in.acceleration.y = ay;
    return in;
}

static fg_cardinal strafe_step(const fg_loco_config *cfg, fg_cardinal current, float rel_deg) {
    fg_loco_state st;
    fg_loco_state_init(&st);
    st.cardinal = (uint8_t)current;
    fg_loco_input in = strafe_input(30.0f, rel_deg); /* a turned actor: angles are relative */
    fg_loco_output out;
    fg_loco_step(cfg, &st, &in, &out);
    assert_int_equal(out.cardinal, st.cardinal);
    return (fg_cardinal)out.cardinal;
}

/* {====================================================================== hysteresis */

/* Rule: with both-ways hysteresis, jitter of less than the dead zone across any of the four
** boundaries never switches, from either side. */
static void hysteresis_jitter_across_each_boundary_stays_put(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    cfg.hysteresis = FG_LOCO_HYSTERESIS_BOTH_WAYS;
    struct {
        float boundary;
        fg_cardinal inside, outside; /* inside: the sector below |boundary| */
    } edges[] = {{65, F, R}, {-65, F, L}, {115, R, B}, {-115, L, B}};
    const float jitter[] = {-9.0f, 9.0f, -4.0f, 4.0f, -9.5f, 9.5f, 0.5f, -0.5f};
    for (size_t e = 0; e < 4; e++) {
        float b = edges[e].boundary, sign = b > 0 ? 1.0f : -1.0f;
        for (int side = 0; side < 2; side++) {
            fg_cardinal start = side ? edges[e].outside : edges[e].inside;
            fg_loco_state st;
            fg_loco_state_init(&st);
            st.cardinal = (uint8_t)start;
            for (int round = 0; round < 5; round++)
                for (size_t j = 0; j < sizeof jitter / sizeof jitter[0]; j++) {
                    fg_loco_input in = strafe_input(-40.0f, b + sign * jitter[j]);
                    fg_loco_output out;
                    fg_loco_step(&cfg, &st, &in, &out);
                    if (out.cardinal != start)
                        fail_msg("boundary %g, start %s, angle %g: switched to %s", (double)b,
                                 fg_cardinal_name(start), (double)(b + sign * jitter[j]),
                                 fg_cardinal_name((fg_cardinal)out.cardinal));
                    assert_false(out.flags & FG_LOCO_CARDINAL_CHANGED);
                }
        }
    }
}

/* Rule: with both-ways hysteresis, leaving the current sector by more than the dead zone
** switches, at once, to the base sector; re-entering uses the base boundary. */
static void hysteresis_crossing_by_more_than_dead_zone_switches(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    cfg.hysteresis = FG_LOCO_HYSTERESIS_BOTH_WAYS;
    struct {
        fg_cardinal from;
        float angle;
        fg_cardinal to;
    } rows[] = {
        {F, 75.5f, R},   {F, 74.5f, F},   {R, 54.5f, F},   {R, 55.5f, R},   {F, -75.5f, L},
        {L, -54.5f, F},  {R, 125.5f, B},  {R, 124.5f, R},  {B, 104.5f, R},  {B, 105.5f, B},
        {L, -125.5f, B}, {B, -104.5f, L}, {F, 64.0f, F},   {R, 66.0f, R},   {F, 116.0f, B},
        {B, 64.0f, F},   {L, 125.5f, B},  {R, -100.0f, L}, {L, 100.0f, R},  {B, -0.5f, F},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fg_cardinal got = strafe_step(&cfg, rows[i].from, rows[i].angle);
        if (got != rows[i].to)
            fail_msg("from %s at %g: expected %s, got %s", fg_cardinal_name(rows[i].from),
                     (double)rows[i].angle, fg_cardinal_name(rows[i].to), fg_cardinal_name(got));
    }
    /* A full sweep from forward to the right switches exactly once, past 65 + 10. */
    fg_loco_state st;
    fg_loco_state_init(&st);
    int switches = 0;
    float switched_at = 0;
    for (float a = 0.0f; a <= 100.0f; a += 0.25f) {
        fg_loco_input in = strafe_input(0.0f, a);
        fg_loco_output out;
        fg_loco_step(&cfg, &st, &in, &out);
        if (out.flags & FG_LOCO_CARDINAL_CHANGED) {
            switches++;
            switched_at = a;
        }
    }
    assert_int_equal(switches, 1);
    assert_true(switched_at >= 75.0f && switched_at <= 75.25f);
    /* ... and sweeping back switches once, past 65 - 10. */
    switches = 0;
    for (float a = 100.0f; a >= 0.0f; a -= 0.25f) {
        fg_loco_input in = strafe_input(0.0f, a);
        fg_loco_output out;
        fg_loco_step(&cfg, &st, &in, &out);
        if (out.flags & FG_LOCO_CARDINAL_CHANGED) {
            switches++;
            switched_at = a;
        }
    }
    assert_int_equal(switches, 1);
    assert_true(switched_at <= 55.0f && switched_at >= 54.75f);
}

/* Rule: every sector from every current direction, as a table (defaults: 65, 65, dead zone 10),
** for both policies: one way widens only a current Forward or Backward. */
static void hysteresis_every_sector_from_every_current_direction(void **state) {
    (void)state;
    static const float angles[20] = {0,   30,  60,  70,  80,  100, 110, 120,  130,  170,
                                     180, -30, -60, -70, -80, -100, -110, -120, -130, -170};
    static const char *const expected[2][4] = {
        {
            /* one way, current F */ "FFFFRRRBBBBFFFLLLBBB",
            /* current R */ "FFFRRRRBBBBFFLLLLBBB",
            /* current B */ "FFFRRRBBBBBFFLLLBBBB",
            /* current L */ "FFFRRRRBBBBFFLLLLBBB",
        },
        {
            /* both ways, current F */ "FFFFRRRBBBBFFFLLLBBB",
            /* current R */ "FFRRRRRRBBBFFLLLLBBB",
            /* current B */ "FFFRRRBBBBBFFLLLBBBB",
            /* current L */ "FFFRRRRBBBBFLLLLLLBB",
        },
    };
    for (int policy = 0; policy < 2; policy++) {
        fg_loco_config cfg = fg_loco_config_default(60);
        cfg.hysteresis = (fg_loco_hysteresis)policy;
        for (int c = 0; c < 4; c++)
            for (int i = 0; i < 20; i++) {
                fg_cardinal want = of_letter(expected[policy][c][i]);
                fg_cardinal via_step = strafe_step(&cfg, (fg_cardinal)c, angles[i]);
                fg_cardinal via_fn = fg_loco_cardinal(angles[i], (fg_cardinal)c, &cfg);
                if (via_step != want || via_fn != want)
                    fail_msg("%s, current %s, angle %g: expected %s, step gave %s, function "
                             "gave %s", fg_loco_hysteresis_name(cfg.hysteresis),
                             fg_cardinal_name((fg_cardinal)c), (double)angles[i],
                             fg_cardinal_name(want), fg_cardinal_name(via_step),
                             fg_cardinal_name(via_fn));
            }
    }
}

/* Rule: by default (one way) Forward is left past 65 + 10 and entered again at the base 65, as
** the specification's Schmitt trigger says; both ways holds Right down to 65 - 10. Each row is
** an angle, then the cardinal from current Forward and from current Right, per policy. */
static void hysteresis_policy_one_way_by_default_both_ways_on_request(void **state) {
    (void)state;
    static const struct {
        float angle;
        const char *one_way, *both_ways; /* from F, from R */
    } rows[] = {
        {60.0f, "FF", "FR"}, {64.0f, "FF", "FR"}, {66.0f, "FR", "FR"},
        {74.0f, "FR", "FR"}, {76.0f, "RR", "RR"},
    };
    fg_loco_config def = fg_loco_config_default(60);
    assert_int_equal(def.hysteresis, FG_LOCO_HYSTERESIS_ONE_WAY);
    for (int policy = 0; policy < 2; policy++)
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
            for (int from = 0; from < 2; from++) {
                fg_loco_config cfg = def;
                cfg.hysteresis = (fg_loco_hysteresis)policy;
                const char *want = policy ? rows[i].both_ways : rows[i].one_way;
                fg_cardinal start = from ? R : F;
                for (int side = 0; side < 2; side++) {
                    /* Mirrored: Left behaves like Right. */
                    float a = side ? -rows[i].angle : rows[i].angle;
                    fg_cardinal cur = side && start == R ? L : start;
                    fg_cardinal exp = of_letter(want[from]);
                    if (side && exp == R) exp = L;
                    fg_cardinal got = strafe_step(&cfg, cur, a);
                    if (got != exp)
                        fail_msg("%s, from %s at %g: expected %s, got %s",
                                 fg_loco_hysteresis_name(cfg.hysteresis), fg_cardinal_name(cur),
                                 (double)a, fg_cardinal_name(exp), fg_cardinal_name(got));
                }
            }
    fg_loco_config bad = def;
    bad.hysteresis = (fg_loco_hysteresis)7;
    fg_error err;
    assert_int_equal(fg_loco_config_check(&bad, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "locomotion.hysteresis: 7, expected one_way (0) or both_ways (1)");
}

/* Rule: the boundaries and the dead zone are data. */
static void hysteresis_boundaries_and_dead_zone_are_data(void **state) {
    (void)state;
    fg_loco_config def = fg_loco_config_default(60);
    fg_loco_config narrow = def;
    narrow.forward_limit_deg = 45.0f;
    narrow.backward_limit_deg = 30.0f;
    narrow.dead_zone_deg = 5.0f;
    assert_int_equal(fg_loco_config_check(&narrow, NULL), FG_OK);
    assert_int_equal(fg_loco_cardinal(52.0f, F, &def), F);
    assert_int_equal(fg_loco_cardinal(52.0f, F, &narrow), R);
    assert_int_equal(fg_loco_cardinal(48.0f, F, &narrow), F);
    assert_int_equal(fg_loco_cardinal(140.0f, R, &def), B);
    assert_int_equal(fg_loco_cardinal(140.0f, R, &narrow), R); /* back edge 150, +5 */
    assert_int_equal(fg_loco_cardinal(156.0f, R, &narrow), B);
    fg_loco_config none = def;
    none.dead_zone_deg = 0.0f;
    assert_int_equal(fg_loco_cardinal(66.0f, F, &none), R);
    assert_int_equal(fg_loco_cardinal(64.0f, R, &none), F);
}

/* Rule: outside strafe mode the cardinal is Forward whatever the current one, and the warping
** angle equals the locomotion angle. */
static void outside_strafe_cardinal_is_forward_and_warp_is_the_angle(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_state st;
    fg_loco_state_init(&st);
    st.cardinal = B;
    fg_loco_input in = strafe_input(10.0f, 150.0f);
    in.strafe = false;
    fg_loco_output out;
    fg_loco_step(&cfg, &st, &in, &out);
    assert_int_equal(out.cardinal, F);
    assert_int_equal(st.cardinal, F);
    assert_float_equal(out.locomotion_angle, 150.0f, 1e-3f);
    assert_true(out.warp_angle == out.locomotion_angle);
    assert_int_equal(out.dir8, FG_DIR8_BR);
    assert_false(out.flags & FG_LOCO_STRAFE);
}

/* }====================================================================== */

/* {====================================================================== warping */

/* Rule: the seed's example: locomotion -170 with Backward (base 180) warps by +10. */
static void warp_angle_seed_example_minus_170_backward_gives_plus_10(void **state) {
    (void)state;
    assert_float_equal(fg_loco_warp_angle(-170.0f, B), 10.0f, 1e-6f);
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_state st;
    fg_loco_state_init(&st);
    st.cardinal = B;
    fg_loco_input in = strafe_input(0.0f, -170.0f);
    fg_loco_output out;
    fg_loco_step(&cfg, &st, &in, &out);
    assert_int_equal(out.cardinal, B);
    assert_float_equal(out.locomotion_angle, -170.0f, 1e-3f);
    assert_float_equal(out.warp_angle, 10.0f, 1e-3f);
}

/* Rule: each cardinal subtracts its own base: F 0, R 90, B 180, L -90. */
static void warp_angle_subtracts_each_cardinal_base(void **state) {
    (void)state;
    assert_float_equal(fg_cardinal_base_deg(F), 0.0f, 0.0f);
    assert_float_equal(fg_cardinal_base_deg(R), 90.0f, 0.0f);
    assert_float_equal(fg_cardinal_base_deg(B), 180.0f, 0.0f);
    assert_float_equal(fg_cardinal_base_deg(L), -90.0f, 0.0f);
    assert_float_equal(fg_loco_warp_angle(20.0f, F), 20.0f, 1e-6f);
    assert_float_equal(fg_loco_warp_angle(100.0f, R), 10.0f, 1e-6f);
    assert_float_equal(fg_loco_warp_angle(-100.0f, L), -10.0f, 1e-6f);
    assert_float_equal(fg_loco_warp_angle(160.0f, B), -20.0f, 1e-6f);
    /* Through the step, in every sector: warp = angle - base, small near each clip's axis. */
    fg_loco_config cfg = fg_loco_config_default(60);
    const float rel[4] = {12.0f, 97.0f, -168.0f, -81.0f};
    const float want[4] = {12.0f, 7.0f, 12.0f, 9.0f};
    for (int c = 0; c < 4; c++) {
        fg_loco_state st;
        fg_loco_state_init(&st);
        st.cardinal = (uint8_t)c;
        fg_loco_input in = strafe_input(-75.0f, rel[c]);
        fg_loco_output out;
        fg_loco_step(&cfg, &st, &in, &out);
        assert_int_equal(out.cardinal, c);
        assert_float_equal(out.warp_angle, want[c], 1e-3f);
    }
}

/* Rule: results are normalised to (-180, 180]: 180 stays, -180 becomes 180, big values wrap. */
static void warp_angle_wraps_around_to_minus_180_exclusive(void **state) {
    (void)state;
    assert_float_equal(fg_loco_warp_angle(180.0f, B), 0.0f, 0.0f);
    assert_float_equal(fg_loco_warp_angle(-179.0f, B), 1.0f, 1e-5f);
    assert_float_equal(fg_loco_warp_angle(179.0f, L), -91.0f, 1e-5f);
    assert_float_equal(fg_loco_warp_angle(-179.0f, R), 91.0f, 1e-5f);
    assert_float_equal(fg_loco_warp_angle(0.0f, B), 180.0f, 0.0f);
    assert_float_equal(fg_loco_normalize_deg(180.0f), 180.0f, 0.0f);
    assert_float_equal(fg_loco_normalize_deg(-180.0f), 180.0f, 0.0f);
    assert_float_equal(fg_loco_normalize_deg(540.0f), 180.0f, 0.0f);
    assert_float_equal(fg_loco_normalize_deg(-540.0f), 180.0f, 0.0f);
    assert_float_equal(fg_loco_normalize_deg(721.0f), 1.0f, 0.0f);
    assert_float_equal(fg_loco_normalize_deg(-350.0f), 10.0f, 0.0f);
    assert_float_equal(fg_loco_normalize_deg(7200090.0f), 90.0f, 0.0f);
    assert_float_equal(fg_loco_normalize_deg(-7200090.0f), -90.0f, 0.0f);
    for (float a = -1000.0f; a <= 1000.0f; a += 0.5f) {
        float n = fg_loco_normalize_deg(a);
        assert_true(n > -180.0f && n <= 180.0f);
        float k = (a - n) / 360.0f; /* a whole number of turns apart */
        assert_float_equal(k, roundf(k), 1e-4f);
    }
    /* 8-way sectors are centred on their directions. */
    assert_int_equal(fg_loco_dir8(0.0f), FG_DIR8_F);
    assert_int_equal(fg_loco_dir8(22.4f), FG_DIR8_F);
    assert_int_equal(fg_loco_dir8(22.6f), FG_DIR8_FR);
    assert_int_equal(fg_loco_dir8(90.0f), FG_DIR8_R);
    assert_int_equal(fg_loco_dir8(-150.0f), FG_DIR8_BL);
    assert_int_equal(fg_loco_dir8(180.0f), FG_DIR8_B);
    assert_int_equal(fg_loco_dir8(-179.9f), FG_DIR8_B);
    assert_int_equal(fg_loco_dir8(-67.0f), FG_DIR8_FL);
    assert_int_equal(fg_loco_dir8(-68.0f), FG_DIR8_L);
}

/* Rule: normalising gives the exact remainder (as fmod in double precision would) for any
** finite float, through every internal path (in range, one turn out, below 2^24, beyond). */
static void normalize_is_the_exact_remainder_for_any_float(void **state) {
    (void)state;
    fg_rng rng = fg_rng_seeded(360);
    for (int i = 0; i < 2000000; i++) {
        float f;
        uint32_t bits = (uint32_t)fg_rng_next(&rng);
        switch (i & 3) {
        case 0: memcpy(&f, &bits, sizeof f); break; /* any magnitude */
        case 1:
            f = (float)fg_rng_range(&rng, -30000000, 30000000) + (float)fg_rng_unit(&rng);
            break;
        case 2: f = (float)(fg_rng_unit(&rng) * 1080.0 - 540.0); break;
        default: f = (float)(fg_rng_range(&rng, -100000, 100000) * 360); break; /* multiples */
        }
        if (!isfinite(f)) continue;
        double r = fmod((double)f, 360.0); /* exact */
        if (r > 180.0) r -= 360.0;
        else if (r <= -180.0) r += 360.0;
        float got = fg_loco_normalize_deg(f);
        if (got != (float)r)
            fail_msg("normalise(%.9g) = %.9g, the exact remainder is %.9g", (double)f, (double)got,
                     r);
    }
    assert_float_equal(fg_loco_normalize_deg(NAN), 0.0f, 0.0f);
    assert_float_equal(fg_loco_normalize_deg(-INFINITY), 0.0f, 0.0f);
}

/* Rule: the heading approximation stays within 4e-5 degrees of the true angle all round (the
** polynomial is within 1.5e-5; a float near 180 has a step of 1.5e-5 of its own). */
static void locomotion_angle_is_accurate_all_round(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    double worst = 0;
    for (int k = -36000; k < 36000; k += 7) {
        double deg = k / 100.0, r = deg * 3.14159265358979323846 / 180.0;
        fg_loco_state st;
        fg_loco_state_init(&st);
        fg_loco_input in = move((float)(sin(r) * 3.0), (float)(cos(r) * 3.0), 0, 0);
        fg_loco_output o;
        fg_loco_step(&cfg, &st, &in, &o);
        double want = atan2((double)in.velocity.x, (double)in.velocity.y) * 180.0 /
                      3.14159265358979323846;
        double err = fabs(o.locomotion_angle - want);
        if (err > 180.0) err = 360.0 - err;
        if (err > worst) worst = err;
    }
    if (worst > 4e-5) fail_msg("largest heading error %.3g degrees", worst);
}

/* Rule: angles are relative to the actor's yaw, and the aim offset to it too. */
static void locomotion_angle_is_relative_to_actor_yaw(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_state st;
    fg_loco_state_init(&st);
    fg_loco_input in = move(3.0f, 0.0f, 0.0f, 0.0f); /* world +x */
    in.actor_yaw = 90.0f;                           /* facing +x */
    in.aim_yaw = -135.0f;
    fg_loco_output out;
    fg_loco_step(&cfg, &st, &in, &out);
    assert_float_equal(out.locomotion_angle, 0.0f, 1e-4f);
    assert_float_equal(out.aim_offset, 135.0f, 1e-4f);
    in.actor_yaw = 0.0f;
    fg_loco_step(&cfg, &st, &in, &out);
    assert_float_equal(out.locomotion_angle, 90.0f, 1e-4f);
    in.actor_yaw = 180.0f + 360.0f * 3; /* facing -y, wound three turns */
    fg_loco_step(&cfg, &st, &in, &out);
    assert_float_equal(out.locomotion_angle, -90.0f, 1e-4f);
}

/* }====================================================================== */

/* {====================================================================== pivot */

static fg_loco_output run(const fg_loco_config *cfg, fg_loco_state *st, fg_loco_input in) {
    fg_loco_output out;
    fg_loco_step(cfg, st, &in, &out);
    return out;
}

/* Rule: a pivot begins when velocity and acceleration point against each other, and latches the
** initial velocity direction and the starting acceleration; a sideways push is not a pivot. */
static void pivot_enters_on_opposed_velocity_and_latches_both(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_state st;
    fg_loco_state_init(&st);
    fg_loco_output o = run(&cfg, &st, move(0, 5, 20, 0));
    assert_false(o.flags & FG_LOCO_PIVOT);
    o = run(&cfg, &st, move(0, 5, 20, -1)); /* just past perpendicular */
    assert_true(o.flags & FG_LOCO_PIVOT_ENTER);
    assert_true(o.flags & FG_LOCO_PIVOT);
    assert_false(o.flags & FG_LOCO_PIVOT_REENTER);
    assert_int_equal(o.pivot_id, 1);
    assert_float_equal(st.pivot_dir.x, 0.0f, 1e-6f);
    assert_float_equal(st.pivot_dir.y, 1.0f, 1e-6f);
    assert_float_equal(st.pivot_accel.x, 20.0f / sqrtf(401.0f), 1e-6f);
    assert_float_equal(st.pivot_accel.y, -1.0f / sqrtf(401.0f), 1e-6f);
    assert_int_equal(st.pivot_ticks, 0);
    /* Airborne: no pivot. */
    fg_loco_state_init(&st);
    fg_loco_input in = move(0, 5, 0, -20);
    in.airborne = true;
    o = run(&cfg, &st, in);
    assert_false(o.flags & (FG_LOCO_PIVOT | FG_LOCO_PIVOT_ENTER));
}

/* Rule (time latch): a pivot whose velocity is already perpendicular does not end before
** pivot_min_ticks; it ends on exactly that tick. */
static void pivot_does_not_exit_before_min_time_even_when_turned(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    assert_int_equal(cfg.pivot_min_ticks, 12); /* 0.2 s at 60 Hz */
    fg_loco_state st;
    fg_loco_state_init(&st);
    fg_loco_output o = run(&cfg, &st, move(0, 5, 0, -20));
    assert_true(o.flags & FG_LOCO_PIVOT_ENTER);
    for (uint32_t t = 1; t < cfg.pivot_min_ticks; t++) {
        o = run(&cfg, &st, move(5, 0, 20, 0)); /* perpendicular at once */
        if (!(o.flags & FG_LOCO_PIVOT) || (o.flags & FG_LOCO_PIVOT_EXIT))
            fail_msg("pivot ended %u ticks after entry, before the minimum of %u", t,
                     cfg.pivot_min_ticks);
    }
    o = run(&cfg, &st, move(5, 0, 20, 0));
    assert_true(o.flags & FG_LOCO_PIVOT_EXIT);
    assert_false(o.flags & FG_LOCO_PIVOT);
    assert_int_equal(o.pivot_id, 1);
    /* The time latch is data. */
    cfg.pivot_min_ticks = 3;
    fg_loco_state_init(&st);
    run(&cfg, &st, move(0, 5, 0, -20));
    run(&cfg, &st, move(5, 0, 20, 0));
    o = run(&cfg, &st, move(5, 0, 20, 0));
    assert_true(o.flags & FG_LOCO_PIVOT);
    o = run(&cfg, &st, move(5, 0, 20, 0));
    assert_true(o.flags & FG_LOCO_PIVOT_EXIT);
}

/* Rule (space latch): after the minimum time, a pivot still moving along its initial direction
** stays in the pivot; it ends once the velocity has turned pivot_turn_deg away (a reversal
** counts). */
static void pivot_does_not_exit_before_turning_even_after_min_time(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_state st;
    fg_loco_state_init(&st);
    run(&cfg, &st, move(0, 5, 0, -20));
    for (int t = 1; t <= 40; t++) {
        fg_loco_output o = run(&cfg, &st, move(0, 3, 0, -20)); /* still going forward */
        assert_true(o.flags & FG_LOCO_PIVOT);
        assert_false(o.flags & (FG_LOCO_PIVOT_EXIT | FG_LOCO_PIVOT_ENTER));
    }
    /* 40 degrees off the initial direction: not turned enough (45 by default). */
    fg_vec2 v40 = dir_of(40.0f, 3.0f), v50 = dir_of(50.0f, 3.0f);
    fg_loco_output o = run(&cfg, &st, move(v40.x, v40.y, 0, -20));
    assert_true(o.flags & FG_LOCO_PIVOT);
    o = run(&cfg, &st, move(0, 0.01f, 0, -20)); /* below move_speed: no direction, no turn */
    assert_true(o.flags & FG_LOCO_PIVOT);
    o = run(&cfg, &st, move(v50.x, v50.y, 20, -20));
    assert_true(o.flags & FG_LOCO_PIVOT_EXIT);
    /* A straight reversal ends the pivot once the velocity points back. */
    fg_loco_state_init(&st);
    run(&cfg, &st, move(0, 5, 0, -20));
    int exit_tick = -1;
    float vy = 5.0f;
    for (int t = 1; t <= 60 && exit_tick < 0; t++) {
        vy -= 20.0f / 60.0f;
        o = run(&cfg, &st, move(0, vy, 0, -20));
        if (o.flags & FG_LOCO_PIVOT_EXIT) exit_tick = t;
    }
    assert_true(exit_tick > 0);
    assert_true(vy < 0.0f); /* ended only after the velocity reversed */
    assert_true(vy > -1.0f);
}

/* Rule: the pivot is abandoned (not exited) when the input lets go, the entity leaves the
** ground or runs into a wall. */
static void pivot_is_cancelled_by_release_airborne_or_wall(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_state st;
    fg_loco_state_init(&st);
    run(&cfg, &st, move(0, 5, 0, -20));
    fg_loco_output o = run(&cfg, &st, move(0, 4, 0, 0));
    assert_true(o.flags & FG_LOCO_PIVOT_CANCEL);
    assert_false(o.flags & (FG_LOCO_PIVOT | FG_LOCO_PIVOT_EXIT));
    assert_int_equal(st.in_pivot, 0);
    fg_loco_state_init(&st);
    run(&cfg, &st, move(0, 5, 0, -20));
    fg_loco_input in = move(0, 4, 0, -20);
    in.airborne = true;
    o = run(&cfg, &st, in);
    assert_true(o.flags & FG_LOCO_PIVOT_CANCEL);
    /* Stopped dead by a wall while pushing: cancelled on the tick WALL rises, not before. */
    fg_loco_state_init(&st);
    run(&cfg, &st, move(0, 5, 0, -20));
    for (uint32_t t = 1; t < cfg.wall_ticks; t++) {
        o = run(&cfg, &st, move(0, 0, 20, 0));
        assert_true(o.flags & FG_LOCO_PIVOT);
    }
    o = run(&cfg, &st, move(0, 0, 20, 0));
    assert_true(o.flags & FG_LOCO_WALL);
    assert_true(o.flags & FG_LOCO_PIVOT_CANCEL);
    assert_false(o.flags & FG_LOCO_PIVOT);
}

/* Rule: a re-pivot needs all three: (A) velocity against acceleration, (B) not yet turned from
** the initial direction, (C) acceleration against the pivot's starting acceleration. It gives a
** new pivot id and resets both latches. Each condition is made false once. */
static void repivot_needs_all_three_conditions(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    /* Entry: moving +y, pushed back-left. */
    const fg_loco_input entry = move(0, 5, -10, -3);
    struct {
        const char *name;
        fg_loco_input in;
        bool a, b, c, reenter;
    } rows[] = {
        {"all three", move(0, 4, 10, -3), true, true, true, true},
        {"A false: acceleration along the velocity", move(0, 4, 10, 3), false, true, true, false},
        {"B false: velocity already turned", move(-4, 0.5f, 10, -3), true, false, true, false},
        {"C false: same push as the start", move(0, 4, -10, -3), true, true, false, false},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fg_loco_state st;
        fg_loco_state_init(&st);
        for (int t = 0; t < 3; t++) run(&cfg, &st, entry); /* enter, then two ticks in */
        assert_int_equal(st.pivot_id, 1);
        assert_int_equal(st.pivot_ticks, 2);
        /* The row's claims about its own conditions hold. */
        fg_loco_input in = rows[i].in;
        float vx = in.velocity.x, vy = in.velocity.y, ax = in.acceleration.x,
              ay = in.acceleration.y;
        float vl = sqrtf(vx * vx + vy * vy);
        assert_true(((vx * ax + vy * ay) < 0) == rows[i].a);
        assert_true((vy / vl > cosf(cfg.pivot_turn_deg * 3.14159265f / 180.0f)) == rows[i].b);
        assert_true(((ax * -10 + ay * -3) < 0) == rows[i].c);
        fg_loco_output o = run(&cfg, &st, in);
        bool re = (o.flags & FG_LOCO_PIVOT_REENTER) != 0;
        if (re != rows[i].reenter)
            fail_msg("%s: re-pivot %s", rows[i].name, re ? "happened" : "did not happen");
        assert_true(o.flags & FG_LOCO_PIVOT); /* in a pivot either way */
        if (rows[i].reenter) {
            assert_true(o.flags & FG_LOCO_PIVOT_ENTER);
            assert_int_equal(o.pivot_id, 2);
            assert_int_equal(st.pivot_ticks, 0);
            assert_float_equal(st.pivot_accel.x, 10.0f / sqrtf(109.0f), 1e-6f);
            assert_float_equal(st.pivot_dir.y, 1.0f, 1e-6f);
            /* The time latch restarted: a turn now must wait the full minimum again. */
            for (uint32_t t = 1; t < cfg.pivot_min_ticks; t++) {
                o = run(&cfg, &st, move(5, 0, 20, 0));
                assert_true(o.flags & FG_LOCO_PIVOT);
            }
            o = run(&cfg, &st, move(5, 0, 20, 0));
            assert_true(o.flags & FG_LOCO_PIVOT_EXIT);
            assert_int_equal(o.pivot_id, 2);
        } else {
            assert_false(o.flags & FG_LOCO_PIVOT_ENTER);
            assert_int_equal(o.pivot_id, 1);
            assert_int_equal(st.pivot_ticks, 3);
        }
    }
}

/* }====================================================================== */

/* {====================================================================== walls, starts, stops */

/* Rule: WALL after wall_ticks consecutive ticks of asked-for movement the velocity does not
** deliver; one delivering tick resets the count. */
static void wall_needs_n_consecutive_blocked_ticks(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    assert_int_equal(cfg.wall_ticks, 6);
    fg_loco_state st;
    fg_loco_state_init(&st);
    for (int round = 0; round < 2; round++) {
        for (uint32_t t = 1; t < cfg.wall_ticks; t++)
            assert_false(run(&cfg, &st, move(0.2f, 0, 0, 20)).flags & FG_LOCO_WALL);
        assert_true(run(&cfg, &st, move(0.2f, 0, 0, 20)).flags & FG_LOCO_WALL);
        assert_true(run(&cfg, &st, move(0, 0, 0, 20)).flags & FG_LOCO_WALL);
        assert_false(run(&cfg, &st, move(0, 3, 0, 20)).flags & FG_LOCO_WALL);
        assert_int_equal(st.wall_ticks, 0);
    }
    /* Sliding along a wall: velocity across the request. */
    for (uint32_t t = 0; t < cfg.wall_ticks; t++) run(&cfg, &st, move(4, 0.1f, 0, 20));
    assert_true(st.wall_ticks == cfg.wall_ticks);
}

/* Rule: a start from rest and a turn-around are not walls. */
static void starts_and_turnarounds_are_not_walls(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_state st;
    fg_loco_state_init(&st);
    float vy = 0.0f;
    for (int t = 0; t < 60; t++) {
        fg_loco_output o = run(&cfg, &st, move(0, vy, 0, 20));
        assert_false(o.flags & FG_LOCO_WALL);
        vy += 20.0f / 60.0f;
        if (vy > 6.0f) vy = 6.0f;
    }
    for (int t = 0; t < 60; t++) {
        fg_loco_output o = run(&cfg, &st, move(0, vy, 0, -20));
        assert_false(o.flags & FG_LOCO_WALL);
        vy -= 20.0f / 60.0f;
    }
}

/* Rule: START on the first grounded tick that asks for movement; STOP on the first tick moving
** with nothing asked; the stop distance is v^2 / (2 * braking). */
static void start_stop_and_stop_distance(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_state st;
    fg_loco_state_init(&st);
    fg_loco_output o = run(&cfg, &st, move(0, 0, 0, 0));
    assert_int_equal(o.flags & (FG_LOCO_START | FG_LOCO_STOP | FG_LOCO_MOVING), 0);
    assert_float_equal(o.stop_distance, 0.0f, 0.0f);
    o = run(&cfg, &st, move(0, 0, 0, 20));
    assert_true(o.flags & FG_LOCO_START);
    assert_float_equal(o.locomotion_angle, 0.0f, 1e-6f);
    o = run(&cfg, &st, move(0, 0.3f, 0, 20));
    assert_false(o.flags & FG_LOCO_START);
    o = run(&cfg, &st, move(0, 4, 0, 0));
    assert_true(o.flags & FG_LOCO_STOP);
    assert_true(o.flags & FG_LOCO_STOPPING);
    assert_float_equal(o.stop_distance, 16.0f / 40.0f, 1e-6f);
    o = run(&cfg, &st, move(0, 3, 0, 0));
    assert_false(o.flags & FG_LOCO_STOP);
    assert_true(o.flags & FG_LOCO_STOPPING);
    cfg.braking_deceleration = 10.0f;
    o = run(&cfg, &st, move(0, 3, 0, 0));
    assert_float_equal(o.stop_distance, 9.0f / 20.0f, 1e-6f);
    fg_loco_input air = move(0, 3, 0, 20);
    air.airborne = true;
    o = run(&cfg, &st, air);
    assert_false(o.flags & (FG_LOCO_START | FG_LOCO_STOPPING));
    assert_float_equal(o.stop_distance, 0.0f, 0.0f);
    o = run(&cfg, &st, move(0, 3, 0, 20)); /* landing while pushing: a start */
    assert_true(o.flags & FG_LOCO_START);
}

/* }====================================================================== */

/* {====================================================================== bad input */

static void assert_output_finite(const fg_loco_output *o) {
    assert_true(isfinite(o->locomotion_angle));
    assert_true(isfinite(o->warp_angle));
    assert_true(isfinite(o->aim_offset));
    assert_true(isfinite(o->speed));
    assert_true(isfinite(o->stop_distance));
    assert_true(o->locomotion_angle > -180.0f && o->locomotion_angle <= 180.0f);
    assert_true(o->warp_angle > -180.0f && o->warp_angle <= 180.0f);
    assert_true(o->aim_offset > -180.0f && o->aim_offset <= 180.0f);
    assert_true(o->cardinal <= FG_CARDINAL_LEFT);
    assert_true(o->dir8 <= FG_DIR8_FL);
}

static void assert_state_finite(const fg_loco_state *st) {
    assert_true(isfinite(st->pivot_dir.x) && isfinite(st->pivot_dir.y));
    assert_true(isfinite(st->pivot_accel.x) && isfinite(st->pivot_accel.y));
    assert_true(st->cardinal <= FG_CARDINAL_LEFT);
}

/* Rule: NaN and infinite inputs read as 0 and are flagged; the outputs are defined. */
static void bad_input_nan_and_infinity_give_defined_outputs(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_state st;
    fg_loco_state_init(&st);
    st.cardinal = R;
    fg_loco_input in = move(NAN, 2.0f, INFINITY, -INFINITY);
    in.strafe = true;
    in.actor_yaw = NAN;
    in.aim_yaw = -INFINITY;
    fg_loco_output o = run(&cfg, &st, in);
    assert_output_finite(&o);
    assert_state_finite(&st);
    assert_true(o.flags & FG_LOCO_BAD_INPUT);
    assert_float_equal(o.speed, 2.0f, 0.0f);        /* (0, 2) */
    assert_float_equal(o.locomotion_angle, 0.0f, 0.0f); /* yaw read as 0 */
    assert_float_equal(o.aim_offset, 0.0f, 0.0f);
    assert_int_equal(o.cardinal, F); /* 0 degrees is past R's widened sector */
    /* Good input clears the flag. */
    o = run(&cfg, &st, move(0, 2, 0, 0));
    assert_false(o.flags & FG_LOCO_BAD_INPUT);
}

/* Rule: zero vectors have no direction: angle 0, Forward 8-way, the cardinal is kept, nothing
** starts, pivots or hits a wall. */
static void bad_input_zero_vectors_keep_the_cardinal(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_state st;
    fg_loco_state_init(&st);
    st.cardinal = L;
    fg_loco_input in = move(0, 0, 0, 0);
    in.strafe = true;
    in.actor_yaw = 123.0f;
    for (int t = 0; t < 20; t++) {
        fg_loco_output o = run(&cfg, &st, in);
        assert_output_finite(&o);
        assert_int_equal(o.cardinal, L);
        assert_int_equal(o.dir8, FG_DIR8_F);
        assert_float_equal(o.locomotion_angle, 0.0f, 0.0f);
        assert_float_equal(o.warp_angle, 0.0f, 0.0f);
        assert_int_equal(o.flags & ~(uint32_t)FG_LOCO_STRAFE, 0);
    }
    /* Tiny but non-zero vectors below the thresholds: still no direction. */
    in = move(1e-30f, -1e-30f, 1e-20f, 0);
    fg_loco_output o = run(&cfg, &st, in);
    assert_output_finite(&o);
    assert_false(o.flags & (FG_LOCO_MOVING | FG_LOCO_ACCELERATING | FG_LOCO_BAD_INPUT));
}

/* Rule: huge yaw values keep their true remainder; huge vectors are clamped and flagged. */
static void bad_input_huge_values_are_defined(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_state st;
    fg_loco_state_init(&st);
    fg_loco_input in = move(0, 3, 0, 0);
    in.actor_yaw = 360.0f * 20000.0f + 90.0f; /* exactly representable */
    in.aim_yaw = 1e30f;
    fg_loco_output o = run(&cfg, &st, in);
    assert_output_finite(&o);
    assert_float_equal(o.locomotion_angle, -90.0f, 1e-4f);
    assert_false(o.flags & FG_LOCO_BAD_INPUT);
    in = move(1e30f, -3e38f, -1e25f, 1e10f);
    in.strafe = true;
    in.actor_yaw = -1e38f;
    o = run(&cfg, &st, in);
    assert_output_finite(&o);
    assert_true(o.flags & FG_LOCO_BAD_INPUT);
    assert_float_equal(o.speed, FG_LOCO_INPUT_MAX * sqrtf(2.0f), FG_LOCO_INPUT_MAX * 1e-5f);
    assert_state_finite(&st);
}

/* Rule: whatever bits arrive, no output or state is ever NaN or out of range. */
static void bad_input_random_bit_patterns_never_produce_nan(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_state st;
    fg_loco_state_init(&st);
    fg_rng rng = fg_rng_seeded(2024);
    for (int i = 0; i < 200000; i++) {
        float f[6];
        for (int k = 0; k < 6; k++) {
            uint32_t bits = (uint32_t)fg_rng_next(&rng);
            if (fg_rng_range(&rng, 0, 2) == 0) /* a third of them: ordinary values */
                f[k] = (float)fg_rng_range(&rng, -4000, 4000) / 100.0f;
            else
                memcpy(&f[k], &bits, sizeof f[k]);
        }
        fg_loco_input in = move(f[0], f[1], f[2], f[3]);
        in.actor_yaw = f[4];
        in.aim_yaw = f[5];
        in.strafe = (i & 1) != 0;
        in.airborne = (i % 7) == 0;
        fg_loco_output o = run(&cfg, &st, in);
        assert_output_finite(&o);
        assert_state_finite(&st);
    }
}

/* }====================================================================== */

/* {====================================================================== data, hashing, batch */

/* Rule: every config error names the field, the value and the range, and a batch keeps its old
** config when the new one is refused. */
static void config_errors_name_field_value_and_range(void **state) {
    (void)state;
    fg_loco_config good = fg_loco_config_default(60), c;
    fg_error err;

    c = good;
    c.forward_limit_deg = 200.0f;
    assert_int_equal(fg_loco_config_check(&c, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "locomotion.forward_limit_deg: 200, expected a value in (0, 180)");
    c = good;
    c.backward_limit_deg = 130.0f;
    assert_int_equal(fg_loco_config_check(&c, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "locomotion.backward_limit_deg: 130 with forward_limit_deg 65, "
                                 "expected the two to add up to at most 180");
    c = good;
    c.dead_zone_deg = 70.0f;
    assert_int_equal(fg_loco_config_check(&c, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "locomotion.dead_zone_deg: 70, expected a value in [0, 65) "
                                 "(below both sector limits)");
    c = good;
    c.dead_zone_deg = NAN;
    assert_int_equal(fg_loco_config_check(&c, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "locomotion.dead_zone_deg: nan"));
    c = good;
    c.wall_ticks = 0;
    assert_int_equal(fg_loco_config_check(&c, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "locomotion.wall_ticks: 0, expected 1 to 65535");
    c = good;
    c.pivot_min_ticks = 70000;
    assert_int_equal(fg_loco_config_check(&c, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "locomotion.pivot_min_ticks: 70000, expected at most 65535");
    c = good;
    c.pivot_turn_deg = 0.0f;
    assert_int_equal(fg_loco_config_check(&c, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "locomotion.pivot_turn_deg: 0, expected a value in (0, 180]");
    c = good;
    c.braking_deceleration = -1.0f;
    assert_int_equal(fg_loco_config_check(&c, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err),
                        "locomotion.braking_deceleration: -1, expected a finite value above 0");
    c = good;
    c.move_speed = 0.0f;
    assert_int_equal(fg_loco_config_check(&c, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "locomotion.move_speed: 0, expected a finite value above 0");

    fg_loco_batch *b = NULL;
    assert_int_equal(fg_loco_batch_create(&good, 4, NULL, &b, &err), FG_OK);
    c = good;
    c.forward_limit_deg = -1.0f;
    assert_int_equal(fg_loco_batch_set_config(b, &c, &err), FG_EINVAL);
    assert_float_equal(fg_loco_batch_config(b)->forward_limit_deg, 65.0f, 0.0f);
    fg_loco_batch_destroy(b);
    b = NULL;
    assert_int_equal(fg_loco_batch_create(&c, 4, NULL, &b, &err), FG_EINVAL);
    assert_null(b);
    assert_int_equal(fg_loco_batch_create(&good, 0, NULL, &b, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "locomotion batch capacity: 0, expected 1 to"));
    assert_null(b);
}

/* Rule: the persistent state hashes field by field: equal states agree, each latch matters. */
static void state_hash_covers_every_persistent_field(void **state) {
    (void)state;
    fg_loco_state a, b;
    fg_loco_state_init(&a);
    memset(&b, 0xAB, sizeof b); /* padding differs; fields are set below */
    fg_loco_state_init(&b);
    fg_hasher ha = fg_hasher_begin(1), hb = fg_hasher_begin(1);
    fg_loco_state_hash(&a, &ha);
    fg_loco_state_hash(&b, &hb);
    assert_true(fg_hasher_end(&ha) == fg_hasher_end(&hb));
    uint64_t base = fg_hasher_end(&ha);
    for (int field = 0; field < 11; field++) {
        fg_loco_state m = a;
        switch (field) {
        case 0: m.cardinal = R; break;
        case 1: m.in_pivot = 1; break;
        case 2: m.was_accelerating = 1; break;
        case 3: m.was_stopping = 1; break;
        case 4: m.pivot_ticks = 3; break;
        case 5: m.wall_ticks = 2; break;
        case 6: m.pivot_id = 9; break;
        case 7: m.pivot_dir.x = 0.5f; break;
        case 8: m.pivot_dir.y = 0.5f; break;
        case 9: m.pivot_accel.x = -0.5f; break;
        case 10: m.pivot_accel.y = -0.5f; break;
        }
        fg_hasher h = fg_hasher_begin(1);
        fg_loco_state_hash(&m, &h);
        if (fg_hasher_end(&h) == base) fail_msg("field %d does not reach the hash", field);
    }
}

/* Rule: the batch computes exactly what fg_loco_step computes, entity by entity, and the per-tick
** gather/compute/read-back path allocates nothing. */
static void batch_matches_step_and_does_not_allocate(void **state) {
    (void)state;
    enum { N = 64, TICKS = 200 };
    fg_counting_allocator counter;
    fg_allocator alloc = fg_test_counting_allocator(&counter);
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_batch *b;
    assert_int_equal(fg_loco_batch_create(&cfg, N, &alloc, &b, NULL), FG_OK);
    size_t allocs = counter.allocations;
    fg_loco_state world[N], ref[N];
    for (int i = 0; i < N; i++) {
        fg_loco_state_init(&world[i]);
        ref[i] = world[i];
    }
    fg_rng rng = fg_rng_seeded(7);
    int pivots = 0;
    for (int t = 0; t < TICKS; t++) {
        fg_loco_input in[N];
        fg_loco_batch_clear(b);
        for (int i = 0; i < N; i++) {
            in[i] = move((float)fg_rng_range(&rng, -500, 500) / 100.0f,
                         (float)fg_rng_range(&rng, -500, 500) / 100.0f,
                         (float)fg_rng_range(&rng, -20, 20), (float)fg_rng_range(&rng, -20, 20));
            in[i].strafe = (i & 1) != 0;
            in[i].actor_yaw = (float)(t * 3 + i);
            assert_int_equal(fg_loco_batch_gather(b, 1000u + (uint64_t)i, &world[i], &in[i], NULL),
                             FG_OK);
        }
        fg_loco_batch_compute(b, 0, N / 2);
        fg_loco_batch_compute(b, N / 2, UINT32_MAX);
        for (int i = 0; i < N; i++) {
            const fg_loco_job *j = fg_loco_batch_job(b, (uint32_t)i);
            assert_int_equal(j->entity, 1000u + (uint64_t)i);
            fg_loco_output o;
            fg_loco_step(&cfg, &ref[i], &in[i], &o);
            assert_memory_equal(&o, &j->out, sizeof o);
            pivots += (o.flags & FG_LOCO_PIVOT_ENTER) != 0;
            world[i] = j->state;
            fg_hasher h1 = fg_hasher_begin(0), h2 = fg_hasher_begin(0);
            fg_loco_state_hash(&world[i], &h1);
            fg_loco_state_hash(&ref[i], &h2);
            assert_true(fg_hasher_end(&h1) == fg_hasher_end(&h2));
        }
    }
    assert_true(pivots > 0);
    assert_int_equal(counter.allocations, allocs);
    assert_null(fg_loco_batch_job(b, N));
    fg_error err;
    assert_int_equal(fg_loco_batch_gather(b, 77, &world[0], &(fg_loco_input){0}, &err), FG_ENOMEM);
    assert_string_equal(fg_error_message(&err), "locomotion batch: entity 77 does not fit, all 64 jobs are taken");
    assert_int_equal(fg_loco_batch_count(b), N);
    fg_loco_batch_destroy(b);
    assert_int_equal(counter.live_bytes, 0);
    /* Allocation failure is reported, nothing is leaked. */
    counter.fail_after = 0;
    b = NULL;
    assert_int_equal(fg_loco_batch_create(&cfg, N, &alloc, &b, &err), FG_ENOMEM);
    assert_null(b);
}

/* Rule: names round-trip. */
static void cardinal_and_dir8_names(void **state) {
    (void)state;
    for (int c = 0; c < 4; c++)
        assert_int_equal(fg_cardinal_parse(fg_cardinal_name((fg_cardinal)c)), c);
    assert_int_equal(fg_cardinal_parse("forward"), -1);
    assert_string_equal(fg_dir8_name(FG_DIR8_BL), "BL");
    assert_string_equal(fg_cardinal_name((fg_cardinal)9), "?");
}

/* }====================================================================== */

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hysteresis_jitter_across_each_boundary_stays_put),
        cmocka_unit_test(hysteresis_crossing_by_more_than_dead_zone_switches),
        cmocka_unit_test(hysteresis_every_sector_from_every_current_direction),
        cmocka_unit_test(hysteresis_boundaries_and_dead_zone_are_data),
        cmocka_unit_test(hysteresis_policy_one_way_by_default_both_ways_on_request),
        cmocka_unit_test(outside_strafe_cardinal_is_forward_and_warp_is_the_angle),
        cmocka_unit_test(warp_angle_seed_example_minus_170_backward_gives_plus_10),
        cmocka_unit_test(warp_angle_subtracts_each_cardinal_base),
        cmocka_unit_test(warp_angle_wraps_around_to_minus_180_exclusive),
        cmocka_unit_test(normalize_is_the_exact_remainder_for_any_float),
        cmocka_unit_test(locomotion_angle_is_accurate_all_round),
        cmocka_unit_test(locomotion_angle_is_relative_to_actor_yaw),
        cmocka_unit_test(pivot_enters_on_opposed_velocity_and_latches_both),
        cmocka_unit_test(pivot_does_not_exit_before_min_time_even_when_turned),
        cmocka_unit_test(pivot_does_not_exit_before_turning_even_after_min_time),
        cmocka_unit_test(pivot_is_cancelled_by_release_airborne_or_wall),
        cmocka_unit_test(repivot_needs_all_three_conditions),
        cmocka_unit_test(wall_needs_n_consecutive_blocked_ticks),
        cmocka_unit_test(starts_and_turnarounds_are_not_walls),
        cmocka_unit_test(start_stop_and_stop_distance),
        cmocka_unit_test(bad_input_nan_and_infinity_give_defined_outputs),
        cmocka_unit_test(bad_input_zero_vectors_keep_the_cardinal),
        cmocka_unit_test(bad_input_huge_values_are_defined),
        cmocka_unit_test(bad_input_random_bit_patterns_never_produce_nan),
        cmocka_unit_test(config_errors_name_field_value_and_range),
        cmocka_unit_test(state_hash_covers_every_persistent_field),
        cmocka_unit_test(batch_matches_step_and_does_not_allocate),
        cmocka_unit_test(cardinal_and_dir8_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
