#ifndef SIGNIN_CCURLSHIM_H
#define SIGNIN_CCURLSHIM_H
// The one place that binds to libcurl. curl.h is included for its types and constants only:
// every call goes through the ccurl_* functions below, which call pointers that ccurl_load()
// resolved with dlopen/dlsym. Calling a curl_* function directly from Swift would fail to
// link, which is the point: the bootstrap has no link-time tie to any libcurl build.
#include <curl/curl.h>
#include <stddef.h>

typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *userdata);

/// Loads libcurl and calls curl_global_init once. Returns NULL on success, else a static
/// message naming what failed (library or symbol). Not thread-safe: call at start-up.
const char *ccurl_load(void);
/// The loaded library's version string ("8.5.0"), or NULL before ccurl_load().
const char *ccurl_version(void);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
void ccurl_easy_reset(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback);

CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string);
void ccurl_slist_free_all(struct curl_slist *list);

CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms, int *numfds);
CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
/// Next finished transfer: returns 1 and fills handle/result, or 0 when none is left.
int ccurl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result);
const char *ccurl_multi_strerror(CURLMcode code);

#endif
