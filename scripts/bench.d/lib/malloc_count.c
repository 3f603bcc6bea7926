// Counts the heap allocations of a process (malloc, calloc, realloc, posix_memalign,
// aligned_alloc) and writes the total to the file named by MALLOC_COUNT_FILE at exit.
// Loaded with LD_PRELOAD by scripts/bench.d/allocs and guard; the Swift runtime, statically
// linked, still allocates through libc's malloc.
// It also keeps the bytes live on the heap (malloc_usable_size of every block allocated and
// not yet freed): on SIGUSR2 it writes that number to the file named by MALLOC_HEAP_FILE
// (scripts/bench.d/guard: the bytes an idle connection or a kept answer holds).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <unistd.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_ulong count;
static atomic_long live;
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);

// dlsym itself may call calloc before real_calloc is known: serve it from a static pool.
static char bootstrap[4096];
static size_t bootstrap_used;

static void *added(void *p) {
    if (p) atomic_fetch_add_explicit(&live, (long)malloc_usable_size(p), memory_order_relaxed);
    return p;
}

static void resolve(void) {
    if (real_malloc) return;
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    real_malloc = dlsym(RTLD_NEXT, "malloc");
    real_realloc = dlsym(RTLD_NEXT, "realloc");
    real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
}

void *malloc(size_t size) {
    resolve();
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return added(real_malloc(size));
}

void *calloc(size_t n, size_t size) {
    if (!real_calloc) {
        if (real_malloc == NULL && bootstrap_used + n * size <= sizeof bootstrap) {
            void *p = bootstrap + bootstrap_used;
            bootstrap_used += (n * size + 15) & ~(size_t)15;
            return p;
        }
        resolve();
    }
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return added(real_calloc(n, size));
}

void *realloc(void *p, size_t size) {
    resolve();
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    long before = p ? (long)malloc_usable_size(p) : 0;
    void *q = real_realloc(p, size);
    if (q) {
        atomic_fetch_add_explicit(&live, (long)malloc_usable_size(q) - before, memory_order_relaxed);
    } else if (p && size == 0) {
        atomic_fetch_sub_explicit(&live, before, memory_order_relaxed);
    }
    return q;
}

int posix_memalign(void **p, size_t alignment, size_t size) {
    resolve();
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    int status = real_posix_memalign(p, alignment, size);
    if (status == 0) added(*p);
    return status;
}

void *aligned_alloc(size_t alignment, size_t size) {
    resolve();
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return added(real_aligned_alloc(alignment, size));
}

void free(void *p) {
    static void (*real_free)(void *);
    if ((char *)p >= bootstrap && (char *)p < bootstrap + sizeof bootstrap) return;
    if (!real_free) real_free = dlsym(RTLD_NEXT, "free");
    if (p) atomic_fetch_sub_explicit(&live, (long)malloc_usable_size(p), memory_order_relaxed);
    real_free(p);
}

// SIGUSR2: the live bytes, in decimal, to MALLOC_HEAP_FILE (only async-signal-safe calls).
static void write_live(int signal) {
    (void)signal;
    const char *path = getenv("MALLOC_HEAP_FILE");
    if (!path) return;
    char text[32];
    int at = sizeof text;
    text[--at] = '\n';
    long value = atomic_load(&live);
    unsigned long magnitude = value < 0 ? -(unsigned long)value : (unsigned long)value;
    do {
        text[--at] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0);
    if (value < 0) text[--at] = '-';
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return;
    ssize_t written = write(fd, text + at, sizeof text - at);
    (void)written;
    close(fd);
}

__attribute__((constructor)) static void listen_for_snapshots(void) {
    if (!getenv("MALLOC_HEAP_FILE")) return;
    struct sigaction action = {0};
    action.sa_handler = write_live;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGUSR2, &action, NULL);
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("MALLOC_COUNT_FILE");
    if (!path) return;
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "%lu\n", atomic_load(&count));
    fclose(f);
}
