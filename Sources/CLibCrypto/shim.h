// OpenSSL 3's libcrypto, for what swift-crypto lacks in WebCrypto: Curve448 (Ed448, X448), RSA-OAEP
// with a label or with SHA-384/512, RSA-PSS with any salt length. Loaded with dlopen/dlsym the
// first time one of those runs, as CCurl loads libcurl, rather than linked: loading it costs about
// 1 ms and maps 4.5 MiB, which every start of the host would pay for algorithms few apps use.
// Swift calls it through the hh_ wrappers below. In OpenSSL 3 every function used is a plain
// function (EVP_PKEY_CTX_set_rsa_* were macros before 3.0); the wrappers fill the arguments Swift
// has no use for (ENGINE, the allocator's file and line) and load the table on first use.
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct hh_libcrypto_api {
    EVP_PKEY_CTX *(*pkey_ctx_new)(EVP_PKEY *, ENGINE *);
    EVP_PKEY_CTX *(*pkey_ctx_new_id)(int, ENGINE *);
    void (*pkey_ctx_free)(EVP_PKEY_CTX *);
    int (*keygen_init)(EVP_PKEY_CTX *);
    int (*keygen)(EVP_PKEY_CTX *, EVP_PKEY **);
    EVP_PKEY *(*new_raw_private_key)(int, ENGINE *, const unsigned char *, size_t);
    EVP_PKEY *(*new_raw_public_key)(int, ENGINE *, const unsigned char *, size_t);
    int (*get_raw_private_key)(const EVP_PKEY *, unsigned char *, size_t *);
    int (*get_raw_public_key)(const EVP_PKEY *, unsigned char *, size_t *);
    EVP_PKEY *(*d2i_private_key)(int, EVP_PKEY **, const unsigned char **, long);
    EVP_PKEY *(*d2i_public_key)(int, EVP_PKEY **, const unsigned char **, long);
    void (*pkey_free)(EVP_PKEY *);
    EVP_MD_CTX *(*md_ctx_new)(void);
    void (*md_ctx_free)(EVP_MD_CTX *);
    const EVP_MD *(*get_digestbyname)(const char *);
    int (*digest_sign_init)(EVP_MD_CTX *, EVP_PKEY_CTX **, const EVP_MD *, ENGINE *, EVP_PKEY *);
    int (*digest_sign)(EVP_MD_CTX *, unsigned char *, size_t *, const unsigned char *, size_t);
    int (*digest_verify_init)(EVP_MD_CTX *, EVP_PKEY_CTX **, const EVP_MD *, ENGINE *, EVP_PKEY *);
    int (*digest_verify)(EVP_MD_CTX *, const unsigned char *, size_t, const unsigned char *, size_t);
    int (*derive_init)(EVP_PKEY_CTX *);
    int (*derive_set_peer)(EVP_PKEY_CTX *, EVP_PKEY *);
    int (*derive)(EVP_PKEY_CTX *, unsigned char *, size_t *);
    int (*encrypt_init)(EVP_PKEY_CTX *);
    int (*encrypt)(EVP_PKEY_CTX *, unsigned char *, size_t *, const unsigned char *, size_t);
    int (*decrypt_init)(EVP_PKEY_CTX *);
    int (*decrypt)(EVP_PKEY_CTX *, unsigned char *, size_t *, const unsigned char *, size_t);
    int (*set_rsa_padding)(EVP_PKEY_CTX *, int);
    int (*set_rsa_pss_saltlen)(EVP_PKEY_CTX *, int);
    int (*set_rsa_mgf1_md)(EVP_PKEY_CTX *, const EVP_MD *);
    int (*set_rsa_oaep_md)(EVP_PKEY_CTX *, const EVP_MD *);
    int (*set0_rsa_oaep_label)(EVP_PKEY_CTX *, void *, int);
    void *(*memdup)(const void *, size_t, const char *, int);
    void (*free)(void *, const char *, int);
    unsigned long (*get_error)(void);
    void (*error_string_n)(unsigned long, char *, size_t);
    void (*clear_error)(void);
} hh_libcrypto_api;

