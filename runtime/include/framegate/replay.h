/* SPDX-License-Identifier: MIT */
/*
** framegate/replay.h: replays. A versioned, chunked binary format (docs/replay-format.md) that
** records everything a world needs to re-simulate a session tick for tick: the header (runtime
** version, tick rate, seed, ruleset hashes, start tick, metadata), per-tick input edges, commands,
** hash checkpoints, clamped time, hot reloads with the new source embedded, and the final hash.
**
** The file opens with a table of record types and their sizes, so a reader skips record types it
** does not know and reads only the prefix it knows of a record a newer writer made longer. Records
** are grouped in chunks, each with a CRC-32. Integers are little-endian and packed field by field.
**
** The writer encodes into one fixed-size chunk buffer allocated at open and hands full chunks to a
** sink, so appending a record never allocates. The reader checks the whole file when it opens it
** (framing, CRCs, record sizes, order, field ranges), so a reader that opened iterates to the end
** without failing; every damage is reported with the byte offset or the values that disagree.
*/
#ifndef FRAMEGATE_REPLAY_H
#define FRAMEGATE_REPLAY_H

#include <stdio.h>

#include "framegate/base.h"
#include "framegate/input.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {====================================================================== format constants */

/* Major changes break old readers (they refuse the file); minor changes only add record types or
** append fields, which old readers skip. */
#define FG_REPLAY_VERSION_MAJOR 1u
#define FG_REPLAY_VERSION_MINOR 0u

#define FG_REPLAY_MAGIC_SIZE 8
/* Default and bounds of the writer's chunk payload buffer, in bytes. */
#define FG_REPLAY_CHUNK_DEFAULT 8192u
#define FG_REPLAY_CHUNK_MIN 64u
#define FG_REPLAY_CHUNK_MAX (16u * 1024u * 1024u)
/* Ticks a replay may span after its start tick (77 hours at 60 Hz): replaying costs a tick's work
** per tick, so a final record far out would hold a replayer for good. And the largest start tick
** either way (2^40, 580 years at 60 Hz), which keeps every tick sum exact. */
#define FG_REPLAY_MAX_SPAN (1u << 24)
#define FG_REPLAY_MAX_START ((int64_t)1 << 40)

/* Record type ids. 0 is never a record; ids above FG_REPLAY_END_ are unknown to this reader and
** skipped when a file declares them. */
typedef enum fg_replay_type {
    FG_REPLAY_HEADER = 1,     /* first record of the file (read at open, not by fg_replay_next) */
    FG_REPLAY_INPUT = 2,      /* one input edge of one entity */
    FG_REPLAY_COMMAND = 3,    /* one semantic command of one entity */
    FG_REPLAY_CHECKPOINT = 4, /* the state hash after a tick */
    FG_REPLAY_FINAL = 5,      /* the last tick and its state hash */
    FG_REPLAY_CLAMP = 6,      /* real time the host loop clamped off (slowdown) */
    FG_REPLAY_RELOAD = 7,     /* a hot reload, with the new ruleset source embedded */
    FG_REPLAY_END = 8         /* end marker: the last record of a complete file */
} fg_replay_type;
#define FG_REPLAY_TYPE_COUNT 9 /* one past the highest known id */

/* "input", "reload", ...; "unknown" for anything else. */
FG_API const char *fg_replay_type_name(int type);

/* }====================================================================== */

/* {====================================================================== records */

/* A string inside a record. Written from (s, len); read back pointing into the reader's bytes,
** always followed by a '\0' (so s is a C string when it has no embedded '\0'). */
typedef struct fg_replay_str {
    const char *s;
    uint32_t len;
} fg_replay_str;

/* Wraps a C string (NULL gives the empty string). */
FG_API fg_replay_str fg_replay_str_of(const char *s);

/* One key/value pair of free-form metadata ("ruleset" = "samples/ryu/rules.lua"). */
typedef struct fg_replay_meta {
    fg_replay_str key;
    fg_replay_str value;
} fg_replay_meta;

/* A named content hash (one ruleset file, one data bundle). */
typedef struct fg_replay_named_hash {
    fg_replay_str name;
    uint64_t hash;
} fg_replay_named_hash;

/* The header: what a world must match before it re-simulates. When writing, arrays and strings
** are the caller's and are copied into the file; when reading, they belong to the reader. */
typedef struct fg_replay_header {
    fg_replay_str runtime_version; /* empty when writing: fg_version() is recorded */
    uint32_t tick_rate;            /* 1..FG_TICK_RATE_MAX */
    uint64_t seed;
    fg_tick start_tick;     /* no record has an earlier tick */
    uint64_t ruleset_hash;  /* content hash of the ruleset loaded at start_tick */
    uint32_t nhashes;       /* optional per-file content hashes */
    const fg_replay_named_hash *hashes;
    uint32_t nmeta;         /* keys non-empty and distinct */
    const fg_replay_meta *meta;
} fg_replay_header;

