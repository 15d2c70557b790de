/* SPDX-License-Identifier: MIT */
/*
** enet_transport.c: the session's transport over ENet. Each ENet packet carries two bytes, the
** sending node and the node it is for, then the session's datagram. Node 0 learns a peer's node
** number from the connect request's data, and forwards packets that are for another node.
** A connection that drops is made again: a joining node reconnects by itself (at most twice a
** second), and node 0 lets a node come back from the address it played from, so a peer whose
** network went away rejoins the session within its timeout.
*/
#include "framegate/enet.h"

#include <enet/enet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fg_enet {
    fg_enet_config cfg;
    ENetHost *host;
    ENetPeer *peers[FG_SESSION_MAX_NODES]; /* node 0: by node; others: [0] is node 0 */
    ENetAddress to;          /* the others: node 0's address */
    ENetPeer *connecting;    /* the others: the connection being made or held, NULL: none */
    enet_uint32 retry_at;    /* the others: when to connect again (ENet's milliseconds) */
    bool was[FG_SESSION_MAX_NODES]; /* connected once (by node; the others: [0]) */
    uint32_t rejoins;        /* connections made again after one was lost */
    uint8_t buf[FG_SESSION_DATAGRAM_MAX + 2];
};

#define FG_ENET_RETRY_MS 500

static ENetPeer *route(fg_enet *e, uint32_t node) {
    return e->cfg.node == 0 ? e->peers[node] : e->peers[0];
}

static fg_status enet_send(void *ud, uint32_t node, const void *data, size_t len, fg_error *err) {
    fg_enet *e = ud;
    if (node >= e->cfg.nodes || node == e->cfg.node)
        return fg_error_set(err, FG_EINVAL, "enet: node %u sends to node %u, expected 0..%u "
                            "other than itself", e->cfg.node, node, e->cfg.nodes - 1);
    if (len > FG_SESSION_DATAGRAM_MAX)
        return fg_error_set(err, FG_EINVAL, "enet: datagram of %zu bytes, at most %d", len,
                            FG_SESSION_DATAGRAM_MAX);
    ENetPeer *p = route(e, node);
    if (!p || p->state != ENET_PEER_STATE_CONNECTED) return FG_OK; /* lost, like any datagram */
    e->buf[0] = (uint8_t)e->cfg.node;
    e->buf[1] = (uint8_t)node;
    memcpy(e->buf + 2, data, len);
    ENetPacket *pk = enet_packet_create(e->buf, len + 2, ENET_PACKET_FLAG_UNSEQUENCED);
    if (!pk) return fg_error_set(err, FG_ENOMEM, "enet: out of memory for a packet");
    if (enet_peer_send(p, 0, pk) != 0) enet_packet_destroy(pk);
    return FG_OK;
}

static void forget(fg_enet *e, ENetPeer *p) {
    for (uint32_t i = 0; i < FG_SESSION_MAX_NODES; i++)
        if (e->peers[i] == p) e->peers[i] = NULL;
    if (p == e->connecting) {
        e->connecting = NULL;
        e->retry_at = enet_time_get() + FG_ENET_RETRY_MS;
    }
}

static void connected(fg_enet *e, uint32_t slot, ENetPeer *p) {
    e->peers[slot] = p;
    if (e->was[slot]) e->rejoins++;
    e->was[slot] = true;
}

/* A joining node without a connection to node 0 starts one (again). */
static void reconnect(fg_enet *e) {
    if (e->cfg.node == 0 || e->connecting) return;
    if ((int32_t)(enet_time_get() - e->retry_at) < 0) return;
    e->connecting = enet_host_connect(e->host, &e->to, 1, e->cfg.node);
    if (!e->connecting) e->retry_at = enet_time_get() + FG_ENET_RETRY_MS;
}

/* Node 0: a connection for node `who`. A node comes back from the address it played from even
** before its old connection timed out here (its network dropped and returned); any other claim on
** a node already connected is refused. */
static void accept_node(fg_enet *e, ENetPeer *p, uint32_t who) {
    ENetPeer *old = who > 0 && who < e->cfg.nodes ? e->peers[who] : NULL;
    if (who == 0 || who >= e->cfg.nodes || (old && old->address.host != p->address.host)) {
        enet_peer_disconnect_now(p, 0);
        return;
    }
    if (old) enet_peer_reset(old);
    connected(e, who, p);
}

/* A packet for node 0 (or this node): hand it over; one for another node: forward it. */
static bool deliver(fg_enet *e, ENetEvent *ev, uint32_t *node, void *out, size_t cap,
                    size_t *len) {
    ENetPacket *pk = ev->packet;
    bool mine = false;
    if (pk->dataLength >= 2 && pk->dataLength - 2 <= cap && pk->data[0] < e->cfg.nodes &&
        pk->data[1] < e->cfg.nodes) {
        uint32_t from = pk->data[0], to = pk->data[1];
        /* Node 0 knows who each peer is: a packet claiming another sender is dropped. */
        bool honest = e->cfg.node != 0 || e->peers[from] == ev->peer;
        if (honest && to == e->cfg.node) {
            memcpy(out, pk->data + 2, pk->dataLength - 2);
            *len = pk->dataLength - 2;
            *node = from;
            mine = true;
        } else if (honest && e->cfg.node == 0 && e->peers[to]) {
            ENetPacket *fw = enet_packet_create(pk->data, pk->dataLength,
                                                ENET_PACKET_FLAG_UNSEQUENCED);
            if (fw && enet_peer_send(e->peers[to], 0, fw) != 0) enet_packet_destroy(fw);
        }
    }
    enet_packet_destroy(pk);
    return mine;
}

