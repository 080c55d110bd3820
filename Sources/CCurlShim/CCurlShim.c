#include "CCurlShim.h"
#include <dlfcn.h>

// Pointers resolved by ccurl_load(). Names carry a p_ prefix so they never collide with the
// prototypes curl.h declares.
static void *lib;
static CURLcode (*p_global_init)(long);
static curl_version_info_data *(*p_version_info)(CURLversion);
static CURL *(*p_easy_init)(void);
static void (*p_easy_cleanup)(CURL *);
static void (*p_easy_reset)(CURL *);
static CURLcode (*p_easy_perform)(CURL *);
static const char *(*p_easy_strerror)(CURLcode);
static CURLcode (*p_easy_setopt)(CURL *, CURLoption, ...);
static CURLcode (*p_easy_getinfo)(CURL *, CURLINFO, ...);
static struct curl_slist *(*p_slist_append)(struct curl_slist *, const char *);
static void (*p_slist_free_all)(struct curl_slist *);
static CURLM *(*p_multi_init)(void);
static CURLMcode (*p_multi_cleanup)(CURLM *);
static CURLMcode (*p_multi_add_handle)(CURLM *, CURL *);
static CURLMcode (*p_multi_remove_handle)(CURLM *, CURL *);
static CURLMcode (*p_multi_perform)(CURLM *, int *);
static CURLMcode (*p_multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
static CURLMcode (*p_multi_setopt)(CURLM *, CURLMoption, ...);
static CURLMsg *(*p_multi_info_read)(CURLM *, int *);
static const char *(*p_multi_strerror)(CURLMcode);

#define RESOLVE(ptr, name) \
    do { *(void **)(&ptr) = dlsym(lib, name); if (!ptr) return "libcurl lacks " name; } while (0)

const char *ccurl_load(void) {
    if (lib) return NULL;
    // libcurl.so.4 is the soname of every libcurl 7.x/8.x; the unversioned name is a dev symlink.
    // RTLD_LAZY: libcurl's dependencies are still loaded (a missing library fails here, at
    // start), but their symbols bind on first use, which saves 0.6-0.9 ms of every cold start;
    // the functions we call are each resolved and checked below.
    void *handle = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (!handle) handle = dlopen("libcurl.so", RTLD_LAZY | RTLD_LOCAL);
    if (!handle) return "cannot load libcurl.so.4 (install libcurl, or ship it under lib/)";
    lib = handle;
    RESOLVE(p_global_init, "curl_global_init");
    RESOLVE(p_version_info, "curl_version_info");
    RESOLVE(p_easy_init, "curl_easy_init");
    RESOLVE(p_easy_cleanup, "curl_easy_cleanup");
    RESOLVE(p_easy_reset, "curl_easy_reset");
    RESOLVE(p_easy_perform, "curl_easy_perform");
    RESOLVE(p_easy_strerror, "curl_easy_strerror");
    RESOLVE(p_easy_setopt, "curl_easy_setopt");
    RESOLVE(p_easy_getinfo, "curl_easy_getinfo");
    RESOLVE(p_slist_append, "curl_slist_append");
    RESOLVE(p_slist_free_all, "curl_slist_free_all");
    RESOLVE(p_multi_init, "curl_multi_init");
    RESOLVE(p_multi_cleanup, "curl_multi_cleanup");
    RESOLVE(p_multi_add_handle, "curl_multi_add_handle");
    RESOLVE(p_multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(p_multi_perform, "curl_multi_perform");
    RESOLVE(p_multi_poll, "curl_multi_poll"); // 7.66.0+: Amazon Linux 2023 ships 8.x
    RESOLVE(p_multi_setopt, "curl_multi_setopt");
    RESOLVE(p_multi_info_read, "curl_multi_info_read");
    RESOLVE(p_multi_strerror, "curl_multi_strerror");
    if (p_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return "curl_global_init failed";
    return NULL;
}

const char *ccurl_version(void) {
    if (!lib) return NULL;
    curl_version_info_data *info = p_version_info(CURLVERSION_NOW);
    return info ? info->version : NULL;
}

CURL *ccurl_easy_init(void) { return p_easy_init(); }
void ccurl_easy_cleanup(CURL *h) { p_easy_cleanup(h); }
void ccurl_easy_reset(CURL *h) { p_easy_reset(h); }
CURLcode ccurl_easy_perform(CURL *h) { return p_easy_perform(h); }
const char *ccurl_easy_strerror(CURLcode c) { return p_easy_strerror ? p_easy_strerror(c) : "libcurl not loaded"; }

CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v) { return p_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return p_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v) { return p_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, void *v) { return p_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return p_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_data_callback(CURL *h, CURLoption o, ccurl_data_callback cb) { return p_easy_setopt(h, o, cb); }
CURLcode ccurl_getinfo_long(CURL *h, CURLINFO i, long *v) { return p_easy_getinfo(h, i, v); }

struct curl_slist *ccurl_slist_append(struct curl_slist *l, const char *s) { return p_slist_append(l, s); }
void ccurl_slist_free_all(struct curl_slist *l) { p_slist_free_all(l); }

CURLM *ccurl_multi_init(void) { return p_multi_init(); }
CURLMcode ccurl_multi_cleanup(CURLM *m) { return p_multi_cleanup(m); }
CURLMcode ccurl_multi_add_handle(CURLM *m, CURL *h) { return p_multi_add_handle(m, h); }
CURLMcode ccurl_multi_remove_handle(CURLM *m, CURL *h) { return p_multi_remove_handle(m, h); }
CURLMcode ccurl_multi_perform(CURLM *m, int *running) { return p_multi_perform(m, running); }
CURLMcode ccurl_multi_poll(CURLM *m, int timeout_ms, int *numfds) { return p_multi_poll(m, NULL, 0, timeout_ms, numfds); }
CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return p_multi_setopt(m, o, v); }
const char *ccurl_multi_strerror(CURLMcode c) { return p_multi_strerror(c); }

int ccurl_multi_next_done(CURLM *m, CURL **handle, CURLcode *result) {
    int queued = 0;
    CURLMsg *msg;
    while ((msg = p_multi_info_read(m, &queued)) != NULL) {
        if (msg->msg == CURLMSG_DONE) {
            *handle = msg->easy_handle;
            *result = msg->data.result;
            return 1;
        }
    }
    return 0;
}
