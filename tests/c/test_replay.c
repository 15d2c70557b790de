/* SPDX-License-Identifier: MIT */
/* test_replay.c: the replay writer and reader: round trips of every record type, the documented
** byte layout, writer rules (each refusal names the value and changes nothing), files, sinks and
** the no-allocation-per-record rule. Damage and compatibility are in test_replay_compat.c. */
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {====================================================================== helpers */

/* A growable in-memory sink (its own malloc, so the counting allocator sees only the replay). */
typedef struct mem_sink {
    uint8_t *b;
    size_t n, cap;
    size_t calls;
    size_t fail_after_bytes; /* 0: never fail */
} mem_sink;

static fg_status mem_write(void *ud, const void *data, size_t len, fg_error *err) {
    mem_sink *m = ud;
    m->calls++;
    if (m->fail_after_bytes && m->n + len > m->fail_after_bytes)
        return fg_error_set(err, FG_EIO, "disk full after %zu bytes", m->n);
    if (m->n + len > m->cap) {
        size_t cap = m->cap ? m->cap : 1024;
        while (cap < m->n + len) cap *= 2;
        m->b = realloc(m->b, cap);
        assert_non_null(m->b);
        m->cap = cap;
    }
    memcpy(m->b + m->n, data, len);
    m->n += len;
    return FG_OK;
}

static fg_replay_header basic_header(void) {
    fg_replay_header h;
    memset(&h, 0, sizeof h);
    h.runtime_version = fg_replay_str_of("test");
    h.tick_rate = 60;
    h.seed = 7;
    h.ruleset_hash = 0x1111222233334444ull;
    return h;
}

static fg_replay_writer *open_mem(mem_sink *m, const fg_replay_header *h,
                                  const fg_replay_write_options *opt) {
    fg_replay_writer *w = NULL;
    fg_error err = {0};
    fg_status st = fg_replay_writer_create_sink(h, mem_write, m, opt, &w, &err);
    if (st != FG_OK) fail_msg("open: %s", fg_error_message(&err));
    return w;
}

static fg_replay_reader *read_mem(const mem_sink *m) {
    fg_replay_reader *r = NULL;
    fg_error err = {0};
    if (fg_replay_reader_create_memory(m->b, m->n, NULL, &r, &err) != FG_OK)
        fail_msg("read: %s", fg_error_message(&err));
    return r;
}

static fg_replay_record next_rec(fg_replay_reader *r) {
    fg_replay_record rec;
    fg_error err = {0};
    if (fg_replay_next(r, &rec, &err) != FG_OK) fail_msg("next: %s", fg_error_message(&err));
    return rec;
}

static fg_replay_input edge(uint32_t entity, fg_tick tick, int kind, int action, int dir) {
    fg_replay_input in = {entity, tick, tick * 16667 + 3, (uint8_t)kind, (uint8_t)action,
                          (uint8_t)dir, FG_SOURCE_DEVICE};
    return in;
}

static void expect_ok(fg_status st, const fg_error *err) {
    if (st != FG_OK) fail_msg("unexpected failure: %s", fg_error_message(err));
}

/* }====================================================================== */

/* Rule: every record type written is read back field for field, including negative ticks,
** 64-bit hashes with the high bit set, and source text with an embedded '\0'. */
static void every_record_type_round_trips_field_for_field(void **state) {
    (void)state;
    mem_sink m = {0};
    fg_replay_named_hash hashes[] = {{fg_replay_str_of("rules/ryu.lua"), 0x8000000000000001ull},
                                     {fg_replay_str_of("rules/ken.lua"), 0xfedcba9876543210ull}};
    fg_replay_meta meta[] = {{fg_replay_str_of("ruleset"), fg_replay_str_of("samples/ryu")},
                             {fg_replay_str_of("player1"), fg_replay_str_of("")}};
    fg_replay_header h = basic_header();
    h.runtime_version = fg_replay_str_of("9.8.7-dev");
    h.tick_rate = 144;
    h.seed = 0xdeadbeefcafef00dull;
    h.start_tick = -5;
    h.ruleset_hash = 0xa5a5a5a5a5a5a5a5ull;
    h.nhashes = 2;
    h.hashes = hashes;
    h.nmeta = 2;
    h.meta = meta;
    fg_replay_writer *w = open_mem(&m, &h, NULL);
    fg_error err = {0};
    fg_replay_input in = {4000000000u, -5, -83335, FG_EDGE_DIR, 0, 3, FG_SOURCE_NETWORK};
    expect_ok(fg_replay_write_input(w, in, &err), &err);
    fg_replay_input in2 = {1, 2, 33334, FG_EDGE_RELEASE, 31, 9, FG_SOURCE_SCRIPT};
    expect_ok(fg_replay_write_input(w, in2, &err), &err);
    fg_replay_command cmd = {2, 3, 0xfffffffeu};
    expect_ok(fg_replay_write_command(w, cmd, &err), &err);
    expect_ok(fg_replay_write_checkpoint(w, 3, 0x0123456789abcdefull, &err), &err);
    expect_ok(fg_replay_write_clamp(w, 4, 250000, &err), &err);
    static const char text2[] = "return { a = \"x\\0y\" }\0tail";
    fg_replay_file files[] = {{fg_replay_str_of("rules/ryu.lua"), fg_replay_str_of("return {}")},
                              {fg_replay_str_of("rules/shared/moves.lua"),
                               {text2, (uint32_t)sizeof text2 - 1}}};
    fg_replay_reload rl = {5, 0xa5a5a5a5a5a5a5a5ull, 0x5a5a5a5a5a5a5a5aull, 2, files};
    expect_ok(fg_replay_write_reload(w, &rl, &err), &err);
    expect_ok(fg_replay_write_final(w, 9, 0xffffffffffffffffull, &err), &err);
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    assert_int_equal(fg_replay_writer_records(w), 9); /* header + 7 + end */
    assert_int_equal(fg_replay_writer_bytes(w), m.n);
    fg_replay_writer_destroy(w);

    fg_replay_reader *r = read_mem(&m);
    const fg_replay_header *rh = fg_replay_reader_header(r);
    assert_string_equal(rh->runtime_version.s, "9.8.7-dev");
    assert_int_equal(rh->tick_rate, 144);
    assert_true(rh->seed == 0xdeadbeefcafef00dull);
    assert_int_equal(rh->start_tick, -5);
    assert_true(rh->ruleset_hash == 0xa5a5a5a5a5a5a5a5ull);
    assert_int_equal(rh->nhashes, 2);
    assert_string_equal(rh->hashes[1].name.s, "rules/ken.lua");
    assert_true(rh->hashes[0].hash == 0x8000000000000001ull);
    assert_true(rh->hashes[1].hash == 0xfedcba9876543210ull);
    assert_int_equal(rh->nmeta, 2);
    assert_string_equal(rh->meta[0].key.s, "ruleset");
    assert_string_equal(rh->meta[0].value.s, "samples/ryu");
    assert_int_equal(rh->meta[1].value.len, 0);

    fg_replay_record rec = next_rec(r);
    assert_int_equal(rec.type, FG_REPLAY_INPUT);
    assert_int_equal(rec.index, 1);
    assert_int_equal(rec.as.input.entity, 4000000000u);
    assert_int_equal(rec.as.input.tick, -5);
    assert_int_equal(rec.as.input.time_us, -83335);
    assert_int_equal(rec.as.input.kind, FG_EDGE_DIR);
    assert_int_equal(rec.as.input.dir, 3);
    assert_int_equal(rec.as.input.source, FG_SOURCE_NETWORK);
    rec = next_rec(r);
    assert_int_equal(rec.as.input.kind, FG_EDGE_RELEASE);
    assert_int_equal(rec.as.input.action, 31);
    assert_int_equal(rec.as.input.dir, 9);
    assert_int_equal(rec.as.input.time_us, 33334);
    assert_int_equal(rec.as.input.source, FG_SOURCE_SCRIPT);
    rec = next_rec(r);
    assert_int_equal(rec.type, FG_REPLAY_COMMAND);
    assert_int_equal(rec.as.command.entity, 2);
    assert_int_equal(rec.as.command.tick, 3);
    assert_int_equal(rec.as.command.motion, 0xfffffffeu);
    rec = next_rec(r);
    assert_int_equal(rec.type, FG_REPLAY_CHECKPOINT);
    assert_int_equal(rec.as.checkpoint.tick, 3);
    assert_true(rec.as.checkpoint.hash == 0x0123456789abcdefull);
    rec = next_rec(r);
    assert_int_equal(rec.type, FG_REPLAY_CLAMP);
    assert_int_equal(rec.as.clamp.tick, 4);
    assert_int_equal(rec.as.clamp.clamped_us, 250000);
    rec = next_rec(r);
    assert_int_equal(rec.type, FG_REPLAY_RELOAD);
    assert_int_equal(rec.as.reload.tick, 5);
    assert_true(rec.as.reload.old_hash == 0xa5a5a5a5a5a5a5a5ull);
    assert_true(rec.as.reload.new_hash == 0x5a5a5a5a5a5a5a5aull);
    assert_int_equal(rec.as.reload.nfiles, 2);
    assert_string_equal(rec.as.reload.files[0].path.s, "rules/ryu.lua");
    assert_string_equal(rec.as.reload.files[0].text.s, "return {}");
    assert_string_equal(rec.as.reload.files[1].path.s, "rules/shared/moves.lua");
    assert_int_equal(rec.as.reload.files[1].text.len, sizeof text2 - 1);
    assert_memory_equal(rec.as.reload.files[1].text.s, text2, sizeof text2 - 1);
    assert_int_equal(rec.as.reload.files[1].text.s[sizeof text2 - 1], '\0');
    rec = next_rec(r);
    assert_int_equal(rec.type, FG_REPLAY_FINAL);
    assert_int_equal(rec.as.final.tick, 9);
    assert_true(rec.as.final.hash == 0xffffffffffffffffull);
    rec = next_rec(r);
    assert_int_equal(rec.type, FG_REPLAY_END);
    assert_int_equal(rec.as.end.records, 8);
    assert_false(rec.as.end.truncated);
    rec = next_rec(r); /* the end repeats */
    assert_int_equal(rec.type, FG_REPLAY_END);

    const fg_replay_stats *s = fg_replay_reader_stats(r);
    assert_int_equal(s->records, 9);
    assert_int_equal(s->by_type[FG_REPLAY_INPUT], 2);
    assert_int_equal(s->by_type[FG_REPLAY_RELOAD], 1);
    assert_int_equal(s->by_type[FG_REPLAY_END], 1);
    assert_int_equal(s->unknown, 0);
    assert_true(s->has_final);
    assert_int_equal(s->final_tick, 9);
    assert_int_equal(s->last_tick, 9);
    assert_true(s->complete);
    assert_int_equal(s->bytes, m.n);
    assert_int_equal(s->version_major, FG_REPLAY_VERSION_MAJOR);
    fg_replay_reader_destroy(r);
    free(m.b);
}

/* Rule: the bytes on disk are the layout docs/replay-format.md documents: magic, version, the
** record table, CRCs, chunk headers and little-endian fields packed without padding. */
static void file_bytes_follow_the_documented_layout(void **state) {
    (void)state;
    mem_sink m = {0};
    fg_replay_header h = basic_header(); /* "test", 60 Hz, seed 7, start 0, 0x1111222233334444 */
    fg_replay_writer *w = open_mem(&m, &h, NULL);
    fg_error err = {0};
    expect_ok(fg_replay_write_checkpoint(w, 0x0102, 0xa1a2a3a4a5a6a7a8ull, &err), &err);
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    fg_replay_writer_destroy(w);

    static const uint8_t preamble[84] = {
        0x89, 'F', 'G', 'R', '\r', '\n', 0x1a, '\n', /* magic */
        1, 0, 0, 0, 8, 0, 0, 0,                       /* version 1.0, 8 types, reserved */
        1, 1, 0, 0, 28, 0, 0, 0,                      /* header: variable, fixed part 28 */
        2, 0, 0, 0, 24, 0, 0, 0,                      /* input */
        3, 0, 0, 0, 16, 0, 0, 0,                      /* command */
        4, 0, 0, 0, 16, 0, 0, 0,                      /* checkpoint */
        5, 0, 0, 0, 16, 0, 0, 0,                      /* final */
        6, 0, 0, 0, 16, 0, 0, 0,                      /* clamp */
        7, 1, 0, 0, 24, 0, 0, 0,                      /* reload: variable, fixed part 24 */
        8, 0, 0, 0, 8, 0, 0, 0,                       /* end */
    };
    assert_true(m.n > 84 + 4);
    assert_memory_equal(m.b, preamble, 80);
    uint32_t crc = fg_crc32(0, preamble, 80);
    uint8_t crc_le[4] = {(uint8_t)crc, (uint8_t)(crc >> 8), (uint8_t)(crc >> 16),
                         (uint8_t)(crc >> 24)};
    assert_memory_equal(m.b + 80, crc_le, 4);

    /* Chunk 0 at byte 84: the header record alone. */
    static const uint8_t header_record[50] = {
        1, 45, 0, 0, 0,                                 /* type, body length */
        60, 0, 0, 0,                                    /* tick_rate */
        7, 0, 0, 0, 0, 0, 0, 0,                         /* seed */
        0, 0, 0, 0, 0, 0, 0, 0,                         /* start_tick */
        0x44, 0x44, 0x33, 0x33, 0x22, 0x22, 0x11, 0x11, /* ruleset_hash */
        4, 0, 0, 0, 't', 'e', 's', 't', 0,              /* runtime_version */
        0, 0, 0, 0,                                     /* no hashes */
        0, 0, 0, 0,                                     /* no meta */
    };
    const uint8_t *c0 = m.b + 84;
    uint8_t c0_head[12] = {50, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
    assert_memory_equal(c0, c0_head, 12);
    uint32_t hcrc = fg_crc32(0, c0_head, 12);
    assert_int_equal(c0[12] | c0[13] << 8 | c0[14] << 16 | (uint32_t)c0[15] << 24, hcrc);
    assert_memory_equal(c0 + 16, header_record, 50);
    uint32_t pcrc = fg_crc32(0, header_record, 50);
    assert_int_equal(c0[66] | c0[67] << 8 | c0[68] << 16 | (uint32_t)c0[69] << 24, pcrc);

    /* Chunk 1 at byte 154: the checkpoint and the end marker (2 records before it). */
    static const uint8_t c1_payload[26] = {
        4, 0x02, 0x01, 0, 0, 0, 0, 0, 0, 0xa8, 0xa7, 0xa6, 0xa5, 0xa4, 0xa3, 0xa2, 0xa1,
        8, 2, 0, 0, 0, 0, 0, 0, 0,
    };
    const uint8_t *c1 = m.b + 154;
    uint8_t c1_head[12] = {26, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0};
    assert_memory_equal(c1, c1_head, 12);
    assert_memory_equal(c1 + 16, c1_payload, 26);
    assert_int_equal(m.n, 154 + 16 + 26 + 4);
    free(m.b);
}

/* Rule: the writer allocates only at open; appending records across many chunk flushes, and
** reading them back, allocates nothing, and closing frees everything. */
static void appending_and_iterating_records_allocate_nothing(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator alloc = fg_test_counting_allocator(&counter);
    mem_sink m = {0};
    m.cap = 1 << 20;
    m.b = malloc(m.cap);
    fg_replay_header h = basic_header();
    fg_replay_write_options opt = {&alloc, 256};
    fg_replay_writer *w = open_mem(&m, &h, &opt);
    size_t after_open = counter.allocations;
    assert_true(after_open >= 1);
    fg_error err = {0};
    fg_replay_file file = {fg_replay_str_of("r.lua"), fg_replay_str_of("return {}")};
    fg_replay_reload rl = {0, 1, 2, 1, &file};
    for (fg_tick t = 0; t < 3000; t++) {
        if (t % 7 == 0) expect_ok(fg_replay_write_input(w, edge(0, t, 0, 4, 5), &err), &err);
        if (t % 11 == 0) expect_ok(fg_replay_write_command(w, (fg_replay_command){1, t, 3}, &err),
                                   &err);
        if (t % 60 == 59) expect_ok(fg_replay_write_checkpoint(w, t, (uint64_t)t * 31, &err), &err);
        if (t % 500 == 0) {
            rl.tick = t;
            expect_ok(fg_replay_write_reload(w, &rl, &err), &err);
        }
        if (t % 1000 == 999) expect_ok(fg_replay_writer_flush(w, &err), &err);
    }
    expect_ok(fg_replay_write_clamp(w, 3000, 5, &err), &err);
    expect_ok(fg_replay_write_final(w, 3000, 1, &err), &err);
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    assert_int_equal(counter.allocations, after_open);
    assert_true(m.calls > 20); /* many chunks really went out */
    fg_replay_writer_destroy(w);
    assert_int_equal(counter.live_bytes, 0);

    fg_replay_read_options ropt = {&alloc, NULL, 0};
    fg_replay_reader *r = NULL;
    expect_ok(fg_replay_reader_create_memory(m.b, m.n, &ropt, &r, &err), &err);
    size_t after_read_open = counter.allocations;
    fg_replay_record rec;
    uint64_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        fg_replay_reader_rewind(r);
        do {
            expect_ok(fg_replay_next(r, &rec, &err), &err);
            n++;
        } while (rec.type != FG_REPLAY_END);
    }
    assert_int_equal(counter.allocations, after_read_open);
    assert_int_equal(n, 2 * (fg_replay_reader_stats(r)->records - 1));
    fg_replay_reader_destroy(r);
    assert_int_equal(counter.live_bytes, 0);
    free(m.b);
}

/* Rule: records may span any number of chunks; they come back in the order written. */
static void records_come_back_in_order_across_many_small_chunks(void **state) {
    (void)state;
    mem_sink m = {0};
    fg_replay_header h = basic_header();
    fg_replay_write_options opt = {NULL, FG_REPLAY_CHUNK_MIN};
    fg_replay_writer *w = open_mem(&m, &h, &opt);
    fg_error err = {0};
    for (uint32_t i = 0; i < 1000; i++)
        expect_ok(fg_replay_write_command(w, (fg_replay_command){i, i / 3, i * 7}, &err), &err);
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    fg_replay_writer_destroy(w);
    fg_replay_reader *r = read_mem(&m);
    for (uint32_t i = 0; i < 1000; i++) {
        fg_replay_record rec = next_rec(r);
        assert_int_equal(rec.type, FG_REPLAY_COMMAND);
        assert_int_equal(rec.as.command.entity, i);
        assert_int_equal(rec.as.command.motion, i * 7);
    }
    assert_int_equal(next_rec(r).type, FG_REPLAY_END);
    /* 64-byte chunks hold 3 commands of 17 bytes: 334 chunks of records plus the header's. */
    assert_int_equal(fg_replay_reader_stats(r)->chunks, 1 + 334);
    fg_replay_reader_destroy(r);
    free(m.b);
}

/* Rule: a reload record larger than the chunk buffer goes out as a chunk of its own, streamed,
** without allocating, and reads back byte for byte. */
static void reload_larger_than_the_chunk_buffer_is_streamed_whole(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator alloc = fg_test_counting_allocator(&counter);
    mem_sink m = {0};
    fg_replay_header h = basic_header();
    fg_replay_write_options opt = {&alloc, 128};
    fg_replay_writer *w = open_mem(&m, &h, &opt);
    size_t allocs = counter.allocations;
    size_t big_len = 100000;
    char *big = malloc(big_len);
    for (size_t i = 0; i < big_len; i++) big[i] = (char)('a' + i % 26);
    fg_error err = {0};
    expect_ok(fg_replay_write_input(w, edge(0, 1, 0, 4, 5), &err), &err);
    fg_replay_file files[] = {{fg_replay_str_of("big.lua"), {big, (uint32_t)big_len}}};
    fg_replay_reload rl = {2, 10, 20, 1, files};
    expect_ok(fg_replay_write_reload(w, &rl, &err), &err);
    expect_ok(fg_replay_write_input(w, edge(0, 3, 1, 4, 5), &err), &err);
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    assert_int_equal(counter.allocations, allocs);
    fg_replay_writer_destroy(w);

    fg_replay_reader *r = read_mem(&m);
    assert_int_equal(next_rec(r).type, FG_REPLAY_INPUT);
    fg_replay_record rec = next_rec(r);
    assert_int_equal(rec.type, FG_REPLAY_RELOAD);
    assert_int_equal(rec.as.reload.files[0].text.len, big_len);
    assert_memory_equal(rec.as.reload.files[0].text.s, big, big_len);
    rec = next_rec(r);
    assert_int_equal(rec.type, FG_REPLAY_INPUT);
    assert_int_equal(rec.as.input.kind, FG_EDGE_RELEASE);
    /* header chunk, the input flushed before the reload, the reload's own, the rest */
    assert_int_equal(fg_replay_reader_stats(r)->chunks, 4);
    fg_replay_reader_destroy(r);
    free(big);
    free(m.b);
}

/* Reads a finished replay and returns how many records it holds after the header. */
static uint64_t records_after_header(const mem_sink *m) {
    fg_replay_reader *r = read_mem(m);
    uint64_t n = fg_replay_reader_stats(r)->records - 1;
    fg_replay_reader_destroy(r);
    return n;
}

/* Rule: ticks never go back; the refusal names both ticks and the record is not written. */
static void writer_refuses_a_tick_that_goes_back_and_writes_nothing(void **state) {
    (void)state;
    mem_sink m = {0};
    fg_replay_header h = basic_header();
    fg_replay_writer *w = open_mem(&m, &h, NULL);
    fg_error err = {0};
    expect_ok(fg_replay_write_input(w, edge(0, 42, 0, 4, 5), &err), &err);
    assert_int_equal(fg_replay_write_input(w, edge(1, 41, 0, 4, 5), &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replay writer: input.tick 41 is before the previous record's "
                                 "tick 42 (records go in tick order)");
    assert_int_equal(fg_replay_write_checkpoint(w, 40, 1, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replay writer: checkpoint.tick 40 is before the previous "
                                 "record's tick 42 (records go in tick order)");
    assert_int_equal(fg_replay_writer_records(w), 2);
    expect_ok(fg_replay_write_input(w, edge(1, 42, 0, 4, 5), &err), &err); /* same tick is fine */
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    fg_replay_writer_destroy(w);
    assert_int_equal(records_after_header(&m), 3); /* two inputs and the end marker */
    free(m.b);
}

/* Rule: no record precedes the header's start tick. */
static void writer_refuses_a_tick_before_the_start_tick(void **state) {
    (void)state;
    mem_sink m = {0};
    fg_replay_header h = basic_header();
    h.start_tick = 100;
    fg_replay_writer *w = open_mem(&m, &h, NULL);
    fg_error err = {0};
    assert_int_equal(fg_replay_write_clamp(w, 99, 10, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err),
                        "replay writer: clamp.tick 99 is before the start tick 100");
    assert_int_equal(fg_replay_writer_records(w), 1);
    fg_replay_writer_destroy(w);
    free(m.b);
}

/* Rule: input fields outside their documented ranges are refused with the field and range. */
static void writer_refuses_input_fields_out_of_range(void **state) {
    (void)state;
    mem_sink m = {0};
    fg_replay_header h = basic_header();
    fg_replay_writer *w = open_mem(&m, &h, NULL);
    fg_error err = {0};
    struct {
        fg_replay_input in;
        const char *msg;
    } cases[] = {
        {edge(0, 1, 3, 4, 5), "replay writer: input.kind 3 is not an edge kind (expected 0..2)"},
        {edge(0, 1, 0, 32, 5), "replay writer: input.action 32 is out of range (expected 0..31)"},
        {edge(0, 1, 0, 4, 0), "replay writer: input.dir 0 is not a numpad direction (expected "
                              "1..9)"},
        {edge(0, 1, 0, 4, 10), "replay writer: input.dir 10 is not a numpad direction (expected "
                               "1..9)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(fg_replay_write_input(w, cases[i].in, &err), FG_EINVAL);
        assert_string_equal(fg_error_message(&err), cases[i].msg);
    }
    fg_replay_input bad_source = edge(0, 1, 0, 4, 5);
    bad_source.source = 5;
    assert_int_equal(fg_replay_write_input(w, bad_source, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replay writer: input.source 5 is not a source (expected 0..4)");
    assert_int_equal(fg_replay_write_clamp(w, 1, -1, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err),
                        "replay writer: clamp.clamped_us -1 is negative (expected >= 0)");
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    fg_replay_writer_destroy(w);
    assert_int_equal(records_after_header(&m), 1); /* only the end marker */
    free(m.b);
}

/* Rule: after the final record only the end marker may follow; a second final is refused. */
static void only_the_end_marker_may_follow_the_final_record(void **state) {
    (void)state;
    mem_sink m = {0};
    fg_replay_header h = basic_header();
    fg_replay_writer *w = open_mem(&m, &h, NULL);
    fg_error err = {0};
    expect_ok(fg_replay_write_final(w, 10, 5, &err), &err);
    assert_int_equal(fg_replay_write_checkpoint(w, 10, 5, &err), FG_ESTATE);
    assert_string_equal(fg_error_message(&err), "replay writer: checkpoint after the final record (only the end "
                                 "marker may follow it)");
    assert_int_equal(fg_replay_write_final(w, 11, 6, &err), FG_ESTATE);
    assert_string_equal(fg_error_message(&err), "replay writer: final after the final record (only the end "
                                 "marker may follow it)");
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    assert_int_equal(fg_replay_write_input(w, edge(0, 12, 0, 4, 5), &err), FG_ESTATE);
    assert_string_equal(fg_error_message(&err), "replay writer: already finished (the end marker is written)");
    assert_int_equal(fg_replay_writer_finish(w, &err), FG_ESTATE);
    fg_replay_writer_destroy(w);
    assert_int_equal(records_after_header(&m), 2);
    free(m.b);
}

/* Rule: a bad header is refused before anything is allocated or written, naming the field. */
static void writer_refuses_a_bad_header_before_writing_or_allocating(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator alloc = fg_test_counting_allocator(&counter);
    fg_replay_write_options opt = {&alloc, 0};
    mem_sink m = {0};
    fg_error err = {0};
    fg_replay_writer *w = (fg_replay_writer *)&m; /* must be reset to NULL */

    fg_replay_header h = basic_header();
    h.tick_rate = 0;
    assert_int_equal(fg_replay_writer_create_sink(&h, mem_write, &m, &opt, &w, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replay writer: header.tick_rate 0 is out of range (expected "
                                 "1..100000)");
    assert_null(w);

    fg_replay_meta meta[] = {{fg_replay_str_of("name"), fg_replay_str_of("a")},
                             {fg_replay_str_of("path"), fg_replay_str_of("b")},
                             {fg_replay_str_of("name"), fg_replay_str_of("c")}};
    h = basic_header();
    h.nmeta = 3;
    h.meta = meta;
    assert_int_equal(fg_replay_writer_create_sink(&h, mem_write, &m, &opt, &w, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replay writer: header.meta[2].key \"name\" repeats meta[0]");

    fg_replay_named_hash hashes[] = {{fg_replay_str_of(""), 1}};
    h = basic_header();
    h.nhashes = 1;
    h.hashes = hashes;
    assert_int_equal(fg_replay_writer_create_sink(&h, mem_write, &m, &opt, &w, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replay writer: header.hashes[0].name is empty");

    fg_replay_meta *many = calloc(1025, sizeof *many);
    h = basic_header();
    h.nmeta = 1025;
    h.meta = many;
    assert_int_equal(fg_replay_writer_create_sink(&h, mem_write, &m, &opt, &w, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replay writer: header has 0 hashes and 1025 meta pairs (at most "
                                 "1024 of each)");
    free(many);

    h = basic_header();
    opt.chunk_size = 10;
    assert_int_equal(fg_replay_writer_create_sink(&h, mem_write, &m, &opt, &w, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replay writer: chunk_size 10 is out of range (expected "
                                 "64..16777216)");

    assert_int_equal(counter.allocations, 0);
    assert_int_equal(m.calls, 0);
}

/* Rule: reload files need distinct, non-empty paths; the refusal writes nothing. */
static void writer_refuses_reload_files_with_repeated_or_empty_paths(void **state) {
    (void)state;
    mem_sink m = {0};
    fg_replay_header h = basic_header();
    fg_replay_writer *w = open_mem(&m, &h, NULL);
    fg_error err = {0};
    fg_replay_file files[] = {{fg_replay_str_of("a.lua"), fg_replay_str_of("1")},
                              {fg_replay_str_of("a.lua"), fg_replay_str_of("2")}};
    fg_replay_reload rl = {1, 1, 2, 2, files};
    assert_int_equal(fg_replay_write_reload(w, &rl, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replay writer: reload.files[1].path \"a.lua\" repeats files[0]");
    files[1].path = fg_replay_str_of("");
    assert_int_equal(fg_replay_write_reload(w, &rl, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replay writer: reload.files[1].path is empty");
    static const char nul_path[] = "b\0c.lua";
    files[1].path.s = nul_path;
    files[1].path.len = sizeof nul_path - 1;
    assert_int_equal(fg_replay_write_reload(w, &rl, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replay writer: reload.files[1].path \"b\" contains a '\\0' byte");
    rl.nfiles = 1025;
    assert_int_equal(fg_replay_write_reload(w, &rl, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "replay writer: reload has 1025 files (at most 1024)");
    assert_int_equal(fg_replay_writer_records(w), 1);
    fg_replay_writer_destroy(w);
    free(m.b);
}

/* Rule: when the sink fails, the writer reports the sink's message and refuses everything after,
** because part of a chunk may have reached the file. */
static void a_failing_sink_stops_the_writer_with_its_message(void **state) {
    (void)state;
    mem_sink m = {0};
    m.fail_after_bytes = 300;
    fg_replay_header h = basic_header();
    fg_replay_write_options opt = {NULL, 64};
    fg_replay_writer *w = open_mem(&m, &h, &opt);
    fg_error err = {0};
    fg_status st = FG_OK;
    fg_tick t = 0;
    while (st == FG_OK && t < 100) st = fg_replay_write_input(w, edge(0, t++, 0, 4, 5), &err);
    assert_int_equal(st, FG_EIO);
    assert_string_equal(fg_error_message(&err), "replay writer: chunk 3: disk full after 294 bytes");
    assert_int_equal(fg_replay_write_input(w, edge(0, t, 0, 4, 5), &err), FG_ESTATE);
    assert_string_equal(fg_error_message(&err), "replay writer: an earlier write to the sink failed; the "
                                 "recording is incomplete");
    assert_int_equal(fg_replay_writer_finish(w, &err), FG_ESTATE);
    fg_replay_writer_destroy(w);
    free(m.b);
}

/* Rule: the ruleset check passes on equal hashes and names both hashes when they differ. */
static void ruleset_check_names_the_recorded_and_the_loaded_hash(void **state) {
    (void)state;
    mem_sink m = {0};
    fg_replay_header h = basic_header();
    h.ruleset_hash = 0x00000000deadbeefull;
    fg_replay_writer *w = open_mem(&m, &h, NULL);
    fg_error err = {0};
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    fg_replay_writer_destroy(w);
    fg_replay_read_options opt = {NULL, "match.fgr", 0};
    fg_replay_reader *r = NULL;
    expect_ok(fg_replay_reader_create_memory(m.b, m.n, &opt, &r, &err), &err);
    assert_int_equal(fg_replay_check_ruleset(r, 0x00000000deadbeefull, &err), FG_OK);
    assert_int_equal(fg_replay_check_ruleset(r, 0xabcdef0123456789ull, &err), FG_EMISMATCH);
    assert_string_equal(fg_error_message(&err), "match.fgr: replay was recorded with ruleset 0x00000000deadbeef, "
                                 "loaded ruleset is 0xabcdef0123456789");
    fg_replay_reader_destroy(r);
    free(m.b);
}

/* Rule: rewinding restarts at the first record after the header. */
static void rewind_restarts_at_the_first_record_after_the_header(void **state) {
    (void)state;
    mem_sink m = {0};
    fg_replay_header h = basic_header();
    fg_replay_writer *w = open_mem(&m, &h, NULL);
    fg_error err = {0};
    expect_ok(fg_replay_write_checkpoint(w, 1, 11, &err), &err);
    expect_ok(fg_replay_write_checkpoint(w, 2, 22, &err), &err);
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    fg_replay_writer_destroy(w);
    fg_replay_reader *r = read_mem(&m);
    assert_int_equal(next_rec(r).as.checkpoint.hash, 11);
    assert_int_equal(next_rec(r).as.checkpoint.hash, 22);
    fg_replay_reader_rewind(r);
    fg_replay_record rec = next_rec(r);
    assert_int_equal(rec.as.checkpoint.hash, 11);
    assert_int_equal(rec.index, 1);
    fg_replay_reader_destroy(r);
    free(m.b);
}

/* Rule: peeking returns the record next() will return, without taking it: playback can stop at
** the first record of the next tick. */
static void peek_shows_the_next_record_without_taking_it(void **state) {
    (void)state;
    mem_sink m = {0};
    fg_replay_header h = basic_header();
    fg_replay_writer *w = open_mem(&m, &h, NULL);
    fg_error err = {0};
    expect_ok(fg_replay_write_input(w, edge(0, 1, 0, 4, 5), &err), &err);
    expect_ok(fg_replay_write_input(w, edge(1, 1, 0, 5, 5), &err), &err);
    expect_ok(fg_replay_write_input(w, edge(0, 3, 1, 4, 5), &err), &err);
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    fg_replay_writer_destroy(w);
    fg_replay_reader *r = read_mem(&m);
    fg_replay_record ahead;
    int per_tick[4] = {0};
    for (fg_tick t = 1; t <= 3; t++) {
        for (;;) {
            expect_ok(fg_replay_peek(r, &ahead, &err), &err);
            if (ahead.type == FG_REPLAY_END || ahead.as.input.tick > t) break;
            fg_replay_record rec = next_rec(r);
            assert_int_equal(rec.index, ahead.index);
            per_tick[t]++;
        }
    }
    assert_int_equal(per_tick[1], 2);
    assert_int_equal(per_tick[2], 0);
    assert_int_equal(per_tick[3], 1);
    expect_ok(fg_replay_peek(r, &ahead, &err), &err);
    assert_int_equal(ahead.type, FG_REPLAY_END);
    fg_replay_reader_destroy(r);
    free(m.b);
}

/* Rule: a replay written to a path reads back from that path; a missing file names the path
** and the system's reason. */
static void files_round_trip_and_a_missing_file_names_its_path(void **state) {
    (void)state;
    /* ctest runs suites in the build tree; the file is removed again. */
    const char *path = "test_replay.tmp.fgr";
    remove(path);
    fg_replay_header h = basic_header();
    fg_replay_writer *w = NULL;
    fg_error err = {0};
    expect_ok(fg_replay_writer_create_file(path, &h, NULL, &w, &err), &err);
    expect_ok(fg_replay_write_input(w, edge(3, 5, 0, 6, 2), &err), &err);
    expect_ok(fg_replay_write_final(w, 6, 77, &err), &err);
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    fg_replay_writer_destroy(w);

    fg_replay_reader *r = NULL;
    expect_ok(fg_replay_reader_create_file(path, NULL, &r, &err), &err);
    assert_string_equal(fg_replay_reader_name(r), path);
    fg_replay_record rec = next_rec(r);
    assert_int_equal(rec.as.input.entity, 3);
    assert_int_equal(rec.as.input.action, 6);
    assert_int_equal(fg_replay_reader_stats(r)->final_hash, 77);
    fg_replay_reader_destroy(r);
    remove(path);

    assert_int_equal(fg_replay_reader_create_file(path, NULL, &r, &err), FG_EIO);
    char want[256];
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    assert_string_equal(fg_error_message(&err), want);
    assert_null(r);
    /* A directory opens on some systems; reading it must fail cleanly, not size it by ftell. */
    assert_int_equal(fg_replay_reader_create_file(".", NULL, &r, &err), FG_EIO);
    assert_string_equal(fg_error_message(&err), ".: cannot read: Is a directory");

    /* A bad header does not create or truncate the file. */
    h.tick_rate = 0;
    assert_int_equal(fg_replay_writer_create_file(path, &h, NULL, &w, &err), FG_EINVAL);
    FILE *f = fopen(path, "rb");
    assert_null(f);
}

/* Rule: the record of a consumed edge carries what fg_buffer_push was given. */
static void input_record_of_an_edge_carries_what_was_pushed(void **state) {
    (void)state;
    uint8_t storage[1024];
    fg_buffer *b = (fg_buffer *)storage;
    assert_true(fg_buffer_size(8) <= sizeof storage);
    fg_error err = {0};
    expect_ok(fg_buffer_init(b, 8, 0, &err), &err);
    expect_ok(fg_buffer_push(b, FG_EDGE_DIR, 0, 3, 20000, 1, FG_SOURCE_AI, NULL, &err), &err);
    fg_tick_input ti;
    expect_ok(fg_buffer_consume_for_tick(b, 1, &ti, &err), &err);
    const fg_edge *e = fg_buffer_at(b, 0);
    fg_replay_input in = fg_replay_input_of_edge(12, e);
    assert_int_equal(in.entity, 12);
    assert_int_equal(in.tick, 1);
    assert_int_equal(in.time_us, 20000);
    assert_int_equal(in.kind, FG_EDGE_DIR);
    assert_int_equal(in.dir, 3);
    assert_int_equal(in.source, FG_SOURCE_AI);
}

/* Rule: the writer through a stdio stream writes the same bytes as through a sink. */
static void stream_writer_writes_the_same_bytes_as_a_sink(void **state) {
    (void)state;
    mem_sink m = {0};
    fg_replay_header h = basic_header();
    fg_replay_writer *w = open_mem(&m, &h, NULL);
    fg_error err = {0};
    expect_ok(fg_replay_write_command(w, (fg_replay_command){1, 2, 3}, &err), &err);
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    fg_replay_writer_destroy(w);

    FILE *f = tmpfile();
    assert_non_null(f);
    expect_ok(fg_replay_writer_create_stream(&h, f, NULL, &w, &err), &err);
    expect_ok(fg_replay_write_command(w, (fg_replay_command){1, 2, 3}, &err), &err);
    expect_ok(fg_replay_writer_finish(w, &err), &err);
    fg_replay_writer_destroy(w);
    long size = ftell(f);
    assert_int_equal(size, (long)m.n);
    uint8_t *got = malloc(m.n);
    rewind(f);
    assert_int_equal(fread(got, 1, m.n, f), m.n);
    assert_memory_equal(got, m.b, m.n);
    fclose(f);
    free(got);
    free(m.b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_record_type_round_trips_field_for_field),
        cmocka_unit_test(file_bytes_follow_the_documented_layout),
        cmocka_unit_test(appending_and_iterating_records_allocate_nothing),
        cmocka_unit_test(records_come_back_in_order_across_many_small_chunks),
        cmocka_unit_test(reload_larger_than_the_chunk_buffer_is_streamed_whole),
        cmocka_unit_test(writer_refuses_a_tick_that_goes_back_and_writes_nothing),
        cmocka_unit_test(writer_refuses_a_tick_before_the_start_tick),
        cmocka_unit_test(writer_refuses_input_fields_out_of_range),
        cmocka_unit_test(only_the_end_marker_may_follow_the_final_record),
        cmocka_unit_test(writer_refuses_a_bad_header_before_writing_or_allocating),
        cmocka_unit_test(writer_refuses_reload_files_with_repeated_or_empty_paths),
        cmocka_unit_test(a_failing_sink_stops_the_writer_with_its_message),
        cmocka_unit_test(ruleset_check_names_the_recorded_and_the_loaded_hash),
        cmocka_unit_test(rewind_restarts_at_the_first_record_after_the_header),
        cmocka_unit_test(peek_shows_the_next_record_without_taking_it),
        cmocka_unit_test(files_round_trip_and_a_missing_file_names_its_path),
        cmocka_unit_test(input_record_of_an_edge_carries_what_was_pushed),
        cmocka_unit_test(stream_writer_writes_the_same_bytes_as_a_sink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
