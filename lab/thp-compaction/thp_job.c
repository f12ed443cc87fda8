/*
 * thp_job: a batch job that, for each job, maps a 64 MiB 2 MiB-aligned anonymous buffer, writes
 * every page, and keeps it (a growing working set, as a job that builds an in-memory index).
 * No madvise: whether it gets huge pages, and at what cost, is the system's THP policy.
 *
 *   thp_job [JOBS_MIB_LIMIT]
 *
 * Prints "ready", then works until killed or until JOBS_MIB_LIMIT MiB are held (then it starts over,
 * unmapping everything). Every second it prints to stderr the MiB faulted in that second.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define JOB (64UL << 20)
#define HUGE (2UL << 20)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *map_aligned(size_t len)
{
    char *p = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) { perror("mmap"); exit(1); }
    return (char *)(((uintptr_t)p + HUGE - 1) & ~(HUGE - 1));
}

int main(int argc, char **argv)
{
    size_t limit = (argc > 1 ? (size_t)atol(argv[1]) : 4096) << 20;
    size_t held = 0, jobs = limit / JOB, n = 0;
    char **bufs = calloc(jobs, sizeof *bufs);
    printf("ready\n");
    fflush(stdout);
    double mark = now();
    size_t done = 0;
    for (;;) {
        if (n == jobs) {
            for (size_t i = 0; i < n; i++) munmap(bufs[i] - 0, JOB);
            n = 0, held = 0;
        }
        char *b = bufs[n++] = map_aligned(JOB);
        for (size_t off = 0; off < JOB; off += 4096) b[off] = 1;
        held += JOB, done += JOB;
        double t = now();
        if (t - mark >= 1) {
            fprintf(stderr, "%.0f MiB/s faulted\n", done / (t - mark) / (1 << 20));
            mark = t, done = 0;
        }
    }
}
