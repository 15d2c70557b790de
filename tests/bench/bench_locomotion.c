/* SPDX-License-Identifier: MIT */
/*
** bench_locomotion.c: cost of the locomotion compute step per entity, and throughput when the
** compute runs on worker threads while the simulation thread advances its world.
**
**   bench_locomotion [--smoke] [--entities N] [--ticks T]
**
** Prints figures; asserts nothing about time. Build with the release preset for real numbers.
*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "framegate.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* {====================================================================== a world stand-in */

typedef struct world {
    uint32_t n;
    fg_rng rng;
    fg_vec2 *stick, *velocity;
    float *yaw;
    fg_loco_state *loco;
} world;

static void world_init(world *w, uint32_t n) {
    w->n = n;
    w->rng = fg_rng_seeded(2718);
    w->stick = calloc(n, sizeof *w->stick);
    w->velocity = calloc(n, sizeof *w->velocity);
    w->yaw = calloc(n, sizeof *w->yaw);
    w->loco = calloc(n, sizeof *w->loco);
    if (!w->stick || !w->velocity || !w->yaw || !w->loco) {
        fprintf(stderr, "bench_locomotion: out of memory for %u entities\n", n);
        exit(1);
    }
    for (uint32_t i = 0; i < n; i++) fg_loco_state_init(&w->loco[i]);
}

static void world_free(world *w) {
    free(w->stick);
    free(w->velocity);
    free(w->yaw);
    free(w->loco);
}

/* The world's own tick: sticks change now and then, velocities follow them. */
static void world_advance(world *w) {
    const float dt = 1.0f / 60.0f;
    for (uint32_t i = 0; i < w->n; i++) {
        if ((fg_rng_next(&w->rng) & 15) == 0) {
            w->stick[i].x = (float)fg_rng_range(&w->rng, -100, 100) / 100.0f;
            w->stick[i].y = (float)fg_rng_range(&w->rng, -100, 100) / 100.0f;
        }
        w->velocity[i].x = (w->velocity[i].x + w->stick[i].x * 20.0f * dt) * 0.97f;
        w->velocity[i].y = (w->velocity[i].y + w->stick[i].y * 20.0f * dt) * 0.97f;
        w->yaw[i] += 0.5f;
    }
}

static void gather(const world *w, fg_loco_batch *b) {
    fg_loco_batch_clear(b);
    for (uint32_t i = 0; i < w->n; i++) {
        fg_loco_input in;
        in.velocity = w->velocity[i];
        in.acceleration.x = w->stick[i].x * 20.0f;
        in.acceleration.y = w->stick[i].y * 20.0f;
        in.actor_yaw = w->yaw[i];
        in.aim_yaw = w->yaw[i] + 15.0f;
        in.strafe = (i & 1) != 0;
        in.airborne = false;
        fg_loco_batch_gather(b, i, &w->loco[i], &in, NULL);
    }
}

static uint64_t scatter(world *w, const fg_loco_batch *b) {
    uint64_t sum = 0;
    for (uint32_t i = 0; i < fg_loco_batch_count(b); i++) {
        const fg_loco_job *j = fg_loco_batch_job(b, i);
        w->loco[j->entity] = j->state;
        sum += j->out.flags + j->out.cardinal;
    }
    return sum;
}

/* }====================================================================== */

/* {====================================================================== workers */

typedef struct pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    fg_loco_batch *batch;
    uint32_t nworkers;
    uint64_t generation; /* bumped per submitted tick */
    uint32_t done;
    bool quit;
} pool;

typedef struct worker_arg {
    pool *p;
    uint32_t index;
} worker_arg;

static void *worker_main(void *arg) {
    worker_arg *wa = arg;
    pool *p = wa->p;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->generation == seen && !p->quit) pthread_cond_wait(&p->cv, &p->mu);
        if (p->quit) break;
        seen = p->generation;
        fg_loco_batch *b = p->batch;
        uint32_t n = fg_loco_batch_count(b);
        uint32_t lo = (uint32_t)((uint64_t)n * wa->index / p->nworkers);
        uint32_t hi = (uint32_t)((uint64_t)n * (wa->index + 1) / p->nworkers);
        pthread_mutex_unlock(&p->mu);
        fg_loco_batch_compute(b, lo, hi);
        pthread_mutex_lock(&p->mu);
        if (++p->done == p->nworkers) pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* }====================================================================== */

