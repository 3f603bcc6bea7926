// Spawning test peers (the tokenswap binary, Python stubs, openssl) without Foundation's
// Process: its per-child socketpair is inherited by children spawned at the same moment
// from other threads, so a child's exit goes unseen (and unreaped) until an unrelated
// long-lived child exits too — parallel tests then hang in waitUntilExit.
#ifndef C_CHILD_PROCESS_H
#define C_CHILD_PROCESS_H

#include <sys/types.h>

/// posix_spawnp with stdin/stdout/stderr set to the given descriptors, every other
/// descriptor closed in the child (posix_spawn_file_actions_addclosefrom_np), the signal
/// mask cleared and SIGPIPE, SIGTERM, SIGINT, SIGCHLD, SIGHUP at their default actions
/// (the test process ignores some of them, and ignored dispositions survive exec).
/// Returns 0 or an errno value.
int tokenswap_test_spawn(pid_t *pid, const char *file, char *const argv[], char *const envp[],
                         int stdin_fd, int stdout_fd, int stderr_fd);

/// pipe2(fds, O_CLOEXEC): neither end leaks into a child spawned meanwhile.
int tokenswap_test_pipe(int fds[2]);

#endif
