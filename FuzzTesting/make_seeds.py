#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets that need real tokens: Corpus/Sealed (tokens
sealed as tokenswap's key ring seals them, under FuzzSealed's fixed test keys) and
Corpus/Legacy (tokens of every legacy format under FuzzLegacy's fixed secret, made by
Tests/EndToEndTests/Fixtures/legacy_token.py, plus the transport damage CONTRACT §9
repairs), and Corpus/DPoP (proofs for FuzzDPoP, signed with `cryptography` by a fixed
P-256 key, valid ones and one of each refusal of CONTRACT §13). Run from FuzzTesting/: python3 make_seeds.py. Random nonces, so each run
writes different (equally valid) tokens.
"""
import base64
import os
import struct
import subprocess
import sys

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

HERE = os.path.dirname(os.path.abspath(__file__))
LEGACY_TOKEN = os.path.join(HERE, "..", "Tests", "EndToEndTests", "Fixtures", "legacy_token.py")

# FuzzSealed's keys (Sources/FuzzSealed/main.swift): k1 = bytes 0..31, k0 = bytes 32..63.
KEYS = {"k1": bytes(range(32)), "k0": bytes(range(32, 64))}
# FuzzLegacy's secret (Sources/FuzzLegacy/main.swift).
LEGACY_SECRET = "tokenswap-fuzzing-legacy-secret"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=")


def seal(kid, provider, client, kind, plaintext):
    """Sources/Sealing/SealedTokenLayout.swift, version 1."""
    header = bytes([1, len(kid)]) + kid.encode()
    ad = header
    for field in (provider.encode(), client.encode()):
        ad += struct.pack(">Q", len(field)) + field
    if kind != 0:
        ad += bytes([0xFF, kind])
    nonce = os.urandom(12)
    return b64url(header + nonce + AESGCM(KEYS[kid]).encrypt(nonce, plaintext, ad))


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as out:
        out.write(data)


def sealed_seeds():
    folder = os.path.join(HERE, "Corpus", "Sealed")
    refresh = b"AQDq3n5bXk8y0Vb1h4xM_refresh-token-from-spotify_9f3c"
    envelope = b'{"d":"GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS","e":1800000900,"i":5}'
    seeds = {
        "refresh-k1-spotify": seal("k1", "spotify", "client", 0, refresh),
        "refresh-k0-spotify": seal("k0", "spotify", "client", 0, refresh),
        "device-k1-spotify": seal("k1", "spotify", "client", 1, envelope),
        "device-k0-ab-c": seal("k0", "ab", "c", 1, envelope),
        "refresh-k1-ab-c": seal("k1", "ab", "c", 0, b"gho_16C7e42F292c6912E7710c838347Ae178B4a"),
        "refresh-k1-a-bc": seal("k1", "a", "bc", 0, b"1//0gLbXWnWm0bPZCgYIARAAGBASNwF"),
        "empty-plaintext-k1": seal("k1", "spotify", "client", 0, b""),
        "binary-plaintext-k1": seal("k1", "spotify", "c", 0, bytes(range(0, 256, 7))),
        "unknown-kid": seal("k1", "spotify", "client", 0, refresh).replace(b"AQJr", b"AQJz", 1),
        "truncated": seal("k1", "spotify", "client", 0, refresh)[:40],
        "plaintext-refresh-token": refresh,
        "plaintext-envelope": envelope,
    }
    for name, data in seeds.items():
        write(folder, name, data)


def legacy_token(fmt, plaintext):
    return subprocess.run(
        [sys.executable, LEGACY_TOKEN, fmt, LEGACY_SECRET, plaintext],
        check=True, capture_output=True).stdout


def legacy_seeds():
    folder = os.path.join(HERE, "Corpus", "Legacy")
    spotify = "AQCz7xP1bqvI2r8e-mQ2JjYbC0XnM0cKqv5Z8t9oUg1yW6hR3aLdPfE4sVkNiTwOuXB"
    generic = "1//0gLbXWnWm0bPZCgYIARAAGBASNwF-L9IrqWm8sRz"
    for fmt in ("ruby-encrypted-strings", "node-create-cipher-ctr", "node-create-cipher-cbc",
                "spotifyapiserver-gcm", "cryptojs-aes"):
        write(folder, fmt + "-spotify", legacy_token(fmt, spotify))
        write(folder, fmt + "-generic", legacy_token(fmt, generic))
    ruby = legacy_token("ruby-encrypted-strings", spotify)
    # The damage CONTRACT §9 repairs: newlines dropped, "\n" sent as two characters,
    # '+' read as a space by a form decoder.
    write(folder, "ruby-newlines-dropped", ruby.replace(b"\n", b""))
    write(folder, "ruby-newlines-escaped", ruby.replace(b"\n", b"\\n"))
    cryptojs = legacy_token("cryptojs-aes", spotify)
    write(folder, "cryptojs-plus-as-space", cryptojs.replace(b"+", b" "))
    write(folder, "cbc-uppercase-hex", legacy_token("node-create-cipher-cbc", generic).upper())


def dpop_seeds():
    """FuzzDPoP's request (Sources/FuzzDPoP/main.swift): POST to HTU at NOW."""
    import hashlib
    import hmac
    import json

    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

    folder = os.path.join(HERE, "Corpus", "DPoP")
    now = 1767225600
    htu = "https://tokenswap.example/v1/spotify/refresh"
    key = ec.derive_private_key(int.from_bytes(bytes(range(1, 33)), "big"), ec.SECP256R1())
    numbers = key.public_key().public_numbers()
    jwk = {"kty": "EC", "crv": "P-256",
           "x": b64url(numbers.x.to_bytes(32, "big")).decode(),
           "y": b64url(numbers.y.to_bytes(32, "big")).decode()}
    compact = lambda value: json.dumps(value, separators=(",", ":"))

    def claims(**changes):
        value = {"jti": "seed-jti-0123456789", "htm": "POST", "htu": htu, "iat": now}
        value.update(changes)
        return value

    def proof(header=None, body=None, signature=None):
        header = header or {"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk}
        text = b64url(compact(header).encode()) + b"." + b64url(compact(body or claims()).encode())
        if signature is None:
            r, s = decode_dss_signature(key.sign(text, ec.ECDSA(hashes.SHA256())))
            signature = r.to_bytes(32, "big") + s.to_bytes(32, "big")
        return text + b"." + b64url(signature)

    raw = compact({"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk}) + "\n" + compact(claims())
    seeds = {
        "valid": proof(),
        "valid-equivalent-htu": proof(body=claims(
            htu="HTTPS://TokenSwap.example:443/v1/%73potify/./refresh?x=1")),
        "alg-none": proof({"typ": "dpop+jwt", "alg": "none", "jwk": jwk}, signature=b""),
        "alg-hs256": proof({"typ": "dpop+jwt", "alg": "HS256", "jwk": jwk},
                           signature=hmac.new(b"k" * 32, b"x", hashlib.sha256).digest()),
        "jwk-with-d": proof({"typ": "dpop+jwt", "alg": "ES256",
                             "jwk": dict(jwk, d=b64url(bytes(range(1, 33))).decode())}),
        "wrong-curve": proof({"typ": "dpop+jwt", "alg": "ES256", "jwk": dict(jwk, crv="P-384")}),
        "crit": proof({"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk, "crit": ["exp"]}),
        "signature-63-bytes": proof(signature=bytes(63)),
        "jti-short": proof(body=claims(jti="a" * 15)),
        "iat-old": proof(body=claims(iat=now - 61)),
        "iat-string": proof(body=claims(iat=str(now))),
        "htm-get": proof(body=claims(htm="GET")),
        "with-nonce": proof(body=claims(nonce="AAAAAAAAAAAAAAAAAAAAAA")),
        "two-fields": proof() + b"\n" + proof(),
        "raw-json": raw.encode(),
        "raw-json-duplicate-alg": raw.replace('"alg":"ES256"', '"alg":"ES256","alg":"none"').encode(),
        "htu-dot-segments": b"https://Example.COM:443/a/./b/../%7e%2f?q#f",
        # Found by FuzzDPoP: a ':' in a host that is no IP literal.
        "htu-colon-in-host": b"https://EyJ0eX:iOiJkcG9whttps://Example.COM:444/a/./b#/..",
    }
    for name, data in seeds.items():
        write(folder, name, data)


if __name__ == "__main__":
    sealed_seeds()
    legacy_seeds()
    dpop_seeds()
