// POSIX pieces Swift's Glibc overlay does not expose cleanly (flag enums imported as
// structs, GNU-only calls), and the one memory primitive Swift cannot say (stores that
// bypass the caches). Keep this small: everything else is called from Swift.
#ifndef C_POSIX_H
#define C_POSIX_H

#include <sys/types.h>
#include <sys/socket.h>

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC set on the new socket.
int tokenswap_accept_nonblocking(int fd, struct sockaddr *addr, socklen_t *len);

/// socket(2) with SOCK_NONBLOCK | SOCK_CLOEXEC.
int tokenswap_socket_nonblocking(int domain, int type, int protocol);

/// epoll_create1(EPOLL_CLOEXEC).
int tokenswap_epoll_create(void);

/// Sets the level-triggered interest of `fd` in `epfd`: `op` 0 adds, 1 modifies, 2
/// removes. Returns epoll_ctl's result.
int tokenswap_epoll_set(int epfd, int fd, int op, int read, int write);

/// epoll_wait into plain arrays: for each ready descriptor its fd and a readiness mask
/// (1: readable, or hung up / in error, so a read sees it; 2: writable, or hung up / in
/// error, so a write sees it; 4: the peer closed or reset, or the socket is in error).
/// Returns the count, or -1 with errno.
int tokenswap_epoll_wait(int epfd, int *fds, unsigned *ready, int max, int timeout_ms);

/// eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC), and adding one to / draining its counter.
int tokenswap_eventfd(void);
void tokenswap_eventfd_signal(int fd);
void tokenswap_eventfd_drain(int fd);

#endif
