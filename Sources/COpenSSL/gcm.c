// AES-256-GCM through the provider's own cipher functions (the provider EVP_CIPHER_fetch
// picks: the default one unless OpenSSL's configuration says otherwise), looked up once
// by OSSL_PROVIDER_query_operation, instead of the EVP_CIPHER_CTX calls that wrap them.
// On OpenSSL 3.0 every EVP_EncryptInit_ex2 that sets a nonce asks the provider for the
// IV length (a parameter lookup by name, string compares), and reading or setting the
// tag through EVP_CIPHER_CTX_ctrl builds a parameter array: about a third of a seal of a
// few hundred bytes, and a refresh seals or opens three times (CONTRACT §12's kept
// answer among them; BENCHMARKS.md). The calls below are the ones EVP makes for a keyed
// context with the same arguments (encrypt_init/decrypt_init with only the nonce, update,
// final, the tag as OSSL_CIPHER_PARAM_AEAD_TAG), so the provider's checks all still run:
// the nonce's length, one use of each nonce per init, the tag compared in constant time.
#include <pthread.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "COpenSSL+GCM.h"

enum { key_bytes = 32, nonce_bytes = 12, tag_bytes = 16 };

// The provider's functions for AES-256-GCM and its context, found once. `cipher` holds
// the fetched algorithm for the life of the process, so the provider (and the code the
// pointers point into) stays loaded.
static struct {
    EVP_CIPHER *cipher;
    void *provider_context;
    OSSL_FUNC_cipher_newctx_fn *newctx;
    OSSL_FUNC_cipher_freectx_fn *freectx;
    OSSL_FUNC_cipher_encrypt_init_fn *encrypt_init;
    OSSL_FUNC_cipher_decrypt_init_fn *decrypt_init;
    OSSL_FUNC_cipher_update_fn *update;
    OSSL_FUNC_cipher_final_fn *final;
    OSSL_FUNC_cipher_get_ctx_params_fn *get_ctx_params;
    OSSL_FUNC_cipher_set_ctx_params_fn *set_ctx_params;
} gcm;
static int gcm_found;
static pthread_once_t gcm_once = PTHREAD_ONCE_INIT;

// Whether `name` is one of the colon-separated names in `names`.
static int names_include(const char *names, const char *name) {
    size_t length = strlen(name);
    for (const char *at = names; at != NULL && *at != '\0';) {
        const char *end = strchr(at, ':');
        size_t count = end != NULL ? (size_t)(end - at) : strlen(at);
        if (count == length && OPENSSL_strncasecmp(at, name, length) == 0) return 1;
        at = end != NULL ? end + 1 : NULL;
    }
    return 0;
}

static void find_gcm(void) {
    // Whatever the lookup leaves on this thread's error queue goes, and nothing else.
    ERR_set_mark();
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
    const OSSL_PROVIDER *provider = cipher != NULL ? EVP_CIPHER_get0_provider(cipher) : NULL;
    int no_cache = 0;
    const OSSL_ALGORITHM *algorithms =
        provider != NULL ? OSSL_PROVIDER_query_operation(provider, OSSL_OP_CIPHER, &no_cache)
                         : NULL;
    const OSSL_ALGORITHM *found = NULL;
    for (const OSSL_ALGORITHM *a = algorithms; a != NULL && a->algorithm_names != NULL; a++) {
        if (names_include(a->algorithm_names, "AES-256-GCM")) {
            found = a;
            break;
        }
    }
    for (const OSSL_DISPATCH *f = found != NULL ? found->implementation : NULL;
         f != NULL && f->function_id != 0; f++) {
        switch (f->function_id) {
        case OSSL_FUNC_CIPHER_NEWCTX: gcm.newctx = OSSL_FUNC_cipher_newctx(f); break;
        case OSSL_FUNC_CIPHER_FREECTX: gcm.freectx = OSSL_FUNC_cipher_freectx(f); break;
        case OSSL_FUNC_CIPHER_ENCRYPT_INIT:
            gcm.encrypt_init = OSSL_FUNC_cipher_encrypt_init(f);
            break;
        case OSSL_FUNC_CIPHER_DECRYPT_INIT:
            gcm.decrypt_init = OSSL_FUNC_cipher_decrypt_init(f);
            break;
        case OSSL_FUNC_CIPHER_UPDATE: gcm.update = OSSL_FUNC_cipher_update(f); break;
        case OSSL_FUNC_CIPHER_FINAL: gcm.final = OSSL_FUNC_cipher_final(f); break;
        case OSSL_FUNC_CIPHER_GET_CTX_PARAMS:
            gcm.get_ctx_params = OSSL_FUNC_cipher_get_ctx_params(f);
            break;
        case OSSL_FUNC_CIPHER_SET_CTX_PARAMS:
            gcm.set_ctx_params = OSSL_FUNC_cipher_set_ctx_params(f);
            break;
        default: break;
        }
    }
    if (algorithms != NULL) OSSL_PROVIDER_unquery_operation(provider, OSSL_OP_CIPHER, algorithms);
    gcm.provider_context = provider != NULL ? OSSL_PROVIDER_get0_provider_ctx(provider) : NULL;
    gcm_found = found != NULL && gcm.newctx != NULL && gcm.freectx != NULL
        && gcm.encrypt_init != NULL && gcm.decrypt_init != NULL && gcm.update != NULL
        && gcm.final != NULL && gcm.get_ctx_params != NULL && gcm.set_ctx_params != NULL;
    if (gcm_found) {
        gcm.cipher = cipher;
    } else {
        EVP_CIPHER_free(cipher);
    }
    ERR_pop_to_mark();
}

