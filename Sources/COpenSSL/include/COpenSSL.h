// The OpenSSL surface tokenswap uses, plus inline wrappers for what OpenSSL provides
// only as macros (Swift cannot import function-like macros). Further shim headers in
// this folder are part of the same module (COpenSSL+TLS.h, …).
#ifndef C_OPENSSL_H
#define C_OPENSSL_H

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "COpenSSL+TLS.h"

/// The OpenSSL library version found at run time (OPENSSL_VERSION_NUMBER layout).
unsigned long tokenswap_openssl_version_number(void);

#endif
