/*
 * starve: CPU-bound batch threads sharing the machine with one latency-sensitive thread.
 *
 *   starve bad|fixed [BUSY]
 *
 * The latency thread ("ticker") sleeps 1 ms, then does about 50 microseconds of work, in a loop;
 * each time it measures how late it woke (actual sleep minus 1 ms).
 *   bad:   BUSY batch threads ("batch-N", default 6 on a 2-CPU machine) spin at the default
 *          priority (nice 0): the ticker, once woken, sits runnable behind them.
 *   fixed: the same batch threads run at nice 19 (setpriority), so the scheduler gives the ticker
 *          a CPU as soon as it wakes. The batch work is unchanged.
 * Prints "ready" once all threads exist, then runs until killed; every second it prints the
 * ticker's wake-up lateness p50/p99/max in microseconds to stderr.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int bad;

static long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void __attribute__((noinline)) crunch(long ns)
{
    long end = now_ns() + ns;
    volatile unsigned long x = 1;
    while (now_ns() < end)
        for (int i = 0; i < 100; i++) x = x * 6364136223846793005UL + 1;
}

static void *batch(void *arg)
{
    (void)arg;
    if (!bad && setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19) != 0) perror("setpriority");
    for (;;) crunch(1000000000L);
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static void *ticker(void *arg)
{
    (void)arg;
    static long late[4096];
    int n = 0;
    long report = now_ns() + 1000000000L;
    for (;;) {
        struct timespec ms = { 0, 1000000 };
        long before = now_ns();
        nanosleep(&ms, NULL);
        if (n < 4096) late[n++] = (now_ns() - before - 1000000) / 1000;
        crunch(50000);
        if (now_ns() >= report) {
            qsort(late, n, sizeof late[0], cmp);
            fprintf(stderr, "ticks %d late us p50 %ld p99 %ld max %ld\n", n, late[n / 2],
                    late[n * 99 / 100], late[n - 1]);
            n = 0;
            report += 1000000000L;
        }
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
        fprintf(stderr, "usage: %s bad|fixed [BUSY]\n", argv[0]);
        return 2;
    }
    bad = !strcmp(argv[1], "bad");
    int busy = argc > 2 ? atoi(argv[2]) : 6;
    for (int i = 0; i < busy; i++) {
        char name[32];
        snprintf(name, sizeof name, "batch-%d", i);
        name[15] = 0;
        start(batch, name);
    }
    start(ticker, "ticker");
    usleep(100000);
    printf("ready\n");
    fflush(stdout);
    for (;;) pause();
}
