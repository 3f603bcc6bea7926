# Shared by scripts/prove/*: the binary, starting tokenswap on a free loopback port,
# cleanup of what a script started (by pid, never by name).
# shellcheck shell=bash

prove_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
prove_lib="$prove_root/scripts/prove/lib"
prove_pids=()

# prove_source: the folder to build from. The working tree is shared with engineers
# who edit it while we run, so by default the committed HEAD is exported (git archive)
# to $PROVE_SNAPSHOT (default /tmp/prove-src) and built there; PROVE_SOURCE=tree builds
# the working tree as it is.
prove_source() {
    if [ "${PROVE_SOURCE:-snapshot}" = tree ]; then
        echo "$prove_root"
        return
    fi
    local dir="${PROVE_SNAPSHOT:-/tmp/prove-src}" fresh
    mkdir -p "$dir"
    fresh=$(mktemp -d)
    (cd "$prove_root" && git archive HEAD) | tar -x -C "$fresh"
    # rsync by checksum: files gone from HEAD are deleted, unchanged files keep their
    # mtime (so the scratch folders rebuild only what changed); .build* stays.
    rsync -rlc --delete --exclude '/.build*' --exclude '/.prove-commit' "$fresh/" "$dir/"
    rm -rf "$fresh"
    (cd "$prove_root" && git rev-parse --short HEAD) >"$dir/.prove-commit"
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

# prove_start_tokenswap LOGPREFIX ARGS...: starts `tokenswap serve --host 127.0.0.1
# --port 0 ARGS` (environment as exported by the caller); sets ts_pid and ts_port.
prove_start_tokenswap() {
    local prefix="$1"
    shift
    : >"$prefix.out"
    "$bin" serve --host 127.0.0.1 --port 0 "$@" >"$prefix.out" 2>"$prefix.err" &
    ts_pid=$!
    prove_pids+=("$ts_pid")
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

# prove_stop PID: SIGTERM, wait (at most 20 s, then SIGKILL); sets stop_status (not in a
# subshell: only this shell can wait for its child).
prove_stop() {
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

prove_cleanup() {
    local pid
    for pid in "${prove_pids[@]}"; do
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    done
    return 0
}

prove_fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
prove_rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null; }

# prove_stub MODE LOGPREFIX [ARGS...]: starts lib/stub_provider.py; sets stub_pid, stub_port.
prove_stub() {
    local mode="$1" prefix="$2"
    shift 2
    : >"$prefix.out"
    python3 "$prove_lib/stub_provider.py" --mode "$mode" "$@" >"$prefix.out" 2>"$prefix.err" &
    stub_pid=$!
    prove_pids+=("$stub_pid")
    stub_port=""
    for _ in $(seq 100); do
        stub_port=$(sed -n 's/^PORT \([0-9]*\)$/\1/p' "$prefix.out")
        [ -n "$stub_port" ] && return 0
        sleep 0.05
    done
    echo "prove: stub provider did not start" >&2
    cat "$prefix.err" >&2
    return 1
}
