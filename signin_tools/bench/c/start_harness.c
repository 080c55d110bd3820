/* Measures exec -> first `GET /2018-06-01/runtime/invocation/next` for each program given,
 * interleaved run by run so both see the same machine state. The harness is the Runtime API:
 * it listens on 127.0.0.1 (free port), forks and execs the program with AWS_LAMBDA_RUNTIME_API
 * pointing at itself, and stops the clock when the request line of the first GET has arrived.
 * Then it kills that child (by pid) and reaps it. Every wait is bounded (5 s).
 * usage: start_harness RUNS PROGRAM...   prints one line per program: median min max (ms) */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

static double one_start(int lfd, const char *prog) {
    double t0 = now_ms();
    pid_t pid = fork();
    if (pid == 0) {
        /* The harness hangs up after the GET; keep the child's complaint about that out of the output. */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) { dup2(null, 2); close(null); }
        execl(prog, prog, (char *)NULL);
        _exit(127);
    }
    double result = -1;
    struct pollfd p = {lfd, POLLIN, 0};
    if (poll(&p, 1, 5000) == 1) {
        int c = accept(lfd, NULL, NULL);
        char buf[4096]; size_t got = 0;
        while (c >= 0 && got < sizeof buf - 1) {
            struct pollfd q = {c, POLLIN, 0};
            if (poll(&q, 1, 5000) != 1) break;
            ssize_t n = read(c, buf + got, sizeof buf - 1 - got);
            if (n <= 0) break;
            got += (size_t)n; buf[got] = 0;
            if (strstr(buf, "GET /2018-06-01/runtime/invocation/next")) { result = now_ms() - t0; break; }
        }
        if (c >= 0) close(c);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return result;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s RUNS PROGRAM...\n", argv[0]); return 2; }
    int runs = atoi(argv[1]), nprog = argc - 2;
    if (runs < 1 || runs > 1000) return 2;
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0}; socklen_t len = sizeof a;
    a.sin_family = AF_INET; a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); a.sin_port = 0;
    if (bind(lfd, (struct sockaddr *)&a, sizeof a) || listen(lfd, 16) || getsockname(lfd, (struct sockaddr *)&a, &len)) { perror("listen"); return 1; }
    char api[64]; snprintf(api, sizeof api, "127.0.0.1:%d", ntohs(a.sin_port));
    setenv("AWS_LAMBDA_RUNTIME_API", api, 1);
    double *t = calloc((size_t)(runs * nprog), sizeof *t);
    for (int w = 0; w < nprog; w++) one_start(lfd, argv[2 + w]); /* warm the page cache */
    for (int r = 0; r < runs; r++)
        for (int p = 0; p < nprog; p++) {
            double v = one_start(lfd, argv[2 + p]);
            if (v < 0) { fprintf(stderr, "%s did not send GET next within 5 s\n", argv[2 + p]); return 1; }
            t[p * runs + r] = v;
        }
    for (int p = 0; p < nprog; p++) {
        double *x = t + p * runs; qsort(x, (size_t)runs, sizeof *x, cmp);
        printf("%s %.3f %.3f %.3f\n", argv[2 + p], runs % 2 ? x[runs / 2] : (x[runs / 2 - 1] + x[runs / 2]) / 2, x[0], x[runs - 1]);
    }
    return 0;
}
