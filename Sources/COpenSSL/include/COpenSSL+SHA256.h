// SHA-256 of a buffer in one call, through EVP (sha256.c).
#ifndef C_OPENSSL_SHA256_H
#define C_OPENSSL_SHA256_H

#include <stddef.h>

/// Writes the SHA-256 of the `count` bytes at `input` (NULL only when `count` is 0) into
/// the 32 bytes at `digest`; 1 on success, 0 when OpenSSL fails.
int tokenswap_sha256(const void *input, size_t count, unsigned char *digest);

#endif
