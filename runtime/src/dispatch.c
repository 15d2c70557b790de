/* SPDX-License-Identifier: MIT */
/*
** dispatch.c: event stamps and the dispatch ledger (framegate/gate.h). Decides whether a gameplay
** event candidate is new for the live action of its channel and records it when it is.
**
** The block holds `channels` headers followed by `capacity` entries per channel, then one fold
** cell per channel. Entries of a channel are packed: the live sequence's markers occupy [0, used)
** in order of first dispatch and the rest is zero, so two dispatchers in the same logical state
** have the same bytes too (the fold cells are a function of the rest).
**
** The hash folds, per channel, the words live, used, then marker, closed_below, window of each
** entry. A zero word adds nothing to a fold's sum, so a channel's fold over all `capacity`
** entries (the unused ones are zero) has the same sum as over the used ones: its cell (a, b)
** changes by the difference of the scrambled words each write changes, and the hash adds the
** cells at the k where each channel starts (2 + 3 * used words per channel).
*/
#include "framegate/gate.h"
#include "base_internal.h"
#include "text.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *fg_dispatch_result_name(fg_dispatch_result r) {
    switch (r) {
    case FG_DISPATCH_ACCEPTED: return "Accepted";
    case FG_DISPATCH_DUPLICATE: return "Duplicate";
    case FG_DISPATCH_STALE_ACTION: return "StaleAction";
    }
    return "?";
}

/* {====================================================================== layout */

size_t fg_dispatcher_size(uint32_t channels, uint32_t capacity) {
    if (channels < 1 || channels > FG_DISPATCH_MAX_CHANNELS) return 0;
    if (capacity < 1 || capacity > FG_DISPATCH_MAX_CAPACITY) return 0;
    /* Both bounds keep this far from overflow: at most 65536 * 4097 cells of 24 bytes. */
    return sizeof(fg_dispatcher) +
           ((size_t)channels * 2 + (size_t)channels * capacity) * sizeof(fg_ledger_cell);
}

static inline fg_dispatch_channel *chan(fg_dispatcher *d, uint32_t c) {
    return &d->cells[c].channel;
}

static inline const fg_dispatch_channel *cchan(const fg_dispatcher *d, uint32_t c) {
    return &d->cells[c].channel;
}

static inline fg_ledger_entry *entries(fg_dispatcher *d, uint32_t c) {
    return &d->cells[d->channels + (size_t)c * d->capacity].entry;
}

static inline const fg_ledger_entry *centries(const fg_dispatcher *d, uint32_t c) {
    return &d->cells[d->channels + (size_t)c * d->capacity].entry;
}

static inline fg_ledger_fold *fold_of(fg_dispatcher *d, uint32_t c) {
    return &d->cells[d->channels + (size_t)d->channels * d->capacity + c].fold;
}

static inline const fg_ledger_fold *cfold(const fg_dispatcher *d, uint32_t c) {
    return &d->cells[d->channels + (size_t)d->channels * d->capacity + c].fold;
}

/* Offsets (times D) of a channel's words in its fold. */
#define AT_USED FG_FOLD_STEP
#define AT_ENTRY(i, word) ((uint64_t)(2 + 3 * (uint64_t)(i) + (word)) * FG_FOLD_STEP)

static void fold_change(fg_ledger_fold *f, uint64_t at, uint64_t old, uint64_t v) {
    fg_fold_run r = {f->a, f->b, 0};
    fg_fold_run_change(&r, at, old, v);
    f->a = r.a;
    f->b = r.b;
}

/* An entry changed from old to now (old all zero: it is new). */
static void fold_entry(fg_ledger_fold *f, uint32_t i, const fg_ledger_entry *old,
                       const fg_ledger_entry *now) {
    fold_change(f, AT_ENTRY(i, 0), old->marker, now->marker);
    fold_change(f, AT_ENTRY(i, 1), old->closed_below, now->closed_below);
    fold_change(f, AT_ENTRY(i, 2), old->window, now->window);
}

