// The inverse modulo P-256's group order n, for checking ES256 signatures (es256.c).
//
// A signature check needs s⁻¹ mod n, and s is public: OpenSSL's own ECDSA_do_verify takes
// it by the constant-time Fermat ladder its signing needs, and BN_mod_inverse by a binary
// algorithm on general BIGNUMs, each several microseconds. This is the variable-time
// form of Bernstein and Yang's "safegcd" (divsteps, 62 at a time; the method as
// libsecp256k1's doc/safegcd_implementation.md explains it), on five signed 62-bit limbs
// with 128-bit products: about a microsecond. It never sees a secret, so its time may
// depend on its input. es256.c checks every result (x · w ≡ 1 mod n, as a Montgomery
// product) through OpenSSL before using it, so a wrong inverse could only slow a check
// down, never change its verdict.
#include <stdint.h>

#include "COpenSSL+ES256.h"

typedef __int128 wide;

// A number as Σ limb[i] · 2^(62 i): limbs 0-3 in [0, 2^62), limb 4 signed, so it holds
// the 257-bit signed values the algorithm passes through.
typedef struct { int64_t limb[5]; } signed62;

// The transition matrix of 62 divsteps, scaled by 2^62: [f, g] ← [[u, v], [q, r]] [f, g] / 2^62.
typedef struct { int64_t u, v, q, r; } transition;

static const uint64_t low62 = UINT64_MAX >> 2;

// n, little-endian 64-bit words.
static const uint64_t order_words[4] = {
    0xF3B9CAC2FC632551ULL, 0xBCE6FAADA7179E84ULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFF00000000ULL};

static signed62 from_words(const uint64_t x[4]) {
    signed62 value = {{
        (int64_t)(x[0] & low62),
        (int64_t)((x[0] >> 62 | x[1] << 2) & low62),
        (int64_t)((x[1] >> 60 | x[2] << 4) & low62),
        (int64_t)((x[2] >> 58 | x[3] << 6) & low62),
        (int64_t)(x[3] >> 56),
    }};
    return value;
}

// The value's 256 bits; it must be in [0, 2^256) with limbs 0-3 in range.
static void to_words(uint64_t x[4], const signed62 *value) {
    uint64_t l0 = (uint64_t)value->limb[0], l1 = (uint64_t)value->limb[1];
    uint64_t l2 = (uint64_t)value->limb[2], l3 = (uint64_t)value->limb[3];
    uint64_t l4 = (uint64_t)value->limb[4];
    x[0] = l0 | l1 << 62;
    x[1] = l1 >> 2 | l2 << 60;
    x[2] = l2 >> 4 | l3 << 58;
    x[3] = l3 >> 6 | l4 << 56;
}

// n in signed-62 limbs (from_words(order_words)), and n⁻¹ mod 2^62 (Python:
// pow(n, -1, 2**62)); P256OrderInverseTests fails if either is wrong.
static const signed62 order62 = {{
    0x33B9CAC2FC632551LL, 0x339BEAB69C5E7A13LL, 0x3FFFFFFFFFFFFFFBLL, 0x3FFFFFC00000003FLL, 0xFFLL}};
static const uint64_t order_inverse_mod_2_62 = 0x332E375511FF43B1ULL;

// 62 divsteps on the low bits of f (odd) and g, from eta (= −delta); returns the new eta
// and the scaled transition matrix. Runs of zero bits of g are shifted out at once, and
// each odd g has up to six low bits cancelled by adding w·f, w = −g/f mod 2^limit
// (f(f² − 2) is −1/f mod 64).
static int64_t divsteps62(int64_t eta, uint64_t f, uint64_t g, transition *matrix) {
    uint64_t u = 1, v = 0, q = 0, r = 1, swap;
    int left = 62;
    for (;;) {
        int zeros = __builtin_ctzll(g | (UINT64_MAX << left));
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros;
        left -= zeros;
        if (left == 0) break;
        if (eta < 0) {
            eta = -eta;
            swap = f; f = g; g = -swap;
            swap = u; u = q; q = -swap;
            swap = v; v = r; r = -swap;
        }
        int limit = eta + 1 < left ? (int)eta + 1 : left;
        if (limit > 6) limit = 6;
        uint64_t w = (f * g * (f * f - 2)) & (UINT64_MAX >> (64 - limit));
        g += f * w;
        q += u * w;
        r += v * w;
    }
    matrix->u = (int64_t)u;
    matrix->v = (int64_t)v;
    matrix->q = (int64_t)q;
    matrix->r = (int64_t)r;
    return eta;
}

// [f, g] ← matrix · [f, g] / 2^62, exactly (the low 62 bits of both products are zero).
static void update_fg(signed62 *f, signed62 *g, const transition *m) {
    wide cf = (wide)m->u * f->limb[0] + (wide)m->v * g->limb[0];
    wide cg = (wide)m->q * f->limb[0] + (wide)m->r * g->limb[0];
    cf >>= 62;
    cg >>= 62;
    for (int i = 1; i < 5; i++) {
        cf += (wide)m->u * f->limb[i] + (wide)m->v * g->limb[i];
        cg += (wide)m->q * f->limb[i] + (wide)m->r * g->limb[i];
        f->limb[i - 1] = (int64_t)((uint64_t)cf & low62);
        g->limb[i - 1] = (int64_t)((uint64_t)cg & low62);
        cf >>= 62;
        cg >>= 62;
    }
    f->limb[4] = (int64_t)cf;
    g->limb[4] = (int64_t)cg;
}

