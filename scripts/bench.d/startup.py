#!/usr/bin/env python3
"""Start-up to first served request: launches `BINARY serve` and polls GET /healthz on
PORT until it answers 200; prints the time from spawn to that answer, per run."""
import socket
import subprocess
import sys
import time

binary, port, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
request = b"GET /healthz HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n"
times = []
for _ in range(runs):
    start = time.monotonic()
    proc = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.DEVNULL)
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(request)
                if s.recv(64).startswith(b"HTTP/1.1 200"):
                    break
        except OSError:
            time.sleep(0.001)
    times.append((time.monotonic() - start) * 1000)
    proc.terminate()
    proc.wait()
print("start-up to first 200: " + ", ".join(f"{t:.1f}" for t in times)
      + f" ms; median {sorted(times)[len(times) // 2]:.1f} ms (target <= 100)")
