"""Splits `DPOP_PERF=PREFIX scripts/bench dpop` profiles by part of a DPoP refresh.

Usage: dpop_perf_split.py PREFIX REFRESHES HZ [DPOP_US PLAIN_US]
Reads PREFIX.dpop and PREFIX.plain (perf record, DWARF call chains) through `perf script`
and `swift demangle`; each sample goes to the innermost frame of its chain that names a
part below (the continuation of the proof's check, the refresh itself, to "refresh body").
Prints per part the samples as µs per refresh (samples / HZ / REFRESHES), DPoP copy, plain
copy and the difference. With DPOP_US and PLAIN_US (a timed run's CPU per refresh of each
copy, without perf), each part's share of its copy's samples is scaled to those instead:
perf's unwinding slows both copies, so its own µs are not the bench's.
"""
import collections
import re
import subprocess
import sys

PARTS = [
    ("ES256 check (tokenswap_es256_verify: DER, SHA-256 of the input, EVP_PKEY_verify)",
     r"tokenswap_es256_verify"),
    ("jti StateKey digest (SHA-256)", r"StateKey.init\(_:scope:utf8:\)|proofIDKey"),
    ("nonce check (DPoPNonces.accepts)", r"DPoPNonces.accepts"),
    ("htu: request URI (DPoPRequestOrigin.target)", r"DPoPRequestOrigin.target"),
    ("htu comparison (DPoPTargetURI)", r"DPoPTargetURI"),
    ("jwk key cache lookup (KeyCache.key)", r"KeyCache.key\(of:\)"),
    ("claims: base64, flat JSON, rules (DPoPClaims.decode)", r"DPoPClaims.decode|checkClaims"),
    ("JWS split, signature base64 (CompactJWS.init)", r"CompactJWS.init"),
    ("client address (ClientPrefix.init)", r"ClientPrefix.init"),
    ("proof-id record (lock, ProofIDTable, AgedTable)",
     r"MemoryStateStore.recordProofID\(_:client:keepFor:\)|ProofIDTable"),
    ("DPoP-Nonce header (DPoPGate.decorate)", r"DPoPGate.decorate|DPoPNonces.current"),
    ("binding check (DPoPGate.binding)", r"DPoPGate.binding"),
    ("DPoP field read (HTTPHeaders.valueBytes)", r"valueBytes"),
    ("refresh body (window, kept answer)",
     r"closure #1 in DPoPGate.inspect|DPoPGate.inspect\(_:provider:completion:\)$"),
    ("answer written (Connection.respond, its send)", r"Connection.respond"),
]


def samples(path):
    text = subprocess.run(
        ["perf", "script", "-i", path, "-F", "comm,tid,ip,sym,dso"],
        capture_output=True, text=True, errors="replace").stdout
    text = subprocess.run(
        ["swift", "demangle", "--simplified"], input=text, capture_output=True,
        text=True).stdout
    frames = []
    for line in text.splitlines():
        if not line.strip():
            if frames:
                yield frames
            frames = []
        elif line[0] in " \t":
            match = re.match(r"\s*[0-9a-f]+ (.*) \((.*)\)\s*$", line)
            if match:
                frames.append((match.group(1), match.group(2)))
    if frames:
        yield frames


def split(path):
    counts, total = collections.Counter(), 0
    for frames in samples(path):
        total += 1
        part = None
        for name, _ in frames:
            part = next((label for label, pattern in PARTS if re.search(pattern, name)), None)
            if part:
                break
        if part is None:
            part = "kernel, elsewhere" if "kernel" in frames[0][1] else "HTTP, runtime, elsewhere"
        counts[part] += 1
    return counts, total


def main():
    prefix, refreshes, hz = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    dpop, dpop_total = split(prefix + ".dpop")
    plain, plain_total = split(prefix + ".plain")
    if len(sys.argv) > 5:
        dpop_us, plain_us = float(sys.argv[4]), float(sys.argv[5])
        in_dpop = lambda n: n / dpop_total * dpop_us
        in_plain = lambda n: n / plain_total * plain_us
    else:
        in_dpop = in_plain = lambda n: n / hz / refreshes * 1e6
    print("| part | DPoP copy µs | plain copy µs | difference |")
    print("|---|---|---|---|")
    for part in sorted(set(dpop) | set(plain), key=lambda p: -(in_dpop(dpop[p]) - in_plain(plain[p]))):
        a, b = in_dpop(dpop[part]), in_plain(plain[part])
        print(f"| {part} | {a:.1f} | {b:.1f} | {a - b:+.1f} |")
    print(f"| all ({dpop_total} and {plain_total} samples) | {in_dpop(dpop_total):.1f} "
          f"| {in_plain(plain_total):.1f} | {in_dpop(dpop_total) - in_plain(plain_total):+.1f} |")


if __name__ == "__main__":
    main()
