// ES256 (RFC 7518 §3.4) for DPoP proofs (CONTRACT §13): a P-256 public key from its JWK
// coordinates and an ECDSA P-256 SHA-256 check of a JWS signature (es256.c says why it
// uses OpenSSL's EC_KEY calls).
#ifndef C_OPENSSL_ES256_H
#define C_OPENSSL_ES256_H

#include <stddef.h>

/// 1 when (x, y), two 32-byte big-endian coordinates, is a point on P-256 with both
/// coordinates below the field prime; 0 otherwise (including when OpenSSL fails).
int tokenswap_p256_public_key_valid(const unsigned char *x, const unsigned char *y);

/// 1 when `signature`, the 64 bytes r‖s of a JWS ES256 signature (RFC 7518 §3.4), is a
/// valid ECDSA P-256 SHA-256 signature of `message` by the key (x, y); 0 for any other
/// outcome: an invalid key, r or s out of range, a wrong signature, OpenSSL failing.
/// Leaves OpenSSL's error queue of this thread empty.
int tokenswap_es256_verify(
    const unsigned char *x, const unsigned char *y, const unsigned char *message,
    size_t message_length, const unsigned char *signature);

#endif
