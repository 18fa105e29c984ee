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
start_node "$port" node
"$BIN/withdrawal-load" --api-url "http://127.0.0.1:$port" --sockets "$SOCKETS" --rounds "$ROUNDS" \
  --jwt-secret "$SECRET" --database-url "$DB_URL"
