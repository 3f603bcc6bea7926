"""The client kit's DPoP proofs read by a JOSE library nobody here wrote (joserfc, from
PyPI: the client-library venv, TOKENSWAP_TEST_PYTHON). Arguments: a proof, the same proof
with one signature character changed, the thumbprint the kit computes, and the claims the
kit meant (method, htu, iat, nonce). Prints one line per check, never the proof; exits 1
when a check fails."""
import base64
import json
import sys

from joserfc import jws
from joserfc.errors import JoseError
from joserfc.jwk import ECKey

proof, tampered, thumbprint, method, htu, iat, nonce = sys.argv[1:8]
failed = False


def check(ok, what):
    global failed
    print(("ok   " if ok else "FAIL ") + what)
    failed = failed or not ok


def part(text, index):
    piece = text.split(".")[index]
    return json.loads(base64.urlsafe_b64decode(piece + "=" * (-len(piece) % 4)))


header = part(proof, 0)
key = ECKey.import_key(header["jwk"])
check(not key.is_private, "joserfc: the header's jwk is a public key")
try:
    token = jws.deserialize_compact(proof, key, algorithms=["ES256"])
    verified = True
except JoseError:
    verified = False
check(verified, "joserfc: the kit's proof verifies (ES256, the key in its header)")
if verified:
    claims = json.loads(token.payload)
    check(token.protected.get("typ") == "dpop+jwt", "joserfc: typ is dpop+jwt")
    check(token.protected.get("alg") == "ES256", "joserfc: alg is ES256")
    check(claims.get("htm") == method and claims.get("htu") == htu, "joserfc: htm and htu")
    check(claims.get("iat") == int(iat) and claims.get("nonce") == nonce, "joserfc: iat and nonce")
    check(16 <= len(claims.get("jti", "")) <= 256, "joserfc: a jti of 16 to 256 characters")
check(key.thumbprint() == thumbprint, "joserfc: the same RFC 7638 thumbprint as the kit's")
try:
    jws.deserialize_compact(tampered, key, algorithms=["ES256"])
    refused = False
except JoseError:
    refused = True
check(refused, "joserfc: a changed signature does not verify")
sys.exit(1 if failed else 0)
