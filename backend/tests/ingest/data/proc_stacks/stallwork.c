/* The workload the /proc stack samples were recorded from: threads that block in different ways.
 *
 *   fsync x2     write 4 KiB and fsync it, in a loop, to a file on ext4 (D: journal commit, writeback)
 *   lock x6      take one mutex, spin a little inside it, let go (S: futex wait)
 *   io worker    read 64 KiB at random offsets of a big file after dropping it from the page cache
 *   spin         burn CPU (running: an empty stack)
 *   nap          nanosleep 50 ms in a loop (S: hrtimer)
 *
 * Build: cc -O2 -pthread -o stallwork stallwork.c; run: ./stallwork DIR SECONDS
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *dir;
static volatile int stop;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long shared;

static void *fsyncer(void *arg) {
    char path[4096], buf[4096];
    snprintf(path, sizeof path, "%s/fsync-%ld.dat", dir, (long)arg);
    memset(buf, 'x', sizeof buf);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    while (!stop) {
        if (write(fd, buf, sizeof buf) < 0 || fsync(fd) < 0) break;
        if (lseek(fd, 0, SEEK_CUR) > (64 << 20)) lseek(fd, 0, SEEK_SET);
    }
    close(fd);
    return NULL;
}

static void *locker(void *arg) {
    (void)arg;
    while (!stop) {
        pthread_mutex_lock(&lock);
        for (int i = 0; i < 20000; i++) shared += i;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void *reader(void *arg) {
    (void)arg;
    char path[4096];
    static char buf[65536];
    snprintf(path, sizeof path, "%s/big.dat", dir);
    int fd = open(path, O_RDWR | O_CREAT, 0644);
    for (int i = 0; i < 512; i++) if (write(fd, buf, sizeof buf) < 0) break;
    fsync(fd);
    unsigned seed = 1;
    while (!stop) {
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        off_t at = (off_t)(rand_r(&seed) % 512) * sizeof buf;
        if (pread(fd, buf, sizeof buf, at) < 0) break;
    }
    close(fd);
    return NULL;
}

static void *spinner(void *arg) {
    (void)arg;
    while (!stop) shared++;
    return NULL;
}

static void *napper(void *arg) {
    (void)arg;
    struct timespec ts = {0, 50 * 1000 * 1000};
    while (!stop) nanosleep(&ts, NULL);
    return NULL;
}

static void start(pthread_t *t, void *(*fn)(void *), long arg, const char *name) {
    pthread_create(t, NULL, fn, (void *)arg);
    pthread_setname_np(*t, name);
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    dir = argv[1];
    pthread_t t[11];
    start(&t[0], fsyncer, 0, "fsync");
    start(&t[1], fsyncer, 1, "fsync");
    for (int i = 0; i < 6; i++) start(&t[2 + i], locker, i, "lock");
    start(&t[8], reader, 0, "io worker");
    start(&t[9], spinner, 0, "spin");
    start(&t[10], napper, 0, "nap");
    sleep(atoi(argv[2]));
    stop = 1;
    for (int i = 0; i < 11; i++) pthread_join(t[i], NULL);
    return 0;
}
