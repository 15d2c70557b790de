/*
** framegate.h: the whole public C API. Include this, link -lframegate.
**
** Layers, in dependency order:
**   base     ticks, errors, allocator, hashing, RNG
**   input    device mapping, sticks, SOCD, edges and the per-entity input buffer
*/
#ifndef FRAMEGATE_H
#define FRAMEGATE_H

#include "framegate/base.h"
#include "framegate/input.h"

#endif
