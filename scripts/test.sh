#!/usr/bin/env bash
# The one test command: setup, typecheck, lint (the pure core included), the neutral-platform core
# bundle check, the folder walls and import circles, unit tests (Vitest), e2e tests (Playwright,
# Debian Chromium), the bundle budget (the app's build; its first screen measured in Chromium by
# what it fetches).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
echo "== typecheck"; npm run -s typecheck
echo "== lint";      npm run -s lint
echo "== core";      npm run -s check:core
echo "== walls";     npm run -s check:deps   # no import circle, the folder rules (scripts/check-deps.ts)
echo "== firmware";  make -s -C firmware   # the C firmware core's Linux host build (the unit tests run the kit against it)
echo "== unit";      npx vitest run
echo "== e2e";       npx playwright test
echo "== bundle";    npx tsx bench/bundle/run.ts   # the app's own build: first screen by network ≤ budget, no source map in it
