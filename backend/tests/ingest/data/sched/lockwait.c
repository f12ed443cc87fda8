/* Threads that block in D (write+fsync) and on futexes (two contended mutexes), and a ticker whose
 * normal sleep is a timer but which sometimes waits on a lock. Runs for argv[1] seconds. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t hot = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cold = PTHREAD_MUTEX_INITIALIZER;
static volatile int stop;

static void spin_us(long us) {
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

static void *locker(void *arg) {
    pthread_mutex_t *m = arg;
    pthread_setname_np(pthread_self(), m == &hot ? "hot_locker" : "cold_locker");
    while (!stop) {
        pthread_mutex_lock(m);
        spin_us(300);
        usleep(1500);
        pthread_mutex_unlock(m);
        usleep(200);
    }
    return NULL;
}

static void *ticker(void *arg) {
    (void)arg;
    pthread_setname_np(pthread_self(), "ticker");
    for (int i = 0; !stop; i++) {
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if (i % 4 == 0) {
            pthread_mutex_lock(&hot);
            pthread_mutex_unlock(&hot);
        }
    }
    return NULL;
}

static void *syncer(void *arg) {
    char buf[4096];
    int fd = open((const char *)arg, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pthread_setname_np(pthread_self(), "fsync_io");
    memset(buf, 'x', sizeof buf);
    while (!stop && fd >= 0) {
        if (write(fd, buf, sizeof buf) < 0 || fsync(fd) < 0) break;
    }
    return NULL;
}

int main(int argc, char **argv) {
    pthread_t t[8];
    int n = 0;
    for (int i = 0; i < 4; i++) pthread_create(&t[n++], NULL, locker, &hot);
    for (int i = 0; i < 2; i++) pthread_create(&t[n++], NULL, locker, &cold);
    pthread_create(&t[n++], NULL, ticker, NULL);
    pthread_create(&t[n++], NULL, syncer, argc > 2 ? argv[2] : "lockwait.dat");
    sleep(argc > 1 ? atoi(argv[1]) : 3);
    stop = 1;
    for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
    return 0;
}
