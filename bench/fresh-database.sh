# Sourced by the bench drivers that start servers: a fresh PostgreSQL database and a work folder
# of their own, dropped again (with the servers in PIDS stopped) when the driver exits.
# Usage: source bench/fresh-database.sh NAME   (run from the repository's root)
# Sets BIN (the binaries: BENCH_BIN, else the release build), ADMIN_URL, DB, DB_URL, SECRET,
# WORK and PIDS (append each started server's pid).
BIN=${BENCH_BIN:-${CARGO_TARGET_DIR:-target}/release}
ADMIN_URL=${BENCH_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
DB=companion_${1:?a name for the database}_$$
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
