#!/usr/bin/env bash
# Installs what the app and the tests need on a fresh machine: npm packages (from the lock file)
# gcc and make for the firmware core's host build, and, for the tests, Debian's Chromium with CJK fonts
# and espeak-ng + sox (the test recordings of the barge-in spec and bench/voice) when missing.
# `--audio` installs only espeak-ng and sox.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
# The C firmware core (firmware/) is built and tested with the system's gcc and make.
if ! command -v gcc >/dev/null || ! command -v make >/dev/null; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gcc make libc6-dev >/dev/null
fi
if [ "${1:-}" = "--browser" ] && ! [ -x /usr/bin/chromium ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
fi
if { [ "${1:-}" = "--browser" ] || [ "${1:-}" = "--audio" ]; } && ! { command -v espeak-ng >/dev/null && command -v sox >/dev/null; }; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq espeak-ng sox >/dev/null
fi
