# shellcheck shell=bash
# The one shell library of the benchmarks (scripts/bench.d/*) and the proofs
# (scripts/prove/*), sourced, not run. Sourcing defines functions and a few variables
# and does nothing else; a script calls what it needs:
#   processes   ts_pids, ts_workdir, ts_cleanup, ts_stop, ts_fds, ts_rss_kib
#   tools       need, release_binary
#   providers   start_stub (nginx, for throughput and counts), start_stub_provider
#               (Tests/Fixtures/provider_stub.py, the tests' stub: faults, TLS, modes)
#   tokenswap   swap_bench_setup, bench_settings, start_tokenswap (fixed port), prove_start_tokenswap
#               (port 0), wait_listening, seal_token
#   proofs      prove_source, prove_binary, verdict
#   figures     ticks, nginx_pids, run, to_us, field, median, per_refresh

ts_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
prove_lib="$ts_root/scripts/prove/lib"
# Every process a script starts, ended at exit by pid (never by name).
ts_pids=()
hz="$(getconf CLK_TCK)"

# --- processes ------------------------------------------------------------------------

# ts_workdir: a scratch folder in $work, removed at exit with everything ts_pids holds
# and every nginx whose pid file is in it (KEEP_WORK=1 keeps the folder).
ts_workdir() {
    work="$(mktemp -d)"
    trap ts_cleanup EXIT
}

