# Sourced by the bench drivers that start servers: a fresh PostgreSQL database and a work folder
# of their own, dropped again (with the servers in PIDS stopped) when the driver exits.
# Usage: source bench/fresh-database.sh NAME   (run from the repository's root)
# Sets BIN (the binaries: BENCH_BIN, else the release build), ADMIN_URL, DB, DB_URL, SECRET,
# WORK and PIDS (append each started server's pid), and defines start_node.
BIN=${BENCH_BIN:-${CARGO_TARGET_DIR:-target}/release}
ADMIN_URL=${BENCH_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
DB=companion_${1:?a name for the database}_$$
DB_URL="${ADMIN_URL%/*}/$DB"
SECRET=bench-secret-bench-secret-bench-secret-0123
WORK=$(mktemp -d)
PIDS=()

cleanup() {
  local status=$?
  # A failed run shows what the servers logged (warnings and errors), before their logs go.
  if [ "$status" -ne 0 ]; then
    for log in "$WORK"/*.log; do
      [ -f "$log" ] || continue
      echo "--- $(basename "$log"), its last warnings and errors:" >&2
      sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E ' (WARN|ERROR) ' | tail -n 20 >&2 || true
    done
  fi
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  psql "$ADMIN_URL" -qc "drop database if exists $DB with (force)" >/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

# Each loopback socket is two descriptors, one on each side; the server and the tool are separate processes.
ulimit -n "$(ulimit -Hn)"
psql "$ADMIN_URL" -qc "create database $DB"

# Starts `companion serve` on port $1 with the demo content, its files in $WORK/$2 and its log in
# $WORK/$2.log, the edge's limits raised (what is measured is the work, not the limits) and any
# further NAME=value settings given after the name; adds it to PIDS and waits until it answers.
start_node() {
  local port=$1 name=$2
  shift 2
  mkdir -p "$WORK/$name"
  env DATABASE_URL="$DB_URL" JWT_SECRET="$SECRET" PORT="$port" BIND_ADDRESS=127.0.0.1 \
    DATA_DIR="$WORK/$name" WEB_DIR="$WORK/none" CONTENT_DIR=content RUST_LOG=warn DEMO=true \
    RATE_LIMIT_ADDRESS_PER_SECOND=1000000 RATE_LIMIT_ADDRESS_BURST=1000000 \
    RATE_LIMIT_SESSION_PER_SECOND=1000000 RATE_LIMIT_SESSION_BURST=1000000 \
    "$@" "$BIN/companion" serve >"$WORK/$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
    sleep 0.2
  done
}