// Function-local statics: Swift emits a header's inline functions, not its static variables.
static inline hh_libcrypto_api *hh_libcrypto_storage(void) {
    static hh_libcrypto_api table;
    return &table;
}

static inline void hh_libcrypto_load(void) {
    hh_libcrypto_api *table = hh_libcrypto_storage();
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "hybrid: cannot load OpenSSL's libcrypto (libcrypto.so.3): %s; install libssl3 (libssl3t64 on Debian 13), which libcurl4 also needs\n", dlerror());
        abort();
    }
#define HH_LIBCRYPTO_LOAD(field, name) \
    if (!(*(void **)&table->field = dlsym(library, name))) { \
        fprintf(stderr, "hybrid: libcrypto has no %s; OpenSSL 3.0 or later is needed\n", name); \
        abort(); \
    }
    HH_LIBCRYPTO_LOAD(pkey_ctx_new, "EVP_PKEY_CTX_new")
    HH_LIBCRYPTO_LOAD(pkey_ctx_new_id, "EVP_PKEY_CTX_new_id")
    HH_LIBCRYPTO_LOAD(pkey_ctx_free, "EVP_PKEY_CTX_free")
    HH_LIBCRYPTO_LOAD(keygen_init, "EVP_PKEY_keygen_init")
    HH_LIBCRYPTO_LOAD(keygen, "EVP_PKEY_keygen")
    HH_LIBCRYPTO_LOAD(new_raw_private_key, "EVP_PKEY_new_raw_private_key")
    HH_LIBCRYPTO_LOAD(new_raw_public_key, "EVP_PKEY_new_raw_public_key")
    HH_LIBCRYPTO_LOAD(get_raw_private_key, "EVP_PKEY_get_raw_private_key")
    HH_LIBCRYPTO_LOAD(get_raw_public_key, "EVP_PKEY_get_raw_public_key")
    HH_LIBCRYPTO_LOAD(d2i_private_key, "d2i_PrivateKey")
    HH_LIBCRYPTO_LOAD(d2i_public_key, "d2i_PublicKey")
    HH_LIBCRYPTO_LOAD(pkey_free, "EVP_PKEY_free")
    HH_LIBCRYPTO_LOAD(md_ctx_new, "EVP_MD_CTX_new")
    HH_LIBCRYPTO_LOAD(md_ctx_free, "EVP_MD_CTX_free")
    HH_LIBCRYPTO_LOAD(get_digestbyname, "EVP_get_digestbyname")
    HH_LIBCRYPTO_LOAD(digest_sign_init, "EVP_DigestSignInit")
    HH_LIBCRYPTO_LOAD(digest_sign, "EVP_DigestSign")
    HH_LIBCRYPTO_LOAD(digest_verify_init, "EVP_DigestVerifyInit")
    HH_LIBCRYPTO_LOAD(digest_verify, "EVP_DigestVerify")
    HH_LIBCRYPTO_LOAD(derive_init, "EVP_PKEY_derive_init")
    HH_LIBCRYPTO_LOAD(derive_set_peer, "EVP_PKEY_derive_set_peer")
    HH_LIBCRYPTO_LOAD(derive, "EVP_PKEY_derive")
    HH_LIBCRYPTO_LOAD(encrypt_init, "EVP_PKEY_encrypt_init")
    HH_LIBCRYPTO_LOAD(encrypt, "EVP_PKEY_encrypt")
    HH_LIBCRYPTO_LOAD(decrypt_init, "EVP_PKEY_decrypt_init")
    HH_LIBCRYPTO_LOAD(decrypt, "EVP_PKEY_decrypt")
    HH_LIBCRYPTO_LOAD(set_rsa_padding, "EVP_PKEY_CTX_set_rsa_padding")
    HH_LIBCRYPTO_LOAD(set_rsa_pss_saltlen, "EVP_PKEY_CTX_set_rsa_pss_saltlen")
    HH_LIBCRYPTO_LOAD(set_rsa_mgf1_md, "EVP_PKEY_CTX_set_rsa_mgf1_md")
    HH_LIBCRYPTO_LOAD(set_rsa_oaep_md, "EVP_PKEY_CTX_set_rsa_oaep_md")
    HH_LIBCRYPTO_LOAD(set0_rsa_oaep_label, "EVP_PKEY_CTX_set0_rsa_oaep_label")
    HH_LIBCRYPTO_LOAD(memdup, "CRYPTO_memdup")
    HH_LIBCRYPTO_LOAD(free, "CRYPTO_free")
    HH_LIBCRYPTO_LOAD(get_error, "ERR_get_error")
    HH_LIBCRYPTO_LOAD(error_string_n, "ERR_error_string_n")
    HH_LIBCRYPTO_LOAD(clear_error, "ERR_clear_error")
