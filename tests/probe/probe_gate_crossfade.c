/* SPDX-License-Identifier: MIT */
/*
** probe_gate_crossfade.c: the cross-fade probe. Action 100 fades from attack-a into attack-b and
** both clips report the damage marker; then action 101 begins and a late callback of action 100
** arrives. Only Accepted candidates reach the gameplay effect. Prints the two result lines.
*/
#include <stdio.h>

#include "framegate.h"

enum { DAMAGE = 0 };

typedef struct probe {
    fg_dispatcher *d;
    int effects; /* the gameplay effect: hits applied */
} probe;

/* The gate's rule: decide, and apply the effect only when Accepted. */
static fg_dispatch_result hit(probe *p, int64_t seq, const char *clip, float time) {
    fg_event_candidate c = {{0, DAMAGE, seq, 0}, "damage", clip, time};
    fg_dispatch_result r;
    fg_error err;
    if (fg_dispatcher_dispatch(p->d, &c, &r, &err) != FG_OK) {
        fprintf(stderr, "probe: %s\n", fg_error_message(&err));
        return FG_DISPATCH_DUPLICATE;
    }
    if (r == FG_DISPATCH_ACCEPTED) p->effects++;
    return r;
}

static int begin(probe *p, int64_t seq) {
    fg_error err;
    if (fg_dispatcher_begin(p->d, 0, seq, &err) == FG_OK) return 0;
    fprintf(stderr, "probe: %s\n", fg_error_message(&err));
    return 1;
}

int main(void) {
    fg_error err;
    probe p = {NULL, 0};
    if (fg_dispatcher_create(1, 4, NULL, &p.d, &err) != FG_OK) {
        fprintf(stderr, "probe: %s\n", fg_error_message(&err));
        return 1;
    }
    if (begin(&p, 100)) return 1;
    fg_dispatch_result source = hit(&p, 100, "attack-a", 0.62f);
    fg_dispatch_result target = hit(&p, 100, "attack-b", 0.38f);
    printf("crossfade: action=%d source=%s target=%s effects=%d\n", 100,
           fg_dispatch_result_name(source), fg_dispatch_result_name(target), p.effects);

    probe q = {p.d, 0}; /* a fresh dispatcher in the same block */
    fg_dispatcher_init(q.d, 1, 4, NULL);
    if (begin(&q, 100) || begin(&q, 101)) return 1;
    fg_dispatch_result late = hit(&q, 100, "attack-a", 0.62f);
    printf("stale: active=%lld candidate=%d result=%s effects=%d\n",
           (long long)fg_dispatcher_live(q.d, 0), 100, fg_dispatch_result_name(late), q.effects);
    fg_dispatcher_destroy(p.d);
    return 0;
}
