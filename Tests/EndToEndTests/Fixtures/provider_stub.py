#!/usr/bin/env python3
"""A stand-in OAuth provider token endpoint for the end-to-end tests, on Python's
http.server (a real peer not written by us). It records every request it receives and
answers what the test told it to.

Two listeners on 127.0.0.1, ephemeral ports, printed as "PORT <service> CONTROL <control>":
  service  (plain HTTP, or TLS with --tls CERT KEY): every request is recorded and answered
           with the current answer.
  control  (plain HTTP, for the test):
           POST /answer    JSON {"status":200, "headers":[["Name","value"]], "body":"...",
                           "mode":"normal"|"garbage"|"slow"|"close-delimited",
                           "delay_ms":N}; the answer to every later service request
                           (close-delimited: no Content-Length, the body ended by closing
                           the connection; over TLS without close_notify, a truncation);
                           with "path":"/x", only to later requests for that path (the
                           device endpoint beside the token endpoint), which then no longer
                           get the general answer
           GET  /requests  JSON list of {"method","target","headers":[[n,v]],"body"}
Nothing received is ever printed. The stub exits when its stdin closes (the test ended).
"""
import argparse
import json
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
recorded = []
answer = {
    "status": 200,
    "headers": [],
    "body": json.dumps({"access_token": "stub-access", "token_type": "Bearer",
                        "scope": "user-read", "expires_in": 3600,
                        "refresh_token": "stub-refresh"}),
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
            time.sleep(current["delay_ms"] / 1000.0)
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


def exit_with_parent():
    sys.stdin.read()
    os._exit(0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    options = parser.parse_args()
    service = ThreadingHTTPServer(("127.0.0.1", 0), Service)
    service.daemon_threads = True
    if options.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options.tls[0], options.tls[1])
        service.socket = context.wrap_socket(service.socket, server_side=True)
    control = ThreadingHTTPServer(("127.0.0.1", 0), Control)
    control.daemon_threads = True
    threading.Thread(target=control.serve_forever, daemon=True).start()
    threading.Thread(target=exit_with_parent, daemon=True).start()
    print("PORT", service.server_address[1], "CONTROL", control.server_address[1], flush=True)
    service.serve_forever()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)
