"""Stalled request heads: opens COUNT connections to 127.0.0.1:PORT (over TLS when
--ca is given), sends each the start of a request head of HEAD_BYTES bytes that never
ends, and reports the server's RSS growth (from /proc/PID/status) while they are held,
how many the server refused (answered or closed), and whether GET /healthz on a fresh
connection still answers, and how fast.

Prints one line: `rss_before_kib rss_held_kib held refused healthz_status healthz_ms
open_seconds`.
Used by scripts/prove/hardening-iii-server and RELIABILITY.md's measurements.
"""

import argparse
import concurrent.futures
import select
import socket
import ssl
import sys
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def connect(port, context):
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    if context is not None:
        sock = context.wrap_socket(sock, server_hostname="localhost")
    return sock


def healthz(port, context):
    started = time.monotonic()
    try:
        sock = connect(port, context)
        sock.settimeout(2)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
        sock.close()
        status = int(answer.split(b" ")[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    except (OSError, ValueError, IndexError):
        status = 0
    return status, int((time.monotonic() - started) * 1000)


def refused(sock):
    """Whether the server answered or closed this connection (it holds no more)."""
    poller = select.poll()
    poller.register(sock.fileno(), select.POLLIN)
    if not poller.poll(0):
        return False
    if not isinstance(sock, ssl.SSLSocket):
        return True
    # Over TLS the socket is also readable for session tickets: only application data,
    # an alert or the end of the stream mean the server gave up on the connection.
    sock.setblocking(False)
    try:
        sock.recv(1)
        return True
    except ssl.SSLWantReadError:
        return False
    except OSError:
        return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pid", type=int)
    parser.add_argument("port", type=int)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--head-bytes", type=int, default=8000)
    parser.add_argument("--ca")
    parser.add_argument("--settle", type=float, default=1.0)
    args = parser.parse_args()
    context = None
    if args.ca:
        context = ssl.create_default_context(cafile=args.ca)
    # Warm the server (first requests allocate caches), then take the baseline.
    for _ in range(3):
        healthz(args.port, context)
    time.sleep(0.3)
    before = rss_kib(args.pid)
    # A request line and fields of 2,000 bytes (under every per-line limit), the last
    # of which never ends.
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
    while len(head) < args.head_bytes:
        head += b"X-Stall: " + b"a" * min(2000, args.head_bytes - len(head)) + b"\r\n"
    head = head[: args.head_bytes]
    if head.endswith(b"\r\n"):
        head = head[:-1]
    def open_one(_):
        try:
            sock = connect(args.port, context)
            sock.sendall(head)
            return sock
        except OSError:
            return None

    # Handshakes in parallel (they release the GIL): every connection must be open well
    # inside the server's 10 s header deadline.
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        held = [sock for sock in pool.map(open_one, range(args.count)) if sock is not None]
    opened_seconds = time.monotonic() - started
    time.sleep(args.settle)
    after = rss_kib(args.pid)
    gone = sum(1 for sock in held if refused(sock))
    status, millis = healthz(args.port, context)
    print(before, after, len(held), gone, status, millis, f"{opened_seconds:.1f}")
    sys.stdout.flush()
    for sock in held:
        sock.close()


main()
