#!/usr/bin/env bash
# Installs what the browser tests need from Debian's packages, when missing: Chromium (unless
# CHROME_PATH names a browser) and a small CJK font, so screenshots show characters rather than boxes.
# Never downloads a browser of its own: the tests drive the system Chromium.
set -euo pipefail
packages=()
have_browser=""
if [ -n "${CHROME_PATH:-}" ] && [ -x "$CHROME_PATH" ]; then have_browser=1; fi
for b in /usr/lib/chromium/chromium /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
  if [ -x "$b" ]; then have_browser=1; fi
done
[ -n "$have_browser" ] || packages+=(chromium)
if ! (command -v fc-list >/dev/null && [ -n "$(fc-list :lang=zh 2>/dev/null)" ]); then packages+=(fonts-wqy-microhei); fi
# The lm-evaluation-harness export test renders the exported tasks with Debian's Python and PyYAML.
# The cloze and continuous-score tests compare with an independent numpy script.
if ! (command -v python3 >/dev/null && python3 -c 'import yaml, numpy' 2>/dev/null); then packages+=(python3 python3-yaml python3-numpy); fi
[ ${#packages[@]} -gt 0 ] || exit 0
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
echo "Installing ${packages[*]} with apt-get (needed by the browser tests and the export test)…"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${packages[@]}" >/dev/null
