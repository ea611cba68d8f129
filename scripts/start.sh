#!/usr/bin/env bash
# The one run command: setup, build, and serve over HTTPS on this machine and the LAN
# (a self-signed certificate; see README "Serving to a tablet"). vite preview also sends the
# cross-origin isolation headers (COOP/COEP, vite.config.ts) so the CPU engine may use threads.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npm run -s build
AGENTCADE_HTTPS=1 npx vite preview --host --port "${PORT:-4443}"
