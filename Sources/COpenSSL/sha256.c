// SHA-256 through OpenSSL's EVP digest API, on one EVP_MD_CTX per thread (reset by each
// EVP_DigestInit_ex2, freed when the thread ends) and the algorithm fetched once: the state
// store digests a key on every refresh (CONTRACT §12), a few dozen bytes, where a context
// made and fetched per call (EVP_Digest) costs more than the digest.
#include <pthread.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "COpenSSL+SHA256.h"

static EVP_MD *sha256;
static pthread_key_t thread_context;
static int ready;
static pthread_once_t set_up_once = PTHREAD_ONCE_INIT;

static void free_context(void *context) { EVP_MD_CTX_free(context); }

static void set_up(void) {
    sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    ERR_clear_error();
    ready = sha256 != NULL && pthread_key_create(&thread_context, free_context) == 0;
}

int tokenswap_sha256(const void *input, size_t count, unsigned char *digest) {
    if (pthread_once(&set_up_once, set_up) != 0 || !ready) return 0;
    EVP_MD_CTX *context = pthread_getspecific(thread_context);
    if (context == NULL) {
        context = EVP_MD_CTX_new();
        if (context == NULL || pthread_setspecific(thread_context, context) != 0) {
            EVP_MD_CTX_free(context);
            return 0;
        }
    }
    unsigned int written = 0;
    int ok = EVP_DigestInit_ex2(context, sha256, NULL) == 1
        && EVP_DigestUpdate(context, input, count) == 1
        && EVP_DigestFinal_ex(context, digest, &written) == 1 && written == 32;
    if (!ok) ERR_clear_error();
    return ok;
}
