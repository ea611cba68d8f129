#!/usr/bin/env bash
# The long chaos runs (tests/e2e/chaos.spec.ts): the real app against the chaos brain, printing what a
# parent would notice. Defaults: 300 turns at fault rates 0.3 and 0.6 with the default turn budget.
# CHAOS_TURNS, CHAOS_RATES (comma-separated), CHAOS_T1 / CHAOS_T2 (ms), CHAOS_LIE_RATE, CHAOS_SEED and E2E_PORT override.
set -euo pipefail
cd "$(dirname "$0")/.."
export CHAOS_LONG=1
exec npx playwright test tests/e2e/chaos.spec.ts --workers=1 --reporter=list "$@"
