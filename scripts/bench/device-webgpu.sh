#!/usr/bin/env bash
# WebGPU on a real GPU: the real-shaped Qwen3-0.6B (q4 and fp16) in headless Chromium on the GPU's
# Vulkan driver — prefill tok/s at batch 1, decode tok/s, letter items/s, and the WebGPU-against-WASM
# check a run makes. This wrapper checks every prerequisite first and says exactly what is missing and
# how to provide it (exit 2), then runs scripts/bench/device-webgpu.ts under a time limit (exit 124
# when it runs past it), so it never hangs. Every option but --timeout goes on to the TS script.
#
#   scripts/bench/device-webgpu.sh [--timeout S] [--models-root DIR] [--dtypes q4,fp16] [--items 5]
#     [--layers N] [--gpu hardware|swiftshader] [--chrome-flags "…"] [--prompt-tokens 500]
#     [--gen-tokens 32] [--out DIR]
#
# Environment: NODE (a node binary, else `node` on PATH), CHROME_PATH (a Chrome/Chromium binary, else
# the usual install paths), JIANGU_DIST (the built site, default dist), JIANGU_DATA (the benchmark data
# mirror, default ../shared/data), VK_DRIVER_FILES (the Vulkan ICD, found on its own when it is in a
# usual place). --gpu swiftshader measures Chromium's software adapter on purpose (a quick test on a
# machine without a GPU; pair it with --layers 1); the default, hardware, refuses a software adapter.
# --layers 28 generates the full-size Qwen3-0.6B (its q4 and fp16 files alone, a minute or two) where
# .fixtures/models-real cannot be brought along.
set -u
cd "$(dirname "$0")/../.." || exit 2

timeout_s=1800
models_root=.fixtures/models-real
layers=''
dtypes=q4,fp16
gpu=hardware
pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --timeout) timeout_s="${2:-}"; shift 2; continue ;;
    --models-root) models_root="${2:-}" ;;
    --layers) layers="${2:-}" ;;
    --dtypes) dtypes="${2:-}" ;;
    --gpu) gpu="${2:-}" ;;
  esac
  pass+=("$1")
  shift
done
case "$timeout_s" in ''|*[!0-9]*) echo "--timeout wants whole seconds, not '$timeout_s'" >&2; exit 2 ;; esac

missing=()
miss() { missing+=("$1"); }

# Node 20 or newer (tsx, the fixtures generator and Playwright need it).
node_bin="${NODE:-$(command -v node || true)}"
if [ -z "$node_bin" ] || [ ! -x "$node_bin" ]; then
  miss "node: no Node.js (looked at \$NODE and PATH). Put a Node 20+ binary on PATH or set NODE=/path/to/bin/node (e.g. unpack node-v20.x-linux-x64.tar.xz into the repo, git-ignored, and carry it)."
else
  node_major="$("$node_bin" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  [ "${node_major:-0}" -ge 20 ] 2>/dev/null || miss "node: $node_bin is Node ${node_major:-?}; Node 20 or newer is needed."
fi

# A Chromium that starts (the same search as scripts/browser.ts' findChromium).
chrome="${CHROME_PATH:-}"
if [ -z "$chrome" ]; then
  for c in /usr/lib/chromium/chromium /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome /usr/bin/google-chrome-stable /opt/google/chrome/chrome; do
    [ -x "$c" ] && { chrome="$c"; break; }
  done
fi
if [ -z "$chrome" ]; then
  miss "Chromium: none found (CHROME_PATH unset; looked in /usr/lib/chromium, /usr/bin, /opt/google/chrome). Install it (\`apt-get install -y chromium\`) or set CHROME_PATH to a Chrome/Chromium binary with its folder (e.g. an unpacked Chrome for Testing, carried into the repo)."
elif [ ! -x "$chrome" ]; then
  miss "Chromium: CHROME_PATH=$chrome is not an executable file."
elif ! chrome_version="$(timeout 30 "$chrome" --headless --no-sandbox --version 2>&1)"; then
  miss "Chromium: $chrome does not start (\`$chrome --version\` said: $(echo "$chrome_version" | tail -2 | tr '\n' ' ')); its shared libraries may be missing (\`ldd $chrome | grep 'not found'\`)."
fi

# The project's packages (never fetched here: the device machine has no network).
for p in node_modules/tsx/dist/cli.mjs node_modules/playwright-core/package.json node_modules/vite/package.json node_modules/onnxruntime-web/dist node_modules/@huggingface/transformers/package.json; do
  [ -e "$p" ] || { miss "node_modules: $p is missing. Run \`npm ci\` on a machine with the network and bring node_modules/ along (git-ignored: carry it)."; break; }
done

