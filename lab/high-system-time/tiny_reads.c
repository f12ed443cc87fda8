/*
 * tiny_reads: a parser that reads its input file through an unbuffered file descriptor.
 *
 *   tiny_reads bad|fixed DIR
 *
 * Creates a 4 MiB input file in DIR (unlinked at once, so nothing is left behind), then parses it
 * over and over: a hash over every byte, one pass per file.
 *   bad:   one pread(2) of 1 byte per input byte: one system call per byte, so most of the CPU
 *          time is the kernel's system call entry/exit and page-cache lookup, not the parsing.
 *   fixed: one pread(2) of 64 KiB at a time, then the same hash over the buffer in user space:
 *          the same bytes, the same parsing, 65,536 times fewer system calls.
 * Prints "ready" once the file exists, then runs until killed; every second it prints the bytes
 * parsed in that second to stderr.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FILE_SIZE (4L << 20)
#define CHUNK (64 * 1024)

static int fd, bad;
static atomic_long parsed;
static volatile unsigned long sink;

static unsigned long __attribute__((noinline)) parse(unsigned long h, const unsigned char *p, long n)
{
    for (long i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211UL;
    return h;
}

static void *parser(void *arg)
{
    (void)arg;
    static unsigned char buf[CHUNK];
    unsigned long h = 14695981039346656037UL;
    for (;;) {
        for (long off = 0; off < FILE_SIZE;) {
            long want = bad ? 1 : CHUNK;
            ssize_t got = pread(fd, buf, want, off);
            if (got <= 0) { perror("pread"); exit(1); }
            h = parse(h, buf, got);
            off += got;
            atomic_fetch_add_explicit(&parsed, got, memory_order_relaxed);
        }
        sink = h;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "bad") && strcmp(argv[1], "fixed"))) {
        fprintf(stderr, "usage: %s bad|fixed DIR\n", argv[0]);
        return 2;
    }
    bad = !strcmp(argv[1], "bad");
    char path[4096];
    snprintf(path, sizeof path, "%s/input.XXXXXX", argv[2]);
    fd = mkstemp(path);
    if (fd < 0) { perror(path); return 1; }
    unlink(path);
    static unsigned char block[CHUNK];
    for (long off = 0; off < FILE_SIZE; off += CHUNK) {
        for (int i = 0; i < CHUNK; i++) block[i] = (unsigned char)((off + i) * 2654435761UL >> 13);
        if (write(fd, block, CHUNK) != CHUNK) { perror("write"); return 1; }
    }
    pthread_t t;
    if (pthread_create(&t, NULL, parser, NULL)) { perror("pthread_create"); return 1; }
    pthread_setname_np(t, "parser");
    printf("ready\n");
    fflush(stdout);
    for (;;) {
        long before = atomic_load(&parsed);
        sleep(1);
        fprintf(stderr, "bytes/s %ld\n", atomic_load(&parsed) - before);
    }
}
