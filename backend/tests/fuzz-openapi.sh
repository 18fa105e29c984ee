#!/usr/bin/env bash
# Schema-driven fuzzing of the API: schemathesis sends generated requests to every operation of
# /api/openapi.json, signed in as the demo rep, and fails on any server error (5xx).
#
# Needs the debug server binary (cargo build -p backend --bin companion) and schemathesis
# (.ci/run installs it into $HOME/.cache/companion-schemathesis). FUZZ_EXAMPLES bounds the
# examples per operation (default 100: about 8,000 requests in a minute).
set -euo pipefail
cd "$(dirname "$0")/../.."

target_dir="${CARGO_TARGET_DIR:-target}"
binary="$target_dir/debug/companion"
st="${SCHEMATHESIS:-$HOME/.cache/companion-schemathesis/bin/st}"
examples="${FUZZ_EXAMPLES:-100}"
[ -x "$binary" ] || { echo "fuzz: $binary is missing (cargo build -p backend --bin companion)"; exit 1; }
[ -x "$st" ] || {
  echo "fuzz: schemathesis is missing at $st; install it with:"
  echo "  python3 -m venv $HOME/.cache/companion-schemathesis && $HOME/.cache/companion-schemathesis/bin/pip install 'schemathesis==4.32.5'"
  exit 1
}

data_dir="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
cleanup() {
  if [ -n "${server_pid:-}" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$data_dir"
}
trap cleanup EXIT

# The fuzzer is one busy client: lift the rate limits so every request reaches its handler.
env -u DATABASE_URL DEMO=true PORT="$port" BIND_ADDRESS=127.0.0.1 DATA_DIR="$data_dir" WEB_DIR=web/dist \
  CONTENT_DIR=content RUST_LOG="${RUST_LOG:-warn}" \
  RATE_LIMIT_ADDRESS_PER_SECOND=100000 RATE_LIMIT_ADDRESS_BURST=100000 \
  RATE_LIMIT_SESSION_PER_SECOND=100000 RATE_LIMIT_SESSION_BURST=100000 \
  RECIPIENT_LOOKUPS_PER_MINUTE=100000 \
  "$binary" serve >"$data_dir/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 120); do
  python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=2)" "$base/api/health" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$data_dir/server.log"; exit 1; }
  sleep 0.5
done

token="$(python3 - "$base/api/users/login" <<'PY'
import json, sys, urllib.request
body = json.dumps({"username": "anna.rossi@example.com", "password": "Companion-2026"}).encode()
request = urllib.request.Request(sys.argv[1], data=body, headers={"Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(request, timeout=10))["jwt"])
PY
)"

# Signing out, ending sessions (its own among them: the sessions list names it) or changing the
# password would end the fuzzer's own session: every later request would
# then be refused at the door and test nothing behind it. Those routes have their own tests.
# One worker: with several, Python 3.11's parser can fail inside Hypothesis ("AST constructor
# recursion depth mismatch"), a tool error that would fail the run with no server error.
# Not a terminal, whatever FORCE_COLOR says (rich takes any FORCE_COLOR, "0" too, as one): no
# progress frames redrawn into the log, only the results.
status=0
TTY_COMPATIBLE=0 TTY_INTERACTIVE=0 "$st" run "$base/api/openapi.json" --url "$base" \
  -H "Authorization: Bearer $token" \
  --checks not_a_server_error \
  --exclude-path-regex '^/api/(users/logout|users/sessions/.*|users/password|admin/sessions/.*)$' \
  --max-examples "$examples" \
  --seed 2026 \
  --workers 1 \
  --request-timeout 30 \
  --no-color || status=$?

if [ "$status" -ne 0 ]; then
  echo "fuzz: server errors found; the server's log:"
  grep -E "ERROR|panicked" "$data_dir/server.log" | tail -40 || true
fi
exit "$status"
