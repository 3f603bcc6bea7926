// The OpenSSL surface tokenswap uses, plus inline wrappers for what OpenSSL provides
// only as macros (Swift cannot import function-like macros). Further shim headers in
// this folder are part of the same module (COpenSSL+TLS.h, …).
#ifndef C_OPENSSL_H
#define C_OPENSSL_H

// OpenSSL 3's API without what it deprecates: a deprecated call does not compile (the C
// files get the same two settings from Package.swift).
#ifndef OPENSSL_API_COMPAT
#define OPENSSL_API_COMPAT 30000
#endif
#ifndef OPENSSL_NO_DEPRECATED
#define OPENSSL_NO_DEPRECATED
#endif

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "COpenSSL+ES256.h"
#include "COpenSSL+GCM.h"
#include "COpenSSL+SHA256.h"
#include "COpenSSL+TLS.h"

/// The OpenSSL library version found at run time (OPENSSL_VERSION_NUMBER layout).
unsigned long tokenswap_openssl_version_number(void);

/// Server side of HTTPS (tls_server.c): TLS 1.2–1.3, ECDHE+AEAD suites, no renegotiation
/// or compression, ALPN `http/1.1`. Returns 1 on success.
int tokenswap_SSL_CTX_configure_server(SSL_CTX *ctx);

/// Installs the ALPN callback that selects `http/1.1` (RFC 7301 §3.2).
void tokenswap_SSL_CTX_select_alpn_http11(SSL_CTX *ctx);

/// The certificate's notAfter as seconds since the epoch, or -1 when it cannot be read.
long long tokenswap_X509_not_after(X509 *certificate);

#endif
