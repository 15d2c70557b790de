/*
** framegate/locomotion.h: locomotion signals: cardinal direction with hysteresis, orientation warping, pivots, walls; a gather/compute split.
*/
#ifndef FRAMEGATE_LOCOMOTION_H
#define FRAMEGATE_LOCOMOTION_H

#include "framegate/base.h"

#endif
