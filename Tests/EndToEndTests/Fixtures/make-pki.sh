#!/usr/bin/env bash
# Builds the end-to-end test PKI in $1 with the openssl CLI:
#   ca.pem        the CA tokenswap is told to trust (TOKENSWAP_CA_FILE)
#   other-ca.pem  a CA that signed nothing the stub serves (the wrong-CA case)
#   good.pem      localhost, 127.0.0.1, signed by ca.pem; key good.key
# Keys exist only in the temporary folder.
set -euo pipefail
dir="$1"
mkdir -p "$dir"
cd "$dir"

ca() { # name subject
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$1.key" \
        -out "$1.pem" -days 2 -subj "/CN=$2" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        2>/dev/null
}

ca ca "tokenswap e2e CA"
ca other-ca "tokenswap e2e other CA"
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout good.key \
    -out good.csr -subj "/CN=localhost" 2>/dev/null
printf 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n' >good.ext
openssl x509 -req -in good.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
    -extfile good.ext -out good.pem 2>/dev/null
echo ok
