#!/usr/bin/env bash
# A folder shared with many colleagues, on one `companion serve` node and a fresh PostgreSQL
# database: HOLDERS accounts each given the demo account Anna's folder, then UPLOADS files put
# into it one after the other, each told to every holder's Shared with me (an unread change in
# their feed). Baselines in the same run: the same uploads into a folder shared with nobody, and
# the health route. Prints each series' median and the ratio of the two upload medians.
# Usage: bench/wide-folder.sh [HOLDERS] [UPLOADS]
# Build first: cargo build --release -p backend
set -euo pipefail
HOLDERS=${1:-2000}
UPLOADS=${2:-7}
cd "$(dirname "$0")/.."
source bench/fresh-database.sh wide_folder
port=18091
base="http://127.0.0.1:$port"
pdf=content/files/users/travel-checklist.pdf
start_node "$port" node

# The holders are accounts like any other; made in one statement, as an import of a directory would.
psql "$DB_URL" -qc "insert into users (id, email, first_name, last_name, role, created_at)
  select 'holder-' || g, 'holder' || g || '@example.com', 'Holder', 'No. ' || g, 'user', 0
  from generate_series(1, $HOLDERS) g"

json() { python3 -c "import sys, json; print(json.load(sys.stdin)$1)"; }
token=$(curl -sf "$base/api/users/login" -H 'content-type: application/json' \
  -d '{"username":"anna.rossi@example.com","password":"Companion-2026"}' | json '["jwt"]')
auth=(-H "authorization: Bearer $token")
curl -sf -o /dev/null "${auth[@]}" "$base/api/users/accept-terms"
folder() {
  curl -sf "${auth[@]}" -H 'content-type: application/json' "$base/api/folders" \
    -d "{\"name\":\"$1\",\"type\":\"my\",\"parent\":null}" | json '["id"]'
}
wide=$(folder "Shared with everyone")
alone=$(folder "Kept to myself")

started=$(date +%s)
failed=$(seq 1 "$HOLDERS" | xargs -P 2 -I{} curl -s -o /dev/null -w '%{http_code}\n' "${auth[@]}" \
  -H 'content-type: application/json' "$base/api/folders/share" \
  -d "{\"email\":\"holder{}@example.com\",\"folder\":\"$wide\"}" | grep -vc '^200$' || true)
echo "shared: $HOLDERS holders in $(($(date +%s) - started)) s ($failed not answered 200)"

# Seconds of each of UPLOADS uploads into folder $1.
uploads() {
  for k in $(seq 1 "$UPLOADS"); do
    curl -sf -o /dev/null -w '%{time_total}\n' "${auth[@]}" "$base/api/documents/upload" \
      -F "name=report-$k.pdf" -F "parent=$1" -F "file=@$pdf;filename=report-$k.pdf;type=application/pdf"
  done
}
health() {
  for _ in $(seq 1 "$UPLOADS"); do curl -sf -o /dev/null -w '%{time_total}\n' "$base/api/health"; done
}
median_ms() { sort -g | awk '{ v[NR] = $1 } END { printf "%.1f", 1000 * v[int((NR + 1) / 2)] }'; }
trivial=$(health | median_ms)
alone_ms=$(uploads "$alone" | median_ms)
wide_ms=$(uploads "$wide" | median_ms)
echo "health route: median $trivial ms"
echo "upload into a folder shared with nobody: median $alone_ms ms"
echo "upload into a folder shared with $HOLDERS: median $wide_ms ms"
awk -v w="$wide_ms" -v a="$alone_ms" 'BEGIN { printf "ratio: shared with %s / shared with nobody = %.2f\n", '"$HOLDERS"', w / a }'
