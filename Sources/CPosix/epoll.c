#define _GNU_SOURCE
#include "CPosix.h"
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

int tokenswap_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

int tokenswap_epoll_set(int epfd, int fd, int op, int read, int write) {
    struct epoll_event event = {0};
    event.events = (read ? (EPOLLIN | EPOLLRDHUP) : 0) | (write ? EPOLLOUT : 0);
    event.data.fd = fd;
    int ops[] = {EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL};
    return epoll_ctl(epfd, ops[op], fd, &event);
}

int tokenswap_epoll_wait(int epfd, int *fds, unsigned *ready, int max, int timeout_ms) {
    struct epoll_event events[128];
    if (max > 128) max = 128;
    int count = epoll_wait(epfd, events, max, timeout_ms);
    for (int i = 0; i < count; i++) {
        uint32_t e = events[i].events;
        unsigned mask = 0;
        if (e & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) mask |= 1;
        if (e & (EPOLLOUT | EPOLLHUP | EPOLLERR)) mask |= 2;
        if (e & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) mask |= 4;
        fds[i] = events[i].data.fd;
        ready[i] = mask;
    }
    return count;
}

int tokenswap_eventfd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

void tokenswap_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t ignored = write(fd, &one, sizeof one);
    (void)ignored;
}

void tokenswap_eventfd_drain(int fd) {
    uint64_t value;
    ssize_t ignored = read(fd, &value, sizeof value);
    (void)ignored;
}
