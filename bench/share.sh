#!/usr/bin/env bash
# Tracked external links under load on one `companion serve` node and a fresh PostgreSQL database:
# SOCKETS connected users (the first is the demo account Anna, the sender), ROUNDS first opens timed to the sender's
# `share_opened` (with a channel-only baseline), then beacons per second from CLIENTS clients for
# SECONDS (with a read-only baseline).
# Usage: bench/share.sh [SOCKETS] [ROUNDS] [CLIENTS] [SECONDS]
# Build first: cargo build --release -p backend -p bench
set -euo pipefail
SOCKETS=${1:-1000}
ROUNDS=${2:-20}
CLIENTS=${3:-16}
SECONDS_=${4:-10}
cd "$(dirname "$0")/.."
source bench/fresh-database.sh share_bench
port=18090
# The viewer's and the API's limits raised: what is measured is the work, not the limits.
DATABASE_URL=$DB_URL JWT_SECRET=$SECRET PORT=$port BIND_ADDRESS=127.0.0.1 DATA_DIR=$WORK/node \
  WEB_DIR=$WORK/none CONTENT_DIR=content RUST_LOG=warn DEMO=true \
  EXTERNAL_SHARES_PER_DAY=100000 SHARE_VIEWER_LINK_PER_MINUTE=10000000 \
  SHARE_VIEWER_NETWORK_PER_MINUTE=10000000 RATE_LIMIT_ADDRESS_PER_SECOND=1000000 \
  RATE_LIMIT_ADDRESS_BURST=1000000 RATE_LIMIT_SESSION_PER_SECOND=1000000 RATE_LIMIT_SESSION_BURST=1000000 \
  "$BIN/companion" serve >"$WORK/node.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 200); do
  curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
  sleep 0.2
done
"$BIN/share-load" --api-url "http://127.0.0.1:$port" --sockets "$SOCKETS" --rounds "$ROUNDS" \
  --clients "$CLIENTS" --seconds "$SECONDS_" --jwt-secret "$SECRET" --database-url "$DB_URL"
