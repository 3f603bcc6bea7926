// ES256 (RFC 7518 §3.4) on OpenSSL's P-256 arithmetic. The key is an EC_POINT, checked
// to be on the curve once when made. A signature is checked by the ECDSA verification
// equation (SEC 1 v2 §4.1.4) over OpenSSL's calls rather than by ECDSA_do_verify, which
// spends a sixth of its time on two steps a check on public values does not need: s⁻¹ by
// the constant-time ladder made for signing, and the sum point's affine x by a field
// inversion. Here s⁻¹ comes from p256_order.c (variable time, each result confirmed
// by a Montgomery product), u₁·G + u₂·Q from EC_POINT_mul (OpenSSL's own P-256 code, its
// generator table), and the sum's x is compared in Jacobian coordinates: x = X/Z², so
// r is right when X ≡ r·Z² (mod p), or X ≡ (r + n)·Z² when r + n < p. A check costs about
// 15 % less than ECDSA_do_verify (`scripts/bench es256`, BENCHMARKS.md); CONTRACT §13
// allows a DPoP refresh one check plus 10 %. Wycheproof's P-256 vectors and signatures
// made by swift-crypto test it (SealingTests). EC_POINT_get_Jprojective_coordinates_GFp
// and the SHA256_* calls (sha256.c says why) are deprecated in OpenSSL 3 but exported.
#define OPENSSL_SUPPRESS_DEPRECATED

#include <pthread.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/sha.h>

#include "COpenSSL+ES256.h"

enum { coordinate_bytes = 32, digest_bytes = 32 };

// One thread's numbers for a check, made at its first check and reused for every later
// one (BN_bin2bn and the Montgomery products write into an existing BIGNUM's words), so
// once its BN_CTX has grown a check allocates only inside EC_POINT_mul (and in the
// BN_mod_inverse fallback below, never taken so far); freed when the thread ends.
typedef struct {
    BN_CTX *context;
    BIGNUM *r, *s, *w, *digest, *u1, *u2, *x, *z, *scratch;
    EC_POINT *sum;
} check_state;

// P-256 and the Montgomery set-ups of its order n and field prime p, and the key of each
// thread's check state: made at the first check, under the lock, and only read once
// `p256_ready` says so. A failure (no memory) leaves them unmade, so a later check tries
// again instead of every proof being refused for the life of the process.
static EC_GROUP *p256;
static BN_MONT_CTX *order_montgomery, *field_montgomery;
static pthread_key_t check_state_key;
static int check_state_key_made;
static int p256_ready;
static pthread_mutex_t p256_lock = PTHREAD_MUTEX_INITIALIZER;

static void free_check_state(void *value) {
    check_state *state = value;
    BN_CTX_free(state->context);
    BIGNUM *numbers[] = {state->r, state->s, state->w, state->digest, state->u1,
                         state->u2, state->x, state->z, state->scratch};
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) BN_free(numbers[i]);
    EC_POINT_free(state->sum);
    OPENSSL_free(state);
}

static BN_MONT_CTX *montgomery_of(const BIGNUM *modulus, BN_CTX *context) {
    BN_MONT_CTX *montgomery = modulus != NULL ? BN_MONT_CTX_new() : NULL;
    if (montgomery != NULL && BN_MONT_CTX_set(montgomery, modulus, context) != 1) {
        BN_MONT_CTX_free(montgomery);
        return NULL;
    }
    return montgomery;
}

// Called with the lock held; 1 when everything is made.
static int make_p256(void) {
    if (!check_state_key_made)
        check_state_key_made = pthread_key_create(&check_state_key, free_check_state) == 0;
    EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    BN_CTX *context = BN_CTX_new();
    BN_MONT_CTX *order = group && context ? montgomery_of(EC_GROUP_get0_order(group), context) : NULL;
    BN_MONT_CTX *field = group && context ? montgomery_of(EC_GROUP_get0_field(group), context) : NULL;
    BN_CTX_free(context);
    if (!check_state_key_made || order == NULL || field == NULL) {
        BN_MONT_CTX_free(order);
        BN_MONT_CTX_free(field);
        EC_GROUP_free(group);
        return 0;
    }
    p256 = group;
    order_montgomery = order;
    field_montgomery = field;
    return 1;
}

