/*
** framegate/replication.h: replication roles: authority, owning client and observers linked by an in-memory transport.
*/
#ifndef FRAMEGATE_REPLICATION_H
#define FRAMEGATE_REPLICATION_H

#include "framegate/base.h"

#endif
