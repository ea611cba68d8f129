#!/usr/bin/env bash
# Runs every benchmark in turn. Each prints ratios measured side by side in one run; none is a test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
for b in llm latency main-agent a2a bundle cpu-engine; do
  echo "== bench/$b"
  npx tsx "bench/$b/run.ts"
done
echo "== bench/latency --app (the real app against a paced local server)"
npx tsx bench/latency/run.ts --app --turns 2
