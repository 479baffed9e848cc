#!/usr/bin/env bash
# Browser test of the Ring Collector page: writes it with `beast ring --html`, drives it in
# headless Chromium (Debian's package) with playwright-core, and compares every step with
# `beast ring --json`. The screenshot lands in tests/e2e/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

if [ ! -x /usr/bin/chromium ]; then
    echo "e2e: /usr/bin/chromium is missing; installing Debian's chromium package"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends chromium
fi

(cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)

cargo build --quiet --bin beast
target_dir="${CARGO_TARGET_DIR:-$root/target}"
artifacts="$root/tests/e2e/artifacts"
mkdir -p "$artifacts"
"$target_dir/debug/beast" ring --html > "$artifacts/ring.html"

BEAST="$target_dir/debug/beast" PAGE="$artifacts/ring.html" ARTIFACTS="$artifacts" \
    CHROMIUM=/usr/bin/chromium node tests/e2e/ring.mjs