ts_cleanup() {
    local pid f
    for pid in "${ts_pids[@]}"; do
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    done
    if [ -n "${work:-}" ] && [ -d "$work" ]; then
        for f in "$work"/*.pid; do
            [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
        done
        [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
    fi
    return 0
}

# ts_stop PID: SIGTERM, wait (at most 20 s, then SIGKILL); sets stop_status (not in a
# subshell: only this shell can wait for its child).
ts_stop() {
    local pid="$1"
    kill -TERM "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; stop_status=$?; return; }
    for _ in $(seq 200); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    stop_status=$?
}

ts_fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
ts_rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null; }

# --- tools ----------------------------------------------------------------------------

# need COMMAND [PACKAGE]: installs PACKAGE (default COMMAND) with apt when COMMAND is missing
# (the proofs and benchmarks install what they drive: wrk, slowhttptest, rsync, nginx…).
need() {
    command -v "$1" >/dev/null || { apt-get update -qq && apt-get install -y -qq "${2:-$1}" >/dev/null; }
}

# release_binary [BINARY]: BINARY, else $BENCH_BINARY, else the release binary exactly as
# the Dockerfile builds it (scripts/build-release, scratch .build-release).
release_binary() {
    if [ -n "${1:-}" ]; then echo "$1"; return; fi
    if [ -n "${BENCH_BINARY:-}" ]; then echo "$BENCH_BINARY"; return; fi
    "$ts_root/scripts/build-release"
}

# --- providers ------------------------------------------------------------------------

# The HTTP settings of the throughput benchmarks' nginx instances.
nginx_keepalive="    server_tokens off;
    keepalive_requests 100000;
    keepalive_timeout 60s;"

# nginx_conf NAME WORKERS SERVER-BLOCK [HTTP-SETTINGS]: starts an nginx from $work/NAME.conf
# (its pid file $work/NAME.pid, so ts_cleanup ends it). HTTP-SETTINGS default to
# $nginx_keepalive.
nginx_conf() {
    cat >"$work/$1.conf" <<CONF
worker_processes $2;
pid $work/$1.pid;
error_log $work/$1-error.log;
events { worker_connections 4096; }
http {
    access_log off;
${4-$nginx_keepalive}
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

nginx_pids() { # NAME -> the nginx's master and workers
    local master
    master="$(cat "$work/$1.pid")"
    echo "$master $(pgrep -P "$master" | tr '\n' ' ')"
}

# A Spotify-shaped token answer. Its refresh_token is the raw token tokenswap sealed at
# the swap, so a refresh does not rotate (the common Spotify case) and tokenswap answers
# with the client's sealed token as is.
spotify_body='{"access_token":"BQDbenchAccessTokenxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","token_type":"Bearer","scope":"user-read-private user-read-email","expires_in":3600,"refresh_token":"AQBbenchRefreshTokenyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"}'

# start_stub [BODY [HTTP-SETTINGS]]: the nginx stub provider on $stub_port, one worker,
# every request answered 200 with BODY (default $spotify_body).
start_stub() {
    local body="${1:-$spotify_body}"
    nginx_conf stub 1 "    server {
        listen 127.0.0.1:$stub_port;
        location / {
            default_type application/json;
            return 200 '$body';
        }
    }" "${2-$nginx_keepalive}"
}

# start_stub_provider MODE LOGPREFIX [ARGS...]: Tests/Fixtures/provider_stub.py --mode
# MODE (ok, 5xx, 429, 400, garbage, slow, reset, midbody, paths, …: its docstring);
# sets stub_pid and stub_port.
start_stub_provider() {
    local mode="$1" prefix="$2"
    shift 2
    : >"$prefix.out"
    python3 "$ts_root/Tests/Fixtures/provider_stub.py" --mode "$mode" "$@" \
        >"$prefix.out" 2>"$prefix.err" </dev/null &
    stub_pid=$!
    ts_pids+=("$stub_pid")
    stub_port=""
    for _ in $(seq 100); do
        stub_port=$(sed -n 's/^PORT \([0-9]*\).*$/\1/p' "$prefix.out")
        [ -n "$stub_port" ] && return 0
        sleep 0.05
    done
    echo "stub provider did not start" >&2
    cat "$prefix.err" >&2
    return 1
}

# --- tokenswap ------------------------------------------------------------------------

# bench_settings KEY: sets the array bench_env, a real configuration (plain http to the
# stub on $stub_port, access log off: level warning) for `env "${bench_env[@]}" …`.
bench_settings() {
    bench_env=(TOKENSWAP_CLIENT_ID=bench-client TOKENSWAP_CLIENT_SECRET=bench-secret
        TOKENSWAP_REDIRECT_URI=bench://callback TOKENSWAP_ENCRYPTION_KEYS="$1"
        TOKENSWAP_TOKEN_URL="http://127.0.0.1:$stub_port/api/token" TOKENSWAP_LOG_LEVEL=warning)
}

# wait_listening FILE [TRIES]: waits (TRIES × 50 ms, default 100) for tokenswap's
# listening line in FILE.
wait_listening() {
    for _ in $(seq "${2:-100}"); do
        grep -qs listening "$1" && return 0
        sleep 0.05
    done
    return 1
}

# start_tokenswap NAME PORT [VAR=value...]: $bin serve on PORT with bench_settings $key
# plus the extra settings (e.g. TLS) and SWAP_BENCH_SERVE_FLAGS; sets NAME_pid and waits
# for the listening line.
start_tokenswap() {
    local name="$1" port="$2"
    shift 2
    bench_settings "$key"
    # shellcheck disable=SC2086
    env "${bench_env[@]}" "$@" "$bin" serve --host 127.0.0.1 --port "$port" \
        ${SWAP_BENCH_SERVE_FLAGS:-} >"$work/$name.log" 2>&1 &
    printf -v "${name}_pid" '%s' "$!"
    ts_pids+=("$!")
    wait_listening "$work/$name.log" || true
    sleep 0.2
}

# swap_bench_setup: what bench.d/swap, tls and ab share before their runs: wrk and nginx,
# $bin (release_binary, announced) and $key.
swap_bench_setup() {
    need wrk
    need nginx
    if [ -n "${BENCH_BINARY:-}" ]; then
        echo "# binary: $BENCH_BINARY (BENCH_BINARY)"
    else
        echo "# build: scripts/build-release (the Dockerfile's flags, scratch .build-release)"
    fi
    bin="$(release_binary)"
    key="$("$bin" keygen)"
}

# prove_start_tokenswap LOGPREFIX ARGS...: starts `$bin serve --host 127.0.0.1 --port 0
# ARGS` (environment as exported by the caller); sets ts_pid and ts_port.
prove_start_tokenswap() {
    local prefix="$1"
    shift
    : >"$prefix.out"
    "$bin" serve --host 127.0.0.1 --port 0 "$@" >"$prefix.out" 2>"$prefix.err" &
    ts_pid=$!
    ts_pids+=("$ts_pid")
    ts_port=""
    for _ in $(seq 200); do
        ts_port=$(sed -n 's/^tokenswap listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$prefix.out")
        [ -n "$ts_port" ] && return 0
        kill -0 "$ts_pid" 2>/dev/null || break
        sleep 0.05
    done
    echo "prove: tokenswap did not start:" >&2
    cat "$prefix.out" "$prefix.err" >&2
    return 1
}

# seal_token BASE-URL [curl options...]: one swap through BASE-URL gives the sealed
# refresh token every benchmarked request sends, written into $work/refresh.lua.
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

# --- rotating refreshes (CONTRACT §12's replay window under load) ---------------------

# A token answer whose refresh_token is new on every call (nginx's $request_id), as a
# rotating provider's: each refresh seals a new token, and a client that always sends the
# newest one never repeats a token, so every request is a plain refresh with the replay
# window on (a claim, a provider call, a kept answer), never a replay.
rotating_body='{"access_token":"BQDbenchAccessTokenxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","token_type":"Bearer","scope":"user-read-private user-read-email","expires_in":3600,"refresh_token":"AQBbenchRefreshTokenyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy$request_id"}'

# rotating_refresh_lua BASE-URL COUNT NAME: COUNT swaps through BASE-URL give the first
# sealed tokens (one curl, one connection), and $work/NAME.lua refreshes with them, each
# thread of wrk with its own, then always with the token the last answer rotated to (the
# queue of its own answers): no sealed token is sent twice.
rotating_refresh_lua() {
    local base="$1" count="$2" name="$3" i
    for i in $(seq 1 "$count"); do
        [ "$i" -eq 1 ] || echo next
        printf 'url = "%s/v1/swap"\ndata = "code=bench-%s"\n' "$base" "$i"
    done >"$work/$name-swaps.curl"
    curl -s -K "$work/$name-swaps.curl" \
        | grep -o '"refresh_token":"[^"]*"' | sed 's/.*:"\(.*\)"/\1/' >"$work/$name-seeds"
    [ "$(wc -l <"$work/$name-seeds")" -eq "$count" ] \
        || { echo "bench: $count swaps gave $(wc -l <"$work/$name-seeds") tokens" >&2; exit 1; }
    cat >"$work/$name.lua" <<LUA
local threads, queue, head, tail = 0, {}, 1, 0
local headers = { ["Content-Type"] = "application/x-www-form-urlencoded" }
setup = function(thread) thread:set("id", threads); threads = threads + 1 end
init = function(args)
    local line = 0
    for token in io.lines("$work/$name-seeds") do
        if line % 2 == id then tail = tail + 1; queue[tail] = token end
        line = line + 1
    end
end
request = function()
    local token = queue[head]
    queue[head] = nil
    head = head + 1
    return wrk.format("POST", "/v1/refresh", headers, "refresh_token=" .. (token or "none"))
end
response = function(status, headers, body)
    local token = body:match('"refresh_token":"([^"]+)"')
    if token then tail = tail + 1; queue[tail] = token end
end
LUA
}

# rss_kib PID: the resident set of PID, in KiB (/proc/PID/status VmRSS).
rss_kib() {
    awk '/^VmRSS:/ {print $2}' "/proc/$1/status"
}

# --- proofs ---------------------------------------------------------------------------

# prove_source: the folder to build from. The working tree is shared with engineers
# who edit it while we run, so by default the committed HEAD is exported (git archive)
# to $PROVE_SNAPSHOT (default /tmp/prove-src) and built there; PROVE_SOURCE=tree builds
# the working tree as it is.
prove_source() {
    if [ "${PROVE_SOURCE:-snapshot}" = tree ]; then
        echo "$ts_root"
        return
    fi
    local dir="${PROVE_SNAPSHOT:-/tmp/prove-src}" fresh
    need rsync >&2 || { echo "prove: rsync is needed for the snapshot (or PROVE_SOURCE=tree)" >&2; return 1; }
    mkdir -p "$dir"
    fresh=$(mktemp -d)
    (cd "$ts_root" && git archive HEAD) | tar -x -C "$fresh"
    # rsync by checksum: files gone from HEAD are deleted, unchanged files keep their
    # mtime (so the scratch folders rebuild only what changed); .build* stays.
    rsync -rlc --delete --exclude '/.build*' --exclude '/.prove-commit' "$fresh/" "$dir/"
    rm -rf "$fresh"
    (cd "$ts_root" && git rev-parse --short HEAD) >"$dir/.prove-commit"
    echo "$dir"
}

# The release binary: $TOKENSWAP_BINARY, else built into .build-prove of prove_source.
prove_binary() {
    if [ -n "${TOKENSWAP_BINARY:-}" ]; then
        echo "$TOKENSWAP_BINARY"
        return
    fi
    local src
    src=$(prove_source)
    (cd "$src" && swift build -c release --product tokenswap --scratch-path .build-prove \
        >/tmp/prove-build.log 2>&1) || { echo "prove: release build failed (/tmp/prove-build.log)" >&2; exit 2; }
    echo "$src/.build-prove/release/tokenswap"
}

# verdict NAME OK DETAIL: one "PROOF: NAME: PASS|FAIL: DETAIL" line ($prove_name), a FAIL
# counted in $failures.
verdict() {
    if [ "$2" = 1 ]; then
        echo "$prove_name: $1: PASS: $3"
    else
        echo "$prove_name: $1: FAIL: $3"
        failures=$((failures + 1))
    fi
}

# --- figures --------------------------------------------------------------------------

ticks() { # pids... -> utime+stime summed, in clock ticks
    local total=0 p
    for p in "$@"; do
        total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat")))
    done
    echo "$total"
}

run() { # name base-url pids...: one wrk run of $work/refresh.lua; req/s, latency, CPU/request
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

to_us() { # 123.45us | 1.23ms | 1.2s -> microseconds
    awk -v v="$1" 'BEGIN {
        if (v ~ /us$/) { sub(/us$/, "", v); print v + 0 }
        else if (v ~ /ms$/) { sub(/ms$/, "", v); print v * 1000 }
        else if (v ~ /s$/) { sub(/s$/, "", v); print v * 1000000 } }'
}
field() { echo "$2" | sed "s/.* $1=\([^ ]*\).*/\1/"; }
# BENCH_PIN=1: what is measured runs on the last CPU and the load (wrk, clients, the nginx
# stub) on the others (taskset), so the load shares neither a core nor its caches with
# the process measured; both sides of a comparison are pinned alike. `pin_measured PID…`
# and `pin_load PID…` move running processes (every thread); `$on_load` prefixes a load
# command (empty when not pinning).
on_load=()
if [ -n "${BENCH_PIN:-}" ]; then
    pin_cpu=$(($(getconf _NPROCESSORS_ONLN) - 1))
    [ "$pin_cpu" -ge 1 ] || { echo "bench: BENCH_PIN needs two CPUs" >&2; exit 2; }
    on_load=(taskset -c "0-$((pin_cpu - 1))")
fi
pin_measured() {
    [ -n "${BENCH_PIN:-}" ] || return 0
    local pid
    for pid in "$@"; do taskset -a -p -c "$pin_cpu" "$pid" >/dev/null; done
}
pin_load() {
    [ -n "${BENCH_PIN:-}" ] || return 0
    local pid
    for pid in "$@"; do taskset -a -p -c "0-$((pin_cpu - 1))" "$pid" >/dev/null; done
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# A cost counted per refresh, deterministic unlike a time (scripts/bench.d/allocs and
# instructions): two runs of the same binary, one with $few and one with $many sequential
# `POST /v1/refresh` over one keep-alive connection against an nginx stub; the difference
# over (many - few) is the cost per refresh, with start-up, the swap and shutdown
# cancelled out. The caller sets few, many, stub_port, ts_port, work and defines `launch`
# (starts the binary under its counter, given the environment as arguments) and `counted`
# (prints the count after the process ended); then calls `per_refresh BINARY LABEL`.

# The per-refresh stub's answer and settings (nginx defaults): the counts in
# BENCHMARKS.md were taken with exactly these.
per_refresh_body='{"access_token":"BQDbenchAccessToken","token_type":"Bearer","scope":"user-read-private","expires_in":3600,"refresh_token":"AQBbenchRefreshToken"}'
# The same answer with a refresh_token new on every call (nginx's $request_id): a provider
# that rotates refresh tokens (PER_REFRESH_ROTATE, DPOP_ROTATE).
per_refresh_rotating_body='{"access_token":"BQDbenchAccessToken","token_type":"Bearer","scope":"user-read-private","expires_in":3600,"refresh_token":"AQBbenchRefreshToken$request_id"}'

# One process: swap once, then `count` refreshes on one connection; prints its count.
run_counted() { # binary count
    local key
    key="$("$1" keygen)"
    bench_settings "$key"
    # PER_REFRESH_DPOP=1: every refresh carries a DPoP proof for a bound token (CONTRACT
    # §13), made beforehand by Python's `cryptography` so only tokenswap's side is counted
    # (the client: scripts/bench.d/lib/counted_requests.py).
    [ "${PER_REFRESH_DPOP:-}" = 1 ] && bench_env+=(TOKENSWAP_DPOP_MAX_AGE_SECONDS=600)
    # PER_REFRESH_ENV: more settings, space-separated KEY=VALUE words, for one binary counted
    # both ways (`PER_REFRESH_ENV=TOKENSWAP_REFRESH_REPLAY_SECONDS=0`: the window off).
    if [ -n "${PER_REFRESH_ENV:-}" ]; then
        local extra
        read -r -a extra <<<"$PER_REFRESH_ENV"
        bench_env+=("${extra[@]}")
    fi
    # The last run's log goes first: the shell truncates it in the background job, maybe
    # after wait_listening has read the old listening line.
    rm -f "$work/ts.log"
    launch "$1" "${bench_env[@]}" >"$work/ts.log" 2>&1 &
    local pid=$!
    wait_listening "$work/ts.log" 600 || true
    local flags=()
    [ "${PER_REFRESH_ROTATE:-}" = 1 ] && flags+=(--rotate)
    [ "${PER_REFRESH_DPOP:-}" = 1 ] && flags+=(--dpop)
    python3 "$ts_root/scripts/bench.d/lib/counted_requests.py" refresh "$ts_port" "$2" \
        "${flags[@]}"
    kill -TERM "$pid"
    wait "$pid" || true
    counted
}

per_refresh() { # binary label [the binary's name to print]
    need nginx
    # PER_REFRESH_ROTATE=1: the stub rotates the refresh token on every call and the client
    # always sends the newest, so no refresh repeats a token (CONTRACT §12's window then
    # replays nothing; unset, every refresh after the first repeats the swap's token).
    if [ "${PER_REFRESH_ROTATE:-}" = 1 ]; then
        start_stub "$per_refresh_rotating_body" ""
    else
        start_stub "$per_refresh_body" ""
    fi
    local a b
    a="$(run_counted "$1" "$few")"
    b="$(run_counted "$1" "$many")"
    echo "# ${3:-$1}"
    echo "# $2: $few refreshes $a, $many refreshes $b"
    awk -v a="$a" -v b="$b" -v n=$((many - few)) -v label="$2" \
        'BEGIN { printf "%s per refresh: %.1f\n", label, (b - a) / n }'
}
