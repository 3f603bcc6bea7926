// The ordered call trace of `scripts/bench files`: linked into a tokenswap built with
// -sanitize-coverage=func,trace-pc-guard, which calls __sanitizer_cov_trace_pc_guard at
// the entry of every Swift function (closures, accessors, each async resume included).
// While recording, each entry appends one record: the function's address (relative to the
// executable's start, for llvm-symbolizer), its frame pointer (the call nesting: a frame
// at or below an earlier one means the earlier has returned) and the thread.
// SIGUSR1 starts a recording (empty); SIGUSR2 stops it and writes the records to
// $TOKENSWAP_CALL_TRACE.part, renamed to $TOKENSWAP_CALL_TRACE when complete (raw: three
// little-endian u64 per record; empty if the buffer overflowed). tokenswap handles
// neither signal; without $TOKENSWAP_CALL_TRACE nothing is installed. The hook and the
// handlers allocate nothing and take no lock: safe in a signal handler and on any thread.
// Addresses are taken relative to __executable_start: the executable is position-
// independent and linked at 0, so they are the addresses llvm-symbolizer reads.
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

struct entry {
    uint64_t address;
    uint64_t frame;
    uint64_t thread;
};

enum { capacity = 1 << 22 };  // 4 Mi entries (96 MiB, mapped lazily); one request uses far fewer
static struct entry *entries;
static atomic_size_t used;
static atomic_int recording;
static atomic_int overflowed;
static char path[4096];
static char part[4096 + 8];
extern char __executable_start;
static _Thread_local uint64_t thread_id;

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
    (void)start;
    (void)stop;
}

__attribute__((no_sanitize("address"))) void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
    (void)guard;
    if (!atomic_load_explicit(&recording, memory_order_acquire)) return;
    size_t slot = atomic_fetch_add_explicit(&used, 1, memory_order_relaxed);
    if (slot >= capacity) {
        atomic_store(&overflowed, 1);
        return;
    }
    if (thread_id == 0) thread_id = (uint64_t)syscall(SYS_gettid);
    entries[slot].address = (uint64_t)((char *)__builtin_return_address(0) - &__executable_start);
    entries[slot].frame = (uint64_t)__builtin_frame_address(1);  // built with frame pointers
    entries[slot].thread = thread_id;
}

static void start(int signal) {
    (void)signal;
    atomic_store(&recording, 0);
    atomic_store(&used, 0);
    atomic_store(&overflowed, 0);
    atomic_store_explicit(&recording, 1, memory_order_release);
}

static void stop(int signal) {
    (void)signal;
    atomic_store(&recording, 0);
    size_t count = atomic_load(&used);
    if (count > capacity) count = capacity;
    int fd = open(part, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    if (!atomic_load(&overflowed)) {
        const char *bytes = (const char *)entries;
        size_t left = count * sizeof(struct entry);
        while (left > 0) {
            ssize_t written = write(fd, bytes, left);
            if (written <= 0) break;
            bytes += written;
            left -= (size_t)written;
        }
    }
    close(fd);
    rename(part, path);
}

__attribute__((constructor)) static void install(void) {
    const char *target = getenv("TOKENSWAP_CALL_TRACE");
    if (target == NULL || strlen(target) >= sizeof path) return;
    strcpy(path, target);
    strcpy(part, target);
    strcat(part, ".part");
    void *memory = mmap(NULL, capacity * sizeof(struct entry), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED) return;
    entries = memory;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    action.sa_handler = start;
    sigaction(SIGUSR1, &action, NULL);
    action.sa_handler = stop;
    sigaction(SIGUSR2, &action, NULL);
}
