#!/usr/bin/env python3
"""The client of the counted benchmarks (scripts/lib/common.sh per_refresh, scripts/bench.d/
guard): drives one tokenswap process through one kind of request, COUNT times, so that a
counter around the process (the malloc shim, callgrind) sees COUNT of them; the caller runs
it with two counts and takes the difference, start-up and shutdown cancelling out.

  refresh PORT COUNT [--rotate] [--dpop]
      one swap, then COUNT `POST /v1/refresh` on one keep-alive connection. Without
      --rotate every refresh sends the swap's sealed token again (after the first, a replay
      from the window); with it the stub rotates the token and the client always sends the
      newest (every refresh a provider call). --dpop: each carries a DPoP proof for a bound
      token (CONTRACT §13), made beforehand by `cryptography` so only tokenswap's side counts.
  device PORT COUNT
      one device code (the sandbox's), one poll (authorization_pending), then COUNT polls
      within the interval, each answered `slow_down` by tokenswap alone (CONTRACT §7).
  idle PORT COUNT
      COUNT keep-alive connections, one `GET /healthz` answered on each, then held open
      (idle) while the caller measures: prints COUNT when they are, and holds them until
      it is ended (SIGTERM).

Every answer is checked: a wrong status fails the run (exit 1), so a count is never taken
of requests that went another way.
"""
import base64
import http.client
import json
import resource
import signal
import socket
import sys
import time
import uuid

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def fail(message):
    print(f"counted_requests: {message}", file=sys.stderr)
    sys.exit(1)


def dpop_prover(port):
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

    def b64(b):
        return base64.urlsafe_b64encode(b).rstrip(b"=").decode()

    key = ec.generate_private_key(ec.SECP256R1())
    n = key.public_key().public_numbers()
    jwk = {"kty": "EC", "crv": "P-256", "x": b64(n.x.to_bytes(32, "big")),
           "y": b64(n.y.to_bytes(32, "big"))}
    header = b64(json.dumps({"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk},
                            separators=(",", ":")).encode())

    def proof(path, nonce=None):
        claims = {"jti": str(uuid.uuid4()), "htm": "POST",
                  "htu": f"http://127.0.0.1:{port}{path}", "iat": int(time.time())}
        if nonce:
            claims["nonce"] = nonce
        text = header + "." + b64(json.dumps(claims, separators=(",", ":")).encode())
        r, s = decode_dss_signature(key.sign(text.encode(), ec.ECDSA(hashes.SHA256())))
        return text + "." + b64(r.to_bytes(32, "big") + s.to_bytes(32, "big"))

    return proof


def refreshes(port, count, rotate, dpop):
    c = http.client.HTTPConnection("127.0.0.1", port)

    def post(path, body, proof=None):
        c.request("POST", path, body, dict(FORM, **({"DPoP": proof} if proof else {})))
        r = c.getresponse()
        return r.status, r.getheader("DPoP-Nonce"), r.read()

    proof = dpop_prover(port) if dpop else (lambda path, nonce=None: None)
    status, nonce, body = post("/v1/swap", "code=bench-code", proof("/v1/swap"))
    if dpop:  # the first proof has no nonce: use_dpop_nonce, then again with it
        if status != 400 or not nonce:
            fail(f"a DPoP swap without a nonce answered {status}")
        status, _, body = post("/v1/swap", "code=bench-code", proof("/v1/swap", nonce))
    if status != 200:
        fail(f"the swap answered {status}")
    sealed = json.loads(body)["refresh_token"]
    proofs = [proof("/v1/refresh", nonce if dpop else None) for _ in range(count)]
    for p in proofs:
        status, _, body = post("/v1/refresh", "refresh_token=" + sealed, p)
        if status != 200:
            fail(f"a refresh answered {status}")
        if rotate:  # the newest token, as a client of a rotating provider sends
            sealed = json.loads(body)["refresh_token"]
    c.close()


def polls(port, count):
    c = http.client.HTTPConnection("127.0.0.1", port)

    def post(path, body):
        c.request("POST", path, body, FORM)
        r = c.getresponse()
        return r.status, r.read()

    status, body = post("/v1/device/code", "scope=bench")
    if status != 200:
        fail(f"the device code answered {status}")
    code = json.loads(body)["device_code"]
    status, body = post("/v1/device/token", "device_code=" + code)
    if b"authorization_pending" not in body:
        fail(f"the first poll answered {status}")
    for _ in range(count):
        status, body = post("/v1/device/token", "device_code=" + code)
        if status != 400 or b"slow_down" not in body:
            fail(f"a poll within the interval answered {status}, not slow_down")
    c.close()


def idle(port, count):
    resource.setrlimit(resource.RLIMIT_NOFILE, (count + 1024, count + 1024))
    request = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n"
    held = []
    for i in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data or not data.endswith(b"}"):
            chunk = s.recv(4096)
            if not chunk:
                fail(f"connection {i} closed early")
            data += chunk
        held.append(s)
    print(len(held), flush=True)
    signal.pause()


def main():
    mode, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    flags = set(sys.argv[4:])
    if mode == "refresh":
        refreshes(port, count, "--rotate" in flags, "--dpop" in flags)
    elif mode == "device":
        polls(port, count)
    elif mode == "idle":
        idle(port, count)
    else:
        fail(f"unknown mode {mode}")


main()