void fg_dispatcher_refold(fg_dispatcher *d) {
    for (uint32_t c = 0; c < d->channels; c++) {
        const fg_dispatch_channel *ch = cchan(d, c);
        fg_fold_run r = {0, 0, 0};
        fg_fold_run_u64(&r, (uint64_t)ch->live);
        fg_fold_run_u64(&r, ch->used);
        const fg_ledger_entry *e = centries(d, c);
        for (uint32_t i = 0; i < ch->used && i < d->capacity; i++) {
            fg_fold_run_u64(&r, e[i].marker);
            fg_fold_run_u64(&r, e[i].closed_below);
            fg_fold_run_u64(&r, e[i].window);
        }
        fg_ledger_fold *f = fold_of(d, c);
        f->a = r.a;
        f->b = r.b;
        f->reserved = 0;
    }
}

static fg_status check_shape(uint32_t channels, uint32_t capacity, fg_error *err) {
    if (channels < 1 || channels > FG_DISPATCH_MAX_CHANNELS)
        return fg_error_set(err, FG_EINVAL, "dispatcher channels: %" PRIu32 ", expected 1 to %u",
                            channels, FG_DISPATCH_MAX_CHANNELS);
    if (capacity < 1 || capacity > FG_DISPATCH_MAX_CAPACITY)
        return fg_error_set(err, FG_EINVAL,
                            "dispatcher capacity: %" PRIu32 ", expected 1 to %u markers per action",
                            capacity, FG_DISPATCH_MAX_CAPACITY);
    return FG_OK;
}

fg_status fg_dispatcher_init(fg_dispatcher *d, uint32_t channels, uint32_t capacity,
                             fg_error *err) {
    fg_status st = check_shape(channels, capacity, err);
    if (st != FG_OK) return st;
    memset(d, 0, fg_dispatcher_size(channels, capacity));
    d->channels = channels;
    d->capacity = capacity;
    return FG_OK;
}

fg_status fg_dispatcher_create(uint32_t channels, uint32_t capacity, const fg_allocator *a,
                               fg_dispatcher **out, fg_error *err) {
    fg_status st = check_shape(channels, capacity, err);
    if (st != FG_OK) return st;
    size_t size = fg_dispatcher_size(channels, capacity);
    fg_dispatcher *d = fg_alloc_kept(a, size);
    if (!d) return fg_error_set(err, FG_ENOMEM, "dispatcher: cannot allocate %zu bytes", size);
    fg_dispatcher_init(d, channels, capacity, NULL);
    *out = d;
    return FG_OK;
}

void fg_dispatcher_destroy(fg_dispatcher *d) {
    if (d) fg_free_kept(d, fg_dispatcher_bytes(d));
}

size_t fg_dispatcher_bytes(const fg_dispatcher *d) {
    return fg_dispatcher_size(d->channels, d->capacity);
}

fg_status fg_dispatcher_check(const void *snapshot, size_t size, uint32_t channels,
                              uint32_t capacity, fg_error *err) {
    size_t want = fg_dispatcher_size(channels, capacity);
    if (!snapshot || size != want)
        return fg_error_set(err, FG_EMISMATCH,
                            "dispatcher snapshot: %zu bytes, expected %zu (channels %" PRIu32
                            ", capacity %" PRIu32 ")",
                            snapshot ? size : 0, want, channels, capacity);
    fg_dispatcher head;
    memcpy(&head, snapshot, sizeof head);
    if (head.channels != channels || head.capacity != capacity)
        return fg_error_set(err, FG_EMISMATCH,
                            "dispatcher snapshot: shape channels %" PRIu32 ", capacity %" PRIu32
                            ", expected channels %" PRIu32 ", capacity %" PRIu32,
                            head.channels, head.capacity, channels, capacity);
    /* Check the invariants the decisions rely on before anything is copied. */
    const unsigned char *bytes = snapshot;
    for (uint32_t c = 0; c < channels; c++) {
        fg_dispatch_channel ch;
        memcpy(&ch, bytes + offsetof(fg_dispatcher, cells) + (size_t)c * sizeof(fg_ledger_cell),
               sizeof ch);
        if (ch.used > capacity || ch.live < 0 || (ch.live == 0 && ch.used != 0))
            return fg_error_set(err, FG_EFORMAT,
                                "dispatcher snapshot: channel %" PRIu32
                                " has live sequence %" PRId64 " with %" PRIu32
                                " entries, expected at most %" PRIu32
                                " entries of a begun sequence",
                                c, ch.live, ch.used, capacity);
        for (uint32_t i = 0; i < ch.used; i++) {
            fg_ledger_entry e;
            size_t cell = channels + (size_t)c * capacity + i;
            memcpy(&e, bytes + offsetof(fg_dispatcher, cells) + cell * sizeof(fg_ledger_cell),
                   sizeof e);
            if ((e.window & 1u) || e.closed_below > FG_OCCURRENCE_MAX + 1)
                return fg_error_set(err, FG_EFORMAT,
                                    "dispatcher snapshot: channel %" PRIu32 " entry %" PRIu32
                                    " (marker %" PRIu32 ") is not compacted",
                                    c, i, e.marker);
        }
    }
    return FG_OK;
}

