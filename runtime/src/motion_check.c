/* SPDX-License-Identifier: MIT */
/*
** motion_check.c: whether bytes handed in as a matcher state (a snapshot from disk or the
** network) are one the matcher can run: the set it belongs to, enums and bools in range, the
** validity bitmaps agreeing with the records they mirror, and every motion id and edge count a
** step or an explanation follows inside the set. Reads through memcpy, so the bytes may sit at any
** alignment; writes nothing.
*/
#include "motion_set.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Far beyond a match, and far from int64's end, so the matcher's sums stay exact. */
#define TIME_LIMIT ((int64_t)1 << 40)

typedef struct reader {
    const unsigned char *p;
    fg_error *err;
} reader;

static fg_status bad(reader *r, const char *field, long long v) {
    return fg_error_set(r->err, FG_EFORMAT, "matcher state: %s is %lld, out of range", field, v);
}

static bool time_ok(int64_t t) { return t > -TIME_LIMIT && t < TIME_LIMIT; }
static bool motion_ok(const fg_motion_set *set, uint32_t id, bool none_ok) {
    return id < set->npatterns || (none_ok && id == FG_MOTION_NONE);
}

static bool bit_at(reader *r, uint32_t off, uint32_t i) {
    uint64_t word;
    memcpy(&word, r->p + off + (size_t)(i >> 6) * 8, 8);
    return (word >> (i & 63)) & 1u;
}

/* No bit past the last id of the bitmap is set. */
static bool tail_clear(reader *r, uint32_t off, uint32_t n) {
    if (n % 64 == 0) return true;
    uint64_t word;
    memcpy(&word, r->p + off + (size_t)(n / 64) * 8, 8);
    return (word >> (n % 64)) == 0;
}

static fg_status check_miss(reader *r, const fg_motion_set *set, uint32_t off) {
    mmiss m;
    memcpy(&m, r->p + off, sizeof m);
    if (m.valid > 1) return bad(r, "miss.valid", m.valid);
    if (m.reason > FG_MOTION_FAIL_EXPIRED) return bad(r, "miss.reason", m.reason);
    if (m.facing > 1) return bad(r, "miss.facing", m.facing);
    if (!motion_ok(set, m.other, true)) return bad(r, "miss.other", m.other);
    return FG_OK;
}

static fg_status check_aux(reader *r, uint32_t off) {
    maux a;
    memcpy(&a, r->p + off, sizeof a);
    return time_ok(a.since) ? FG_OK : bad(r, "aux.since", a.since);
}

static fg_status check_pattern(reader *r, const fg_motion_set *set, uint32_t p) {
    const cpattern *P = &set->patterns[p];
    mdone d;
    memcpy(&d, r->p + P->off, sizeof d);
    if (d.valid > 1 || d.live > 1) return bad(r, "done.valid", d.valid > 1 ? d.valid : d.live);
    if (d.valid != bit_at(r, set->done_bits_off, p)) return bad(r, "done bitmap", p);
    if (d.facing > 1) return bad(r, "done.facing", d.facing);
    if (d.nedges > P->nedges) return bad(r, "done.nedges", d.nedges);
    if (d.why > FG_MOTION_WHY_ORDER) return bad(r, "done.why", d.why);
    if (!motion_ok(set, d.beat, true)) return bad(r, "done.beat", d.beat);
    if (!motion_ok(set, d.replaces, true)) return bad(r, "done.replaces", d.replaces);
    if (!time_ok(d.tick) || !time_ok(d.time)) return bad(r, "done.tick", d.tick);
    for (int tr = 0; tr < P->ntracks; tr++) {
        fg_status s = check_miss(r, set, P->miss_off[tr]);
        if (s == FG_OK && P->final_aux) s = check_aux(r, P->final_off[tr]);
        if (s != FG_OK) return s;
    }
    return FG_OK;
}

static fg_status check_node(reader *r, const fg_motion_set *set, uint32_t i) {
    const cnode *N = &set->nodes[i];
    fg_status s = check_miss(r, set, N->miss_off);
    if (s != FG_OK) return s;
    mpart q;
    memcpy(&q, r->p + N->off, sizeof q);
    if (q.valid > 1 || q.open > 1 || q.skipped > 1) return bad(r, "part.valid", q.valid);
    if (q.valid != bit_at(r, set->node_bits_off, i)) return bad(r, "node bitmap", i);
    if (q.taken > set->npatterns) return bad(r, "part.taken", q.taken);
    if (!time_ok(q.t) || !time_ok(q.start)) return bad(r, "part.t", q.t);
    if (N->has_aux)
        return check_aux(r, N->off + (uint32_t)(sizeof(mpart) +
                                                (size_t)N->chain_len * sizeof(mlink)));
    return FG_OK;
}

fg_status fg_motion_state_check(const fg_motion_set *set, const void *bytes, size_t size,
                                fg_error *err) {
    reader rd = {bytes, err}, *r = &rd;
    fg_motion_state st;
    if (size < set->state_size || set->state_size < sizeof st)
        return fg_error_set(err, FG_EFORMAT, "matcher state: %zu bytes, the motions need %zu",
                            size, set->state_size);
    memcpy(&st, bytes, sizeof st);
    if (st.set_hash != set->hash || st.size != set->state_size)
        return fg_error_set(err, FG_EMISMATCH, "matcher state: made for another set of motions "
                            "(hash %016llx, this set %016llx)", (unsigned long long)st.set_hash,
                            (unsigned long long)set->hash);
    if (st.dir < 1 || st.dir > 9) return bad(r, "dir", st.dir);
    if (st.facing > 1) return bad(r, "facing", st.facing);
    if (!time_ok(st.last_tick) || !time_ok(st.clock)) return bad(r, "clock", st.clock);
    if (st.nlive > set->npatterns) return bad(r, "nlive", st.nlive);
    for (int b = 0; b < FG_INPUT_MAX_ACTIONS; b++) {
        mpress p;
        memcpy(&p, r->p + set->press_off + (size_t)b * sizeof p, sizeof p);
        if (!time_ok(p.tick) || !time_ok(p.clock)) return bad(r, "press_tick", p.tick);
    }
    if (!tail_clear(r, set->done_bits_off, set->npatterns)) return bad(r, "done bitmap", -1);
    if (!tail_clear(r, set->node_bits_off, set->nnodes)) return bad(r, "node bitmap", -1);
    for (uint32_t p = 0; p < set->npatterns; p++) {
        fg_status s = check_pattern(r, set, p);
        if (s != FG_OK) return s;
    }
    for (uint32_t i = 0; i < set->nnodes; i++) {
        fg_status s = check_node(r, set, i);
        if (s != FG_OK) return s;
    }
    return FG_OK;
}
