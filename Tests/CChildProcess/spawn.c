#define _GNU_SOURCE
#include "CChildProcess.h"

#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

int tokenswap_test_spawn(pid_t *pid, const char *file, char *const argv[], char *const envp[],
                         int stdin_fd, int stdout_fd, int stderr_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int result = posix_spawn_file_actions_init(&actions);
    if (result != 0) return result;
    result = posix_spawnattr_init(&attributes);
    if (result != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return result;
    }
    sigset_t empty, defaults;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGCHLD);
    sigaddset(&defaults, SIGHUP);
    if ((result = posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0)) == 0
        && (result = posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1)) == 0
        && (result = posix_spawn_file_actions_adddup2(&actions, stderr_fd, 2)) == 0
        && (result = posix_spawn_file_actions_addclosefrom_np(&actions, 3)) == 0
        && (result = posix_spawnattr_setsigmask(&attributes, &empty)) == 0
        && (result = posix_spawnattr_setsigdefault(&attributes, &defaults)) == 0
        && (result = posix_spawnattr_setflags(
                &attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)) == 0) {
        result = posix_spawnp(pid, file, &actions, &attributes, argv, envp);
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}

int tokenswap_test_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
