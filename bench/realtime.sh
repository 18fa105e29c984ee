#!/usr/bin/env bash
# Realtime load benchmark on loopback: NODES `companion serve` processes on one fresh PostgreSQL
# database, SOCKETS WebSockets spread over them, ROUNDS rounds per mode of a change that reaches
# every user: `direct` (one feed entry per user written by the tool: the channel alone) and `api`
# (the admin publishes a notification to everyone through the HTTP API), alternating.
# Usage: bench/realtime.sh NODES SOCKETS ROUNDS [USERS]   (USERS defaults to one per socket)
# BENCH_MODE=direct|api|both (default both) picks the modes.
# Build first: cargo build --release -p backend -p bench
set -euo pipefail
NODES=${1:-1}
SOCKETS=${2:-10000}
ROUNDS=${3:-5}
USERS=${4:-$SOCKETS}
cd "$(dirname "$0")/.."
BIN=${BENCH_BIN:-${CARGO_TARGET_DIR:-target}/release}
ADMIN_URL=${BENCH_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
DB=companion_bench_$$
DB_URL="${ADMIN_URL%/*}/$DB"
SECRET=bench-secret-bench-secret-bench-secret-0123
WORK=$(mktemp -d)
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  psql "$ADMIN_URL" -qc "drop database if exists $DB with (force)" >/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

# Each loopback socket is two descriptors, one on each side; the server and the tool are separate processes.
ulimit -n "$(ulimit -Hn)"
psql "$ADMIN_URL" -qc "create database $DB"

ARGS=()
for i in $(seq 1 "$NODES"); do
  port=$((18079 + i))
  mkdir -p "$WORK/node$i"
  DATABASE_URL=$DB_URL JWT_SECRET=$SECRET PORT=$port BIND_ADDRESS=127.0.0.1 DATA_DIR=$WORK/node$i \
    WEB_DIR=$WORK/none CONTENT_DIR=content RUST_LOG=warn DEMO=true \
    "$BIN/companion" serve >"$WORK/node$i.log" 2>&1 &
  PIDS+=($!)
  # One at a time: the first one migrates and seeds the fresh database.
  for _ in $(seq 1 200); do
    curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
    sleep 0.2
  done
  ARGS+=(--url "ws://127.0.0.1:$port/api/ws" --server-pid "${PIDS[-1]}")
done

"$BIN/ws-load" "${ARGS[@]}" --sockets "$SOCKETS" --users "$USERS" --rounds "$ROUNDS" \
  --mode "${BENCH_MODE:-both}" --jwt-secret "$SECRET" --database-url "$DB_URL"
