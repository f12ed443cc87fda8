/*
 * flock_storm: worker threads take and release POSIX record locks (fcntl F_SETLK) in a loop.
 *
 *   flock_storm DIR bad|fixed [THREADS] [HELD]
 *
 * Every file carries HELD locks already (non-adjacent one-byte ranges), so each F_SETLK walks a
 * list of HELD entries while holding the file's lock-context spin lock (flc_lock, fs/locks.c).
 *   bad:   all THREADS lock ranges of one shared file: one flc_lock, taken from both CPUs at once.
 *   fixed: each thread locks ranges of its own file (same list length, same work): no sharing.
 * Prints "ready" once all threads exist, then runs until killed; every second it prints the lock
 * operations (lock + unlock pairs) done in that second to stderr.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <unistd.h>

static int held = 1000;
static atomic_long done;

struct worker { int fd; long base; };

static int open_file(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) { perror(path); exit(1); }
    unlink(path);
    return fd;
}

static void setlk(int fd, short type, long start)
{
    struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = 1 };
    if (fcntl(fd, F_SETLK, &fl) != 0) { perror("fcntl"); exit(1); }
}

/* Every other byte from 0, so the held locks never merge into one range. */
static void hold_locks(int fd)
{
    for (long i = 0; i < held; i++) setlk(fd, F_WRLCK, 2 * i);
}

static void *work(void *arg)
{
    struct worker *w = arg;
    for (;;) {
        setlk(w->fd, F_WRLCK, w->base);
        setlk(w->fd, F_UNLCK, w->base);
        atomic_fetch_add_explicit(&done, 1, memory_order_relaxed);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: %s DIR bad|fixed [THREADS] [HELD]\n", argv[0]); return 2; }
    int bad = strcmp(argv[2], "bad") == 0;
    int threads = argc > 3 ? atoi(argv[3]) : 8;
    if (argc > 4) held = atoi(argv[4]);

    struct worker *ws = calloc(threads, sizeof *ws);
    int shared = -1;
    if (bad) { shared = open_file(argv[1], "shared.lock"); hold_locks(shared); }
    for (int i = 0; i < threads; i++) {
        char name[64];
        snprintf(name, sizeof name, "worker-%d.lock", i);
        ws[i].fd = bad ? shared : open_file(argv[1], name);
        if (!bad) hold_locks(ws[i].fd);
        /* Past the held ranges, one odd byte apart per thread: never conflicting. */
        ws[i].base = 2L * held + 2L * i + 1;
    }
    pthread_t t;
    for (int i = 0; i < threads; i++) pthread_create(&t, NULL, work, &ws[i]);
    printf("ready\n");
    fflush(stdout);
    for (long last = 0;;) {
        sleep(1);
        long now = atomic_load(&done);
        fprintf(stderr, "%ld lock+unlock/s\n", now - last);
        last = now;
    }
}
