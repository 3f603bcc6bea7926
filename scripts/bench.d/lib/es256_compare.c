// One ES256 check as tokenswap makes it (Sources/COpenSSL/es256.c: EVP_DigestVerify on an
// EVP_PKEY made once, the JWS r‖s written as DER) against OpenSSL's ECDSA_do_verify (the
// deprecated EC_KEY call, the reference CONTRACT §13 names) on the same key, signature and message,
// SHA-256 of the message included in both. The two alternate, one check each, in one
// process, so a drift of the machine's speed falls on both; prints each one's mean
// thread CPU time in µs. Every check must succeed, and a flipped signature must fail both.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/obj_mac.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "COpenSSL+ES256.h"

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int openssl_check(EC_KEY *key, const unsigned char *message, size_t length,
                         const unsigned char *raw) {
    unsigned char digest[32];
    SHA256(message, length, digest);
    ECDSA_SIG *signature = ECDSA_SIG_new();
    ECDSA_SIG_set0(signature, BN_bin2bn(raw, 32, NULL), BN_bin2bn(raw + 32, 32, NULL));
    int valid = ECDSA_do_verify(digest, sizeof digest, signature, key) == 1;
    ECDSA_SIG_free(signature);
    return valid;
}

int main(int argc, char **argv) {
    int count = argc > 1 ? atoi(argv[1]) : 5000;
    // About the size of a DPoP proof's signing input.
    unsigned char message[420];
    for (size_t i = 0; i < sizeof message; i++) message[i] = (unsigned char)('A' + i % 26);
    unsigned char digest[32], raw[64], x[32], y[32];
    SHA256(message, sizeof message, digest);
    EC_KEY *key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
    if (!key || !EC_KEY_generate_key(key)) return 1;
    ECDSA_SIG *made = ECDSA_do_sign(digest, sizeof digest, key);
    BIGNUM *bx = BN_new(), *by = BN_new();
    if (!made || !EC_POINT_get_affine_coordinates(EC_KEY_get0_group(key),
                                                  EC_KEY_get0_public_key(key), bx, by, NULL))
        return 1;
    BN_bn2binpad(ECDSA_SIG_get0_r(made), raw, 32);
    BN_bn2binpad(ECDSA_SIG_get0_s(made), raw + 32, 32);
    BN_bn2binpad(bx, x, 32);
    BN_bn2binpad(by, y, 32);
    tokenswap_p256_key *point = tokenswap_p256_key_new(x, y);
    if (!point) return 1;
    raw[40] ^= 1;
    if (tokenswap_es256_verify(point, message, sizeof message, raw)
        || openssl_check(key, message, sizeof message, raw))
        return 1;
    raw[40] ^= 1;
    for (int i = 0; i < 2000; i++) {
        if (!tokenswap_es256_verify(point, message, sizeof message, raw)
            || !openssl_check(key, message, sizeof message, raw))
            return 1;
    }
    double seconds[2] = {0, 0};
    for (int i = 0; i < 2 * count; i++) {
        int openssl = i & 1;
        double start = cpu_seconds();
        int valid = openssl ? openssl_check(key, message, sizeof message, raw)
                            : tokenswap_es256_verify(point, message, sizeof message, raw);
        seconds[openssl] += cpu_seconds() - start;
        if (!valid) return 1;
    }
    printf("%.2f %.2f\n", seconds[0] / count * 1e6, seconds[1] / count * 1e6);
    return 0;
}
