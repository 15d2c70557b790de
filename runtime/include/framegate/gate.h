/*
** framegate/gate.h: the commit gate: event stamps and the dispatch ledger, loop tracks and the playback owner, exactly-once side effects.
*/
#ifndef FRAMEGATE_GATE_H
#define FRAMEGATE_GATE_H

#include "framegate/base.h"

#endif
