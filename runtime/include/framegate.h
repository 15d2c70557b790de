/* SPDX-License-Identifier: MIT */
/*
** framegate.h: the whole public C API. Include this, link -lframegate.
**
** Layers, in dependency order:
**   base         ticks, errors, allocator, hashing, RNG
**   input        device mapping, sticks, SOCD, edges and the per-entity input buffer
**   loop         the host's fixed-step loop: accumulator, clamp accounting, interpolation alpha
**   motion       combo notation, compiled patterns, the matcher, explanations
**   behavior     the jump gate, action state machines and layers
**   gate         event stamps, the dispatch ledger, cycle tracks, the playback owner
**   hit          boxes, hit and throw definitions, rectangle tests
**   world        entities, resources, the tick pipeline, collision, hashes and snapshots
** Beside them:
**   replay       the replay file format
**   locomotion   locomotion signals for animation graphs
**   replication  authority / owning client / observer roles
** On top of world and replay:
**   determinism  state diffs, the rollback sync test, recording and verifying replays
**   session      input records, transports, the rollback session over a network
*/
#ifndef FRAMEGATE_H
#define FRAMEGATE_H

#include "framegate/base.h"
#include "framegate/input.h"
#include "framegate/loop.h"
#include "framegate/motion.h"
#include "framegate/gate.h"
#include "framegate/hit.h"
#include "framegate/behavior.h"
#include "framegate/world.h"
#include "framegate/vars.h"
#include "framegate/replay.h"
#include "framegate/locomotion.h"
#include "framegate/replication.h"
#include "framegate/determinism.h"
#include "framegate/session.h"

#endif