// [d, e] ← matrix · [d, e] / 2^62 mod n, for d, e in (−2n, n), results in the same range:
// a negative input counts as itself plus n, and multiples of n are added so that the low
// 62 bits vanish before the shift.
static void update_de(
    signed62 *d, signed62 *e, const transition *m, const signed62 *n, uint64_t n_inverse) {
    int64_t d_negative = d->limb[4] >> 63, e_negative = e->limb[4] >> 63;
    int64_t md = (m->u & d_negative) + (m->v & e_negative);
    int64_t me = (m->q & d_negative) + (m->r & e_negative);
    wide cd = (wide)m->u * d->limb[0] + (wide)m->v * e->limb[0];
    wide ce = (wide)m->q * d->limb[0] + (wide)m->r * e->limb[0];
    md -= (int64_t)((n_inverse * (uint64_t)cd + (uint64_t)md) & low62);
    me -= (int64_t)((n_inverse * (uint64_t)ce + (uint64_t)me) & low62);
    cd += (wide)n->limb[0] * md;
    ce += (wide)n->limb[0] * me;
    cd >>= 62;
    ce >>= 62;
    for (int i = 1; i < 5; i++) {
        cd += (wide)m->u * d->limb[i] + (wide)m->v * e->limb[i] + (wide)n->limb[i] * md;
        ce += (wide)m->q * d->limb[i] + (wide)m->r * e->limb[i] + (wide)n->limb[i] * me;
        d->limb[i - 1] = (int64_t)((uint64_t)cd & low62);
        e->limb[i - 1] = (int64_t)((uint64_t)ce & low62);
        cd >>= 62;
        ce >>= 62;
    }
    d->limb[4] = (int64_t)cd;
    e->limb[4] = (int64_t)ce;
}

// value ← value + sign · other, limbs carried back into range (sign is 1 or −1).
static void add_multiple(signed62 *value, const signed62 *other, int64_t sign) {
    wide carry = 0;
    for (int i = 0; i < 4; i++) {
        carry += (wide)value->limb[i] + (wide)sign * other->limb[i];
        value->limb[i] = (int64_t)((uint64_t)carry & low62);
        carry >>= 62;
    }
    value->limb[4] = (int64_t)(carry + value->limb[4] + sign * other->limb[4]);
}

static void negate(signed62 *value) {
    signed62 zero = {{0}};
    add_multiple(&zero, value, -1);
    *value = zero;
}

static int is_zero(const signed62 *value) {
    return (value->limb[0] | value->limb[1] | value->limb[2] | value->limb[3] | value->limb[4])
        == 0;
}

// 2^256 mod n = 2^256 − n (n > 2^255): x⁻¹ times it is x⁻¹ in Montgomery form for
// R = 2^256, as OpenSSL's BN_mod_mul_montgomery takes it.
static const uint64_t montgomery_one_words[4] = {
    0x0C46353D039CDAAFULL, 0x4319055258E8617BULL, 0x0000000000000000ULL, 0x00000000FFFFFFFFULL};

// w = c · x⁻¹ mod n.
static void inverse_words(uint64_t w[4], const uint64_t x[4], const uint64_t c[4]) {
    const signed62 n = order62;
    const uint64_t n_inverse = order_inverse_mod_2_62;
    // Invariants: d · x ≡ c · f and e · x ≡ c · g (mod n). gcd(n, x) = 1, so the loop ends
    // with g = 0 and f = ±1, and then c · x⁻¹ = ±d.
    signed62 f = n, g = from_words(x), d = {{0}}, e = from_words(c);
    int64_t eta = -1;
    transition matrix;
    do {
        eta = divsteps62(eta, (uint64_t)f.limb[0], (uint64_t)g.limb[0], &matrix);
        update_de(&d, &e, &matrix, &n, n_inverse);
        update_fg(&f, &g, &matrix);
    } while (!is_zero(&g));
    if (d.limb[4] < 0) add_multiple(&d, &n, 1);
    if (f.limb[4] < 0) negate(&d);
    if (d.limb[4] < 0) add_multiple(&d, &n, 1);
    to_words(w, &d);
}

static int below_order(const uint64_t x[4]) {
    for (int i = 3; i >= 0; i--)
        if (x[i] != order_words[i]) return x[i] < order_words[i];
    return 0;
}

int tokenswap_p256_order_inverse(
    const unsigned char *x, unsigned char *inverse, int montgomery) {
    static const uint64_t one_words[4] = {1, 0, 0, 0};
    uint64_t words[4], result[4];
    for (int i = 0; i < 4; i++) {
        uint64_t word = 0;
        for (int j = 0; j < 8; j++) word = word << 8 | x[(3 - i) * 8 + j];
        words[i] = word;
    }
    if ((words[0] | words[1] | words[2] | words[3]) == 0 || !below_order(words)) return 0;
    inverse_words(result, words, montgomery ? montgomery_one_words : one_words);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            inverse[(3 - i) * 8 + j] = (unsigned char)(result[i] >> (56 - 8 * j));
    return 1;
}
