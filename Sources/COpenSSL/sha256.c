// SHA-256 through OpenSSL's SHA256_Init/Update/Final. These are deprecated in OpenSSL 3 in
// favour of EVP_Digest, which allocates a digest context and the provider's own context on
// every call and dispatches through the provider; the state store digests a key on every
// refresh (CONTRACT §12), a few dozen bytes, where that set-up costs more than the digest.
// The low-level calls run the same block function as the provider.
#define OPENSSL_SUPPRESS_DEPRECATED

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "COpenSSL+SHA256.h"

int tokenswap_sha256(const void *input, size_t count, unsigned char *digest) {
    SHA256_CTX context;
    int ok = SHA256_Init(&context) == 1 && SHA256_Update(&context, input, count) == 1
        && SHA256_Final(digest, &context) == 1;
    OPENSSL_cleanse(&context, sizeof context);
    return ok;
}
