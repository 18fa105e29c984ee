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
# The viewer's limits raised too: what is measured is the work, not the limits.
start_node "$port" node EXTERNAL_SHARES_PER_DAY=100000 SHARE_VIEWER_LINK_PER_MINUTE=10000000 \
  SHARE_VIEWER_NETWORK_PER_MINUTE=10000000
"$BIN/share-load" --api-url "http://127.0.0.1:$port" --sockets "$SOCKETS" --rounds "$ROUNDS" \
  --clients "$CLIENTS" --seconds "$SECONDS_" --jwt-secret "$SECRET" --database-url "$DB_URL"
