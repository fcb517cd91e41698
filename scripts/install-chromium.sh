#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests, unless a browser is already there (or CHROME_PATH
# names one). Never downloads a browser of its own: the tests drive the system Chromium.
set -euo pipefail
if [ -n "${CHROME_PATH:-}" ] && [ -x "$CHROME_PATH" ]; then exit 0; fi
for b in /usr/lib/chromium/chromium /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
  if [ -x "$b" ]; then exit 0; fi
done
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
echo "Installing Chromium with apt-get (needed by the browser tests)…"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
