#!/usr/bin/env bash
# Builds the test PKI in $1 with the openssl CLI: two CAs and leaf certificates
#   good.pem      localhost, 127.0.0.1, ::1        signed by ca.pem
#   otherhost.pem other.invalid                    signed by ca.pem
#   expired.pem   localhost, 127.0.0.1 (2020-01)   signed by ca.pem
#   foreign.pem   localhost, 127.0.0.1, ::1        signed by other-ca.pem
# Each leaf's key is NAME.key. Keys exist only in the temporary folder. Used by the
# client and end-to-end tests (TestSupport's TestPKI), the client benchmark and
# scripts/prove.
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

csr() { # name cn
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$1.key" \
        -out "$1.csr" -subj "/CN=$2" 2>/dev/null
}

ext() { # san
    printf 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=%s\n' "$1"
}

sign() { # name ca san
    ext "$3" >"$1.ext"
    openssl x509 -req -in "$1.csr" -CA "$2.pem" -CAkey "$2.key" -CAcreateserial \
        -days 2 -extfile "$1.ext" -out "$1.pem" 2>/dev/null
}

ca ca "tokenswap test CA"
ca other-ca "tokenswap other CA"

csr good localhost && sign good ca "DNS:localhost,IP:127.0.0.1,IP:::1"
csr otherhost other.invalid && sign otherhost ca "DNS:other.invalid"
csr foreign localhost && sign foreign other-ca "DNS:localhost,IP:127.0.0.1,IP:::1"

# An expired leaf needs explicit dates, which only `openssl ca` takes in OpenSSL 3.0.
csr expired localhost
ext "DNS:localhost,IP:127.0.0.1,IP:::1" >expired.ext
mkdir -p cadb && : >cadb/index.txt && echo 01 >cadb/serial
cat >ca.cnf <<CNF
[ca]
default_ca = test
[test]
database = cadb/index.txt
serial = cadb/serial
new_certs_dir = cadb
default_md = sha256
policy = any
[any]
commonName = supplied
CNF
openssl ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in expired.csr -out expired.pem \
    -startdate 20200101000000Z -enddate 20200102000000Z -extfile expired.ext -notext 2>/dev/null
echo ok
