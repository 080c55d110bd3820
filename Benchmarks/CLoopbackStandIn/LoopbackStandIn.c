// The whole-sign-in benchmark's loopback stand-in (see the header). One thread, poll(2) over the
// listening socket and every connection; requests are parsed in place in each connection's static
// buffer and answered with one write. Bounded everywhere: 32 connections, 64 KiB a request, 16 KiB
// an object, 96 objects plus a ring of 32 for session records (the only keys a warm sign-in adds).
#define _GNU_SOURCE  // accept4
#include "CLoopbackStandIn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { MAX_CONNS = 32, CONN_BUF = 64 * 1024, KEY_MAX = 512, TYPE_MAX = 64, META_MAX = 512, BODY_MAX = 16 * 1024,
       DURABLE = 96, RING = 32 };

typedef struct {
    int used;
    char key[KEY_MAX];
    char type[TYPE_MAX];
    char meta[META_MAX];  // the x-amz-meta-* header lines as stored, each ending in CRLF
    char body[BODY_MAX];
    size_t body_len;
    unsigned long etag;
} object_t;

typedef struct {
    int fd;
    size_t len;
    char buf[CONN_BUF];
} conn_t;

static object_t objects[DURABLE + RING];
static unsigned ring_next;
static conn_t conns[MAX_CONNS];
static char out[BODY_MAX + 2048];
static int listen_fd = -1, wake[2] = {-1, -1};
static pthread_t thread;
static int running;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long etag_counter, requests;

static const char *find(const char *hay, size_t n, const char *needle) {
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(hay + i, needle, k) == 0) return hay + i;
    return NULL;
}

// A stored object by exact key, or the slot a new one goes in (NULL when the durable part is full).
static object_t *slot(const char *key, size_t key_len, int create) {
    for (int i = 0; i < DURABLE + RING; i++)
        if (objects[i].used && strlen(objects[i].key) == key_len && memcmp(objects[i].key, key, key_len) == 0)
            return &objects[i];
    if (!create) return NULL;
    if (find(key, key_len, "/sessions/")) return &objects[DURABLE + ring_next++ % RING];
    for (int i = 0; i < DURABLE; i++)
        if (!objects[i].used) return &objects[i];
    return NULL;
}

static int store(object_t *o, const char *key, size_t key_len, const char *type, size_t type_len, const char *meta,
                 size_t meta_len, const void *body, size_t body_len) {
    if (key_len >= KEY_MAX || type_len >= TYPE_MAX || meta_len >= META_MAX || body_len > BODY_MAX) return -1;
    o->used = 1;
    memcpy(o->key, key, key_len);
    o->key[key_len] = 0;
    memcpy(o->type, type, type_len);
    o->type[type_len] = 0;
    memcpy(o->meta, meta, meta_len);
    o->meta[meta_len] = 0;
    memcpy(o->body, body, body_len);
    o->body_len = body_len;
    o->etag = ++etag_counter;
    return 0;
}

int lsi_put(const char *path, const char *content_type, const void *body, size_t length) {
    pthread_mutex_lock(&lock);
    object_t *o = slot(path, strlen(path), 1);
    int rc = o ? store(o, path, strlen(path), content_type, strlen(content_type), "", 0, body, length) : -1;
    pthread_mutex_unlock(&lock);
    return rc;
}

unsigned long lsi_requests(void) {
    pthread_mutex_lock(&lock);
    unsigned long n = requests;
    pthread_mutex_unlock(&lock);
    return n;
}

static int send_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int answer(int fd, int status, const char *reason, const char *headers, const char *body, size_t body_len) {
    int n = snprintf(out, sizeof out,
                     "HTTP/1.1 %d %s\r\nContent-Length: %zu\r\nx-amz-request-id: STANDIN%lu\r\n%s\r\n", status,
                     reason, body_len, requests, headers);
    if (n < 0 || (size_t)n + body_len > sizeof out) return -1;
    memcpy(out + n, body, body_len);
    return send_all(fd, out, (size_t)n + body_len);
}