/* An input edge as the world pushed it (fg_buffer_push's arguments plus the entity). */
typedef struct fg_replay_input {
    uint32_t entity;
    fg_tick tick;
    int64_t time_us;
    uint8_t kind;   /* fg_edge_kind */
    uint8_t action; /* 0..FG_INPUT_MAX_ACTIONS-1 */
    uint8_t dir;    /* absolute numpad 1..9 */
    uint8_t source; /* fg_source */
} fg_replay_input;

/* The record of an edge the world consumed for its tick. */
FG_API fg_replay_input fg_replay_input_of_edge(uint32_t entity, const fg_edge *e);

typedef struct fg_replay_command {
    uint32_t entity;
    fg_tick tick;
    uint32_t motion; /* motion (command) id */
} fg_replay_command;

typedef struct fg_replay_checkpoint {
    fg_tick tick;
    uint64_t hash;
} fg_replay_checkpoint;

typedef struct fg_replay_clamp {
    fg_tick tick;
    int64_t clamped_us; /* >= 0 */
} fg_replay_clamp;

/* One file of an embedded ruleset. */
typedef struct fg_replay_file {
    fg_replay_str path; /* non-empty, no '\0' */
    fg_replay_str text; /* any bytes */
} fg_replay_file;

typedef struct fg_replay_reload {
    fg_tick tick; /* the tick boundary at which the new rules took over */
    uint64_t old_hash;
    uint64_t new_hash;
    uint32_t nfiles;
    const fg_replay_file *files; /* when read: valid until the next fg_replay_next */
} fg_replay_reload;

typedef struct fg_replay_end {
    uint64_t records;  /* records before the end marker, the header included */
    bool truncated;    /* partial read only: the file stopped here without an end marker */
} fg_replay_end;

/* One record as fg_replay_next returns it. */
typedef struct fg_replay_record {
    fg_replay_type type;
    uint64_t offset; /* byte offset of the record in the file */
    uint64_t index;  /* record number: 0 is the header */
    union {
        fg_replay_input input;
        fg_replay_command command;
        fg_replay_checkpoint checkpoint;
        fg_replay_checkpoint final; /* same layout as a checkpoint */
        fg_replay_clamp clamp;
        fg_replay_reload reload;
        fg_replay_end end;
    } as;
} fg_replay_record;

/* }====================================================================== */

/* {====================================================================== writer */

/* Receives the encoded bytes in order. Returns FG_OK, or an error (with a message) that makes
** the writer refuse everything after it: part of a chunk may have reached the file. */
typedef fg_status (*fg_replay_sink_fn)(void *ud, const void *data, size_t len, fg_error *err);

typedef struct fg_replay_write_options {
    const fg_allocator *alloc; /* NULL: the default allocator */
    uint32_t chunk_size;       /* payload bytes per chunk; 0: FG_REPLAY_CHUNK_DEFAULT */
} fg_replay_write_options;

typedef struct fg_replay_writer fg_replay_writer;

/* Validates the header, allocates the writer and its chunk buffer, and writes the file header,
** the record table and the header chunk through the sink. opt may be NULL. On failure *out is
** NULL and nothing was allocated. */
FG_API fg_status fg_replay_writer_create_sink(const fg_replay_header *h, fg_replay_sink_fn sink,
                                              void *ud, const fg_replay_write_options *opt,
                                              fg_replay_writer **out, fg_error *err);
/* Writes to a stream the caller opened (binary mode) and closes. */
FG_API fg_status fg_replay_writer_create_stream(const fg_replay_header *h, FILE *f,
                                                const fg_replay_write_options *opt,
                                                fg_replay_writer **out, fg_error *err);
/* Creates (truncates) the file at path; the writer closes it. */
FG_API fg_status fg_replay_writer_create_file(const char *path, const fg_replay_header *h,
                                              const fg_replay_write_options *opt,
                                              fg_replay_writer **out, fg_error *err);

/* Appending: each validates its record (ranges; ticks never go back and never precede the
** header's start tick; nothing after the final record but the end marker) and changes nothing
** when it refuses. A record goes into the chunk buffer; a full buffer is written out first. None
** of these allocates. */
FG_API fg_status fg_replay_write_input(fg_replay_writer *w, fg_replay_input in, fg_error *err);
FG_API fg_status fg_replay_write_command(fg_replay_writer *w, fg_replay_command c,
                                         fg_error *err);
FG_API fg_status fg_replay_write_checkpoint(fg_replay_writer *w, fg_tick tick, uint64_t hash,
                                            fg_error *err);
/* The last tick and its hash; at most once, and only the end marker may follow. */
FG_API fg_status fg_replay_write_final(fg_replay_writer *w, fg_tick tick, uint64_t hash,
                                       fg_error *err);
