#!/usr/bin/env python3
"""The one stand-in upstream for the tests, the proofs and the benchmarks: a real HTTP/1.1
(and TLS) peer on Python's standard library, not written against our own parser. It
listens on 127.0.0.1 (or ::1 with --ipv6), an ephemeral port unless --port, and prints
"PORT <n>" once it listens ("PORT <n> CONTROL <c>" in the control mode). Nothing received
is ever printed. It exits on SIGTERM, after --lifetime seconds, and when its stdin closes
if stdin is a pipe (a test process holds it open: a crashed test leaves no server).

--mode control (the default; the end-to-end tests' provider, on http.server)
  Two listeners:
  service  every request is recorded and answered with the current answer.
  control  plain HTTP, for the test:
           POST /answer    JSON {"status":200, "headers":[["Name","value"]], "body":"...",
                           "mode":"normal"|"garbage"|"slow"|"close-delimited",
                           "delay_ms":N}; the answer to every later service request
                           (close-delimited: no Content-Length, the body ended by closing
                           the connection; over TLS without close_notify, a truncation);
                           with "path":"/x", only to later requests for that path (the
                           device endpoint beside the token endpoint), which then no longer
                           get the general answer
           GET  /requests  JSON list of {"method","target","headers":[[n,v]],"body"}

--mode paths (the HTTP client's tests, on socket and ssl): the answer is chosen by path
  /ok                  200, Content-Length body "hello"
  /echo                200, body = "<METHOD> <target>\\n<request body>"
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
  --tls-max 1.1        offer only TLS 1.0-1.1 (the client must refuse)
  --idle-close-ms N    close a keep-alive connection after N ms without a request
  --close-after N      close each connection after N responses (without saying so)
  --handshake-delay-ms N  over TLS, leave each ClientHello unanswered N ms after it
                       arrives (a provider slow to shake hands, not silent)

--mode ok|5xx|429|400|garbage|slow|reset|midbody (the proofs' provider under load, on
  asyncio, keep-alive): every request gets the same answer
  ok        200 token JSON (a rotated refresh token on every call)
  5xx       503 with a JSON body
  429       429, Retry-After: 7, a body that is not OAuth JSON
  400       400 {"error":"invalid_grant"} (a provider 4xx, passed through verbatim)
  garbage   "SMTP ready" and close (not HTTP)
  slow      waits --delay seconds, then 200
  reset     accepts, then closes with RST before reading (SO_LINGER 0)
  midbody   head with Content-Length 400, 40 bytes of body, close

Every mode: --tls CERT KEY serves TLS with this certificate chain and key.
"""
import argparse
import asyncio
import json
import os
import signal
import socket
import ssl
import stat
import struct
import sys
import threading
import time
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

FIXED_MODES = ("ok", "5xx", "429", "400", "garbage", "slow", "reset", "midbody")


def token_json(refresh_token):
    return json.dumps({"access_token": "stub-access", "token_type": "Bearer",
                       "scope": "user-read", "expires_in": 3600,
                       "refresh_token": refresh_token})


def tls_context(options):
    if not options.tls:
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(options.tls[0], options.tls[1])
    if options.tls_max == "1.1":
        warnings.simplefilter("ignore", DeprecationWarning)  # TLS 1.0/1.1 on purpose
        context.set_ciphers("DEFAULT@SECLEVEL=0")
        context.minimum_version = ssl.TLSVersion.TLSv1
        context.maximum_version = ssl.TLSVersion.TLSv1_1
    return context


def exit_with_parent(lifetime):
    """Ends the process when stdin (a pipe the parent holds) closes, or at the lifetime."""
    timer = threading.Timer(lifetime, lambda: os._exit(0))
    timer.daemon = True
    timer.start()
    if stat.S_ISFIFO(os.fstat(0).st_mode):
        def wait():
            sys.stdin.read()
            os._exit(0)
        threading.Thread(target=wait, daemon=True).start()


# --mode control ---------------------------------------------------------------------

lock = threading.Lock()
recorded = []
answer = {
    "status": 200,
    "headers": [],
    "body": token_json("stub-refresh"),
    "mode": "normal",
    "delay_ms": 0,
}
answers_by_path = {}


