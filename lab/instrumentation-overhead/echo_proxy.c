/*
 * echo_proxy: PAIRS client threads each ping-pong 64-byte messages with an echo thread over a
 * loopback TCP connection (send, then recv the echo), the syscall pattern of a small proxy.
 *
 *   echo_proxy [PAIRS]
 *
 * Prints "ready" once all threads exist and are connected, then runs until killed; every second
 * it prints the round trips done in that second to stderr.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define MSG 64
static atomic_long trips;

static void die(const char *what) { perror(what); exit(1); }

static void full(ssize_t (*io)(int, void *, size_t, int), int fd, char *buf)
{
    for (size_t done = 0; done < MSG;) {
        ssize_t n = io(fd, buf + done, MSG - done, 0);
        if (n <= 0) die("echo_proxy: connection");
        done += n;
    }
}

static ssize_t send_io(int fd, void *b, size_t n, int f) { return send(fd, b, n, f); }

static void *echo(void *arg)
{
    int fd = (int)(long)arg;
    char buf[MSG];
    for (;;) { full(recv, fd, buf); full(send_io, fd, buf); }
    return NULL;
}

static void *client(void *arg)
{
    int fd = (int)(long)arg;
    char buf[MSG] = "GET /health HTTP/1.1";
    for (;;) {
        full(send_io, fd, buf);
        full(recv, fd, buf);
        atomic_fetch_add_explicit(&trips, 1, memory_order_relaxed);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int pairs = argc > 1 ? atoi(argv[1]) : 2, one = 1;
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof addr;
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, len) || listen(lfd, pairs)) die("listen");
    getsockname(lfd, (struct sockaddr *)&addr, &len);
    pthread_t t;
    for (int i = 0; i < pairs; i++) {
        int c = socket(AF_INET, SOCK_STREAM, 0);
        if (c < 0 || connect(c, (struct sockaddr *)&addr, len)) die("connect");
        int s = accept(lfd, NULL, NULL);
        if (s < 0) die("accept");
        setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        pthread_create(&t, NULL, echo, (void *)(long)s);
        pthread_create(&t, NULL, client, (void *)(long)c);
    }
    printf("ready\n");
    fflush(stdout);
    for (long last = 0;;) {
        sleep(1);
        long now = atomic_load(&trips);
        fprintf(stderr, "%ld round trips/s\n", now - last);
        last = now;
    }
}
