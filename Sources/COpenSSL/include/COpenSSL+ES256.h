// ES256 (RFC 7518 §3.4) for DPoP proofs (CONTRACT §13): a P-256 public key from its JWK
// coordinates and an ECDSA P-256 SHA-256 check of a JWS signature (es256.c says how it
// uses OpenSSL's P-256 arithmetic, p256_order.c the inverse modulo the group order).
#ifndef C_OPENSSL_ES256_H
#define C_OPENSSL_ES256_H

#include <stddef.h>

/// An OpenSSL P-256 public key (an `EC_POINT`), opaque to Swift.
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

/// `tokenswap_es256_verify` on a message's SHA-256 `digest` (32 bytes), with
/// `claimed_inverse` (32 big-endian bytes, or NULL) taken for s⁻¹ · 2^256 mod n instead
/// of computing it. Like any inverse, a claimed one is confirmed before use and replaced
/// by OpenSSL's when wrong, so the verdict is the same whatever it holds; the tests give
/// wrong ones to reach that path.
int tokenswap_es256_check_digest(
    const tokenswap_p256_key *key, const unsigned char *digest, const unsigned char *signature,
    const unsigned char *claimed_inverse);

/// Writes x⁻¹ mod n, n the order of P-256, as 32 big-endian bytes into `inverse` and
/// returns 1, for `x` 32 big-endian bytes with 0 < x < n; returns 0 for any other x. With
/// `montgomery` nonzero the result is x⁻¹ · 2^256 mod n (Montgomery form, as
/// BN_mod_mul_montgomery takes it). Variable time: for public values only (a signature's
/// s). Used by `tokenswap_es256_verify`; declared here for its tests.
int tokenswap_p256_order_inverse(const unsigned char *x, unsigned char *inverse, int montgomery);

#endif
