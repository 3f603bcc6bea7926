// Inline wrappers for the OpenSSL TLS calls that exist only as macros (Swift cannot
// import function-like macros). Used by HTTPClient's TLS engine.
#ifndef C_OPENSSL_TLS_H
#define C_OPENSSL_TLS_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

static inline int tokenswap_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

static inline long tokenswap_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}

static inline long tokenswap_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_session_cache_mode(ctx, mode);
}

static inline int tokenswap_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline int tokenswap_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }

static inline long tokenswap_SSL_MODE_client_defaults(void) {
    // Partial writes and moving buffers: our plaintext buffers are Swift arrays that may
    // move between calls, and a memory BIO never blocks half-way.
    return SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER
        | SSL_MODE_RELEASE_BUFFERS;
}

static inline long tokenswap_SSL_SESS_CACHE_CLIENT(void) { return SSL_SESS_CACHE_CLIENT; }

static inline long tokenswap_SSL_SESS_CACHE_NO_INTERNAL_STORE(void) {
    return SSL_SESS_CACHE_NO_INTERNAL_STORE;
}

/// Sessions in the context's internal cache (a macro over SSL_CTX_ctrl).
static inline long tokenswap_SSL_CTX_sess_number(SSL_CTX *ctx) { return SSL_CTX_sess_number(ctx); }

static inline long tokenswap_BIO_set_mem_eof_return(BIO *bio, int value) {
    return BIO_set_mem_eof_return(bio, value);
}

/// OpenSSL error codes the engine tells apart (macros in <openssl/sslerr.h>).
static inline int tokenswap_ERR_is_protocol_version(unsigned long code) {
    int reason = ERR_GET_REASON(code);
    return reason == SSL_R_UNSUPPORTED_PROTOCOL || reason == SSL_R_TLSV1_ALERT_PROTOCOL_VERSION
        || reason == SSL_R_WRONG_VERSION_NUMBER || reason == SSL_R_NO_PROTOCOLS_AVAILABLE;
}

static inline int tokenswap_ERR_is_certificate_verify_failed(unsigned long code) {
    return ERR_GET_REASON(code) == SSL_R_CERTIFICATE_VERIFY_FAILED;
}

#endif
