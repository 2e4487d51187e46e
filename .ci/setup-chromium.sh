#!/usr/bin/env bash
# Headless Chromium from Debian for the `cavemem serve` browser test (tests/test_serve_browser.py).
# Idempotent and quiet; returns at once when /usr/bin/chromium is already there. Playwright drives
# this system browser (never `playwright install`: nothing downloads browsers at test time).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
