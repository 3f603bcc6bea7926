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
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

#include "COpenSSL+ES256.h"

enum { coordinate_bytes = 32, digest_bytes = 32 };

// P-256 and SHA-256, made once and only read afterwards (EC_KEY_set_group copies the
// group; on OpenSSL 3 `EVP_sha256()` would be fetched from the provider on every digest).
static EC_GROUP *p256;
static EVP_MD *sha256;
static pthread_once_t p256_once = PTHREAD_ONCE_INIT;
static void make_p256(void) {
    p256 = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
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
// are refused by ECDSA_do_verify.
static ECDSA_SIG *signature_value(const unsigned char *signature) {
    ECDSA_SIG *value = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(signature, coordinate_bytes, NULL);
    BIGNUM *s = BN_bin2bn(signature + coordinate_bytes, coordinate_bytes, NULL);
    if (value == NULL || r == NULL || s == NULL || ECDSA_SIG_set0(value, r, s) != 1) {
        BN_free(r);
        BN_free(s);
        ECDSA_SIG_free(value);
        return NULL;
    }
    return value;
}

int tokenswap_es256_verify(
    const tokenswap_p256_key *key, const unsigned char *message, size_t message_length,
    const unsigned char *signature) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digest_length = 0;
    ECDSA_SIG *value = key != NULL && p256_group() != NULL ? signature_value(signature) : NULL;
    int valid = value != NULL
        && EVP_Digest(
            message, message_length, digest, &digest_length,
            sha256 != NULL ? sha256 : EVP_sha256(), NULL) == 1
        && digest_length == digest_bytes
        && ECDSA_do_verify(digest, (int)digest_length, value, (EC_KEY *)key) == 1;
    ECDSA_SIG_free(value);
    // A refused signature leaves entries on this thread's queue; TLS on the same thread
    // reads that queue for its own failures (TLSErrorQueue), so none may linger.
    ERR_clear_error();
    return valid;
}
