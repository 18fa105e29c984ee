#!/usr/bin/env bash
# Smoke run of every bench program: each one in turn, at its smallest size for a few seconds,
# with the debug build by default. A program passes when it exits 0 and prints its figures; the
# figures themselves are never judged (this is not a timed test). Exits non-zero if any failed.
# Usage: bench/smoke.sh            (builds first: cargo build -p backend -p bench)
# BENCH_BIN picks the binaries (default ${CARGO_TARGET_DIR:-target}/debug); SMOKE_NO_BUILD=1
# skips the build; SMOKE_TIMEOUT bounds each program (seconds, default 300: a hang is a failure).
# Needs PostgreSQL at BENCH_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres) and,
# for files.sh, s3s-fs (S3S_FS_BIN, as in files.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
export BENCH_BIN=${BENCH_BIN:-${CARGO_TARGET_DIR:-target}/debug}
LIMIT=${SMOKE_TIMEOUT:-300}
LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT

if [ -z "${SMOKE_NO_BUILD:-}" ]; then
  cargo build -p backend -p bench || { echo "FAIL build"; exit 1; }
fi

started=$(date +%s)
failed=()

# check NAME PATTERN COMMAND...: runs COMMAND, passes when it exits 0 and its output has a line
# matching PATTERN (the line with its figures).
check() {
  local name=$1 pattern=$2
  shift 2
  local log="$LOGS/${name//[^A-Za-z0-9_.-]/_}.log" t0 rc
  t0=$(date +%s)
  # The in-process benches use SQLite unless given a database: an inherited DATABASE_URL is not theirs.
  env -u DATABASE_URL timeout --kill-after=10 "$LIMIT" "$@" </dev/null >"$log" 2>&1
  rc=$?
  local took=$(($(date +%s) - t0))
  if [ "$rc" -eq 0 ] && grep -Eq "$pattern" "$log"; then
    printf 'PASS  %-44s %4ss\n' "$name" "$took"
  else
    if [ "$rc" -eq 0 ]; then
      why="exit 0 but no line matching /$pattern/"
    elif [ "$rc" -eq 124 ]; then
      why="stopped after ${LIMIT}s"
    else
      why="exit $rc"
    fi
    printf 'FAIL  %-44s %4ss  (%s)\n' "$name" "$took" "$why"
    # The cause first: a backtrace pushes it out of the output's last lines.
    grep -E '^Error|panicked at|failed: ' "$log" | head -n 8 | sed 's/^/      ! /'
    tail -n 15 "$log" | sed 's/^/      | /'
    failed+=("$name")
  fi
}

# The nodes the drivers start inherit a small pool (and so a small lock pool): the smoke shares
# PostgreSQL's 100 connections with the Rust suite's servers, and a node refused one waits 10 s
# and answers 500. Its few sockets and commands need no more.
export DATABASE_POOL_SIZE=${DATABASE_POOL_SIZE:-8}

B=$BENCH_BIN
check "catalogue_bench" 'p99 .*x the trivial route' \
  "$B/catalogue_bench" --rate 50 --seconds 1
# Every command answered: a lone client (it shares with an account of its own) and two.
check "documents_bench --clients 1" '^commands: .*, 0 other errors\)' \
  "$B/documents_bench" --clients 1 --seconds 1 --warmup 0
check "documents_bench --clients 2" '^commands: .*, 0 other errors\)' \
  "$B/documents_bench" --clients 2 --seconds 1 --warmup 0
check "rebuild_bench" '^ratio: rebuild' \
  "$B/rebuild_bench" --events 2000 --users 20 --rebuilds 1
SWAP_DIR=$LOGS/swap
mkdir -p "$SWAP_DIR"
check "rebuild_bench generate + swap" '^swap events=' \
  sh -c "\"$B/rebuild_bench\" generate sqlite://$SWAP_DIR/live.db 2000 &&
    \"$B/rebuild_bench\" swap sqlite://$SWAP_DIR/live.db sqlite://$SWAP_DIR/scratch.db"
check "search_bench" ' q/s ' \
  "$B/search_bench" --items 2000 --queries 100 --threads 1 --seconds 1
# The load tools need servers: their drivers start them (and BENCH_BIN is passed on).
check "realtime.sh 1 50 1 (ws-load)" '^median of .* api ' \
  bench/realtime.sh 1 50 1
check "realtime.sh 1 50 1, broadcast (ws-load)" '^median of 1 broadcast .* received 50/50' \
  env BENCH_MODE=broadcast bench/realtime.sh 1 50 1
check "realtime.sh 1 20 3, share (ws-load)" ' share \(POST .* reached 3/3' \
  env BENCH_MODE=share bench/realtime.sh 1 20 3
check "share.sh 20 2 2 1 (share-load)" '^beacons: ' \
  bench/share.sh 20 2 2 1
check "withdrawal.sh 20 2 (withdrawal-load)" '^ratio \(withdrawal' \
  bench/withdrawal.sh 20 2
check "files.sh" 'freeze of the owner' \
  bench/files.sh
check "wide-folder.sh 20 2" '^ratio: shared with 20 ' \
  bench/wide-folder.sh 20 2
SOAK_OUT=$LOGS/soak
check "soak.sh 1 1 50 --seconds 20 (soak)" '^  feed: ' \
  env OUT="$SOAK_OUT" bench/soak.sh 1 1 50 --seconds 20 --sample-seconds 5 --publish-every 10 \
  --reconnect-every 5 --rate 10 --writers 10 --live-per-writer 2
[ -s "$SOAK_OUT/soak.svg" ] || { echo "FAIL  soak chart: no $SOAK_OUT/soak.svg"; failed+=("soak chart"); }

echo "smoke: $((${#failed[@]})) failed, $(($(date +%s) - started)) s after the build"
[ "${#failed[@]}" -eq 0 ]