# The built site, with the harness page the bench drives.
dist="${JIANGU_DIST:-dist}"
if [ ! -f "$dist/index.html" ] || [ ! -f "$dist/harness.html" ]; then
  miss "built site: $dist/index.html or $dist/harness.html is missing. Run \`npm run build\` (or \`JIANGU_DIST=$dist npx vite build\`) and bring $dist/ along (git-ignored: carry it)."
fi

# CMMLU 古汉语 (items for letters and the agreement run; never downloaded).
data="${JIANGU_DATA:-../shared/data}"
if [ ! -d "$data/cmmlu-ancient_chinese" ]; then
  miss "benchmark data: $data/cmmlu-ancient_chinese is missing. Copy ../shared/data/cmmlu-ancient_chinese (52 KB) into a git-ignored folder of the repo, e.g. .bench-data/, and set JIANGU_DATA=.bench-data."
fi

# The model: the real-shaped fixture, or --layers N to generate a cut-down one into a temporary folder.
if [ -z "$layers" ]; then
  dir="$models_root/real-qwen3-0.6b"
  if [ ! -f "$dir/config.json" ]; then
    miss "model: $dir/config.json is missing. Run \`npm run fixtures:real\` (writes .fixtures/models-real, about 16 GB) and bring .fixtures/models-real/real-qwen3-0.6b along, or pass --models-root DIR holding real-qwen3-0.6b/, or --layers N for a cut-down model generated here."
  else
    for d in ${dtypes//,/ }; do
      case "$d" in fp32) f=model.onnx ;; q8) f=model_quantized.onnx ;; *) f="model_$d.onnx" ;; esac
      [ -f "$dir/onnx/$f" ] || miss "model: $dir/onnx/$f (for --dtypes $d) is missing; generate it with \`npm run fixtures:real\`, or leave $d out of --dtypes."
    done
  fi
else
  tmp="${TMPDIR:-/tmp}"
  free_kb="$(df -Pk "$tmp" 2>/dev/null | awk 'NR==2 {print $4}')"
  # q4 and fp16 of Qwen3: about 1.4 GB at one layer (the 151,936-row embedding and head dominate), 2.5 GB at all 28.
  [ "${free_kb:-0}" -ge $((4 * 1024 * 1024)) ] || miss "disk: --layers writes about 3 GB into $tmp, which has $(( ${free_kb:-0} / 1024 )) MB free; set TMPDIR to a larger folder."
fi

# The GPU's Vulkan driver: Chromium brings its own loader, but the driver's ICD file must be found.
if [ "$gpu" = hardware ]; then
  icd="${VK_DRIVER_FILES:-${VK_ICD_FILENAMES:-}}"
  if [ -z "$icd" ]; then
    for f in /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json /usr/local/share/vulkan/icd.d/*.json /usr/local/nvidia/share/vulkan/icd.d/*.json; do
      case "$f" in *swiftshader*|*lvp_icd*|*'*'*) continue ;; esac
      [ -f "$f" ] && { icd="$f"; break; }
    done
    # The NVIDIA container runtime's place is not one the loader searches.
    case "$icd" in /usr/local/nvidia/*) export VK_DRIVER_FILES="$icd"; echo "[device-webgpu] VK_DRIVER_FILES=$icd" >&2 ;; esac
  fi
  for f in ${icd//:/ }; do
    [ -f "$f" ] || miss "GPU driver: the Vulkan ICD file $f (VK_DRIVER_FILES/VK_ICD_FILENAMES) does not exist."
  done
  if [ -z "$icd" ]; then
    miss "GPU driver: no Vulkan ICD file (VK_DRIVER_FILES unset; none in /usr/share/vulkan/icd.d, /etc/vulkan/icd.d, /usr/local/nvidia/share/vulkan/icd.d). Install the GPU's Vulkan driver, or set VK_DRIVER_FILES to its ICD json; or pass --gpu swiftshader to measure the software adapter on purpose."
  fi
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/[device-webgpu] GPU: /' >&2
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "device-webgpu: cannot run; missing prerequisites:" >&2
  for m in "${missing[@]}"; do echo "  - $m" >&2; done
  exit 2
fi

echo "[device-webgpu] $("$node_bin" --version), ${chrome_version:-$chrome}, site $dist, data $data" >&2
export CHROME_PATH="$chrome" JIANGU_DIST="$dist" JIANGU_DATA="$data"
# -k: a Chromium that ignores the TERM is killed 20 s later; the TS script's own finally removes a --layers folder on TERM too.
exec timeout -k 20 "$timeout_s" "$node_bin" node_modules/tsx/dist/cli.mjs scripts/bench/device-webgpu.ts "${pass[@]}"
