// POSIX pieces Swift's Glibc overlay does not expose cleanly (flag enums imported as
// structs, GNU-only calls). Keep this small: everything else is called from Swift.
#ifndef C_POSIX_H
#define C_POSIX_H

#include <sys/types.h>
#include <sys/socket.h>

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC set on the new socket.
int tokenswap_accept_nonblocking(int fd, struct sockaddr *addr, socklen_t *len);

/// socket(2) with SOCK_NONBLOCK | SOCK_CLOEXEC.
int tokenswap_socket_nonblocking(int domain, int type, int protocol);

#endif
