// memory-pressure: a cache service whose working set (anonymous heap + a memory-mapped index
// file) is larger than its cgroup's memory limit.
//
//   mem_pressure FILE
//
// Allocates and touches a 160 MiB heap, maps FILE (512 MiB) read-only, and runs two worker
// threads that each touch a random heap page and a random page of the mapped file, in a loop.
// The limit is set from outside (lab/memory-pressure/record): under a limit below the working set
// the file pages are reclaimed over and over (there is no swap, so the heap stays resident) and
// the workers refault them from disk, doing direct reclaim to make room; above it, after the first
// pass everything is resident. Each worker prints its page touches per second to stderr.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096L
#define HEAP (160L << 20)
static unsigned char *heap, *map;
static long map_pages;

static void *worker(void *arg) {
    long id = (long)arg;
    char name[16];
    snprintf(name, sizeof name, "cache-worker-%ld", id);
    pthread_setname_np(pthread_self(), name);
    unsigned seed = (unsigned)id + 17;
    unsigned long sum = 0;
    long n = 0;
    time_t last = time(NULL);
    for (;;) {
        long h = ((long)rand_r(&seed) << 16 ^ rand_r(&seed)) % (HEAP / PAGE);
        long f = ((long)rand_r(&seed) << 16 ^ rand_r(&seed)) % map_pages;
        heap[h * PAGE + (n & 4095)]++;
        sum += map[f * PAGE + (n & 4095)];
        n++;
        if ((n & 63) == 0 && time(NULL) != last) {
            fprintf(stderr, "%s: %ld touches/s (%lu)\n", name, n, sum & 1);
            n = 0;
            last = time(NULL);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s FILE\n", argv[0]); return 2; }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) { perror(argv[1]); return 1; }
    long size = lseek(fd, 0, SEEK_END);
    map_pages = size / PAGE;
    map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    heap = malloc(HEAP);
    if (map == MAP_FAILED || !heap) { perror("mmap/malloc"); return 1; }
    memset(heap, 1, HEAP);
    pthread_t t[2];
    for (long i = 0; i < 2; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    sleep(3);  // past the first cold pass over the file
    printf("ready\n");
    fflush(stdout);
    pthread_join(t[0], NULL);
    return 0;
}
