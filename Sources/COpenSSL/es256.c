// ES256 (RFC 7518 §3.4) for DPoP proofs (CONTRACT §13) through OpenSSL's supported API: the
// key is an EVP_PKEY made from its JWK coordinates by EVP_PKEY_fromdata (which decodes the
// point and refuses one off the curve) and checked by EVP_PKEY_public_check_quick; a
// signature is checked by EVP_DigestVerify, OpenSSL's own ECDSA verification, after its
// JWS form r‖s is written as the DER that EVP takes (ECDSA_SIG, i2d_ECDSA_SIG). The range
// checks on r and s (1 ≤ r, s < n) are OpenSSL's.
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "COpenSSL+ES256.h"
#include "COpenSSL+SHA256.h"

enum { coordinate_bytes = 32, signature_bytes = 64, der_bytes_max = 72 };

struct tokenswap_p256_key {
    EVP_PKEY *pkey;
    /// Set up for verification by `pkey` with SHA-256; only duplicated, never used.
    EVP_PKEY_CTX *verification;
};

tokenswap_p256_key *tokenswap_p256_key_new(const unsigned char *x, const unsigned char *y) {
    unsigned char point[1 + 2 * coordinate_bytes];
    point[0] = 0x04; // uncompressed (SEC 1 v2 §2.3.3)
    memcpy(point + 1, x, coordinate_bytes);
    memcpy(point + 1 + coordinate_bytes, y, coordinate_bytes);
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"P-256", 0),
        OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point),
        OSSL_PARAM_END,
    };
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *from = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    int made = from != NULL && EVP_PKEY_fromdata_init(from) == 1
        && EVP_PKEY_fromdata(from, &pkey, EVP_PKEY_PUBLIC_KEY, params) == 1;
    EVP_PKEY_CTX_free(from);
    // On the curve and not the point at infinity (the quick check skips n·Q = O, which
    // P-256's cofactor of 1 makes redundant).
    EVP_PKEY_CTX *check = made ? EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL) : NULL;
    int checked = check != NULL && EVP_PKEY_public_check_quick(check) == 1;
    EVP_PKEY_CTX_free(check);
    EVP_PKEY_CTX *verification = checked ? EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL) : NULL;
    int ready = verification != NULL && EVP_PKEY_verify_init(verification) == 1
        && EVP_PKEY_CTX_set_signature_md(verification, EVP_sha256()) == 1;
    tokenswap_p256_key *key = ready ? OPENSSL_malloc(sizeof *key) : NULL;
    if (key == NULL) {
        EVP_PKEY_CTX_free(verification);
        EVP_PKEY_free(pkey);
        ERR_clear_error();
        return NULL;
    }
    key->pkey = pkey;
    key->verification = verification;
    return key;
}

void tokenswap_p256_key_free(tokenswap_p256_key *key) {
    if (key == NULL) return;
    EVP_PKEY_CTX_free(key->verification);
    EVP_PKEY_free(key->pkey);
    OPENSSL_free(key);
}

// The DER SEQUENCE of r and s (RFC 3279 §2.2.3) for the 64 bytes r‖s, into `der`; its
// length, or 0 when OpenSSL fails.
static int der_signature(const unsigned char *signature, unsigned char der[der_bytes_max]) {
    ECDSA_SIG *sig = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(signature, coordinate_bytes, NULL);
    BIGNUM *s = BN_bin2bn(signature + coordinate_bytes, coordinate_bytes, NULL);
    if (sig == NULL || r == NULL || s == NULL || ECDSA_SIG_set0(sig, r, s) != 1) {
        ECDSA_SIG_free(sig);
        BN_free(r);
        BN_free(s);
        return 0;
    }
    // Written in one pass, not measured first: r and s are below 2^256, so each INTEGER is
    // at most 2 + 33 bytes and the SEQUENCE at most 2 + 70, der_bytes_max.
    unsigned char *out = der;
    int length = i2d_ECDSA_SIG(sig, &out);
    if (length <= 0 || length > der_bytes_max) length = 0;
    ECDSA_SIG_free(sig);
    return length;
}

int tokenswap_es256_verify(
    const tokenswap_p256_key *key, const unsigned char *message, size_t message_length,
    const unsigned char *signature) {
    unsigned char der[der_bytes_max], digest[32];
    int der_length = der_signature(signature, der);
    EVP_PKEY_CTX *context = der_length > 0 && tokenswap_sha256(message, message_length, digest)
        ? EVP_PKEY_CTX_dup(key->verification)
        : NULL;
    int valid = context != NULL
        && EVP_PKEY_verify(context, der, (size_t)der_length, digest, sizeof digest) == 1;
    EVP_PKEY_CTX_free(context);
    // Only a failure leaves errors to drop (as in sha256.c and gcm.c): clearing walks the
    // thread's whole queue, on every proof.
    if (!valid) ERR_clear_error();
    return valid;
}
