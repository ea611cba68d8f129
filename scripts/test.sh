#!/usr/bin/env bash
# The one test command: setup, typecheck, unit tests (Vitest), e2e tests (Playwright, Debian Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
echo "== typecheck"; npm run -s typecheck
echo "== unit";      npx vitest run
echo "== e2e";       npx playwright test
