/* SPDX-License-Identifier: MIT */
/*
** enet_app.c: a studio's program that uses the session transport over ENet (framegate/enet.h),
** built by the install check against the installed package (CMake's framegate::enet and
** pkg-config's framegate-enet). Node 0 listens on a free port of 127.0.0.1, node 1 connects to
** it; a datagram goes each way through fg_transport, and the program prints what arrived.
*/
#define _POSIX_C_SOURCE 200809L
#include <framegate/enet.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int fail(const char *what, const fg_error *err) {
    fprintf(stderr, "enet_app: %s: %s\n", what, err ? fg_error_message(err) : "timed out");
    return 1;
}

/* Sends msg from a to node `to` until b receives it (the first sends may precede the
** connection, and a datagram may be lost); *got gets what arrived. */
static int exchange(fg_transport a, uint32_t to, fg_transport b, const char *msg, char *got,
                    size_t cap, uint32_t *from) {
    struct timespec ms = {0, 1000000};
    for (int i = 0; i < 5000; i++) {
        fg_error err;
        size_t len = 0;
        uint32_t node = 0;
        if (i % 20 == 0 && a.send(a.ud, to, msg, strlen(msg), &err) != FG_OK)
            return fail("send", &err);
        if (a.recv(a.ud, &node, got, cap - 1, &len, &err) != FG_OK) return fail("recv", &err);
        if (b.recv(b.ud, &node, got, cap - 1, &len, &err) != FG_OK) return fail("recv", &err);
        if (len > 0) {
            got[len] = '\0';
            *from = node;
            return 0;
        }
        nanosleep(&ms, NULL);
    }
    return fail("no datagram arrived in 5 s", NULL);
}

int main(void) {
    fg_error err;
    fg_enet *host = NULL, *join = NULL;
    fg_enet_config hc = {.node = 0, .nodes = 2, .host = "127.0.0.1", .port = 0};
    if (fg_enet_create(&hc, &host, &err) != FG_OK) return fail("node 0", &err);
    fg_enet_config jc = {.node = 1, .nodes = 2, .host = "127.0.0.1", .port = fg_enet_port(host)};
    if (fg_enet_create(&jc, &join, &err) != FG_OK) {
        fg_enet_destroy(host);
        return fail("node 1", &err);
    }
    char a[64], b[64];
    uint32_t from_a = 9, from_b = 9;
    int rc = exchange(fg_enet_transport(join), 0, fg_enet_transport(host), "ping", a, sizeof a,
                      &from_a);
    if (rc == 0)
        rc = exchange(fg_enet_transport(host), 1, fg_enet_transport(join), "pong", b, sizeof b,
                      &from_b);
    if (rc == 0)
        printf("enet: node 0 got '%s' from node %u, node 1 got '%s' from node %u\n", a, from_a,
               b, from_b);
    fg_enet_destroy(join);
    fg_enet_destroy(host);
    return rc;
}