#undef HH_LIBCRYPTO_LOAD
}

static inline const hh_libcrypto_api *hh_libcrypto(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, hh_libcrypto_load);
    return hh_libcrypto_storage();
}

static inline EVP_PKEY_CTX *hh_EVP_PKEY_CTX_new(EVP_PKEY *key) { return hh_libcrypto()->pkey_ctx_new(key, NULL); }
static inline EVP_PKEY_CTX *hh_EVP_PKEY_CTX_new_id(int type) { return hh_libcrypto()->pkey_ctx_new_id(type, NULL); }
static inline void hh_EVP_PKEY_CTX_free(EVP_PKEY_CTX *context) { hh_libcrypto()->pkey_ctx_free(context); }
static inline int hh_EVP_PKEY_keygen_init(EVP_PKEY_CTX *context) { return hh_libcrypto()->keygen_init(context); }
static inline int hh_EVP_PKEY_keygen(EVP_PKEY_CTX *context, EVP_PKEY **key) { return hh_libcrypto()->keygen(context, key); }
static inline EVP_PKEY *hh_EVP_PKEY_new_raw_private_key(int type, const unsigned char *bytes, size_t length) {
    return hh_libcrypto()->new_raw_private_key(type, NULL, bytes, length);
}
static inline EVP_PKEY *hh_EVP_PKEY_new_raw_public_key(int type, const unsigned char *bytes, size_t length) {
    return hh_libcrypto()->new_raw_public_key(type, NULL, bytes, length);
}
static inline int hh_EVP_PKEY_get_raw_private_key(const EVP_PKEY *key, unsigned char *bytes, size_t *length) {
    return hh_libcrypto()->get_raw_private_key(key, bytes, length);
}
static inline int hh_EVP_PKEY_get_raw_public_key(const EVP_PKEY *key, unsigned char *bytes, size_t *length) {
    return hh_libcrypto()->get_raw_public_key(key, bytes, length);
}
static inline EVP_PKEY *hh_d2i_PrivateKey(int type, const unsigned char *der, long length) {
    return hh_libcrypto()->d2i_private_key(type, NULL, &der, length);
}
static inline EVP_PKEY *hh_d2i_PublicKey(int type, const unsigned char *der, long length) {
    return hh_libcrypto()->d2i_public_key(type, NULL, &der, length);
}
static inline void hh_EVP_PKEY_free(EVP_PKEY *key) { hh_libcrypto()->pkey_free(key); }
static inline EVP_MD_CTX *hh_EVP_MD_CTX_new(void) { return hh_libcrypto()->md_ctx_new(); }
static inline void hh_EVP_MD_CTX_free(EVP_MD_CTX *context) { hh_libcrypto()->md_ctx_free(context); }
static inline const EVP_MD *hh_EVP_get_digestbyname(const char *name) { return hh_libcrypto()->get_digestbyname(name); }
static inline int hh_EVP_DigestSignInit(EVP_MD_CTX *context, EVP_PKEY_CTX **keyContext, const EVP_MD *digest, EVP_PKEY *key) {
    return hh_libcrypto()->digest_sign_init(context, keyContext, digest, NULL, key);
}
static inline int hh_EVP_DigestSign(EVP_MD_CTX *context, unsigned char *signature, size_t *length, const unsigned char *data, size_t count) {
    return hh_libcrypto()->digest_sign(context, signature, length, data, count);
}
static inline int hh_EVP_DigestVerifyInit(EVP_MD_CTX *context, EVP_PKEY_CTX **keyContext, const EVP_MD *digest, EVP_PKEY *key) {
    return hh_libcrypto()->digest_verify_init(context, keyContext, digest, NULL, key);
}
static inline int hh_EVP_DigestVerify(EVP_MD_CTX *context, const unsigned char *signature, size_t length, const unsigned char *data, size_t count) {
    return hh_libcrypto()->digest_verify(context, signature, length, data, count);
}
static inline int hh_EVP_PKEY_derive_init(EVP_PKEY_CTX *context) { return hh_libcrypto()->derive_init(context); }
static inline int hh_EVP_PKEY_derive_set_peer(EVP_PKEY_CTX *context, EVP_PKEY *peer) { return hh_libcrypto()->derive_set_peer(context, peer); }
static inline int hh_EVP_PKEY_derive(EVP_PKEY_CTX *context, unsigned char *secret, size_t *length) {
    return hh_libcrypto()->derive(context, secret, length);
}
static inline int hh_EVP_PKEY_encrypt_init(EVP_PKEY_CTX *context) { return hh_libcrypto()->encrypt_init(context); }
static inline int hh_EVP_PKEY_encrypt(EVP_PKEY_CTX *context, unsigned char *output, size_t *length, const unsigned char *input, size_t count) {
    return hh_libcrypto()->encrypt(context, output, length, input, count);
}
static inline int hh_EVP_PKEY_decrypt_init(EVP_PKEY_CTX *context) { return hh_libcrypto()->decrypt_init(context); }
static inline int hh_EVP_PKEY_decrypt(EVP_PKEY_CTX *context, unsigned char *output, size_t *length, const unsigned char *input, size_t count) {
    return hh_libcrypto()->decrypt(context, output, length, input, count);
}
static inline int hh_EVP_PKEY_CTX_set_rsa_padding(EVP_PKEY_CTX *context, int padding) { return hh_libcrypto()->set_rsa_padding(context, padding); }
static inline int hh_EVP_PKEY_CTX_set_rsa_pss_saltlen(EVP_PKEY_CTX *context, int length) { return hh_libcrypto()->set_rsa_pss_saltlen(context, length); }
static inline int hh_EVP_PKEY_CTX_set_rsa_mgf1_md(EVP_PKEY_CTX *context, const EVP_MD *digest) { return hh_libcrypto()->set_rsa_mgf1_md(context, digest); }
static inline int hh_EVP_PKEY_CTX_set_rsa_oaep_md(EVP_PKEY_CTX *context, const EVP_MD *digest) { return hh_libcrypto()->set_rsa_oaep_md(context, digest); }
/// OAEP's label, copied: EVP_PKEY_CTX_set0_rsa_oaep_label takes a buffer from OpenSSL's allocator
/// and frees it once it succeeds.
static inline int hh_EVP_PKEY_CTX_set_rsa_oaep_label(EVP_PKEY_CTX *context, const void *label, int length) {
    const hh_libcrypto_api *api = hh_libcrypto();
    void *copy = api->memdup(label, (size_t)length, __FILE__, __LINE__);
    if (!copy) return 0;
    int result = api->set0_rsa_oaep_label(context, copy, length);
    if (result <= 0) api->free(copy, __FILE__, __LINE__);
    return result;
}
static inline unsigned long hh_ERR_get_error(void) { return hh_libcrypto()->get_error(); }
static inline void hh_ERR_error_string_n(unsigned long error, char *text, size_t length) { hh_libcrypto()->error_string_n(error, text, length); }
static inline void hh_ERR_clear_error(void) { hh_libcrypto()->clear_error(); }
