/* SPDX-License-Identifier: MIT */
/*
** probe_gate_loop.c: the loop-point probe. A 1000-tick run cycle has FootLeft at 50 and FootRight
** at 950; playback on slot 2 (generation 7) advances from 920 to 1080 across the loop point. The
** batch is committed, then retried. Prints the result line.
*/
#include <stdio.h>
#include <string.h>

#include "framegate.h"

enum { FOOT_LEFT = 0, FOOT_RIGHT = 1 };
static const char *const names[] = {"FootLeft", "FootRight"};

int main(void) {
    const fg_track_marker_spec markers[] = {{50, FOOT_LEFT, "FootLeft"},
                                            {950, FOOT_RIGHT, "FootRight"}};
    fg_cycle_track track;
    fg_playback_owner *owner = NULL;
    fg_error err;
    const fg_playback_token token = {2, 7};
    fg_track_event out[8];
    fg_track_batch batch;
    fg_commit_result first, retry;
    if (fg_cycle_track_init(&track, 1000, markers, 2, &err) != FG_OK ||
        fg_playback_owner_create(8, NULL, &owner, &err) != FG_OK ||
        fg_playback_owner_begin(owner, token, 920, &err) != FG_OK ||
        fg_cycle_track_sample(&track, token, 920, 1080, out, 8, &batch, &err) != FG_OK ||
        fg_playback_owner_commit(owner, &batch, &first, &err) != FG_OK ||
        fg_playback_owner_commit(owner, &batch, &retry, &err) != FG_OK) {
        fprintf(stderr, "probe: %s\n", fg_error_message(&err));
        return 1;
    }
    char events[256] = "";
    size_t len = 0;
    for (uint32_t i = 0; i < fg_playback_owner_pending(owner); i++) {
        const fg_track_event *e = fg_playback_owner_at(owner, i);
        len += (size_t)snprintf(events + len, sizeof events - len, "%s%s@%lld", i ? ">" : "",
                                names[e->marker], (long long)e->tick);
        if (len >= sizeof events) break;
    }
    printf("RESULT range=%lld..%lld events=%s first=%s retry=%s cursor=%lld\n",
           (long long)batch.from, (long long)batch.to, events, fg_commit_result_name(first),
           fg_commit_result_name(retry), (long long)fg_playback_owner_cursor(owner));
    fg_playback_owner_destroy(owner);
    return 0;
}
