/*
 * mmap_churn: query threads that each need a scratch buffer per request.
 *
 *   mmap_churn bad|fixed [THREADS] [KIB] [THINK_US]
 *
 *   bad:   every request maps a fresh anonymous buffer of KIB KiB (mmap), writes every page of it,
 *          and unmaps it (munmap). mmap and munmap take the process's mmap_lock for writing, so the
 *          THREADS threads queue behind each other on that one lock (kernel/locking/rwsem.c).
 *   fixed: each thread maps its buffer once at start and reuses it for every request: the same
 *          page writes, no mmap/munmap in the loop, so the lock is never taken.
 * Between requests each thread waits THINK_US microseconds (the next query arriving), so the
 * threads are not simply CPU-bound: in fixed they mostly sleep; in bad they wait on the lock.
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
#include <sys/mman.h>
#include <unistd.h>

static int bad;
static size_t len;
static long think_us;
static atomic_long done;

static char *map_buffer(void)
{
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) { perror("mmap"); exit(1); }
    return p;
}

/* One request: write a byte in every page of the buffer (faults them in when they are new). */
static void __attribute__((noinline)) handle_request(char *buf, long n)
{
    for (size_t off = 0; off < len; off += 4096) buf[off] = (char)(n + off);
}

static void *query_thread(void *arg)
{
    (void)arg;
    char *buf = bad ? NULL : map_buffer();
    for (long n = 0;; n++) {
        if (bad) buf = map_buffer();
        handle_request(buf, n);
        if (bad && munmap(buf, len) != 0) { perror("munmap"); exit(1); }
        atomic_fetch_add_explicit(&done, 1, memory_order_relaxed);
        struct timespec think = { 0, think_us * 1000 };
        nanosleep(&think, NULL);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "bad") && strcmp(argv[1], "fixed"))) {
        fprintf(stderr, "usage: %s bad|fixed [THREADS] [KIB] [THINK_US]\n", argv[0]);
        return 2;
    }
    bad = !strcmp(argv[1], "bad");
    int threads = argc > 2 ? atoi(argv[2]) : 16;
    len = (size_t)(argc > 3 ? atoi(argv[3]) : 256) * 1024;
    think_us = argc > 4 ? atol(argv[4]) : 2000;
    for (int i = 0; i < threads; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, query_thread, NULL)) { perror("pthread_create"); return 1; }
        char name[32];
        snprintf(name, sizeof name, "query-%d", i);
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
