// Copies and zeroing that bypass the caches where the CPU allows (CPosix.h).
#include <stdint.h>
#include <string.h>

#include "CPosix.h"

#if defined(__x86_64__)
#include <immintrin.h>

// The bytes before the target's first 16-byte boundary and after its last go by plain
// stores; the aligned middle by non-temporal ones; the fence orders them before the
// caller's next store (a lock's release), as plain stores would be.
void tokenswap_copy_streaming(void *target, const void *source, size_t count) {
    unsigned char *to = target;
    const unsigned char *from = source;
    size_t head = (16 - ((uintptr_t)to & 15)) & 15;
    if (head > count) head = count;
    memcpy(to, from, head);
    to += head;
    from += head;
    count -= head;
    for (; count >= 16; to += 16, from += 16, count -= 16)
        _mm_stream_si128((__m128i *)to, _mm_loadu_si128((const __m128i *)from));
    memcpy(to, from, count);
    _mm_sfence();
}

void tokenswap_zero_streaming(void *target, size_t count) {
    unsigned char *to = target;
    size_t head = (16 - ((uintptr_t)to & 15)) & 15;
    if (head > count) head = count;
    memset(to, 0, head);
    to += head;
    count -= head;
    const __m128i zero = _mm_setzero_si128();
    for (; count >= 16; to += 16, count -= 16) _mm_stream_si128((__m128i *)to, zero);
    memset(to, 0, count);
    _mm_sfence();
}
#else
void tokenswap_copy_streaming(void *target, const void *source, size_t count) {
    memcpy(target, source, count);
}

void tokenswap_zero_streaming(void *target, size_t count) { memset(target, 0, count); }
#endif