static const EC_GROUP *p256_group(void) {
    if (__atomic_load_n(&p256_ready, __ATOMIC_ACQUIRE)) return p256;
    if (pthread_mutex_lock(&p256_lock) != 0) return NULL;
    if (!p256_ready && make_p256()) __atomic_store_n(&p256_ready, 1, __ATOMIC_RELEASE);
    const EC_GROUP *group = p256_ready ? p256 : NULL;
    pthread_mutex_unlock(&p256_lock);
    return group;
}

static check_state *this_threads_check_state(const EC_GROUP *group) {
    check_state *state = pthread_getspecific(check_state_key);
    if (state != NULL) return state;
    state = OPENSSL_zalloc(sizeof *state);
    if (state == NULL) return NULL;
    state->context = BN_CTX_new();
    BIGNUM **numbers[] = {&state->r, &state->s, &state->w, &state->digest, &state->u1,
                          &state->u2, &state->x, &state->z, &state->scratch};
    int made = state->context != NULL;
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        *numbers[i] = BN_new();
        made = made && *numbers[i] != NULL;
    }
    state->sum = EC_POINT_new(group);
    if (!made || state->sum == NULL || pthread_setspecific(check_state_key, state) != 0) {
        free_check_state(state);
        return NULL;
    }
    return state;
}

// The point (x, y), or NULL unless both coordinates are below the field prime and the
// point is on the curve (EC_POINT_set_affine_coordinates checks the equation itself and
// fails with EC_R_POINT_IS_NOT_ON_CURVE; it would reduce a coordinate at or above the
// prime, so that is refused first). P-256 has cofactor 1, so a point on the curve other
// than infinity (which has no affine coordinates) is in the group of order n.
static EC_POINT *p256_point(const EC_GROUP *group, const unsigned char *x, const unsigned char *y) {
    const BIGNUM *prime = EC_GROUP_get0_field(group);
    BIGNUM *bx = BN_bin2bn(x, coordinate_bytes, NULL);
    BIGNUM *by = BN_bin2bn(y, coordinate_bytes, NULL);
    EC_POINT *point = EC_POINT_new(group);
    int valid = prime != NULL && bx != NULL && by != NULL && point != NULL
        && BN_cmp(bx, prime) < 0 && BN_cmp(by, prime) < 0
        && EC_POINT_set_affine_coordinates(group, point, bx, by, NULL) == 1;
    BN_free(bx);
    BN_free(by);
    if (!valid) {
        EC_POINT_free(point);
        return NULL;
    }
    return point;
}

// The opaque type is OpenSSL's EC_POINT itself.
struct tokenswap_p256_key;

tokenswap_p256_key *tokenswap_p256_key_new(const unsigned char *x, const unsigned char *y) {
    const EC_GROUP *group = p256_group();
    EC_POINT *point = group != NULL ? p256_point(group, x, y) : NULL;
    ERR_clear_error();
    return (tokenswap_p256_key *)point;
}

void tokenswap_p256_key_free(tokenswap_p256_key *key) {
    EC_POINT_free((EC_POINT *)key);
}

