/*
 * herd: one producer hands work items to a pool of waiter threads through a queue guarded by one
 * mutex and one condition variable.
 *
 *   herd bad|fixed [WAITERS] [ITEM_US]
 *
 *   bad:   the producer wakes every waiter for every item (pthread_cond_broadcast). One waiter takes
 *          the item; the others find the queue empty and go back to sleep: a wake-up storm of
 *          WAITERS futex wake-ups per item, all from the producer's thread.
 *   fixed: the producer wakes one waiter per item (pthread_cond_signal). Same items, same work.
 * The producer adds one item every ITEM_US microseconds. Prints "ready" once all threads exist,
 * then runs until killed; every second it prints items done and wake-ups that found no item
 * (went back to sleep) to stderr.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;
static long queued;
static int bad;
static long item_us;
static atomic_long done, empty_wakeups;

/* A little work per item, outside the lock. */
static void __attribute__((noinline)) handle_item(long n)
{
    volatile unsigned long h = (unsigned long)n;
    for (int i = 0; i < 2000; i++) h = h * 6364136223846793005UL + 1442695040888963407UL;
}

static void *waiter(void *arg)
{
    (void)arg;
    for (long n = 0;; n++) {
        pthread_mutex_lock(&lock);
        for (;;) {
            pthread_cond_wait(&more, &lock);
            if (queued > 0) break;
            atomic_fetch_add_explicit(&empty_wakeups, 1, memory_order_relaxed);
        }
        queued--;
        pthread_mutex_unlock(&lock);
        handle_item(n);
        atomic_fetch_add_explicit(&done, 1, memory_order_relaxed);
    }
    return NULL;
}

static void *producer(void *arg)
{
    (void)arg;
    struct timespec gap = { 0, item_us * 1000 };
    for (;;) {
        nanosleep(&gap, NULL);
        pthread_mutex_lock(&lock);
        queued++;
        if (bad) pthread_cond_broadcast(&more);
        else pthread_cond_signal(&more);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void start(void *(*fn)(void *), const char *name)
{
    pthread_t t;
    if (pthread_create(&t, NULL, fn, NULL)) { perror("pthread_create"); exit(1); }
    pthread_setname_np(t, name);
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "bad") && strcmp(argv[1], "fixed"))) {
        fprintf(stderr, "usage: %s bad|fixed [WAITERS] [ITEM_US]\n", argv[0]);
        return 2;
    }
    bad = !strcmp(argv[1], "bad");
    int waiters = argc > 2 ? atoi(argv[2]) : 16;
    item_us = argc > 3 ? atol(argv[3]) : 1000;
    for (int i = 0; i < waiters; i++) {
        char name[32];
        snprintf(name, sizeof name, "waiter-%d", i);
        name[15] = 0;
        start(waiter, name);
    }
    start(producer, "producer");
    usleep(100000);
    printf("ready\n");
    fflush(stdout);
    for (;;) {
        long d = atomic_load(&done), e = atomic_load(&empty_wakeups);
        sleep(1);
        fprintf(stderr, "items/s %ld empty-wakeups/s %ld\n", atomic_load(&done) - d,
                atomic_load(&empty_wakeups) - e);
    }
}