class Quiet(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass  # stderr must not carry anything the tests sent

    def read_body(self):
        length = int(self.headers.get("Content-Length", "0"))
        return self.rfile.read(length) if length else b""

    def reply(self, status, body, headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if not any(name.lower() == "content-type" for name, _ in headers):
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class Service(Quiet):
    def handle_any(self):
        body = self.read_body()
        with lock:
            recorded.append({"method": self.command, "target": self.path,
                             "headers": [[n, v] for n, v in self.headers.items()],
                             "body": body.decode("latin-1")})
            path = self.path.split("?", 1)[0]
            current = dict(answers_by_path.get(path, answer))
        if current["mode"] == "slow":
            time.sleep(current["delay_ms"] / 1000.0)  # time is the test: a slow provider
        if current["mode"] == "garbage":
            self.wfile.write(b"SMTP ready\r\n\r\n")
            self.close_connection = True
            return
        if current["mode"] == "close-delimited":
            self.wfile.write(b"HTTP/1.1 %d OK\r\nContent-Type: application/json\r\n"
                             b"Connection: close\r\n\r\n" % current["status"]
                             + current["body"].encode())
            self.close_connection = True  # socketserver closes without TLS close_notify
            return
        self.reply(current["status"], current["body"], current["headers"])

    do_POST = handle_any
    do_GET = handle_any
    do_DELETE = handle_any


class Control(Quiet):
    def do_POST(self):
        global answer
        update = json.loads(self.read_body())
        with lock:
            path = update.pop("path", None)
            if path is None:
                answer = {**answer, **update}
            else:
                answers_by_path[path] = {**answer, **answers_by_path.get(path, {}), **update}
        self.reply(200, "{}")

    def do_GET(self):
        with lock:
            data = json.dumps(recorded)
        self.reply(200, data)


class IPv6Server(ThreadingHTTPServer):
    address_family = socket.AF_INET6


def serve_control(options):
    host = "::1" if options.ipv6 else "127.0.0.1"
    service = (IPv6Server if options.ipv6 else ThreadingHTTPServer)((host, options.port), Service)
    service.daemon_threads = True
    context = tls_context(options)
    if context:
        service.socket = context.wrap_socket(service.socket, server_side=True)
    control = ThreadingHTTPServer(("127.0.0.1", 0), Control)
    control.daemon_threads = True
    threading.Thread(target=control.serve_forever, daemon=True).start()
    print("PORT", service.server_address[1], "CONTROL", control.server_address[1], flush=True)
    service.serve_forever()


# --mode paths -----------------------------------------------------------------------

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


def serve_paths_connection(conn, options):
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
            time.sleep(int(query.get("ms", "1000")) / 1000.0)  # time is the test: slow
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


def handle_paths_connection(raw, options, context):
    global accepts
    with accepts_lock:
        accepts += 1
    conn = raw
    try:
        if context is not None:
            if options.handshake_delay_ms:
                # Blocks until the ClientHello is there (or the client went away).
                if not raw.recv(1, socket.MSG_PEEK):
                    return
                time.sleep(options.handshake_delay_ms / 1000.0)  # time is the test: slow TLS
            raw.settimeout(10)
            conn = context.wrap_socket(raw, server_side=True)
            conn.settimeout(None)
        serve_paths_connection(conn, options)
    except (ConnectionError, ssl.SSLError, OSError):
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def serve_paths(options):
    context = tls_context(options)
    family = socket.AF_INET6 if options.ipv6 else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("::1" if options.ipv6 else "127.0.0.1", options.port))
    listener.listen(128)
    print("PORT", listener.getsockname()[1], flush=True)
    while True:
        raw, _ = listener.accept()
        threading.Thread(target=handle_paths_connection, args=(raw, options, context),
                         daemon=True).start()


# --mode ok|5xx|… --------------------------------------------------------------------

TOKEN = token_json("stub-refresh-rotated").encode()


def fixed_response(status, reason, body, extra=b"", ctype=b"application/json"):
    return (b"HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n%s\r\n" %
            (status, reason, ctype, len(body), extra)) + body


async def handle_fixed(reader, writer, options):
    mode = options.mode
    if mode == "reset":
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()
        return
    try:
        while True:
            length = 0
            while True:
                line = await reader.readuntil(b"\r\n")
                if line == b"\r\n":
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            if length:
                await reader.readexactly(length)
            if mode == "ok":
                writer.write(fixed_response(200, b"OK", TOKEN))
            elif mode == "slow":
                await asyncio.sleep(options.delay)  # time is the test: a slow provider
                writer.write(fixed_response(200, b"OK", TOKEN))
            elif mode == "5xx":
                writer.write(fixed_response(503, b"Service Unavailable",
                                            b'{"error":"server_error"}'))
            elif mode == "429":
                writer.write(fixed_response(429, b"Too Many Requests", b"slow down",
                                            b"Retry-After: 7\r\n", b"text/plain"))
            elif mode == "400":
                writer.write(fixed_response(
                    400, b"Bad Request", b'{"error":"invalid_grant","error_description":"stub"}'))
            elif mode == "garbage":
                writer.write(b"SMTP ready\r\n\r\n")
                await writer.drain()
                writer.close()
                return
            elif mode == "midbody":
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                             b"Content-Length: 400\r\n\r\n" + TOKEN[:40])
                await writer.drain()
                writer.close()
                return
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, OSError, ValueError):
        pass
    finally:
        writer.close()


async def serve_fixed(options):
    server = await asyncio.start_server(
        lambda r, w: handle_fixed(r, w, options), "::1" if options.ipv6 else "127.0.0.1",
        options.port, ssl=tls_context(options), backlog=1024)
    print("PORT", server.sockets[0].getsockname()[1], flush=True)
    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    loop.add_signal_handler(signal.SIGTERM, lambda: stop.done() or stop.set_result(None))
    await stop


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="control",
                        choices=("control", "paths") + FIXED_MODES)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--tls-max")
    parser.add_argument("--ipv6", action="store_true")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=1500, help="exit after this long")
    parser.add_argument("--idle-close-ms", type=int)
    parser.add_argument("--close-after", type=int)
    parser.add_argument("--handshake-delay-ms", type=int)
    parser.add_argument("--delay", type=float, default=5, help="seconds, for --mode slow")
    options = parser.parse_args()
    exit_with_parent(options.lifetime)
    if options.mode == "control":
        serve_control(options)
    elif options.mode == "paths":
        serve_paths(options)
    else:
        asyncio.run(serve_fixed(options))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)
