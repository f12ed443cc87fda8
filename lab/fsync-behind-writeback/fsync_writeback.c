// fsync behind writeback: a journal thread appends a small record and fsyncs it, as a database's
// WAL writer does, while a bulk thread (a backup, a log shipper) streams buffered writes to another
// file on the same file system.
//
//   fsync_writeback DIR bad|fixed
//
// bad:   the bulk thread writes as fast as the page cache takes it and never syncs, so gigabytes
//        of dirty pages build up and writeback runs flat out; each ext4 journal commit the fsync
//        waits for must first write the bulk file's newly allocated blocks (data=ordered).
// fixed: the same bulk thread, rate-limited to 16 MiB/s and flushing what it wrote every 4 MiB
//        with sync_file_range, so dirty data never builds up.
// Prints "ready" 4 s after both threads start; each fsync slower than 50 ms is logged to stderr.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *dir;
static int fixed;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int open_file(const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) { perror(path); exit(1); }
    return fd;
}

static void *journal(void *arg) {
    (void)arg;
    pthread_setname_np(pthread_self(), "wal-writer");
    int fd = open_file("journal.dat");
    char rec[4096];
    memset(rec, 'j', sizeof rec);
    for (long n = 0;; n++) {
        if (write(fd, rec, sizeof rec) != sizeof rec) { perror("write journal"); exit(1); }
        double t0 = now_s();
        fsync(fd);
        double ms = (now_s() - t0) * 1e3;
        if (ms > 50) fprintf(stderr, "slow fsync: %.1f ms (record %ld)\n", ms, n);
        if (n % 256 == 255) lseek(fd, 0, SEEK_SET);  // keep the journal at 1 MiB
        usleep(10000);
    }
    return NULL;
}

static void *bulk(void *arg) {
    (void)arg;
    pthread_setname_np(pthread_self(), "bulk-copy");
    int fd = open_file("bulk.dat");
    size_t chunk = 1 << 20;
    char *buf = malloc(chunk);
    memset(buf, 'b', chunk);
    off_t off = 0, limit = 4L << 30;  // wrap at 4 GiB to bound disk use
    double start = now_s();
    long written = 0;
    for (;;) {
        if (pwrite(fd, buf, chunk, off) != (ssize_t)chunk) { perror("write bulk"); exit(1); }
        off += chunk;
        written += chunk;
        if (fixed) {
            if (off % (4 << 20) == 0)
                sync_file_range(fd, off - (4 << 20), 4 << 20,
                                SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
            double ahead = written / (16.0 * (1 << 20)) - (now_s() - start);
            if (ahead > 0) usleep(ahead * 1e6);
        }
        if (off >= limit) off = 0;
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s DIR bad|fixed\n", argv[0]); return 2; }
    dir = argv[1];
    fixed = strcmp(argv[2], "fixed") == 0;
    pthread_t a, b;
    pthread_create(&b, NULL, bulk, NULL);
    pthread_create(&a, NULL, journal, NULL);
    sleep(4);  // let dirty data and writeback reach their steady state before recording
    printf("ready\n");
    fflush(stdout);
    pthread_join(a, NULL);
    return 0;
}
