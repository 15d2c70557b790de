/* SPDX-License-Identifier: MIT */
/*
** framegate/enet.h: a session transport over ENet (UDP), in its own library, framegate_enet,
** built when ENet's development files are present (Debian: libenet-dev). The runtime itself
** never depends on ENet.
**
** Node 0 listens on a port; every other node connects to it and says its node number. Datagrams
** between two joining nodes go through node 0, which forwards them. Datagrams are sent unreliable
** and unsequenced: the session repeats what matters itself. ENet allocates its packets; the
** session on top of it allocates nothing per frame.
**
** A connection that drops is made again: a joining node reconnects by itself, and node 0 takes a
** node back from the address it played from (even before its old connection timed out), so a
** peer whose network went away rejoins the session if it returns within the session's
** disconnect_us.
*/
#ifndef FRAMEGATE_ENET_H
#define FRAMEGATE_ENET_H

#include "framegate/session.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fg_enet_config {
    uint32_t node;    /* this node: 0 listens, the others connect */
    uint32_t nodes;   /* every node of the match, 2..FG_SESSION_MAX_NODES */
    const char *host; /* the address node 0 listens on (node 0: NULL for any address) */
    uint16_t port;    /* node 0's port (node 0: 0 picks a free one, see fg_enet_port) */
} fg_enet_config;

typedef struct fg_enet fg_enet;

/* Binds (node 0) or starts connecting (the others). Fails with the system's reason: "enet: cannot
** listen on port 7000 (in use?)", "enet: cannot resolve host 'nowhere'". */
FG_API fg_status fg_enet_create(const fg_enet_config *cfg, fg_enet **out, fg_error *err);
FG_API void fg_enet_destroy(fg_enet *e);
FG_API fg_transport fg_enet_transport(fg_enet *e);
/* The port node 0 listens on. */
FG_API uint16_t fg_enet_port(const fg_enet *e);
/* Nodes connected now (node 0: its peers; the others: 1 once connected to node 0, else 0). */
FG_API uint32_t fg_enet_connected(const fg_enet *e);
/* Drops every connection now, as if the network went away (peers see a disconnect); a joining
** node connects again on its next receive. For tests of rejoining, and a host's "reconnect". */
FG_API void fg_enet_drop(fg_enet *e);
/* Connections made again after one was lost (node 0: every node that came back; the others:
** each reconnection to node 0). */
FG_API uint32_t fg_enet_rejoins(const fg_enet *e);
/* Round trip to node 0 as ENet measures it (node 0: the slowest peer), in milliseconds. */
FG_API uint32_t fg_enet_rtt_ms(const fg_enet *e);

#ifdef __cplusplus
}
#endif
#endif
