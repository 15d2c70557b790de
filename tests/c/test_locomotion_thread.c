/* SPDX-License-Identifier: MIT */
/* test_locomotion_thread.c: the compute step on a worker thread while the simulation thread keeps
** advancing its own world. Run it under ThreadSanitizer (the tsan preset): it must be clean, and
** its results must equal a single-threaded run bit for bit. */
#include "fg_test.h"

#include <pthread.h>
#include <string.h>

enum { ENTITIES = 4096, TICKS = 120 };

/* A stand-in for the world: per entity a stick, a velocity integrated from it, a yaw, and the
** locomotion state it owns. Only the simulation thread touches it. */
typedef struct world {
    fg_rng rng;
    fg_vec2 stick[ENTITIES];
    fg_vec2 velocity[ENTITIES];
    float yaw[ENTITIES];
    fg_loco_state loco[ENTITIES];
    uint64_t advanced; /* work done while the worker computed */
} world;

static void world_init(world *w) {
    memset(w, 0, sizeof *w);
    w->rng = fg_rng_seeded(99);
    for (int i = 0; i < ENTITIES; i++) fg_loco_state_init(&w->loco[i]);
}

static fg_loco_input world_input(const world *w, int i) {
    fg_loco_input in;
    memset(&in, 0, sizeof in);
    in.velocity = w->velocity[i];
    in.acceleration.x = w->stick[i].x * 20.0f;
    in.acceleration.y = w->stick[i].y * 20.0f;
    in.actor_yaw = w->yaw[i];
    in.aim_yaw = w->yaw[i] + 30.0f;
    in.strafe = (i % 3) != 0;
    return in;
}

/* The world's own tick: new sticks now and then, velocities integrated toward them. */
static void world_advance(world *w) {
    const float dt = 1.0f / 60.0f;
    for (int i = 0; i < ENTITIES; i++) {
        if (fg_rng_range(&w->rng, 0, 9) == 0) {
            w->stick[i].x = (float)fg_rng_range(&w->rng, -100, 100) / 100.0f;
            w->stick[i].y = (float)fg_rng_range(&w->rng, -100, 100) / 100.0f;
        }
        w->velocity[i].x += w->stick[i].x * 20.0f * dt;
        w->velocity[i].y += w->stick[i].y * 20.0f * dt;
        w->velocity[i].x *= 0.97f;
        w->velocity[i].y *= 0.97f;
        w->yaw[i] += (float)(i % 5) - 2.0f;
    }
    w->advanced++;
}

static void fold_output(fg_hasher *h, const fg_loco_job *j) {
    uint32_t bits[5];
    memcpy(&bits[0], &j->out.locomotion_angle, 4);
    memcpy(&bits[1], &j->out.warp_angle, 4);
    memcpy(&bits[2], &j->out.aim_offset, 4);
    memcpy(&bits[3], &j->out.speed, 4);
    memcpy(&bits[4], &j->out.stop_distance, 4);
    for (int k = 0; k < 5; k++) fg_hash_u64(h, bits[k]);
    fg_hash_u64(h, j->out.flags);
    fg_hash_u64(h, j->out.pivot_id);
    fg_hash_u64(h, j->out.cardinal);
    fg_hash_u64(h, j->out.dir8);
    fg_loco_state_hash(&j->state, h);
}

/* Gather tick t's jobs from the world into b. */
static void gather(world *w, fg_loco_batch *b) {
    fg_loco_batch_clear(b);
    for (int i = 0; i < ENTITIES; i++) {
        fg_loco_input in = world_input(w, i);
        assert_int_equal(fg_loco_batch_gather(b, (uint64_t)i, &w->loco[i], &in, NULL), FG_OK);
    }
}

/* Read-back: states into the world, outputs into the running hash. */
static void scatter(world *w, const fg_loco_batch *b, fg_hasher *h, uint64_t *pivots) {
    for (uint32_t i = 0; i < fg_loco_batch_count(b); i++) {
        const fg_loco_job *j = fg_loco_batch_job(b, i);
        w->loco[j->entity] = j->state;
        fold_output(h, j);
        *pivots += (j->out.flags & FG_LOCO_PIVOT_ENTER) != 0;
    }
}

