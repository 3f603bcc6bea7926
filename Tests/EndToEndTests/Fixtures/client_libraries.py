#!/usr/bin/env python3
"""Real OAuth 2.0 client libraries against `tokenswap serve --sandbox` (CONTRACT §8):
authlib's and requests-oauthlib's OAuth2Session, used the way their documentation shows.

Each library discovers the endpoints from the RFC 8414 document (issuer alone), runs the
authorization-code flow with PKCE (S256) through the one token endpoint (the sandbox's
authorize endpoint consents at once and redirects with the code), refreshes, introspects,
revokes, and sees the revoked grant refused.

Usage: client_libraries.py TOKENSWAP_BINARY
Prints one line per check (never a token or code); exits 0 only when every check passed.
Run by EndToEndTests/ClientLibraryTests.swift; needs `pip install authlib requests-oauthlib`
(.ci/run installs them).
"""
import os
import signal
import socket
import subprocess
import sys
from urllib.parse import parse_qs, urlsplit

import requests
from authlib.common.security import generate_token
from authlib.integrations.base_client import OAuthError
from authlib.integrations.requests_client import OAuth2Session as AuthlibSession
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata, get_well_known_url
from requests_oauthlib import OAuth2Session as OAuthlibSession
from oauthlib.oauth2.rfc6749.errors import InvalidGrantError

CLIENT_ID = "libraries-app"
SCOPE = "sandbox"
failures = []
seen_values = []  # tokens and codes, which must never appear in tokenswap's output


