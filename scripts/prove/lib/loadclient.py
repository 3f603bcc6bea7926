#!/usr/bin/env python3
"""A counting HTTP/1.1 load client for the prove scripts (asyncio, raw sockets, loopback
only). Every request's outcome is classified, so a script can say exactly what failed:

  status:NNN:<error>   a complete response (status, and the JSON "error" code if any)
  refused              connect() refused: nothing was sent (a clean refusal)
  connect-error        any other connect failure: nothing was sent
  reset-before-send    the connection broke before the whole request was written
  no-response          the whole request was written, then EOF/RST with no byte back
  partial-response     some response bytes, then EOF/RST (a broken response)
  timeout              no complete response within --timeout after the request was sent

Usage:
  loadclient.py --port P --concurrency C (--requests N | --seconds S)
                [--mix swap=1,refresh=1,bad=1,missing=1,fault=1,healthz=1]
                [--refresh-token T] [--rate R]
                [--fresh-connections] [--timeout SEC] [--json OUT] [--until-file F]

--fresh-connections opens one connection per request (Connection: close), so "sent" is
unambiguous: a request either went out on a connection the server accepted, or the
connect was refused before anything was sent. Without it, connections are kept alive.
Output: one JSON object (counts per outcome, latency percentiles in ms, per-kind counts).
"""
import argparse
import asyncio
import json
import random
import sys
import time

HOST = "127.0.0.1"


def build_request(kind, args, close):
    conn = b"close" if close else b"keep-alive"
    if kind == "healthz":
        return b"GET /healthz HTTP/1.1\r\nHost: prove\r\nConnection: " + conn + b"\r\n\r\n"
    if kind == "swap":
        body = b"code=prove-code-" + str(random.randrange(1 << 30)).encode()
        path = b"/v1/swap"
    elif kind == "refresh":
        body = b"refresh_token=" + args.refresh_token.encode()
        path = b"/v1/refresh"
    elif kind == "bad":  # a tampered sealed token: 400 invalid_grant, no upstream call
        body = b"refresh_token=" + (args.refresh_token[:-4] + "AAAA").encode()
        path = b"/v1/refresh"
    elif kind == "missing":  # 400 invalid_request
        body = b"code=%28null%29"
        path = b"/v1/swap"
    elif kind == "fault":  # a second provider ("acme") whose stub is failing
        body = b"code=prove-code"
        path = b"/v1/acme/swap"
    else:
        raise SystemExit("unknown kind " + kind)
    return (b"POST " + path + b" HTTP/1.1\r\nHost: prove\r\nConnection: " + conn +
            b"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " +
            str(len(body)).encode() + b"\r\n\r\n" + body)


async def read_response(reader):
    """Returns (status, body, close) or raises ('no-response'|'partial-response')."""
    got_any = False
    try:
        line = await reader.readuntil(b"\r\n")
        got_any = True
        status = int(line.split(b" ", 2)[1])
        length = 0
        close = False
        while True:
            line = await reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value.strip())
            elif name == b"connection" and b"close" in value.lower():
                close = True
        body = await reader.readexactly(length) if length else b""
        return status, body, close
    except (asyncio.IncompleteReadError, ConnectionError, OSError) as e:
        if isinstance(e, asyncio.IncompleteReadError) and e.partial:
            got_any = True
        raise Outcome("partial-response" if got_any else "no-response")


class Outcome(Exception):
    def __init__(self, name):
        self.name = name


def classify(status, body):
    code = ""
    if body.startswith(b"{") and b'"error"' in body:
        try:
            code = json.loads(body).get("error", "")
        except ValueError:
            code = "unparsable"
    return "status:%d:%s" % (status, code)


class Stats:
    def __init__(self):
        self.outcomes = {}
        self.by_kind = {}
        self.latencies = []
        self.max_latency_by_outcome = {}
        self.first_failure = {}
        self.started = time.monotonic()
        self.records = None  # (start, end, outcome) per request when --mark-file is given
        self.mark = None

    def add(self, kind, outcome, latency, fresh, start=None):
        if outcome in ("no-response", "partial-response", "reset-before-send") and not fresh:
            outcome += "-reused"  # a kept-alive connection the server may close when idle
        if start is not None and self.records is not None:
            self.records.append((start, time.monotonic(), outcome))
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        key = kind + " " + outcome
        self.by_kind[key] = self.by_kind.get(key, 0) + 1
        if latency is not None:
            self.latencies.append(latency)
            prev = self.max_latency_by_outcome.get(outcome, 0)
            self.max_latency_by_outcome[outcome] = max(prev, latency)
        if not outcome.startswith("status:") and outcome not in self.first_failure:
            self.first_failure[outcome] = {"at_s": round(time.monotonic() - self.started, 3),
                                           "fresh_connection": fresh}


