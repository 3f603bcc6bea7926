#define _GNU_SOURCE
#include "CPosix.h"

int tokenswap_accept_nonblocking(int fd, struct sockaddr *addr, socklen_t *len) {
    return accept4(fd, addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int tokenswap_socket_nonblocking(int domain, int type, int protocol) {
    return socket(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol);
}
