# Shared by scripts/bench.d/swap and scripts/bench.d/tls (sourced, not run): the release
# build as the Dockerfile makes it, the nginx stub provider answering a Spotify-shaped
# token JSON, tokenswap with a real configuration, one sealed refresh token and the wrk
# script that refreshes it, and the wrk run that reports req/s, latency and CPU per
# request. The caller sets root, work, pids, stub_port, connections and duration.

need() { command -v "$1" >/dev/null || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }; }
need wrk wrk
need nginx nginx

# The release binary exactly as the Dockerfile builds it (scripts/build-release), or
# BENCH_BINARY (an older build, for a before/after run in the same conditions).
if [ -n "${BENCH_BINARY:-}" ]; then
    bin="$BENCH_BINARY"
    echo "# binary: $bin (BENCH_BINARY)"
else
    echo "# build: scripts/build-release (the Dockerfile's flags, scratch .build-release)"
    bin="$("$root/scripts/build-release")"
fi

nginx_conf() { # name workers server-block
    cat >"$work/$1.conf" <<CONF
worker_processes $2;
pid $work/$1.pid;
error_log $work/$1-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    server_tokens off;
    keepalive_requests 100000;
    keepalive_timeout 60s;
    client_body_temp_path $work/$1-body;
    proxy_temp_path $work/$1-proxy;
    fastcgi_temp_path $work/$1-fastcgi;
    uwsgi_temp_path $work/$1-uwsgi;
    scgi_temp_path $work/$1-scgi;
$3
}
CONF
    nginx -c "$work/$1.conf"
}

# The stub provider: every POST gets the same Spotify-shaped answer. Its refresh_token is
# the raw token tokenswap sealed at the swap, so a refresh does not rotate (the common
# Spotify case) and tokenswap answers with the client's sealed token as is.
start_stub() {
    local body='{"access_token":"BQDbenchAccessTokenxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","token_type":"Bearer","scope":"user-read-private user-read-email","expires_in":3600,"refresh_token":"AQBbenchRefreshTokenyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"}'
    nginx_conf stub 1 "    server {
        listen 127.0.0.1:$stub_port;
        location / {
            default_type application/json;
            return 200 '$body';
        }
    }"
}

# tokenswap with a real configuration: plain http to the stub on loopback, access log
# off (level warning). Usage: start_tokenswap NAME PORT [VAR=value...] (extra settings,
# e.g. TLS); sets NAME_pid and waits for the listening line.
key="$("$bin" keygen)"
start_tokenswap() {
    local name="$1" port="$2"
    shift 2
    env TOKENSWAP_CLIENT_ID=bench-client TOKENSWAP_CLIENT_SECRET=bench-secret \
        TOKENSWAP_REDIRECT_URI=bench://callback TOKENSWAP_ENCRYPTION_KEYS="$key" \
        TOKENSWAP_TOKEN_URL="http://127.0.0.1:$stub_port/api/token" TOKENSWAP_LOG_LEVEL=warning \
        "$@" "$bin" serve --host 127.0.0.1 --port "$port" ${SWAP_BENCH_SERVE_FLAGS:-} \
        >"$work/$name.log" 2>&1 &
    printf -v "${name}_pid" '%s' "$!"
    pids+=("$!")
    for _ in $(seq 100); do grep -q listening "$work/$name.log" && break; sleep 0.05; done
    sleep 0.2
}

# One swap through BASE-URL gives the sealed refresh token every benchmarked request
# sends, written into refresh.lua. Usage: seal_token BASE-URL [curl options...]
seal_token() {
    local base="$1"
    shift
    sealed="$(curl -s "$@" "$base/v1/swap" -d code=bench-code \
        | sed -n 's/.*"refresh_token":"\([^"]*\)".*/\1/p')"
    [ -n "$sealed" ] || { echo "bench: the swap gave no refresh token" >&2; exit 1; }
    local check
    check="$(curl -s "$@" -o /dev/null -w '%{http_code}' "$base/v1/refresh" -d "refresh_token=$sealed")"
    [ "$check" = 200 ] || { echo "bench: refresh answered $check" >&2; exit 1; }
    cat >"$work/refresh.lua" <<LUA
wrk.method = "POST"
wrk.path = "/v1/refresh"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.body = "refresh_token=$sealed"
LUA
}

ticks() { # pids... -> utime+stime summed, in clock ticks
    local total=0 p
    for p in "$@"; do
        total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat")))
    done
    echo "$total"
}
nginx_pids() { # NAME -> the nginx's master and workers
    local master
    master="$(cat "$work/$1.pid")"
    echo "$master $(pgrep -P "$master" | tr '\n' ' ')"
}
hz="$(getconf CLK_TCK)"

run() { # name base-url pids...
    local name="$1" base="$2"
    shift 2
    local before after out
    before="$(ticks "$@")"
    out="$(wrk -t2 -c"$connections" -d"${duration}s" --latency -s "$work/refresh.lua" "$base")"
    after="$(ticks "$@")"
    local rps p50 p99 requests errors
    rps="$(echo "$out" | awk '/Requests\/sec/ {print $2}')"
    p50="$(echo "$out" | awk '$1=="50%" {print $2}')"
    p99="$(echo "$out" | awk '$1=="99%" {print $2}')"
    requests="$(echo "$out" | awk '/requests in/ {print $1}')"
    errors="$(echo "$out" | awk '/Non-2xx|Socket errors/' | tr '\n' ' ')"
    local cpu_us
    cpu_us="$(awk -v t=$((after - before)) -v hz="$hz" -v n="$requests" 'BEGIN { printf "%.1f", t * 1e6 / hz / n }')"
    echo "$name c=$connections rps=$rps p50=$p50 p99=$p99 cpu_us_per_req=$cpu_us $errors"
}

to_us() {
    awk -v v="$1" 'BEGIN {
        if (v ~ /us$/) { sub(/us$/, "", v); print v + 0 }
        else if (v ~ /ms$/) { sub(/ms$/, "", v); print v * 1000 }
        else if (v ~ /s$/) { sub(/s$/, "", v); print v * 1000000 } }'
}
field() { echo "$2" | sed "s/.* $1=\([^ ]*\).*/\1/"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

