#!/usr/bin/env bash
# Upload and download of one 20 MB PDF through the API, with the local file store and with the S3
# store (s3s-fs over a folder on the same disk), next to a raw copy of the same file; then the time
# from freezing the projector's owner to the first successful command on another node.
#
#   bench/files.sh [path/to/companion]    (default: ${BENCH_BIN:-$CARGO_TARGET_DIR/debug}/companion)
#
# Needs curl, s3s-fs (S3S_FS_BIN or $HOME/.cache/companion-tools/bin/s3s-fs) and, for the
# take-over figure, PostgreSQL at PGURL (default postgres://postgres@127.0.0.1:5432).
set -euo pipefail
BIN="${1:-${BENCH_BIN:-${CARGO_TARGET_DIR:-target}/debug}/companion}"
S3S="${S3S_FS_BIN:-$HOME/.cache/companion-tools/bin/s3s-fs}"
PGURL="${PGURL:-postgres://postgres@127.0.0.1:5432}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
[ -x "$S3S" ] || { echo "s3s-fs not found at $S3S (set S3S_FS_BIN)" >&2; exit 1; }
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill -CONT "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  psql -q "$PGURL/postgres" -c "drop database if exists companion_bench with (force)" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

now() { date +%s.%N; }
mbps() { awk -v s="$1" -v b="$2" 'BEGIN { printf "%.0f", b / 1048576 / s }'; }

# The file: a PDF header and 20 MB of random bytes.
FILE="$WORK/file.pdf"
{ printf '%%PDF-1.7\n'; head -c $((20 * 1024 * 1024 - 9)) /dev/urandom; } >"$FILE"
SIZE=$(stat -c %s "$FILE")
sync
t0=$(now); cp "$FILE" "$WORK/copy.pdf"; sync "$WORK/copy.pdf"; t1=$(now)
RAW=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
echo "raw copy: ${RAW}s ($(mbps "$RAW" "$SIZE") MB/s)"

mkdir -p "$WORK/s3/companion"
"$S3S" --host 127.0.0.1 --port 19000 --access-key bench --secret-key bench-secret-key "$WORK/s3" >/dev/null 2>&1 &
PIDS+=($!)

base_env() {
  echo "BIND_ADDRESS=127.0.0.1 CONTENT_DIR=$ROOT/content WEB_DIR=$WORK/web JWT_SECRET=bench-secret-bench-secret-bench-secret RUST_LOG=warn DEMO=true UPLOAD_MAX_BYTES=$((25 * 1024 * 1024))"
}
S3_ENV="FILE_STORE_URL=s3://companion/files AWS_ENDPOINT_URL=http://127.0.0.1:19000 AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench-secret-key AWS_ALLOW_HTTP=true"

wait_up() { for _ in $(seq 1 600); do curl -fs "http://127.0.0.1:$1/api/health" >/dev/null && return 0; sleep 0.1; done; echo "no server on $1"; exit 1; }
token() {
  local t
  t=$(curl -fs "http://127.0.0.1:$1/api/users/login" -H 'content-type: application/json' \
    -d '{"username":"anna.rossi@example.com","password":"Companion-2026"}' | sed 's/.*"jwt":"\([^"]*\)".*/\1/')
  curl -fs -o /dev/null -H "authorization: Bearer $t" "http://127.0.0.1:$1/api/users/accept-terms"
  echo "$t"
}

through_api() { # name port env...
  local name=$1 port=$2; shift 2
  env $(base_env) "$@" PORT="$port" DATA_DIR="$WORK/data-$name" "$BIN" serve >/dev/null 2>&1 &
  PIDS+=($!)
  wait_up "$port"
  local tok; tok=$(token "$port")
  local up down id
  up=$(curl -fs -o "$WORK/up.json" -w '%{time_total}' -H "authorization: Bearer $tok" \
    -F parent= -F name=Bench -F "file=@$FILE;filename=bench.pdf" "http://127.0.0.1:$port/api/documents/upload")
  id=$(sed 's/.*"id":"\([^"]*\)".*/\1/' "$WORK/up.json")
  down=$(curl -fs -o "$WORK/down.pdf" -w '%{time_total}' -H "authorization: Bearer $tok" \
    "http://127.0.0.1:$port/api/documents/$id/file?download=1")
  cmp -s "$FILE" "$WORK/down.pdf" || { echo "$name: downloaded file differs"; exit 1; }
  echo "$name store: upload ${up}s ($(mbps "$up" "$SIZE") MB/s, x$(awk -v a="$up" -v r="$RAW" 'BEGIN{printf "%.1f", a/r}') raw copy), download ${down}s ($(mbps "$down" "$SIZE") MB/s, x$(awk -v a="$down" -v r="$RAW" 'BEGIN{printf "%.1f", a/r}') raw copy)"
}

through_api local 18081
through_api s3 18082 $S3_ENV

# Take-over: two nodes on PostgreSQL, freeze the owner, time the first command that succeeds on B.
psql -q "$PGURL/postgres" -c "create database companion_bench"
DB="$PGURL/companion_bench"
env $(base_env) $S3_ENV DATABASE_URL="$DB" PORT=18091 DATA_DIR="$WORK/node-a" "$BIN" serve >/dev/null 2>&1 &
A=$!; PIDS+=($A); wait_up 18091
env $(base_env) $S3_ENV DATABASE_URL="$DB" PORT=18092 DATA_DIR="$WORK/node-b" "$BIN" serve >/dev/null 2>&1 &
PIDS+=($!); wait_up 18092
tok=$(token 18092)
kill -STOP "$A"
t0=$(now)
n=0
until curl -fs -o /dev/null -H "authorization: Bearer $tok" -H 'content-type: application/json' \
  -d "{\"name\":\"After freeze $n\",\"type\":\"my\",\"parent\":null}" http://127.0.0.1:18092/api/folders; do
  n=$((n + 1))
done
t1=$(now)
echo "freeze of the owner to the first successful command on the other node: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')s ($n refused before)"
kill -CONT "$A"
