/* SPDX-License-Identifier: MIT */
/*
** driver.c: runs a libFuzzer-style target without libFuzzer (gcc builds, sanitizer CI runs).
** Usage: fuzz_x RUNS [CORPUS_DIR]. Every corpus file is fed as is, then RUNS inputs made by
** seeded mutation of corpus entries (or of random bytes when the corpus is empty). The seed is
** fixed, so a failure reproduces.
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT 4096
#define MAX_CORPUS 256

static uint64_t rng_state = 0x853c49e6748fea9bull;
static uint64_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static size_t load_corpus(const char *dir, uint8_t **items, size_t *sizes) {
    size_t n = 0;
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < MAX_CORPUS) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        items[n] = malloc(MAX_INPUT);
        sizes[n] = fread(items[n], 1, MAX_INPUT, f);
        fclose(f);
        n++;
    }
    closedir(d);
    return n;
}

int main(int argc, char **argv) {
    long runs = argc > 1 ? atol(argv[1]) : 1000;
    static uint8_t *items[MAX_CORPUS];
    static size_t sizes[MAX_CORPUS];
    size_t n = load_corpus(argc > 2 ? argv[2] : NULL, items, sizes);
    for (size_t i = 0; i < n; i++) LLVMFuzzerTestOneInput(items[i], sizes[i]);
    uint8_t *buf = malloc(MAX_INPUT);
    for (long r = 0; r < runs; r++) {
        size_t len;
        if (n && (next_random() % 8) != 0) {
            size_t k = next_random() % n;
            len = sizes[k];
            memcpy(buf, items[k], len);
            int edits = 1 + (int)(next_random() % 4);
            for (int e = 0; e < edits; e++) {
                uint64_t op = next_random() % 4;
                if (op == 0 && len) buf[next_random() % len] = (uint8_t)next_random();
                else if (op == 1 && len) len = next_random() % len; /* truncate */
                else if (op == 2 && len < MAX_INPUT) buf[len++] = (uint8_t)next_random();
                else if (len > 1) { /* copy a slice over another */
                    size_t a = next_random() % len, b = next_random() % len;
                    size_t m = 1 + next_random() % (len - (a > b ? a : b));
                    memmove(buf + a, buf + b, m);
                }
            }
        } else {
            len = next_random() % 256;
            for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)next_random();
        }
        LLVMFuzzerTestOneInput(buf, len);
    }
    free(buf);
    for (size_t i = 0; i < n; i++) free(items[i]);
    printf("fuzz smoke: %zu corpus inputs, %ld generated inputs, no crash\n", n, runs);
    return 0;
}
