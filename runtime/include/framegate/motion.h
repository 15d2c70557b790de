/*
** framegate/motion.h: the motion layer: combo notation (numpad and MUGEN), compiled patterns, the incremental matcher, priorities, explanations and lint.
*/
#ifndef FRAMEGATE_MOTION_H
#define FRAMEGATE_MOTION_H

#include "framegate/base.h"

#endif
