#!/usr/bin/env bash
# A withdrawal reaching every connected device, on one `companion serve` node and a fresh
# PostgreSQL database: SOCKETS connected users, ROUNDS withdrawals of a released library document
# timed to the last socket's `library_withdrawn`, alternating with a channel-only baseline.
# Usage: bench/withdrawal.sh [SOCKETS] [ROUNDS]
# Build first: cargo build --release -p backend -p bench
set -euo pipefail
SOCKETS=${1:-1000}
ROUNDS=${2:-20}
cd "$(dirname "$0")/.."
source bench/fresh-database.sh withdrawal_bench
port=${BENCH_PORT:-18091}
# The edge's limits raised: what is measured is the work, not the limits.
DATABASE_URL=$DB_URL JWT_SECRET=$SECRET PORT=$port BIND_ADDRESS=127.0.0.1 DATA_DIR=$WORK/node \
  WEB_DIR=$WORK/none CONTENT_DIR=content RUST_LOG=warn DEMO=true \
  RATE_LIMIT_ADDRESS_PER_SECOND=1000000 RATE_LIMIT_ADDRESS_BURST=1000000 \
  RATE_LIMIT_SESSION_PER_SECOND=1000000 RATE_LIMIT_SESSION_BURST=1000000 \
  "$BIN/companion" serve >"$WORK/node.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 300); do
  curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
  sleep 0.2
done
"$BIN/withdrawal-load" --api-url "http://127.0.0.1:$port" --sockets "$SOCKETS" --rounds "$ROUNDS" \
  --jwt-secret "$SECRET" --database-url "$DB_URL"
