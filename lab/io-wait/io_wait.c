// io-wait: a lookup service reads 4 KiB records at random offsets of a 1 GiB data file.
//
//   io_wait FILE bad|fixed
//
// bad:   each read goes to the disk (O_DIRECT, as a database with its own buffer cache does), and
//        the disk is a cloud volume with a provisioned IOPS limit (lab/io-wait/record emulates one
//        with a blkio throttle), so the reader threads spend most of their time in D in io_schedule.
// fixed: the same reads, served from the page cache: the file is read once, sequentially, before
//        "ready" (the working set fits in memory and is warmed at start).
// Two reader threads, each serving up to 2000 lookups/s (the demand: a thread that is ahead of
// that pace sleeps); each prints its reads per second to stderr every second.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 4096
static const char *path;
static int fixed;
static off_t blocks;

static void *reader(void *arg) {
    long id = (long)arg;
    char name[16];
    snprintf(name, sizeof name, "lookup-%ld", id);
    pthread_setname_np(pthread_self(), name);
    int fd = open(path, O_RDONLY | (fixed ? 0 : O_DIRECT));
    if (fd < 0) { perror(path); exit(1); }
    void *buf;
    if (posix_memalign(&buf, BLOCK, BLOCK)) exit(1);
    unsigned seed = (unsigned)id * 7919u + 1;
    long n = 0;
    time_t last = time(NULL);
    struct timespec due;
    clock_gettime(CLOCK_MONOTONIC, &due);
    for (;;) {
        due.tv_nsec += 500000;  // 2000 lookups/s
        if (due.tv_nsec >= 1000000000) { due.tv_sec++; due.tv_nsec -= 1000000000; }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL);
        off_t block = ((off_t)rand_r(&seed) << 16 ^ rand_r(&seed)) % blocks;
        if (pread(fd, buf, BLOCK, block * BLOCK) != BLOCK) { perror("pread"); exit(1); }
        n++;
        if (time(NULL) != last) {
            fprintf(stderr, "%s: %ld reads/s\n", name, n);
            n = 0;
            last = time(NULL);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s FILE bad|fixed\n", argv[0]); return 2; }
    path = argv[1];
    fixed = strcmp(argv[2], "fixed") == 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) { perror(path); return 1; }
    blocks = lseek(fd, 0, SEEK_END) / BLOCK;
    if (fixed) {  // warm the page cache: one sequential pass
        static char chunk[1 << 20];
        while (read(fd, chunk, sizeof chunk) > 0) {}
    }
    close(fd);
    pthread_t t[2];
    for (long i = 0; i < 2; i++) pthread_create(&t[i], NULL, reader, (void *)i);
    usleep(200000);
    printf("ready\n");
    fflush(stdout);
    pthread_join(t[0], NULL);
    return 0;
}
