#!/usr/bin/env python3
"""Opens N keep-alive connections, sends one GET /healthz on each and reads the answer,
then holds them all open (idle) until killed. Writes N to READY_FILE when done."""
import resource
import socket
import sys
import time

host, port, count, ready = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
resource.setrlimit(resource.RLIMIT_NOFILE, (count + 1024, count + 1024))
request = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n"
held = []
for i in range(count):
    s = socket.create_connection((host, port))
    s.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data or not data.endswith(b"}"):
        chunk = s.recv(4096)
        if not chunk:
            raise SystemExit(f"connection {i} closed early")
        data += chunk
    held.append(s)
with open(ready, "w") as f:
    f.write(str(len(held)))
time.sleep(3600)
