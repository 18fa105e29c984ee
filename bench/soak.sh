#!/usr/bin/env bash
# Soak test on loopback: NODES `companion serve` processes on one fresh PostgreSQL database,
# SOCKETS WebSockets spread over them, and for MINUTES a steady mix of document commands, reads,
# an admin notification to everyone every minute and sockets reconnecting every 10 s. Prints a
# table of memory, open files, database size, projection lag, errors and lost or duplicated feed
# messages every 10 s, then a summary, and writes the chart and the nodes' logs to OUT (default target/soak).
# Usage: bench/soak.sh NODES MINUTES [SOCKETS] [more soak options, e.g. --seconds 20 --rate 40]
# MINUTES may be a fraction (0.5). BENCH_BIN picks the binaries (default the release build).
# Build first: cargo build --release -p backend -p bench
# SOAK_PORT (default 18180) is the first node's port, its metrics on SOAK_PORT + 1000: two soaks can
# run side by side on different ports, with DATABASE_POOL_SIZE=16 (the nodes inherit it) so that
# three nodes stay under PostgreSQL's 100 connections.
# Every socket and request comes from one loopback address, so the edge's limits are lifted.
set -euo pipefail
NODES=${1:-1}
MINUTES=${2:-10}
SOCKETS=${3:-1000}
shift $(($# < 3 ? $# : 3))
cd "$(dirname "$0")/.."
OUT=${OUT:-target/soak}
SOAK_PORT=${SOAK_PORT:-18180}
source bench/fresh-database.sh soak_bench
mkdir -p "$OUT"

ARGS=()
for i in $(seq 1 "$NODES"); do
  port=$((SOAK_PORT + i - 1))
  metrics=$((port + 1000))
  mkdir -p "$WORK/node$i"
  # Each node keeps its uploads in its own folder: nothing here reads a file back, and a local
  # store keeps an S3 server out of the figures.
  DATABASE_URL=$DB_URL JWT_SECRET=$SECRET PORT=$port BIND_ADDRESS=127.0.0.1 DATA_DIR=$WORK/node$i \
    WEB_DIR=$WORK/none CONTENT_DIR=content RUST_LOG=warn DEMO=true METRICS_PORT=$metrics \
    ALLOW_LOCAL_FILE_STORE_WITH_NODES=true \
    RATE_LIMIT_ADDRESS_PER_SECOND=1000000 RATE_LIMIT_ADDRESS_BURST=1000000 \
    RATE_LIMIT_SESSION_PER_SECOND=1000000 RATE_LIMIT_SESSION_BURST=1000000 \
    "$BIN/companion" serve >"$OUT/node$i.log" 2>&1 &
  PIDS+=($!)
  # One at a time: the first one migrates and seeds the fresh database.
  up=
  for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && { up=1; break; }
    kill -0 "${PIDS[-1]}" 2>/dev/null || break
    sleep 0.2
  done
  [ -n "$up" ] || { echo "node $i did not start; see $OUT/node$i.log" >&2; exit 1; }
  ARGS+=(--api-url "http://127.0.0.1:$port" --pid "${PIDS[-1]}"
    --metrics-url "http://127.0.0.1:$metrics/metrics")
done

"$BIN/soak" "${ARGS[@]}" --sockets "$SOCKETS" --minutes "$MINUTES" --jwt-secret "$SECRET" \
  --database-url "$DB_URL" --chart "$OUT/soak.svg" "$@"
