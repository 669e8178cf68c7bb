// libcurl's C API, loaded on first use rather than linked: linking libcurl pulls in some 25
// libraries (OpenSSL, GnuTLS, Kerberos, LDAP, ssh2, nghttp2...), which cost every start of the host
// about 6 ms and 6.5 MiB whether or not the app touches the network (hybrid-bench startup).
// So the functions are looked up with dlopen/dlsym the first time a transfer needs them, and
// Swift calls them through the hh_ wrappers below. The variadic setters and getters, which Swift
// cannot call, get one typed wrapper per argument type.
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct hh_curl_api {
    CURLcode (*global_init)(long);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURL *(*easy_init)(void);
    void (*easy_reset)(CURL *);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_pause)(CURL *, int);
    CURLSH *(*share_init)(void);
    CURLSHcode (*share_setopt)(CURLSH *, CURLSHoption, ...);
    void (*free)(void *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLU *(*url)(void);
    void (*url_cleanup)(CURLU *);
    CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
    CURLUcode (*url_get)(const CURLU *, CURLUPart, char **, unsigned int);
    const char *(*url_strerror)(CURLUcode);
} hh_curl_api;

// Function-local statics: Swift emits a header's inline functions, not its static variables.
static inline hh_curl_api *hh_curl_storage(void) {
    static hh_curl_api table;
    return &table;
}

static inline void hh_curl_load(void) {
    hh_curl_api *table = hh_curl_storage();
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "hybrid: cannot load libcurl (libcurl.so.4): %s; install libcurl4 (scripts/install-deps does)\n", dlerror());
        abort();
    }
#define HH_CURL_LOAD(field, name) \
    if (!(*(void **)&table->field = dlsym(library, name))) { \
        fprintf(stderr, "hybrid: libcurl has no %s; libcurl 7.68 or later is needed\n", name); \
        abort(); \
    }
    HH_CURL_LOAD(global_init, "curl_global_init")
    HH_CURL_LOAD(multi_init, "curl_multi_init")
    HH_CURL_LOAD(multi_setopt, "curl_multi_setopt")
    HH_CURL_LOAD(multi_add_handle, "curl_multi_add_handle")
    HH_CURL_LOAD(multi_remove_handle, "curl_multi_remove_handle")
    HH_CURL_LOAD(multi_perform, "curl_multi_perform")
    HH_CURL_LOAD(multi_info_read, "curl_multi_info_read")
    HH_CURL_LOAD(multi_poll, "curl_multi_poll")
    HH_CURL_LOAD(multi_wakeup, "curl_multi_wakeup")
    HH_CURL_LOAD(easy_init, "curl_easy_init")
    HH_CURL_LOAD(easy_reset, "curl_easy_reset")
    HH_CURL_LOAD(easy_cleanup, "curl_easy_cleanup")
    HH_CURL_LOAD(easy_setopt, "curl_easy_setopt")
    HH_CURL_LOAD(easy_getinfo, "curl_easy_getinfo")
    HH_CURL_LOAD(easy_strerror, "curl_easy_strerror")
    HH_CURL_LOAD(easy_pause, "curl_easy_pause")
    HH_CURL_LOAD(share_init, "curl_share_init")
    HH_CURL_LOAD(share_setopt, "curl_share_setopt")
    HH_CURL_LOAD(free, "curl_free")
    HH_CURL_LOAD(slist_append, "curl_slist_append")
    HH_CURL_LOAD(slist_free_all, "curl_slist_free_all")
    HH_CURL_LOAD(url, "curl_url")
    HH_CURL_LOAD(url_cleanup, "curl_url_cleanup")
    HH_CURL_LOAD(url_set, "curl_url_set")
    HH_CURL_LOAD(url_get, "curl_url_get")
    HH_CURL_LOAD(url_strerror, "curl_url_strerror")
#undef HH_CURL_LOAD
}

static inline const hh_curl_api *hh_curl(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, hh_curl_load);
    return hh_curl_storage();
}

