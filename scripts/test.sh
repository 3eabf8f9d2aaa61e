#!/usr/bin/env bash
# The README's test command: installs what the tests need (Chromium from Debian's packages, PostgreSQL
# when none answers on 127.0.0.1:5432), then runs the linter and the format check, type-check, unit tests,
# service tests on SQLite and on PostgreSQL, and the Playwright journeys against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_updated=0
apt_install() {
  [ "$apt_updated" = 1 ] || { as_root apt-get update -qq; apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# Each stage prints its duration; the summary of every stage run and the total comes at the end, failed or not.
run_start=$(date +%s)
summary=()
current=""
stage_start=0
stage() {
  finish_stage
  current="$1"
  stage_start=$(date +%s)
  echo "== $current"
}
finish_stage() {
  if [ -n "$current" ]; then
    local took=$(( $(date +%s) - stage_start ))
    summary+=("$(printf '%6ss  %s' "$took" "$current")")
    echo "== $current: ${took} s"
    current=""
  fi
}
report() {
  local status=$?
  [ -n "$current" ] && [ "$status" != 0 ] && current="$current (failed)"
  finish_stage
  echo "== Durations"
  printf '%s\n' "${summary[@]}"
  printf '%6ss  total%s\n' "$(( $(date +%s) - run_start ))" "$([ "$status" = 0 ] || echo " (failed, exit $status)")"
}
trap report EXIT

stage "Dependencies (npm packages, Chromium, PostgreSQL)"
[ -d node_modules/.bin ] || npm install --no-audit --no-fund

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  echo "== Installing Chromium from Debian's packages"
  apt_install chromium
fi

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
if ! (command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432); then
  echo "== Installing and starting PostgreSQL"
  command -v pg_ctlcluster >/dev/null 2>&1 || apt_install postgresql
  version=$(ls /etc/postgresql | sort -n | tail -1)
  hba="/etc/postgresql/$version/main/pg_hba.conf"
  grep -q "sillon-tests" "$hba" || as_root sed -i "1i host all all 127.0.0.1/32 trust # sillon-tests" "$hba"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || as_root pg_ctlcluster --skip-systemctl-redirect "$version" main reload
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  as_root su postgres -c "psql -tc \"SELECT 1 FROM pg_database WHERE datname='test'\" | grep -q 1 || createdb test"
fi


stage "Lint and format"
# ESLint first (typescript-eslint, hooks, the layer table as import rules: docs/decisions/0088-lint-and-layers.md),
# then Prettier's check; both run, and a failure of either fails the stage.
lint_status=0
npm run --silent lint || lint_status=$?
npm run --silent format:check || lint_status=$?
[ "$lint_status" = 0 ]

stage "Type-check"
npx react-router typegen >/dev/null
npx tsc

stage "Unit tests"
npx vitest run --project unit

stage "Service tests on SQLite"
env -u TEST_DATABASE_URL npx vitest run --project service

stage "Service tests on PostgreSQL ($TEST_DATABASE_URL)"
npx vitest run --project service

stage "Build and e2e data set-up"
# Built once and set up once: each Playwright worker copies this data folder and starts its own servers
# on it (tests/e2e/fixtures.ts), without building again.
rm -rf tests/.artifacts/e2e-data tests/.artifacts/e2e-data-w*
BASE_PATH=/sillon/ FORCE_BUILD=1 DATA_DIR=tests/.artifacts/e2e-data node server/start.js --setup-only

stage "Runtime stage of the Dockerfile replayed (npm ci --omit=dev, start as nobody, health, sign-in, stop)"
node scripts/runtime-check.mjs

stage "Playwright journeys (${E2E_WORKERS:-$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))} workers)"
npx playwright test "$@"
