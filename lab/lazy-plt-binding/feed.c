// lazy-plt-binding: a market-data feed handler whose hot thread calls, for the first time, many
// functions of a large shared library (one handler per instrument type and venue), bound lazily.
//
//   feed LIBPATH
//
// Before "ready" the process reads its code pages (the handlers' code is warm), then drops the
// pages of the library and of its own executable that it has not touched from the page cache
// (posix_fadvise DONTNEED), as page-cache pressure from other work on the host would: the symbol
// tables, untouched since start. 7 s after "ready" (inside the recording) the hot thread starts to
// call 2000 of the library's N_HANDLERS functions, each for the first time (a fixed pseudo-random
// choice), about two per millisecond. With lazy binding each first call goes through
// _dl_runtime_resolve -> _dl_fixup -> _dl_lookup_symbol_x, which reads the library's hash table,
// symbol table and string table, and faults them back in from disk; with LD_BIND_NOW=1 all of that
// happened at start. Each 100 handler calls the thread logs how long they took to stderr.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "calls.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *hot(void *arg) {
    (void)arg;
    pthread_setname_np(pthread_self(), "md-hot");
    usleep(7000000);  // the collector takes about 4 s after "ready" to start perf
    double t0 = now_ms(), worst = 0;
    fprintf(stderr, "first calls start at CLOCK_MONOTONIC %.3f s\n", t0 / 1e3);
    unsigned seed = 42;
    static char called[N_HANDLERS];
    for (int i = 0; i < 2000; i++) {
        int h;
        do h = rand_r(&seed) % N_HANDLERS; while (called[h]);
        called[h] = 1;
        double c0 = now_ms();
        call_handler(h);
        double c = now_ms() - c0;
        if (c > worst) worst = c;
        if (i % 100 == 99) {
            fprintf(stderr, "handlers %d-%d: %.1f ms, slowest call %.2f ms\n", i - 99, i, now_ms() - t0, worst);
            t0 = now_ms();
            worst = 0;
        }
        usleep(500);
    }
    for (;;) pause();
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s LIBPATH\n", argv[0]); return 2; }
    // The code is warm: read every page of the executable mappings (r-xp) so they are mapped and
    // stay cached; what page-cache pressure has evicted are the cold symbol tables.
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4096];
    while (maps && fgets(line, sizeof line, maps)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && strcmp(perms, "r-xp") == 0)
            for (unsigned long a = lo; a < hi; a += 4096) (void)*(volatile char *)a;
    }
    if (maps) fclose(maps);
    const char *files[] = {argv[1], "/proc/self/exe"};
    for (int i = 0; i < 2; i++) {
        int fd = open(files[i], O_RDONLY);
        if (fd < 0) { perror(files[i]); return 1; }
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        close(fd);
    }
    pthread_t t;
    pthread_create(&t, NULL, hot, NULL);
    fprintf(stderr, "ready at CLOCK_MONOTONIC %.3f s\n", now_ms() / 1e3);
    printf("ready\n");
    fflush(stdout);
    pthread_join(t, NULL);
    return 0;
}