// The opaque type is the provider's own context.
struct tokenswap_gcm_context;

tokenswap_gcm_context *tokenswap_gcm_new(const unsigned char *key) {
    if (pthread_once(&gcm_once, find_gcm) != 0 || !gcm_found) return NULL;
    void *context = gcm.newctx(gcm.provider_context);
    if (context == NULL) return NULL;
    if (gcm.encrypt_init(context, key, key_bytes, NULL, 0, NULL) != 1) {
        gcm.freectx(context);
        ERR_clear_error();
        return NULL;
    }
    return (tokenswap_gcm_context *)context;
}

void tokenswap_gcm_free(tokenswap_gcm_context *context) {
    // The provider's freectx wipes the key schedule (OPENSSL_clear_free).
    if (context != NULL && gcm_found) gcm.freectx(context);
}

// Feeds `count` bytes: associated data when `out` is NULL, else text.
static int feed(void *context, unsigned char *out, const unsigned char *in, size_t count) {
    size_t written = 0;
    if (count == 0) return 1;
    return gcm.update(context, out, &written, count, in, count) == 1
        && (out == NULL || written == count);
}

int tokenswap_gcm_seal(
    tokenswap_gcm_context *context, const unsigned char *nonce, const unsigned char *aad,
    size_t aad_count, const unsigned char *plaintext, size_t count, unsigned char *ciphertext,
    unsigned char *tag) {
    size_t final_written = 0;
    unsigned char scratch = 0;
    OSSL_PARAM params[] = {
        OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, tag_bytes), OSSL_PARAM_END};
    int ok = gcm.encrypt_init(context, NULL, 0, nonce, nonce_bytes, NULL) == 1
        && feed(context, NULL, aad, aad_count) && feed(context, ciphertext, plaintext, count)
        && gcm.final(context, &scratch, &final_written, 0) == 1 && final_written == 0
        && gcm.get_ctx_params(context, params) == 1;
    if (!ok) ERR_clear_error();
    return ok;
}

int tokenswap_gcm_open(
    tokenswap_gcm_context *context, const unsigned char *nonce, const unsigned char *aad,
    size_t aad_count, const unsigned char *ciphertext, size_t count, const unsigned char *tag,
    unsigned char *plaintext) {
    size_t final_written = 0;
    unsigned char scratch = 0;
    // The provider copies the expected tag; it takes a non-const pointer but does not
    // write through it.
    OSSL_PARAM params[] = {
        OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, (void *)tag, tag_bytes),
        OSSL_PARAM_END};
    int ready = gcm.decrypt_init(context, NULL, 0, nonce, nonce_bytes, NULL) == 1
        && feed(context, NULL, aad, aad_count) && feed(context, plaintext, ciphertext, count)
        && gcm.set_ctx_params(context, params) == 1;
    // Final compares the computed tag with the expected one (CRYPTO_memcmp).
    int result = !ready ? -1
        : gcm.final(context, &scratch, &final_written, 0) == 1 && final_written == 0 ? 1
        : 0;
    if (result != 1) ERR_clear_error();
    return result;
}