async def worker(args, stats, deadline, budget, kinds):
    reader = writer = None
    while True:
        if time.monotonic() >= deadline or (args.until_file and args.stop_flag[0]):
            break
        if budget is not None:
            if budget[0] <= 0:
                break
            budget[0] -= 1
        if args.rate:
            # Pacing: each worker sends at most rate/concurrency requests per second.
            args.next_at[0] = max(args.next_at[0], time.monotonic())
            wait = args.next_at[0] - time.monotonic()
            args.next_at[0] += 1.0 / args.rate
            if wait > 0:
                await asyncio.sleep(wait)
        kind = random.choice(kinds)
        close = args.fresh_connections
        request = build_request(kind, args, close)
        fresh = writer is None
        if writer is None:
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(HOST, args.port), args.timeout)
            except ConnectionRefusedError:
                stats.add(kind, "refused", None, True)
                await asyncio.sleep(0.01)
                continue
            except (OSError, asyncio.TimeoutError):
                stats.add(kind, "connect-error", None, True)
                await asyncio.sleep(0.01)
                continue
        start = time.monotonic()
        try:
            writer.write(request)
            await writer.drain()
        except (ConnectionError, OSError):
            stats.add(kind, "reset-before-send", None, fresh, start)
            writer.close()
            reader = writer = None
            continue
        try:
            status, body, server_close = await asyncio.wait_for(read_response(reader),
                                                                args.timeout)
            outcome = classify(status, body)
        except Outcome as o:
            outcome, server_close = o.name, True
        except asyncio.TimeoutError:
            outcome, server_close = "timeout", True
        stats.add(kind, outcome, time.monotonic() - start, fresh, start)
        if close or server_close:
            writer.close()
            reader = writer = None
    if writer is not None:
        writer.close()


async def watch_file(args):
    import os
    while not os.path.exists(args.until_file):
        await asyncio.sleep(0.05)
    args.stop_flag[0] = True


async def watch_mark(args, stats):
    import os
    while not os.path.exists(args.mark_file):
        await asyncio.sleep(0.002)
    stats.mark = time.monotonic()


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--concurrency", type=int, default=16)
    p.add_argument("--requests", type=int)
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--mix", default="healthz=1")
    p.add_argument("--refresh-token", default="")
    p.add_argument("--fresh-connections", action="store_true")
    p.add_argument("--timeout", type=float, default=30)
    p.add_argument("--until-file")
    p.add_argument("--rate", type=float, help="at most this many requests per second in all")
    p.add_argument("--json")
    p.add_argument("--mark-file", help="when this file appears (e.g. SIGTERM sent), note the "
                   "time; the report then counts requests in flight at that moment")
    args = p.parse_args()
    args.stop_flag = [False]
    args.next_at = [time.monotonic()]
    kinds = []
    for part in args.mix.split(","):
        name, _, weight = part.partition("=")
        kinds += [name] * int(weight or 1)
    stats = Stats()
    deadline = time.monotonic() + args.seconds
    budget = [args.requests] if args.requests else None
    tasks = [worker(args, stats, deadline, budget, kinds) for _ in range(args.concurrency)]
    if args.until_file:
        asyncio.ensure_future(watch_file(args))
    if args.mark_file:
        stats.records = []
        asyncio.ensure_future(watch_mark(args, stats))
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - stats.started
    lat = sorted(stats.latencies)

    def pct(q):
        return round(lat[min(len(lat) - 1, int(q * len(lat)))] * 1000, 1) if lat else None

    total = sum(stats.outcomes.values())
    result = {
        "requests": total, "seconds": round(elapsed, 2),
        "rate_per_s": round(total / elapsed, 1) if elapsed else 0,
        "outcomes": dict(sorted(stats.outcomes.items())),
        "by_kind": dict(sorted(stats.by_kind.items())),
        "latency_ms": {"p50": pct(0.5), "p99": pct(0.99),
                       "max": round(lat[-1] * 1000, 1) if lat else None},
        "max_latency_ms_by_outcome": {k: round(v * 1000, 1)
                                      for k, v in sorted(stats.max_latency_by_outcome.items())},
        "first_failure": stats.first_failure,
    }
    if stats.records is not None:
        in_flight, after = {}, {}
        for start, end, outcome in stats.records:
            if stats.mark is None:
                continue
            if start < stats.mark < end:
                in_flight[outcome] = in_flight.get(outcome, 0) + 1
            elif start >= stats.mark:
                after[outcome] = after.get(outcome, 0) + 1
        result["mark_at_s"] = round(stats.mark - stats.started, 3) if stats.mark else None
        result["in_flight_at_mark"] = dict(sorted(in_flight.items()))
        result["started_after_mark"] = dict(sorted(after.items()))
    text = json.dumps(result)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    asyncio.run(main())
