// AES-256-GCM through OpenSSL's EVP cipher API on a context keyed once: each seal or open
// only sets the nonce (EVP_CipherInit_ex2 with neither cipher nor key keeps the key
// schedule and the GHASH table), so the key expansion and the context's allocation are
// paid once per pooled context (Sealing's SealingKey), not per call. The tag is read and
// set as the AEAD tag parameter (OSSL_CIPHER_PARAM_AEAD_TAG); OpenSSL compares it in
// constant time.
#include <limits.h>
#include <pthread.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "COpenSSL+GCM.h"

enum { key_bytes = 32, nonce_bytes = 12, tag_bytes = 16 };

// The algorithm, fetched once for the life of the process (EVP_CIPHER_fetch: the default
// provider's unless OpenSSL's configuration says otherwise).
static EVP_CIPHER *aes_256_gcm;
static pthread_once_t fetch_once = PTHREAD_ONCE_INIT;

static void fetch_cipher(void) {
    aes_256_gcm = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
    ERR_clear_error();
}

// The opaque type is the EVP context.
struct tokenswap_gcm_context;

tokenswap_gcm_context *tokenswap_gcm_new(const unsigned char *key) {
    if (pthread_once(&fetch_once, fetch_cipher) != 0 || aes_256_gcm == NULL) return NULL;
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    if (context == NULL || EVP_EncryptInit_ex2(context, aes_256_gcm, key, NULL, NULL) != 1) {
        EVP_CIPHER_CTX_free(context);
        ERR_clear_error();
        return NULL;
    }
    return (tokenswap_gcm_context *)context;
}

void tokenswap_gcm_free(tokenswap_gcm_context *context) {
    // Frees the provider's context, which wipes the key schedule.
    EVP_CIPHER_CTX_free((EVP_CIPHER_CTX *)context);
}

// Feeds `count` bytes: associated data when `out` is NULL, else text.
static int feed(EVP_CIPHER_CTX *context, unsigned char *out, const unsigned char *in, size_t count) {
    int written = 0;
    if (count == 0) return 1;
    if (count > INT_MAX) return 0;
    return EVP_CipherUpdate(context, out, &written, in, (int)count) == 1
        && (out == NULL || written == (int)count);
}

int tokenswap_gcm_seal(
    tokenswap_gcm_context *opaque, const unsigned char *nonce, const unsigned char *aad,
    size_t aad_count, const unsigned char *plaintext, size_t count, unsigned char *ciphertext,
    unsigned char *tag) {
    EVP_CIPHER_CTX *context = (EVP_CIPHER_CTX *)opaque;
    int final_written = 0;
    unsigned char scratch[16];
    OSSL_PARAM params[] = {
        OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, tag_bytes), OSSL_PARAM_END};
    int ok = EVP_CipherInit_ex2(context, NULL, NULL, nonce, 1, NULL) == 1
        && feed(context, NULL, aad, aad_count) && feed(context, ciphertext, plaintext, count)
        && EVP_CipherFinal_ex(context, scratch, &final_written) == 1 && final_written == 0
        && EVP_CIPHER_CTX_get_params(context, params) == 1;
    if (!ok) ERR_clear_error();
    return ok;
}

int tokenswap_gcm_open(
    tokenswap_gcm_context *opaque, const unsigned char *nonce, const unsigned char *aad,
    size_t aad_count, const unsigned char *ciphertext, size_t count, const unsigned char *tag,
    unsigned char *plaintext) {
    EVP_CIPHER_CTX *context = (EVP_CIPHER_CTX *)opaque;
    int final_written = 0;
    unsigned char scratch[16];
    // OpenSSL copies the expected tag; the parameter takes a non-const pointer but it is
    // not written through.
    OSSL_PARAM params[] = {
        OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, (void *)tag, tag_bytes),
        OSSL_PARAM_END};
    int ready = EVP_CipherInit_ex2(context, NULL, NULL, nonce, 0, NULL) == 1
        && feed(context, NULL, aad, aad_count) && feed(context, plaintext, ciphertext, count)
        && EVP_CIPHER_CTX_set_params(context, params) == 1;
    // Final compares the computed tag with the expected one (CRYPTO_memcmp).
    int result = !ready ? -1
        : EVP_CipherFinal_ex(context, scratch, &final_written) == 1 && final_written == 0 ? 1
        : 0;
    if (result != 1) ERR_clear_error();
    return result;
}
