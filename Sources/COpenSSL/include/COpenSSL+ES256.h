// ES256 (RFC 7518 §3.4) for DPoP proofs (CONTRACT §13): a P-256 public key from its JWK
// coordinates and an ECDSA P-256 SHA-256 check of a JWS signature, both through OpenSSL's
// EVP API (es256.c).
#ifndef C_OPENSSL_ES256_H
#define C_OPENSSL_ES256_H

#include <stddef.h>

/// An OpenSSL P-256 public key (an `EVP_PKEY`), opaque to Swift.
typedef struct tokenswap_p256_key tokenswap_p256_key;

/// The key (x, y), two 32-byte big-endian coordinates, or NULL unless it is a point on
/// P-256 with both coordinates below the field prime (or when OpenSSL fails). Free it with
/// `tokenswap_p256_key_free`. Only read afterwards, so threads may share it.
tokenswap_p256_key *tokenswap_p256_key_new(const unsigned char *x, const unsigned char *y);

void tokenswap_p256_key_free(tokenswap_p256_key *key);

/// 1 when `signature`, the 64 bytes r‖s of a JWS ES256 signature (RFC 7518 §3.4), is a
/// valid ECDSA P-256 SHA-256 signature of `message` by `key`; 0 for any other outcome:
/// r or s out of range, a wrong signature, OpenSSL failing. Leaves OpenSSL's error queue
/// of this thread empty.
int tokenswap_es256_verify(
    const tokenswap_p256_key *key, const unsigned char *message, size_t message_length,
    const unsigned char *signature);

#endif
