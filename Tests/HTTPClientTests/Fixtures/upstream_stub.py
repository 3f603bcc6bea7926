#!/usr/bin/env python3
"""A small HTTP/1.1 upstream for HTTPClient tests, written on Python's socket and ssl
modules (a real peer not written by us). It binds an ephemeral port on 127.0.0.1 (or
::1 with --ipv6), prints "PORT <n>" on stdout, and serves until killed.

Paths:
  /ok                  200, Content-Length body "hello"
  /echo                200, body = "<METHOD> <target>\n<request body>"
  /accepts             200, body = number of TCP connections accepted so far
  /slow?ms=N           waits N ms, then answers like /ok
  /big?bytes=N         200 with a Content-Length body of N bytes
  /chunked             200, chunked body "hello, chunked world" in three chunks + trailer
  /close-delimited     200 without Content-Length, body then close (RFC 9112 §6.3 ¶8);
                       over TLS a bare TCP close, without close_notify (a truncation)
  /close-delimited-notify  the same, ended over TLS with close_notify (a complete body)
  /truncated           Content-Length 100, sends 10 bytes, closes
  /truncated-chunked   chunked, one chunk, closes before the last chunk
  /garbage             a status line that is not HTTP
Options:
  --tls CERT KEY       serve TLS with this certificate chain and key
  --tls-max 1.1        offer only TLS 1.0-1.1 (the client must refuse)
  --idle-close-ms N    close a keep-alive connection after N ms without a request
  --close-after N      close each connection after N responses (without saying so)
"""
import argparse
import os
import warnings
import socket
import ssl
import sys
import threading
import time
from urllib.parse import parse_qs, urlsplit

accepts = 0
accepts_lock = threading.Lock()


def read_request(conn, buffered):
    while b"\r\n\r\n" not in buffered:
        data = conn.recv(65536)
        if not data:
            return None, b""
        buffered += data
    head, rest = buffered.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, value = line.split(":", 1)
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        data = conn.recv(65536)
        if not data:
            return None, b""
        rest += data
    return (method, target, headers, rest[:length]), rest[length:]


def respond(conn, status, body, extra=b""):
    conn.sendall(b"HTTP/1.1 " + status + b"\r\nContent-Length: " + str(len(body)).encode()
                 + b"\r\n" + extra + b"\r\n" + body)


def serve(conn, options):
    global accepts
    buffered = b""
    served = 0
    while True:
        if options.idle_close_ms is not None:
            conn.settimeout(options.idle_close_ms / 1000.0)
        try:
            request, buffered = read_request(conn, buffered)
        except (socket.timeout, ConnectionError, ssl.SSLError, OSError):
            return
        if request is None:
            return
        conn.settimeout(None)
        method, target, headers, body = request
        parts = urlsplit(target)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        path = parts.path
        if path == "/ok":
            respond(conn, b"200 OK", b"hello")
        elif path == "/echo":
            respond(conn, b"200 OK", method.encode() + b" " + target.encode() + b"\n" + body)
        elif path == "/accepts":
            with accepts_lock:
                count = accepts
            respond(conn, b"200 OK", str(count).encode())
        elif path == "/slow":
            time.sleep(int(query.get("ms", "1000")) / 1000.0)
            respond(conn, b"200 OK", b"hello")
        elif path == "/big":
            respond(conn, b"200 OK", b"x" * int(query.get("bytes", "0")))
        elif path == "/chunked":
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                         b"5\r\nhello\r\n2;ext=1\r\n, \r\nd\r\nchunked world\r\n"
                         b"0\r\nX-Trailer: yes\r\n\r\n")
        elif path == "/close-delimited":
            conn.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end")
            return
        elif path == "/close-delimited-notify":
            conn.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end")
            if isinstance(conn, ssl.SSLSocket):
                conn.unwrap()  # sends close_notify (SSL_shutdown) before the TCP close
            return
        elif path == "/truncated":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789")
            return
        elif path == "/truncated-chunked":
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
            return
        elif path == "/garbage":
            conn.sendall(b"SMTP ready\r\n\r\n")
            return
        else:
            respond(conn, b"404 Not Found", b"")
        served += 1
        if options.close_after is not None and served >= options.close_after:
            return


def handle(raw, options, context):
    global accepts
    with accepts_lock:
        accepts += 1
    conn = raw
    try:
        if context is not None:
            raw.settimeout(10)
            conn = context.wrap_socket(raw, server_side=True)
            conn.settimeout(None)
        serve(conn, options)
    except (ConnectionError, ssl.SSLError, OSError):
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def exit_with_parent():
    """The test process holds our stdin open; when it ends (even killed), so do we."""
    sys.stdin.read()
    os._exit(0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--tls-max")
    parser.add_argument("--ipv6", action="store_true")
    parser.add_argument("--idle-close-ms", type=int)
    parser.add_argument("--close-after", type=int)
    options = parser.parse_args()
    warnings.simplefilter("ignore", DeprecationWarning)  # TLS 1.0/1.1 on purpose

    context = None
    if options.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options.tls[0], options.tls[1])
        if options.tls_max == "1.1":
            context.set_ciphers("DEFAULT@SECLEVEL=0")
            context.minimum_version = ssl.TLSVersion.TLSv1
            context.maximum_version = ssl.TLSVersion.TLSv1_1

    family = socket.AF_INET6 if options.ipv6 else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("::1" if options.ipv6 else "127.0.0.1", 0))
    listener.listen(128)
    threading.Thread(target=exit_with_parent, daemon=True).start()
    print("PORT", listener.getsockname()[1], flush=True)
    while True:
        raw, _ = listener.accept()
        threading.Thread(target=handle, args=(raw, options, context), daemon=True).start()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)
