// AES-256-GCM for sealing (Sealing's AES256GCM): an EVP context keyed once, then one call
// per seal or open (gcm.c).
#ifndef C_OPENSSL_GCM_H
#define C_OPENSSL_GCM_H

#include <stddef.h>

/// An AES-256-GCM EVP_CIPHER_CTX (the default provider's unless configured
/// otherwise), keyed; opaque to Swift. One thread at a time.
typedef struct tokenswap_gcm_context tokenswap_gcm_context;

/// A context keyed with the 32 bytes at `key`, or NULL when OpenSSL fails. Free it with
/// `tokenswap_gcm_free`.
tokenswap_gcm_context *tokenswap_gcm_new(const unsigned char *key);

/// Frees the context and wipes its key schedule (NULL is ignored).
void tokenswap_gcm_free(tokenswap_gcm_context *context);

/// Encrypts `count` bytes of `plaintext` into `ciphertext` (the same length) under the
/// 12-byte `nonce`, authenticating the `aad_count` bytes of `aad` too, and writes the
/// 16-byte tag into `tag`. 1 on success, 0 when OpenSSL fails.
int tokenswap_gcm_seal(
    tokenswap_gcm_context *context, const unsigned char *nonce, const unsigned char *aad,
    size_t aad_count, const unsigned char *plaintext, size_t count, unsigned char *ciphertext,
    unsigned char *tag);

/// Decrypts `count` bytes of `ciphertext` into `plaintext` and answers 1 when the 16-byte
/// `tag` authenticates them and the `aad_count` bytes of `aad` under the 12-byte `nonce`;
/// 0 when it does not, -1 when OpenSSL fails. Unless 1, `plaintext` is unauthenticated
/// (the caller wipes it).
int tokenswap_gcm_open(
    tokenswap_gcm_context *context, const unsigned char *nonce, const unsigned char *aad,
    size_t aad_count, const unsigned char *ciphertext, size_t count, const unsigned char *tag,
    unsigned char *plaintext);

#endif