int main(int argc, char **argv) {
    uint32_t n = 100000, ticks = 200;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--smoke") == 0) {
            n = 1000;
            ticks = 3;
        } else if (strcmp(argv[i], "--entities") == 0 && i + 1 < argc) {
            n = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--ticks") == 0 && i + 1 < argc) {
            ticks = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: bench_locomotion [--smoke] [--entities N] [--ticks T]\n");
            return 2;
        }
    }
    if (n < 1 || ticks < 1) {
        fprintf(stderr, "bench_locomotion: entities and ticks must be at least 1\n");
        return 2;
    }
    fg_loco_config cfg = fg_loco_config_default(60);
    fg_loco_batch *batch;
    fg_error err;
    if (fg_loco_batch_create(&cfg, n, NULL, &batch, &err) != FG_OK) {
        fprintf(stderr, "bench_locomotion: %s\n", fg_error_message(&err));
        return 1;
    }
    printf("locomotion: %u entities, %u ticks\n", n, ticks);
    uint64_t check = 0;

    /* 1. The compute step alone, one thread. */
    world w;
    world_init(&w, n);
    double compute = 0, gather_t = 0, scatter_t = 0, advance_t = 0, best = 1e30;
    for (uint32_t t = 0; t < ticks; t++) {
        double t0 = now_s();
        gather(&w, batch);
        double t1 = now_s();
        fg_loco_batch_compute(batch, 0, UINT32_MAX);
        double t2 = now_s();
        check += scatter(&w, batch);
        double t3 = now_s();
        world_advance(&w);
        double t4 = now_s();
        gather_t += t1 - t0;
        compute += t2 - t1;
        if (t >= ticks / 4 && t2 - t1 < best) best = t2 - t1; /* once most entities move */
        scatter_t += t3 - t2;
        advance_t += t4 - t3;
    }
    double per = (double)n * ticks;
    printf("  compute step           %7.1f ns/entity (mean), %.1f in the best tick after warm-up\n",
           compute / per * 1e9, best / n * 1e9);
    printf("  gather                 %7.1f ns/entity\n", gather_t / per * 1e9);
    printf("  read-back              %7.1f ns/entity\n", scatter_t / per * 1e9);
    printf("  world advance          %7.1f ns/entity (the stand-in's own tick)\n",
           advance_t / per * 1e9);
    double inline_total = gather_t + compute + scatter_t + advance_t;
    printf("  inline tick            %7.3f ms/tick, %.1f M entity-ticks/s\n",
           inline_total / ticks * 1e3, per / inline_total / 1e6);
    world_free(&w);

    /* 2. Compute on 1 and 2 workers while this thread advances the world. */
    for (uint32_t workers = 1; workers <= 2; workers++) {
        pool p;
        memset(&p, 0, sizeof p);
        pthread_mutex_init(&p.mu, NULL);
        pthread_cond_init(&p.cv, NULL);
        p.batch = batch;
        p.nworkers = workers;
        pthread_t th[2];
        worker_arg args[2];
        for (uint32_t k = 0; k < workers; k++) {
            args[k].p = &p;
            args[k].index = k;
            pthread_create(&th[k], NULL, worker_main, &args[k]);
        }
        world_init(&w, n);
        double t0 = now_s(), waited = 0;
        for (uint32_t t = 0; t < ticks; t++) {
            gather(&w, batch);
            pthread_mutex_lock(&p.mu);
            p.done = 0;
            p.generation++;
            pthread_cond_broadcast(&p.cv);
            pthread_mutex_unlock(&p.mu);
            world_advance(&w); /* overlaps the compute */
            double tw = now_s();
            pthread_mutex_lock(&p.mu);
            while (p.done < workers) pthread_cond_wait(&p.cv, &p.mu);
            pthread_mutex_unlock(&p.mu);
            waited += now_s() - tw;
            check += scatter(&w, batch);
        }
        double total = now_s() - t0;
        pthread_mutex_lock(&p.mu);
        p.quit = true;
        pthread_cond_broadcast(&p.cv);
        pthread_mutex_unlock(&p.mu);
        for (uint32_t k = 0; k < workers; k++) pthread_join(th[k], NULL);
        pthread_cond_destroy(&p.cv);
        pthread_mutex_destroy(&p.mu);
        world_free(&w);
        printf("  %u worker%s + world      %7.3f ms/tick, %.1f M entity-ticks/s (%.2fx inline); "
               "the simulation thread waited %.0f%% of the tick\n",
               workers, workers > 1 ? "s" : " ", total / ticks * 1e3, per / total / 1e6,
               inline_total / total, 100.0 * waited / total);
    }
    printf("  (checksum %llu)\n", (unsigned long long)check);
    fg_loco_batch_destroy(batch);
    return 0;
}
