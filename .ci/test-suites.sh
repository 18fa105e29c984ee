#!/usr/bin/env bash
# Every test of the project (`npm test`): the Rust code is built once, then the independent suites
# run side by side, each into its own log, printed whole when it ends, with a summary at the end.
#
#   build:  the server binary (cargo test --no-run --test cli)    ┐ at the same time
#   web:    tsc, Vitest, the web app's production build,          ┘
#           the demo content's generated files (generate.py --check)
#   then:   rust (the other test binaries, then cargo test on SQLite and PostgreSQL)
#           │ e2e (Playwright, in two parts) │ fuzz (the API-types check, then schemathesis)
#           │ bench (every bench program for a few seconds, on the Rust suite's build)
#           │ lint (`npm run lint`: rustfmt, clippy, ESLint, Prettier, on the same build)
#
# The browser and fuzz suites need only the server binary: they start as soon as it is built,
# while the other test binaries are still compiling. The lint's clippy uses the same target
# folder, so the build scripts and procedural macros already built serve it (a folder of its own
# built them again: 13 CPU-minutes on a fresh machine instead of 4.6); it starts once the Rust
# tests run, when no other build needs cargo's lock on that folder.
# TEST_SUITES=rust,e2e picks suites (default all: web,rust,e2e,fuzz,bench,lint).
set -uo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
suites=",${TEST_SUITES:-web,rust,e2e,fuzz,bench,lint},"
wants() { [[ "$suites" == *",$1,"* ]]; }

logs="$(mktemp -d "${TMPDIR:-/tmp}/companion-tests.XXXXXX")"
start=$(date +%s)
declare -A status elapsed
order=()

# run NAME COMMAND...: runs the command in the background into logs/NAME.log.
run() {
  local name=$1
  shift
  order+=("$name")
  (
    local t0=$(date +%s)
    "$@" >"$logs/$name.log" 2>&1
    local rc=$?
    echo "$rc $(($(date +%s) - t0))" >"$logs/$name.rc"
  ) &
}

# finish NAME: waits for a suite, prints its log and records its result.
finish() {
  local name=$1
  while [ ! -f "$logs/$name.rc" ]; do sleep 1; done
  read -r rc secs <"$logs/$name.rc"
  status[$name]=$rc
  elapsed[$name]=$secs
  echo
  echo "════════ $name: $([ "$rc" = 0 ] && echo passed || echo "FAILED (exit $rc)") in ${secs}s ════════"
  cat "$logs/$name.log"
}

# The bundle users get (NODE_ENV=production); the e2e suite reuses it instead of building again.
web_checks() {
  rm -f "$logs/bundle-built"
  # The SVGs and PDFs of the demo content match its JSON (the import checks everything else).
  python3 content/tools/generate.py --check &&
  npm -w web run typecheck && npm -w web run test &&
    (cd web && NODE_ENV=production npx vite build --logLevel warn) && touch "$logs/bundle-built"
}

fuzz_checks() { npm run api:check && backend/tests/fuzz-openapi.sh; }

# The browser suite in E2E_SHARDS parts (default 2) run side by side, each with its own server,
# data folder and Chromium (e2e/global-setup.ts). Its files run one after the other within a part,
# and the suite is the longest: in one part it keeps a single core busy long after the Rust suite
# has ended, in two it fills both.
e2e_tests() {
  local shards=${E2E_SHARDS:-2} pids=() rc=0 i
  if [ "$shards" = 1 ]; then
    E2E_SKIP_BUILD=1 npm -w web run e2e
    return
  fi
  for i in $(seq 1 "$shards"); do
    E2E_SKIP_BUILD=1 npm -w web run e2e -- --shard="$i/$shards" >"$logs/e2e-$i.log" 2>&1 &
    pids+=($!)
  done
  for i in $(seq 1 "$shards"); do
    wait "${pids[$((i - 1))]}" || rc=1
    echo "──── e2e part $i/$shards ────"
    cat "$logs/e2e-$i.log"
  done
  return $rc
}

# The `companion` binary the e2e and fuzz suites run, built through the small `cli` test target:
# a test build resolves the features of the full `cargo test` (a plain `cargo build -p backend`
# would resolve others and build much of the tree again).
server_build() {
  cargo test --workspace --no-run --test cli &&
    test -x "${CARGO_TARGET_DIR:-target}/debug/companion"
}

# cargo-nextest runs the tests of every binary in one pool (.config/nextest.toml); without it,
# cargo test runs the binaries one after the other.
has_nextest() { cargo nextest --version >/dev/null 2>&1; }

# Waits for an S3 test server still being built by `.ci/run` (S3S_FS_PENDING names its marker).
wait_for_s3s() {
  if [ -n "${S3S_FS_PENDING:-}" ]; then
    while [ -e "$S3S_FS_PENDING" ]; do sleep 2; done
  fi
}

# wait_for MARKER: waits until the Rust suite has written MARKER (true), or has ended without
# it (false).
wait_for() {
  while [ ! -e "$logs/$1" ]; do
    [ -f "$logs/rust.rc" ] && [ ! -e "$logs/$1" ] && return 1
    sleep 1
  done
}

