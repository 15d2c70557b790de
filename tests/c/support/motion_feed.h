/* SPDX-License-Identifier: MIT */
/*
** motion_feed.h: runs an input script through a fresh buffer and matcher and hands every
** command of every tick to a callback, without the script runner's cap on reported commands
** (hold-only and buffered commands of a real .cmd file report many per tick).
*/
#ifndef FG_MOTION_FEED_H
#define FG_MOTION_FEED_H

#include "framegate.h"

typedef void (*fgt_command_fn)(void *ud, const fg_motion_command *c, fg_tick now);

/* Steps from tick 0 to the last event plus extra ticks. */
fg_status fgt_motion_feed(const fg_motion_set *set, const char *script, fg_tick extra,
                          fgt_command_fn fn, void *ud, fg_error *err);

/* For each motion id, the first tick it completed (age 0), or -1: first[fg_motion_count]. */
fg_status fgt_motion_first_ticks(const fg_motion_set *set, const char *script, fg_tick *first,
                                 fg_error *err);

#endif