def check(name, condition):
    print(("ok   " if condition else "FAIL ") + name, flush=True)
    if not condition:
        failures.append(name)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_tokenswap(binary, port):
    base = f"http://127.0.0.1:{port}"
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "TOKENSWAP_CLIENT_ID": CLIENT_ID,
        # RFC 8252 §7.3: a native app's loopback redirect.
        "TOKENSWAP_REDIRECT_URI": f"http://127.0.0.1:{port}/callback",
        "TOKENSWAP_PUBLIC_URL": base,
    }
    process = subprocess.Popen(
        [binary, "serve", "--sandbox", "--host", "127.0.0.1", "--port", str(port)],
        env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # Ready once it says it listens (the line scripts wait for); the caller's alarm bounds
    # the wait. What it printed so far is kept for the check that no secret is printed.
    process.startup_output = ""
    for line in process.stdout:
        process.startup_output += line
        if line.startswith("tokenswap listening on "):
            return process, base
    process.kill()
    sys.exit("tokenswap did not start: " + process.startup_output)


def discover(base):
    """The issuer is all an app is given; authlib builds the well-known URL (RFC 8414
    §3.1) and validates the document."""
    issuer = base + "/v1/spotify"
    answer = requests.get(get_well_known_url(issuer, external=True), timeout=10)
    check("metadata document is served", answer.status_code == 200)
    metadata = AuthorizationServerMetadata(answer.json())
    try:
        metadata.validate()
        check("metadata validates with authlib (RFC 8414)", True)
    except ValueError as error:
        check(f"metadata validates with authlib (RFC 8414): {error}", False)
    check("metadata issuer is the issuer", metadata["issuer"] == issuer)
    return metadata


def consent(authorization_url):
    """The user agent: the sandbox consents at once and redirects with the code."""
    answer = requests.get(authorization_url, allow_redirects=False, timeout=10)
    check("authorize redirects", answer.status_code == 302)
    location = answer.headers["Location"]
    seen_values.extend(parse_qs(urlsplit(location).query).get("code", []))
    return location


def authlib_flow(metadata, redirect_uri):
    # https://docs.authlib.org/en/latest/client/oauth2.html (OAuth2Session, PKCE)
    client = AuthlibSession(
        CLIENT_ID, scope=SCOPE, redirect_uri=redirect_uri, code_challenge_method="S256")
    code_verifier = generate_token(48)
    uri, state = client.create_authorization_url(
        metadata["authorization_endpoint"], code_verifier=code_verifier)
    check("authlib: the authorization URL carries an S256 challenge",
          "code_challenge_method=S256" in uri)
    authorization_response = consent(uri)
    token = client.fetch_token(
        metadata["token_endpoint"], authorization_response=authorization_response,
        code_verifier=code_verifier)
    seen_values.extend([token["access_token"], token["refresh_token"]])
    check("authlib: code + PKCE through /token gives tokens",
          token["token_type"] == "Bearer" and isinstance(token["expires_in"], int))

    # PKCE is checked for real: a second code with a wrong verifier is refused.
    uri, _ = client.create_authorization_url(
        metadata["authorization_endpoint"], code_verifier=generate_token(48))
    try:
        client.fetch_token(
            metadata["token_endpoint"], authorization_response=consent(uri),
            code_verifier=generate_token(48))
        check("authlib: a wrong code_verifier is refused", False)
    except OAuthError as error:
        check("authlib: a wrong code_verifier is refused", error.error == "invalid_grant")

    info = client.introspect_token(
        metadata["introspection_endpoint"], token=token["access_token"]).json()
    check("authlib: the access token introspects active",
          info.get("active") is True and info.get("client_id") == CLIENT_ID)

    refreshed = client.refresh_token(
        metadata["token_endpoint"], refresh_token=token["refresh_token"])
    seen_values.extend([refreshed["access_token"], refreshed["refresh_token"]])
    check("authlib: refresh gives a new access token and a rotated refresh token",
          refreshed["access_token"] != token["access_token"]
          and refreshed["refresh_token"] != token["refresh_token"])

    revoked = client.revoke_token(
        metadata["revocation_endpoint"], token=refreshed["refresh_token"],
        token_type_hint="refresh_token")
    check("authlib: revoke answers 200 forwarded",
          revoked.status_code == 200 and revoked.headers.get("Tokenswap-Revocation") == "forwarded")
    try:
        client.refresh_token(metadata["token_endpoint"], refresh_token=refreshed["refresh_token"])
        check("authlib: a revoked refresh token is refused", False)
    except OAuthError as error:
        check("authlib: a revoked refresh token is refused", error.error == "invalid_grant")
    info = client.introspect_token(
        metadata["introspection_endpoint"], token=refreshed["access_token"]).json()
    check("authlib: the revoked grant's access token is inactive", info == {"active": False})


def requests_oauthlib_flow(metadata, redirect_uri):
    # https://requests-oauthlib.readthedocs.io/en/latest/oauth2_workflow.html
    # Plain http on loopback for a local test, as its documentation says to allow it.
    os.environ["OAUTHLIB_INSECURE_TRANSPORT"] = "1"
    session = OAuthlibSession(CLIENT_ID, scope=[SCOPE], redirect_uri=redirect_uri, pkce="S256")
    authorization_url, state = session.authorization_url(metadata["authorization_endpoint"])
    check("requests-oauthlib: the authorization URL carries an S256 challenge",
          "code_challenge_method=S256" in authorization_url)
    authorization_response = consent(authorization_url)
    # A public client: no secret; client_id in the body.
    token = session.fetch_token(
        metadata["token_endpoint"], authorization_response=authorization_response,
        include_client_id=True)
    seen_values.extend([token["access_token"], token["refresh_token"]])
    check("requests-oauthlib: code + PKCE through /token gives tokens",
          token["token_type"] == "Bearer" and "refresh_token" in token)

    # Its default without include_client_id: the client_id as Basic credentials.
    second = OAuthlibSession(CLIENT_ID, scope=[SCOPE], redirect_uri=redirect_uri, pkce="S256")
    url, _ = second.authorization_url(metadata["authorization_endpoint"])
    basic = second.fetch_token(metadata["token_endpoint"], authorization_response=consent(url))
    seen_values.extend([basic["access_token"], basic["refresh_token"]])
    check("requests-oauthlib: client_id as Basic credentials works too", "access_token" in basic)

    refreshed = session.refresh_token(
        metadata["token_endpoint"], refresh_token=token["refresh_token"], client_id=CLIENT_ID)
    seen_values.extend([refreshed["access_token"], refreshed["refresh_token"]])
    check("requests-oauthlib: refresh rotates",
          refreshed["refresh_token"] != token["refresh_token"])

    # requests-oauthlib has no revocation call; the session posts RFC 7009's form.
    revoked = session.post(
        metadata["revocation_endpoint"],
        data={"token": refreshed["refresh_token"], "token_type_hint": "refresh_token",
              "client_id": CLIENT_ID})
    check("requests-oauthlib: revoke answers 200 {}",
          revoked.status_code == 200 and revoked.json() == {})
    try:
        session.refresh_token(
            metadata["token_endpoint"], refresh_token=refreshed["refresh_token"],
            client_id=CLIENT_ID)
        check("requests-oauthlib: a revoked refresh token is refused", False)
    except InvalidGrantError:
        check("requests-oauthlib: a revoked refresh token is refused", True)


def give_up(signum, frame):
    raise TimeoutError("the checks took over 90 s")


def main():
    binary = sys.argv[1]
    # Inside the test's own 120 s: a hung exchange fails the run here, so `finally` still
    # stops tokenswap instead of leaving it running when the test kills this script.
    signal.signal(signal.SIGALRM, give_up)
    signal.alarm(90)
    port = free_port()
    process, base = start_tokenswap(binary, port)
    redirect_uri = f"{base}/callback"
    try:
        metadata = discover(base)
        authlib_flow(metadata, redirect_uri)
        requests_oauthlib_flow(metadata, redirect_uri)
    except Exception as error:  # a library raising is a failed check, not a crash
        check(f"unexpected {type(error).__name__}", False)
    finally:
        signal.alarm(0)
        process.terminate()
        output, _ = process.communicate(timeout=20)
        output = process.startup_output + output
    check("tokenswap exits 0 on SIGTERM", process.returncode == 0)
    check("no token or code in tokenswap's output",
          not any(value and value in output for value in seen_values))
    print(f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
