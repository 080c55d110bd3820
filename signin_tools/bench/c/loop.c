/* Round-trip floor: the Lambda Runtime API loop in plain C over libcurl, echo handler.
 * One easy handle reused (kept-alive connection), next -> response, forever. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct { char *data; size_t len, cap; } buf_t;
static char request_id[128];

static size_t on_body(char *p, size_t s, size_t n, void *u) {
    buf_t *b = u; size_t k = s * n;
    if (b->len + k > b->cap) { b->cap = (b->len + k) * 2; b->data = realloc(b->data, b->cap); }
    memcpy(b->data + b->len, p, k); b->len += k; return k;
}

static size_t on_header(char *p, size_t s, size_t n, void *u) {
    (void)u; size_t k = s * n; static const char name[] = "Lambda-Runtime-Aws-Request-Id:";
    if (k > sizeof name && strncasecmp(p, name, sizeof name - 1) == 0) {
        size_t i = sizeof name - 1, j = 0;
        while (i < k && p[i] == ' ') i++;
        while (i < k && p[i] != '\r' && p[i] != '\n' && j < sizeof request_id - 1) request_id[j++] = p[i++];
        request_id[j] = 0;
    }
    return k;
}

int main(void) {
    const char *api = getenv("AWS_LAMBDA_RUNTIME_API");
    if (!api) return 2;
    char next[256], resp[512];
    snprintf(next, sizeof next, "http://%s/2018-06-01/runtime/invocation/next", api);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *h = curl_easy_init();
    struct curl_slist *hdrs = curl_slist_append(NULL, "Expect:");
    buf_t body = {0};
    for (;;) {
        body.len = 0; request_id[0] = 0;
        curl_easy_reset(h);
        curl_easy_setopt(h, CURLOPT_URL, next);
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &body);
        curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
        if (curl_easy_perform(h) != CURLE_OK || !request_id[0]) return 4;
        snprintf(resp, sizeof resp, "http://%s/2018-06-01/runtime/invocation/%s/response", api, request_id);
        curl_easy_reset(h);
        curl_easy_setopt(h, CURLOPT_URL, resp);
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)body.len);
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.len ? body.data : "");
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body); /* discard into the same buffer's tail */
        buf_t sink = {0};
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
        if (curl_easy_perform(h) != CURLE_OK) return 4;
        free(sink.data);
    }
}