/* {====================================================================== the worker */

typedef struct worker {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    fg_loco_batch *job; /* handed over, NULL when idle */
    bool done_flag, quit;
    uint64_t computed;
} worker;

static void *worker_main(void *arg) {
    worker *k = arg;
    pthread_mutex_lock(&k->mu);
    for (;;) {
        while (!k->job && !k->quit) pthread_cond_wait(&k->cv, &k->mu);
        if (k->quit) break;
        fg_loco_batch *b = k->job;
        pthread_mutex_unlock(&k->mu);
        fg_loco_batch_compute(b, 0, UINT32_MAX); /* only the batch is touched here */
        pthread_mutex_lock(&k->mu);
        k->computed += fg_loco_batch_count(b);
        k->job = NULL;
        k->done_flag = true;
        pthread_cond_broadcast(&k->cv);
    }
    pthread_mutex_unlock(&k->mu);
    return NULL;
}

static void worker_submit(worker *k, fg_loco_batch *b) {
    pthread_mutex_lock(&k->mu);
    k->job = b;
    k->done_flag = false;
    pthread_cond_broadcast(&k->cv);
    pthread_mutex_unlock(&k->mu);
}

static void worker_wait(worker *k) {
    pthread_mutex_lock(&k->mu);
    while (!k->done_flag) pthread_cond_wait(&k->cv, &k->mu);
    pthread_mutex_unlock(&k->mu);
}

/* }====================================================================== */

/* Rule: computing on a worker while the world advances gives the same signals as computing inline,
** and (under ThreadSanitizer) without a data race: compute reads and writes only its batch. */
static void compute_on_a_worker_while_the_world_advances(void **state) {
    (void)state;
    fg_loco_config cfg = fg_loco_config_default(60);
    static world threaded, inline_world;
    world_init(&threaded);
    world_init(&inline_world);

    /* Reference: everything on this thread. */
    fg_loco_batch *ref;
    assert_int_equal(fg_loco_batch_create(&cfg, ENTITIES, NULL, &ref, NULL), FG_OK);
    fg_hasher href = fg_hasher_begin(5);
    uint64_t ref_pivots = 0;
    for (int t = 0; t < TICKS; t++) {
        gather(&inline_world, ref);
        fg_loco_batch_compute(ref, 0, UINT32_MAX);
        world_advance(&inline_world);
        scatter(&inline_world, ref, &href, &ref_pivots);
    }
    fg_loco_batch_destroy(ref);

    /* Threaded: gather here, compute there while this thread advances the world. */
    worker k;
    memset(&k, 0, sizeof k);
    pthread_mutex_init(&k.mu, NULL);
    pthread_cond_init(&k.cv, NULL);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, worker_main, &k), 0);
    fg_loco_batch *batch;
    assert_int_equal(fg_loco_batch_create(&cfg, ENTITIES, NULL, &batch, NULL), FG_OK);
    fg_hasher hthr = fg_hasher_begin(5);
    uint64_t pivots = 0;
    for (int t = 0; t < TICKS; t++) {
        gather(&threaded, batch);
        worker_submit(&k, batch);
        world_advance(&threaded); /* concurrent with the compute */
        worker_wait(&k);
        scatter(&threaded, batch, &hthr, &pivots);
    }
    pthread_mutex_lock(&k.mu);
    k.quit = true;
    pthread_cond_broadcast(&k.cv);
    pthread_mutex_unlock(&k.mu);
    pthread_join(th, NULL);
    assert_int_equal(k.computed, (uint64_t)ENTITIES * TICKS);
    assert_int_equal(threaded.advanced, TICKS);
    fg_loco_batch_destroy(batch);
    pthread_cond_destroy(&k.cv);
    pthread_mutex_destroy(&k.mu);

    assert_true(ref_pivots > 100); /* the run exercised the pivot latches */
    assert_int_equal(pivots, ref_pivots);
    assert_true(fg_hasher_end(&hthr) == fg_hasher_end(&href));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compute_on_a_worker_while_the_world_advances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
