#!/usr/bin/env python3
"""A provider token endpoint for load (asyncio, keep-alive, 127.0.0.1 only) that answers
every request the same way, chosen by --mode:

  ok        200 token JSON (a rotated refresh token on every call)
  5xx       503 with a JSON body
  429       429, Retry-After: 7, a body that is not OAuth JSON
  400       400 {"error":"invalid_grant"} (a provider 4xx, passed through verbatim)
  garbage   "SMTP ready" and close (not HTTP)
  slow      waits --delay seconds, then 200
  reset     accepts, then closes with RST before reading (SO_LINGER 0)
  midbody   head with Content-Length 400, 40 bytes of body, close
TLS with --tls CERT KEY. Prints "PORT n" when listening; exits on
SIGTERM or after --lifetime seconds. Nothing received is printed.
"""
import argparse
import asyncio
import json
import signal
import socket
import ssl
import struct

TOKEN = json.dumps({"access_token": "stub-access", "token_type": "Bearer",
                    "scope": "user-read", "expires_in": 3600,
                    "refresh_token": "stub-refresh-rotated"}).encode()


def response(status, reason, body, extra=b"", ctype=b"application/json"):
    return (b"HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n%s\r\n" %
            (status, reason, ctype, len(body), extra)) + body


async def handle(reader, writer, args):
    if args.mode == "reset":
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
            mode = args.mode
            if mode == "ok":
                writer.write(response(200, b"OK", TOKEN))
            elif mode == "slow":
                await asyncio.sleep(args.delay)
                writer.write(response(200, b"OK", TOKEN))
            elif mode == "5xx":
                writer.write(response(503, b"Service Unavailable",
                                      b'{"error":"server_error"}'))
            elif mode == "429":
                writer.write(response(429, b"Too Many Requests", b"slow down",
                                      b"Retry-After: 7\r\n", b"text/plain"))
            elif mode == "400":
                writer.write(response(400, b"Bad Request",
                                      b'{"error":"invalid_grant","error_description":"stub"}'))
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


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", default="ok")
    p.add_argument("--delay", type=float, default=5)
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--tls", nargs=2)
    p.add_argument("--lifetime", type=float, default=1500, help="exit after this long")
    args = p.parse_args()
    context = None
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
    server = await asyncio.start_server(lambda r, w: handle(r, w, args), "127.0.0.1",
                                        args.port, ssl=context, backlog=1024)
    print("PORT", server.sockets[0].getsockname()[1], flush=True)
    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    loop.add_signal_handler(signal.SIGTERM, lambda: stop.done() or stop.set_result(None))
    loop.call_later(args.lifetime, lambda: stop.done() or stop.set_result(None))
    await stop


if __name__ == "__main__":
    asyncio.run(main())
