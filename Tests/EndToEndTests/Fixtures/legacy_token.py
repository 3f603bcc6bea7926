#!/usr/bin/env python3
"""Makes a refresh token the way another swap service did (CONTRACT section 9), with the
real algorithms and not tokenswap's code: the `openssl enc` command (whose key derivation
without -pbkdf2 is EVP_BytesToKey(MD5, 1 iteration), as Node's createCipher and CryptoJS
use) and Python's `cryptography` (AES-GCM, 3DES).

    legacy_token.py FORMAT SECRET PLAINTEXT      prints the token (no trailing newline
                                                 beyond what the format itself carries)

The secret is passed to openssl through the environment, never on a command line.
"""
import base64
import binascii
import hashlib
import os
import subprocess
import sys

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

try:  # cryptography >= 43 keeps 3DES among the "decrepit" algorithms
    from cryptography.hazmat.decrepit.ciphers.algorithms import TripleDES
except ImportError:
    from cryptography.hazmat.primitives.ciphers.algorithms import TripleDES


def openssl_enc(cipher, secret, plaintext, *extra):
    env = dict(os.environ, LEGACY_SECRET=secret)
    return subprocess.run(
        ["openssl", "enc", "-" + cipher, "-md", "md5", "-pass", "env:LEGACY_SECRET", *extra],
        input=plaintext, env=env, check=True, capture_output=True).stdout


def bytes_to_key_md5(password, key_len, iv_len, iterations):
    """EVP_BytesToKey(MD5, no salt): what Ruby's Cipher#pkcs5_keyivgen does (2048
    iterations by default). `openssl enc` cannot be told an iteration count other than 1
    without switching to PBKDF2, so this is written out; checked below against the
    encrypted_strings gem's published vector."""
    out, block = b"", b""
    while len(out) < key_len + iv_len:
        block = hashlib.md5(block + password).digest()
        for _ in range(iterations - 1):
            block = hashlib.md5(block).digest()
        out += block
    return out[:key_len], out[key_len:key_len + iv_len]


def ruby_encrypted_strings(secret, plaintext):
    key, iv = bytes_to_key_md5(secret, 24, 8, 2048)
    padder = padding.PKCS7(64).padder()
    padded = padder.update(plaintext) + padder.finalize()
    encryptor = Cipher(TripleDES(key), modes.CBC(iv)).encryptor()
    data = encryptor.update(padded) + encryptor.finalize()
    # Ruby's pack('m'): 45 bytes (60 characters) per line, every line ends in "\n".
    return b"".join(binascii.b2a_base64(data[i:i + 45]) for i in range(0, len(data), 45))


def make(fmt, secret, plaintext):
    if fmt == "ruby-encrypted-strings":
        return ruby_encrypted_strings(secret.encode(), plaintext)
    if fmt in ("node-create-cipher-ctr", "node-create-cipher-cbc"):
        cipher = "aes-256-ctr" if fmt.endswith("ctr") else "aes-256-cbc"
        return openssl_enc(cipher, secret, plaintext, "-nosalt").hex().encode()
    if fmt == "spotifyapiserver-gcm":
        nonce = os.urandom(12)
        sealed = AESGCM(hashlib.sha256(secret.encode()).digest()).encrypt(nonce, plaintext, None)
        return base64.urlsafe_b64encode(nonce + sealed).rstrip(b"=")
    if fmt == "cryptojs-aes":
        return openssl_enc("aes-256-cbc", secret, plaintext, "-a", "-A")
    sys.exit(f"unknown format {fmt}")


# The encrypted_strings gem's own example: "test" under "secret".
assert ruby_encrypted_strings(b"secret", b"test") == b"oTxJd67ElLY=\n"

if __name__ == "__main__":
    fmt, secret, plaintext = sys.argv[1:4]
    sys.stdout.buffer.write(make(fmt, secret, plaintext.encode()))
