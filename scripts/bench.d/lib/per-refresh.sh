# Shared by scripts/bench.d/allocs and scripts/bench.d/instructions (sourced, not run): a
# cost counted per refresh, deterministic unlike a time. Two runs of the same binary, one
# with FEW and one with MANY sequential `POST /v1/refresh` over one keep-alive connection
# against an nginx stub; the difference over (MANY - FEW) is the cost per refresh, with
# start-up, the swap and shutdown cancelled out.
# The caller sets few, many, stub_port, ts_port and defines `launch` (starts the binary
# under its counter, given the environment as arguments) and `counted` (prints the count
# after the process ended); then calls `per_refresh BINARY-ARG LABEL`. KEEP_WORK=1 keeps
# the scratch directory (the stub's files, the counters' output).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$root"
work="$(mktemp -d)"
cleanup() {
    [ -f "$work/stub.pid" ] && kill "$(cat "$work/stub.pid")" 2>/dev/null || true
    [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
command -v nginx >/dev/null || { apt-get update -qq && apt-get install -y -qq nginx >/dev/null; }

release_binary() { # [BINARY] -> the binary (default: the release build, as the Dockerfile's)
    if [ -n "${1:-}" ]; then echo "$1"; return; fi
    scripts/build-release >/dev/null
    echo "$(swift build -c release --scratch-path .build-release --show-bin-path)/tokenswap"
}

start_stub() {
    local body='{"access_token":"BQDbenchAccessToken","token_type":"Bearer","scope":"user-read-private","expires_in":3600,"refresh_token":"AQBbenchRefreshToken"}'
    cat >"$work/stub.conf" <<CONF
worker_processes 1;
pid $work/stub.pid;
error_log $work/stub-error.log;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $work/body;
    server {
        listen 127.0.0.1:$stub_port;
        location / { default_type application/json; return 200 '$body'; }
    }
}
CONF
    nginx -c "$work/stub.conf"
}

# One process: swap once, then `count` refreshes on one connection; prints its count.
run_counted() { # binary count
    local key
    key="$("$1" keygen)"
    launch "$1" TOKENSWAP_CLIENT_ID=bench-client TOKENSWAP_CLIENT_SECRET=bench-secret \
        TOKENSWAP_REDIRECT_URI=bench://callback TOKENSWAP_ENCRYPTION_KEYS="$key" \
        TOKENSWAP_TOKEN_URL="http://127.0.0.1:$stub_port/api/token" TOKENSWAP_LOG_LEVEL=warning \
        >"$work/ts.log" 2>&1 &
    local pid=$!
    for _ in $(seq 600); do grep -q listening "$work/ts.log" && break; sleep 0.05; done
    python3 - "$ts_port" "$2" <<'PY'
import http.client, json, sys
port, count = int(sys.argv[1]), int(sys.argv[2])
c = http.client.HTTPConnection("127.0.0.1", port)
form = {"Content-Type": "application/x-www-form-urlencoded"}
c.request("POST", "/v1/swap", "code=bench-code", form)
sealed = json.loads(c.getresponse().read())["refresh_token"]
for _ in range(count):
    c.request("POST", "/v1/refresh", "refresh_token=" + sealed, form)
    r = c.getresponse()
    r.read()
    assert r.status == 200, r.status
c.close()
PY
    kill -TERM "$pid"
    wait "$pid" || true
    counted
}

per_refresh() { # binary label [the binary's name to print]
    start_stub
    local a b
    a="$(run_counted "$1" "$few")"
    b="$(run_counted "$1" "$many")"
    echo "# ${3:-$1}"
    echo "# $2: $few refreshes $a, $many refreshes $b"
    awk -v a="$a" -v b="$b" -v n=$((many - few)) -v label="$2" \
        'BEGIN { printf "%s per refresh: %.1f\n", label, (b - a) / n }'
}
