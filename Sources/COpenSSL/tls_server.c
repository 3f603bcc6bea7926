#include "COpenSSL.h"

#include <string.h>
#include <time.h>

/// ALPN (RFC 7301 §3.2): the server speaks only HTTP/1.1. A client that offers
/// protocols but not `http/1.1` gets the fatal no_application_protocol alert; a client
/// that offers none is served HTTP/1.1 (the callback is not called).
static int tokenswap_alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                                 const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl;
    (void)arg;
    static const unsigned char http11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
    unsigned char *selected = NULL;
    unsigned char selectedLength = 0;
    if (SSL_select_next_proto(&selected, &selectedLength, http11, sizeof(http11), in, inlen)
        != OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_ALERT_FATAL;
    }
    *out = selected;
    *outlen = selectedLength;
    return SSL_TLSEXT_ERR_OK;
}

void tokenswap_SSL_CTX_select_alpn_http11(SSL_CTX *ctx) {
    SSL_CTX_set_alpn_select_cb(ctx, tokenswap_alpn_select, NULL);
}

int tokenswap_SSL_CTX_configure_server(SSL_CTX *ctx) {
    if (SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1) return 0;
    if (SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION) != 1) return 0;
    // TLS 1.2: forward secrecy (ECDHE) and AEAD only (RFC 9325 §4.2). TLS 1.3's suites
    // are all AEAD with (EC)DHE key exchange already.
    if (SSL_CTX_set_cipher_list(ctx, "ECDHE+AESGCM:ECDHE+CHACHA20") != 1) return 0;
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION
                                 | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER
                              | SSL_MODE_RELEASE_BUFFERS);
    tokenswap_SSL_CTX_select_alpn_http11(ctx);
    return 1;
}

long long tokenswap_X509_not_after(X509 *certificate) {
    const ASN1_TIME *notAfter = X509_get0_notAfter(certificate);
    struct tm parts;
    memset(&parts, 0, sizeof(parts));
    if (notAfter == NULL || ASN1_TIME_to_tm(notAfter, &parts) != 1) return -1;
    return (long long)timegm(&parts);
}