static int error(int fd, int status, const char *reason, const char *code) {
    static char xml[256];
    int n = snprintf(xml, sizeof xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>%s</Code></Error>", code);
    return answer(fd, status, reason, "Content-Type: application/xml\r\n", xml, (size_t)n);
}

static int assume_role(int fd) {
    static char xml[1024];
    char expiration[32];
    time_t later = time(NULL) + 3600;
    struct tm tm;
    gmtime_r(&later, &tm);
    strftime(expiration, sizeof expiration, "%Y-%m-%dT%H:%M:%SZ", &tm);
    int n = snprintf(xml, sizeof xml,
                     "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><AssumeRoleResult>"
                     "<Credentials><AccessKeyId>ASIASTANDINBENCH0001</AccessKeyId>"
                     "<SecretAccessKey>standin-secret-not-a-credential</SecretAccessKey>"
                     "<SessionToken>standin-session-token</SessionToken><Expiration>%s</Expiration></Credentials>"
                     "<AssumedRoleUser><AssumedRoleId>AROASTANDIN:user</AssumedRoleId>"
                     "<Arn>arn:aws:sts::123456789012:assumed-role/standin/user</Arn></AssumedRoleUser>"
                     "</AssumeRoleResult></AssumeRoleResponse>",
                     expiration);
    return answer(fd, 200, "OK", "Content-Type: text/xml\r\n", xml, (size_t)n);
}

// The header's value (after optional spaces) when `line` is that header, else NULL.
static const char *header_value(const char *line, const char *end, const char *name) {
    size_t k = strlen(name);
    if ((size_t)(end - line) <= k || strncasecmp(line, name, k) != 0 || line[k] != ':') return NULL;
    const char *v = line + k + 1;
    while (v < end && *v == ' ') v++;
    return v;
}

// Answers the request in c->buf[0..total); returns -1 when the connection should close.
static int respond(int fd, const char *req, size_t head_len, const char *body, size_t body_len) {
    const char *sp1 = memchr(req, ' ', head_len);
    if (!sp1) return -1;
    const char *target = sp1 + 1, *sp2 = memchr(target, ' ', head_len - (size_t)(target - req));
    if (!sp2) return -1;
    const char *q = memchr(target, '?', (size_t)(sp2 - target));
    size_t key_len = (size_t)((q ? q : sp2) - target);
    size_t method_len = (size_t)(sp1 - req);

    const char *type = "application/octet-stream", *if_match = NULL;
    size_t type_len = strlen(type), if_match_len = 0, meta_len = 0;
    int if_none_match = 0;
    static char meta[META_MAX];
    for (const char *line = memchr(req, '\n', head_len) + 1; line < req + head_len;) {
        const char *eol = memchr(line, '\r', (size_t)(req + head_len - line));
        if (!eol || eol == line) break;
        const char *v;
        if ((v = header_value(line, eol, "Content-Type"))) {
            type = v;
            type_len = (size_t)(eol - v);
        } else if ((v = header_value(line, eol, "If-None-Match"))) {
            if_none_match = 1;
        } else if ((v = header_value(line, eol, "If-Match"))) {
            if_match = v;
            if_match_len = (size_t)(eol - v);
        } else if (strncasecmp(line, "x-amz-meta-", 11) == 0 && meta_len + (size_t)(eol - line) + 2 < META_MAX) {
            memcpy(meta + meta_len, line, (size_t)(eol - line) + 2);
            meta_len += (size_t)(eol - line) + 2;
        }
        line = eol + 2;
    }

    if (method_len == 4 && memcmp(req, "POST", 4) == 0 && key_len == 1) {
        if (find(body, body_len, "Action=AssumeRole")) return assume_role(fd);
        return error(fd, 400, "Bad Request", "InvalidAction");
    }
    if (method_len == 3 && memcmp(req, "GET", 3) == 0) {
        object_t *o = slot(target, key_len, 0);
        if (!o) return error(fd, 404, "Not Found", "NoSuchKey");
        static char headers[META_MAX + 160];
        snprintf(headers, sizeof headers, "ETag: \"%016lx\"\r\nContent-Type: %s\r\n%s", o->etag, o->type, o->meta);
        return answer(fd, 200, "OK", headers, o->body, o->body_len);
    }
    if (method_len == 3 && memcmp(req, "PUT", 3) == 0) {
        object_t *o = slot(target, key_len, 0);
        if (if_none_match && o) return error(fd, 412, "Precondition Failed", "PreconditionFailed");
        if (if_match) {
            char want[24];
            snprintf(want, sizeof want, "\"%016lx\"", o ? o->etag : 0UL);
            if (!o || if_match_len != strlen(want) || memcmp(if_match, want, if_match_len) != 0)
                return error(fd, 412, "Precondition Failed", "PreconditionFailed");
        }
        if (!o) o = slot(target, key_len, 1);
        if (!o || store(o, target, key_len, type, type_len, meta, meta_len, body, body_len) != 0)
            return error(fd, 507, "Insufficient Storage", "StandInFull");
        static char headers[64];
        snprintf(headers, sizeof headers, "ETag: \"%016lx\"\r\n", o->etag);
        return answer(fd, 200, "OK", headers, "", 0);
    }
    return error(fd, 405, "Method Not Allowed", "MethodNotAllowed");
}

// Answers every complete request in the connection's buffer; -1 when it should close.
static int drain(conn_t *c) {
    for (;;) {
        const char *end = find(c->buf, c->len, "\r\n\r\n");
        if (!end) return c->len == CONN_BUF ? -1 : 0;
        size_t head_len = (size_t)(end - c->buf) + 2, body_len = 0;
        for (const char *line = c->buf; line < c->buf + head_len;) {
            const char *eol = memchr(line, '\r', (size_t)(c->buf + head_len - line));
            if (!eol) break;
            const char *v = header_value(line, eol, "Content-Length");
            if (v) body_len = (size_t)strtoul(v, NULL, 10);
            line = eol + 2;
        }
        size_t total = head_len + 2 + body_len;
        if (total > CONN_BUF) return -1;
        if (c->len < total) return 0;
        pthread_mutex_lock(&lock);
        requests++;
        int rc = respond(c->fd, c->buf, head_len, c->buf + head_len + 2, body_len);
        pthread_mutex_unlock(&lock);
        if (rc != 0) return -1;
        memmove(c->buf, c->buf + total, c->len - total);
        c->len -= total;
    }
}

static void *serve(void *unused) {
    (void)unused;
    struct pollfd fds[MAX_CONNS + 2];
    int which[MAX_CONNS + 2];
    for (;;) {
        int n = 0;
        fds[n++] = (struct pollfd){listen_fd, POLLIN, 0};
        fds[n++] = (struct pollfd){wake[0], POLLIN, 0};
        for (int i = 0; i < MAX_CONNS; i++)
            if (conns[i].fd >= 0) {
                which[n] = i;
                fds[n++] = (struct pollfd){conns[i].fd, POLLIN, 0};
            }
        if (poll(fds, (nfds_t)n, -1) < 0) {
            if (errno == EINTR) continue;
            return NULL;
        }
        if (fds[1].revents) return NULL;
        if (fds[0].revents & POLLIN) {
            int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
            int i = 0;
            while (fd >= 0 && i < MAX_CONNS && conns[i].fd >= 0) i++;
            if (fd >= 0 && i == MAX_CONNS) close(fd);
            else if (fd >= 0) {
                int one = 1;
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                conns[i].fd = fd;
                conns[i].len = 0;
            }
        }
        for (int k = 2; k < n; k++) {
            if (!fds[k].revents) continue;
            conn_t *c = &conns[which[k]];
            ssize_t r = read(c->fd, c->buf + c->len, CONN_BUF - c->len);
            if (r < 0 && errno == EINTR) continue;
            if (r > 0) c->len += (size_t)r;
            if (r <= 0 || drain(c) != 0) {
                close(c->fd);
                c->fd = -1;
            }
        }
    }
}

int lsi_start(void) {
    for (int i = 0; i < MAX_CONNS; i++) conns[i].fd = -1;
    struct sockaddr_in a = {0};
    socklen_t len = sizeof a;
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(listen_fd, 64) != 0 ||
        getsockname(listen_fd, (struct sockaddr *)&a, &len) != 0 || pipe(wake) != 0 ||
        pthread_create(&thread, NULL, serve, NULL) != 0) {
        lsi_stop();
        return -1;
    }
    running = 1;
    return ntohs(a.sin_port);
}

void lsi_stop(void) {
    if (running) {
        (void)!write(wake[1], "x", 1);
        pthread_join(thread, NULL);
        running = 0;
    }
    for (int i = 0; i < MAX_CONNS; i++)
        if (conns[i].fd >= 0) {
            close(conns[i].fd);
            conns[i].fd = -1;
        }
    int *fds[] = {&listen_fd, &wake[0], &wake[1]};
    for (int i = 0; i < 3; i++)
        if (*fds[i] >= 0) {
            close(*fds[i]);
            *fds[i] = -1;
        }
}
