/* SPDX-License-Identifier: MIT */
/* test_replay_compat.c: what the reader does with files it did not expect: record types and
** fields from newer writers (skipped), shorter records from older ones (defaults), and every kind
** of damage (each with its message, never a crash, nothing left allocated).
**
** Files are built byte by byte here, following docs/replay-format.md, independently of the
** writer, so the tests also pin the documented layout. */
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {====================================================================== a byte builder */

typedef struct bld {
    uint8_t b[16384];
    size_t n;
    size_t chunk_at; /* start of the open chunk */
    uint32_t chunk_no;
    uint32_t nrec;
    size_t var_at; /* length field of the open variable record */
} bld;

static void put8(bld *b, unsigned v) {
    b->b[b->n++] = (uint8_t)v;
}
static void put16(bld *b, unsigned v) {
    put8(b, v & 0xff);
    put8(b, (v >> 8) & 0xff);
}
static void put32(bld *b, uint32_t v) {
    for (int i = 0; i < 4; i++) put8(b, (v >> (8 * i)) & 0xff);
}
static void put64(bld *b, uint64_t v) {
    for (int i = 0; i < 8; i++) put8(b, (unsigned)(v >> (8 * i)) & 0xff);
}
static void putstr(bld *b, const char *s) {
    put32(b, (uint32_t)strlen(s));
    for (const char *p = s; *p; p++) put8(b, (uint8_t)*p);
    put8(b, 0);
}
static void set32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

typedef struct entry {
    uint8_t type, flags;
    uint32_t size;
} entry;

/* The table a 1.0 writer declares. */
static const entry V1[] = {{1, 1, 28}, {2, 0, 24}, {3, 0, 16}, {4, 0, 16},
                           {5, 0, 16}, {6, 0, 16}, {7, 1, 24}, {8, 0, 8}};

static void preamble(bld *b, unsigned major, unsigned minor, const entry *e, size_t n) {
    static const uint8_t magic[8] = {0x89, 'F', 'G', 'R', '\r', '\n', 0x1a, '\n'};
    memset(b, 0, sizeof *b);
    for (int i = 0; i < 8; i++) put8(b, magic[i]);
    put16(b, major);
    put16(b, minor);
    put16(b, (unsigned)n);
    put16(b, 0);
    for (size_t i = 0; i < n; i++) {
        put8(b, e[i].type);
        put8(b, e[i].flags);
        put16(b, 0);
        put32(b, e[i].size);
    }
    put32(b, fg_crc32(0, b->b, b->n));
}
static void chunk_begin(bld *b) {
    b->chunk_at = b->n;
    b->nrec = 0;
    b->n += 16;
}
/* Closes the chunk; count_delta and len_delta forge a header that disagrees with the payload. */
static void chunk_end_forged(bld *b, int count_delta, int len_delta) {
    uint8_t *h = b->b + b->chunk_at;
    uint32_t len = (uint32_t)(b->n - b->chunk_at - 16);
    set32(h, (uint32_t)((int)len + len_delta));
    set32(h + 4, b->chunk_no++);
    set32(h + 8, (uint32_t)((int)b->nrec + count_delta));
    set32(h + 12, fg_crc32(0, h, 12));
    uint32_t payload = (uint32_t)((int)len + len_delta);
    put32(b, 0);
    b->n -= 4;
    uint32_t crc = fg_crc32(0, h + 16, payload);
    b->n = b->chunk_at + 16 + payload;
    put32(b, crc);
}
static void chunk_end(bld *b) {
    chunk_end_forged(b, 0, 0);
}
static void rec(bld *b, unsigned type) {
    put8(b, type);
    b->nrec++;
}
static void var_begin(bld *b, unsigned type) {
    rec(b, type);
    b->var_at = b->n;
    put32(b, 0);
}
static void var_end(bld *b) {
    set32(b->b + b->var_at, (uint32_t)(b->n - b->var_at - 4));
}
/* A 1.0 header record: 60 Hz, seed 9, start tick 0, ruleset 0x77, version "old". */
static void header_rec(bld *b) {
    var_begin(b, 1);
    put32(b, 60);
    put64(b, 9);
    put64(b, 0);
    put64(b, 0x77);
    putstr(b, "old");
    put32(b, 0);
    put32(b, 0);
    var_end(b);
}
static void input_rec(bld *b, int64_t tick, unsigned action) {
    rec(b, 2);
    put32(b, 1);
    put64(b, (uint64_t)tick);
    put64(b, (uint64_t)(tick * 16667));
    put8(b, 0);
    put8(b, action);
    put8(b, 5);
    put8(b, 0);
}
static void end_rec(bld *b, uint64_t count) {
    rec(b, 8);
    put64(b, count);
}
/* Preamble with the 1.0 table (84 bytes) and the header chunk (16 + 49 + 4): chunk 1 starts at
** byte 153, its first record at 169, a second input at 194. */
static void v1_start(bld *b) {
    preamble(b, 1, 0, V1, 8);
    chunk_begin(b);
    header_rec(b);
    chunk_end(b);
}

/* }====================================================================== */

/* {====================================================================== helpers */

typedef struct mem_sink {
    uint8_t *b;
    size_t n, cap;
} mem_sink;

static fg_status mem_write(void *ud, const void *data, size_t len, fg_error *err) {
    (void)err;
    mem_sink *m = ud;
    if (m->n + len > m->cap) {
        m->cap = (m->n + len) * 2;
        m->b = realloc(m->b, m->cap);
        assert_non_null(m->b);
    }
    memcpy(m->b + m->n, data, len);
    m->n += len;
    return FG_OK;
}

/* A writer-made replay: header, 10 inputs, a checkpoint, a reload, a final, in 64-byte chunks. */
static void sample(mem_sink *m, bool finish) {
    fg_replay_header h;
    memset(&h, 0, sizeof h);
    h.runtime_version = fg_replay_str_of("test");
    h.tick_rate = 60;
    fg_replay_write_options opt = {NULL, 64};
    fg_replay_writer *w = NULL;
    fg_error err = {0};
    assert_int_equal(fg_replay_writer_create_sink(&h, mem_write, m, &opt, &w, &err), FG_OK);
    for (int t = 0; t < 10; t++) {
        fg_replay_input in = {0, t, t * 16667, (uint8_t)(t % 2), 4, 5, 0};
        assert_int_equal(fg_replay_write_input(w, in, &err), FG_OK);
    }
    assert_int_equal(fg_replay_write_checkpoint(w, 10, 0xabc, &err), FG_OK);
    fg_replay_file f = {fg_replay_str_of("a.lua"), fg_replay_str_of("return 1")};
    fg_replay_reload rl = {11, 1, 2, 1, &f};
    assert_int_equal(fg_replay_write_reload(w, &rl, &err), FG_OK);
    assert_int_equal(fg_replay_write_final(w, 12, 0xdef, &err), FG_OK);
    if (finish) assert_int_equal(fg_replay_writer_finish(w, &err), FG_OK);
    else assert_int_equal(fg_replay_writer_flush(w, &err), FG_OK);
    fg_replay_writer_destroy(w);
}

/* Opens with a counting allocator and closes again; checks that nothing stays allocated. */
static fg_status try_open(const uint8_t *data, size_t n, uint32_t flags, fg_error *err) {
    fg_counting_allocator c;
    fg_allocator a = fg_test_counting_allocator(&c);
    fg_replay_read_options opt = {&a, "replay", flags};
    fg_replay_reader *r = (fg_replay_reader *)&c; /* must come back NULL on failure */
    fg_status st = fg_replay_reader_create_memory(data, n, &opt, &r, err);
    if (st != FG_OK) assert_null(r);
    fg_replay_reader_destroy(r);
    assert_int_equal(c.live_bytes, 0);
    return st;
}

static void expect_error(const uint8_t *data, size_t n, fg_status code, const char *msg) {
    fg_error err = {0};
    fg_status st = try_open(data, n, 0, &err);
    if (st != code) fail_msg("status %s, expected %s: %s", fg_status_name(st), fg_status_name(code),
                             fg_error_message(&err));
    assert_string_equal(fg_error_message(&err), msg);
}

static fg_replay_reader *open_ok(const uint8_t *data, size_t n, uint32_t flags) {
    fg_error err = {0};
    fg_replay_reader *r = NULL;
    fg_replay_read_options opt = {NULL, NULL, flags};
    if (fg_replay_reader_create_memory(data, n, &opt, &r, &err) != FG_OK)
        fail_msg("open: %s", fg_error_message(&err));
    return r;
}

static fg_replay_record next_rec(fg_replay_reader *r) {
    fg_replay_record rec;
    fg_error err = {0};
    if (fg_replay_next(r, &rec, &err) != FG_OK) fail_msg("next: %s", fg_error_message(&err));
    return rec;
}

/* }====================================================================== */

/* {====================================================================== newer, older writers */

/* Rule: record types the reader does not know are skipped (by the size the table declares) and
** counted; the known records around them read normally. */
static void unknown_record_types_are_skipped_and_counted(void **state) {
    (void)state;
    entry table[10];
    memcpy(table, V1, sizeof V1);
    table[8] = (entry){200, 0, 12};
    table[9] = (entry){201, 1, 4};
    bld b;
    preamble(&b, 1, 3, table, 10);
    chunk_begin(&b);
    header_rec(&b);
    chunk_end(&b);
    chunk_begin(&b);
    input_rec(&b, 1, 4);
    rec(&b, 200);
    for (int i = 0; i < 12; i++) put8(&b, 0xee);
    var_begin(&b, 201);
    put32(&b, 0xeeeeeeee);
    for (int i = 0; i < 6; i++) put8(&b, 0xee);
    var_end(&b);
    rec(&b, 4);
    put64(&b, 2);
    put64(&b, 0x99);
    rec(&b, 200);
    for (int i = 0; i < 12; i++) put8(&b, 0xee);
    end_rec(&b, 6);
    chunk_end(&b);

    fg_replay_reader *r = open_ok(b.b, b.n, 0);
    fg_replay_record x = next_rec(r);
    assert_int_equal(x.type, FG_REPLAY_INPUT);
    assert_int_equal(x.as.input.tick, 1);
    x = next_rec(r);
    assert_int_equal(x.type, FG_REPLAY_CHECKPOINT);
    assert_int_equal(x.index, 4); /* records 2 and 3 were the unknown ones */
    assert_int_equal(x.as.checkpoint.hash, 0x99);
    assert_int_equal(next_rec(r).type, FG_REPLAY_END);
    const fg_replay_stats *s = fg_replay_reader_stats(r);
    assert_int_equal(s->unknown, 3);
    assert_int_equal(s->skipped_bytes, 13 + 15 + 13);
    assert_int_equal(s->records, 7);
    assert_int_equal(s->version_minor, 3);
    fg_replay_reader_destroy(r);
}

/* Rule: a record a newer writer made longer (fixed fields appended, tail fields appended) is read
** as the prefix this reader knows; the rest is skipped. */
static void longer_records_from_a_newer_writer_read_as_their_known_prefix(void **state) {
    (void)state;
    entry table[8];
    memcpy(table, V1, sizeof V1);
    table[0].size = 36; /* header +8 */
    table[1].size = 30; /* input +6 */
    table[3].size = 20; /* checkpoint +4 */
    table[6].size = 28; /* reload +4 */
    bld b;
    preamble(&b, 1, 9, table, 8);
    chunk_begin(&b);
    var_begin(&b, 1);
    put32(&b, 120);
    put64(&b, 5);
    put64(&b, 0);
    put64(&b, 0x77);
    put64(&b, 0xeeeeeeeeeeeeeeeeull); /* a newer fixed field */
    putstr(&b, "2.0");
    put32(&b, 0);
    put32(&b, 1);
    putstr(&b, "k");
    putstr(&b, "v");
    put8(&b, 0xee); /* a newer tail field */
    put8(&b, 0xee);
    put8(&b, 0xee);
    var_end(&b);
    chunk_end(&b);
    chunk_begin(&b);
    input_rec(&b, 3, 7);
    for (int i = 0; i < 6; i++) put8(&b, 0xee);
    rec(&b, 4);
    put64(&b, 4);
    put64(&b, 0x1234);
    put32(&b, 0xeeeeeeee);
    var_begin(&b, 7);
    put64(&b, 5);
    put64(&b, 0x77);
    put64(&b, 0x88);
    put32(&b, 0xeeeeeeee);
    put32(&b, 1);
    putstr(&b, "r.lua");
    putstr(&b, "return 2");
    for (int i = 0; i < 5; i++) put8(&b, 0xee);
    var_end(&b);
    end_rec(&b, 4);
    chunk_end(&b);

    fg_replay_reader *r = open_ok(b.b, b.n, 0);
    const fg_replay_header *h = fg_replay_reader_header(r);
    assert_int_equal(h->tick_rate, 120);
    assert_int_equal(h->ruleset_hash, 0x77);
    assert_string_equal(h->runtime_version.s, "2.0");
    assert_int_equal(h->nmeta, 1);
    assert_string_equal(h->meta[0].value.s, "v");
    fg_replay_record x = next_rec(r);
    assert_int_equal(x.as.input.tick, 3);
    assert_int_equal(x.as.input.action, 7);
    assert_int_equal(x.as.input.dir, 5);
    x = next_rec(r);
    assert_int_equal(x.as.checkpoint.hash, 0x1234);
    x = next_rec(r);
    assert_int_equal(x.type, FG_REPLAY_RELOAD);
    assert_int_equal(x.as.reload.new_hash, 0x88);
    assert_int_equal(x.as.reload.nfiles, 1);
    assert_string_equal(x.as.reload.files[0].text.s, "return 2");
    assert_int_equal(next_rec(r).type, FG_REPLAY_END);
    assert_int_equal(fg_replay_reader_stats(r)->skipped_bytes, 8 + 3 + 6 + 4 + 4 + 5);
    assert_int_equal(fg_replay_reader_stats(r)->unknown, 0);
    fg_replay_reader_destroy(r);
}

/* Rule: a record an older writer made shorter gets the documented defaults for the fields it
** lacks: zero, except input.dir = 5 (neutral) and header.tick_rate = 60. */
static void shorter_records_from_an_older_writer_get_the_documented_defaults(void **state) {
    (void)state;
    entry table[8];
    memcpy(table, V1, sizeof V1);
    table[0].size = 0;  /* header: no fixed fields */
    table[1].size = 12; /* input: entity and tick */
    table[6].size = 8;  /* reload: tick */
    bld b;
    preamble(&b, 1, 0, table, 8);
    chunk_begin(&b);
    var_begin(&b, 1);
    putstr(&b, "0.1");
    put32(&b, 0);
    put32(&b, 0);
    var_end(&b);
    chunk_end(&b);
    chunk_begin(&b);
    rec(&b, 2);
    put32(&b, 6);
    put64(&b, 2);
    var_begin(&b, 7);
    put64(&b, 3);
    put32(&b, 0);
    var_end(&b);
    end_rec(&b, 3);
    chunk_end(&b);

    fg_replay_reader *r = open_ok(b.b, b.n, 0);
    const fg_replay_header *h = fg_replay_reader_header(r);
    assert_int_equal(h->tick_rate, 60);
    assert_int_equal(h->seed, 0);
    assert_int_equal(h->ruleset_hash, 0);
    fg_replay_record x = next_rec(r);
    assert_int_equal(x.as.input.entity, 6);
    assert_int_equal(x.as.input.tick, 2);
    assert_int_equal(x.as.input.time_us, 0);
    assert_int_equal(x.as.input.kind, FG_EDGE_PRESS);
    assert_int_equal(x.as.input.action, 0);
    assert_int_equal(x.as.input.dir, 5);
    assert_int_equal(x.as.input.source, FG_SOURCE_DEVICE);
    x = next_rec(r);
    assert_int_equal(x.as.reload.tick, 3);
    assert_int_equal(x.as.reload.old_hash, 0);
    assert_int_equal(x.as.reload.nfiles, 0);
    fg_replay_reader_destroy(r);
}

/* Rule: a newer minor version opens; a newer major version is refused, naming both versions,
** and so is a major version below 1. */
static void newer_major_versions_are_refused_and_newer_minors_read(void **state) {
    (void)state;
    bld b;
    v1_start(&b);
    chunk_begin(&b);
    end_rec(&b, 1);
    chunk_end(&b);
    b.b[10] = 7; /* minor 7: the table CRC must be redone */
    set32(b.b + 80, fg_crc32(0, b.b, 80));
    fg_replay_reader *r = open_ok(b.b, b.n, 0);
    assert_int_equal(fg_replay_reader_stats(r)->version_minor, 7);
    fg_replay_reader_destroy(r);
    b.b[8] = 2;
    set32(b.b + 80, fg_crc32(0, b.b, 80));
    expect_error(b.b, b.n, FG_EMISMATCH,
                 "replay: format version 2.7 is newer than this reader (1.x); read it with a "
                 "newer framegate");
    b.b[8] = 0;
    b.b[10] = 3;
    expect_error(b.b, b.n, FG_EMISMATCH,
                 "replay: format version 0.3 is not one this reader knows (expected 1.x)");
}

/* }====================================================================== */

/* {====================================================================== the record table */

/* Rule: record table errors name the entry, its byte and what is wrong with it. */
static void record_table_errors_name_the_entry_and_its_byte(void **state) {
    (void)state;
    struct {
        int at;
        entry e;
        const char *msg;
    } cases[] = {
        {3, {0, 0, 8},
         "replay: record table entry 3 at byte 40: type 0 (type ids start at 1)"},
        {3, {2, 0, 24},
         "replay: record table entry 3 at byte 40: type 2 (input) is declared twice"},
        {1, {2, 0x02, 24},
         "replay: record table entry 1 at byte 24: type 2 has flags 0x02, this reader knows only "
         "0x01 (variable size)"},
        {1, {2, 1, 24},
         "replay: record table entry 1 at byte 24: type 2 (input) is declared variable-size, "
         "expected fixed-size"},
        {1, {2, 0, 10},
         "replay: record table entry 1 at byte 24: type 2 (input) declares 10 bytes, which splits "
         "a field"},
        {7, {9, 0, 8}, "replay: the record table does not declare the end record type"},
        {0, {9, 0, 8}, "replay: the record table does not declare the header record type"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        entry table[8];
        memcpy(table, V1, sizeof V1);
        table[cases[i].at] = cases[i].e;
        bld b;
        preamble(&b, 1, 0, table, 8);
        expect_error(b.b, b.n, FG_EFORMAT, cases[i].msg);
    }
    bld b;
    preamble(&b, 1, 0, V1, 0);
    expect_error(b.b, b.n, FG_EFORMAT,
                 "replay: record table at byte 16 declares 0 types (expected 1..255)");
}

/* }====================================================================== */

/* {====================================================================== damage */

/* Rule: wrong magic names the bytes found and the bytes expected. */
static void wrong_magic_names_the_bytes_found(void **state) {
    (void)state;
    static const uint8_t zip[20] = {0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0};
    expect_error(zip, sizeof zip, FG_EFORMAT,
                 "replay: not a framegate replay (bytes 0..7 are [50 4b 03 04 14 00 00 00], "
                 "expected [89 46 47 52 0d 0a 1a 0a])");
    static const char text[] = "-- lua";
    expect_error((const uint8_t *)text, 6, FG_EFORMAT,
                 "replay: not a framegate replay (bytes 0..7 are [2d 2d 20 6c 75 61], expected [89 "
                 "46 47 52 0d 0a 1a 0a])");
}

/* Rule: a file cut at any byte is refused (never read past its end), and each place of the cut
** says what is missing; nothing stays allocated. */
static void every_truncation_is_refused_and_says_what_is_missing(void **state) {
    (void)state;
    mem_sink m = {0};
    sample(&m, true);
    for (size_t cut = 0; cut < m.n; cut++) {
        /* A copy of exactly cut bytes, so ASan sees any read past the end. */
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, m.b, cut);
        fg_error err = {0};
        fg_status st = try_open(copy, cut, 0, &err);
        free(copy);
        if (st != FG_EFORMAT) fail_msg("cut at %zu: %s (%s)", cut, fg_status_name(st), fg_error_message(&err));
    }
    expect_error(m.b, 0, FG_EFORMAT,
                 "replay: truncated: 0 bytes, the file header alone is 16 bytes");
    expect_error(m.b, 10, FG_EFORMAT,
                 "replay: truncated: 10 bytes, the file header alone is 16 bytes");
    expect_error(m.b, 50, FG_EFORMAT,
                 "replay: truncated: the record table of 8 types needs bytes 16..84, the file has "
                 "50 bytes");
    /* The header chunk (byte 84) is 16 + 50 + 4 bytes: chunk 1 starts at 154. */
    expect_error(m.b, 154, FG_EFORMAT,
                 "replay: ends at byte 154 after chunk 0 without an end marker (the recording was "
                 "cut short)");
    expect_error(m.b, 160, FG_EFORMAT,
                 "replay: chunk 1 at byte 154: truncated: 6 bytes left, a chunk header is 16");
    expect_error(m.b, 200, FG_EFORMAT,
                 "replay: chunk 1 at byte 154: truncated: its header announces 50 payload bytes "
                 "and a CRC, 30 bytes remain");
    free(m.b);
}

/* Rule: flipping any single bit anywhere in a file is detected: magic, version, table, chunk
** headers, payloads and CRCs are all covered. */
static void every_single_bit_flip_is_detected(void **state) {
    (void)state;
    mem_sink m = {0};
    sample(&m, true);
    for (size_t i = 0; i < m.n; i++) {
        for (int bit = 0; bit < 8; bit++) {
            m.b[i] ^= (uint8_t)(1u << bit);
            fg_error err = {0};
            fg_status st = try_open(m.b, m.n, 0, &err);
            m.b[i] ^= (uint8_t)(1u << bit);
            if (st == FG_OK) fail_msg("flipping bit %d of byte %zu went unnoticed", bit, i);
        }
    }
    free(m.b);
}

/* Rule: a payload CRC mismatch names the chunk, its byte and both CRCs. */
static void a_chunk_crc_mismatch_names_the_chunk_and_both_crcs(void **state) {
    (void)state;
    mem_sink m = {0};
    sample(&m, true);
    m.b[154 + 16 + 3] ^= 0x40; /* inside chunk 1's first record */
    uint32_t stored = get32(m.b + 154 + 16 + 50);
    uint32_t computed = fg_crc32(0, m.b + 154 + 16, 50);
    char want[256];
    snprintf(want, sizeof want,
             "replay: chunk 1 at byte 154: CRC mismatch (stored 0x%08x, computed 0x%08x)",
             (unsigned)stored, (unsigned)computed);
    expect_error(m.b, m.n, FG_EFORMAT, want);
    m.b[154 + 16 + 3] ^= 0x40;

    m.b[154] ^= 0x01; /* the chunk's length field */
    stored = get32(m.b + 154 + 12);
    computed = fg_crc32(0, m.b + 154, 12);
    snprintf(want, sizeof want,
             "replay: chunk 1 at byte 154: header CRC mismatch (stored 0x%08x, computed 0x%08x)",
             (unsigned)stored, (unsigned)computed);
    expect_error(m.b, m.n, FG_EFORMAT, want);
    m.b[154] ^= 0x01;

    m.b[30] ^= 0x01; /* the record table */
    stored = get32(m.b + 80);
    computed = fg_crc32(0, m.b, 80);
    snprintf(want, sizeof want,
             "replay: file header and record table (bytes 0..80): CRC mismatch (stored 0x%08x, "
             "computed 0x%08x)",
             (unsigned)stored, (unsigned)computed);
    expect_error(m.b, m.n, FG_EFORMAT, want);
    free(m.b);
}

/* Rule: a chunk that is missing or out of place is named by the index found and expected. */
static void a_missing_chunk_is_named_by_its_index(void **state) {
    (void)state;
    mem_sink m = {0};
    sample(&m, true);
    /* chunks 1 and 2 hold two inputs each (16 + 50 + 4 bytes); drop chunk 2 at byte 224 */
    memmove(m.b + 224, m.b + 294, m.n - 294);
    m.n -= 70;
    expect_error(m.b, m.n, FG_EFORMAT,
                 "replay: chunk 2 at byte 224: its index is 3, expected 2 (a chunk is missing, "
                 "repeated or out of order)");
    free(m.b);
}

/* Rule: a record that runs past the end of its chunk is reported with its size and the chunk's
** end, even when every CRC is right. */
static void a_record_longer_than_its_chunk_is_reported(void **state) {
    (void)state;
    bld b;
    v1_start(&b);
    chunk_begin(&b);
    input_rec(&b, 1, 4);
    input_rec(&b, 2, 4);
    chunk_end_forged(&b, 0, -10); /* the chunk claims 10 bytes less than its records need */
    expect_error(b.b, b.n, FG_EFORMAT,
                 "replay: record 2 (input, 25 bytes) at byte 194 runs 10 bytes past the end of "
                 "chunk 1 (byte 209)");
}

/* Rule: a variable record's body must hold at least the fixed part its table entry declares. */
static void a_variable_body_shorter_than_its_fixed_part_is_reported(void **state) {
    (void)state;
    bld b;
    v1_start(&b);
    chunk_begin(&b);
    var_begin(&b, 7);
    put64(&b, 1);
    put16(&b, 0);
    var_end(&b); /* a body of 10 bytes, where the reload's fixed part is 24 */
    end_rec(&b, 2);
    chunk_end(&b);
    expect_error(b.b, b.n, FG_EFORMAT,
                 "replay: record 1 (reload) at byte 169: body of 10 bytes is shorter than its "
                 "declared fixed part (24 bytes)");
}

/* Rule: the record count in a chunk header must match its payload, both ways. */
static void a_chunk_record_count_that_disagrees_is_reported(void **state) {
    (void)state;
    bld b;
    v1_start(&b);
    chunk_begin(&b);
    input_rec(&b, 1, 4);
    end_rec(&b, 2);
    chunk_end_forged(&b, 1, 0);
    expect_error(b.b, b.n, FG_EFORMAT,
                 "replay: chunk 1 at byte 153: its header announces 3 record(s), the payload "
                 "holds 2");
    v1_start(&b);
    chunk_begin(&b);
    input_rec(&b, 1, 4);
    end_rec(&b, 2);
    chunk_end_forged(&b, -1, 0);
    expect_error(b.b, b.n, FG_EFORMAT,
                 "replay: chunk 1 at byte 153: its header announces 1 record(s), the payload holds "
                 "more (the next at byte 194)");
}

/* Rule: a file without an end marker is an error, unless read partially: then every complete
** chunk is read, and the end comes back marked truncated. */
static void a_missing_end_marker_is_an_error_unless_read_partially(void **state) {
    (void)state;
    mem_sink m = {0};
    sample(&m, false);
    char want[256];
    fg_replay_reader *r = open_ok(m.b, m.n, FG_REPLAY_READ_PARTIAL);
    snprintf(want, sizeof want,
             "replay: ends at byte %zu after chunk %llu without an end marker (the recording was "
             "cut short)",
             m.n, (unsigned long long)fg_replay_reader_stats(r)->chunks - 1);
    expect_error(m.b, m.n, FG_EFORMAT, want);
    int inputs = 0;
    fg_replay_record x;
    do {
        x = next_rec(r);
        inputs += x.type == FG_REPLAY_INPUT;
    } while (x.type != FG_REPLAY_END);
    assert_int_equal(inputs, 10);
    assert_true(x.as.end.truncated);
    assert_int_equal(x.as.end.records, 14); /* header, 10 inputs, checkpoint, reload, final */
    const fg_replay_stats *s = fg_replay_reader_stats(r);
    assert_false(s->complete);
    assert_true(s->has_final);
    assert_int_equal(s->valid_bytes, m.n);
    fg_replay_reader_destroy(r);

    /* Cut inside chunk 3 (two inputs each from byte 154): chunks 1 and 2 are recovered. */
    r = open_ok(m.b, 300, FG_REPLAY_READ_PARTIAL);
    inputs = 0;
    do {
        x = next_rec(r);
        inputs += x.type == FG_REPLAY_INPUT;
    } while (x.type != FG_REPLAY_END);
    assert_int_equal(inputs, 4);
    assert_int_equal(fg_replay_reader_stats(r)->valid_bytes, 294);
    fg_replay_reader_destroy(r);

    /* Partial reading still refuses damage. */
    m.b[154 + 20] ^= 1;
    fg_error err = {0};
    assert_int_equal(try_open(m.b, m.n, FG_REPLAY_READ_PARTIAL, &err), FG_EFORMAT);
    assert_non_null(strstr(fg_error_message(&err), "chunk 1 at byte 154: CRC mismatch"));
    free(m.b);
}

/* Rule: nothing may follow the end marker, and the end marker's count must match the file. */
static void bytes_after_the_end_marker_and_a_wrong_count_are_reported(void **state) {
    (void)state;
    mem_sink m = {0};
    sample(&m, true);
    size_t n = m.n;
    uint8_t *b = malloc(n + 3);
    memcpy(b, m.b, n);
    memset(b + n, 0, 3);
    char want[256];
    snprintf(want, sizeof want,
             "replay: 3 bytes follow the end marker (at byte %zu); the file should end at byte %zu",
             n - 4 - 9, n);
    expect_error(b, n + 3, FG_EFORMAT, want);
    free(b);
    free(m.b);

    bld k;
    v1_start(&k);
    chunk_begin(&k);
    input_rec(&k, 1, 4);
    end_rec(&k, 5);
    chunk_end(&k);
    expect_error(k.b, k.n, FG_EFORMAT,
                 "replay: end marker at byte 194 counts 5 records before it, the file holds 2");

    v1_start(&k);
    chunk_begin(&k);
    input_rec(&k, 1, 4);
    end_rec(&k, 2);
    input_rec(&k, 2, 4);
    chunk_end(&k);
    expect_error(k.b, k.n, FG_EFORMAT,
                 "replay: end marker at byte 194 is not the last record of chunk 1");
}

/* Rule: a record whose type the table does not declare cannot be skipped: it is an error. */
static void an_undeclared_record_type_is_reported(void **state) {
    (void)state;
    bld b;
    v1_start(&b);
    chunk_begin(&b);
    input_rec(&b, 1, 4);
    rec(&b, 99);
    end_rec(&b, 3);
    chunk_end(&b);
    expect_error(b.b, b.n, FG_EFORMAT,
                 "replay: record 2 at byte 194 has type 99, which the record table does not "
                 "declare");
}

/* Rule: the reader applies the writer's rules: tick order, field ranges, one header first,
** distinct reload paths, terminated strings. */
static void records_breaking_the_writer_rules_are_refused_with_their_byte(void **state) {
    (void)state;
    bld b;
    v1_start(&b);
    chunk_begin(&b);
    input_rec(&b, 5, 4);
    input_rec(&b, 4, 4);
    end_rec(&b, 3);
    chunk_end(&b);
    expect_error(b.b, b.n, FG_EFORMAT,
                 "replay: record 2 at byte 194: input.tick 4 is before the previous record's "
                 "tick 5 (records go in tick order)");

    v1_start(&b);
    chunk_begin(&b);
    input_rec(&b, 5, 40);
    end_rec(&b, 2);
    chunk_end(&b);
    expect_error(b.b, b.n, FG_EFORMAT,
                 "replay: record 1 at byte 169: input.action 40 is out of range (expected 0..31)");

    v1_start(&b);
    chunk_begin(&b);
    header_rec(&b);
    end_rec(&b, 2);
    chunk_end(&b);
    expect_error(b.b, b.n, FG_EFORMAT, "replay: record 1 at byte 169 is a second header");

    preamble(&b, 1, 0, V1, 8);
    chunk_begin(&b);
    input_rec(&b, 5, 4);
    chunk_end(&b);
    expect_error(b.b, b.n, FG_EFORMAT,
                 "replay: record 0 at byte 100 is input, expected the header");

    v1_start(&b);
    chunk_begin(&b);
    var_begin(&b, 7);
    put64(&b, 1);
    put64(&b, 2);
    put64(&b, 3);
    put32(&b, 2);
    putstr(&b, "a.lua");
    putstr(&b, "x");
    putstr(&b, "a.lua");
    putstr(&b, "y");
    var_end(&b);
    end_rec(&b, 2);
    chunk_end(&b);
    expect_error(b.b, b.n, FG_EFORMAT,
                 "replay: path at byte 218: reload.files[1].path \"a.lua\" repeats files[0]");

    preamble(&b, 1, 0, V1, 8);
    chunk_begin(&b);
    header_rec(&b);
    chunk_end(&b);
    b.b[100 + 5 + 28 + 4 + 3] = 'x'; /* the '\0' after "old" */
    set32(b.b + 100 + 49, fg_crc32(0, b.b + 100, 49));
    expect_error(b.b, b.n, FG_EFORMAT,
                 "replay: header.runtime_version at byte 133: not terminated by a '\\0' byte");
}

/* Rule: counts read from a file are bounded by the bytes that must back them before anything
** is allocated: a header claiming four billion metadata pairs allocates nothing for them. */
static void absurd_counts_are_refused_before_allocating(void **state) {
    (void)state;
    bld b;
    preamble(&b, 1, 0, V1, 8);
    chunk_begin(&b);
    var_begin(&b, 1);
    put32(&b, 60);
    put64(&b, 0);
    put64(&b, 0);
    put64(&b, 0);
    putstr(&b, "x");
    put32(&b, 0);
    put32(&b, 0xffffffffu);
    var_end(&b);
    chunk_end(&b);
    fg_counting_allocator c;
    fg_allocator a = fg_test_counting_allocator(&c);
    fg_replay_read_options opt = {&a, NULL, 0};
    fg_replay_reader *r = NULL;
    fg_error err = {0};
    assert_int_equal(fg_replay_reader_create_memory(b.b, b.n, &opt, &r, &err), FG_EFORMAT);
    assert_string_equal(fg_error_message(&err), "replay: header.meta at byte 143: 4294967295 entries do not fit "
                                 "(at most 1024, 0 bytes left)");
    assert_true(c.peak_bytes < 4096 + sizeof(fg_replay_stats));
    assert_int_equal(c.live_bytes, 0);
}

/* }====================================================================== */

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unknown_record_types_are_skipped_and_counted),
        cmocka_unit_test(longer_records_from_a_newer_writer_read_as_their_known_prefix),
        cmocka_unit_test(shorter_records_from_an_older_writer_get_the_documented_defaults),
        cmocka_unit_test(newer_major_versions_are_refused_and_newer_minors_read),
        cmocka_unit_test(record_table_errors_name_the_entry_and_its_byte),
        cmocka_unit_test(wrong_magic_names_the_bytes_found),
        cmocka_unit_test(every_truncation_is_refused_and_says_what_is_missing),
        cmocka_unit_test(every_single_bit_flip_is_detected),
        cmocka_unit_test(a_chunk_crc_mismatch_names_the_chunk_and_both_crcs),
        cmocka_unit_test(a_missing_chunk_is_named_by_its_index),
        cmocka_unit_test(a_record_longer_than_its_chunk_is_reported),
        cmocka_unit_test(a_chunk_record_count_that_disagrees_is_reported),
        cmocka_unit_test(a_variable_body_shorter_than_its_fixed_part_is_reported),
        cmocka_unit_test(a_missing_end_marker_is_an_error_unless_read_partially),
        cmocka_unit_test(bytes_after_the_end_marker_and_a_wrong_count_are_reported),
        cmocka_unit_test(an_undeclared_record_type_is_reported),
        cmocka_unit_test(records_breaking_the_writer_rules_are_refused_with_their_byte),
        cmocka_unit_test(absurd_counts_are_refused_before_allocating),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