static fg_status enet_recv(void *ud, uint32_t *node, void *buf, size_t cap, size_t *len,
                           fg_error *err) {
    fg_enet *e = ud;
    *len = 0;
    ENetEvent ev;
    reconnect(e);
    for (;;) {
        int r = enet_host_service(e->host, &ev, 0);
        if (r < 0) return fg_error_set(err, FG_EIO, "enet: the host failed to service its socket");
        if (r == 0) return FG_OK;
        switch (ev.type) {
        case ENET_EVENT_TYPE_CONNECT:
            if (e->cfg.node == 0) accept_node(e, ev.peer, ev.data);
            else if (ev.peer == e->connecting) connected(e, 0, ev.peer);
            break;
        case ENET_EVENT_TYPE_DISCONNECT: forget(e, ev.peer); break;
        case ENET_EVENT_TYPE_RECEIVE:
            if (deliver(e, &ev, node, buf, cap, len)) return FG_OK;
            break;
        default: break;
        }
    }
}

fg_status fg_enet_create(const fg_enet_config *cfg, fg_enet **out, fg_error *err) {
    *out = NULL;
    if (cfg->nodes < 2 || cfg->nodes > FG_SESSION_MAX_NODES || cfg->node >= cfg->nodes)
        return fg_error_set(err, FG_EINVAL, "enet: node %u of %u, expected 2..%d nodes",
                            cfg->node, cfg->nodes, FG_SESSION_MAX_NODES);
    if (cfg->node != 0 && (!cfg->host || !*cfg->host || cfg->port == 0))
        return fg_error_set(err, FG_EINVAL, "enet: node %u needs node 0's host and port",
                            cfg->node);
    if (enet_initialize() != 0) return fg_error_set(err, FG_EIO, "enet: cannot initialise");
    fg_enet *e = calloc(1, sizeof *e);
    if (!e) {
        enet_deinitialize();
        return fg_error_set(err, FG_ENOMEM, "enet: out of memory");
    }
    e->cfg = *cfg;
    ENetAddress addr;
    memset(&addr, 0, sizeof addr);
    addr.host = ENET_HOST_ANY;
    addr.port = cfg->port;
    if (cfg->host && *cfg->host && enet_address_set_host(&addr, cfg->host) != 0) {
        fg_error_set(err, FG_EINVAL, "enet: cannot resolve host '%s'", cfg->host);
        fg_enet_destroy(e);
        return FG_EINVAL;
    }
    if (cfg->node == 0) {
        e->host = enet_host_create(&addr, FG_SESSION_MAX_NODES, 1, 0, 0);
        if (!e->host) {
            fg_error_set(err, FG_EIO, "enet: cannot listen on %s port %u (in use?)",
                         cfg->host && *cfg->host ? cfg->host : "any address", cfg->port);
            fg_enet_destroy(e);
            return FG_EIO;
        }
    } else {
        e->to = addr;
        e->host = enet_host_create(NULL, 1, 1, 0, 0);
        if (e->host) e->connecting = enet_host_connect(e->host, &addr, 1, cfg->node);
        if (!e->connecting) {
            fg_error_set(err, FG_EIO, "enet: cannot start connecting to %s port %u", cfg->host,
                         cfg->port);
            fg_enet_destroy(e);
            return FG_EIO;
        }
    }
    *out = e;
    return FG_OK;
}

void fg_enet_destroy(fg_enet *e) {
    if (!e) return;
    if (e->host) {
        for (uint32_t i = 0; i < FG_SESSION_MAX_NODES; i++)
            if (e->peers[i]) enet_peer_disconnect_now(e->peers[i], 0);
        enet_host_flush(e->host);
        enet_host_destroy(e->host);
    }
    free(e);
    enet_deinitialize();
}

fg_transport fg_enet_transport(fg_enet *e) {
    fg_transport t;
    t.ud = e;
    t.send = enet_send;
    t.recv = enet_recv;
    return t;
}

uint16_t fg_enet_port(const fg_enet *e) { return e->host ? e->host->address.port : 0; }

uint32_t fg_enet_connected(const fg_enet *e) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < FG_SESSION_MAX_NODES; i++)
        if (e->peers[i] && e->peers[i]->state == ENET_PEER_STATE_CONNECTED) n++;
    return n;
}

void fg_enet_drop(fg_enet *e) {
    for (uint32_t i = 0; i < FG_SESSION_MAX_NODES; i++)
        if (e->peers[i]) {
            enet_peer_disconnect_now(e->peers[i], 0);
            forget(e, e->peers[i]);
        }
    if (e->connecting) {
        enet_peer_reset(e->connecting);
        forget(e, e->connecting);
    }
    e->retry_at = enet_time_get(); /* a joining node reconnects on its next receive */
    enet_host_flush(e->host);
}

uint32_t fg_enet_rejoins(const fg_enet *e) { return e->rejoins; }

uint32_t fg_enet_rtt_ms(const fg_enet *e) {
    uint32_t worst = 0;
    for (uint32_t i = 0; i < FG_SESSION_MAX_NODES; i++)
        if (e->peers[i] && e->peers[i]->roundTripTime > worst) worst = e->peers[i]->roundTripTime;
    return worst;
}
