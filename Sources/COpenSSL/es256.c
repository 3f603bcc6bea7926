#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "COpenSSL+ES256.h"

enum { coordinate_bytes = 32, signature_bytes = 64 };

// The key of an uncompressed SEC 1 point 0x04‖x‖y on P-256, or NULL. EVP_PKEY_fromdata
// decodes the point (refusing one off the curve); the quick public check also refuses
// coordinates at or above the prime. The full check's order test adds nothing on a
// curve of cofactor 1 and would cost a scalar multiplication.
static EVP_PKEY *p256_public_key(const unsigned char *x, const unsigned char *y) {
    unsigned char point[1 + 2 * coordinate_bytes];
    point[0] = 0x04;
    memcpy(point + 1, x, coordinate_bytes);
    memcpy(point + 1 + coordinate_bytes, y, coordinate_bytes);
    char group[] = "prime256v1";
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point),
        OSSL_PARAM_construct_end(),
    };
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (context == NULL) return NULL;
    EVP_PKEY *key = NULL;
    if (EVP_PKEY_fromdata_init(context) != 1
        || EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) {
        EVP_PKEY_CTX_free(context);
        EVP_PKEY_free(key);
        return NULL;
    }
    EVP_PKEY_CTX_free(context);
    EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int valid = check != NULL && EVP_PKEY_public_check_quick(check) == 1;
    EVP_PKEY_CTX_free(check);
    if (!valid) {
        EVP_PKEY_free(key);
        return NULL;
    }
    return key;
}

int tokenswap_p256_public_key_valid(const unsigned char *x, const unsigned char *y) {
    EVP_PKEY *key = p256_public_key(x, y);
    int valid = key != NULL;
    EVP_PKEY_free(key);
    ERR_clear_error();
    return valid;
}

// The DER ECDSA-Sig-Value (RFC 3279 §2.2.3) OpenSSL verifies, from JWS's fixed r‖s.
// Writes at most 72 bytes into `der`; returns its length, or 0 on failure.
static int der_signature(const unsigned char *signature, unsigned char *der, int capacity) {
    ECDSA_SIG *value = ECDSA_SIG_new();
    if (value == NULL) return 0;
    BIGNUM *r = BN_bin2bn(signature, coordinate_bytes, NULL);
    BIGNUM *s = BN_bin2bn(signature + coordinate_bytes, coordinate_bytes, NULL);
    if (r == NULL || s == NULL || ECDSA_SIG_set0(value, r, s) != 1) {
        BN_free(r);
        BN_free(s);
        ECDSA_SIG_free(value);
        return 0;
    }
    int length = i2d_ECDSA_SIG(value, NULL);
    if (length <= 0 || length > capacity) {
        ECDSA_SIG_free(value);
        return 0;
    }
    unsigned char *cursor = der;
    int written = i2d_ECDSA_SIG(value, &cursor);
    ECDSA_SIG_free(value);
    return written == length ? length : 0;
}

int tokenswap_es256_verify(
    const unsigned char *x, const unsigned char *y, const unsigned char *message,
    size_t message_length, const unsigned char *signature) {
    // Two INTEGERs of at most 33 bytes each, their headers and the SEQUENCE header.
    unsigned char der[2 * (2 + coordinate_bytes + 1) + 2];
    int der_length = der_signature(signature, der, (int)sizeof der);
    EVP_PKEY *key = der_length > 0 ? p256_public_key(x, y) : NULL;
    EVP_MD_CTX *context = key != NULL ? EVP_MD_CTX_new() : NULL;
    int valid = context != NULL
        && EVP_DigestVerifyInit_ex(context, NULL, "SHA256", NULL, NULL, key, NULL) == 1
        && EVP_DigestVerify(context, der, (size_t)der_length, message, message_length) == 1;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    // A refused signature leaves entries on this thread's queue; TLS on the same thread
    // reads that queue for its own failures (TLSErrorQueue), so none may linger.
    ERR_clear_error();
    return valid;
}
