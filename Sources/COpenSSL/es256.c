// ES256 through OpenSSL's EC_KEY and ECDSA_do_verify. These are deprecated in OpenSSL 3
// in favour of EVP_PKEY_fromdata and EVP_DigestVerify, but on OpenSSL 3.0 importing a
// public key through the provider interface costs more than the signature check itself
// (`scripts/bench dpop`); CONTRACT §13 allows a DPoP refresh one check plus 10 %. The
// low-level calls still run OpenSSL's own constant-time P-256 code.
#define OPENSSL_SUPPRESS_DEPRECATED

#include <pthread.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/sha.h>

#include "COpenSSL+ES256.h"

enum { coordinate_bytes = 32, digest_bytes = 32 };

// P-256, made once and only read afterwards (EC_KEY_set_group copies the group), and the
// key of each thread's signature value (below).
static EC_GROUP *p256;
static pthread_key_t signature_key;
static int signature_key_made;
static pthread_once_t p256_once = PTHREAD_ONCE_INIT;
static void free_signature_value(void *value) { ECDSA_SIG_free(value); }
static void make_p256(void) {
    p256 = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    signature_key_made = pthread_key_create(&signature_key, free_signature_value) == 0;
}

static const EC_GROUP *p256_group(void) {
    if (pthread_once(&p256_once, make_p256) != 0) return NULL;
    return p256;
}

// The point (x, y), or NULL unless both coordinates are below the field prime and the
// point is on the curve (EC_POINT_set_affine_coordinates checks the equation itself and
// fails with EC_R_POINT_IS_NOT_ON_CURVE, so no second check follows; it would reduce a
// coordinate at or above the prime, so that is refused first).
static EC_POINT *p256_point(const EC_GROUP *group, const unsigned char *x, const unsigned char *y) {
    const BIGNUM *prime = EC_GROUP_get0_field(group);
    BIGNUM *bx = BN_bin2bn(x, coordinate_bytes, NULL);
    BIGNUM *by = BN_bin2bn(y, coordinate_bytes, NULL);
    EC_POINT *point = EC_POINT_new(group);
    int valid = prime != NULL && bx != NULL && by != NULL && point != NULL
        && BN_cmp(bx, prime) < 0 && BN_cmp(by, prime) < 0
        && EC_POINT_set_affine_coordinates(group, point, bx, by, NULL) == 1;
    BN_free(bx);
    BN_free(by);
    if (!valid) {
        EC_POINT_free(point);
        return NULL;
    }
    return point;
}

// The opaque type is OpenSSL's EC_KEY itself.
struct tokenswap_p256_key;

tokenswap_p256_key *tokenswap_p256_key_new(const unsigned char *x, const unsigned char *y) {
    const EC_GROUP *group = p256_group();
    EC_POINT *point = group != NULL ? p256_point(group, x, y) : NULL;
    EC_KEY *key = point != NULL ? EC_KEY_new() : NULL;
    int made = key != NULL && EC_KEY_set_group(key, group) == 1
        && EC_KEY_set_public_key(key, point) == 1;
    EC_POINT_free(point);
    ERR_clear_error();
    if (!made) {
        EC_KEY_free(key);
        return NULL;
    }
    return (tokenswap_p256_key *)key;
}

void tokenswap_p256_key_free(tokenswap_p256_key *key) {
    EC_KEY_free((EC_KEY *)key);
}

// JWS's fixed r‖s (RFC 7518 §3.4) as OpenSSL's signature value; r and s out of range
// are refused by ECDSA_do_verify. Each thread keeps one value and writes every signature
// into its two numbers (BN_bin2bn into an existing BIGNUM reuses its words), so a check
// allocates no ECDSA_SIG and no BIGNUM; the value is freed when its thread ends.
static ECDSA_SIG *signature_value(const unsigned char *signature) {
    if (!signature_key_made) return NULL;
    ECDSA_SIG *value = pthread_getspecific(signature_key);
    if (value == NULL) {
        value = ECDSA_SIG_new();
        BIGNUM *r = BN_new();
        BIGNUM *s = BN_new();
        if (value == NULL || r == NULL || s == NULL || ECDSA_SIG_set0(value, r, s) != 1) {
            BN_free(r);
            BN_free(s);
            ECDSA_SIG_free(value);
            return NULL;
        }
        if (pthread_setspecific(signature_key, value) != 0) {
            ECDSA_SIG_free(value);
            return NULL;
        }
    }
    BIGNUM *r = (BIGNUM *)ECDSA_SIG_get0_r(value);
    BIGNUM *s = (BIGNUM *)ECDSA_SIG_get0_s(value);
    if (BN_bin2bn(signature, coordinate_bytes, r) == NULL
        || BN_bin2bn(signature + coordinate_bytes, coordinate_bytes, s) == NULL)
        return NULL;
    return value;
}

int tokenswap_es256_verify(
    const tokenswap_p256_key *key, const unsigned char *message, size_t message_length,
    const unsigned char *signature) {
    unsigned char digest[digest_bytes];
    SHA256_CTX context;
    ECDSA_SIG *value = key != NULL && p256_group() != NULL ? signature_value(signature) : NULL;
    // SHA-256 by the low-level calls, as sha256.c does: EVP_Digest would allocate and set
    // up a digest context for every proof.
    int valid = value != NULL && SHA256_Init(&context) == 1
        && SHA256_Update(&context, message, message_length) == 1
        && SHA256_Final(digest, &context) == 1
        && ECDSA_do_verify(digest, digest_bytes, value, (EC_KEY *)key) == 1;
    // A refused signature leaves entries on this thread's queue; TLS on the same thread
    // reads that queue for its own failures (TLSErrorQueue), so none may linger. A valid
    // one leaves none: the queue is only cleared (all its slots walked) when it holds one.
    if (ERR_peek_error() != 0) ERR_clear_error();
    return valid;
}
