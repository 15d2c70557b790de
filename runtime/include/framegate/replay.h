/*
** framegate/replay.h: replays: a versioned, chunked binary format with CRCs, and its reader.
*/
#ifndef FRAMEGATE_REPLAY_H
#define FRAMEGATE_REPLAY_H

#include "framegate/base.h"

#endif
