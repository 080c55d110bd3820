/* Start-time floor: the least a libcurl program does before its first `GET next`.
 * Links libcurl normally, makes one GET to $AWS_LAMBDA_RUNTIME_API, exits. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>

static size_t sink(char *p, size_t s, size_t n, void *u) { (void)p; (void)u; return s * n; }

int main(void) {
    const char *api = getenv("AWS_LAMBDA_RUNTIME_API");
    if (!api) return 2;
    char url[256];
    snprintf(url, sizeof url, "http://%s/2018-06-01/runtime/invocation/next", api);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *h = curl_easy_init();
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink);
    CURLcode rc = curl_easy_perform(h);
    curl_easy_cleanup(h);
    return rc == CURLE_OK ? 0 : 1;
}
