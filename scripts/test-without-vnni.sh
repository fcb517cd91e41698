#!/usr/bin/env bash
# Runs the unit tests that use onnxruntime's kernels (test/unit/fixtures, test/unit/models) on an
# emulated CPU without AVX-512 and VNNI (qemu-user's Haswell: AVX2 only), as on the AMD EPYC machines
# where onnxruntime-node's q8 sums in saturating int16 pairs. vitest's worker threads stay inside the
# emulated process (--pool threads): a forked child would run on the real CPU. About 8 minutes on 2
# cores; not part of `npm test`. Installs Debian's qemu-user when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v qemu-x86_64 >/dev/null; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  echo "Installing qemu-user with apt-get…"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq qemu-user >/dev/null
fi
npm run fixtures
# qemu warns once per thread about CPUID bits TCG cannot emulate (pcid, x2apic…): noise, not findings.
qemu-x86_64 -cpu Haswell "$(command -v node)" node_modules/vitest/vitest.mjs run --project unit --pool threads \
  test/unit/fixtures test/unit/models "$@" 2> >(grep -v "TCG doesn't support requested feature" >&2)