fg_status fg_dispatcher_restore(fg_dispatcher *d, const void *snapshot, size_t size,
                                fg_error *err) {
    fg_status st = fg_dispatcher_check(snapshot, size, d->channels, d->capacity, err);
    if (st != FG_OK) return st;
    memcpy(d, snapshot, size);
    fg_dispatcher_refold(d);
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== decisions */

fg_status fg_dispatcher_begin(fg_dispatcher *d, uint32_t channel, int64_t sequence, fg_error *err) {
    if (channel >= d->channels)
        return fg_error_set(err, FG_EINVAL,
                            "begin: channel %" PRIu32 " does not exist (channels 0 to %" PRIu32 ")",
                            channel, d->channels - 1);
    fg_dispatch_channel *ch = chan(d, channel);
    if (sequence <= ch->live) {
        if (ch->live == 0)
            return fg_error_set(err, FG_ESTATE,
                                "begin: channel %" PRIu32 ": action sequence %" PRId64
                                " is not valid (sequences start at 1)",
                                channel, sequence);
        return fg_error_set(err, FG_ESTATE,
                            "begin: channel %" PRIu32 ": action sequence %" PRId64
                            " is not newer than the live sequence %" PRId64,
                            channel, sequence, ch->live);
    }
    /* Pruning: older sequences are closed by comparison, so their entries can go. */
    memset(entries(d, channel), 0, (size_t)ch->used * sizeof(fg_ledger_entry));
    ch->used = 0;
    ch->live = sequence;
    /* Every word but live is zero now. */
    fg_ledger_fold *f = fold_of(d, channel);
    f->a = fg_fold_scramble((uint64_t)sequence);
    f->b = 0;
    return FG_OK;
}

/* Names the candidate in messages: "damage (marker 3) occurrence 0 of action 102". */
static void describe_candidate(const fg_event_candidate *c, char *buf, size_t size) {
    const fg_event_stamp *s = &c->stamp;
    if (c->marker_name)
        snprintf(buf, size, "%s (marker %" PRIu32 ") occurrence %" PRIu64 " of action %" PRId64,
                 c->marker_name, s->marker, s->occurrence, s->sequence);
    else
        snprintf(buf, size, "marker %" PRIu32 " occurrence %" PRIu64 " of action %" PRId64,
                 s->marker, s->occurrence, s->sequence);
}

/* Where the decision lands in the ledger, so dispatch can record without searching again. */
typedef struct decision {
    fg_dispatch_result result;
    uint32_t index; /* entry index; == used when the marker is new */
} decision;

static fg_status decide(const fg_dispatcher *d, const fg_event_candidate *c, decision *out,
                        fg_error *err) {
    const fg_event_stamp *s = &c->stamp;
    char what[192];
    out->result = FG_DISPATCH_DUPLICATE;
    out->index = 0;
    if (s->channel >= d->channels) {
        describe_candidate(c, what, sizeof what);
        return fg_error_set(err, FG_EINVAL,
                            "dispatch: %s: channel %" PRIu32
                            " does not exist (channels 0 to %" PRIu32 ")",
                            what, s->channel, d->channels - 1);
    }
    if (s->occurrence > FG_OCCURRENCE_MAX) {
        describe_candidate(c, what, sizeof what);
        return fg_error_set(err, FG_EINVAL, "dispatch: %s: occurrence is above %" PRIu64, what,
                            FG_OCCURRENCE_MAX);
    }
    const fg_dispatch_channel *ch = cchan(d, s->channel);
    if (s->sequence < ch->live) {
        out->result = FG_DISPATCH_STALE_ACTION;
        return FG_OK;
    }
    if (s->sequence > ch->live || ch->live == 0) {
        describe_candidate(c, what, sizeof what);
        if (ch->live == 0)
            return fg_error_set(err, FG_ESTATE,
                                "dispatch: %s: no action has begun on channel %" PRIu32, what,
                                s->channel);
        return fg_error_set(err, FG_ESTATE,
                            "dispatch: %s: action %" PRId64 " has not begun on channel %" PRIu32
                            " (live sequence %" PRId64 ")",
                            what, s->sequence, s->channel, ch->live);
    }
    const fg_ledger_entry *e = centries(d, s->channel);
    uint32_t i = 0;
    while (i < ch->used && e[i].marker != s->marker) i++;
    out->index = i;
    if (i == ch->used) {
        if (ch->used == d->capacity) {
            describe_candidate(c, what, sizeof what);
            return fg_error_set(err, FG_ENOMEM,
                                "dispatch: %s: channel %" PRIu32 " already holds %" PRIu32
                                " distinct markers for this action (capacity %" PRIu32 ")",
                                what, s->channel, ch->used, d->capacity);
        }
        out->result = FG_DISPATCH_ACCEPTED;
        return FG_OK;
    }
    uint64_t below = e[i].closed_below;
    if (s->occurrence < below) {
        out->result = FG_DISPATCH_DUPLICATE;
    } else {
        uint64_t ahead = s->occurrence - below;
        out->result = (ahead < FG_LEDGER_WINDOW && (e[i].window >> ahead & 1u))
                          ? FG_DISPATCH_DUPLICATE
                          : FG_DISPATCH_ACCEPTED;
    }
    return FG_OK;
}

/* Number of trailing one bits (64 when all are set). */
static unsigned trailing_ones(uint64_t w) {
    unsigned n = 0;
    while (n < 64 && (w >> n & 1u)) n++;
    return n;
}

/* Marks occurrence occ (>= closed_below, not yet set) accepted and compacts the entry. */
static void record(fg_ledger_entry *e, uint64_t occ) {
    uint64_t ahead = occ - e->closed_below;
    if (ahead >= FG_LEDGER_WINDOW) {
        /* Slide so occ lands on the top bit; the open occurrences passed over become closed. */
        uint64_t shift = ahead - (FG_LEDGER_WINDOW - 1);
        e->window = shift >= 64 ? 0 : e->window >> shift;
        e->closed_below += shift;
        ahead = FG_LEDGER_WINDOW - 1;
    }
    e->window |= (uint64_t)1 << ahead;
    unsigned t = (e->window & 1u) ? trailing_ones(e->window) : 0;
    if (t) {
        e->window = t >= 64 ? 0 : e->window >> t;
        e->closed_below += t;
    }
}

fg_status fg_dispatcher_classify(const fg_dispatcher *d, const fg_event_candidate *c,
                                 fg_dispatch_result *out, fg_error *err) {
    decision dec;
    fg_status st = decide(d, c, &dec, err);
    if (st == FG_OK) *out = dec.result;
    return st;
}

fg_status fg_dispatcher_dispatch(fg_dispatcher *d, const fg_event_candidate *c,
                                 fg_dispatch_result *out, fg_error *err) {
    decision dec;
    fg_status st = decide(d, c, &dec, err);
    if (st != FG_OK) return st;
    if (dec.result == FG_DISPATCH_ACCEPTED) {
        fg_dispatch_channel *ch = chan(d, c->stamp.channel);
        fg_ledger_entry *e = &entries(d, c->stamp.channel)[dec.index];
        fg_ledger_fold *f = fold_of(d, c->stamp.channel);
        fg_ledger_entry old = *e; /* all zero when the marker is new */
        if (dec.index == ch->used) {
            e->marker = c->stamp.marker;
            e->closed_below = 0;
            e->window = 0;
            fold_change(f, AT_USED, ch->used, ch->used + 1);
            ch->used++;
        }
        record(e, c->stamp.occurrence);
        fold_entry(f, dec.index, &old, e);
    }
    *out = dec.result;
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== inspection */

uint32_t fg_dispatcher_channels(const fg_dispatcher *d) { return d->channels; }

uint32_t fg_dispatcher_capacity(const fg_dispatcher *d) { return d->capacity; }

int64_t fg_dispatcher_live(const fg_dispatcher *d, uint32_t channel) {
    return channel < d->channels ? cchan(d, channel)->live : -1;
}

uint32_t fg_dispatcher_ledger_count(const fg_dispatcher *d, uint32_t channel) {
    return channel < d->channels ? cchan(d, channel)->used : 0;
}

const fg_ledger_entry *fg_dispatcher_ledger_at(const fg_dispatcher *d, uint32_t channel,
                                               uint32_t i) {
    if (channel >= d->channels || i >= cchan(d, channel)->used) return NULL;
    return &centries(d, channel)[i];
}

/* A world hashes one ledger per entity every tick: it adds each channel's kept fold where the
** channel starts, the same sum as fg_dispatcher_hash_fresh. */
fg_fold fg_dispatcher_fold(const fg_dispatcher *d) {
    fg_fold f = fg_fold_begin((uint64_t)d->channels << 32 | d->capacity);
    for (uint32_t c = 0; c < d->channels; c++) {
        const fg_ledger_fold *cf = cfold(d, c);
        fg_fold_run r = {cf->a, cf->b, (2 + 3 * (uint64_t)cchan(d, c)->used) * FG_FOLD_STEP};
        fg_fold_add_run(&f, &r);
    }
    return f;
}

void fg_dispatcher_hash(const fg_dispatcher *d, fg_hasher *hs) {
    fg_fold f = fg_dispatcher_fold(d);
    fg_hash_fold_end(hs, &f);
}

/* Every word folded in turn: what the kept folds must always add up to. */
void fg_dispatcher_hash_fresh(const fg_dispatcher *d, fg_hasher *hs) {
    fg_fold f = fg_fold_begin((uint64_t)d->channels << 32 | d->capacity);
    for (uint32_t c = 0; c < d->channels; c++) {
        const fg_dispatch_channel *ch = cchan(d, c);
        fg_fold_u64(&f, (uint64_t)ch->live);
        fg_fold_u64(&f, ch->used);
        const fg_ledger_entry *e = centries(d, c);
        for (uint32_t i = 0; i < ch->used; i++) {
            fg_fold_u64(&f, e[i].marker);
            fg_fold_u64(&f, e[i].closed_below);
            fg_fold_u64(&f, e[i].window);
        }
    }
    fg_hash_fold_end(hs, &f);
}

size_t fg_dispatcher_describe(const fg_dispatcher *d, char *buf, size_t size) {
    size_t len = 0;
    if (buf && size) buf[0] = '\0';
    if (!buf) size = 0;
    fg_text_append(buf, size, &len, "dispatcher.channels %" PRIu32 "\n", d->channels);
    fg_text_append(buf, size, &len, "dispatcher.capacity %" PRIu32 "\n", d->capacity);
    for (uint32_t c = 0; c < d->channels; c++) {
        const fg_dispatch_channel *ch = cchan(d, c);
        fg_text_append(buf, size, &len, "channel[%" PRIu32 "].live %" PRId64 "\n", c, ch->live);
        const fg_ledger_entry *e = centries(d, c);
        for (uint32_t i = 0; i < ch->used; i++)
            fg_text_append(buf, size, &len,
                "channel[%" PRIu32 "].marker[%" PRIu32 "] closed_below %" PRIu64
                " window 0x%016" PRIx64 "\n",
                c, e[i].marker, e[i].closed_below, e[i].window);
    }
    return len;
}

/* }====================================================================== */