# The remaining test binaries, then every Rust test. Writes the markers `rust-built` (every
# binary is built) and `cargo-free` (no build of this suite needs cargo's lock any more).
rust_tests() {
  trap 'touch "$logs/cargo-free"' RETURN
  cargo test --workspace --no-run || return
  touch "$logs/rust-built"
  wait_for_s3s
  if has_nextest; then
    cargo nextest run --workspace --no-fail-fast -E 'not test(=bench_programs_run_briefly)' &
    local nextest=$!
    # nextest names the tests it starts once its own (up-to-date) build has let the lock go.
    until grep -qE '^ *Starting [0-9]+ tests' "$logs/rust.log" || ! kill -0 "$nextest" 2>/dev/null; do
      sleep 1
    done
    touch "$logs/cargo-free"
    wait "$nextest"
  else
    cargo test --workspace --no-fail-fast -- --test-threads "${RUST_TEST_THREADS:-4}" \
      --skip bench_programs_run_briefly
  fi
}

# Every bench program for a few seconds (bench/smoke.sh, which the test in bench/tests runs for
# `cargo test`), beside the Rust suite and on its build: the same `cargo test --workspace`
# resolves the same features, so nothing is built twice.
bench_smoke() {
  if wants rust; then
    wait_for rust-built || { echo "bench: the Rust suite's build failed"; return 1; }
  else
    cargo test --workspace --no-run || return
  fi
  wait_for_s3s
  SMOKE_NO_BUILD=1 BENCH_BIN="${CARGO_TARGET_DIR:-target}/debug" bash bench/smoke.sh
}

# `npm run lint`, on the Rust suite's target folder once nothing else builds there (its clippy
# would otherwise hold cargo's lock while the Rust tests wait for their own up-to-date build).
lint_checks() {
  if [[ " ${order[*]} " == *" rust "* ]]; then
    wait_for cargo-free
  fi
  nice -n 5 npm run lint
}

# Phase 1: the one Rust build, with the web checks beside it (they fill the build's serial parts).
wants rust || wants e2e || wants fuzz || wants bench && run build server_build
wants web && run web web_checks
[[ " ${order[*]} " == *" build "* ]] && finish build
if [ "${status[build]:-0}" = 0 ]; then
  # Phase 2: the suites that need the server binary, all started at once and side by side.
  if wants e2e; then
    wants web && finish web
    # The parts share the bundle: built once here when the web suite did not build it.
    if [ -f "$logs/bundle-built" ] || (cd web && NODE_ENV=production npx vite build --logLevel warn); then
      run e2e e2e_tests
    else
      run e2e false
    fi
  fi
  wants fuzz && run fuzz fuzz_checks
  # The API tests mostly wait on servers and databases: four at a time keep both cores busy.
  wants rust && run rust rust_tests
  wants bench && run bench bench_smoke
fi
# The lint needs no build of its own; it waits for the Rust suite only while that suite builds.
wants lint && run lint lint_checks
for name in web rust e2e fuzz bench lint; do
  [[ " ${order[*]} " == *" $name "* ]] && [ -z "${status[$name]:-}" ] && finish "$name"
done

echo
echo "════════ summary (${logs}) ════════"
failed=0
for name in "${order[@]}"; do
  rc=${status[$name]:-skipped}
  [ "$rc" = 0 ] || failed=1
  printf '%-6s %-8s %5ss\n' "$name" "$([ "$rc" = 0 ] && echo passed || echo "FAILED")" "${elapsed[$name]:-0}"
  # The runners' own summary lines, as they printed them.
  case $name in
    rust) grep -E '^\s*Summary \[|^test result:' "$logs/rust.log" ;;
    web | e2e) sed 's/\x1b\[[0-9;]*m//g' "$logs/$name.log" | grep -E '^\s+(Test Files|Tests)\s' ;;
    fuzz) grep -E '^\s*[0-9]+ generated, |^=+ .* in [0-9.]+s =+$' "$logs/fuzz.log" | tail -2 ;;
    bench) grep -E '^smoke: ' "$logs/bench.log" ;;
    lint) grep -E '^(error|warning)(\[|:)|problems? \(|Code style issues' "$logs/lint.log" | head -5 ;;
  esac
done
echo "total  $(($(date +%s) - start))s"

# What failed, repeated here so that it is seen even when only the end of the output is kept.
if [ "$failed" != 0 ]; then
  echo
  echo "════════ failures ════════"
  [ -f "$logs/rust.log" ] && grep -E '^test .* FAILED$|^\s*(FAIL|TRY [0-9]+ FAIL|FLAKY) \[|panicked at|^thread .* panicked' -A 3 "$logs/rust.log" | head -80
  [ -f "$logs/bench.log" ] && grep -E '^FAIL ' -A 15 "$logs/bench.log" | head -60
  [ -f "$logs/lint.log" ] && [ "${status[lint]:-0}" != 0 ] && tail -40 "$logs/lint.log"
  for name in web e2e; do
    [ -f "$logs/$name.log" ] && sed 's/\x1b\[[0-9;]*m//g' "$logs/$name.log" |
      grep -E '^\s*(FAIL|×|✗) |AssertionError|Error: ' | head -40
  done
  [ -f "$logs/build.log" ] && [ "${status[build]:-0}" != 0 ] && grep -E '^error' -A 6 "$logs/build.log" | head -60
fi
exit $failed