static inline CURLcode hh_global_init(long flags) { return hh_curl()->global_init(flags); }
static inline CURLM *hh_multi_init(void) { return hh_curl()->multi_init(); }
static inline CURLMcode hh_multi_add_handle(CURLM *multi, CURL *easy) { return hh_curl()->multi_add_handle(multi, easy); }
static inline CURLMcode hh_multi_remove_handle(CURLM *multi, CURL *easy) { return hh_curl()->multi_remove_handle(multi, easy); }
static inline CURLMcode hh_multi_perform(CURLM *multi, int *running) { return hh_curl()->multi_perform(multi, running); }
static inline CURLMsg *hh_multi_info_read(CURLM *multi, int *queued) { return hh_curl()->multi_info_read(multi, queued); }
static inline CURLMcode hh_multi_poll(CURLM *multi, int timeout_ms, int *ready) { return hh_curl()->multi_poll(multi, NULL, 0, timeout_ms, ready); }
static inline CURLMcode hh_multi_wakeup(CURLM *multi) { return hh_curl()->multi_wakeup(multi); }
static inline CURL *hh_easy_init(void) { return hh_curl()->easy_init(); }
static inline void hh_easy_reset(CURL *easy) { hh_curl()->easy_reset(easy); }
static inline void hh_easy_cleanup(CURL *easy) { hh_curl()->easy_cleanup(easy); }
static inline const char *hh_easy_strerror(CURLcode code) { return hh_curl()->easy_strerror(code); }
static inline CURLcode hh_easy_pause(CURL *easy, int bitmask) { return hh_curl()->easy_pause(easy, bitmask); }
static inline CURLSH *hh_share_init(void) { return hh_curl()->share_init(); }
static inline CURLSHcode hh_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return hh_curl()->share_setopt(share, option, value);
}
static inline void hh_free(void *pointer) { hh_curl()->free(pointer); }
static inline struct curl_slist *hh_slist_append(struct curl_slist *list, const char *text) { return hh_curl()->slist_append(list, text); }
static inline void hh_slist_free_all(struct curl_slist *list) { hh_curl()->slist_free_all(list); }
static inline CURLU *hh_url(void) { return hh_curl()->url(); }
static inline void hh_url_cleanup(CURLU *url) { hh_curl()->url_cleanup(url); }
static inline CURLUcode hh_url_set(CURLU *url, CURLUPart part, const char *text, unsigned int flags) { return hh_curl()->url_set(url, part, text, flags); }
static inline CURLUcode hh_url_get(const CURLU *url, CURLUPart part, char **text, unsigned int flags) { return hh_curl()->url_get(url, part, text, flags); }
static inline const char *hh_url_strerror(CURLUcode code) { return hh_curl()->url_strerror(code); }

static inline CURLcode hh_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return hh_curl()->easy_setopt(handle, option, value);
}
static inline CURLcode hh_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return hh_curl()->easy_setopt(handle, option, value);
}
static inline CURLcode hh_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return hh_curl()->easy_setopt(handle, option, value);
}
static inline CURLcode hh_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return hh_curl()->easy_setopt(handle, option, value);
}
static inline CURLcode hh_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return hh_curl()->easy_setopt(handle, option, value);
}
static inline CURLcode hh_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
    return hh_curl()->easy_setopt(handle, option, value);
}
static inline CURLcode hh_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback value) {
    return hh_curl()->easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
static inline CURLcode hh_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return hh_curl()->easy_getinfo(handle, info, value);
}
static inline CURLcode hh_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return hh_curl()->easy_getinfo(handle, info, value);
}
static inline CURLcode hh_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return hh_curl()->easy_getinfo(handle, info, value);
}
static inline CURLMcode hh_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return hh_curl()->multi_setopt(multi, option, value);
}
/// The result of a finished transfer: CURLMsg's `data` is a union Swift reads awkwardly.
static inline CURLcode hh_message_result(const CURLMsg *message) { return message->data.result; }