// Whether r‖s is a signature of the digest by the point (SEC 1 v2 §4.1.4, steps 1 and
// 4-8; the digest is exactly as long as n, so it is taken whole). Products modulo n and p
// are Montgomery products (a·b·2⁻²⁵⁶), the inverse comes in that form already: from
// p256_order.c, or `claimed_inverse` when given (tokenswap_es256_check_digest).
static int signature_holds(
    const EC_GROUP *group, check_state *state, const EC_POINT *key,
    const unsigned char digest[digest_bytes], const unsigned char *signature,
    const unsigned char *claimed_inverse) {
    const BIGNUM *n = EC_GROUP_get0_order(group);
    const BIGNUM *p = EC_GROUP_get0_field(group);
    BN_CTX *context = state->context;
    BIGNUM *r = state->r, *s = state->s, *w = state->w, *scratch = state->scratch;
    unsigned char inverse[coordinate_bytes];
    // 1 ≤ r, s < n.
    if (n == NULL || p == NULL || BN_bin2bn(signature, coordinate_bytes, r) == NULL
        || BN_bin2bn(signature + coordinate_bytes, coordinate_bytes, s) == NULL
        || BN_is_zero(r) || BN_cmp(r, n) >= 0 || BN_is_zero(s) || BN_cmp(s, n) >= 0)
        return 0;
    // w = s⁻¹·2²⁵⁶ mod n, confirmed by s·w·2⁻²⁵⁶ = 1; BN_mod_inverse should p256_order.c
    // ever be wrong.
    if (claimed_inverse == NULL
        && tokenswap_p256_order_inverse(signature + coordinate_bytes, inverse, 1) != 1)
        return 0;
    if (BN_bin2bn(claimed_inverse ? claimed_inverse : inverse, coordinate_bytes, w) == NULL
        || BN_mod_mul_montgomery(scratch, s, w, order_montgomery, context) != 1)
        return 0;
    if (!BN_is_one(scratch)
        && (BN_mod_inverse(w, s, n, context) == NULL
            || BN_to_montgomery(w, w, order_montgomery, context) != 1))
        return 0;
    // R = u₁·G + u₂·Q with u₁ = e·s⁻¹, u₂ = r·s⁻¹ (the digest e < 2²⁵⁶, so e·w < n·2²⁵⁶
    // as a Montgomery product needs); R = ∞ is a wrong signature.
    if (BN_bin2bn(digest, digest_bytes, state->digest) == NULL
        || BN_mod_mul_montgomery(state->u1, state->digest, w, order_montgomery, context) != 1
        || BN_mod_mul_montgomery(state->u2, r, w, order_montgomery, context) != 1
        || EC_POINT_mul(group, state->sum, state->u1, key, state->u2, context) != 1
        || EC_POINT_is_at_infinity(group, state->sum))
        return 0;
    // x(R) mod n = r: the affine x is X/Z², below p, so it is r or (when r + n < p) r + n.
    // X ≡ r·Z² (mod p) compared as X·2⁻⁵¹² and r·Z²·2⁻⁵¹², both reduced below p.
    // (The infinity check above stays: OpenSSL's P-256 code happens to leave X nonzero
    // at Z = 0, which this comparison would refuse, but another method need not.)
    BIGNUM *x = state->x, *z = state->z;
    if (EC_POINT_get_Jprojective_coordinates_GFp(group, state->sum, x, NULL, z, context) != 1
        || BN_from_montgomery(x, x, field_montgomery, context) != 1
        || BN_from_montgomery(x, x, field_montgomery, context) != 1
        // z ← Z²·2⁻²⁵⁶, then scratch ← r·Z²·2⁻⁵¹².
        || BN_mod_mul_montgomery(z, z, z, field_montgomery, context) != 1
        || BN_mod_mul_montgomery(scratch, z, r, field_montgomery, context) != 1)
        return 0;
    if (BN_cmp(scratch, x) == 0) return 1;
    // r + n must stay below p (Wycheproof tcId 259-260 fail without this bound).
    return BN_add(scratch, r, n) == 1 && BN_cmp(scratch, p) < 0
        && BN_mod_mul_montgomery(scratch, z, scratch, field_montgomery, context) == 1
        && BN_cmp(scratch, x) == 0;
}

int tokenswap_es256_check_digest(
    const tokenswap_p256_key *key, const unsigned char *digest, const unsigned char *signature,
    const unsigned char *claimed_inverse) {
    const EC_GROUP *group = key != NULL ? p256_group() : NULL;
    check_state *state = group != NULL ? this_threads_check_state(group) : NULL;
    int valid = state != NULL
        && signature_holds(group, state, (const EC_POINT *)key, digest, signature, claimed_inverse);
    // A refused signature may leave entries on this thread's queue; TLS on the same thread
    // reads that queue for its own failures (TLSErrorQueue), so none may linger. A valid
    // one leaves none: the queue is only cleared (all its slots walked) when it holds one.
    if (ERR_peek_error() != 0) ERR_clear_error();
    return valid;
}

int tokenswap_es256_verify(
    const tokenswap_p256_key *key, const unsigned char *message, size_t message_length,
    const unsigned char *signature) {
    unsigned char digest[digest_bytes];
    SHA256_CTX context;
    // SHA-256 by the low-level calls, as sha256.c does: EVP_Digest would allocate and set
    // up a digest context for every proof.
    int hashed = SHA256_Init(&context) == 1
        && SHA256_Update(&context, message, message_length) == 1
        && SHA256_Final(digest, &context) == 1;
    if (!hashed) {
        ERR_clear_error();
        return 0;
    }
    return tokenswap_es256_check_digest(key, digest, signature, NULL);
}