FG_API fg_status fg_replay_write_clamp(fg_replay_writer *w, fg_tick tick, int64_t clamped_us,
                                       fg_error *err);
/* A reload record larger than the chunk buffer is written as a chunk of its own, streamed
** through the sink, so embedded sources of any size need no allocation either. */
FG_API fg_status fg_replay_write_reload(fg_replay_writer *w, const fg_replay_reload *r,
                                        fg_error *err);

/* Writes the records buffered so far as a chunk (e.g. at a checkpoint, so a crash loses little;
** a partial read recovers every flushed chunk), then flushes a stream sink. */
FG_API fg_status fg_replay_writer_flush(fg_replay_writer *w, fg_error *err);
/* Appends the end marker and flushes. Nothing can be written after it. */
FG_API fg_status fg_replay_writer_finish(fg_replay_writer *w, fg_error *err);
/* Frees the writer (and closes a file it created). Writes nothing: buffered records that were
** not flushed are dropped. NULL is ignored. */
FG_API void fg_replay_writer_destroy(fg_replay_writer *w);

FG_API uint64_t fg_replay_writer_records(const fg_replay_writer *w); /* header included */
FG_API uint64_t fg_replay_writer_bytes(const fg_replay_writer *w);   /* handed to the sink */

/* }====================================================================== */

/* {====================================================================== reader */

/* Read a file that ends without an end marker (a crashed or interrupted recording) up to its
** last complete chunk, instead of refusing it. Damage (CRC, sizes, order) is still an error. */
#define FG_REPLAY_READ_PARTIAL 0x1u

typedef struct fg_replay_read_options {
    const fg_allocator *alloc; /* NULL: the default allocator */
    const char *name;          /* names the replay in messages; default: the path, or "replay" */
    uint32_t flags;            /* FG_REPLAY_READ_* */
} fg_replay_read_options;

/* What the check at open found. */
typedef struct fg_replay_stats {
    uint16_t version_major, version_minor;
    uint64_t bytes;
    uint64_t chunks;
    uint64_t records;                      /* every record, header and end marker included */
    uint64_t by_type[FG_REPLAY_TYPE_COUNT]; /* known records by type */
    uint64_t unknown;                      /* records of types this reader does not know */
    uint64_t skipped_bytes;                /* unknown records and unknown appended fields */
    fg_tick last_tick;                     /* highest tick of any record (start tick if none) */
    bool has_final;
    fg_tick final_tick;
    uint64_t final_hash;
    bool complete;       /* false: partial read of a file without an end marker */
    uint64_t valid_bytes; /* bytes up to the end of the last record read */
} fg_replay_stats;

typedef struct fg_replay_reader fg_replay_reader;

/* Opens a replay held in memory. The reader borrows data: keep it alive and unchanged until
** fg_replay_reader_destroy. The whole file is checked here; on failure *out is NULL, err names
** the first problem with its byte offset, and nothing stays allocated. opt may be NULL. */
FG_API fg_status fg_replay_reader_create_memory(const void *data, size_t size,
                                                const fg_replay_read_options *opt,
                                                fg_replay_reader **out, fg_error *err);
/* Reads the file at path into memory the reader owns, then as fg_replay_reader_create_memory. */
FG_API fg_status fg_replay_reader_create_file(const char *path, const fg_replay_read_options *opt,
                                              fg_replay_reader **out, fg_error *err);
FG_API void fg_replay_reader_destroy(fg_replay_reader *r); /* NULL is ignored */

FG_API const char *fg_replay_reader_name(const fg_replay_reader *r);
FG_API const fg_replay_header *fg_replay_reader_header(const fg_replay_reader *r);
FG_API const fg_replay_stats *fg_replay_reader_stats(const fg_replay_reader *r);

/* The next record after the header, in file order, skipping types this reader does not know.
** The last one is FG_REPLAY_END; calling again returns FG_REPLAY_END again. Allocates nothing.
** Strings and reload files in *out stay valid until the next call (strings: until close). */
FG_API fg_status fg_replay_next(fg_replay_reader *r, fg_replay_record *out, fg_error *err);
/* The record fg_replay_next would return, without taking it (playback reads ahead to see
** whether the next record still belongs to the current tick). Same validity rules. */
FG_API fg_status fg_replay_peek(fg_replay_reader *r, fg_replay_record *out, fg_error *err);
/* Back to the first record after the header. */
FG_API void fg_replay_reader_rewind(fg_replay_reader *r);

/* FG_EMISMATCH unless the replay was recorded with the ruleset the caller loaded:
** "NAME: replay was recorded with ruleset 0x..., loaded ruleset is 0x...". */
FG_API fg_status fg_replay_check_ruleset(const fg_replay_reader *r, uint64_t loaded_hash,
                                         fg_error *err);

/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
