#!/usr/bin/env bash
# Realtime load benchmark on loopback: NODES `companion serve` processes on one fresh PostgreSQL
# database, SOCKETS WebSockets spread over them, ROUNDS rounds per mode of a change that reaches
# every user: `direct` (one feed entry per user written by the tool: the channel alone, the old
# way), `broadcast` (one broadcast entry written by the tool, every socket gets it: the channel
# alone) and `api` (the admin publishes a notification to everyone through the HTTP API),
# alternating.
# Usage: bench/realtime.sh NODES SOCKETS ROUNDS [USERS]   (USERS defaults to one per socket)
# BENCH_MODE=direct|broadcast|api|both (default both: all three) picks the modes;
# BENCH_MODE=share instead shares a file of the demo account Anna with a different user each
# round while every socket is open (`share`, through the HTTP API), alternating with one feed
# entry written for one user (`one`).
# WS_LOAD_THREADS=N gives the load tool N threads to connect and call the API with (default 1);
# one more thread reads every socket, a round's frames in batches, so the frames do not wake it
# one by one on the cores the nodes use.
# Build first: cargo build --release -p backend -p bench
# Every socket comes from one loopback address, so the edge's per-address limits are lifted.
# No file goes through the nodes, so each keeps a local file store (allowed with several nodes).
set -euo pipefail
NODES=${1:-1}
SOCKETS=${2:-10000}
ROUNDS=${3:-5}
USERS=${4:-$SOCKETS}
cd "$(dirname "$0")/.."
source bench/fresh-database.sh bench

ARGS=()
for i in $(seq 1 "$NODES"); do
  port=$((18079 + i))
  # One at a time: the first one migrates and seeds the fresh database.
  start_node "$port" "node$i" ALLOW_LOCAL_FILE_STORE_WITH_NODES=true
  ARGS+=(--url "ws://127.0.0.1:$port/api/ws" --server-pid "${PIDS[-1]}")
done

"$BIN/ws-load" "${ARGS[@]}" --sockets "$SOCKETS" --users "$USERS" --rounds "$ROUNDS" \
  --mode "${BENCH_MODE:-both}" --jwt-secret "$SECRET" --database-url "$DB_URL" \
  --threads "${WS_LOAD_THREADS:-1}"
