/*
 * convoy: request threads that each fold a batch of events into a shared statistics table
 * guarded by one pthread mutex.
 *
 *   convoy bad|fixed [THREADS] [BATCH] [THINK_US]
 *
 * Each request waits THINK_US microseconds (the next request arriving), then counts BATCH events.
 *   bad:   the events are counted into the shared table with the mutex held for the whole batch.
 *          The lock is busy more than 100% of the time the threads would like: they queue on it,
 *          sleep in futex_wait and hand it on to each other one by one (a lock convoy), and only
 *          one CPU does useful work.
 *   fixed: each thread counts into its own table and merges it into the shared one under the
 *          mutex once every 100 requests: the same counting, the lock taken 100 times less often
 *          and held for 64 additions.
 * Prints "ready" once all threads exist, then runs until killed; every second it prints the
 * requests done in that second to stderr.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SLOTS 64
#define MERGE_EVERY 100

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long table[SLOTS];
static int bad, batch;
static long think_us;
static atomic_long done;

/* Count one batch of events into table t. */
static void __attribute__((noinline)) count_batch(unsigned long *t, unsigned long x)
{
    for (int i = 0; i < batch; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        t[(x >> 32) % SLOTS] += t[(x >> 40) % SLOTS] | 1;
    }
}

static void *worker(void *arg)
{
    unsigned long seed = (unsigned long)(size_t)arg, local[SLOTS] = { 0 };
    struct timespec think = { 0, think_us * 1000 };
    for (long n = 1;; n++) {
        nanosleep(&think, NULL);
        if (bad) {
            pthread_mutex_lock(&table_lock);
            count_batch(table, seed + n);
            pthread_mutex_unlock(&table_lock);
        } else {
            count_batch(local, seed + n);
            if (n % MERGE_EVERY == 0) {
                pthread_mutex_lock(&table_lock);
                for (int i = 0; i < SLOTS; i++) table[i] += local[i], local[i] = 0;
                pthread_mutex_unlock(&table_lock);
            }
        }
        atomic_fetch_add_explicit(&done, 1, memory_order_relaxed);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "bad") && strcmp(argv[1], "fixed"))) {
        fprintf(stderr, "usage: %s bad|fixed [THREADS] [BATCH] [THINK_US]\n", argv[0]);
        return 2;
    }
    bad = !strcmp(argv[1], "bad");
    int threads = argc > 2 ? atoi(argv[2]) : 6;
    batch = argc > 3 ? atoi(argv[3]) : 520000;
    think_us = argc > 4 ? atol(argv[4]) : 1800;
    for (int i = 0; i < threads; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, worker, (void *)(size_t)((i + 1) * 1000003))) { perror("pthread_create"); return 1; }
        char name[32];
        snprintf(name, sizeof name, "request-%d", i);
        name[15] = 0;
        pthread_setname_np(t, name);
    }
    printf("ready\n");
    fflush(stdout);
    for (;;) {
        long before = atomic_load(&done);
        sleep(1);
        fprintf(stderr, "requests/s %ld\n", atomic_load(&done) - before);
    }
}
